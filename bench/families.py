"""One game of each family for the benches: its seats, a long-game ruleset, and legal moves.

The moves come from the pure rules (no database): ``moves(kind, n, seed)`` plays a game in memory
and gives its first ``n`` events after ``game.started`` (a finished game is followed by nothing:
board and card games are bounded, a Solitaire game by its 16 pawns, a Manchester hand by its
cards). Dice games get a target high enough for 1,000 events and more.

``python bench/families.py`` prints, per family, the size of a move's answer (the game's JSON)
and of the pickled snapshot after 10 and after 1,000 events: both must not grow with the game.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import json  # noqa: E402
import pickle  # noqa: E402
import random  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

# kind, seats, ruleset: one game of each family (the list).
FAMILIES: list[tuple[str, int, dict[str, Any]]] = [
    ("scarney-solitaire", 1, {}),
    ("high-low-scarney", 2, {}),
    ("straight-scarney-dice", 4, {}),
    ("scarney-3000", 4, {"s3000_target": 10_000_000}),
    ("scarney-put-and-take", 4, {}),
    ("hearts-due", 3, {"hearts_due_target": 10_000_000}),
    ("manchester-piccadilly", 2, {}),
]


def header(kind: str, seats: int, ruleset: dict[str, Any]) -> dict[str, Any]:
    from games.rules import registry
    from games.rules.base import make_ruleset, ruleset_as_dict

    rules = registry.get(kind)
    return {
        "kind": kind,
        "seats": [{"seat": i, "player": None, "name": f"seat {i}"} for i in range(seats)],
        "ruleset": ruleset_as_dict(make_ruleset(rules.ruleset_type, ruleset)),
        "setup": {},
        "match": None,
        "number": None,
    }


def play(kind: str, seats: int, ruleset: dict[str, Any], seed: int) -> Iterator[tuple[Any, Any]]:
    """``(move, folded after it)`` of one game of random legal play, in memory."""
    from games.demo import sample_tables
    from games.rules.base import Move
    from games.rules.tarot import cards
    from games.store import folding

    rng = random.Random(seed)
    head = header(kind, seats, ruleset)
    folded = folding.Folded("game", head, folding.game_start(head), 1)
    rules = folded.game_rules
    while not rules.is_terminal(folded.state):
        move = sample_tables.next_move(folded, rng)
        if move is None and kind.startswith("manchester"):
            move = _manchester_deal(folded.state, rng, cards.PACK)
        if move is None:
            return
        state = rules.apply(folded.state, Move(*move))
        folded = folding.Folded("game", head, state, folded.version + 1)
        yield move, folded


def _manchester_deal(state: Any, rng: random.Random, pack: tuple[str, ...]) -> tuple[str, Any]:
    if state.stock:  # part two dealt as hands from the set-aside cards
        stock = list(state.stock)
        rng.shuffle(stock)
        hands = [[stock[0:13], stock[13:26]], [stock[26:39], stock[39:52]]]
        return "cards.dealt", {"hands": hands}
    order = list(pack)
    rng.shuffle(order)
    return "cards.dealt", {"pack": order}


def moves(kind: str, seats: int, ruleset: dict[str, Any], n: int, seed: int) -> list[Any]:
    """Up to ``n`` legal ``(type, data)`` events of one game after its start."""
    out = []
    for move, _ in play(kind, seats, ruleset, seed):
        out.append(move)
        if len(out) == n:
            break
    return out


def sizes(kind: str, seats: int, ruleset: dict[str, Any], marks: tuple[int, ...]) -> list[Any]:
    """``[events, answer bytes, snapshot bytes]`` at each mark the game reaches."""
    import uuid

    from games.play.representation import game_json
    from games.store import folding

    rows = []
    for count, (_, folded) in enumerate(play(kind, seats, ruleset, seed=7), start=1):
        if count in marks:
            answer = json.dumps(game_json(folded, stream_id=uuid.UUID(int=0), status="x"))
            snapshot = folding.pack(folded, uuid.UUID(int=0))
            rows.append([count, len(answer), len(snapshot), len(pickle.dumps(folded.state))])
        if count >= max(marks):
            break
    return rows


def main() -> None:
    from bench import _common

    _common.bench_env()
    import django

    django.setup()
    table = []
    for kind, seats, ruleset in FAMILIES:
        for count, answer, snapshot, state in sizes(kind, seats, ruleset, (10, 100, 1000)):
            table.append([kind, count, answer, snapshot, state])
    print(
        _common.table(
            ["kind", "events", "answer bytes", "snapshot bytes", "state pickle"],
            table,
            title="a move's answer and the snapshot, by the game's length",
        )
    )


if __name__ == "__main__":
    main()
