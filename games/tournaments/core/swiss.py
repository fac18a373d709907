"""The Swiss system by the FIDE Dutch rules, paired by py4swiss (docs/DESIGN.md "Swiss pairing").

A pure wrapper: the entrants become a tournament report in memory, the library pairs the next
round, and the answer comes back as a ``Pairing``. The service records it whole in
``round.paired``, so a replay never calls the library again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult, ScoringPointSystem
from py4swiss.trf.sections import PlayerSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration

from games.tournaments.core.pairing import Entrant, Pairing, by_seed

# The engine reads a TRF(x) history. Entrants keep no game results, so every past result there
# scores the same and the true scores reach the engine as TRF(x) accelerations: before each past
# round when ``Entrant.scores`` gives them (the floats of FIDE A.4 come out exact), otherwise
# level (no past float but a round without a game, a downfloat as A.4 says), and now, which is
# what the engine ranks and groups by.
_SLOT_POINTS = 5  # tenths of a point
_WIN_POINTS = 10


@dataclass
class _History:
    """A TRF history consistent with the entrants: rounds of games, byes and empty slots."""

    rounds: int
    slots: dict[int, list[RoundResult | None]]  # starting number -> one entry per round
    meetings: list[tuple[int, int, int]]  # (round, number, number) of the games between entrants
    before: dict[int, list[int]]  # starting number -> tenths of points before each round, and now


def swiss(
    entrants: Sequence[Entrant],
    round_number: int,
    *,
    requested_byes: Collection[int] = (),
    rounds: int | None = None,
) -> Pairing:
    """Pair a Swiss round by the FIDE Dutch system.

    Those in ``requested_byes`` sit out (listed in ``byes``). No two players meet again and no
    one gets a second pairing-allocated bye while the field allows it; starters alternate and
    balance as colours do (no three in a row, a difference of at most 2) unless that cannot be
    kept. ``rounds`` (the planned number) lets the last round relax colours for topscorers (A.7);
    without it no round is taken for the last. Should the rules leave no pairing at all (a small
    field late in a long event), the oldest rounds' colours, then their meetings, are forgotten
    one round at a time until one exists: the least harm the rules' order allows.
    """
    sitting = set(requested_byes)
    field = [e for e in entrants if e.player not in sitting]
    requested = tuple(e.player for e in by_seed(entrants) if e.player in sitting)
    if len(field) < 2:
        return Pairing(tables=(), byes=requested + tuple(e.player for e in field))
    numbers = {e.player: n for n, e in enumerate(by_seed(entrants), start=1)}
    history = _history(entrants, numbers, round_number)
    byes = _bye_counts(field)
    last = rounds is not None and round_number >= rounds
    for forget_colours, forget_meetings in _relaxations(history.rounds):
        trf = _trf(entrants, numbers, history, byes, sitting, last, forget_colours, forget_meetings)
        try:
            found = DutchEngine.generate_pairings(trf)
        except PairingError:
            continue
        return _pairing(found, entrants, numbers, requested)
    raise AssertionError("a Swiss round with no past left to forget always pairs")


def _bye_counts(field: Sequence[Entrant]) -> dict[int, int]:
    """Byes as the engine should count them: when all of an odd field had one, the fewest count
    as none, so the bye goes to one of those who had fewest (C.2 would leave no one)."""
    least = min(e.byes for e in field)
    if len(field) % 2 and least > 0:
        return {e.player: e.byes - least for e in field}
    return {e.player: e.byes for e in field}


def _relaxations(rounds: int) -> list[tuple[int, int]]:
    """(rounds whose colours are forgotten, rounds whose meetings are forgotten), mildest first."""
    return [(k, 0) for k in range(rounds + 1)] + [(rounds, k) for k in range(1, rounds + 1)]


def _history(entrants: Sequence[Entrant], numbers: dict[int, int], round_number: int) -> _History:
    """Lay each entrant's games in the rounds they were played, both players alike.

    Without ``Entrant.rounds`` only the order of a player's games is known: they are laid as
    late as that order allows, which puts byes and absences first, so no float is invented for
    the last two rounds. Games against players no longer in the field go to stand-in players
    (numbered after the field) who are not paired.
    """
    sequences, given = _games(entrants, numbers)
    total = max([round_number - 1, *given.values()] + [len(e.starts) + e.byes for e in entrants])
    if all(len(e.rounds) == len(e.opponents) for e in entrants):
        when = given
    else:
        when = _latest_rounds(sequences, total)
    early = 1 - min(when.values(), default=1)
    if early > 0:  # orders no real history has; keep them all the same
        total += early
        when = {game: r + early for game, r in when.items()}
    slots: dict[int, list[RoundResult | None]] = {}
    meetings = []
    before = _points_before(entrants, numbers, total)
    stand_in = len(numbers)
    for (a, b, white, _k), r in sorted(when.items(), key=lambda item: (item[1], item[0])):
        if b is None:
            stand_in += 1
            b = stand_in
            before[b] = before[a]  # level with his opponent: no float invented
        else:
            meetings.append((r, a, b))
        for number, opponent, starts in ((a, b, white == a), (b, a, white != a)):
            token = ColorToken.WHITE if starts else ColorToken.BLACK
            played = RoundResult(id=opponent, color=token, result=ResultToken.DRAW)
            slots.setdefault(number, [None] * total)[r - 1] = played
    for e in entrants:
        own = slots.setdefault(numbers[e.player], [None] * total)
        for index in [i for i, slot in enumerate(own) if slot is None][: e.byes]:
            own[index] = _bye(ResultToken.PAIRING_ALLOCATED_BYE)
    return _History(rounds=total, slots=slots, meetings=meetings, before=before)


def _points_before(
    entrants: Sequence[Entrant], numbers: dict[int, int], total: int
) -> dict[int, list[int]]:
    """Tenths of points before each round and now; all level in the past when not all known."""
    known = all(len(e.scores) == total for e in entrants)
    before = {}
    for e in entrants:
        past = [round(s * 10) for s in e.scores] if known else [0] * total
        before[numbers[e.player]] = [*past, round(e.points * 10)]
    return before


# (a player's number, the other's number or None for a stand-in, who started, which meeting)
_Game = tuple[int, int | None, int, int]


def _games(
    entrants: Sequence[Entrant], numbers: dict[int, int]
) -> tuple[dict[int, list[_Game]], dict[_Game, int]]:
    """Each entrant's games in his order (one key for both players), and their rounds if given."""
    sequences: dict[int, list[_Game]] = {}
    given: dict[_Game, int] = {}
    for e in entrants:
        if len(e.opponents) != len(e.starts):
            raise ValueError(
                f"Swiss pairing needs two-player tables; player {e.player} has "
                f"{len(e.opponents)} opponents over {len(e.starts)} tables."
            )
        me = numbers[e.player]
        met: Counter[int] = Counter()
        own: list[_Game] = []
        for index, (opponent, started) in enumerate(zip(e.opponents, e.starts, strict=True)):
            met[opponent] += 1
            other = numbers.get(opponent)
            game: _Game
            if other is None:
                game = (me, None, me if started else 0, opponent * 10_000 + met[opponent])
            else:
                low, high = sorted((me, other))
                game = (low, high, me if started else other, met[opponent])
            own.append(game)
            if index < len(e.rounds):
                given[game] = e.rounds[index]
        sequences[me] = own
    _check_agreement(sequences)
    return sequences, given


