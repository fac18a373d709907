"""Each dice game's throws on its page, kind by kind: this turn's throws and what they leave kept
or set aside (API.md's ``data-role="throws"``), and what the kind shows besides (the frames, the
score sheet, the last turn, Going to Boston's turns and play-off).

Every presenter reads the fields its kind's view gives (``rules.view`` and ``rules.view_shape``)
and nothing else. A dice kind without a presenter here is an error (:func:`presenter`), never
drawn by guess: tests/games/pages walks every kind of games.rules.registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.pages.tables import dice_words as words
from games.pages.tables.dice_words import block, counted, item, kept_line, name_of

Presenter = Callable[[dict[str, Any], dict[int, str]], dict[str, Any]]


# --- Going to Boston and Multiplication (RULES.md 13, 14) ------------------------------------


def boston(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The turn in play, each throw's die set aside, then every turn and the play-off."""
    view = game["dice"]
    seat = view["turn"]
    items = [
        item(f"Throw {n}", faces, aside=[face], said=f"· {face} set aside")
        for n, (faces, face) in enumerate(zip(view["throws"], view["set_aside"], strict=True), 1)
    ]
    if seat is None:
        turn = block("Throws", [], empty="The round is over: every turn is listed below.")
    else:
        title = f"{name_of(names, seat)}'s throws"
        if view["playoff"]:
            title += f" · play-off {view['playoff']}"
        turn = block(title, items)
    return {"turn": turn, "round": boston_round(view, names)}


