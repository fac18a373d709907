"""Every refusal code RULES.md names for a game is what the service answers, for a body the
declaration and the published schema take.

RULES.md is parsed for the codes each game's section names (``## 7. `straight-scarney-dice```
and its subsections; Appendix C's sections for the score sheets; 0.6 for every sheet): a code
docs/ERRORS.md documents, written in backquotes. Each must have a case below (the stream, the
legal moves before, the body) or be listed as one no client body can produce, with the reason;
a code added to RULES.md fails :func:`test_every_code_the_rule_book_names_has_a_case` until it
has. Each case's body passes the store's check for its stream (the declaration of the stream's
own game kind or match format), validates against the type's published schema (JSON Schema, as
tests/games/store/test_declared_events.py reads it), and recorded through games.play.services
it is refused with exactly that code: a declared bound is a guard against absurd input, never an
answer in the rules' place.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from games.play import services
from games.rules import registry
from games.rules.base import Move, make_ruleset
from games.rules.errors import RuleError
from games.rules.tarot import cards as tarot_cards
from games.store import event_types
from games.store.canonical import canonical
from tests.strategies import json_schema

ROOT = Path(__file__).resolve().parents[3]
# The rule book is kept beside the project, in shared/ (README.md). What it names is kept here
# too, so that the cases run wherever the suite runs; beside the rule book, the kept copy is
# checked against it (test_the_kept_codes_are_the_rule_books).
RULE_BOOK = ROOT.parent / "shared" / "RULES.md"
KEPT = ROOT / "tests" / "fixtures" / "rule_book_codes.json"
ERRORS = ROOT / "docs" / "ERRORS.md"

# Appendix C's sections and 0.6, by the streams whose sheets they speak of.
SHEET_SECTIONS = {
    "0.6": "any sheet",
    "C.1": "scarney-solitaire sheet",
    "C.2": "scarney-doubles sheet",
    "C.3": "high-low-scarney sheet",
    "C.4": "scarney-3000 sheet",
}


def documented_codes() -> set[str]:
    return set(re.findall(r"^\| `([a-z_0-9]+\.[a-z_0-9]+)` \|", ERRORS.read_text(), re.M))


def rule_book_codes() -> dict[str, set[str]]:
    """The refusal codes each game's section (or sheet section) of RULES.md names, as kept."""
    return {where: set(codes) for where, codes in json.loads(KEPT.read_text()).items()}


def parsed_rule_book(text: str) -> dict[str, set[str]]:
    """The refusal codes each game's section (or sheet section) of RULES.md names."""
    codes = documented_codes()
    named: dict[str, set[str]] = {}
    where: str | None = None
    for part in re.split(r"^(#{1,3} .*)$", text, flags=re.M):
        game = re.match(r"^## \d+\. `([a-z0-9-]+)`", part)
        sheet = re.match(r"^## (C\.\d+|0\.6) ", part)
        if game or sheet:
            where = game.group(1) if game else SHEET_SECTIONS.get(sheet.group(1))  # type: ignore[union-attr]
            continue
        if re.match(r"^#{1,2} ", part):  # another part or section: no game's
            where = None
            continue
        if where is not None:
            found = set(re.findall(r"`([a-z_0-9]+\.[a-z_0-9]+)`", part)) & codes
            named.setdefault(where, set()).update(found)
    return {game: found for game, found in named.items() if found}


@dataclass(frozen=True)
class Case:
    """A stream (a game of ``kind``, or a sheet match of that format), the legal moves before,
    and the body refused with ``code``."""

    kind: str
    code: str
    type: str
    data: Mapping[str, Any]
    before: tuple[Move, ...] = ()
    sheet: bool = False
    ruleset: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 2
    setup: Mapping[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.kind} sheet" if self.sheet else self.kind

    @property
    def id(self) -> str:
        return f"{self.where} {self.type} {self.code}"

    def start(self) -> tuple[uuid.UUID, str, str]:
        names = [{"name": f"Player {seat}"} for seat in range(self.seats)]
        if self.sheet:
            match = services.match_start(
                format=self.kind, players=names, entry="sheet", ruleset=dict(self.ruleset)
            )
            return match.pk, "match", self.kind
        game = services.game_start(
            kind=self.kind, seats=names, ruleset=dict(self.ruleset), setup=dict(self.setup)
        )
        return game.pk, "game", self.kind


