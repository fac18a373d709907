"""Reactions across contexts (games.store.reactions): registered at ready(), called in order."""

from __future__ import annotations

from typing import Any

import pytest

from games.api import answer_cache
from games.store import reactions
from games.tournaments import results, rounds
from games.webhooks import services as webhooks


def test_the_apps_register_their_reactions_when_django_starts() -> None:
    # given Django started (the test settings install every app); then each context is there
    assert webhooks.deliveries_register in reactions._subscribers[reactions.APPENDED]
    assert results.result_from_match in reactions._subscribers[reactions.MATCH_CLOSED]
    assert rounds.duplicate_layout in reactions._answers[reactions.DUPLICATE_LAYOUT]
    assert answer_cache.forget_all in reactions._subscribers[reactions.REBUILT]


@pytest.fixture
def topic() -> Any:
    name = "test.topic"
    yield name
    reactions._subscribers.pop(name, None)
    reactions._answers.pop(name, None)


def test_publish_calls_each_subscriber_once_in_the_order_they_registered(topic: str) -> None:
    heard: list[tuple[str, int]] = []

    def first(**facts: int) -> None:
        heard.append(("first", facts["n"]))

    def second(**facts: int) -> None:
        heard.append(("second", facts["n"]))

    reactions.subscribe(topic, first)
    reactions.subscribe(topic, second)
    reactions.subscribe(topic, first)  # a second ready() registers nothing more
    reactions.publish(topic, n=3)
    assert heard == [("first", 3), ("second", 3)]


def test_ask_takes_the_first_answer_that_is_not_none(topic: str) -> None:
    assert reactions.ask(topic, n=1) is None
    reactions.answer(topic, lambda n: None)
    reactions.answer(topic, lambda n: n * 2)
    reactions.answer(topic, lambda n: n * 3)
    assert reactions.ask(topic, n=5) == 10
