"""Games started inside a match: the match's players, in its order, and the roles it gives."""

from __future__ import annotations

from typing import Any

import pytest

from games.play import services
from games.rules.errors import BadSetup
from games.store.models import GameSeat

pytestmark = pytest.mark.django_db


def test_a_match_game_seats_the_match_players_whether_named_or_left_out() -> None:
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Mia"}])
    implied = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
    assert [s.player.name for s in GameSeat.objects.filter(game=implied)] == ["Mia"]


def test_a_match_game_refuses_other_players() -> None:
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Mia"}])
    with pytest.raises(BadSetup) as refused:
        services.game_start(kind="scarney-solitaire", seats=[{"name": "Ola"}], match_id=match.pk)
    assert refused.value.code == "match.seats_fixed" and "Mia" in refused.value.message
    named = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Mia"}], match_id=match.pk
    )
    assert named.number == 1


def test_the_match_json_lists_what_its_entry_mode_takes_next(api: Any) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}]
    drawn = ["order.drawn"]  # the optional first-player draw, before the first game
    for entry, expected in (
        ("sheet", [*drawn, "game.scored"]),
        ("live", [*drawn, "game.finished"]),
    ):
        body = {"format": "scarney-doubles", "players": players, "entry": entry}
        match = api.post("/api/v1/matches/", body, format="json").json()
        assert match["expected"] == expected, entry
    body = {"format": "scarney-solitaire", "players": players[:1], "entry": "sheet"}
    assert api.post("/api/v1/matches/", body, format="json").json()["expected"] == ["game.scored"]