def throw(*faces: str, **more: Any) -> Move:
    return Move("dice.thrown", {"faces": list(faces), **more})


STOOD = Move("shooter.stood", {})
DOUBLE = Move("double_down.called", {})
ANTED = Move("round.anted", {})
KEPT_NONE = Move("dice.kept", {"faces": []})
# Five Scarney dice with no dead die and no bonus: a point score (7.5), a bust (9.3).
POINTS = throw("1", "3", "4", "6", "6")
BUST = throw("1", "1", "3", "4", "6")
TEN = ("1", "1", "2", "2", "3", "3", "4", "4", "5", "6")


def grouped(first: tuple[str, list[str]], second: tuple[str, list[str]]) -> Move:
    groups = [{"category": c, "dice": d} for c, d in (first, second)]
    return Move("dice.grouped", {"groups": groups})


GOOD_GROUPS = grouped(("aces", list(TEN[:5])), ("sixes", list(TEN[5:])))

# A layout whose rows are the colours: C1-C4 B1-B4, C5-C8 R1-R4, C9-C12 Y1-Y4, C13-C16 G1-G4
# (the circles numbered along the rows, RULES.md 1.1); then B1 taken off C1.
ROWS = {
    f"C{circle}": f"{colour}{spots}"
    for circle, (colour, spots) in enumerate(
        ((colour, spots) for colour in "BRYG" for spots in range(1, 5)), start=1
    )
}
LAID = Move("board.laid_out", {"position": ROWS})
OFF = Move("pawn.taken_off", {"circle": 1})


def jump(frm: int, to: int, **over: int) -> dict[str, int]:
    return {"from": frm, "to": to, **over}


def without(circle: str) -> dict[str, Any]:
    return {"position": {c: p for c, p in ROWS.items() if c != circle}}


SOLO = {"seats": 1}
# Two-player board games: seat 0 chooses black and red, and the sides place in turn, seat 0 first,
# on C1 to C16: B1 Y1 B2 Y2 B3 Y3 B4 Y4 R1 G1 ... G4.
COLOURS = Move("colours.chosen", {"colours": ["B", "R"]})
ORDER = [
    f"{ours if turn == 0 else theirs}{spots}"
    for ours, theirs in (("B", "Y"), ("R", "G"))
    for spots in range(1, 5)
    for turn in (0, 1)
]
PLACINGS = tuple(
    Move("pawn.placed", {"circle": circle, "pawn": pawn})
    for circle, pawn in enumerate(ORDER, start=1)
)
PLACED = (COLOURS, *PLACINGS)
# No jump and no removal left: a study position over from the start.
OVER = {"position": {"C1": "B1", "C16": "R1"}}


def placed(circle: int | str, pawn: str) -> dict[str, Any]:
    return {"circle": circle, "pawn": pawn}


# High-Low: B1 R1 B2 B3 along row 1, Y1 and Y2 below B1 in column 1, B4 on C6.
HIGH_LOW = {
    "position": {"C1": "B1", "C2": "R1", "C3": "B2", "C4": "B3", "C5": "Y1", "C9": "Y2", "C6": "B4"}
}
TWO_BLACK = {"position": {"C1": "B1", "C2": "B2"}}
REMOVE_1 = Move("pawns.removed", {"circles": [1]})


def removed(*circles: int) -> dict[str, Any]:
    return {"circles": list(circles)}


# Scarnie, two players: stations 1 and 2, pawns 1-7 and 8-14, all of colour a.
def station(first: int, colour: str = "a", count: int = 7, b_from: int = 8) -> list[Any]:
    """Pawns ``first`` on, on positions 1 to ``count``, of ``colour`` (b from ``b_from``)."""
    return [
        {"position": p, "pawn": first + p - 1, "colour": "b" if p >= b_from else colour}
        for p in range(1, count + 1)
    ]


