"""Event types: their names, schema versions and upcasters.

An event is stored in the schema version current when it was recorded. When a type's data shape
changes, its version goes up and an ``upcast_vN_vN+1`` function turns old data into the new shape
*on read*; stored rows are never rewritten. Type names are stable strings, never import paths.

Each type also declares its data: the fields it takes (a union where one name serves several games,
as ``pawns.removed`` in High-Low and Scarnie), what each holds, and the most the store takes of it.
:func:`check_data` refuses a field no game reads (422 ``event.unknown_field``) and a value larger
than its field takes (422 ``event.too_large``: longer text, more items, deeper nesting, a number
beyond :data:`LARGEST_NUMBER` either way); the types and ranges are the rule engines' to check, with
their own codes, so a value of the wrong shape still reaches them as long as it is small.
:func:`check_meta` does the same for the client's ``meta`` (and the ``X-Device`` header):
``client_time``, ``device``, ``note``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.errors import IllegalEvent
from games.rules.events import (
    DOUBLE_DOWN,
    GAME_FINISHED,
    GAME_SCORED,
    GAME_STARTED,
    JUMPED,
    MATCH_RATED,
    MATCH_SETTLED,
    MATCH_STARTED,
    ORDER_DRAWN,
    REMOVED,
    SCARNEY_CALLED,
    STOOD,
    TAKEN_OFF,
    THROWN,
    UNDO,
)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Size:
    """The most the store takes in one place of an event's data.

    Text of at most ``chars`` characters; a list or an object of at most ``items`` members, each
    within ``of`` (an object's keys within ``of.chars``); a record (``fields`` given) is an object
    of those fields only, each within its own size.
    """

    chars: int = 16
    items: int = 0
    of: Size | None = None
    fields: Mapping[str, Field] | None = None


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event's data: what it holds (its type and range, as the rule engines
    check them, in words) and the most the store takes of it."""

    holds: str
    size: Size


def _value(chars: int = 16) -> Size:
    # A scalar, or a short list of them: a wrong shape reaches the rules, which name it.
    return Size(chars, 8, Size(chars))


TOKEN = _value()  # a number, true/false, or a short text: a seat, circle, pawn, face, card ...


def _list(items: int, of: Size = TOKEN) -> Size:
    return Size(16, items, of)


def _record(**fields: Field) -> Size:
    return Size(16, 8, TOKEN, fields)


NOTHING = _record()  # the data of an event that takes no field


def _field(holds: str, size: Size = TOKEN) -> Field:
    return Field(holds, size)


# Sheets: rows of figures (rounds x seats, or seats x frames), each a number or a short text.
_GRID = _list(200, _list(200))
_CARDS = _list(100)  # a pack has 78 cards
_SEAT = _field("seat number")
_CARD = _field('card of the 78-card pack ("Kh", "T21", "FOOL")')
_FACES = _field('faces thrown, e.g. ["D", "3", "6"]', _list(32))


@dataclass(frozen=True)
class EventType:
    name: str
    version: int = 1
    # upcasters[n] turns data of version n into version n + 1.
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)
    # The fields of the data, in the current version (the service's own events: as it writes).
    data: Size = NOTHING

    def upcast(self, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        for version in range(from_version, self.version):
            data = self.upcasters[version](data)
        return data


def _circle_number(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "Cc" and value[1:].isascii() and value[1:].isdigit():
        return int(value[1:])
    return value


def upcast_pawn_jumped_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept circles as sent ("C11" or 11); v2 stores circle numbers."""
    return {key: _circle_number(value) for key, value in data.items()}


def upcast_pawn_taken_off_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept the circle as sent; v2 stores its number."""
    return {key: _circle_number(value) for key, value in data.items()}


_CIRCLE = "circle: C1-C16 or 1-16"
_SCORES = _field("one whole number per seat, in seat order", _list(64))
_ANY = _list(64, _list(64, _list(64)))  # what the service writes from a game's own figures
_SEATS = _list(
    64, _record(seat=_SEAT, player=_field("player id"), name=_field("name", _value(100)))
)

_PLAYER = _field("player id")
_ROUND = _field("round number")
_TABLE = _field("table number")
_REASON = _field("why, in words", _value(500))

EVENT_TYPES: dict[str, EventType] = {
    t.name: t
    for t in [
        # Written by the service (a client gets event.reserved_type): as the service writes them.
        EventType(
            GAME_STARTED,
            data=_record(
                kind=_field("game kind"),
                seats=_field("[{seat, player, name}]", _SEATS),
                ruleset=_field("the effective house rules", _ANY),
                setup=_field("the game's setup", _ANY),
                match=_field("match id or null", _value(36)),
                number=_field("the game's number in its match"),
            ),
        ),
        EventType(
            MATCH_STARTED,
            data=_record(
                format=_field("match format"),
                players=_field("[{seat, player, name}]", _SEATS),
                teams=_field("sides, lists of seats", _ANY),
                ruleset=_field("the effective house rules", _ANY),
                entry=_field("live or sheet"),
            ),
        ),
        EventType(
            GAME_FINISHED,
            data=_record(
                game=_field("the game's id", _value(36)),
                scores=_SCORES,
                winners=_field("winning seats", _list(64)),
                report=_field("the game's match_report", _ANY),
            ),
        ),
        EventType(
            MATCH_SETTLED,
            data=_record(
                payments=_field(
                    "[{from, to, points}]",
                    _list(
                        1000, _record(**{"from": _SEAT, "to": _SEAT, "points": _field("points")})
                    ),
                ),
                nets=_SCORES,
                left_in_pot=_field("chips left in the pot"),
                pot_left=_field("chips left in the pot"),
                game_points=_SCORES,
                winners=_field("winning seats", _list(64)),
            ),
        ),
        EventType(
            MATCH_RATED,
            data=_record(rating=_field("rating", _value(64)), match_score=_field("whole number")),
        ),
        # Every game: a take-back, with a reason (required when a director reopens).
        EventType(UNDO, data=_record(reason=_field("why, as text", _value(500)))),
        # Board games: Solitaire, Singles, Doubles, High-Low (and their matches' draw).
        EventType(
            "board.laid_out",
            data=_record(
                position=_field('{circle: pawn} of the 16 circles, e.g. {"C1": "B4"}', _list(32))
            ),
        ),
        EventType(
            TAKEN_OFF,
            2,
            {1: upcast_pawn_taken_off_v1_v2},
            data=_record(circle=_field(_CIRCLE)),
        ),
        EventType(
            JUMPED,
            2,
            {1: upcast_pawn_jumped_v1_v2},
            data=_record(
                **{
                    "from": _field(_CIRCLE),
                    "to": _field(_CIRCLE),
                    "over": _field(f"{_CIRCLE}, optional"),
                }
            ),
        ),
        EventType(SCARNEY_CALLED),
        EventType("colours.chosen", data=_record(colours=_field("two of B R Y G", _list(8)))),
        EventType(
            "pawn.placed",
            data=_record(circle=_field(_CIRCLE), pawn=_field("pawn: B, R, Y or G and 1-4")),
        ),
        EventType(
            REMOVED,
            data=_record(
                circles=_field(f"High-Low: 1-3 of {_CIRCLE}", _list(16)),
                positions=_field('Scarnie: 1-3 positions, 1-7 or "S2P5"', _list(16)),
                station=_field("Scarnie: station 1-4"),
            ),
        ),
        EventType(
            ORDER_DRAWN,
            data=_record(
                draws=_field(
                    "[{seat, pawn}]: each drawing seat's pick",
                    _list(32, _record(seat=_SEAT, pawn=_field("pawn"))),
                )
            ),
        ),
        # Scarnie.
        EventType(
            "deal.faced_up",
            data=_record(
                stations=_field(
                    "{station 1-4: seven {position 1-7, pawn 1-28, colour a|b}}",
                    _list(
                        8,
                        _list(
                            16,
                            _record(
                                position=_field("position 1-7"),
                                pawn=_field("pawn number 1-28"),
                                colour=_field("a or b"),
                            ),
                        ),
                    ),
                )
            ),
        ),
        EventType("dealer.drawn", data=_record(pawns=_field("pawn numbers 1-28", _list(32)))),
        # The dice games.
        EventType(
            THROWN,
            data=_record(
                faces=_FACES,
                opposite=_field("true or false: Opposite called (Straight, Put-and-Take)"),
                seat=_field("the shooter's seat, optional (Straight, Scarney 3000)"),
            ),
        ),
        EventType(STOOD, data=_record(seat=_field("the shooter's seat, optional"))),
        EventType(DOUBLE_DOWN, data=_record(seat=_field("the shooter's seat, optional"))),
        EventType("seating.thrown", data=_record(faces=_FACES)),
        EventType("round.anted"),
        EventType("player.left", data=_record(seat=_SEAT)),
        EventType("player.joined", data=_record(seat=_SEAT)),
        EventType("session.ended"),
        EventType("dice.kept", data=_record(faces=_field("faces kept, 1-6", _list(32)))),
        EventType(
            "dice.grouped",
            data=_record(
                groups=_field(
                    "two {category, dice}",
                    _list(8, _record(category=_field("category", _value(32)), dice=_FACES)),
                )
            ),
        ),
        # Score sheets (game.scored): one name, every format's fields.
        EventType(
            GAME_SCORED,
            data=_record(
                scores=_SCORES,
                cumulative=_field("running totals: per seat, or rows of them", _GRID),
                frames=_field("Straight: each seat's frame scores", _GRID),
                big_scarney=_field("Straight: the seat whose Big Scarney ended the game"),
                double_downs=_field("Straight: each seat's double-downs", _list(64)),
                turns=_field("Scarney 3000: rounds of one figure (or null) per seat", _GRID),
                rolls=_field('Hearts Due: rounds of one roll ("reset", null) per seat', _GRID),
                boxes=_field("Double Cameroon: per seat, {category: points}", _list(64, _list(32))),
                playoffs=_field("Boston: each play-off's scores of the tied seats", _GRID),
            ),
        ),
        # The tarot games: recording mode (Tontine, Last Laugh, Courtship) and Manchester.
        EventType(
            "cards.dealt",
            data=_record(
                hands=_field(
                    "per seat a hand of cards (Piccadilly part two: two)",
                    _list(16, _list(100, _list(100))),
                ),
                talon=_field("cards", _CARDS),
                pack=_field("Manchester: the 78 cards, top first", _CARDS),
                dummy=_field("Truffle: the dummy's cards", _CARDS),
            ),
        ),
        EventType(
            "cards.discarded",
            data=_record(
                seat=_SEAT,
                cards=_field("cards", _CARDS),
                shown=_field("Manchester: trumps discarded, shown", _CARDS),
            ),
        ),
        EventType(
            "card.played",
            data=_record(
                seat=_SEAT,
                card=_CARD,
                affair=_field("Courtship: true for a Royal Affair"),
                hand=_field("Manchester: the hand playing (dealer_dummy ...)", _value(32)),
            ),
        ),
        EventType(
            "trick.won",
            data=_record(
                winner=_field("seat (Manchester: the hand, e.g. dealer_dummy)", _value(32))
            ),
        ),
        EventType("hand.ended"),
        EventType("card.claimed", data=_record(seat=_SEAT, card=_CARD)),
        EventType("servant.summoned", data=_record(card=_CARD, from_seat=_SEAT)),
        EventType("servant.refused", data=_record(holder=_SEAT, card=_CARD)),
        EventType(
            "butt.discarded",
            data=_record(
                card=_CARD, shown=_field("true or false"), knocked=_field("true or false")
            ),
        ),
        EventType("fool.set_aside", data=_record(hand_shown=_field("true"))),
        EventType("fool.exchanged", data=_record(card=_CARD)),
        EventType("value.announced", data=_record(seat=_SEAT, value=_field("whole number"))),
        EventType("dummy.chosen", data=_record(seat=_SEAT, dummy=_field("0 or 1"))),
        EventType("fool.paid", data=_record(card=_CARD)),
        EventType("match.ended"),
        # Tournaments: a director's corrections (the service writes the rest; API.md).
        EventType("player.withdrew", data=_record(player=_PLAYER, reason=_REASON)),
        EventType(
            "bye.requested",
            data=_record(
                player=_PLAYER, round=_ROUND, points=_field("0, 0.5 or 1"), reason=_REASON
            ),
        ),
        EventType(
            "result.adjusted",
            data=_record(
                round=_ROUND,
                table=_TABLE,
                points=_field("match points per seat, 0 to 1", _list(64)),
                reason=_REASON,
            ),
        ),
        EventType(
            "result.forfeited",
            data=_record(round=_ROUND, table=_TABLE, player=_PLAYER, reason=_REASON),
        ),
        EventType("game.voided", data=_record(round=_ROUND, table=_TABLE, reason=_REASON)),
        EventType("round.closed", data=_record(round=_ROUND, reason=_REASON)),
        EventType(
            "round.laid_out",
            data=_record(
                round=_ROUND,
                layouts=_field(
                    "one position per game of the round's matches: {circle: pawn}",
                    _list(16, Size(16, 16, Size(16))),
                ),
            ),
        ),
    ]
}


def current_version(type_name: str) -> int:
    event_type = EVENT_TYPES.get(type_name)
    return event_type.version if event_type else 1


def normalise(type_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The data as stored in the current schema version (circle names become numbers)."""
    return upcast(type_name, data, 1)


def upcast(type_name: str, data: dict[str, Any], schema_version: int) -> dict[str, Any]:
    event_type = EVENT_TYPES.get(type_name)
    if event_type is None:
        return data
    return event_type.upcast(data, schema_version)


# --- what the store takes of a client's event ----------------------------------------------------


def check_data(type_name: str, data: dict[str, Any]) -> None:
    """Refuse a field ``type_name`` does not take, or a value larger than its field takes.

    ``data`` is in its canonical form (``games.store.canonical``). A type no game takes is the rule
    engine's to refuse (``event.unknown_type``); only its size is bounded here.
    """
    event_type = EVENT_TYPES.get(type_name)
    _fit(data, _UNDECLARED if event_type is None else event_type.data, type_name, "")


_UNDECLARED = _list(64, _list(64, _list(64)))


# The largest number a client's event may carry, either sign: ample for any score or count of
# these games, so that a lenient sheet (whose figures the rules do not bound) cannot carry 10^30.
LARGEST_NUMBER = 1_000_000_000


def _fit(value: Any, size: Size, type_name: str, path: str) -> None:
    kind = type(value)
    if kind is int or kind is float:
        if not -LARGEST_NUMBER <= value <= LARGEST_NUMBER:
            most = f"numbers from -{LARGEST_NUMBER:,} to {LARGEST_NUMBER:,}"
            raise _too_large(type_name, path, most)
    elif kind is str:
        if len(value) > size.chars:
            raise _too_large(type_name, path, f"text of at most {size.chars} characters")
    elif kind is dict:
        if size.fields is not None:
            fields = size.fields
            unknown = [key for key in value if key not in fields]
            if unknown:
                raise _unknown(type_name, path, sorted(fields), unknown)
            for key, item in value.items():
                _fit(item, fields[key].size, type_name, f"{path}.{key}" if path else key)
            return
        member = _members(value, size, type_name, path)
        for key, item in value.items():
            if len(key) > member.chars:
                raise _too_large(type_name, path, f"keys of at most {member.chars} characters")
            _fit(item, member, type_name, f"{path}.{key}")
    elif kind is list:
        member = _members(value, size, type_name, path)
        for index, item in enumerate(value):
            _fit(item, member, type_name, f"{path}[{index}]")


def _members(value: dict[str, Any] | list[Any], size: Size, type_name: str, path: str) -> Size:
    if len(value) > size.items:
        most = f"at most {size.items} items" if size.items else "a single value"
        raise _too_large(type_name, path, most)
    return size.of or Size(size.chars)


def _unknown(type_name: str, path: str, known: list[str], unknown: list[str]) -> IllegalEvent:
    where = f"{path!r} of {type_name}" if path else type_name
    return IllegalEvent(
        "event.unknown_field",
        f"{where} takes {', '.join(known) or 'no field'}; "
        f"{', '.join(repr(u) for u in unknown)} is unknown.",
        fields=unknown,
        known=known,
    )


def _too_large(type_name: str, path: str, most: str) -> IllegalEvent:
    where = f"{path!r} of {type_name}" if path else f"The data of {type_name}"
    return IllegalEvent(
        "event.too_large", f"{where} is too large: it takes {most}.", field=path or None
    )


# The client's meta: each key's longest text. ``client_time`` may be a number (epoch seconds).
META_FIELDS: Mapping[str, int] = {"client_time": 64, "device": 100, "note": 500}


def check_meta(meta: Any) -> dict[str, Any]:
    """The client's meta (canonical) with its known keys only, or IllegalEvent ``meta.*``.

    A key given null is left out, as if not given.
    """
    if not isinstance(meta, dict):
        raise IllegalEvent("meta.bad_value", "meta must be an object.")
    unknown = sorted(key for key in meta if key not in META_FIELDS)
    if unknown:
        raise IllegalEvent(
            "meta.unknown_field",
            f"meta takes {', '.join(META_FIELDS)}; {', '.join(repr(u) for u in unknown)} "
            "is unknown.",
            fields=unknown,
        )
    for key, value in meta.items():
        if value is None or (key == "client_time" and type(value) in (int, float)):
            continue
        if type(value) is not str or len(value) > META_FIELDS[key]:
            where = "the X-Device header or meta's" if key == "device" else "meta's"
            raise IllegalEvent(
                "meta.bad_value",
                f"{where} {key!r} is text of at most {META_FIELDS[key]} characters"
                + (" (or a number)." if key == "client_time" else "."),
                field=key,
            )
    return {key: value for key, value in meta.items() if value is not None}
