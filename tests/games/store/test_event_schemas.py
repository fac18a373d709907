"""Every event type any game or match format accepts declares its data (beside its rules;
merged per type by games/store/event_types.py).

The declarations are checked against the rule engines themselves: every type an engine takes is
declared, every declared type is taken by one (or written by the service), every field the
engines read from an event's data is declared, and every legal move of every game fits its
type's declaration. The service refuses an unknown field and a value too large for its field.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, make_ruleset
from games.rules.errors import IllegalEvent, RuleError
from games.rules.events import SERVICE_ONLY
from games.store import event_types
from games.tournaments.core import events as tournament_events
from games.tournaments.core.season import events as season_events

RULES_DIR = Path(__file__).resolve().parents[3] / "games" / "rules"
TYPE_NAME = re.compile(r"^[a-z_]+\.[a-z_]+$")
REQUIRED_RULESET = {
    "tontine": {"base_game": "scarto"},
    "last-laugh": {"base_game": "scarto"},
    "courtship-rules": {"base_game": "scarto"},
}


def rule_modules() -> list[Any]:
    import games.rules

    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(games.rules.__path__, "games.rules.")
    ]


def candidate_types() -> set[str]:
    """Every event-type-like name the rule modules hold: constants, type sets, handler tables."""
    names: set[str] = set(event_types.EVENT_TYPES)
    for module in rule_modules():
        for value in vars(module).values():
            members = value if isinstance(value, frozenset | set | tuple | dict) else [value]
            names.update(m for m in members if isinstance(m, str) and TYPE_NAME.match(m))
    return names


def initial_game_state(kind: str) -> tuple[Any, Any]:
    rules = registry.get(kind)
    ruleset = make_ruleset(rules.ruleset_type, REQUIRED_RULESET.get(kind, {}))
    return rules, rules.initial_state({}, ruleset, rules.min_seats)


def initial_match_state(format: str) -> tuple[Any, Any]:
    rules = registry.match_rules(format)
    ruleset = make_ruleset(rules.ruleset_type, REQUIRED_RULESET.get(format, {}))
    return rules, rules.initial_state(ruleset, rules.min_seats, None)


def accepted(rules: Any, state: Any, types: set[str]) -> set[str]:
    """The types ``rules`` knows: any answer but ``event.unknown_type`` to an empty event."""
    known = set()
    for type in types:
        try:
            rules.apply(state, Move(type, {}))
        except RuleError as refusal:
            if refusal.code == "event.unknown_type":
                continue
        known.add(type)
    return known


def taken_types() -> dict[str, set[str]]:
    types = candidate_types()
    taken = {f"game {k}": accepted(*initial_game_state(k), types) for k in registry.kinds()}
    for format in registry.formats():
        taken[f"match {format}"] = accepted(*initial_match_state(format), types)
    return taken


def test_the_probe_tells_a_known_type_from_an_unknown_one() -> None:
    rules, state = initial_game_state("scarney-solitaire")
    assert accepted(rules, state, {"pawn.jumped", "dice.thrown", "no.such"}) == {"pawn.jumped"}


def test_every_type_a_game_or_match_format_takes_declares_its_data() -> None:
    undeclared = {
        f"{kind}: {type}"
        for kind, types in taken_types().items()
        for type in types
        if type not in event_types.EVENT_TYPES
    }
    assert not undeclared, "Declare these in games/event_types.py:\n" + "\n".join(
        sorted(undeclared)
    )


def test_every_declared_type_is_taken_by_a_game_or_written_by_the_service() -> None:
    taken = set().union(*taken_types().values())
    # A tournament's events are folded by games.tournaments.core.fold, not by a game's rules; a
    # season's by games.tournaments.core.season.state; the register's by the store.
    taken |= set(tournament_events.EVENT_SHAPES) | set(season_events.EVENT_SHAPES)
    taken |= {"player.registered", "player.merged"}
    # A table's result.confirmed is taken by every match (the store's match engine), for its
    # tournament to count.
    stale = (
        set(event_types.EVENT_TYPES) - taken - SERVICE_ONLY - {"move.undone", "result.confirmed"}
    )
    assert not stale, f"declared but taken by no game or format: {sorted(stale)}"


def declared_fields(shape: Any) -> set[str]:
    """Every field name a shape declares, at any depth."""
    names = set(getattr(shape, "fields", None) or ())
    for field in (getattr(shape, "fields", None) or {}).values():
        names |= declared_fields(field)
    for inner in [getattr(shape, "of", None), *getattr(shape, "shapes", ())]:
        if inner is not None:
            names |= declared_fields(inner)
    return names


def fields_the_engines_read() -> dict[str, set[str]]:
    """Field names read from an event's data in games/rules: ``data.get("x")``, ``data["x"]``,
    ``"x" in data`` and helpers given the data and then the field (``read_seat(data, "x")``)."""

    def is_data(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "data") or (
            isinstance(node, ast.Attribute) and node.attr == "data"
        )

    def text(node: ast.AST) -> str | None:
        return (
            node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
        )

    read: dict[str, set[str]] = {}
    for path in sorted(RULES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str | None] = []
            if isinstance(node, ast.Call):
                target = node.func
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == "get"
                    and is_data(target.value)
                ):
                    names.append(text(node.args[0]) if node.args else None)
                names += [
                    text(b) for a, b in zip(node.args, node.args[1:], strict=False) if is_data(a)
                ]
            elif isinstance(node, ast.Subscript) and is_data(node.value):
                names.append(text(node.slice))
            elif isinstance(node, ast.Compare) and is_data(node.comparators[-1]):
                if isinstance(node.ops[0], ast.In | ast.NotIn):
                    names.append(text(node.left))
            for name in names:
                if name is not None:
                    read.setdefault(name, set()).add(str(path.relative_to(RULES_DIR)))
    return read


def test_every_field_the_engines_read_is_declared() -> None:
    read = fields_the_engines_read()
    assert {"circle", "faces", "positions", "card", "turns"} <= set(read), "the scan is broken"
    declared = set().union(
        *(declared_fields(event_types.declared(t)) for t in event_types.EVENT_TYPES)
    )
    missing = {name: where for name, where in read.items() if name not in declared}
    assert not missing, f"read by the engines, declared nowhere: {missing}"


@pytest.mark.parametrize("kind", registry.kinds())
def test_the_legal_moves_of_every_game_fit_their_declarations(kind: str) -> None:
    rng = random.Random(kind)
    for _ in range(5):
        rules, state = initial_game_state(kind)
        for _ in range(300):
            legal = rules.legal_events(state)
            if not legal:
                break
            for move in legal:
                event_types.check_data(move.type, dict(move.data))
            state = rules.apply(state, rng.choice(legal))


def test_pawns_removed_takes_the_fields_of_high_low_and_of_scarnie() -> None:
    event_types.check_data("pawns.removed", {"circles": ["C5", 6]})
    event_types.check_data("pawns.removed", {"station": 2, "positions": [1, "S2P5"]})


@pytest.mark.parametrize(
    ("type", "data", "field"),
    [
        ("pawn.taken_off", {"circle": 5, "pawn": "B1"}, "pawn"),
        ("dice.thrown", {"faces": ["1"], "dice": ["1"]}, "dice"),
        ("game.scarney_called", {"note": "!"}, "note"),
        ("no.such_type_here", {}, None),
    ],
)
def test_a_field_no_game_reads_is_refused(type: str, data: dict[str, Any], field: Any) -> None:
    if field is None:
        event_types.check_data(type, data)  # a type no game takes: the rule engine refuses it
        return
    with pytest.raises(IllegalEvent) as refused:
        event_types.check_data(type, data)
    assert refused.value.code == "event.unknown_field"
    assert refused.value.data["fields"] == [field] and field in refused.value.message


def test_a_nested_record_takes_its_fields_only() -> None:
    event_types.check_data("order.drawn", {"draws": [{"seat": 0, "pawn": "R4"}]})
    with pytest.raises(IllegalEvent) as refused:
        event_types.check_data("order.drawn", {"draws": [{"seat": 0, "pawn": "R4", "why": "x"}]})
    assert refused.value.code == "event.unknown_field" and "draws[0]" in refused.value.message


@pytest.mark.parametrize(
    "data",
    [
        ("move.undone", {"reason": "x" * 501}),
        ("dice.thrown", {"faces": ["1"] * 33}),
        ("pawn.taken_off", {"circle": 10**10}),
    ],
)
def test_a_value_larger_than_its_field_takes_is_refused(data: tuple[str, dict[str, Any]]) -> None:
    with pytest.raises(IllegalEvent) as refused:
        event_types.check_data(*data)
    assert refused.value.code == "event.too_large"


@pytest.mark.parametrize(
    ("type", "data"),
    [
        # A value of the right type but out of range reaches the rules (their own codes).
        ("pawn.taken_off", {"circle": 17}),
        ("pawn.jumped", {"from": 0, "to": "C99"}),
        ("dice.thrown", {"faces": ["7", "1"], "opposite": False}),
        ("cards.dealt", {"hands": [["Kh"] * 13] * 2}),
    ],
)
def test_a_right_type_out_of_range_is_left_to_the_rules(type: str, data: dict[str, Any]) -> None:
    event_types.check_data(type, data)


@pytest.mark.parametrize(
    ("type", "data", "field"),
    [
        # A value of the wrong type no game could read: refused by the store, naming the field.
        ("pawn.taken_off", {"circle": [5]}, "circle"),
        ("pawn.jumped", {"from": {"x": 1}, "to": "C9"}, "from"),
        ("dice.thrown", {"faces": ["1"], "opposite": "yes"}, "opposite"),
        ("move.undone", {"reason": ["x"]}, "reason"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(type: str, data: dict[str, Any], field: str) -> None:
    with pytest.raises(IllegalEvent) as refused:
        event_types.check_data(type, data)
    assert refused.value.code == "event.bad_data"
    assert refused.value.data["field"] == field


@pytest.mark.parametrize(
    ("meta", "code"),
    [
        ({"device": "x" * 101}, "meta.bad_value"),
        ({"note": "x" * 900_000}, "meta.bad_value"),
        ({"client_time": ["2026"]}, "meta.bad_value"),
        ({"recorded_by": 1}, "meta.unknown_field"),
        ({"colour": "blue"}, "meta.unknown_field"),
        ([], "meta.bad_value"),
    ],
)
def test_meta_takes_its_known_keys_with_bounded_lengths(meta: Any, code: str) -> None:
    with pytest.raises(IllegalEvent) as refused:
        event_types.check_meta(meta)
    assert refused.value.code == code


def test_meta_keeps_what_it_takes_and_leaves_out_nulls() -> None:
    meta = {"client_time": 1767225600.5, "device": "tablet 3", "note": "n" * 500, "x": None}
    with pytest.raises(IllegalEvent):
        event_types.check_meta(meta)
    del meta["x"]
    assert event_types.check_meta({**meta, "device": None}) == {
        "client_time": 1767225600.5,
        "note": "n" * 500,
    }