def dealt(**stations: list[dict[str, Any]]) -> dict[str, Any]:
    return {"stations": {key.removeprefix("s"): pawns for key, pawns in stations.items()}}


DEAL = Move("deal.faced_up", dealt(s1=station(1), s2=station(8)))
MIXED = Move("deal.faced_up", dealt(s1=station(1, b_from=7), s2=station(8)))


def take(*at: str) -> Move:
    return Move("pawns.removed", {"positions": list(at)})


# Every pawn but the two last on S2P6 and S2P7, one by one.
ALL_BUT_TWO = tuple(take(f"S{s}P{p}") for s in (1, 2) for p in range(1, 8))[:12]

# Tarot modules, three seats: cards played clockwise from seat 0.
FOOL = "FOOL"
SCARTO, TAROCCHI = {"base_game": "scarto"}, {"base_game": "tarocchi"}


def deal(*hands: list[str]) -> Move:
    return Move("cards.dealt", {"hands": [list(hand) for hand in hands]})


def played(*cards: str, first: int = 0) -> tuple[Move, ...]:
    return tuple(
        Move("card.played", {"seat": (first + n) % 3, "card": card}) for n, card in enumerate(cards)
    )


def won(winner: int) -> Move:
    return Move("trick.won", {"winner": winner})


def card(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card}


TAROT = {"seats": 3}
FOOL_TRICK = (*played("2s", FOOL, "5s"), won(0))

# Manchester Piccadilly: Dealer is seat 0, Opposite seat 1 (RULES.md 20.1).
DEALER_13 = ["Ks", "Qs", "Cs", "Js", "10s", "9s", "8s", "T21", "T20", "T2", "Kb", "2b", "3b"]
OPPOSITE_13 = ["7s", "6s", "5s", "4s", "T1", "T5", "T3", FOOL, "Qb", "Cb", "2c", "3c", "4c"]
PICCADILLY = {"seats": 2, "setup": {"dealer": 0}}


def hands_dealt(*hands: list[str]) -> Move:
    return Move("cards.dealt", {"hands": [list(hand) for hand in hands]})


def announced(seat: int, value: int) -> Move:
    return Move("value.announced", {"seat": seat, "value": value})


def discarded(seat: int, cards: list[str], **shown: list[str]) -> Move:
    return Move("cards.discarded", {"seat": seat, "cards": cards, **shown})


def plays(*cards: str) -> tuple[Move, ...]:
    return tuple(Move("card.played", {"card": card}) for card in cards)


def trick_to(winner: str) -> Move:
    return Move("trick.won", {"winner": winner})


IN_PLAY = (
    hands_dealt(DEALER_13, OPPOSITE_13),
    announced(1, 26),
    announced(0, 31),
    discarded(0, ["2b", "3b", "8s"]),
    discarded(1, ["2c", "3c", "4c"]),
)
# A hand of seven trumps and four Kings: only its two pips are not restricted (D-MP-7).
RESTRICTED = ["T21", "T20", "T19", "T18", "T17", "T16", "T15", "Ks", "Kb", "Kc", "Kd", "2s", "3s"]
OTHER_13 = [c for c in tarot_cards.PACK if c not in RESTRICTED][:13]


def to_part_one_score() -> tuple[Move, ...]:
    """Part one played out from the Fool led by Opposite (he owes a card for it, 20.2.5), by the
    first legal move each time, up to the Fool's payment."""
    rules: Any = registry.get("manchester-piccadilly")
    moves = (*IN_PLAY, *plays(FOOL, "Ks"), trick_to("dealer"))
    state = rules.initial_state({"dealer": 0}, make_ruleset(rules.ruleset_type, {}), 2)
    for move in moves:
        state = rules.apply(state, move)
    while (legal := rules.legal_events(state)) and legal[0].type != "fool.paid":
        moves = (*moves, legal[0])
        state = rules.apply(state, legal[0])
    return moves


