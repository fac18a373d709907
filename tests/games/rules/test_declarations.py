"""What each game declares for the faces to ask instead of keeping lists of kinds of their own:
its name as the books print it, and for a dice game its dice (``ThrowsDice``)."""

from __future__ import annotations

import pytest

from games.rules import registry
from games.rules.base import Rules, ThrowsDice
from games.rules.dice import ORDINARY_FACES, SCARNEY_FACES
from games.rules.errors import BadSetup
from tests.games.rules.test_every_game_fuzz import start


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_game_is_named_as_the_books_name_it(kind: str) -> None:
    rules = registry.get(kind)
    assert isinstance(rules, Rules)
    # given the id, when a face asks its name, then it is the id's words, capitalised as the
    # books print them ("going-to-boston" is "Going to Boston")
    assert rules.title.casefold().replace(" ", "-") == kind.casefold()


@pytest.mark.parametrize("kind", registry.kinds())
def test_a_game_that_shows_dice_declares_them_and_its_cup_never_holds_more(kind: str) -> None:
    rules, state = start(kind)
    shows_dice = "dice" in rules.view(state)
    assert shows_dice == isinstance(rules, ThrowsDice)
    if shows_dice:
        assert rules.dice_faces in (SCARNEY_FACES, ORDINARY_FACES)
        assert 0 <= (rules.view(state)["dice"].get("in_cup") or 0) <= rules.most_dice


def test_scarney_dice_games_throw_scarney_dice_and_the_others_ordinary_ones() -> None:
    faces = {
        kind: rules.dice_faces
        for kind in registry.kinds()
        if isinstance(rules := registry.get(kind), ThrowsDice)
    }
    assert {kind for kind, f in faces.items() if f == SCARNEY_FACES} == {
        "straight-scarney-dice",
        "partnership-straight-scarney-dice",
        "scarney-3000",
        "partnership-scarney-3000",
        "scarney-put-and-take",
    }
    assert {kind for kind, f in faces.items() if f == ORDINARY_FACES} == {
        "double-cameroon",
        "going-to-boston",
        "multiplication",
        "hearts-due",
    }


def test_a_kind_the_rules_do_not_keep_is_refused_not_guessed() -> None:
    with pytest.raises(BadSetup) as refused:
        registry.get("scarney-chess")
    assert refused.value.code == "game.unknown_kind"
