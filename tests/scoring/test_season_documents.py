"""A season's printed standings (issue 38, API.md "Seasons"): ``standings.csv`` and
``standings.pdf``, read as the season is, printed from its published evenings only, and rendered
anew after a correction to one of its evenings.

Eager here (no broker): the request renders the document itself.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.store.models import Season
from games.tournaments import seasons
from tests.games.tournaments.helpers import (
    client_for,
    correction,
    create,
    enter,
    high_low_win,
    pair,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    """Each test stores its documents in a folder of its own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT  # type: ignore[no-any-return]


@pytest.fixture
def director() -> tuple[Any, APIClient]:
    return client_for("director", staff=True)


def evening(api: APIClient, name: str, players: list[str], winner: str, capture: Any) -> str:
    """A one-round evening of two players, ``winner`` winning its one table."""
    made = create(api, name=name, format="high-low-scarney", rounds=1)
    enter(api, made["id"], players)
    table = pair(api, made["id"])["tables"][0]
    seat = [s["name"] for s in table["seats"]].index(winner)
    high_low_win(api, table["match"], seat, capture)
    return str(made["id"])


def season_of(user: Any, evenings: list[str], **spec: Any) -> Season:
    body = {"name": "Winter 2027", "format": "high-low-scarney", "counting": {"best": 1}, **spec}
    season = seasons.season_create(spec=body, user=user)
    for tournament in evenings:
        seasons.tournament_add(season_id=season.pk, tournament_id=uuid.UUID(tournament), user=user)
    return season


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def table_of(text: str) -> list[list[str]]:
    """The CSV's table: from its heading line ("Place", ...) on."""
    rows = rows_of(text)
    start = next(i for i, row in enumerate(rows) if row[:1] == ["Place"])
    return rows[start:]


def pdf_text(content: bytes, tmp_path: Path) -> str:
    pdf = tmp_path / "season.pdf"
    pdf.write_bytes(content)
    found = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, check=True, text=True)
    return " ".join(found.stdout.split())


def test_the_csv_is_one_line_a_player_with_each_evenings_points_counted_ones_marked(
    director: tuple[Any, APIClient], django_capture_on_commit_callbacks: Any
) -> None:
    # given two evenings: Ann beats Bob, then Ann beats "=Cid" (a name a spreadsheet would
    # take for a formula); the season counts each player's best evening, "field" points
    user, api = director
    capture = django_capture_on_commit_callbacks
    first = evening(api, "Evening one", ["Ann", "Bob"], "Ann", capture)
    second = evening(api, "Evening two", ["Ann", "=Cid"], "Ann", capture)
    season = season_of(user, [first, second])

    # when the CSV is asked for by a visitor
    answer = APIClient().get(f"/api/v1/seasons/{season.pk}/standings.csv")

    # then it is the file, one line per player under its heading, points "2*" where counted
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="season-standings.csv"' in answer["Content-Disposition"]
    text = answer.content.decode()
    today = timezone.localdate().isoformat()
    assert table_of(text) == [
        [
            "Place",
            "Name",
            "Label",
            "Points",
            "Evenings",
            "Counted",
            f"Evening one ({today})",
            f"Evening two ({today})",
        ],
        # Ann's two evenings give 2 each: the earlier counts, the other is shown unmarked.
        ["1", "Ann", "Ann", "2", "2", "1", "2*", "2"],
        # Bob and Cid are level on all three (1 point, no win, 1 in all): they share 2nd.
        ["2", "Bob", "Bob", "1", "1", "1", "1*", ""],
        ["2", "'=Cid", "'=Cid", "1", "1", "1", "", "1*"],
    ]
    heading = {row[0]: row[1:] for row in rows_of(text) if row}
    assert heading["Season standings"] == ["Winter 2027"]
    assert heading["Game"] == ["High-Low Scarney"]
    assert "best 1 evening count" in heading["Evenings counted"][0]
    assert heading["Evenings"] == ["Printed from the season's published evenings only."]


def test_the_pdf_names_the_season_and_explains_how_it_counts(
    director: tuple[Any, APIClient], django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler's pdftotext is not installed")
    user, api = director
    capture = django_capture_on_commit_callbacks
    first = evening(api, "Evening one", ["Ann", "Bob"], "Bob", capture)
    season = season_of(user, [first], name="Spring League 2027")

    answer = api.get(f"/api/v1/seasons/{season.pk}/standings.pdf")

    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF-")
    text = pdf_text(answer.content, tmp_path)
    assert "Season standings: Spring League 2027" in text
    for expected in ("n - place + 1", "best 1 evening count", "Evening one", "Bob", "Ann"):
        assert expected in text, expected
    assert "Printed from the season's published evenings only." in text


def test_a_hidden_season_is_404_and_an_unpublished_evening_is_not_on_the_paper(
    director: tuple[Any, APIClient], django_capture_on_commit_callbacks: Any
) -> None:
    # given an unpublished season, whose second evening is unpublished too
    user, api = director
    capture = django_capture_on_commit_callbacks
    first = evening(api, "Evening one", ["Ann", "Bob"], "Ann", capture)
    second = evening(api, "Evening private", ["Dee", "Eve"], "Dee", capture)
    hidden = correction(api, second, "tournament.unpublished", {"reason": "a trial evening"})
    assert hidden.status_code == 201, hidden.json()
    season = season_of(user, [first, second], published=False)
    url = f"/api/v1/seasons/{season.pk}/standings.csv"

    # then a visitor and another member are told there is no such season
    assert APIClient().get(url).status_code == 404
    assert client_for("member")[1].get(url).status_code == 404
    assert APIClient().get(f"/api/v1/seasons/{uuid.uuid4()}/standings.pdf").status_code == 404
    # and its director reads it, printed from the published evening alone
    answer = api.get(url)
    assert answer.status_code == 200
    text = answer.content.decode()
    names = [row[1] for row in table_of(text)[1:]]
    assert names == ["Ann", "Bob"]
    assert "Evening private" not in text and "Dee" not in text


def test_a_correction_to_an_evening_gives_a_fresh_document(
    director: tuple[Any, APIClient], django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    # given a season of one evening Ann won, its CSV printed and stored
    user, api = director
    capture = django_capture_on_commit_callbacks
    first = evening(api, "Evening one", ["Ann", "Bob"], "Ann", capture)
    season = season_of(user, [first])
    url = f"/api/v1/seasons/{season.pk}/standings.csv"
    before = table_of(api.get(url).content.decode())
    assert [row[1] for row in before[1:]] == ["Ann", "Bob"]
    folder = Path(settings.MEDIA_ROOT) / "reports" / "seasons" / str(season.pk)
    stored = {p.name for p in folder.iterdir()}

    # when the evening's result is corrected: Bob wins the table
    table = api.get(f"/api/v1/tournaments/{first}/rounds/1/").json()["tables"][0]
    bob = [s["name"] for s in table["seats"]].index("Bob")
    points = [1 if seat == bob else 0 for seat in range(2)]
    adjusted = correction(
        api, first, "result.adjusted", {"round": 1, "table": 1, "points": points, "reason": "r"}
    )
    assert adjusted.status_code == 201, adjusted.json()

    # then the season's CSV is a new rendering, under another name, with Bob first
    after = table_of(api.get(url).content.decode())
    assert [row[1] for row in after[1:]] == ["Bob", "Ann"]
    assert after[1][3] == "2" and after[2][3] == "1"
    renewed = {p.name for p in folder.iterdir()}
    assert len(renewed) == 1 and renewed != stored  # the stale one pruned
