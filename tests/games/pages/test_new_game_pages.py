"""A new dice game touches no page module: a made-up family (tests/fixtures/made_up_dice.py),
kept by the registry for the test only, has its table page and its sheet page drawn from what it
declares, over the real URLs."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.play import services
from games.rules import registry
from tests.fixtures import made_up_dice


@pytest.fixture
def high_die() -> Iterator[None]:
    with registry.including(made_up_dice):
        yield
    assert not registry.knows(made_up_dice.KIND)  # forgotten after the test


@pytest.fixture
def client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_made_up_dice_game_has_its_table_page_in_its_own_words(
    high_die: None, user: Any, client: Client
) -> None:
    # given a game of a dice kind no page module names, Ann's die thrown
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    game = services.game_start(kind=made_up_dice.KIND, seats=seats, user=user)
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="dice.thrown",
        data={"faces": ["5"]},
        user=user,
    )
    # when its table page is read
    page = client.get(f"/games/{game.pk}/")
    # then it is drawn, its throws worded as the game words them
    assert page.status_code == 200
    html = page.content.decode()
    assert "High Die" in html
    assert "The high dice" in html and "a high die of 5" in html


def test_a_made_up_dice_game_has_its_sheet_page_with_its_own_rule(
    high_die: None, user: Any, client: Client
) -> None:
    # given a sheet match of the made-up format
    players = [{"name": "Ann"}, {"name": "Bob"}]
    match = services.match_start(
        format=made_up_dice.KIND, players=players, entry="sheet", user=user
    )
    # when its sheet page is read
    page = client.get(f"/matches/{match.pk}/")
    # then it shows the rule its lines follow, as the format words it
    assert page.status_code == 200
    assert "A match is one throw of a die each: the highest die wins the match." in (
        page.content.decode()
    )