CASES = [
    # 20. Manchester Piccadilly
    Case(
        "manchester-piccadilly",
        "deal.wrong_count",
        "cards.dealt",
        hands_dealt(DEALER_13[:12], OPPOSITE_13).data,
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "announce.wrong_total",
        "value.announced",
        announced(1, 25).data,
        IN_PLAY[:1],
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "discard.restricted_card",
        "cards.discarded",
        discarded(0, ["Ks", "2b", "3b"]).data,
        IN_PLAY[:3],
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "discard.not_shown",
        "cards.discarded",
        discarded(0, ["T15", "2s", "3s"]).data,
        (
            hands_dealt(RESTRICTED, OTHER_13),
            announced(0, tarot_cards.points_of(RESTRICTED)),
            announced(1, tarot_cards.points_of(OTHER_13)),
        ),
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "play.not_your_turn",
        "card.played",
        {"card": "7s", "seat": 0},
        IN_PLAY,
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "play.card_not_held",
        "card.played",
        {"card": "Ks"},
        IN_PLAY,
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "play.must_follow",
        "card.played",
        {"card": "T2"},
        (*IN_PLAY, *plays("7s")),
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "play.must_trump",
        "card.played",
        {"card": "Qs"},
        (
            *IN_PLAY,
            *plays("7s", "Ks"),
            trick_to("dealer"),
            *plays("Kb", "Qb"),
            trick_to("dealer"),
            *plays("Cb"),
        ),
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "play.must_overtrump",
        "card.played",
        {"card": "T2"},
        (*IN_PLAY, *plays("T3")),
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "trick.wrong_winner",
        "trick.won",
        {"winner": "opposite"},
        (*IN_PLAY, *plays("7s", "Ks")),
        **PICCADILLY,
    ),
    Case(
        "manchester-piccadilly",
        "fool.payment",
        "fool.paid",
        {"card": "Ks"},
        to_part_one_score(),
        **PICCADILLY,
    ),
    # 17. Tontine
    Case(
        "tontine",
        "claim.not_won",
        "card.claimed",
        card(1, "Ks"),
        (*played("Ks", "2s", "3s"), won(0)),
        ruleset=SCARTO,
        **TAROT,
    ),
    Case(
        "tontine",
        "claim.too_late",
        "card.claimed",
        card(0, "Kd"),
        (
            deal(["Kd", "2s"], ["3s", "4s"], ["5s", "6s"]),
            *played("Kd", "3s", "5s"),
            won(0),
            *played("2s", "4s", "6s"),
            won(1),
        ),
        ruleset=SCARTO,
        **TAROT,
    ),
    # 18. Last Laugh
    Case(
        "last-laugh",
        "fool.must_play",
        "card.played",
        card(1, "3s"),
        (deal(["T5", "2s"], [FOOL, "3s"], ["T6", "4s"]), *played("T5")),
        ruleset=TAROCCHI,
        **TAROT,
    ),
    Case(
        "last-laugh",
        "fool.not_allowed",
        "card.played",
        card(1, FOOL),
        (deal(["2s", "T4"], [FOOL, "3s", "Qb"], ["4s", "T5"]), *played("2s")),
        ruleset=TAROCCHI,
        **TAROT,
    ),
    Case(
        "last-laugh",
        "trick.wrong_winner",
        "trick.won",
        {"winner": 1},
        (deal(["2s", "3s"], [FOOL, "Cs"], ["5s", "6s"]), *played("2s", FOOL, "5s")),
        ruleset=TAROCCHI,
        **TAROT,
    ),
    Case(
        "last-laugh",
        "butt.wrong_discard",
        "butt.discarded",
        {"card": "Ks"},
        (
            deal(["2s", "Qs", "Js", "Ks"], [FOOL, "Cs", "3b", "4b"], ["5s", "6b", "7b", "8b"]),
            *FOOL_TRICK,
        ),
        ruleset=TAROCCHI,
        **TAROT,
    ),
    Case(
        "last-laugh",
        "hand.fool_not_played",
        "hand.ended",
        {},
        (*played("2s", FOOL, "5s"), won(2), Move("butt.discarded", {"card": "Qb"})),
        ruleset=TAROCCHI,
        **TAROT,
    ),
    # 6. Scarnie
    Case(
        "scarnie", "deal.bad_station", "deal.faced_up", dealt(s1=station(1, count=6), s2=station(8))
    ),
    Case("scarnie", "deal.duplicate_pawn", "deal.faced_up", dealt(s1=station(1), s2=station(7))),
    Case(
        "scarnie",
        "deal.colour_changed",
        "deal.faced_up",
        DEAL.data,
        setup={"colours": {"3": "b"}},
    ),
    Case(
        "scarnie",
        "deal.colour_count",
        "deal.faced_up",
        dealt(s1=station(1, "b"), s2=station(8, b_from=6)),  # nine pawns b
    ),
    Case("scarnie", "remove.count", "pawns.removed", take().data, (DEAL,)),
    Case("scarnie", "remove.duplicate", "pawns.removed", take("S1P1", "S1P1").data, (DEAL,)),
    Case(
        "scarnie", "remove.empty_position", "pawns.removed", take("S1P1").data, (DEAL, take("S1P1"))
    ),
    Case("scarnie", "remove.two_stations", "pawns.removed", take("S1P1", "S2P1").data, (DEAL,)),
    Case("scarnie", "remove.mixed_colours", "pawns.removed", take("S1P6", "S1P7").data, (MIXED,)),
    Case(
        "scarnie",
        "remove.empties_board",
        "pawns.removed",
        take("S2P6", "S2P7").data,
        (DEAL, *ALL_BUT_TWO),
    ),
    Case(
        "scarnie",
        "game.over",
        "pawns.removed",
        take("S2P7").data,
        (DEAL, *ALL_BUT_TWO, take("S2P6"), take("S2P7")),
    ),
    # 3. Scarney Singles
    Case("scarney-singles", "colours.invalid", "colours.chosen", {"colours": ["B"]}),
    Case("scarney-singles", "place.not_your_pawn", "pawn.placed", placed(1, "Y1"), (COLOURS,)),
    Case("scarney-singles", "place.already_placed", "pawn.placed", placed(3, "B1"), PLACED[:3]),
    Case("scarney-singles", "place.circle_occupied", "pawn.placed", placed(1, "Y1"), PLACED[:2]),
    Case("scarney-singles", "setup.unknown_circle", "pawn.placed", placed("C17", "B1"), (COLOURS,)),
    Case("scarney-singles", "game.scarney_not_due", "game.scarney_called", {}, PLACED),
    Case("scarney-singles", "game.over", "pawn.taken_off", {"circle": 1}, setup=OVER),
    # 4. Scarney Doubles
    Case("scarney-doubles", "colours.invalid", "colours.chosen", {"colours": ["B", "X"]}),
    Case("scarney-doubles", "takeoff.not_low_pawn", "pawn.taken_off", {"circle": 5}, PLACED),
    Case("scarney-doubles", "takeoff.required", "pawn.jumped", jump(9, 1), PLACED),
    Case(
        "scarney-doubles", "takeoff.empty_circle", "pawn.taken_off", {"circle": 1}, (*PLACED, OFF)
    ),
    Case("scarney-doubles", "game.scarney_not_due", "game.scarney_called", {}, PLACED),
    Case("scarney-doubles", "game.over", "pawn.jumped", jump(1, 9), setup=OVER),
    # 5. High-Low Scarney
    Case("high-low-scarney", "remove.count", "pawns.removed", removed(1, 3, 4, 6), setup=HIGH_LOW),
    Case("high-low-scarney", "remove.duplicate", "pawns.removed", removed(1, 1), setup=HIGH_LOW),
    Case("high-low-scarney", "remove.empty_circle", "pawns.removed", removed(16), setup=HIGH_LOW),
    Case(
        "high-low-scarney", "remove.mixed_colours", "pawns.removed", removed(1, 2), setup=HIGH_LOW
    ),
    Case("high-low-scarney", "remove.not_in_line", "pawns.removed", removed(1, 6), setup=HIGH_LOW),
    Case("high-low-scarney", "remove.blocked", "pawns.removed", removed(1, 3), setup=HIGH_LOW),
    Case("high-low-scarney", "remove.last_pawn", "pawns.removed", removed(1, 2), setup=TWO_BLACK),
    Case(
        "high-low-scarney", "game.over", "pawns.removed", removed(2), (REMOVE_1,), setup=TWO_BLACK
    ),
    # 2. Scarney Solitaire
    Case("scarney-solitaire", "setup.incomplete_layout", "board.laid_out", without("C16"), **SOLO),
    Case(
        "scarney-solitaire",
        "setup.duplicate_pawn",
        "board.laid_out",
        {"position": {**ROWS, "C16": "B1"}},
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "setup.unknown_pawn",
        "board.laid_out",
        {"position": {**ROWS, "C16": "G5"}},
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "setup.unknown_circle",
        "board.laid_out",
        {"position": {**without("C16")["position"], "C17": "G4"}},
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "takeoff.not_low_pawn",
        "pawn.taken_off",
        {"circle": 3},
        (LAID,),
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "takeoff.already_made",
        "pawn.taken_off",
        {"circle": 2},
        (LAID, OFF),
        **SOLO,
    ),
    Case("scarney-solitaire", "takeoff.required", "pawn.jumped", jump(9, 1), (LAID,), **SOLO),
    Case("scarney-solitaire", "jump.empty_from", "pawn.jumped", jump(1, 9), (LAID, OFF), **SOLO),
    Case("scarney-solitaire", "jump.not_straight", "pawn.jumped", jump(6, 1), (LAID, OFF), **SOLO),
    Case(
        "scarney-solitaire",
        "jump.nothing_to_jump",
        "pawn.jumped",
        jump(10, 2),  # over C6, empty
        setup={"position": {"C1": "B1", "C5": "R1", "C10": "Y2"}},  # B1 may jump R1
        **SOLO,
    ),
    Case("scarney-solitaire", "jump.same_colour", "pawn.jumped", jump(3, 1), (LAID, OFF), **SOLO),
    Case(
        "scarney-solitaire",
        "jump.landing_occupied",
        "pawn.jumped",
        jump(5, 13),
        (LAID, OFF),
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "jump.over_mismatch",
        "pawn.jumped",
        jump(9, 1, over=2),
        (LAID, OFF),
        **SOLO,
    ),
    Case(
        "scarney-solitaire",
        "game.scarney_not_allowed",
        "game.scarney_called",
        {},
        (LAID, OFF),
        **SOLO,
    ),
    # A study position with no jump left: the game is over from the start.
    Case(
        "scarney-solitaire",
        "game.over",
        "pawn.jumped",
        jump(1, 9),
        setup={"position": {"C1": "B1", "C16": "R1"}},
        **SOLO,
    ),
    # 7. Straight Scarney Dice
    Case(
        "straight-scarney-dice",
        "throw.wrong_dice_count",
        "dice.thrown",
        POINTS.data | {"faces": ["1", "3", "4", "6"]},
    ),
    Case(
        "straight-scarney-dice",
        "throw.bad_face",
        "dice.thrown",
        {"faces": ["1", "2", "3", "4", "6"]},
    ),
    Case(
        "straight-scarney-dice",
        "opposite.not_allowed",
        "dice.thrown",
        {**POINTS.data, "opposite": True},
    ),
    Case("straight-scarney-dice", "stand.no_point_score", "shooter.stood", {}),
    Case(
        "straight-scarney-dice", "double_down.already_called", "double_down.called", {}, (DOUBLE,)
    ),
    Case("straight-scarney-dice", "double_down.not_allowed", "double_down.called", {}, (POINTS,)),
    Case(
        "straight-scarney-dice",
        "frame.over",
        "dice.thrown",
        {**POINTS.data, "seat": 0},
        (POINTS, STOOD),
    ),
    # 9. Scarney 3000
    Case("scarney-3000", "throw.wrong_dice_count", "dice.thrown", {"faces": ["D"] * 6}),
    Case("scarney-3000", "throw.bad_face", "dice.thrown", {"faces": ["D", "2", "3", "4", "6"]}),
    Case("scarney-3000", "stand.below_minimum", "shooter.stood", {}),
    Case(
        "scarney-3000",
        "stand.unconfirmed_bonus",
        "shooter.stood",
        {},
        (throw("1", "1", "1", "3", "4"),),
    ),
    Case("scarney-3000", "turn.over", "dice.thrown", {**POINTS.data, "seat": 0}, (BUST,)),
    # 11. Scarney Put-and-Take
    Case(
        "scarney-put-and-take",
        "throw.wrong_dice_count",
        "dice.thrown",
        {"faces": ["2"] * 0 + ["1", "3", "4", "6"]},
        (ANTED,),
    ),
    Case(
        "scarney-put-and-take",
        "throw.bad_face",
        "dice.thrown",
        {"faces": ["2", "2", "2"]},
        (ANTED,),
    ),
    Case(
        "scarney-put-and-take",
        "double_down.already_called",
        "double_down.called",
        {},
        (ANTED, DOUBLE),
    ),
    # 12. Double Cameroon
    Case("double-cameroon", "throw.wrong_dice_count", "dice.thrown", {"faces": [*TEN, "6"]}),
    Case("double-cameroon", "throw.bad_face", "dice.thrown", {"faces": [*TEN[:9], "7"]}),
    Case("double-cameroon", "keep.not_showing", "dice.kept", {"faces": ["6", "6"]}, (throw(*TEN),)),
    Case(
        "double-cameroon",
        "keep.dropped_locked_die",
        "dice.kept",
        {"faces": ["2"]},
        (throw(*TEN), Move("dice.kept", {"faces": ["1"]}), throw(*TEN[1:])),
        ruleset={"cameroon_kept_dice_locked": True},
    ),
    Case(
        "double-cameroon",
        "group.wrong_dice",
        "dice.grouped",
        grouped(("aces", list(TEN[:6])), ("sixes", list(TEN[6:]))).data,
        (throw(*TEN),),
    ),
    Case(
        "double-cameroon",
        "group.same_category",
        "dice.grouped",
        grouped(("aces", list(TEN[:5])), ("aces", list(TEN[5:]))).data,
        (throw(*TEN),),
    ),
    Case(
        "double-cameroon",
        "group.category_used",
        "dice.grouped",
        GOOD_GROUPS.data,
        (throw(*TEN), GOOD_GROUPS, throw(*TEN)),
        seats=1,
    ),
    Case(
        "double-cameroon",
        "throw.too_many",
        "dice.thrown",
        {"faces": []},
        (throw(*TEN), KEPT_NONE, throw(*TEN), KEPT_NONE, throw(*TEN)),
    ),
    # 13. Going to Boston; 15. Hearts Due
    Case("going-to-boston", "throw.wrong_dice_count", "dice.thrown", {"faces": ["6", "5"]}),
    Case("going-to-boston", "throw.bad_face", "dice.thrown", {"faces": ["6", "5", "0"]}),
    Case(
        "hearts-due",
        "throw.wrong_dice_count",
        "dice.thrown",
        {"faces": ["1", "2", "3", "4", "5", "6"] * 2},
    ),
    Case("hearts-due", "throw.bad_face", "dice.thrown", {"faces": ["1", "2", "3", "4", "5", "H"]}),
    # Appendix C and 0.6: score sheets
    Case(
        "scarney-solitaire",
        "score.unattainable",
        "game.scored",
        {"scores": [45]},
        sheet=True,
        seats=1,
    ),
    Case("scarney-doubles", "score.doubles_total", "game.scored", {"scores": [30, 30]}, sheet=True),
    Case("high-low-scarney", "score.unattainable", "game.scored", {"scores": [35, 0]}, sheet=True),
    Case(
        "scarney-3000",
        "score.not_multiple_of_50",
        "game.scored",
        {"turns": [[225, 3000]]},
        sheet=True,
    ),
    Case(
        "scarney-3000", "score.below_minimum", "game.scored", {"turns": [[150, 3000]]}, sheet=True
    ),
    Case(
        "going-to-boston",
        "sheet.cumulative_mismatch",
        "game.scored",
        {"scores": [10, 12], "cumulative": [10, 13]},
        sheet=True,
    ),
    Case(
        "straight-scarney-dice",
        "sheet.total_mismatch",
        "game.scored",
        {"frames": [[10, 0, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0]], "scores": [11, 5]},
        sheet=True,
    ),
]

