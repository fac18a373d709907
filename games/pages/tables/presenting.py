"""What a game page shows, read off the game's JSON (games.play.representation.game_json).

The page renders the same folded state the API answers with; this module only arranges it for
the templates (the board as rows of circles, the dice to enter, the throws itemised, a sentence
saying whose turn it is). No rule is decided here: what may be recorded next comes from the
game's ``expected`` and ``legal_events``, and the service judges every move.
"""

from __future__ import annotations

import json
from typing import Any

from games.pages.tables import board_table, card_table, dice_table, scarnie_table
from scoring.documents import labels

# Events with no data that a button records as they are, labelled as the table says them.
PLAIN_ACTIONS = {
    "shooter.stood": "Stand",
    "double_down.called": "Double down",
    "game.scarney_called": "Scarney!",
    "round.anted": "Ante the round",
    "session.ended": "End the session",
    "hand.ended": "End the hand",
}

WHAT_NEXT = {
    "board.laid_out": "lay out the board",
    "deal.faced_up": "face up the deal",
    "colours.chosen": "choose two colours",
    "pawn.placed": "place a pawn",
    "pawn.taken_off": "take off a low pawn",
    "pawn.jumped": "jump",
    "pawns.removed": "remove pawns",
    "dice.thrown": "throw",
    "dice.kept": "keep dice or group them",
    "dice.grouped": "group the dice",
    "cards.dealt": "deal",
    "value.announced": "announce the start value",
    "cards.discarded": "discard",
    "dummy.chosen": "choose a dummy",
    "card.played": "play a card",
    "trick.won": "record who won the trick",
    "fool.paid": "pay a card for the Fool",
}
# A move waiting to be sent is listed in these words (table.js adds a jump's circles, a throw's
# faces and the like from the move's data).
MOVE_WORDS = {
    **{type: what[0].upper() + what[1:] for type, what in WHAT_NEXT.items()},
    **PLAIN_ACTIONS,
    "move.undone": "Undo the last move",
}
# A move taken back, as the status confirms it ("Undone: Ann's throw of 4 5 6."): the moves a
# player makes himself are his; the others (a deal, a trick's winner) are the table's.
OWN_MOVES = {
    "pawn.jumped": "jump from C{from} to C{to}",
    "pawn.placed": "placing of {pawn} on C{circle}",
    "pawn.taken_off": "take-off from C{circle}",
    "colours.chosen": "choice of colours",
    "dice.thrown": "throw of {faces}",
    "dice.kept": "keeping of {faces}",
    "dice.grouped": "grouping of the dice",
    "cards.discarded": "discard of {cards}",
    "card.played": "play of {card}",
    "shooter.stood": "stand",
    "double_down.called": "double down",
    "game.scarney_called": "Scarney call",
}
TABLE_MOVES = {
    "board.laid_out": "layout of the board",
    "deal.faced_up": "deal",
    "cards.dealt": "deal",
    "value.announced": "announcement",
    "trick.won": "trick's winner",
    "fool.paid": "card paid for the Fool",
    "dummy.chosen": "choice of dummy",
    "round.anted": "antes of the round",
    "session.ended": "end of the session",
    "hand.ended": "end of the hand",
}
# Legal events are listed as buttons when there are this few; more are entered on the board.
LEGAL_LIST_LIMIT = 40


def page(game: dict[str, Any]) -> dict[str, Any]:
    """The template context of a game page, from the game's JSON."""
    names = {seat["seat"]: seat["name"] for seat in game["seats"]}
    drawn_as = family(game)
    legal = game.get("legal_events")
    if legal is not None and drawn_as == "cards":
        # Plays, discards and trick winners have their own controls on a card page.
        legal = [m for m in legal if m["type"] not in card_table.CARD_CONTROLS]
        legal = [m for m in legal if m["type"] not in PLAIN_ACTIONS]
    if legal is not None and drawn_as == "dice":
        # Double Cameroon's groupings are entered by tapping the dice (dice.choosing).
        legal = [m for m in legal if m["type"] != "dice.grouped"]
    drawn = board_table.board(game) if "board" in game else None
    stations = scarnie_table.table(game, names) if drawn_as == "scarnie" else None
    return {
        "game": game,
        "kind_label": labels.format_name(game["kind"]),
        "names": names,
        "family": drawn_as,
        "finished": game["status"] != "in_progress",
        "turn_sentence": turn_sentence(game, names),
        "scores": scores(game, names),
        "playoffs": playoff_numbers(game),
        # A play-off's columns take the place of a bonuses column no row uses (a phone's width).
        "bonus_column": not playoff_numbers(game)
        or any(row.get("bonuses") for row in game["scores"]),
        "actions": [
            {"type": t, "label": PLAIN_ACTIONS[t], "move": move_json(t, {})}
            for t in game["expected"]
            if t in PLAIN_ACTIONS
        ],
        "legal": legal_list(game, legal, names),
        "legal_count": None if legal is None else len(legal),
        "legal_json": json.dumps(legal or []),
        "board": drawn,
        # Listed open where the board cannot take the move by taps (choosing colours, say).
        "legal_open": (drawn is None or drawn["mode"] == "none") and stations is None,
        "scarnie": stations,
        "dice": dice_table.dice(game, names) if drawn_as == "dice" else None,
        "cards": card_table.cards(game, names) if drawn_as == "cards" else None,
        "pot": pot(game, names),
        "move_words": MOVE_WORDS,
    }


