"""The store sends through the Celery app it is handed at ready(): the site's, registered by the
site's app config (scarney_site/apps.py); the store never imports the site."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.exceptions import ImproperlyConfigured

from games.store import outbox
from scarney_site.celery import app


@pytest.fixture
def handed_back() -> Iterator[None]:
    yield
    outbox.sender_register(app)


def test_the_outbox_sends_through_the_celery_app_the_site_handed_it_at_ready() -> None:
    # given Django set up (every app's ready() has run); then the outbox holds the site's app
    assert outbox.sender() is app
    assert outbox.eager() is bool(app.conf.task_always_eager)


def test_an_outbox_handed_no_app_refuses_to_send_rather_than_importing_one(
    handed_back: None,
) -> None:
    # given no app handed over
    outbox._senders.clear()
    # when the outbox is asked what it sends through; then it says so, loudly
    with pytest.raises(ImproperlyConfigured):
        outbox.sender()


def test_the_store_imports_nothing_of_the_site() -> None:
    import grimp

    graph = grimp.build_graph("games", "scarney_site", include_external_packages=False)
    climbing = graph.find_illegal_dependencies_for_layers(
        layers=("scarney_site", "games.store"), containers=set()
    )
    assert climbing == set()