# Codes RULES.md names that no client body can produce, with the reason.
SERVICE_ONLY: dict[tuple[str, str], str] = {
    ("scarney-solitaire", "takeoff.empty_circle"): "every circle holds a pawn until the take-off "
    "(the layout places all 16; a study position starts after it), and a second take-off is "
    "takeoff.already_made",
}


def covered() -> set[tuple[str, str]]:
    cases = {(case.where, case.code) for case in CASES}
    # A sheet's code may be named in its game's section too (4.4: score.doubles_total), and in
    # 0.6 for every sheet.
    sheets = {
        (where, case.code) for case in CASES if case.sheet for where in (case.kind, "any sheet")
    }
    return cases | sheets | set(SERVICE_ONLY)


def test_the_kept_codes_are_the_rule_books() -> None:
    if not RULE_BOOK.exists():
        pytest.skip(f"the rule book is not beside the project ({RULE_BOOK})")
    parsed = parsed_rule_book(RULE_BOOK.read_text())
    kept = rule_book_codes()
    assert parsed == kept, (
        f"RULES.md names other codes than {KEPT.name} keeps: write it anew from the rule book "
        f"(added: {sorted(c for w in parsed for c in parsed[w] - kept.get(w, set()))}, "
        f"gone: {sorted(c for w in kept for c in kept[w] - parsed.get(w, set()))})"
    )