def family(game: dict[str, Any]) -> str:
    """Which table the page draws: a board, dice, cards or Scarnie's stations; a game the pages
    cannot draw is an error, never a page without its table."""
    if "board" in game:
        return "board"
    if "dice" in game:
        return "dice"
    if "tricks" in game or "hand_sheet" in game:
        return "cards"
    if "stations" in game:
        return "scarnie"
    raise LookupError(f"The pages do not know how to draw a game of {game['kind']!r}.")


def move_json(type: str, data: dict[str, Any]) -> str:
    return json.dumps({"type": type, "data": data})


def turn_sentence(game: dict[str, Any], names: dict[int, str]) -> str:
    """Whose turn it is and what he does next, or how the game ended."""
    if game["status"] != "in_progress":
        return ended_sentence(game, names)
    expected = game["expected"]
    what = next((WHAT_NEXT[t] for t in expected if t in WHAT_NEXT), None)
    if what is None:
        what = " or ".join(PLAIN_ACTIONS.get(t, t).lower() for t in expected) or "wait"
    if what == "throw" and "dice" in game:
        count = game["dice"].get("in_cup") or 0
        what = f"throw {count} {'die' if count == 1 else 'dice'}"
    who = names.get(game["turn"]) if game["turn"] is not None else None
    return f"{who} to {what}." if who else f"Next: {what}."


def ended_sentence(game: dict[str, Any], names: dict[int, str]) -> str:
    result = game.get("result")
    if game["status"] == "abandoned" or result is None:
        return f"This game is {game['status'].replace('_', ' ')}."
    if len(game["seats"]) == 1:
        return solo_sentence(game, names)
    winners = " and ".join(names.get(seat, f"seat {seat}") for seat in result["winner"])
    sentence = "Game over." + (f" Won by {winners}." if winners else " Nobody wins this game.")
    if result.get("rating"):
        sentence += " " + labels.end_sentence(labels.rated(result["rating"]).capitalize())
    return sentence


def solo_sentence(game: dict[str, Any], names: dict[int, str]) -> str:
    """A one-player game has no winner: whose game it was, what it made and its rating band
    (RULES.md 2.6), "Zoe's game is over: 12 pawns off the board, 28 points — rated “Try
    again!”"."""
    seat = game["seats"][0]["seat"]
    facts = []
    if "removed" in game:
        off = len(game["removed"])
        facts.append(f"{off} pawn{'' if off == 1 else 's'} off the board")
    total = next((row.get("total") for row in game["scores"] if row["seat"] == seat), None)
    if total is not None:
        facts.append(f"{total} point{'' if total == 1 else 's'}")
    rating = (game.get("result") or {}).get("rating")
    return labels.solo_result(names.get(seat, "The player"), "game", facts, rating)


def undone_sentence(game: dict[str, Any], undone: tuple[str, dict[str, Any]] | None) -> str:
    """The status's confirmation of a take-back: "Undone: Ann's throw of 4 5 6.", or "Last move
    undone." when the move cannot be said. Whose move it was: the seat the data names, else the
    one on turn again now that it is taken back."""
    if undone is None:
        return "Last move undone."
    type, data = undone
    if type in OWN_MOVES or type == "pawns.removed":
        words = _move_words(type, data)
        names = {seat["seat"]: seat["name"] for seat in game["seats"]}
        seat = data.get("seat", game.get("turn"))
        who = names.get(seat) if isinstance(seat, int) else None
        return f"Undone: {who}'s {words}." if who else f"Undone: the {words}."
    if type in TABLE_MOVES:
        return f"Undone: the {TABLE_MOVES[type]}."
    return "Last move undone."


def _move_words(type: str, data: dict[str, Any]) -> str:
    if type == "pawns.removed" and "circles" in data:
        return "removal of " + ", ".join(f"C{c}" for c in data["circles"])
    if type == "pawns.removed":
        positions = ", ".join(map(str, data.get("positions", [])))
        return f"removal of positions {positions} of station {data.get('station')}"
    words = OWN_MOVES[type].format_map(_said(data))
    return f"{words} (Opposite)" if data.get("opposite") else words


