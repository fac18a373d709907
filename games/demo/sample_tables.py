"""The demo club's other tables: the rule books' sample sheets, and live games of each family.

Random play here stands in for a real table: board and card games pick among their legal
events, dice games throw random faces for the dice the rules put in the cup, and sometimes
stand when the shooter may.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from games.play import services
from games.rules.base import ThrowsDice
from games.store import folding
from games.store.models import Stream

# RULES.md Appendix B.1 and B.3: game scores as the books print them.
SINGLES_SHEET = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]
HIGH_LOW_SHEET = [[0, 21], [22, 0], [0, 44], [0, 26], [0, 23]]


def load_sheets(user: Any) -> list[uuid.UUID]:
    """Singles B.1 (lenient: its impossible 38 is kept with a warning) and High-Low B.3."""
    singles = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in ("Ann", "Bob", "Cleo")],
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
        user=user,
    )
    high_low = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Dan"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    for match, sheet in ((singles, SINGLES_SHEET), (high_low, HIGH_LOW_SHEET)):
        for scores in sheet:
            record(match.pk, user, "game.scored", {"scores": scores})
    return [singles.pk, high_low.pk]


def load_live_tables(user: Any, rng: random.Random) -> list[uuid.UUID]:
    """A live High-Low match one game in, and a game in progress of several families."""
    match = services.match_start(
        format="high-low-scarney", players=[{"name": "Ann"}, {"name": "Dan"}], user=user
    )
    first = services.game_start(kind="high-low-scarney", seats=None, match_id=match.pk, user=user)
    play(first.pk, user, rng, moves=None)
    second = services.game_start(kind="high-low-scarney", seats=None, match_id=match.pk, user=user)
    play(second.pk, user, rng, moves=20)
    tables = [match.pk]
    for kind, names, moves in (
        ("scarney-doubles", ["Bob", "Cleo"], 24),
        ("straight-scarney-dice", ["Ann", "Bob", "Cleo", "Dan"], 12),
        ("scarney-3000", ["Cleo", "Dan", "Ann"], 10),
        ("scarney-put-and-take", ["Ann", "Bob", "Cleo"], 12),
        ("double-cameroon", ["Dan", "Ann"], 4),
        ("hearts-due", ["Bob", "Cleo", "Dan"], None),
    ):
        game = services.game_start(kind=kind, seats=[{"name": n} for n in names], user=user)
        play(game.pk, user, rng, moves=moves)
        tables.append(game.pk)
    return tables


def play(game_id: uuid.UUID, user: Any, rng: random.Random, moves: int | None) -> None:
    """Up to ``moves`` moves of random legal play (None: to the end)."""
    made = 0
    while moves is None or made < moves:
        folded = folding.load(Stream.objects.get(pk=game_id))
        move = next_move(folded, rng)
        if move is None:
            return
        record(game_id, user, *move)
        made += 1


def next_move(folded: folding.Folded, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    rules = folded.game_rules
    if rules.is_terminal(folded.state):
        return None
    legal = rules.legal_events(folded.state)
    if legal:
        move = rng.choice(legal)
        return move.type, dict(move.data)
    expected = rules.expected(folded.state)
    dice = rules.view(folded.state).get("dice") or {}
    if "shooter.stood" in expected and dice.get("may_stand") and rng.random() < 0.4:
        return "shooter.stood", {}
    if "round.anted" in expected:
        return "round.anted", {}
    if "board.laid_out" in expected:
        pawns = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
        rng.shuffle(pawns)
        return "board.laid_out", {"position": {f"C{i + 1}": p for i, p in enumerate(pawns)}}
    if "dice.thrown" in expected and dice.get("in_cup"):
        rules = folded.game_rules
        assert isinstance(rules, ThrowsDice), f"{rules.kind} shows dice but declares none"
        faces = rules.dice_faces
        return "dice.thrown", {"faces": [rng.choice(faces) for _ in range(dice["in_cup"])]}
    return None


def record(stream_id: uuid.UUID, user: Any, type: str, data: dict[str, Any]) -> None:
    services.event_record(
        stream_id=stream_id, event_id=uuid.uuid4(), type=type, data=data, user=user
    )
