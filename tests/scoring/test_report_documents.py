"""Printed documents (issue 13, "Reports, rendered by Celery"): score sheets as CSV, HTML and PDF
with their chart, stored and served fresh or answered 202 while they render, rendered again after a
later event (by a real worker too); a tournament's cards, standings and slips; the nightly report.

PDFs are parsed with pypdf: their text, their pages, and the chart's vector path in the page's
content stream (and its ink, when poppler's pdftoppm is installed).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from pypdf import PdfReader
from rest_framework.test import APIClient

from games.store.models import Outbox, Player
from scarney_site.celery import app
from scoring import tasks
from scoring.documents import printing
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair, play_sheet
from tests.scoring.test_celery import (  # noqa: F401  (fixtures)
    celery_app,
    finished_tasks,
    wait_for,
    worker,
)

pytestmark = pytest.mark.django_db

RAW_LABELS = ("match_bonus", "game_bonus", "in_progress", "high-low-scarney", "(settled)")


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    """Each test stores its documents in a folder of its own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT  # type: ignore[no-any-return]


@pytest.fixture
def director() -> APIClient:
    return client_for("director", staff=True)[1]


@pytest.fixture
def queued() -> Iterator[None]:
    """Tasks are queued for a worker, not run in the request (no worker runs here)."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield
    finally:
        app.conf.task_always_eager = saved


def sheet_line(api: APIClient, match: str, scores: list[int]) -> None:
    body = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": scores}}
    answer = api.post(f"/api/v1/matches/{match}/events/", body, format="json")
    assert answer.status_code == 201, answer.json()


def high_low_match(api: APIClient) -> str:
    body = {
        "format": "high-low-scarney",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "entry": "sheet",
    }
    answer = api.post("/api/v1/matches/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return str(answer.json()["id"])


def tournament_evening(director: APIClient, capture: Any) -> tuple[str, dict[str, Any]]:
    """Four players, round 1 paired and played: the first-named player wins at each table."""
    made = create(director, name="Tuesday club evening", format="high-low-scarney", rounds=2)
    enter(director, made["id"], ["Dee", "Ann", "Cid", "Bob"])
    played = pair(director, made["id"])
    for table in played["tables"]:
        play_sheet(director, table["match"], [HL_WIN, [0, 12], HL_WIN, HL_WIN], capture)
    return made["id"], played


def pdf_text(content: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(content))
    text = " ".join(page.extract_text() for page in reader.pages)
    return reader, " ".join(text.split())  # lines wrap where the page is narrow


def path_operators(reader: PdfReader) -> int:
    """How many line-to operators the pages draw (text is not drawn with them: a chart is)."""
    count = 0
    for page in reader.pages:
        stream = page.get_contents()
        data = stream.get_data() if stream is not None else b""
        count += len(re.findall(rb"[\d.]+ [\d.]+ l\b", data))
    return count


def ink_in_chart(content: bytes, tmp_path: Path) -> int | None:
    """Dark pixels in the lower part of page 1 as poppler draws it (None without pdftoppm)."""
    if shutil.which("pdftoppm") is None:
        return None
    from PIL import Image  # WeasyPrint's own dependency

    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(content)
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", pdf, tmp_path / "p"])
    image = Image.open(next(tmp_path.glob("p*.png"))).convert("RGB")
    width, height = image.size
    colours = image.crop((0, height // 2, width, height)).getcolors(maxcolors=width * height)
    assert colours is not None
    # The chart's lines are coloured: count pixels far from grey.
    return sum(n for n, (r, g, b) in colours if max(r, g, b) - min(r, g, b) > 60)


def test_the_pdf_sheet_shows_the_event_names_bonuses_totals_payments_and_its_chart(
    director: APIClient, django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    # given a tournament's table 1, played: the winner has 3 game bonuses and the match bonus
    tournament, played = tournament_evening(director, django_capture_on_commit_callbacks)
    table = played["tables"][0]
    winner, loser = (seat["name"] for seat in table["seats"])

    # when the sheet is asked for as HTML and PDF (eager here: rendered in the request)
    page = director.get(f"/api/v1/matches/{table['match']}/score-sheet.html")
    answer = director.get(f"/api/v1/matches/{table['match']}/score-sheet.pdf")

    # then the HTML draws one chart line per player through the start and each of 4 games
    assert page.status_code == 200
    html = page.content.decode()
    lines = re.findall(r'<polyline class="seat-\d"[^>]* points="([^"]+)"', html)
    assert len(lines) == 2 and all(len(points.split()) == 5 for points in lines)
    # and the PDF is one A4 page with the heading, the names, the labelled bonuses and totals
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    reader, text = pdf_text(answer.content)
    assert len(reader.pages) == 1
    assert "High-Low Scarney score sheet" in text
    assert "Tuesday club evening, round 1, table 1" in text and "the club" in text
    for expected in (winner, loser, "Game bonus 60", "Match bonus 100", "262", "34 – 102"):
        assert expected in text, expected
    assert f"{winner} wins by 230" in text and f"{loser} pays {winner} 230" in text
    assert not any(raw in text or raw in html for raw in RAW_LABELS)
    # and the chart is drawn: vector lines in the page, coloured ink where the chart is
    assert path_operators(reader) >= 8
    ink = ink_in_chart(answer.content, tmp_path)
    assert ink is None or ink > 200, ink


def test_the_sheet_is_202_with_retry_after_until_its_task_has_run_then_served_stored(
    api: APIClient, queued: None, settings: Any
) -> None:
    # given a match with one game entered, and a worker that has not run yet
    match = high_low_match(api)
    sheet_line(api, match, HL_WIN)

    # when the sheet is asked for
    first = api.get(f"/api/v1/matches/{match}/score-sheet.csv")

    # then it is being rendered: 202, Retry-After, and the render task waits in the outbox
    assert first.status_code == 202 and first["Retry-After"] == "2"
    assert first.json()["status"] == "rendering"
    row = Outbox.objects.get(key=f"render:sheet:{match}")
    assert (row.task, row.args, row.done_at) == (
        "scoring.render_document",
        [f"sheet:{match}"],
        None,
    )
    assert api.get(f"/api/v1/matches/{match}/score-sheet.csv").status_code == 202

    # when the task runs (as the worker would), twice (at-least-once delivery)
    names = tasks.render_document(f"sheet:{match}")
    assert tasks.render_document(f"sheet:{match}") == names
    assert {name.rsplit(".", 1)[1] for name in names} == {"csv", "html", "pdf"}

    # then the stored files are served, and the row is done
    served = api.get(f"/api/v1/matches/{match}/score-sheet.csv")
    assert served.status_code == 200 and "34 - 34" in served.content.decode()
    assert Outbox.objects.get(key=f"render:sheet:{match}").done_at is not None

    # when a later event changes the match (rendering ahead is on, as with a broker)
    settings.REPORTS_RENDER_AHEAD = True
    sheet_line(api, match, [0, 12])

    # then the same row is armed again, the stale file is never served, and the next render is
    assert Outbox.objects.get(key=f"render:sheet:{match}").done_at is None
    assert api.get(f"/api/v1/matches/{match}/score-sheet.csv").status_code == 202
    tasks.render_document(f"sheet:{match}")
    again = api.get(f"/api/v1/matches/{match}/score-sheet.csv").content.decode()
    assert "0 - 34" in again and "12 - 12" in again
    # and only the latest rendering of each format is kept
    folder = Path(settings.MEDIA_ROOT) / "reports" / "matches" / match
    assert sorted(p.suffix for p in folder.iterdir()) == [".csv", ".html", ".pdf"]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker")
def test_a_real_worker_renders_the_sheet_and_renders_it_again_after_a_later_event(
    settings: Any,
) -> None:
    _user, api = client_for("keeper")
    settings.REPORTS_RENDER_AHEAD = True
    match = high_low_match(api)
    sheet_line(api, match, HL_WIN)

    # the first reader hears 202 unless the worker, rendering ahead, was quicker (the 202
    # itself is checked without a worker above), and the worker renders the sheet
    assert api.get(f"/api/v1/matches/{match}/score-sheet.pdf").status_code in (200, 202)
    wait_for(
        lambda: api.get(f"/api/v1/matches/{match}/score-sheet.pdf").status_code == 200,
        "the worker to render the sheet",
    )

    # a later game: the worker renders the sheet again before anyone asks
    sheet_line(api, match, [0, 12])
    sheet = printing.ScoreSheet(uuid.UUID(match))
    # (the task stores csv, html, then pdf: the pdf last)
    wait_for(lambda: printing.open_fresh(sheet, "pdf") is not None, "the sheet rendered again")
    with printing.open_fresh(sheet, "csv") as stored:  # type: ignore[union-attr]
        assert "12 - 12" in stored.read().decode()
    answer = api.get(f"/api/v1/matches/{match}/score-sheet.pdf")
    assert answer.status_code == 200
    assert "12 – 12" in pdf_text(answer.content)[1]


def test_a_rounds_cards_standings_and_slips_name_the_right_players(
    director: APIClient, anon: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, played = tournament_evening(director, django_capture_on_commit_callbacks)
    base = f"/api/v1/tournaments/{tournament}"
    tables = [[seat["name"] for seat in table["seats"]] for table in played["tables"]]

    # the cards: every table in order, and every player listed by name
    cards = director.get(f"{base}/rounds/1/cards.html")
    assert cards.status_code == 200
    html = cards.content.decode()
    positions = [html.index(f"<h3>Table {n}</h3>") for n in (1, 2)]
    assert positions == sorted(positions)
    by_name = html[html.index("Where to sit, by name") :]
    assert [by_name.index(f"<td>{n}</td>") for n in ("Ann", "Bob", "Cid", "Dee")] == sorted(
        by_name.index(f"<td>{n}</td>") for n in ("Ann", "Bob", "Cid", "Dee")
    )
    assert all(name in html for table in tables for name in table)

    # the standings, as PDF: the winners first, the tie-breaks named, the payments
    standings = director.get(f"{base}/standings.pdf")
    assert standings.status_code == 200
    reader, text = pdf_text(standings.content)
    assert len(reader.pages) == 1 and "Standings after round 1" in text
    winners = [table[0] for table in tables]
    losers = [table[1] for table in tables]
    assert max(text.index(w) for w in winners) < min(text.index(n) for n in losers)
    assert "Buchholz" in text and "Tuesday club evening" in text

    # a loser's slip: his table, his opponent, his net, whom he pays
    loser = Player.objects.get(name=losers[0])
    slip = director.get(f"{base}/players/{loser.pk}/slip.html").content.decode()
    assert f"Evening slip: {loser.name}" in slip and tables[0][0] in slip
    # (who pays whom is netted over the evening: one winner or the other)
    paid = re.search(rf"<li>{loser.name} pays (\w+) 230</li>", slip)
    assert paid is not None and paid.group(1) in winners and "-230" in slip

    # a round not paired, a player not entered: 404; a published tournament reads without login
    assert director.get(f"{base}/rounds/2/cards.html").status_code == 404
    assert director.get(f"{base}/players/999999/slip.pdf").status_code == 404
    assert anon.get(f"{base}/standings.html").status_code == 200


def test_the_nightly_report_lists_the_days_matches_winners_best_scores_and_bonuses(
    director: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    # given an evening of two matches ended today
    _tournament, played = tournament_evening(director, django_capture_on_commit_callbacks)
    winners = [table["seats"][0]["name"] for table in played["tables"]]
    today = timezone.localdate()

    # when beat's task runs for today
    names = tasks.nightly_report(today.isoformat())

    # then it is listed, latest first, with links to its HTML and PDF
    assert [n.rsplit(".", 1)[1] for n in names] == ["html", "pdf"]
    listed = director.get("/api/v1/reports/nightly/").json()["results"]
    assert [row["date"] for row in listed] == [today.isoformat()]
    html = director.get(listed[0]["html"]).content.decode()
    for winner in winners:
        assert f"<strong>{winner}</strong>" in html
    assert "Match bonus" in html and "Game bonus" in html and "match_bonus" not in html
    answer = director.get(listed[0]["pdf"])
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    reader, text = pdf_text(answer.content)
    assert len(reader.pages) == 1 and f"Nightly report, {today:%A} {today.day}" in text
    assert director.get("/api/v1/reports/nightly/2001-01-01.pdf").status_code == 404


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"


def test_a_browser_waiting_for_a_document_gets_a_page_that_asks_again_by_itself(
    api: APIClient, queued: None
) -> None:
    # given a match whose sheet no worker has rendered yet
    match = high_low_match(api)
    sheet_line(api, match, HL_WIN)
    url = f"/api/v1/matches/{match}/score-sheet.pdf"

    # when a browser asks for the PDF
    answer = api.get(url, HTTP_ACCEPT=BROWSER)

    # then it is told, in a page, that the sheet is being rendered
    assert answer.status_code == 202 and answer["Retry-After"] == "2"
    assert answer["Content-Type"] == "text/html; charset=utf-8"
    assert "Accept" in answer["Vary"] and "no-store" in answer["Cache-Control"]
    html = answer.content.decode()
    assert "<h1>Rendering the score sheet</h1>" in html
    # and the page reloads itself after Retry-After seconds, with a link to try at once
    assert '<meta http-equiv="refresh" content="2">' in html
    assert f'href="{url}"' in html and "Try again now" in html


@pytest.mark.parametrize("accept", ["application/pdf", "*/*", "application/json", None])
def test_any_other_client_waiting_for_a_document_gets_json_labelled_json(
    api: APIClient, queued: None, accept: str | None
) -> None:
    # given a tournament's standings not rendered yet
    _user, director = client_for("director", staff=True)
    made = create(director, name="Friday evening", format="high-low-scarney", rounds=2)
    enter(director, made["id"], ["Ann", "Bob"])
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}

    # when a program asks for the PDF
    answer = director.get(f"/api/v1/tournaments/{made['id']}/standings.pdf", **headers)

    # then the 202 is JSON, said to be JSON (never JSON labelled as a PDF)
    assert answer.status_code == 202 and answer["Retry-After"] == "2"
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {
        "status": "rendering",
        "detail": "Rendering the standings; ask again in 2 s.",
        "retry_after": 2,
    }


def test_an_error_on_a_pdf_asked_as_a_pdf_is_json_labelled_json(api: APIClient) -> None:
    answer = api.get("/api/v1/reports/nightly/2001-01-01.pdf", HTTP_ACCEPT="application/pdf")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "not_found"
