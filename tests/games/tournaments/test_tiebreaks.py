"""The tie-breaks are declared once (games.tournaments.core.tiebreaks): the default, the check and
the words every face shows all come from that declaration."""

from __future__ import annotations

from typing import Any

import pytest

from games.admin.tournaments.forms import TournamentForm
from games.rules.errors import BadSetup
from games.tournaments.core import events, tiebreaks
from games.tournaments.core.standings import explain
from scoring.documents import labels
from tests.games.tournaments.helpers import client_for, create


def test_every_face_words_a_tiebreak_as_declared() -> None:
    for declared in tiebreaks.DECLARED:
        # the documents' and pages' headings, and the standings' explanation
        assert labels.tiebreak(declared.key) == declared.label
        assert labels.label(declared.key) == declared.label
        assert explain([declared.key])[declared.key] == declared.sentence
        assert declared.named in explain([declared.key])["rank"]


def test_the_event_shape_and_the_check_take_the_declared_keys_and_no_other() -> None:
    shape = events.EVENT_SHAPES[events.CREATED].fields["tiebreaks"]
    assert tuple(shape.of.choices) == tiebreaks.TIEBREAKS
    assert tiebreaks.check(list(reversed(tiebreaks.TIEBREAKS))) == tiebreaks.TIEBREAKS[::-1]
    for refused in (["progressive"], ["net", "net"], "net"):
        with pytest.raises(BadSetup) as caught:
            tiebreaks.check(refused)
        assert caught.value.code == "tournament.bad_tiebreak"


def test_the_admin_offers_the_declared_default_in_the_declared_words(db: Any) -> None:
    field = TournamentForm().fields["tiebreaks"]
    assert field.initial == ", ".join(t.label for t in map(tiebreaks.BY_KEY.get, tiebreaks.DEFAULT))
    assert all(t.label in str(field.help_text) for t in tiebreaks.DECLARED)


@pytest.mark.django_db
def test_a_tournament_created_without_tiebreaks_breaks_ties_by_the_declared_default() -> None:
    _director, api = client_for("dora", staff=True)
    made = create(api, format="high-low-scarney", system="swiss", rounds=3)
    assert tuple(made["tiebreaks"]) == tiebreaks.DEFAULT
    refused = api.post(
        "/api/v1/tournaments/",
        {"name": "Odd", "format": "high-low-scarney", "rounds": 3, "tiebreaks": ["progressive"]},
        format="json",
    )
    assert refused.status_code == 422
    assert refused.json()["code"] == "tournament.bad_tiebreak"
