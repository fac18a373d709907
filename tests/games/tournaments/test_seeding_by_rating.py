"""A tournament's first round seeded by rating (``"seeding": "rating"``): the order is asked of
the read side once, recorded in round 1's ``round.paired``, and read back from there after."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.store import journal
from games.store.models import Player
from games.tournaments.core import events
from scoring.models import Rating
from scoring.ratings import ledger
from scoring.ratings.scale import Skill
from tests.games.tournaments.helpers import client_for, create, enter, pair

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


@pytest.fixture
def director() -> Any:
    return client_for("director", staff=True)[1]


def rate(name: str, mu: float, kind: str = "high-low-scarney") -> None:
    """Give a player a rating (as his results would have)."""
    player = Player.objects.get(name=name).pk
    row = ledger.rating_row(
        player, kind, Skill(mu, 3.0, 12), 1, dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    )
    row.save()


def test_a_swiss_seeded_by_rating_pairs_round_one_top_half_against_bottom_half(
    director: Any,
) -> None:
    # given five entries: four rated (Eve best, then Cid, Ann, Bob), Dee unrated
    made = create(director, format="high-low-scarney", system="swiss", rounds=3, seeding="rating")
    ids = dict(zip(NAMES, enter(director, made["id"], NAMES), strict=True))
    for name, mu in [("Eve", 30.0), ("Cid", 28.0), ("Ann", 26.0), ("Bob", 24.0)]:
        rate(name, mu)
    rate("Dee", 40.0, kind="scarney-singles")  # another game's rating does not count

    # when round 1 is paired
    first = pair(director, made["id"])

    # then the order is by rating, the unrated last, and it is recorded in round.paired
    order = [ids[n] for n in ["Eve", "Cid", "Ann", "Bob", "Dee"]]
    paired = journal.event_data(made["id"], events.PAIRED)
    assert paired is not None and paired["seeds"] == order
    # and the Dutch system pairs the top half against the bottom half; the last seed sits out
    tables = [{s["player"] for s in table["seats"]} for table in first["tables"]]
    assert sorted(tables, key=min) == sorted(
        [{ids["Eve"], ids["Ann"]}, {ids["Cid"], ids["Bob"]}], key=min
    )
    assert [bye["player"] for bye in first["byes"]] == [ids["Dee"]]


def test_round_one_paired_again_keeps_the_recorded_order_whatever_the_ratings_now_say(
    director: Any,
) -> None:
    # given round 1 of a rating-seeded Swiss paired
    made = create(director, format="high-low-scarney", system="swiss", rounds=3, seeding="rating")
    ids = dict(zip(NAMES[:4], enter(director, made["id"], NAMES[:4]), strict=True))
    for name, mu in [("Dee", 30.0), ("Cid", 28.0), ("Bob", 26.0), ("Ann", 24.0)]:
        rate(name, mu)
    first = pair(director, made["id"])

    # when the ratings change (nobody is rated any more) and the round is paired again
    Rating.objects.all().delete()
    again = pair(director, made["id"], repair=True, reason="a table was wrong")

    # then the pairing still follows the order recorded in round 1
    order = [ids[n] for n in ["Dee", "Cid", "Bob", "Ann"]]
    repaired = journal.event_data(made["id"], events.REPAIRED)
    assert repaired is not None and repaired["seeds"] == order
    seats = [[s["player"] for s in t["seats"]] for t in again["tables"]]
    assert sorted(map(sorted, seats)) == sorted(
        map(sorted, ([[s["player"] for s in t["seats"]] for t in first["tables"]]))
    )
    assert {frozenset(t) for t in seats} == {
        frozenset({ids["Dee"], ids["Bob"]}),
        frozenset({ids["Cid"], ids["Ann"]}),
    }


def test_seeding_is_entry_random_or_rating(director: Any) -> None:
    answer = director.post(
        "/api/v1/tournaments/",
        {"name": "x", "format": "high-low-scarney", "rounds": 2, "seeding": "elo"},
        format="json",
    )
    assert answer.status_code in (400, 422)
    assert answer.json()["code"] in ("request.invalid", "tournament.bad_seeding")
