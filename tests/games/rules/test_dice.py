"""Reading a throw (RULES.md 1.3, 1.4): faces of the dice, as many as the cup holds."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.dice import (
    ORDINARY_FACES,
    number_total,
    opposite,
    read_faces,
)
from games.rules.errors import IllegalEvent


def refusal(data: Any, count: int, faces: Any = None) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        read_faces(data, count) if faces is None else read_faces(data, count, faces)
    return refused.value


def test_a_throw_is_a_multiset_read_in_any_order() -> None:
    assert read_faces({"faces": ["6", "D", "3", "6", "4"]}, 5) == ("3", "4", "6", "6", "D")


def test_only_the_five_faces_of_a_scarney_die_are_accepted_as_strings() -> None:
    # RULES.md 1.3: "the service accepts only 1 3 4 6 D for Scarney dice (anything else:
    # throw.bad_face)" - a 2 or a 5 of an ordinary die, a number not written as a string.
    for thrown in (["2", "3", "4"], ["5", "3", "4"], [6, "3", "4"], ["d", "3", "4"], [None]):
        error = refusal({"faces": thrown}, 3)
        assert error.code == "throw.bad_face", thrown
        assert repr(thrown[0]) in error.message


def test_ordinary_dice_show_one_to_six() -> None:
    assert read_faces({"faces": ["2", "5", "1"]}, 3, ORDINARY_FACES) == ("1", "2", "5")
    assert refusal({"faces": ["D", "1", "1"]}, 3, ORDINARY_FACES).code == "throw.bad_face"


def test_the_count_must_be_the_dice_in_the_cup() -> None:
    error = refusal({"faces": ["1", "3", "4", "6"]}, 5)
    assert error.code == "throw.wrong_dice_count"
    assert error.message == "5 dice are in the cup, but 4 faces were recorded (1 3 4 6)."
    one = refusal({"faces": []}, 1)
    assert one.message == "1 die is in the cup, but 0 faces were recorded (none)."


@pytest.mark.parametrize("data", [{}, {"faces": "13346"}, {"faces": None}, {"faces": 6}])
def test_faces_that_are_not_a_list_are_bad_data(data: Any) -> None:
    assert refusal(data, 5).code == "event.bad_data"


def test_dead_dice_count_nothing_and_opposites_pair_up() -> None:
    assert number_total(["D", "3", "4", "6", "6"]) == 19
    assert opposite(["1", "3", "D"]) == ("4", "6", "D")
    assert opposite(opposite(["1", "3", "4", "6", "D"])) == ("1", "3", "4", "6", "D")