def test_the_rule_book_is_parsed_into_codes_per_game() -> None:
    named = rule_book_codes()
    assert {"throw.wrong_dice_count", "throw.bad_face"} <= named["double-cameroon"]
    assert "group.wrong_dice" in named["double-cameroon"]
    assert "score.doubles_total" in named["scarney-doubles sheet"]
    assert "sheet.cumulative_mismatch" in named["any sheet"]
    assert "dice.thrown" not in set().union(*named.values())  # an event type is no code


def test_every_code_the_rule_book_names_has_a_case() -> None:
    named = {(where, code) for where, codes in rule_book_codes().items() for code in codes}
    missing = sorted(named - covered())
    assert not missing, "RULES.md names codes no case produces:\n" + "\n".join(map(str, missing))


def test_every_case_is_of_a_code_the_rule_book_names() -> None:
    named = rule_book_codes()
    stray = [
        case.id
        for case in CASES
        if case.code not in named.get(case.where, set()) | named.get(case.kind, set())
        and not (case.sheet and case.code in named["any sheet"])
    ]
    assert not stray, stray


def test_every_case_is_of_a_type_its_stream_declares() -> None:
    def declares(case: Case) -> bool:
        rules: Any = registry.match_rules(case.kind) if case.sheet else registry.get(case.kind)
        return case.type in rules.events

    assert not [case.id for case in CASES if not declares(case)]
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)), "one case per stream, type and code"


def schema_errors(type_name: str, data: Any) -> list[str]:
    shape = event_types.declared(type_name)
    assert shape is not None, type_name
    validator = Draft4Validator(json_schema(shape.schema()))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_code_the_rule_book_names_answers_a_body_the_schema_takes(case: Case) -> None:
    stream, category, kind = case.start()
    body = canonical(dict(case.data))
    event_types.check_data(case.type, body)  # the store, before it knows the stream
    event_types.check_stream_data(category, kind, case.type, body)  # and once it does
    assert not schema_errors(case.type, body), schema_errors(case.type, body)
    for move in case.before:
        services.event_record(
            stream_id=stream, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
        )
    with pytest.raises(RuleError) as refused:
        services.event_record(stream_id=stream, event_id=uuid.uuid4(), type=case.type, data=body)
    assert refused.value.code == case.code, refused.value.message