def _check_agreement(sequences: dict[int, list[_Game]]) -> None:
    """Both players of a game must hold it, with the same starter."""
    for number, games in sequences.items():
        for a, b, _white, k in games:
            if b is None:
                continue
            other = b if a == number else a
            if Counter(sequences[number])[(a, b, _white, k)] != Counter(sequences[other]).get(
                (a, b, _white, k)
            ):
                raise ValueError(
                    f"Entrants disagree on meeting {k} of seeds {a} and {b} (who started, or "
                    "whether they met)."
                )


def _latest_rounds(sequences: dict[int, list[_Game]], total: int) -> dict[_Game, int]:
    """Each game's latest round such that every player's games keep their order."""
    following: dict[_Game, list[_Game]] = {}
    for sequence in sequences.values():
        for index, game in enumerate(sequence):
            following.setdefault(game, []).extend(sequence[index + 1 : index + 2])
    when: dict[_Game, int] = {}
    pending = sorted(following, key=lambda g: (g[0], g[1] or 0, g[2], g[3]))
    while pending:
        ready = [g for g in pending if all(f in when for f in following[g])]
        if not ready:
            raise ValueError("The entrants' game orders contradict each other.")
        for game in ready:
            when[game] = min((when[f] for f in following[game]), default=total + 1) - 1
        done = set(ready)
        pending = [g for g in pending if g not in done]
    return when