def _said(data: dict[str, Any]) -> dict[str, Any]:
    """A move's data as its words quote it: faces and cards spaced, a missing key left blank."""
    said = {k: " ".join(map(str, v)) if isinstance(v, list) else v for k, v in data.items()}
    return {
        "from": "",
        "to": "",
        "pawn": "",
        "circle": "",
        "faces": "",
        "cards": "",
        "card": "",
        **said,
    }


def scores(game: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Each seat's points, its bonuses one by one, and its total; after a play-off, each seat's
    play-off totals ("–" where it did not throw) and the winner marked."""
    rows = []
    thrown_off = playoff_scores(game)
    stages = playoff_numbers(game)
    winners = set((game.get("result") or {}).get("winner") or []) if stages else set()
    for row in game["scores"]:
        bonuses = [
            {**bonus, "name": bonus["kind"].replace("_", " "), "pawns": bonus.get("pawns", [])}
            for bonus in row.get("bonuses", [])
        ]
        seat = row["seat"]
        rows.append(
            {
                **row,
                "name": names.get(seat, ""),
                "bonuses": bonuses,
                "playoffs": [thrown_off.get((n, seat)) for n in stages],
                "winner": seat in winners,
            }
        )
    return rows


def _turns(game: dict[str, Any]) -> list[dict[str, Any]]:
    turns = (game.get("dice") or {}).get("turns") or []
    return [t for t in turns if isinstance(t, dict) and t.get("playoff")]


def playoff_numbers(game: dict[str, Any]) -> list[int]:
    """The play-offs of a tie thrown so far (the round's own scores are the points column)."""
    return sorted({t["playoff"] for t in _turns(game)})


def playoff_scores(game: dict[str, Any]) -> dict[tuple[int, int], int]:
    """(play-off, seat): the turn's score, for each play-off turn finished."""
    return {(t["playoff"], t["seat"]): t["score"] for t in _turns(game)}


def pot(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    found = game.get("pot")
    if not found:
        return None
    nets = found.get("nets") or []
    return {
        "balance": found.get("balance"),
        "nets": [{"name": names.get(seat, ""), "net": net} for seat, net in enumerate(nets)],
    }


# --- legal events --------------------------------------------------------------------------------


def legal_list(
    game: dict[str, Any], legal: list[dict[str, Any]] | None, names: dict[int, str]
) -> list[dict[str, str]]:
    """The legal events as labelled buttons, when they are few enough to list."""
    if not legal or len(legal) > LEGAL_LIST_LIMIT:
        return []
    return [
        {"label": move_label(game, m, names), "move": move_json(m["type"], m["data"])}
        for m in legal
    ]


def move_label(game: dict[str, Any], move: dict[str, Any], names: dict[int, str]) -> str:
    """A legal event as its button says it, in the words of the game's family."""
    if family(game) == "cards":
        return card_table.move_label(game, move, names)
    if family(game) == "scarnie":
        return scarnie_table.move_label(move, game)
    return legal_label(move, game.get("board") or {})


def legal_label(move: dict[str, Any], board_now: dict[str, str | None]) -> str:
    data = move["data"]

    def at(circle: Any) -> str:
        pawn = board_now.get(f"C{circle}")
        return f"{pawn} on C{circle}" if pawn else f"C{circle}"

    match move["type"]:
        case "pawn.jumped":
            return f"Jump {at(data['from'])} to C{data['to']}"
        case "pawn.taken_off":
            return f"Take off {at(data['circle'])}"
        case "pawns.removed" if "circles" in data:
            return "Remove " + ", ".join(at(c) for c in data["circles"])
        case "colours.chosen":
            return "Choose " + " and ".join(
                board_table.COLOUR_NAMES.get(c, c) for c in data["colours"]
            )
        case "pawn.placed":
            return f"Place {data['pawn']} on C{data['circle']}"
    return str(PLAIN_ACTIONS.get(move["type"], move["type"]))


def advice(found: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The solver's answer for a person: the best total or the winner, and the line, numbered."""
    line = [legal_label(move, {}) for move in found.get("line") or []]
    if "value" in found:
        summary = f"Best total from here: {found['value']}"
        if found.get("from_start") is not None:
            summary += f" (best from the starting position: {found['from_start']})"
        summary += "."
    elif found.get("winner") is None:
        summary = "With best play by both, neither player wins."
    else:
        summary = f"With best play by both, {names.get(found['winner'], 'seat')} wins."
    return {"summary": summary, "line": line}


# --- board games ---------------------------------------------------------------------------------
