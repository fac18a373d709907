"""The demo club that ``make run`` loads: players, a finished Solitaire match recorded move by
move, the rule book's four end games as study positions, a game in progress, the sample sheets
of the rule books and live tables of the other games (games.demo.sample_tables)."""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.demo import evening, sample_tables
from games.play import register, services
from games.rules.scarney_board.solve.solitaire import best_line
from games.store import folding
from games.store.models import Game, Stream

DEMO_USER = "demo"
DEMO_PASSWORD = "scarney-demo"
PLAYERS = ["Ann", "Bob", "Cleo", "Dan"]
PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]

# RULES.md Appendix A.3: the four end games of the rule book.
END_GAMES = {
    "Six-pawn end game": {
        "C2": "Y4",
        "C5": "Y3",
        "C10": "B2",
        "C11": "G3",
        "C14": "B1",
        "C15": "R4",
    },
    "Seven-pawn end game": {
        "C1": "G3",
        "C3": "R1",
        "C6": "Y4",
        "C8": "B3",
        "C9": "R4",
        "C10": "B4",
        "C12": "G4",
    },
    "Eight-pawn end game": {
        "C2": "G3",
        "C3": "Y1",
        "C6": "B4",
        "C7": "G4",
        "C11": "R4",
        "C12": "Y2",
        "C15": "B2",
        "C16": "R1",
    },
    "Twelve-pawn end game": {
        "C1": "G4",
        "C3": "G2",
        "C4": "R3",
        "C5": "B1",
        "C7": "R4",
        "C8": "G3",
        "C11": "R2",
        "C12": "Y3",
        "C13": "Y2",
        "C14": "B4",
        "C15": "Y4",
        "C16": "G1",
    },
}


def is_loaded() -> bool:
    return get_user_model().objects.filter(username=DEMO_USER).exists()


@transaction.atomic
def load() -> dict[str, Any]:
    """Create the demo club; returns what was made (ids) for the command to print."""
    user = get_user_model().objects.create_superuser(DEMO_USER, "", DEMO_PASSWORD)
    for name in PLAYERS:
        register.player_named(name)
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Ann"}], user=user)
    rng = random.Random(1933)
    for _ in range(5):
        game = services.game_start(
            kind="scarney-solitaire", seats=None, match_id=match.pk, user=user
        )
        play_well(game, rng, user)
    studies = [
        services.game_start(
            kind="scarney-solitaire", seats=[{"name": "Cleo"}], setup={"position": p}, user=user
        )
        for p in END_GAMES.values()
    ]
    live = services.game_start(kind="scarney-solitaire", seats=[{"name": "Bob"}], user=user)
    play(live, rng, user, moves=3)
    last_week = evening.load_last_week(user, list(PLAYERS))
    tonight = evening.load(user, list(PLAYERS))
    return {
        "match": match.pk,
        "studies": [g.pk for g in studies],
        "in_progress": live.pk,
        "sheets": sample_tables.load_sheets(user),
        "tables": sample_tables.load_live_tables(user, rng),
        "tournament": tonight.pk,
        "last_week": last_week.pk,
        "season": evening.load_season(user, [last_week, tonight]).pk,
    }


def play_well(game: Game, rng: random.Random, user: Any) -> None:
    """Lay out a shuffled board and play the solver's best line, as a strong player would."""
    _lay_out(game, rng, user)
    folded = folding.load(Stream.objects.get(pk=game.pk))
    for move in best_line(folded.state).line:
        _record(game, user, move.type, dict(move.data))


def _lay_out(game: Game, rng: random.Random, user: Any) -> None:
    layout = PAWNS[:]
    rng.shuffle(layout)
    position = {f"C{i + 1}": pawn for i, pawn in enumerate(layout)}
    _record(game, user, "board.laid_out", {"position": position})


def play(game: Game, rng: random.Random, user: Any, moves: int | None) -> None:
    """Lay out a shuffled board and make up to ``moves`` random legal moves (None: to the end)."""
    _lay_out(game, rng, user)
    made = 0
    while moves is None or made < moves:
        stream = Stream.objects.get(pk=game.pk)
        folded = folding.load(stream)
        legal = folded.game_rules.legal_events(folded.state)
        if not legal:
            return
        move = rng.choice(legal)
        _record(game, user, move.type, dict(move.data))
        made += 1


def _record(game: Game, user: Any, type: str, data: dict[str, Any]) -> None:
    services.event_record(stream_id=game.pk, event_id=uuid.uuid4(), type=type, data=data, user=user)
