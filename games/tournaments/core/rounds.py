"""From a tournament's state to its next pairing and to the inputs of its standings.

``pair_next`` decides the next round (by the tournament's system, or by the director's hand) and
answers the data of the ``round.paired`` event that records it in full; ``repair_current`` pairs
the current round again, on the field as it is now. ``standings_at`` gives the standings as of a
round from the results the stream holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Any

from games.rules.errors import IllegalEvent
from games.tournaments.core import pairing, standings, swiss
from games.tournaments.core.fold import results_missing
from games.tournaments.core.state import Entry, Round, TournamentState

PAIRING_BYE_POINTS = 1.0


def planned_rounds(state: TournamentState) -> int | None:
    """How many rounds the tournament plays: as set, or a whole round robin's schedule."""
    if state.settings.system == "round_robin":
        return pairing.round_robin_rounds(len(state.entries), double=state.settings.double)
    return state.planned


def pair_next(
    state: TournamentState,
    *,
    seed: int | None,
    min_size: int,
    max_size: int | None = None,
    by_hand: Sequence[Sequence[int]] | None = None,
    joining: Collection[int] = (),
    seeds: Sequence[int] = (),
) -> dict[str, Any]:
    """The data of the next ``round.paired``: its tables (seat 0 starts), byes and seed.

    ``min_size`` and ``max_size`` are the seats the format allows at a table. ``joining`` are
    players who may be seated by hand but, left out, have no bye (they join from the next round).
    ``seeds``: the initial order, top seed first, where it is not the entry order (a tournament
    seeded by rating); the first round records it. Refuses while the current round still waits
    for results (``round.results_missing``) and once every planned round is paired.
    """
    number = len(state.rounds) + 1
    _check_may_pair(state, number)
    active = {e.player for e in state.active(number)}
    # A requested bye of a player who has since withdrawn is void: he is not in the round.
    requested = {p: pts for r, p, pts in state.requested_byes if r == number and p in active}
    if by_hand is not None:
        made = _by_hand(state, number, by_hand, requested, joining)
    else:
        made = _by_system(state, number, seed, (min_size, max_size), requested, seeds)
    byes = [{"player": p, "points": PAIRING_BYE_POINTS} for p in made.byes if p not in requested]
    byes += [{"player": p, "points": pts, "requested": True} for p, pts in requested.items()]
    tables = [{"table": i, "players": list(t)} for i, t in enumerate(made.tables, start=1)]
    data: dict[str, Any] = {"round": number, "tables": tables, "byes": byes}
    if seed is not None:
        data["seed"] = seed
    if seeds and number == 1:
        data["seeds"] = list(seeds)
    return data


def repair_current(
    state: TournamentState,
    *,
    min_size: int,
    max_size: int | None = None,
    by_hand: Sequence[Sequence[int]] | None = None,
    seeds: Sequence[int] = (),
) -> dict[str, Any]:
    """The data of ``round.repaired``: the current round paired again (before any result) on
    the field as it is now, with the round's seed (and ``seeds``, as ``pair_next``).

    A player who withdrew after the round was paired is out of it (no table, no bye); a late
    entrant who came after it is in it, seated by the system or, by hand, where the director
    puts him (left out, he joins from the next round, without a bye). The fold
    (``state._repaired``) moves their entries to match the pairing recorded.
    """
    current = state.current
    if current is None:
        raise IllegalEvent("round.out_of_order", "No round is paired yet.")
    number = current.number
    late = {e.player for e in state.entries if e.joined > number}
    return pair_next(
        _field_now(state),
        seed=current.seed,
        min_size=min_size,
        max_size=max_size,
        by_hand=by_hand,
        joining=late,
        seeds=seeds,
    )


def _field_now(state: TournamentState) -> TournamentState:
    """The state before its current round, with the entries as they are now: a player who
    withdrew after that round was paired is out of it, a late entrant since then is in it."""
    current = state.current
    assert current is not None
    number = current.number

    def now(entry: Entry) -> Entry:
        if entry.withdrawn_after == number:
            return dataclasses.replace(entry, withdrawn_after=number - 1)
        if entry.joined > number:
            return dataclasses.replace(entry, joined=number)
        return entry

    entries = tuple(now(e) for e in state.entries)
    return dataclasses.replace(state, entries=entries, rounds=state.rounds[:-1])


def _check_may_pair(state: TournamentState, number: int) -> None:
    current = state.current
    if current is not None and current.missing:
        raise results_missing(current)
    planned = planned_rounds(state)
    if planned is not None and number > planned:
        raise IllegalEvent(
            "tournament.all_rounds_paired", f"All {planned} rounds are already paired."
        )
    if len(state.active(number)) < 2 and not state.settings.duplicate:
        raise IllegalEvent(
            "tournament.too_few_players", "At least two active players are needed to pair a round."
        )


def _by_system(
    state: TournamentState,
    number: int,
    seed: int | None,
    seats: tuple[int, int | None],
    requested: dict[int, float],
    seeds: Sequence[int] = (),
) -> pairing.Pairing:
    settings = state.settings
    active = [e.player for e in state.active(number) if e.player not in requested]
    if settings.duplicate:
        # Every player alone at his own table, all on the round's same layouts.
        return pairing.Pairing(tables=tuple((p,) for p in active), byes=())
    if settings.system == "round_robin":
        everyone = [e.player for e in by_seed(state.entries, seeds)]
        gone = [e.player for e in state.entries if not e.active_in(number)] + list(requested)
        return pairing.round_robin(everyone, number, double=settings.double, withdrawn=gone)
    field = [e for e in entrants(state, seeds) if e.player in set(active)]
    if settings.system == "swiss":
        return swiss.swiss(field, number, requested_byes=(), rounds=settings.rounds)
    low, high = seats
    return pairing.tables(
        field, settings.table_size, number, seed=seed, min_size=low, max_size=high
    )


