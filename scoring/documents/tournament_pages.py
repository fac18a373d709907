"""The director's printable pages: table cards of a round, standings with the evening's payments.

Both are read from the tournament's folded state through the same functions the API answers
with (``round_json``, ``standings_json``, ``settlement_json``), so paper and screen never differ.
"""

from __future__ import annotations

from typing import Any

import segno

from games.store import folding
from games.store.models import Tournament
from games.tournaments.core import state as ts
from games.tournaments.shapes import round_json, settlement_json, standings_json
from scoring.documents import labels

# The order the standings explain their columns in: the tie-breaks come between played and net.
_FIRST_COLUMNS = ("rank", "points", "played")


def tournament_state(tournament: Tournament) -> ts.TournamentState:
    state: ts.TournamentState = folding.load(tournament.stream).state
    return state


def table_cards(
    state: ts.TournamentState, number: int, keeper_links: dict[int, str] | None = None
) -> dict[str, Any]:
    """One card per table in table order, and every player of the round listed by name.

    ``keeper_links`` (table: the keeper link's full address, with its code) are given for the
    director's own print only: a card then carries its code and the link's QR code. The
    documents anyone may read never hold them (a code lets its holder record at the table).
    """
    played = round_json(state, number)
    cards = [_card(table) for table in sorted(played["tables"], key=lambda t: t["table"])]
    for card in cards:
        link = (keeper_links or {}).get(card["table"])
        if link:
            card["keeper_link"] = link
            card["code"] = link.rstrip("/").rsplit("/", 1)[-1]
            card["qr"] = qr_svg(link, f"Keeper link of table {card['table']}")
    return {
        "round": played,
        "cards": cards,
        "by_name": _places_by_name(played),
        "rounds": list(range(1, len(state.rounds) + 1)),
    }


def qr_svg(link: str, title: str) -> str:
    """The link as an inline SVG QR code (medium error correction: a creased card still reads)."""
    code = segno.make(link, error="m")
    return str(code.svg_inline(scale=4, border=2, title=title))


def _card(table: dict[str, Any]) -> dict[str, Any]:
    seats = table["seats"]
    # Seat 0 starts (API.md); a lone duplicate-Solitaire player has no one to start against.
    starter = seats[0]["label"] if len(seats) > 1 else None
    return {
        "table": table["table"],
        "seats": seats,
        "starter": starter,
        "keepers": table["keepers"],
        "match": table["match"],
    }


def _places_by_name(played: dict[str, Any]) -> list[dict[str, Any]]:
    places = [
        {"name": seat["label"], "table": table["table"], "seat": seat["seat"] + 1}
        for table in played["tables"]
        for seat in table["seats"]
    ]
    places += [{"name": bye["label"], "table": None, "seat": None} for bye in played["byes"]]
    return sorted(places, key=lambda place: (place["name"].casefold(), place["table"] or 0))


def standings_page(state: ts.TournamentState, upto: int | None = None) -> dict[str, Any]:
    """The standings after round ``upto`` (default: the last complete one) with each column
    explained, the round in play named, and who pays whom."""
    table = standings_json(state, upto)
    tiebreaks = list(state.settings.tiebreaks)
    rows = [_standing_row(row, tiebreaks) for row in table["rows"]]
    explain = table["explain"]
    order = [*_FIRST_COLUMNS, *tiebreaks, "net"]
    return {
        "upto": table["round"],
        "in_play": table["in_play"],
        "title": standings_title(table["round"], table["in_play"]),
        "tiebreaks": [_label(t) for t in tiebreaks],
        "rows": rows,
        "explain": [(_label(key), explain[key]) for key in order if key in explain],
        "settlement": settlement_json(state),
        "rounds": list(range(1, len(state.rounds) + 1)),
    }


def standings_title(upto: int, in_play: int | None) -> str:
    """What a standings table is, in words: "Standings after round 1 · round 2 in play"."""
    title = f"Standings after round {upto}" if upto else "Standings"
    if in_play and in_play != upto:
        title += f" · round {in_play} in play"
    return title


def _standing_row(row: dict[str, Any], tiebreaks: list[str]) -> dict[str, Any]:
    return {
        "rank": row["rank"],
        "name": row["label"],
        "unconfirmed": row["unconfirmed"],
        "points": _number(row["points"]),
        "played": row["played"],
        "tiebreaks": [_number(row["tiebreaks"].get(t, 0)) for t in tiebreaks],
        "net": row["net"],
    }


def _label(key: str) -> str:
    # As people write them: "Sonneborn-Berger", "Buchholz", "Points difference".
    return labels.tiebreak(key)


def _number(value: float) -> str:
    # Points come in halves, and in thirds at tables of four: print 2.5 and 1.33, not 1.3333333.
    return f"{round(value, 2):g}"


def corrections_summary(state: ts.TournamentState) -> dict[str, Any]:
    """What the corrections page shows above its forms: the entries and the current round."""
    current = state.current
    played = round_json(state, current.number) if current else None
    upcoming = len(state.rounds) + 1
    labels_now = state.labels()
    entries = [
        {
            "name": labels_now[e.player],
            "joined": e.joined,
            "withdrawn_after": e.withdrawn_after,
            "bye": any(r == upcoming and p == e.player for r, p, _ in state.requested_byes),
        }
        for e in state.entries
    ]
    byes = [
        {"name": bye["label"], "points": _number(bye["points"])}
        for bye in (played["byes"] if played else [])
    ]
    return {"entries": entries, "current": played, "tables": _result_rows(played), "byes": byes}


def _result_rows(played: dict[str, Any] | None) -> list[dict[str, Any]]:
    if played is None:
        return []
    return [
        {
            "table": table["table"],
            "players": " v ".join(seat["label"] for seat in table["seats"]),
            "result": _result_text(table["result"]),
        }
        for table in played["tables"]
    ]


def _result_text(result: dict[str, Any] | None) -> str:
    if result is None:
        return "still playing"
    points = " - ".join(_number(p) for p in result["points"])
    reason = f" ({result['reason']})" if result["reason"] else ""
    return f"{result['how']}: {points}{reason}"
