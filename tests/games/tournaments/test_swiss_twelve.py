"""A 12-player Swiss of High-Low Scarney over 4 rounds, recorded through the API as sheet
matches: the Dutch pairings, then the standings and tie-breaks computed by hand below.

The results are fixed so the evening can be checked on paper: at every table the player entered
earlier wins, 3 games of 34 to nothing. A High-Low winner then totals 102 + 3 x 20 game bonuses +
100 match bonus + 100 shutout bonus = 362, and the loser pays all of it (RULES.md 5.7).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair, standings

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kay", "Lu"]

# Seat 0 first (the starter, "white"). Round 1: the top half meets the bottom half in order,
# colours alternating by board. Round 2: in each score group S1 meets S2 (1-pointers Ann, Bob,
# Cid against Dee, Eve, Fay), everyone switching colour. Round 3: the 2-point group is odd (Ann,
# Bob, Cid), so Cid floats down to Dee; the 1-point group is then odd too, and Ida floats to Jo.
PAIRINGS = {
    1: [
        ("Ann", "Gus"),
        ("Hal", "Bob"),
        ("Cid", "Ida"),
        ("Jo", "Dee"),
        ("Eve", "Kay"),
        ("Lu", "Fay"),
    ],
    2: [
        ("Dee", "Ann"),
        ("Bob", "Eve"),
        ("Fay", "Cid"),
        ("Gus", "Jo"),
        ("Kay", "Hal"),
        ("Ida", "Lu"),
    ],
    3: [
        ("Ann", "Bob"),
        ("Cid", "Dee"),
        ("Eve", "Gus"),
        ("Hal", "Fay"),
        ("Jo", "Ida"),
        ("Lu", "Kay"),
    ],
    4: [
        ("Cid", "Ann"),
        ("Bob", "Fay"),
        ("Ida", "Eve"),
        ("Dee", "Hal"),
        ("Gus", "Kay"),
        ("Lu", "Jo"),
    ],
}

# Worked by hand from the pairings (each opponent's final points in brackets):
# Ann beat Gus(2) Dee(2) Bob(3) Cid(3): Buchholz 10, median (without 3 and 2) 5, SB 10.
# Bob beat Hal(1) Eve(3) Fay(2), lost to Ann(4): Buchholz 10, median (without 4, 1) 5, SB 6.
# Cid beat Ida(2) Fay(2) Dee(2), lost to Ann(4): Buchholz 10, median 4, SB 6 - below Bob on
#   the median.
# Eve beat Kay(1) Gus(2) Ida(2), lost to Bob(3): Buchholz 8, median 4, SB 5.
# Dee beat Jo(1) Hal(1), lost to Ann(4) Cid(3): 9, 4, 2; Gus beat Jo(1) Kay(1), lost to Ann(4)
#   Eve(3): 9, 4, 2 as well - level on every tie-break, they share 5th place.
# Fay beat Lu(0) Hal(1), lost to Cid(3) Bob(3): 7, 4, 1; Ida beat Lu(0) Jo(1), lost to Cid(3)
#   Eve(3): 7, 4, 1 - they share 7th.
# Hal beat Kay(1): Buchholz Bob 3 + Kay 1 + Fay 2 + Dee 2 = 8, median 4, SB 1.
# Jo beat Lu(0): Dee 2 + Gus 2 + Ida 2 + Lu 0 = 6, median 4, SB 0.
# Kay beat Lu(0): Eve 3 + Hal 1 + Lu 0 + Gus 2 = 6, median 3, SB 0.
# Lu lost all: Fay 2 + Ida 2 + Kay 1 + Jo 1 = 6, median 3, SB 0.
# Points difference and net: 362 a win, -362 a loss.
# name: rank, points, buchholz, median_buchholz, sonneborn_berger, points_difference = net
STANDINGS = [
    ("Ann", 1, 4, 10, 5, 10, 1448),
    ("Bob", 2, 3, 10, 5, 6, 724),
    ("Cid", 3, 3, 10, 4, 6, 724),
    ("Eve", 4, 3, 8, 4, 5, 724),
    ("Dee", 5, 2, 9, 4, 2, 0),
    ("Gus", 5, 2, 9, 4, 2, 0),
    ("Fay", 7, 2, 7, 4, 1, 0),
    ("Ida", 7, 2, 7, 4, 1, 0),
    ("Hal", 9, 1, 8, 4, 1, -724),
    ("Jo", 10, 1, 6, 4, 0, -724),
    ("Kay", 11, 1, 6, 3, 0, -724),
    ("Lu", 12, 0, 6, 3, 0, -1448),
]
TIEBREAKS = ["buchholz", "median_buchholz", "sonneborn_berger", "points_difference", "net"]


def test_a_twelve_player_high_low_swiss_pairs_and_ranks_as_worked_by_hand(
    django_capture_on_commit_callbacks: Any,
) -> None:
    director = client_for("director", staff=True)[1]
    made = create(
        director, format="high-low-scarney", system="swiss", rounds=4, tiebreaks=TIEBREAKS
    )
    ids = enter(director, made["id"], NAMES)
    order = {player: i for i, player in enumerate(ids)}
    for number in range(1, 5):
        played = pair(director, made["id"])
        assert played["byes"] == []
        tables = [tuple(s["name"] for s in t["seats"]) for t in played["tables"]]
        assert tables == PAIRINGS[number], number
        for table in played["tables"]:
            seats = [s["player"] for s in table["seats"]]
            winner = seats.index(min(seats, key=order.__getitem__))
            high_low_win(director, table["match"], winner, django_capture_on_commit_callbacks)
    table = standings(director, made["id"])
    shown = [
        (
            r["name"],
            r["rank"],
            r["points"],
            r["tiebreaks"]["buchholz"],
            r["tiebreaks"]["median_buchholz"],
            r["tiebreaks"]["sonneborn_berger"],
            r["tiebreaks"]["points_difference"],
        )
        for r in table["rows"]
    ]
    assert shown == STANDINGS
    assert all(r["net"] == r["tiebreaks"]["points_difference"] for r in table["rows"])
    assert set(table["explain"]) >= {"points", *TIEBREAKS}
    # As of round 1, six winners share first place on a point.
    first = standings(director, made["id"], round=1)
    assert [r["points"] for r in first["rows"]] == [1] * 6 + [0] * 6
    # Who owes whom tonight: four transfers pay the eight non-zero nets (three pairs of +724/-724
    # and Ann's 1448 from Lu), the fewest that can.
    owed = director.get(f"/api/v1/tournaments/{made['id']}/settlement/").json()
    assert owed["left_in_pot"] == 0
    assert len(owed["payments"]) == 4
    assert {(p["from_name"], p["to_name"], p["points"]) for p in owed["payments"]} >= {
        ("Lu", "Ann", 1448)
    }