def _by_hand(
    state: TournamentState,
    number: int,
    tables: Sequence[Sequence[int]],
    requested: dict[int, float],
    joining: Collection[int] = (),
) -> pairing.Pairing:
    """The director's own pairing: every active player seated once, byes for the rest (but
    ``joining``, late entrants of a re-paired round, who join from the next one instead)."""
    active = {e.player for e in state.active(number)} - set(requested)
    seated = [p for table in tables for p in table]
    strangers = [p for p in seated if p not in active]
    if strangers or len(seated) != len(set(seated)):
        raise IllegalEvent(
            "round.bad_tables",
            "Each table lists active players' ids, each player at one table at most; "
            f"not active or seated twice: {sorted(set(strangers)) or 'a repeat'}.",
            field="tables",
        )
    if state.settings.system != "tables" and any(len(t) != 2 for t in tables):
        raise IllegalEvent(
            "round.bad_tables",
            f"A {state.settings.system} seats two players at each table.",
            field="tables",
        )
    left = sorted(active - set(seated) - set(joining))
    return pairing.Pairing(tables=tuple(tuple(t) for t in tables), byes=tuple(left))


def by_seed(entries: Sequence[Entry], seeds: Sequence[int] = ()) -> list[Entry]:
    """The entries in their initial order: as ``seeds`` lists them (top first), then those it
    does not list (late entries) in entry order; without ``seeds``, the entry order."""
    place = {player: number for number, player in enumerate(seeds)}
    return sorted(entries, key=lambda e: place.get(e.player, len(place)))


def entrants(state: TournamentState, seeds: Sequence[int] = ()) -> list[pairing.Entrant]:
    """Each entry as the pairing engines see it: points, opponents, starts and byes so far,
    with the round of each meeting and his points before each round (the Swiss floats); its
    seed is its place in the initial order (``by_seed``)."""
    history = [_points(state, upto) for upto in range(len(state.rounds) + 1)]
    points = history[-1]
    requested = {(r, p) for r, p, _ in state.requested_byes}
    found = []
    for seed, entry in enumerate(by_seed(state.entries, seeds)):
        opponents: list[int] = []
        met_in: list[int] = []
        starts: list[bool] = []
        for played in state.rounds:
            for table in played.tables:
                if entry.player in table.players:
                    others = [p for p in table.players if p != entry.player]
                    opponents += others
                    met_in += [played.number] * len(others)
                    if len(table.players) == 2:
                        starts.append(table.players[0] == entry.player)
        byes = sum(
            1
            for played in state.rounds
            for p, _ in played.byes
            if p == entry.player and (played.number, p) not in requested
        )
        found.append(
            pairing.Entrant(
                player=entry.player,
                points=points.get(entry.player, 0.0),
                opponents=tuple(opponents),
                starts=tuple(starts),
                byes=byes,
                seed=seed,
                rounds=tuple(met_in),
                scores=tuple(before.get(entry.player, 0.0) for before in history[:-1]),
            )
        )
    return found


def _points(state: TournamentState, upto: int) -> dict[int, float]:
    results, byes = inputs(state, upto)
    totals: dict[int, float] = {}
    for result in results:
        for player, points in zip(result.players, result.points, strict=True):
            totals[player] = totals.get(player, 0.0) + points
    for bye in byes:
        totals[bye.player] = totals.get(bye.player, 0.0) + bye.points
    return totals


def inputs(
    state: TournamentState, upto: int
) -> tuple[list[standings.TableResult], list[standings.Bye]]:
    """The table results and byes of rounds 1..``upto``, as the standings take them."""
    results: list[standings.TableResult] = []
    byes: list[standings.Bye] = []
    for played in state.rounds[:upto]:
        results += _round_results(state, played)
        byes += [standings.Bye(played.number, p, pts) for p, pts in played.byes]
    return results, byes


def _round_results(state: TournamentState, played: Round) -> list[standings.TableResult]:
    done = [t for t in played.tables if t.result is not None]
    if state.settings.duplicate:
        return _duplicate_results(played)
    return [
        standings.TableResult(
            round=played.number,
            table=t.number,
            players=t.players,
            points=t.result.points,
            scores=t.result.scores,
            net=t.result.net,
            voided=t.result.how == "voided",
        )
        for t in done
        if t.result is not None
    ]


def _duplicate_results(played: Round) -> list[standings.TableResult]:
    """A duplicate round: played totals ranked across the whole field; a director's stand."""
    totals = {}
    nets = {}
    ratings = {}
    others = []
    for table in played.tables:
        result = table.result
        if result is None:
            continue
        if result.how == "played":
            totals[table.players[0]] = result.scores[0]
            nets[table.players[0]] = result.net[0]
            if result.rating is not None:
                ratings[table.players[0]] = result.rating
        else:
            others.append(
                standings.TableResult(
                    round=played.number,
                    table=table.number,
                    players=table.players,
                    points=result.points,
                    scores=result.scores,
                    net=result.net,
                    voided=result.how == "voided",
                )
            )
    ranked = (
        list(standings.duplicate_results(played.number, totals, nets, ratings)) if totals else []
    )
    return ranked + others


def standings_at(state: TournamentState, upto: int | None = None) -> standings.Standings:
    """The standings after round ``upto`` (default: every round so far)."""
    upto = len(state.rounds) if upto is None else upto
    results, byes = inputs(state, upto)
    # Ranked and shown by label: two entries of one name are two rows told apart.
    labels = state.labels()
    players = [(e.player, labels[e.player]) for e in state.entries if e.joined <= max(upto, 1)]
    return standings.standings(players, results, byes, state.settings.tiebreaks or (), round=upto)
