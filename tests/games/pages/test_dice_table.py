"""A dice page's throws in words (games/pages/tables/dice_table.py), without a browser."""

from __future__ import annotations

from games.pages.tables.dice_table import throw_line


def test_a_throws_bonus_is_said_in_words_never_as_its_data() -> None:
    three = {"faces": list("3336"), "outcome": "points", "points": 50}
    little = {"faces": list("6DDDD"), "outcome": "little_scarney", "points": 25}
    named = throw_line({**three, "bonus": {"kind": "three_of_a_kind", "points": 20}})
    assert named["notes"] == ["bonus: Three of a kind 20"]
    # a bonus the outcome already names is not said twice; Scarney 3000's flag is a bonus hand
    assert throw_line({**little, "bonus": {"kind": "little_scarney", "points": 25}})["notes"] == []
    assert throw_line({**three, "bonus": True})["notes"] == ["bonus hand"]
    assert throw_line({**three, "bonus": None})["notes"] == []
