"""How the other dice games' throws read on their page (RULES.md 12-15): Going to Boston's and
Multiplication's turn, set-aside dice and play-off, Double Cameroon's throws and last turn, Hearts
Due's latest rolls. Each reads the fields its kind's view gives and nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import wording as words
from games.rules.wording import block, counted, item, kept_line, name_of

# --- Going to Boston and Multiplication (RULES.md 13, 14) ------------------------------------


def boston(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
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


def boston_round(view: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
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


def boston_turn(turn: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
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


def playoff(view: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
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


def winners_said(view: dict[str, Any], names: Mapping[int, str]) -> str:
    """Once the round is over: who takes the pot, or who splits it."""
    winners = [name_of(names, seat) for seat in view["winners"]]
    if not winners:
        return ""
    if len(winners) == 1:
        return f"{winners[0]} wins the round and takes the pot."
    return f"{words.joined(winners)} tie and split the pot."


# --- Double Cameroon (RULES.md 12) -----------------------------------------------------------


def double_cameroon(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
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


def cameroon_last_turn(view: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
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


def hearts_due(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
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