def _bye(token: ResultToken) -> RoundResult:
    return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)


def _trf(
    entrants: Sequence[Entrant],
    numbers: dict[int, int],
    history: _History,
    byes: dict[int, int],
    sitting: set[int],
    last: bool,
    forget_colours: int,
    forget_meetings: int,
) -> ParsedTrf:
    """The engine's input: the history, with the oldest rounds' games blanked as asked.

    A blanked game keeps its meeting as a forbidden pair until its meetings are forgotten too.
    """
    field = {numbers[e.player] for e in entrants if e.player not in sitting}
    had_bye = {numbers[p] for p, count in byes.items() if count > 0}
    sections = []
    for number in sorted(history.slots):
        results = []
        for r, slot in enumerate(history.slots[number], start=1):
            if slot is None:
                results.append(_bye(ResultToken.ZERO_POINT_BYE))
            elif slot.result is ResultToken.PAIRING_ALLOCATED_BYE:
                keep = number in had_bye
                results.append(slot if keep else _bye(ResultToken.ZERO_POINT_BYE))
            else:
                keep = r > forget_colours
                results.append(slot if keep else _bye(ResultToken.ZERO_POINT_BYE))
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number,
                points_times_ten=_SLOT_POINTS * history.rounds,
                rank=number,
                results=results,
            )
        )
    forbidden = {(a, b) for r, a, b in history.meetings if forget_meetings < r <= forget_colours}
    x_section = XSection(
        number_of_rounds=history.rounds + (1 if last else 2),
        zeroed_ids=set(history.slots) - field,
        scoring_point_system=_scoring(),
        configuration=XSectionConfiguration(first_round_color=True),
        accelerations={
            n: [points - _SLOT_POINTS * r for r, points in enumerate(history.before.get(n, []))]
            or [0] * (history.rounds + 1)
            for n in history.slots
        },
        forbidden_pairs=forbidden,
    )
    return ParsedTrf(player_sections=sections, x_section=x_section)


def _scoring() -> ScoringPointSystem:
    scoring = ScoringPointSystem()
    scoring.score_dict = {
        key: _WIN_POINTS
        if value == _WIN_POINTS and key[1] is not ColorToken.BYE_OR_NOT_PAIRED
        else _SLOT_POINTS
        for key, value in scoring.score_dict.items()
    }
    return scoring


def _pairing(
    found: Sequence[Any],
    entrants: Sequence[Entrant],
    numbers: dict[int, int],
    requested: tuple[int, ...],
) -> Pairing:
    """The engine's pairs as tables, boards ordered as FIDE D.9 orders them."""
    player = {n: p for p, n in numbers.items()}
    by_player = {e.player: e for e in entrants}
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for pair in found:
        white, black = pair.white, pair.black
        if black == 0:
            byes.append(player[white])
        else:
            tables.append((player[white], player[black]))

    def board(table: tuple[int, ...]) -> tuple[float, float, int]:
        ranked = sorted(table, key=lambda p: (-by_player[p].points, numbers[p]))
        higher, lower = (by_player[p] for p in ranked)
        return (-higher.points, -(higher.points + lower.points), numbers[higher.player])

    return Pairing(tables=tuple(sorted(tables, key=board)), byes=requested + tuple(byes))
