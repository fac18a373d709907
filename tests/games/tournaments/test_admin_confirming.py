"""The director sees and settles unconfirmed tables in the admin (issue 36, item 3), through
Django's test client: the tournament's page marks a table whose result awaits its players, one
form confirms it with a reason (the API's director confirmation, the same service call), the
"results unconfirmed" page links each table to it, the match links lead on to the table's page,
and the site's pages link a director, and only a director, to his tools. The table cards' link
wraps at its slashes."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.contrib.staticfiles import finders
from django.test import Client

from games.store.models import Event
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair, play_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Two tables of round 1: table 1 entered by the director (confirmed by its entry), table 2
    by a keeper (awaiting its players)."""
    director_user, director = client_for("dora", staff=True)
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], ["Ann", "Bob", "Cid", "Pat"])
    played = pair(director, made["id"])
    _keeper_user, keeper = client_for("bob")
    director.post(
        f"/api/v1/tournaments/{made['id']}/keepers/",
        {"round": 1, "table": 2, "user": "bob"},
        format="json",
    )
    first, second = (t["match"] for t in played["tables"])
    play_sheet(director, first, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    play_sheet(keeper, second, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    desk = Client()
    desk.force_login(director_user)
    return {"id": made["id"], "matches": (first, second), "desk": desk, "api": director}


def admin_page(tournament: str) -> str:
    return f"/admin/games/tournament/{tournament}/change/"


def confirm_page(tournament: str, table: int, number: int = 1) -> str:
    return f"/admin/games/tournament/{tournament}/rounds/{number}/tables/{table}/confirm/"


def said(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_tournament_page_marks_the_table_awaiting_confirmation(evening: Any) -> None:
    page = evening["desk"].get(admin_page(evening["id"])).content.decode()
    # Table 2 alone is marked, and confirmed from the page: one form, with a reason.
    assert page.count('<strong class="unconfirmed">awaiting confirmation</strong>') == 1
    assert "Results awaiting confirmation" in page
    assert f'action="{confirm_page(evening["id"], 2)}"' in page
    assert f'action="{confirm_page(evening["id"], 1)}"' not in page
    assert 'id="confirm-r1t2"' in page and 'name="reason"' in page


def test_a_director_confirms_a_table_in_one_step_with_a_reason(evening: Any) -> None:
    second = evening["matches"][1]
    body = {"reason": "Both players left; the sheet is signed", "event_id": str(uuid.uuid4())}
    done = evening["desk"].post(confirm_page(evening["id"], 2), body, follow=True)
    assert done.status_code == 200
    assert done.redirect_chain[-1][0] == admin_page(evening["id"])
    assert any("confirmed by the director" in m for m in said(done))
    # The API's director confirmation, recorded on the table's match with the admin's device.
    confirmed = Event.objects.get(stream_id=second, type="result.confirmed")
    assert confirmed.data == {"director": True, "reason": body["reason"]}
    assert confirmed.meta["device"] == "admin"
    counted = Event.objects.get(stream_id=evening["id"], type="table.confirmed")
    assert counted.data["director"] is True and counted.data["table"] == 2
    # The table is no longer marked, and the round pairs without asking why.
    page = evening["desk"].get(admin_page(evening["id"])).content.decode()
    assert "awaiting confirmation" not in page
    rounds = evening["api"].get(f"/api/v1/tournaments/{evening['id']}/rounds/1/").json()
    assert rounds["unconfirmed"] == []
    # The same form sent again records nothing more.
    again = evening["desk"].post(confirm_page(evening["id"], 2), body, follow=True)
    assert again.status_code == 200
    assert Event.objects.filter(stream_id=second, type="result.confirmed").count() == 1


def test_a_confirmation_without_a_reason_is_asked_again(evening: Any) -> None:
    shown = evening["desk"].get(confirm_page(evening["id"], 2))
    assert shown.status_code == 200
    assert "Not agreed yet by" in shown.content.decode()
    bare = evening["desk"].post(
        confirm_page(evening["id"], 2), {"reason": "", "event_id": str(uuid.uuid4())}
    )
    assert bare.status_code == 200 and "This field is required" in bare.content.decode()
    assert not Event.objects.filter(type="result.confirmed").exists()
    assert evening["desk"].get(confirm_page(evening["id"], 9)).status_code == 404


def test_the_unconfirmed_page_links_each_table_to_its_confirmation(evening: Any) -> None:
    asked = evening["desk"].post(f"/admin/games/tournament/{evening['id']}/pair/")
    page = asked.content.decode()
    assert "is not confirmed by its players yet" in page
    assert f'<a href="{confirm_page(evening["id"], 2)}">2</a>' in page


def test_the_match_links_lead_to_the_tables_page(evening: Any) -> None:
    first = evening["matches"][0]
    page = evening["desk"].get(admin_page(evening["id"])).content.decode()
    assert f'href="/matches/{first}/"' in page
    record = evening["desk"].get(f"/admin/games/match/{first}/change/").content.decode()
    assert f'href="/matches/{first}/"' in record


def test_the_pages_link_a_director_to_his_tools_and_no_one_else(evening: Any) -> None:
    home = evening["desk"].get("/").content.decode()
    assert "Director's tools" in home and 'href="/admin/"' in home
    player = get_user_model().objects.create_user(username="ann", password="pw")
    visitor = Client()
    visitor.force_login(player)
    assert "Director's tools" not in visitor.get("/").content.decode()
    assert "Director's tools" not in Client().get("/").content.decode()


def test_a_table_cards_address_wraps_at_its_slashes_never_inside_the_port(evening: Any) -> None:
    """Issue 36, item 4: the card's link broke inside its port ("127.0.0.1:810 / 0/t/...")."""
    cards = evening["desk"].get(f"/admin/games/tournament/{evening['id']}/cards/")
    html = cards.content.decode()
    addresses = re.findall(r'<strong class="address" data-role="address">(.*?)</strong>', html)
    assert len(addresses) == 2
    for address in addresses:
        # the host and each part whole, a break opportunity after each slash and nowhere else
        part = '<span class="part">{}</span>'
        shape = "/<wbr>".join(
            part.format(p) for p in ("http://testserver", "t", "[A-Z0-9-]{9}", "")
        )
        assert re.fullmatch(shape, address), address
    # and the print style no longer breaks a word anywhere
    style = finders.find("games/print.css")
    assert "break-all" not in Path(style).read_text()
