"""What a tarot game's page shows, read off the game's JSON: the pack to deal from, the hands to
play from, the trick on the table, who won it, and the hand's figures.

The card games are Manchester Piccadilly and Truffle (one stream per hand, hands named
``dealer``, ``opposite``, ``dealer_dummy`` ...) and the rule modules Tontine, Last Laugh and
Courtship Rules, recorded trick by trick with seats (games/rules/tarot/recording.py). Like
``presenting``, nothing here decides a rule: the cards a seat may play are the game's
``legal_events``, and the service judges every move. Where the game lists no legal events (a
recorded hand whose cards were not dealt in the service), the page offers every unseen card.
"""

from __future__ import annotations

import json
from typing import Any

from games.rules import registry
from games.rules.base import DealTarget, PlansDeals
from games.rules.tarot.cards import CONFERENCE_PACK, FOOL, PACK, SUITS, TRUMPS, points_of

# The service's suit letters are arbitrary (RULES.md D-TAR-2); a table reads them as the Italian
# suits, shown with the French signs most players know them by.
SUIT_NAMES = {"s": "swords", "b": "batons", "c": "cups", "d": "coins"}
SUIT_SIGNS = {"s": "♠", "b": "♣", "c": "♥", "d": "♦"}
RANK_NAMES = {"K": "King", "Q": "Queen", "C": "Cavalier", "J": "Jack", "A": "Ace"}
TRUMP_NAMES = {"T1": "the Magician", "T21": "the World"}
ORDER = {card: index for index, card in enumerate(CONFERENCE_PACK)}
# Moves that have their own controls on a card page, so the legal-move list leaves them out.
CARD_CONTROLS = frozenset({"card.played", "cards.discarded", "trick.won"})


def card_json(code: str) -> dict[str, Any]:
    """A card as a button shows it: a short face (``K♥``), a name for screen readers."""
    if code in TRUMPS:
        number = code[1:]
        named = TRUMP_NAMES.get(code)
        label = f"Trump {number}" + (f", {named}" if named else "")
        return {"code": code, "face": number, "label": label, "suit": "trump"}
    if code in (FOOL, "GOOD", "EVIL"):
        face = code.capitalize()
        return {"code": code, "face": face, "label": f"The {face}", "suit": "trump"}
    rank, suit = code[:-1], code[-1]
    label = f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"
    return {"code": code, "face": rank + SUIT_SIGNS[suit], "label": label, "suit": suit}


def sorted_cards(codes: Any) -> list[str]:
    """Suits in order, each highest first, then the trumps and the Fool."""
    return sorted(codes or [], key=lambda code: ORDER.get(code, len(ORDER)))


def pack_of(game: dict[str, Any]) -> tuple[str, ...]:
    base = (game.get("ruleset") or {}).get("base_game")
    return CONFERENCE_PACK if base == "conference" else PACK