def boston_round(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Every finished turn, the round's and each play-off's apart, and the play-off in words."""
    stages: dict[int, list[dict[str, Any]]] = {}
    for turn in view["turns"]:
        stages.setdefault(turn["playoff"], []).append(boston_turn(turn, names))
    return {
        "stages": [
            {"playoff": n, "title": f"Play-off {n}" if n else "The round", "turns": turns}
            for n, turns in sorted(stages.items())
        ],
        "playoff": playoff(view, names),
        "winners": winners_said(view, names),
    }


def boston_turn(turn: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A finished turn: each throw's faces with the die it set aside marked, the score worked."""
    return {
        "seat": turn["seat"],
        "name": name_of(names, turn["seat"]),
        "throws": [
            words.dice_of(faces, [aside])
            for faces, aside in zip(turn["throws"], turn["set_aside"], strict=True)
        ],
        "set_aside": ", ".join(turn["set_aside"]),
        "score": turn["score"],
        "how": turn["how"],
    }


def playoff(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """The latest play-off: who tied and on what, who throws again, what each has thrown."""
    number = view["playoff"]
    if not number:
        return None
    # Those in the play-off: who has thrown in it, then who is still to throw, in playing order.
    thrown = [t for t in view["turns"] if t["playoff"] == number]
    seats = [t["seat"] for t in thrown] + list(view["to_throw"])
    before = {t["seat"]: t["score"] for t in view["turns"] if t["playoff"] == number - 1}
    tied = words.joined([name_of(names, seat) for seat in seats])
    over = bool(view["winners"])
    scores = {t["seat"]: t for t in thrown}
    return {
        "number": number,
        "sentence": f"Play-off {number}: {tied} tied on {before[seats[0]]}"
        + (" and threw again." if over else " and throw again."),
        "to_throw": words.joined([name_of(names, seat) for seat in view["to_throw"]]),
        "rows": [
            {
                "name": name_of(names, seat),
                "score": scores[seat]["score"] if seat in scores else None,
                "how": scores[seat]["how"] if seat in scores else "",
            }
            for seat in seats
        ],
    }


def winners_said(view: dict[str, Any], names: dict[int, str]) -> str:
    """Once the round is over: who takes the pot, or who splits it."""
    winners = [name_of(names, seat) for seat in view["winners"]]
    if not winners:
        return ""
    if len(winners) == 1:
        return f"{winners[0]} wins the round and takes the pot."
    return f"{words.joined(winners)} tie and split the pot."


# --- Double Cameroon (RULES.md 12) -----------------------------------------------------------


def double_cameroon(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """This turn's throws, how many dice each left kept, the dice kept now; the last turn."""
    view = game["dice"]
    throws = view["throws"]
    items = []
    for n, faces in enumerate(throws, 1):
        before = len(throws[0]) - len(faces)
        said = f"{counted(before, 'die', 'dice')} kept, these {len(faces)} thrown" if n > 1 else ""
        items.append(item(f"Throw {n}", faces, said=said))
    seat = view["turn"]
    title = f"{name_of(names, seat)}'s throws" if seat is not None else "Throws"
    note = "Kept dice stay kept this turn (house rule)." if view["locked"] else ""
    kept = kept_line("Kept", view["kept"], after="the rest are thrown again")
    return {
        "turn": block(title, items, kept=kept, note=note),
        "last_turn": cameroon_last_turn(view, names),
    }


def cameroon_last_turn(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """The turn just ended: each throw, the dice kept after it, and the two boxes it filled."""
    if not view["turns"]:
        return None
    turn = view["turns"][-1]
    throws = []
    for n, faces in enumerate(turn["throws"]):
        line = words.throw_line(faces)
        if n + 1 < len(turn["throws"]) and n < len(turn["kept"]):
            line["notes"] = [f"kept {words.faces_said(turn['kept'][n])}"]
        throws.append(line)
    boxes = "; ".join(
        f"{box['category'].replace('_', ' ')} {words.faces_said(box['dice'])}: {box['points']}"
        for box in turn["boxes"]
    )
    return {
        "name": name_of(names, turn["seat"]),
        "score": turn["points"],
        "throws": throws,
        "scored": boxes,
    }


# --- Hearts Due (RULES.md 15) ----------------------------------------------------------------


def hearts_due(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The latest roll of each player (a turn is one roll of all six dice), in letters."""
    view = game["dice"]
    items = []
    for roll in view["rolls"]:
        notes = ["three H's: the total is wiped out"] if roll["reset"] else []
        notes.append(f"total {roll['total']}")
        said = f"reads {' '.join(roll['letters'])}: {counted(roll['points'], 'point', 'points')}"
        items.append(item(name_of(names, roll["seat"]), roll["faces"], said=said, notes=notes))
    title = "Latest rolls" + (" · extra round" if view["extra_round"] else "")
    note = "Each roll is of all six dice: none is kept or set aside."
    return {"turn": block(title, items, empty="No roll yet.", note=note)}


# --- Straight Scarney Dice and its partnership game (RULES.md 7, 8) ---------------------------


def straight_dice(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The frame in play's throws, each dead die put out of play; the pad's frames."""
    view = game["dice"]
    shown = {"frames": words.frames(view, names)}
    if view["phase"] == "seating":
        throws = view["seating"]["throws"] if view["seating"] else []
        items = words.seating_items(throws, names)
        return shown | {"turn": block("Throws for the order of play", items, empty="None yet.")}
    if view["shooter"] is None:
        return shown | {"turn": block("Throws", [], empty="The game is over.")}
    items = []
    dead = 0
    # A frame is in play: its fields are in the view (they are not during the seating throws nor
    # once the game is over).
    for n, throw in enumerate(view["throws"], 1):
        line = words.throw_line(throw)
        dead += throw["dead_dice"]
        aside = ["D"] * throw["dead_dice"]
        items.append(item(f"Throw {n}", throw["faces"], aside, **_scored(line)))
    title = f"{name_of(names, view['shooter'])}'s throws · frame {view['frame']}"
    if view["held"]:
        title += f" · holding {view['held']}"
    if view["double_down"]:
        title += " · doubled down"
    live = f"{counted(view['in_cup'], 'die', 'dice')} live"
    out = kept_line("Out of play", ["D"] * dead, after=live)
    return shown | {"turn": block(title, items, kept=out)}


def _scored(line: dict[str, Any]) -> dict[str, Any]:
    return {"outcome": line["outcome"], "points": line["points"], "notes": line["notes"]}


# --- Scarney 3000 and its partnership game (RULES.md 9, 10) ----------------------------------


def scarney_3000(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """This turn's throws, the scoring dice each set aside; the last turn and the sheet."""
    view = game["dice"]
    shown = {"last_turn": words.last_turn(view, names), "sheet": words.sheet(game, names)}
    if view["phase"] == "drawing":
        throws = view["draw"]["throws"] if view["draw"] else []
        items = words.seating_items(throws, names)
        return shown | {"turn": block("Throws for the order of play", items, empty="None yet.")}
    if view["shooter"] is None:
        return shown | {"turn": block("Throws", [], empty="The game is over.")}
    items = []
    for n, throw in enumerate(view["throws"], 1):
        line = words.throw_line(throw)
        aside = _scoring_dice(throw)
        said = f"{words.faces_said(aside)} set aside" if aside else "nothing set aside"
        items.append(item(f"Throw {n}", throw["faces"], aside, said, **_scored(line)))
    title = f"{name_of(names, view['shooter'])}'s throws · turn points {view['turn_points']}"
    if view["pending"]:
        title += f" · pending {view['pending']}"
    in_cup = f"{counted(view['in_cup'], 'die', 'dice')} in the cup"
    return shown | {
        "turn": block(title, items, kept=kept_line("Set aside", view["set_aside"], after=in_cup))
    }


def _scoring_dice(throw: dict[str, Any]) -> list[str]:
    """The dice a throw scored with, which are set aside: its dead dice and its number bonus
    (a bust scores none)."""
    if throw["outcome"] == "bust":
        return []
    hand = throw["number_bonus"]
    return ["D"] * throw["dead_dice"]["count"] + (list(hand["faces"]) if hand else [])


# --- Scarney Put and Take (RULES.md 11) ------------------------------------------------------


def put_and_take(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The round's throws, each with what it put in or took from the pot."""
    view = game["dice"]
    if view["throwing_for"] == "seating":
        throws = view["seating"]["throws"] if view["seating"] else []
        items = words.seating_items(throws, names)
        return {"turn": block("Throws for the order of play", items, empty="None yet.")}
    items = [item(name_of(names, t["seat"]), t["faces"], said=pot_said(t)) for t in view["throws"]]
    title = f"Round {view['round']} throws" if view["round"] else "Throws"
    if view["double_down"]["called"]:
        title += " · doubled down"
    note = "Every throw is of all three dice: none is kept or set aside."
    return {"turn": block(title, items, empty="No throw yet this round.", note=note)}


def pot_said(throw: dict[str, Any]) -> str:
    """A throw's class and what it did to the pot, in words (RULES.md 11.4, 11.6)."""
    chips = counted(throw["asked"], "chip", "chips")
    kind = f"doubled {throw['class']}" if throw["doubled"] else throw["class"]
    match throw["class"]:
        case "scarney":
            return "Scarney: the whole pot"
        case "put":
            return f"{kind}: {chips} into the pot"
        case "take" if throw["push"]:
            return f"{kind} 0 (push): nothing moves"
        case "take" if throw["short"]:
            return f"{kind} {throw['asked']}, more than the pot holds: the whole pot"
        case "take":
            refill = f"; the pot is refilled ({throw['refill']})" if throw["refill"] else ""
            return f"{kind}: {chips} from the pot{refill}"
    return f"{kind}: nothing moves"


# --- which presenter shows which kind --------------------------------------------------------

BY_KIND: dict[str, Presenter] = {
    "going-to-boston": boston,
    "multiplication": boston,
    "double-cameroon": double_cameroon,
    "hearts-due": hearts_due,
    "straight-scarney-dice": straight_dice,
    "partnership-straight-scarney-dice": straight_dice,
    "scarney-3000": scarney_3000,
    "partnership-scarney-3000": scarney_3000,
    "scarney-put-and-take": put_and_take,
}


def presenter(kind: str) -> Presenter:
    """The presenter of a dice kind's throws; LookupError for a kind the pages do not know."""
    try:
        return BY_KIND[kind]
    except KeyError:
        raise LookupError(
            f"The pages do not know how to show the throws of {kind!r}: add its presenter to "
            "games/pages/tables/dice_turns.py."
        ) from None
