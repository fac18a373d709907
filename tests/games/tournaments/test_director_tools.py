"""The director's tools through the services: re-pairing a round on the field as it is now, late
entries with a reason, duplicate Solitaire's dealt layouts, the server's seed of a random round
of tables, and the client's meta stored with a director's events."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.play import register
from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.scarney_board.board import parse_position
from games.store import folding
from games.store.models import Event, Stream
from games.tournaments import creating, entries, keepers, results, rounds
from games.tournaments.core import events as tournament_events
from games.tournaments.core import fold as tournament_fold
from games.tournaments.core import layouts, pairing, swiss
from games.tournaments.core import rounds as pairings
from games.tournaments.core import state as ts
from tests.games.tournaments.helpers import client_for, create, high_low_win

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@pytest.fixture
def director() -> Any:
    return client_for("director", staff=True)


def tournament(api: Any, **spec: Any) -> uuid.UUID:
    return uuid.UUID(create(api, **spec)["id"])


def enter(pk: uuid.UUID, user: Any, names: list[str], **kwargs: Any) -> list[int]:
    return [
        entries.entry_add(tournament_id=pk, spec={"name": n}, user=user, **kwargs).player
        for n in names
    ]


def withdraw(pk: uuid.UUID, user: Any, player: int, reason: str = "went home") -> None:
    results.correction_record(
        tournament_id=pk,
        event_id=uuid.uuid4(),
        type=tournament_events.WITHDREW,
        data={"player": player, "reason": reason},
        user=user,
    )


def state_of(pk: uuid.UUID) -> ts.TournamentState:
    return folding.load(Stream.objects.get(pk=pk)).state  # type: ignore[no-any-return]


def last_event(pk: uuid.UUID) -> Event:
    return Event.objects.filter(stream_id=pk).order_by("version").last()  # type: ignore[return-value]


def seated(played: ts.Round) -> list[int]:
    return [p for t in played.tables for p in t.players]


# --- re-pairing a round before its results ----------------------------------------------------


def test_an_automatic_re_pair_leaves_out_who_withdrew_since_the_round_was_paired(
    director: Any,
) -> None:
    # given a Swiss round of six, then Cid withdraws before any result
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=3)
    ids = enter(pk, user, NAMES)
    rounds.round_pair(tournament_id=pk, user=user)
    withdraw(pk, user, ids[2], "ill")
    # when the round is paired again by the system
    rounds.round_repair(tournament_id=pk, reason="Cid is ill", user=user)
    # then Cid is neither seated nor given a bye; the five others are, one of them with the bye
    again = state_of(pk).round(1)
    assert ids[2] not in seated(again) and ids[2] not in [p for p, _ in again.byes]
    assert sorted(seated(again) + [p for p, _ in again.byes]) == sorted(set(ids) - {ids[2]})
    assert len(again.byes) == 1 and again.byes[0][1] == 1.0
    # and his entry now ends before round 1: he is in no round
    assert state_of(pk).entry(ids[2]).withdrawn_after == 0


def test_a_hand_re_pair_seats_a_late_entrant_in_place_of_a_no_show_who_gets_no_bye(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # given four paired, then Dee (a no-show) withdraws and Eve enters late
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=2)
    ann, bob, cid, dee = enter(pk, user, NAMES[:4])
    rounds.round_pair(tournament_id=pk, user=user)
    withdraw(pk, user, dee, "did not come")
    (eve,) = enter(pk, user, ["Eve"], reason="came instead of Dee")
    # when the director pairs the round again by hand with Eve in Dee's place
    tables = [[ann, bob], [cid, eve]]
    rounds.round_repair(tournament_id=pk, reason="Eve plays for Dee", tables=tables, user=user)
    # then the round seats Eve and gives nobody a bye
    played = state_of(pk).round(1)
    assert [list(t.players) for t in played.tables] == tables and played.byes == ()
    # and Eve plays from round 1: her result counts in round 1's standings
    assert state_of(pk).entry(eve).joined == 1
    for table in played.tables:
        assert table.match is not None
        high_low_win(api, table.match, 0, django_capture_on_commit_callbacks)
    rows = {r.player: r for r in pairings.standings_at(state_of(pk), 1).rows}
    assert rows[eve].played == 1 and rows[cid].points == 1.0
    assert dee not in rows or rows[dee].played == 0


def test_a_late_entrant_left_out_of_a_hand_re_pair_joins_next_round_without_a_bye(
    director: Any,
) -> None:
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=2)
    ids = enter(pk, user, NAMES[:4])
    rounds.round_pair(tournament_id=pk, user=user)
    (eve,) = enter(pk, user, ["Eve"], reason="came at nine")
    rounds.round_repair(
        tournament_id=pk, reason="swap tables", tables=[ids[:2], ids[2:]], user=user
    )
    played = state_of(pk).round(1)
    assert played.byes == () and state_of(pk).entry(eve).joined == 2


def test_a_hand_re_pair_may_not_seat_a_player_who_withdrew(director: Any) -> None:
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=2)
    ids = enter(pk, user, NAMES[:4])
    rounds.round_pair(tournament_id=pk, user=user)
    withdraw(pk, user, ids[3])
    with pytest.raises(IllegalEvent) as refused:
        rounds.round_repair(tournament_id=pk, reason="r", tables=[ids[:2], ids[2:]], user=user)
    assert refused.value.code == "round.bad_tables"


def test_a_re_paired_round_replays_from_its_event_without_pairing_again(
    director: Any, monkeypatch: Any
) -> None:
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=2)
    ids = enter(pk, user, NAMES[:5])
    rounds.round_pair(tournament_id=pk, user=user)
    withdraw(pk, user, ids[0])
    enter(pk, user, ["Fay", "Gus"], reason="late train")
    rounds.round_repair(tournament_id=pk, reason="field changed", user=user)
    recorded = last_event(pk).data

    def no_engine(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay must never pair again")

    monkeypatch.setattr(swiss, "swiss", no_engine)
    monkeypatch.setattr(pairing, "tables", no_engine)
    replayed = folding.refold(Stream.objects.get(pk=pk)).state
    assert [list(t.players) for t in replayed.round(1).tables] == [
        t["players"] for t in recorded["tables"]
    ]
    assert replayed == state_of(pk)
    assert len(seated(replayed.round(1))) + len(replayed.round(1).byes) == 6


# --- late entries -----------------------------------------------------------------------------


def test_a_late_entry_says_why_once_round_one_is_paired(director: Any) -> None:
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=2)
    enter(pk, user, NAMES[:4])  # before the start, no reason is asked
    assert "reason" not in last_event(pk).data
    rounds.round_pair(tournament_id=pk, user=user)
    for reason in (None, "  ", 7):
        with pytest.raises(IllegalEvent) as refused:
            enter(pk, user, ["Eve"], reason=reason)
        assert refused.value.code == "tournament.reason_required"
    # the API's body carries it in the spec
    entries.entry_add(tournament_id=pk, spec={"name": "Eve", "reason": "came at nine "}, user=user)
    event = last_event(pk)
    assert (event.type, event.data["reason"]) == ("player.entered", "came at nine")


# --- duplicate Solitaire ----------------------------------------------------------------------


def test_a_dealt_layout_is_a_legal_solitaire_layout_per_game_and_the_seed_gives_it_again() -> None:
    dealt = layouts.deal(20260101)
    assert len(dealt) == 5 and dealt == layouts.deal(20260101) != layouts.deal(20260102)
    for layout in dealt:
        board = parse_position(layout, complete=True)
        assert sorted(p for p in board if p) == sorted(
            f"{c}{s}" for c in "BRYG" for s in range(1, 5)
        )
    layouts.check(dealt)


def test_a_duplicate_round_without_a_layout_refuses_a_live_game_then_deals_one_for_everyone(
    director: Any,
) -> None:
    # given a live duplicate Solitaire round of two
    user, api = director
    pk = tournament(
        api, format="scarney-solitaire", system="tables", table_size=1, rounds=1, entry="live"
    )
    enter(pk, user, ["Ann", "Bob"])
    rounds.round_pair(tournament_id=pk, user=user)
    matches = [t["match"] for t in last_event(pk).data["tables"]]
    # when a player starts his game before the layout is recorded: 409, no game made
    body = {"kind": "scarney-solitaire", "match": matches[0]}
    refused = api.post("/api/v1/games/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "round.not_laid_out"
    assert "same deal" in refused.json()["detail"]
    # when the director records the round's layout without giving one
    event_id = uuid.uuid4()
    sent = {"round": 1}
    results.correction_record(
        tournament_id=pk, event_id=event_id, type=tournament_events.LAID_OUT, data=sent, user=user
    )
    # then the server drew a seed and dealt from it, both in the event
    event = last_event(pk)
    seed = event.data["seed"]
    assert isinstance(seed, int) and event.data["layouts"] == layouts.deal(seed)
    # a retry of the same request records nothing new
    _, created = results.correction_record(
        tournament_id=pk, event_id=event_id, type=tournament_events.LAID_OUT, data=sent, user=user
    )
    assert not created and last_event(pk).pk == event.pk
    # and every player's first game starts on the same dealt layout
    for match in matches:
        game = api.post(
            "/api/v1/games/", {"kind": "scarney-solitaire", "match": match}, format="json"
        )
        assert game.status_code == 201, game.json()
        shown = api.get(f"/api/v1/games/{game.json()['id']}/").json()
        assert shown["expected"] == ["pawn.taken_off"]
    laid = Event.objects.filter(type="board.laid_out").values_list("data", flat=True)
    assert [d["position"] for d in laid] == [event.data["layouts"][0]] * 2


def test_layouts_given_by_hand_are_checked_when_recorded(director: Any) -> None:
    user, api = director
    pk = tournament(api, format="scarney-solitaire", system="tables", table_size=1, rounds=1)
    enter(pk, user, ["Ann", "Bob"])
    rounds.round_pair(tournament_id=pk, user=user)
    good = layouts.deal(1)[0]
    incomplete = {k: v for k, v in good.items() if k != "C16"}
    for given, code in (
        ([good], "round.bad_layouts"),
        ([good] * 4 + [incomplete], "setup.incomplete_layout"),
    ):
        with pytest.raises(IllegalEvent) as refused:
            results.correction_record(
                tournament_id=pk,
                event_id=uuid.uuid4(),
                type=tournament_events.LAID_OUT,
                data={"round": 1, "layouts": given},
                user=user,
            )
        assert refused.value.code == code


def test_a_game_voided_names_no_single_game(director: Any) -> None:
    # A tournament voids a table's match: game.voided takes round and table, no game number.
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=1)
    enter(pk, user, NAMES[:2])
    rounds.round_pair(tournament_id=pk, user=user)
    with pytest.raises(IllegalEvent) as refused:
        results.correction_record(
            tournament_id=pk,
            event_id=uuid.uuid4(),
            type=tournament_events.VOIDED,
            data={"round": 1, "table": 1, "game": 2, "reason": "misdeal"},
            user=user,
        )
    assert refused.value.code == "event.unknown_field"


# --- the server's seed of a random round of tables -----------------------------------------------


def test_a_random_round_of_tables_records_the_servers_seed_and_replays_its_tables(
    director: Any, monkeypatch: Any
) -> None:
    user, api = director
    pk = tournament(
        api, format="scarney-singles", system="tables", table_size=3, rounds=2, seeding="random"
    )
    enter(pk, user, [f"P{i}" for i in range(10)])
    rounds.round_pair(tournament_id=pk, user=user)
    data = last_event(pk).data
    seed = data["seed"]
    assert data["round"] == 1 and isinstance(seed, int)
    # the tables are the engine's for that seed: 10 at size 3 (Singles seats 2 to 16) are 4, 3, 3
    before = ts.TournamentState(settings=state_of(pk).settings, entries=state_of(pk).entries)
    again = pairing.tables(pairings.entrants(before), 3, 1, seed=seed, min_size=2, max_size=16)
    assert [t["players"] for t in data["tables"]] == [list(t) for t in again.tables]
    assert sorted(len(t["players"]) for t in data["tables"]) == [3, 3, 4] and data["byes"] == []

    def no_engine(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay must never pair again")

    monkeypatch.setattr(pairing, "tables", no_engine)
    assert folding.refold(Stream.objects.get(pk=pk)).state == state_of(pk)


# --- the client's meta on a director's events ----------------------------------------------------

META = {"device": "front-desk tablet", "client_time": "2026-01-06T19:30:00Z", "note": "desk"}


def test_a_directors_events_keep_the_clients_meta(director: Any) -> None:
    user, api = director
    made = creating.tournament_create(
        spec={"name": "Tuesday", "format": "high-low-scarney", "rounds": 1}, user=user, meta=META
    )
    pk = made.pk
    entries.entry_add(tournament_id=pk, spec={"name": "Ann"}, user=user, meta=META)
    entries.entry_add(tournament_id=pk, spec={"name": "Bob"}, user=user)
    rounds.round_pair(tournament_id=pk, user=user, meta=META)
    keepers.keeper_assign(
        tournament_id=pk, round=1, table=1, username="director", user=user, meta=META
    )
    results.correction_record(
        tournament_id=pk,
        event_id=uuid.uuid4(),
        type=tournament_events.VOIDED,
        data={"round": 1, "table": 1, "reason": "lights out"},
        user=user,
        meta=META,
    )
    metas = {
        (e.type, e.data.get("name")): e.meta
        for e in Event.objects.filter(stream_id=pk).order_by("version")
    }
    for key, meta in metas.items():
        if key == ("player.entered", "Bob"):
            assert meta == {"recorded_by": user.pk}  # none given: as before
        else:
            assert meta == {"recorded_by": user.pk, **META}, key
    player = register.player_register(name="Cyd", user=user, meta={"device": "phone"})
    merged = register.player_register(name="Cyd Two", user=user)
    register.player_merge(player=merged.pk, into=player.pk, reason="one", user=user, meta=META)
    registered = Event.objects.filter(type="player.registered", data__name="Cyd").get()
    assert registered.meta == {"recorded_by": user.pk, "device": "phone"}
    assert Event.objects.get(type="player.merged").meta == {"recorded_by": user.pk, **META}


def test_a_directors_meta_is_checked_as_a_game_events_is(director: Any) -> None:
    user, api = director
    pk = tournament(api, format="high-low-scarney", system="swiss", rounds=1)
    with pytest.raises(IllegalEvent) as refused:
        entries.entry_add(tournament_id=pk, spec={"name": "Ann"}, user=user, meta={"browser": "x"})
    assert refused.value.code == "meta.unknown_field"


def test_a_duplicate_round_paired_again_keeps_its_layouts_in_the_event_and_old_streams_fold(
    director: Any,
) -> None:
    # given a duplicate round laid out, then paired again
    user, api = director
    pk = tournament(
        api, format="scarney-solitaire", system="tables", table_size=1, rounds=1, entry="live"
    )
    enter(pk, user, ["Ann", "Bob"])
    rounds.round_pair(tournament_id=pk, user=user)
    results.correction_record(
        tournament_id=pk,
        event_id=uuid.uuid4(),
        type=tournament_events.LAID_OUT,
        data={"round": 1},
        user=user,
    )
    dealt = last_event(pk).data["layouts"]
    rounds.round_repair(tournament_id=pk, reason="table moved", user=user)
    # then the re-pairing carries the deal in its event, and the round keeps it
    assert last_event(pk).data["layouts"] == dealt
    assert list(state_of(pk).current.layouts) == dealt  # type: ignore[union-attr]
    # and a stream recorded before that (a re-pairing without layouts, then laid out again)
    # still folds: the re-pairing takes the round as its event gives it
    events = list(Event.objects.filter(stream_id=pk).order_by("version"))
    state = ts.start(folding.load(Stream.objects.get(pk=pk)).header)

    for event in events[1:]:  # after tournament.created, which the header holds
        data = dict(event.data)
        if event.type == tournament_events.REPAIRED:
            data.pop("layouts")
        state = tournament_fold.apply(state, Move(event.type, data))
    assert state.current is not None and not state.current.layouts
    again = tournament_fold.apply(
        state, Move(tournament_events.LAID_OUT, {"round": 1, "layouts": dealt})
    )
    assert list(again.current.layouts) == dealt  # type: ignore[union-attr]