def groups(codes: list[str], moves: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The cards by suit, as the picker lays them out; ``moves`` maps a card to its move."""
    shown = set(codes)
    rows = []
    for suit in SUITS:
        in_suit = [c for c in sorted_cards(shown) if c[-1] == suit and c not in TRUMPS]
        if in_suit:
            title = f"{SUIT_NAMES[suit].capitalize()} {SUIT_SIGNS[suit]}"
            rows.append({"title": title, "cards": [_button(c, moves) for c in in_suit]})
    trumps = [c for c in sorted_cards(shown) if c in TRUMPS or c in (FOOL, "GOOD", "EVIL")]
    if trumps:
        rows.append({"title": "Trumps and the Fool", "cards": [_button(c, moves) for c in trumps]})
    return rows


def _button(code: str, moves: dict[str, str] | None) -> dict[str, Any]:
    return {**card_json(code), "move": (moves or {}).get(code)}


def move_json(type: str, data: dict[str, Any]) -> str:
    return json.dumps({"type": type, "data": data})


# --- names of seats and hands --------------------------------------------------------------------


def hand_name(game: dict[str, Any], label: str, names: dict[int, str]) -> str:
    """``dealer`` is Ann (dealer), ``opposite_dummy`` Bob's dummy, Truffle's ``dummy`` the dummy."""
    owner, _, rest = label.partition("_")
    seat = game.get(owner) if owner in ("dealer", "opposite") else None
    if not isinstance(seat, int):
        return "The dummy"
    person = names.get(seat, f"seat {seat}")
    return f"{person}'s dummy" if rest == "dummy" else f"{person} ({owner})"


def who(game: dict[str, Any], key: Any, names: dict[int, str]) -> str:
    """A seat number or a Manchester hand label, for a person."""
    if isinstance(key, int):
        return names.get(key, f"seat {key}")
    return hand_name(game, str(key), names)


# --- the page ------------------------------------------------------------------------------------


def cards(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Everything the card area of a game page draws (the controls only for its recorders)."""
    legal = game.get("legal_events") or []
    expected = game["expected"] if game["status"] == "in_progress" else []
    return {
        "deal": deal(game, names) if "cards.dealt" in expected else None,
        "discard": discard(game, names, legal) if "cards.discarded" in expected else None,
        "hands": hands(game, names, legal if "card.played" in expected else []),
        "pool": pool(game, names) if "card.played" in expected and not _plays(legal) else None,
        "trick": trick(game, names),
        "won": won(game, names, legal) if "trick.won" in expected else [],
        "tricks": len(_table(game).get("tricks") or []),
        "figures": figures(game, names),
    }


def _table(game: dict[str, Any]) -> dict[str, Any]:
    """Where the tricks are: a Manchester hand's current part, else the game itself."""
    part = game.get("part")
    return part if isinstance(part, dict) else game


def _plays(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in legal if m["type"] == "card.played"]


def deal(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The deal's targets (who receives how many), the cards left to deal, and the event's
    shape: the target numbers in ``shape`` are replaced by their cards when it is sent. A game
    whose deal is its own says how (``PlansDeals``); else one hand a seat and a talon."""
    rules = registry.get(game["kind"])
    if not isinstance(rules, PlansDeals):
        seats = len(names)
        targets = [_target(names[s], None) for s in range(seats)] + [_target("Talon", None, True)]
        shape: dict[str, Any] = {"hands": list(range(seats)), "talon": seats}
        return _deal(targets, shape, list(pack_of(game)))
    plan = rules.deal_plan(game.get("phase"), game.get("ruleset") or {})
    dealt = game.get("dealt") or []
    left = [c for c in PACK if plan.whole_pack or not any(c in hand for hand in dealt)]
    targets = [_target(_receiver(t, names), t.count, t.optional) for t in plan.targets]
    return _deal(targets, dict(plan.shape), left)


# How a page names each receiver of a deal (games.rules.base.DealTarget.role).
RECEIVERS = {"dummy": "Dummy", "talon": "Talon", "dealer_talon": "Talon (dealer takes)"}


def _receiver(target: DealTarget, names: dict[int, str]) -> str:
    if target.role == "hand":
        return f"{names[target.seat or 0]}: hand {target.hand}"
    if target.role == "seat":
        return names[target.seat or 0]
    return RECEIVERS[target.role]


def _target(label: str, count: int | None, optional: bool = False) -> dict[str, Any]:
    return {"label": label, "count": count, "optional": optional}


def _deal(targets: list[dict[str, Any]], shape: dict[str, Any], left: list[str]) -> dict[str, Any]:
    return {
        "targets": targets,
        "targets_json": json.dumps(targets),
        "shape": json.dumps(shape),
        "groups": groups(left),
    }


def discard(game: dict[str, Any], names: dict[int, str], legal: list[Any]) -> dict[str, Any] | None:
    """Who discards, how many, and the cards he may choose among (from the legal discards where
    the game lists them; the matching legal event is what the page sends)."""
    listed = [m["data"] for m in legal if m["type"] == "cards.discarded"]
    if listed:
        seat = listed[0]["seat"]
        choices = sorted_cards({c for data in listed for c in data["cards"]})
        count: int | None = len(listed[0]["cards"])
    else:
        # A recorded hand: the seat on turn discards from his recorded cards.
        turn, held = game.get("turn"), game.get("hands")
        if not isinstance(turn, int) or not isinstance(held, list):
            return None
        seat, choices, count = turn, sorted_cards(held[turn]), None
    return {
        "seat": seat,
        "name": names.get(seat, f"seat {seat}"),
        "count": count,
        "groups": groups(choices),
        "legal_json": json.dumps(listed),
    }


def hands(
    game: dict[str, Any], names: dict[int, str], legal: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each hand shown by the game, its legal plays tappable (the hand on turn holds them)."""
    moves = {m["data"]["card"]: move_json(m["type"], m["data"]) for m in _plays(legal)}
    rows = []
    for key, held in _shown_hands(game, names):
        codes = sorted_cards(held)
        if not codes:
            continue  # a hand played out
        on_turn = any(code in moves for code in codes)
        rows.append(
            {
                "name": key,
                "on_turn": on_turn,
                "count": len(codes),
                "cards": [_button(c, moves if on_turn else None) for c in codes],
            }
        )
    return rows


def _shown_hands(game: dict[str, Any], names: dict[int, str]) -> list[tuple[str, list[str]]]:
    found = game.get("hands")
    if isinstance(found, dict) and found:
        return [(hand_name(game, label, names), held) for label, held in found.items()]
    if isinstance(found, list):
        return [(names.get(s, f"seat {s}"), held) for s, held in enumerate(found)]
    if game.get("phase") in ("M_ANNOUNCE", "M_DISCARD"):
        # Part one before its first trick: each seat's 13, less what he has discarded.
        discards = game.get("discards") or [None, None]
        return [
            (f"{names.get(s, s)} (seat {s})", [c for c in held if c not in (discards[s] or [])])
            for s, held in enumerate(game.get("dealt") or [])
        ]
    return []


def unseen(game: dict[str, Any]) -> list[str]:
    """A recorded hand without dealt cards: every card not yet played or discarded."""
    seen = {p["card"] for t in game.get("tricks") or [] for p in t["plays"]}
    seen |= {p["card"] for p in (game.get("trick") or {}).get("plays", [])}
    seen |= {c for pile in game.get("discards") or [] for c in pile or []}
    return [c for c in pack_of(game) if c not in seen]


def pool(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """No hands recorded: the card the seat on turn plays is tapped among the unseen cards."""
    seat = game.get("to_play")
    if not isinstance(seat, int):
        return None
    moves = {c: move_json("card.played", {"seat": seat, "card": c}) for c in unseen(game)}
    return {"name": names.get(seat, f"seat {seat}"), "groups": groups(list(moves), moves)}


def trick(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """The trick on the table: each play with whose it is."""
    found = _table(game).get("trick")
    if not isinstance(found, dict):
        return None
    plays = [
        {"who": who(game, p.get("hand", p.get("seat")), names), **card_json(p["card"])}
        for p in found.get("plays", [])
    ]
    return {"leader": who(game, found.get("leader"), names), "plays": plays}


def won(game: dict[str, Any], names: dict[int, str], legal: list[Any]) -> list[dict[str, str]]:
    """A button per possible winner: the rules' one where they decide, else each player."""
    winners = [m["data"]["winner"] for m in legal if m["type"] == "trick.won"]
    if not winners:
        winners = [p.get("seat") for p in (_table(game).get("trick") or {}).get("plays", [])]
    return [
        {"label": f"Trick to {who(game, w, names)}", "move": move_json("trick.won", {"winner": w})}
        for w in winners
    ]


# --- the hand's figures --------------------------------------------------------------------------

MANCHESTER_ROWS = (
    ("start_values", "Start value (announced)"),
    ("first", "Part one score"),
    ("second", "Part two score"),
    ("hand_totals", "Hand total"),
    ("game_points", "Game points"),
)


def figures(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """The hand's figures per seat: Manchester's hand sheet, Tontine's group points."""
    seats = [names.get(s, f"seat {s}") for s in range(len(names))]
    sheet = game.get("hand_sheet")
    rows: list[dict[str, Any]] = []
    if isinstance(sheet, dict):
        rows = [
            {"label": label, "values": sheet[key]}
            for key, label in MANCHESTER_ROWS
            if sheet.get(key) and any(v is not None for v in sheet[key])
        ]
        if sheet.get("tricks_won") and sheet.get("hand_totals") is None:
            rows.append({"label": "Tricks won this part", "values": sheet["tricks_won"][:2]})
            rows.append({"label": "Card points won this part", "values": sheet["pile_points"][:2]})
    if isinstance(game.get("points"), list):
        rows.append({"label": "Group points (claimed)", "values": game["points"]})
    if isinstance(game.get("hand_result"), list):
        rows.append({"label": "Hand result", "values": game["hand_result"]})
    if not rows:
        return None
    over = isinstance(sheet, dict) and sheet.get("game_points") is not None
    return {"seats": seats, "rows": rows, "over": over or game["status"] != "in_progress"}


# --- the other moves of a card game, as buttons --------------------------------------------------

MOVE_WORDS = {
    "fool.paid": "pays {card} for the Fool",
    "card.claimed": "claims {card}",
    "fool.exchanged": "exchanges {card} for the Fool",
    "butt.discarded": "discards {card} to the butt",
    "servant.summoned": "summons {card}",
    "servant.refused": "refuses the summons",
    "fool.set_aside": "sets the Fool aside, showing his hand",
}


def move_label(game: dict[str, Any], move: dict[str, Any], names: dict[int, str]) -> str:
    """A legal move of a card game as its button says it."""
    data, type = move["data"], move["type"]
    seat = data.get("seat", data.get("holder", game.get("turn")))
    person = names.get(seat, "") if isinstance(seat, int) else ""
    if type == "value.announced":
        return f"{person} announces {data['value']}"
    if type == "dummy.chosen":
        return dummy_label(game, data, person)
    if type == "cards.dealt" and not data:
        return "Deal part two from the shuffled pack"
    if type in MOVE_WORDS:
        card = card_json(data["card"])["face"] if data.get("card") else ""
        return f"{person} {MOVE_WORDS[type].format(card=card)}".strip()
    return str(type)


def dummy_label(game: dict[str, Any], data: dict[str, Any], person: str) -> str:
    """Piccadilly's dummy choice named by the hand's card points and cards (the view's
    ``options``), not only by its number."""
    index, seat = data["dummy"], data.get("seat")
    label = f"{person}: hand {index + 1} becomes the dummy"
    options = game.get("options") or []
    if not isinstance(seat, int) or seat >= len(options) or index >= len(options[seat]):
        return label
    hand = sorted_cards(options[seat][index])
    # Trumps by their code (T4), so a trump is not read as a pip among the suit cards.
    faces = " ".join(code if code in TRUMPS else card_json(code)["face"] for code in hand)
    return f"{label} ({points_of(hand)} card points: {faces})"
