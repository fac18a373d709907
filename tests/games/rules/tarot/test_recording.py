"""Recording mode (RULES.md 16.3-16.4), the table of the rule modules Tontine, Last Laugh and
Courtship Rules: the required base game (D-TAR-3), turn, each card once, held cards, and a full
trick before its winner."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.errors import BadSetup, IllegalEvent
from games.rules.tarot import recording


def refused(fn: Any, *args: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        fn(*args)
    return caught.value


def test_base_game_is_required_d_tar_3() -> None:
    class Missing:
        base_game = None

    with pytest.raises(BadSetup) as caught:
        recording.check_base_game(Missing(), "tontine")
    assert caught.value.code == "ruleset.base_game_required"


def test_recording_mode_checks_turn_each_card_once_and_held_cards() -> None:
    read_play = recording.read_play
    table = recording.new_table({}, 3, "scarto")
    seat, card = read_play(table, {"seat": 0, "card": "Ks"})
    table = recording.table_play(table, seat, card)
    assert refused(read_play, table, {"seat": 2, "card": "Qs"}).code == "play.not_your_turn"
    assert refused(read_play, table, {"seat": 1, "card": "Ks"}).code == "card.already_played"
    dealt = recording.table_deal(recording.new_table({}, 2, "scarto"), {"hands": [["Ks"], ["Qs"]]})
    assert refused(read_play, dealt, {"seat": 0, "card": "Qs"}).code == "play.card_not_held"
    assert refused(recording.table_deal, dealt, {"hands": [["Ks"], ["Qs"]]}).code == "deal.too_late"


def test_recording_mode_needs_a_full_trick_before_its_winner() -> None:
    table = recording.new_table({"leader": 1}, 2, "tarocchi")
    assert table.to_play == 1
    assert refused(recording.read_winner, table, {"winner": 1}, None).code == "trick.incomplete"
    table = recording.table_play(recording.table_play(table, 1, "2s"), 0, "Ks")
    assert refused(recording.read_winner, table, {"winner": 1}, 0).code == "trick.wrong_winner"
    assert recording.table_win(table, 0).current.leader == 0  # the winner leads next
    with pytest.raises(BadSetup):
        recording.new_table({"leader": 5}, 2, "scarto")
