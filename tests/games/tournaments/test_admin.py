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
from rest_framework.test import APIClient

from games.play import register, services
from games.store.models import Event, Match, Player, Stream, Tournament, TournamentTable
from games.tournaments import creating, entries

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

    # table 1's result, kept by kim, awaits its players: closing asks why
    asked = admin_client.post(url("close_round", tournament))
    assert asked.status_code == 200 and "is not confirmed" in asked.content.decode()
    assert '/rounds/1/tables/1/confirm/">1</a> is not confirmed' in asked.content.decode()
    reason = {"reason": "the players left before confirming"}
    closed = admin_client.post(url("close_round", tournament), reason)
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
    # are asked about on a second page, not refused nor silently taken for the first
    twice = admin_client.post(url("enter", tournament), {"names": "Ann\nBob"})
    assert twice.status_code == 200 and landed(twice) is None
    page = twice.content.decode()
    assert "Who is who?" in page and "A new player called Bob" in page
    assert "The Ann already entered" in page
    bobs = list(Player.objects.filter(name="Bob").order_by("pk"))
    answer = {"step": "who", "lines": '["Ann", "Bob"]', "reason": "", "who_0": "skip"}
    unsaid = admin_client.post(url("enter", tournament), answer)
    assert unsaid.status_code == 200 and "Say who Bob on line 2 is." in unsaid.content.decode()
    chosen = admin_client.post(url("enter", tournament), {**answer, "who_1": str(bobs[1].pk)})
    assert landed(chosen) == url("change", tournament)
    assert said(chosen) == ["Tuesday club evening: 1 player(s) entered."]
    assert list(tournament.entries.values_list("player_id", flat=True).order_by("pk"))[-1] == (
        bobs[1].pk
    )
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
    add = creating.tournament_create(
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


# --- the corrections page: one plain form per director's tool ---------------------------------


def correct(client: Client, tournament: Tournament, tool: str, **fields: Any) -> Any:
    """Fill one tool's form as shown on the corrections page (its event id included)."""
    page = client.get(url("corrections", tournament))
    assert page.status_code == 200
    form = next(f for f in page.context["tools"] if f.slug == tool)
    body = {"tool": tool, f"{tool}-event_id": str(form.fields["event_id"].initial)}
    body |= {f"{tool}-{name}": value for name, value in fields.items()}
    return client.post(url("corrections", tournament), body)


def evening(client: Client, director: Any, names: str = "Ann\nBob\nCid\nDee\nFay") -> Tournament:
    add_tournament(client)
    tournament = Tournament.objects.get()
    client.post(url("enter", tournament), {"names": names})
    return tournament


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def last_event(tournament: Tournament) -> Event:
    return Event.objects.filter(stream_id=tournament.pk).order_by("-version").first()  # type: ignore[return-value]


def seated(tournament: Tournament, number: int = 1) -> dict[int, list[str]]:
    tables = TournamentTable.objects.filter(tournament=tournament, round_number=number)
    return {t.number: t.players for t in tables}


def test_a_director_uses_every_correction_through_the_admin(
    admin_client: Client, director: Any
) -> None:
    tournament = evening(admin_client, director)
    register.player_register(name="Eve", member_number="55", user=director)
    page = admin_client.get(url("change", tournament))
    assert url("corrections", tournament) in page.content.decode()

    # a requested bye for the first round: Fay sits out for half a point
    bye = correct(
        admin_client, tournament, "bye", player=player_id("Fay"), round=1, points="0.5",
        reason="late train",
    )  # fmt: skip
    assert landed(bye) == url("corrections", tournament)
    assert said(bye) == ["Tuesday club evening: Fay has a bye in round 1."]
    event = last_event(tournament)
    assert (event.type, event.data) == (
        "bye.requested",
        {"player": player_id("Fay"), "round": 1, "points": 0.5, "reason": "late train"},
    )
    assert event.meta["recorded_by"] == director.pk

    # round 1 paired, then paired again before any result
    admin_client.post(url("pair", tournament))
    assert sorted(n for names in seated(tournament).values() for n in names) == [
        "Ann", "Bob", "Cid", "Dee",
    ]  # fmt: skip
    repaired = correct(admin_client, tournament, "repair", reason="Ann and Bob are married")
    assert said(repaired) == ["Tuesday club evening: Round 1 is paired again."]
    assert last_event(tournament).type == "round.repaired"
    assert last_event(tournament).data["reason"] == "Ann and Bob are married"

    # a late entry from the register joins from round 2
    late = correct(
        admin_client, tournament, "late-entry", player=player_id("Eve"), reason="came at nine"
    )
    assert said(late) == ["Tuesday club evening: Eve is entered; he plays from round 2."]
    assert (last_event(tournament).type, last_event(tournament).data) == (
        "player.entered",
        {"player": player_id("Eve"), "name": "Eve", "reason": "came at nine"},
    )

    # a withdrawal
    gone = correct(admin_client, tournament, "withdrawal", player=player_id("Dee"), reason="ill")
    assert said(gone) == ["Tuesday club evening: Dee withdraws after this round."]
    assert last_event(tournament).data == {"player": player_id("Dee"), "reason": "ill"}

    # a forfeit at table 1 by its first player, an adjusted result at table 2
    tables = seated(tournament)
    loser = tables[1][0]
    forfeit = correct(
        admin_client, tournament, "forfeit", table="1:1", player=player_id(loser),
        reason="did not come back",
    )  # fmt: skip
    assert said(forfeit) == [f"Tuesday club evening: {loser} forfeits at table 1 of round 1."]
    assert last_event(tournament).type == "result.forfeited"
    assert last_event(tournament).data == {
        "round": 1, "table": 1, "player": player_id(loser), "reason": "did not come back",
    }  # fmt: skip
    adjusted = correct(
        admin_client, tournament, "adjusted-result", table="1:2", points="0.5, 0.5",
        reason="sheet lost; both agree it was drawn",
    )  # fmt: skip
    assert said(adjusted) == ["Tuesday club evening: Table 2 of round 1 is adjusted to 0.5 - 0.5."]
    assert last_event(tournament).data["points"] == [0.5, 0.5]

    # a void of table 1 after all
    voided = correct(admin_client, tournament, "void", table="1:1", reason="wrong deck")
    assert said(voided) == ["Tuesday club evening: Table 1 of round 1 is voided."]
    assert last_event(tournament).type == "game.voided"

    # the page shows what the events made of the round, and every event names the director
    text = admin_client.get(url("corrections", tournament)).content.decode()
    assert "voided: 0 - 0 (wrong deck)" in text and "adjusted: 0.5 - 0.5" in text
    assert "Dee (withdrawn after round 1)" in text and "Eve (from round 2)" in text
    corrections = Event.objects.filter(stream_id=tournament.pk, version__gt=1)
    assert {e.meta["recorded_by"] for e in corrections} == {director.pk}
    assert {e.meta["device"] for e in corrections} == {"admin"}


def test_a_correction_sent_twice_records_once(admin_client: Client, director: Any) -> None:
    tournament = evening(admin_client, director)
    page = admin_client.get(url("corrections", tournament))
    form = next(f for f in page.context["tools"] if f.slug == "withdrawal")
    body = {
        "tool": "withdrawal",
        "withdrawal-event_id": str(form.fields["event_id"].initial),
        "withdrawal-player": player_id("Bob"),
        "withdrawal-reason": "gone home",
    }
    first = admin_client.post(url("corrections", tournament), body)
    again = admin_client.post(url("corrections", tournament), body)
    assert said(first) == ["Tuesday club evening: Bob withdraws after this round."]
    assert said(again) == [
        "Tuesday club evening: Already recorded: Bob withdraws after this round."
    ]
    assert Event.objects.filter(stream_id=tournament.pk, type="player.withdrew").count() == 1


def test_a_refused_correction_shows_the_services_sentence(
    admin_client: Client, director: Any
) -> None:
    tournament = evening(admin_client, director, names="Ann\nBob\nCid\nDee")
    admin_client.post(url("pair", tournament))
    before = Event.objects.filter(stream_id=tournament.pk).count()

    # a bye for a round already paired
    bye = correct(admin_client, tournament, "bye", player=player_id("Ann"), round=1,
                  points="1", reason="asked")  # fmt: skip
    assert bye.status_code == 200 and landed(bye) is None
    assert said(bye) == ["Requested bye: A bye is requested for the next round to pair (2)."]

    # a forfeit by a player who is not at that table
    tables = seated(tournament)
    elsewhere = tables[2][0]
    forfeit = correct(admin_client, tournament, "forfeit", table="1:1",
                      player=player_id(elsewhere), reason="absent")  # fmt: skip
    assert said(forfeit) == [
        f"Forfeit: Player {player_id(elsewhere)} does not sit at table 1 of round 1."
    ]
    # the form comes back as it was sent
    form = next(f for f in forfeit.context["tools"] if f.slug == "forfeit")
    assert form.is_bound and form.cleaned_data["reason"] == "absent"

    # points for a table of two given for three seats
    adjusted = correct(admin_client, tournament, "adjusted-result", table="1:1",
                       points="1, 0, 0", reason="recount")  # fmt: skip
    assert said(adjusted)[0].startswith("Adjusted result: 'points' lists one number")

    # withdrawing twice, and pairing again once a result is in
    correct(admin_client, tournament, "withdrawal", player=player_id("Bob"), reason="ill")
    twice = correct(admin_client, tournament, "withdrawal", player=player_id("Bob"),
                    reason="still ill")  # fmt: skip
    assert said(twice) == ["Withdrawal: Bob has already withdrawn."]
    correct(admin_client, tournament, "void", table="1:1", reason="wrong deck")
    repair = correct(admin_client, tournament, "repair", reason="try again")
    assert said(repair) == [
        "Pair the round again: Round 1 already has results: it can no longer be re-paired."
    ]
    assert Event.objects.filter(stream_id=tournament.pk).count() == before + 2

    # what the form itself cannot read never reaches the service
    unreadable = correct(admin_client, tournament, "adjusted-result", table="1:2",
                         points="a draw", reason="recount")  # fmt: skip
    assert said(unreadable) == []
    assert "Write numbers separated by commas" in unreadable.content.decode()
    no_reason = correct(admin_client, tournament, "void", table="1:2", reason="")
    assert said(no_reason) == [] and "This field is required." in no_reason.content.decode()
    assert Event.objects.filter(stream_id=tournament.pk).count() == before + 2


def test_a_user_who_is_not_a_director_gets_no_corrections(db: Any) -> None:
    boss = get_user_model().objects.create_user(username="boss", is_staff=True)
    tournament = creating.tournament_create(
        spec={"name": "Club", "format": "high-low-scarney", "rounds": 1}, user=boss
    )
    entries.entry_add(tournament_id=tournament.pk, spec={"name": "Ann"}, user=boss)
    # a member, and a holder of games.direct without staff rights: the admin is not theirs
    member = get_user_model().objects.create_user(username="pat", password="secret-pass-1")
    client = Client()
    client.force_login(member)
    body = {"tool": "withdrawal", "withdrawal-event_id": str(uuid.uuid4()),
            "withdrawal-player": player_id("Ann"), "withdrawal-reason": "no"}  # fmt: skip
    assert client.get(url("corrections", tournament)).status_code == 302
    assert client.post(url("corrections", tournament), body).status_code == 302
    assert Event.objects.filter(stream_id=tournament.pk).count() == 2


def test_a_directors_device_is_stored_with_his_events_from_the_admin_and_the_api(
    admin_client: Client, director: Any
) -> None:
    # the admin: every event it records says so, the register's included
    tournament = evening(admin_client, director, names="Ann\nBob")
    admin_client.post(url("pair", tournament))
    late = admin_client.post(url("enter", tournament), {"names": "Cid"})
    assert said(late)[0].startswith("Cid: The tournament has started: a late entry says why")
    admin_client.post(url("enter", tournament), {"names": "Cid", "reason": "came late"})
    events = Event.objects.filter(stream_id=tournament.pk)
    assert {e.meta.get("device") for e in events} == {"admin"}
    assert events.get(type="player.entered", data__name="Cid").data["reason"] == "came late"
    admin_client.post(reverse("admin:games_player_add"), {"name": "Dee", "member_number": "4"})
    registered = Event.objects.get(type="player.registered", data__name="Dee")
    assert registered.meta == {"recorded_by": director.pk, "device": "admin"}

    # the API: the X-Device header, and a correction's own meta
    api = APIClient()
    api.force_authenticate(director)
    made = api.post(
        "/api/v1/tournaments/",
        {"name": "Api evening", "format": "high-low-scarney", "rounds": 1},
        format="json",
        HTTP_X_DEVICE="front desk",
    )
    assert made.status_code == 201
    pk = made.json()["id"]
    for name in ("Ann", "Bob"):
        api.post(f"/api/v1/tournaments/{pk}/entries/", {"name": name}, "json", HTTP_X_DEVICE="pad")
    assert api.post(f"/api/v1/tournaments/{pk}/rounds/", {}, "json").status_code == 201
    body = {
        "id": str(uuid.uuid4()),
        "type": "player.withdrew",
        "data": {"player": player_id("Bob"), "reason": "ill"},
        "meta": {"note": "phoned at nine", "client_time": "2026-05-01T21:00:00Z"},
    }
    gone = api.post(f"/api/v1/tournaments/{pk}/events/", body, "json", HTTP_X_DEVICE="pad")
    assert gone.status_code == 201, gone.json()
    rows = {e.type: e.meta for e in Event.objects.filter(stream_id=pk)}
    assert rows["tournament.created"] == {"recorded_by": director.pk, "device": "front desk"}
    assert rows["player.entered"]["device"] == "pad"
    assert "device" not in rows["round.paired"]
    assert rows["player.withdrew"] == {
        "recorded_by": director.pk,
        "device": "pad",
        "note": "phoned at nine",
        "client_time": "2026-05-01T21:00:00Z",
    }
    bad = dict(body, id=str(uuid.uuid4()), meta={"colour": "red"})
    refused = api.post(f"/api/v1/tournaments/{pk}/events/", bad, "json")
    assert refused.status_code == 422 and refused.json()["code"] == "meta.unknown_field"
    # a correction sent again is checked whole before it is answered with its event: a device
    # longer than the header takes is refused, as a game's move is
    again = api.post(f"/api/v1/tournaments/{pk}/events/", body, "json", HTTP_X_DEVICE="p" * 101)
    assert (again.status_code, again.json()["code"]) == (422, "meta.bad_value")
    assert api.post(f"/api/v1/tournaments/{pk}/events/", body, "json").status_code == 200
