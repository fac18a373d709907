"""The director's admin (issue 11, "Admin"), through Django's test client.

Every step of an evening is taken in the admin as a director would: add the tournament, enter
players, pair, assign a keeper, close the round, settle, print the cards and the standings, merge
two records of one person. What the admin did is checked in the events it recorded.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games import register, services, tournament_services
from games.models import Event, Match, Player, Stream, Tournament, TournamentTable

pytestmark = pytest.mark.django_db

WIN = {"scores": [34, 0]}  # three of these win a High-Low Scarney sheet match for seat 0


@pytest.fixture
def director(db: Any) -> Any:
    return get_user_model().objects.create_user(
        username="dora", password="secret-pass-1", is_staff=True
    )


class FollowingClient(Client):
    """Follows redirects, as a browser does: the page it lands on shows (and so uses up) the
    messages of the request before, and each response's messages are its own."""

    def get(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("follow", True)
        return super().get(*args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("follow", True)
        return super().post(*args, **kwargs)


@pytest.fixture
def admin_client(director: Any) -> Client:
    client = FollowingClient()
    client.force_login(director)
    return client


def said(response: Any) -> list[str]:
    """The messages shown to the director after this request."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def landed(response: Any) -> str | None:
    """Where the admin redirected to (None: it answered a page itself)."""
    return response.redirect_chain[-1][0] if response.redirect_chain else None


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"admin:games_tournament_{name}", args=[tournament.pk])


def add_tournament(client: Client, **fields: Any) -> Any:
    form = {
        "name": "Tuesday club evening",
        "format": "high-low-scarney",
        "system": "swiss",
        "rounds": "3",
        "table_size": "2",
        "entry": "sheet",
        "tiebreaks": "buchholz, sonneborn_berger",
        "seeding": "entry",
        **fields,
    }
    return client.post(reverse("admin:games_tournament_add"), form)


def win_sheet_match(match_id: Any, user: Any) -> None:
    for _ in range(3):
        services.event_record(
            stream_id=match_id, event_id=uuid.uuid4(), type="game.scored", data=WIN, user=user
        )


def run_action(client: Client, changelist: str, action: str, *pks: Any, **extra: Any) -> Any:
    body = {"action": action, "index": "0", ACTION_CHECKBOX_NAME: [str(p) for p in pks], **extra}
    return client.post(reverse(changelist), body)


def test_a_director_runs_an_evening_through_the_admin(
    admin_client: Client, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # a tournament added through the admin's form is the service's tournament.created
    response = add_tournament(admin_client)
    tournament = Tournament.objects.get()
    assert landed(response) == url("change", tournament)
    created = Event.objects.get(stream_id=tournament.pk, version=1)
    assert created.type == "tournament.created"
    assert created.data["tiebreaks"] == ["buchholz", "sonneborn_berger"]
    assert created.meta["recorded_by"] == director.pk

    # four players entered: one registered in the admin first, three by name
    register = admin_client.post(
        reverse("admin:games_player_add"), {"name": "Ann", "member_number": "101"}
    )
    ann = Player.objects.get(member_number="101")
    assert landed(register) == reverse("admin:games_player_change", args=[ann.pk])
    entered = admin_client.post(
        url("enter", tournament), {"players": [ann.pk], "names": "Bob\nCid\n\nDee\n"}
    )
    assert said(entered) == ["Tuesday club evening: 4 player(s) entered."]
    assert tournament.entries.count() == 4

    # round 1 paired by the changelist's action
    paired = run_action(
        admin_client, "admin:games_tournament_changelist", "pair_next_round", tournament.pk
    )
    assert landed(paired) == reverse("admin:games_tournament_changelist")
    assert "round 1 is paired at 2 table(s)" in said(paired)[0]
    tables = {t.number: t for t in TournamentTable.objects.filter(tournament=tournament)}
    assert sorted(tables) == [1, 2]
    match_1, match_2 = tables[1].match_id, tables[2].match_id
    assert match_1 is not None and match_2 is not None

    # a keeper for table 1, who then records there
    kim = get_user_model().objects.create_user(username="kim", password="secret-pass-1")
    kept = admin_client.post(
        url("keepers", tournament), {"round": 1, "table": 1, "username": "kim"}
    )
    assert landed(kept) == url("change", tournament), said(kept)
    tables[1].refresh_from_db()
    assert tables[1].keepers == ["kim"]
    assert Stream.objects.get(pk=match_1).keepers.filter(pk=kim.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        win_sheet_match(match_1, kim)
    # table 2 finishes, but its close task never runs (as after a broker outage)
    win_sheet_match(match_2, director)
    assert Stream.objects.get(pk=match_2).status == Stream.Status.FINISHED

    # closing the round is refused while table 2 has no result: a message, no 500
    early = admin_client.post(url("close_round", tournament))
    assert early.status_code == 200 and landed(early) == url("change", tournament)
    assert said(early) == [
        "Tuesday club evening: Round 1 is still playing: no result yet from table(s) 2."
    ]

    # settle now closes the one finished match left unclosed
    settled = admin_client.post(url("settle", tournament))
    assert "1 finished match(es) settled now" in said(settled)[0]
    assert Stream.objects.get(pk=match_2).status == Stream.Status.SETTLED
    again = run_action(
        admin_client, "admin:games_tournament_changelist", "settle_now", tournament.pk
    )
    assert "0 finished match(es) settled now" in said(again)[0]

    closed = admin_client.post(url("close_round", tournament))
    assert said(closed) == ["Tuesday club evening: round 1 is closed."]
    assert Event.objects.filter(stream_id=tournament.pk, type="round.closed").count() == 1

    # the detail page shows entries and tables read-only, with the keeper and the results
    page = admin_client.get(url("change", tournament))
    assert page.status_code == 200
    text = page.content.decode()
    for name in ("Ann", "Bob", "Cid", "Dee", "kim", "played: 1 - 0", "Pair the next round"):
        assert name in text
    assert 'name="name"' not in text  # nothing to edit

    # the table cards: one card per table, and the list by name
    cards = admin_client.get(url("cards", tournament), {"round": 1})
    assert cards.status_code == 200
    text = cards.content.decode()
    assert text.count('class="card"') == 2 and "Table 1" in text and "kim" in text
    assert all(name in text for name in ("Ann", "Bob", "Cid", "Dee"))
    assert "starts." in text and "Where to sit, by name" in text

    # the standings with their explanations and the evening's payments
    board = admin_client.get(url("standings", tournament))
    assert board.status_code == 200
    text = board.content.decode()
    assert all(name in text for name in ("Ann", "Bob", "Cid", "Dee"))
    assert "Buchholz: the sum" in text and "Who pays whom tonight" in text
    rows = board.context["rows"]
    assert [row["points"] for row in rows] == ["1", "1", "0", "0"]

    # the tournament's events, each with who recorded it
    events = admin_client.get(
        reverse("admin:games_event_changelist"), {"stream__id__exact": tournament.pk}
    )
    assert events.status_code == 200
    text = events.content.decode()
    assert "round.closed" in text and "keeper.assigned" in text and "dora" in text


def test_the_tools_redirect_to_one_tournament_and_refuse_several(admin_client: Client) -> None:
    add_tournament(admin_client, name="One")
    add_tournament(admin_client, name="Two")
    one, two = Tournament.objects.get(name="One"), Tournament.objects.get(name="Two")
    changelist = "admin:games_tournament_changelist"

    cards = run_action(admin_client, changelist, "print_table_cards", one.pk)
    assert cards.redirect_chain[0][0] == url("cards", one)
    both = run_action(admin_client, changelist, "enter_players", one.pk, two.pk)
    assert said(both) == ["Choose one tournament for this."]
    # cards before any round: a message, not an error page
    early = admin_client.get(url("cards", one))
    assert landed(early) == url("change", one) and said(early) == ["One: no round is paired yet."]
    assert admin_client.get(url("standings", one)).status_code == 200


def test_service_refusals_are_messages_not_errors(admin_client: Client) -> None:
    # a tie-break the service does not know: the form again, with its sentence
    response = add_tournament(admin_client, tiebreaks="luck")
    assert response.status_code == 200 and landed(response) is None
    assert "tiebreaks lists, in order and each once, some of" in said(response)[0]
    assert not Tournament.objects.exists()

    add_tournament(admin_client)
    tournament = Tournament.objects.get()
    # pairing with one player
    admin_client.post(url("enter", tournament), {"names": "Ann"})
    alone = admin_client.post(url("pair", tournament))
    assert landed(alone) == url("change", tournament)
    assert said(alone) == [
        "Tuesday club evening: At least two active players are needed to pair a round."
    ]
    # entering him twice, and a name two players share
    Player.objects.create(name="Bob")
    Player.objects.create(name="Bob")
    twice = admin_client.post(url("enter", tournament), {"names": "Ann\nBob"})
    assert said(twice)[0] == "Ann: Ann is already entered."
    assert said(twice)[1].startswith("Bob: More than one player is called 'Bob'")
    # a keeper for a round not paired yet, and for no such user
    no_round = admin_client.post(
        url("keepers", tournament), {"round": 1, "table": 1, "username": "dora"}
    )
    assert landed(no_round) is None and said(no_round) == ["There is no round 1 yet."]
    no_user = admin_client.post(
        url("keepers", tournament), {"round": 1, "table": 1, "username": "zed"}
    )
    assert said(no_user) == ["There is no user 'zed' to name as keeper."]
    # closing a round before any
    close = admin_client.post(url("close_round", tournament))
    assert said(close) == ["Tuesday club evening: no round is paired yet."]


def test_nothing_the_events_own_is_edited_or_deleted(admin_client: Client) -> None:
    add_tournament(admin_client)
    tournament = Tournament.objects.get()
    change = admin_client.post(url("change", tournament), {"name": "Renamed"})
    delete = admin_client.post(url("delete", tournament), {"post": "yes"})
    assert change.status_code == 403 and delete.status_code == 403
    assert Tournament.objects.get().name == "Tuesday club evening"
    event = Event.objects.get(stream_id=tournament.pk)
    assert (
        admin_client.post(reverse("admin:games_event_delete", args=[event.pk])).status_code == 403
    )
    detail = admin_client.get(reverse("admin:games_event_change", args=[event.pk]))
    assert detail.status_code == 200 and "dora" in detail.content.decode()


def test_players_are_registered_and_merged_through_the_services(
    admin_client: Client, director: Any
) -> None:
    keep = register.player_register(name="Eve", member_number="7", user=director)
    dup = register.player_register(name="Eve Smith", user=director)
    changelist = "admin:games_player_changelist"

    # the intermediate page: into whom, and why
    asked = run_action(admin_client, changelist, "merge_players", dup.pk)
    assert asked.status_code == 200 and "Merge into" in asked.content.decode()
    merged = admin_client.post(
        reverse(changelist),
        {
            "action": "merge_players",
            "apply": "1",
            ACTION_CHECKBOX_NAME: [dup.pk],
            "into": keep.pk,
            "reason": "the same person",
        },
    )
    assert landed(merged) == reverse(changelist)
    assert said(merged) == [f"Eve Smith (#{dup.pk}) is merged into Eve."]
    dup.refresh_from_db()
    assert dup.merged_into == keep
    event = Event.objects.filter(type="player.merged").get()
    assert event.data == {"player": dup.pk, "into": keep.pk, "reason": "the same person"}

    # merging him again is the service's refusal, shown as a message
    again = admin_client.post(
        reverse(changelist),
        {
            "action": "merge_players",
            "apply": "1",
            ACTION_CHECKBOX_NAME: [dup.pk],
            "into": keep.pk,
            "reason": "again",
        },
    )
    assert said(again) == [
        "Eve Smith: Eve Smith cannot be merged into Eve: a player merges into another record "
        "that is itself not merged away."
    ]

    # a member number taken: the add form again, with the service's sentence
    taken = admin_client.post(
        reverse("admin:games_player_add"), {"name": "Ed", "member_number": "7"}
    )
    assert landed(taken) is None and said(taken) == ["Member number 7 is already another player's."]

    # the list searches member numbers; the change page does not rename
    found = admin_client.get(reverse(changelist), {"q": "7"})
    assert found.context["cl"].result_count == 1
    admin_client.post(
        reverse("admin:games_player_change", args=[keep.pk]), {"name": "Renamed", "user": ""}
    )
    keep.refresh_from_db()
    assert keep.name == "Eve" and keep.member_number == "7"


def test_a_user_who_is_not_staff_gets_no_admin(db: Any) -> None:
    add = tournament_services.tournament_create(
        spec={"name": "Club", "format": "high-low-scarney", "rounds": 1},
        user=get_user_model().objects.create_user(username="boss", is_staff=True),
    )
    player = get_user_model().objects.create_user(username="pat", password="secret-pass-1")
    client = Client()
    client.force_login(player)
    for path in (
        reverse("admin:games_tournament_changelist"),
        reverse("admin:games_tournament_add"),
        url("standings", add),
        url("cards", add),
    ):
        assert client.get(path).status_code == 302  # to the admin's login page
    assert client.post(url("pair", add)).status_code == 302
    assert not Match.objects.exists() and Tournament.objects.get().current_round == 0
