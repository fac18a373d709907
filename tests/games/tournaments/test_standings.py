"""Standings, tie-breaks and match points of games.tournaments.core.standings (pure)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import BadSetup
from games.tournaments.core.standings import (
    Bye,
    TableResult,
    duplicate_results,
    explain,
    standings,
    table_points,
)
from games.tournaments.core.tiebreaks import TIEBREAKS

# --- table_points -------------------------------------------------------------------------------


def test_two_player_win_is_one_and_loss_zero() -> None:
    assert table_points([1, 2]) == (1.0, 0.0)
    assert table_points([2, 1]) == (0.0, 1.0)


def test_two_player_shared_win_is_half_each() -> None:
    assert table_points([1, 1]) == (0.5, 0.5)


def test_three_players_in_order_earn_one_half_nothing() -> None:
    assert table_points([1, 2, 3]) == (1.0, 0.5, 0.0)


def test_three_players_sharing_first_share_places_one_and_two() -> None:
    # places 1 and 2 are worth 1 and ½: the two share ¾ each
    assert table_points([1, 1, 3]) == (0.75, 0.75, 0.0)


def test_three_players_sharing_second_share_places_two_and_three() -> None:
    assert table_points([1, 2, 2]) == (1.0, 0.25, 0.25)


def test_four_players_earn_thirds_by_place() -> None:
    assert table_points([3, 1, 4, 2]) == pytest.approx((1 / 3, 1.0, 0.0, 2 / 3))
    # the middle two share places 2 and 3: (⅔ + ⅓) / 2
    assert table_points([1, 2, 2, 4]) == pytest.approx((1.0, 0.5, 0.5, 0.0))


def test_a_table_of_one_is_not_ranked_by_table_points() -> None:
    with pytest.raises(ValueError):
        table_points([1])


# --- a small Swiss: 6 players, 3 rounds, a draw and byes ---------------------------------------
#
# ids and names: 1 Ann, 2 Bob, 3 Cid, 4 Dee, 5 Eve, 6 Fay. Scores are match totals; nets are the
# loser paying the difference, except Cid-Fay in round 3, a chip game (Fay +10, Cid -10).
#
# R1  Ann 60 beats Bob 40      Cid 50 draws Dee 50      Eve 70 beats Fay 30
# R2  Ann 55 beats Eve 45      Bob 65 beats Cid 35      bye: Dee 1 (pairing), Fay 0 (requested)
# R3  Dee 60 beats Ann 50      Eve 45 beats Bob 40      Fay 42 beats Cid 38
#
# Points:  Ann 1+1+0 = 2   Bob 0+1+0 = 1   Cid ½+0+0 = ½   Dee ½+1+1 = 2½   Eve 1+0+1 = 2
#          Fay 0+0+1 = 1   (each round gives 3 points: 9 in all)
# Opponents (points):  Ann: Bob 1, Eve 2, Dee 2½    Bob: Ann 2, Cid ½, Eve 2
#                      Cid: Dee 2½, Bob 1, Fay 1    Dee: Cid ½, Ann 2 (the bye adds nothing)
#                      Eve: Fay 1, Ann 2, Bob 1     Fay: Eve 2, Cid ½
# Buchholz:         Ann 5½  Bob 4½  Cid 4½  Dee 2½  Eve 4  Fay 2½
# Median Buchholz (drop highest and lowest; under 3 opponents, as Buchholz):
#                   Ann 2  Bob 2  Cid 1  Dee 2½  Eve 1  Fay 2½
# Sonneborn-Berger: Ann 1·1 + 1·2 + 0·2½ = 3     Bob 0·2 + 1·½ + 0·2 = ½
#                   Cid ½·2½ + 0 + 0 = 1¼        Dee ½·½ + 1·2 = 2¼
#                   Eve 1·1 + 0·2 + 1·1 = 2      Fay 0·2 + 1·½ = ½
# Head to head (level on points): Ann-Eve on 2, Ann beat Eve: Ann 1, Eve 0; Bob-Fay on 1 never
#                   met: 0 each; Cid and Dee have no one level: 0.
# Points difference: Ann +20+10-10 = 20   Bob -20+30-5 = 5    Cid 0-30-4 = -34
#                    Dee 0+10 = 10        Eve +40-10+5 = 35   Fay -40+4 = -36
# Net:               Ann 20  Bob 5  Cid 0-30-10 = -40  Dee 10  Eve 35  Fay -40+10 = -30
# Played:            Dee and Fay 2 (a bye is not a table), the others 3.
# Order with all six tie-breaks: Dee 2½; Ann and Eve on 2, Buchholz 5½ > 4; Bob and Fay on 1,
# Buchholz 4½ > 2½; Cid ½.

PLAYERS = [(1, "Ann"), (2, "Bob"), (3, "Cid"), (4, "Dee"), (5, "Eve"), (6, "Fay")]
SWISS = [
    TableResult(1, 1, (1, 2), (1, 0), (60, 40), (20, -20)),
    TableResult(1, 2, (3, 4), (0.5, 0.5), (50, 50), (0, 0)),
    TableResult(1, 3, (5, 6), (1, 0), (70, 30), (40, -40)),
    TableResult(2, 1, (1, 5), (1, 0), (55, 45), (10, -10)),
    TableResult(2, 2, (2, 3), (1, 0), (65, 35), (30, -30)),
    TableResult(3, 1, (4, 1), (1, 0), (60, 50), (10, -10)),
    TableResult(3, 2, (5, 2), (1, 0), (45, 40), (5, -5)),
    TableResult(3, 3, (3, 6), (0, 1), (38, 42), (-10, 10)),
]
SWISS_BYES = [Bye(2, 4, 1), Bye(2, 6, 0)]


SwissRow = tuple[int, float, int, int, dict[str, float]]  # rank, points, played, net, tie-breaks


def swiss(tiebreaks: tuple[str, ...], round: int = 3) -> dict[str, SwissRow]:
    table = standings(PLAYERS, SWISS, SWISS_BYES, tiebreaks, round=round)
    return {
        row.name: (row.rank, row.points, row.played, row.net, row.tiebreaks) for row in table.rows
    }


def test_swiss_with_every_tiebreak_gives_the_hand_computed_rows() -> None:
    # when
    table = standings(PLAYERS, SWISS, SWISS_BYES, TIEBREAKS, round=3)

    # then
    rows = [(r.rank, r.name, r.points, r.played, r.net, r.tiebreaks) for r in table.rows]
    order = TIEBREAKS  # buchholz, median, SB, head to head, points difference, net
    assert rows == [
        (1, "Dee", 2.5, 2, 10, dict(zip(order, (2.5, 2.5, 2.25, 0, 10, 10), strict=True))),
        (2, "Ann", 2.0, 3, 20, dict(zip(order, (5.5, 2.0, 3.0, 1, 20, 20), strict=True))),
        (3, "Eve", 2.0, 3, 35, dict(zip(order, (4.0, 1.0, 2.0, 0, 35, 35), strict=True))),
        (4, "Bob", 1.0, 3, 5, dict(zip(order, (4.5, 2.0, 0.5, 0, 5, 5), strict=True))),
        (5, "Fay", 1.0, 2, -30, dict(zip(order, (2.5, 2.5, 0.5, 0, -36, -30), strict=True))),
        (6, "Cid", 0.5, 3, -40, dict(zip(order, (4.5, 1.0, 1.25, 0, -34, -40), strict=True))),
    ]
    assert table.round == 3
    assert list(rows[0][5]) == list(TIEBREAKS)  # the tie-breaks in the order chosen


def test_swiss_tie_on_head_to_head_is_broken_by_the_second_tiebreak() -> None:
    # Bob and Fay: 1 point each, head to head 0 each (never met), Buchholz 4½ against 2½
    rows = swiss(("head_to_head", "buchholz"))
    assert rows["Bob"][0] == 4
    assert rows["Fay"][0] == 5
    # Ann and Eve are already separated by head to head (Ann beat Eve)
    assert (rows["Ann"][0], rows["Eve"][0]) == (2, 3)


def test_swiss_tie_left_unbroken_shares_the_rank_and_orders_by_name() -> None:
    table = standings(PLAYERS, SWISS, SWISS_BYES, ("head_to_head",), round=3)
    assert [(r.rank, r.name) for r in table.rows] == [
        (1, "Dee"), (2, "Ann"), (3, "Eve"), (4, "Bob"), (4, "Fay"), (6, "Cid"),
    ]  # fmt: skip


def test_swiss_median_buchholz_can_reverse_buchholz() -> None:
    # Fay's two opponents count whole (2½); Bob loses his highest and lowest (2)
    rows = swiss(("median_buchholz",))
    assert (rows["Fay"][0], rows["Bob"][0]) == (4, 5)


def test_swiss_standings_after_round_one_ignore_later_rounds() -> None:
    rows = swiss(("buchholz",), round=1)
    assert rows["Ann"][:4] == (1, 1.0, 1, 20)
    assert rows["Cid"][:4] == (3, 0.5, 1, 0)
    assert rows["Dee"][4] == {"buchholz": 0.5}  # Cid's ½ after round 1
    assert rows["Fay"][:4] == (5, 0.0, 1, -40)


def test_explain_says_how_every_column_shown_is_computed() -> None:
    sentences = explain(("buchholz", "points_difference"))
    assert list(sentences) == ["rank", "points", "played", "buchholz", "points_difference", "net"]
    assert "virtual opponent is not used" in sentences["buchholz"]
    assert "(k-p)/(k-1)" in sentences["points"]
    assert "then Buchholz, then points difference" in sentences["rank"]
    assert "field's average" in sentences["points_difference"]


def test_an_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(BadSetup, match="tiebreaks lists"):
        standings(PLAYERS, SWISS, SWISS_BYES, ("progressive",), round=3)


# --- three-player tables ------------------------------------------------------------------------
#
# R1  table 1: players 1, 2, 3 ranked 1, 2, 3 → 1, ½, 0; scores 90, 60, 30
#     table 2: players 4, 5, 6 ranked 1, 1, 3 → ¾, ¾, 0
# R2  table 1: players 1, 4, 6 ranked 1, 2, 2 → 1, ¼, ¼
#     table 2: players 2, 3, 5 ranked 1, 2, 3 → 1, ½, 0
# Points: 1: 1+1 = 2   2: ½+1 = 1½   3: 0+½ = ½   4: ¾+¼ = 1   5: ¾+0 = ¾   6: 0+¼ = ¼
# Player 1 met 2 (1½), 3 (½), 4 (1), 6 (¼), above each: Buchholz = SB = 3¼; the median drops
#   1½ and ¼: 1½.
# Player 4 met 5 (¾, level: ½), 6 (¼, above: 1), 1 (2, below: 0), 6 (¼, level: ½):
#   Buchholz ¾ + ¼ + 2 + ¼ = 3¼; median drops 2 and one ¼: 1; SB ⅜ + ¼ + 0 + ⅛ = ¾.
# Player 1's points difference in R1: 90 - (60 + 30)/2 = 45; in R2 scores are all 0.

THREES = [
    TableResult(1, 1, (1, 2, 3), table_points([1, 2, 3]), (90, 60, 30), (30, 0, -30)),
    TableResult(1, 2, (4, 5, 6), table_points([1, 1, 3]), (0, 0, 0), (0, 0, 0)),
    TableResult(2, 1, (1, 4, 6), table_points([1, 2, 2]), (0, 0, 0), (0, 0, 0)),
    TableResult(2, 2, (2, 3, 5), table_points([1, 2, 3]), (0, 0, 0), (0, 0, 0)),
]


def test_multiplayer_table_mates_are_each_an_opponent_for_buchholz_and_sonneborn_berger() -> None:
    table = standings(
        [(i, f"P{i}") for i in range(1, 7)],
        THREES,
        [],
        ("buchholz", "median_buchholz", "sonneborn_berger", "points_difference"),
        round=2,
    )
    rows = {r.player: r for r in table.rows}
    assert [r.points for r in table.rows] == [2.0, 1.5, 1.0, 0.75, 0.5, 0.25]
    assert rows[1].tiebreaks == {
        "buchholz": 3.25,
        "median_buchholz": 1.5,
        "sonneborn_berger": 3.25,
        "points_difference": 45.0,
    }
    assert rows[4].tiebreaks["buchholz"] == 3.25
    assert rows[4].tiebreaks["median_buchholz"] == 1.0
    assert rows[4].tiebreaks["sonneborn_berger"] == 0.75


# --- voided tables ------------------------------------------------------------------------------


def test_a_voided_table_counts_as_played_and_gives_nothing_else() -> None:
    # given: 1 beat 2 in round 1; round 2's table of 1 and 3 was voided
    results = [
        TableResult(1, 1, (1, 2), (1, 0), (50, 20), (30, -30)),
        TableResult(2, 1, (1, 3), (1, 0), (70, 10), (60, -60), voided=True),
    ]

    # when
    table = standings([(1, "Ann"), (2, "Bob"), (3, "Cid")], results, [], TIEBREAKS, round=2)

    # then
    rows = {r.name: r for r in table.rows}
    assert (rows["Ann"].points, rows["Ann"].played, rows["Ann"].net) == (1.0, 2, 30)
    assert (rows["Cid"].points, rows["Cid"].played, rows["Cid"].net) == (0.0, 1, 0)
    assert rows["Cid"].tiebreaks == dict.fromkeys(TIEBREAKS, 0.0)
    assert rows["Ann"].tiebreaks["points_difference"] == 30.0  # the voided 70-10 left out


def test_a_player_with_no_result_yet_has_an_empty_row() -> None:
    table = standings([(9, "Late")], SWISS, SWISS_BYES, ("buchholz",), round=3)
    assert table.rows[0].points == 0.0
    assert table.rows[0].played == 0
    assert table.rows[0].tiebreaks == {"buchholz": 0.0}


# --- duplicate Solitaire ------------------------------------------------------------------------


def test_duplicate_results_rank_totals_across_the_whole_field() -> None:
    # given: 2 best; 1 and 3 share second, covering places 2 and 3 of 4 (⅔ and ⅓: ½ each); 4 last
    totals = {1: 80, 2: 95, 3: 80, 4: 60}

    # when
    results = duplicate_results(5, totals, {1: 3, 2: -3})

    # then: tables numbered in rank order, level players by id
    assert [(r.table, r.players, r.points, r.scores, r.net) for r in results] == [
        (1, (2,), (1.0,), (95,), (-3,)),
        (2, (1,), (0.5,), (80,), (3,)),
        (3, (3,), (0.5,), (80,), (0,)),
        (4, (4,), (0.0,), (60,), (0,)),
    ]
    assert {r.round for r in results} == {5}


def test_duplicate_standings_compare_totals_on_the_same_deal() -> None:
    # the field's average is 315 / 4 = 78.75; no opponents, so Buchholz is 0
    results = duplicate_results(1, {1: 80, 2: 95, 3: 80, 4: 60})
    table = standings(
        [(1, "Ann"), (2, "Bob"), (3, "Cid"), (4, "Dee")],
        results,
        [],
        ("buchholz", "points_difference"),
        round=1,
    )
    assert [(r.rank, r.name, r.points) for r in table.rows] == [
        (1, "Bob", 1.0), (2, "Ann", 0.5), (2, "Cid", 0.5), (4, "Dee", 0.0),
    ]  # fmt: skip
    assert [r.tiebreaks for r in table.rows] == [
        {"buchholz": 0.0, "points_difference": 16.25},
        {"buchholz": 0.0, "points_difference": 1.25},
        {"buchholz": 0.0, "points_difference": 1.25},
        {"buchholz": 0.0, "points_difference": -18.75},
    ]


def test_duplicate_field_of_one_wins_and_an_empty_field_gives_nothing() -> None:
    assert duplicate_results(1, {7: 40})[0].points == (1.0,)
    assert duplicate_results(1, {}) == ()


# --- properties ---------------------------------------------------------------------------------


def random_tournament(seed: int) -> tuple[list[tuple[int, str]], list[TableResult], list[Bye]]:
    """Random rounds: tables of two to four, one bye when the players do not divide."""
    rng = random.Random(seed)
    ids = list(range(1, rng.randint(2, 11)))
    results, byes = [], []
    for number in range(1, rng.randint(1, 4) + 1):
        rng.shuffle(ids)
        size = rng.randint(2, 4)
        seated = len(ids) - len(ids) % size if len(ids) >= size else 0
        for first in range(0, seated, size):
            results.append(random_table(rng, number, first // size + 1, ids[first : first + size]))
        byes += [Bye(number, p, rng.choice([0, 0.5, 1])) for p in ids[seated:]]
    return [(p, rng.choice("ABC")) for p in sorted(ids)], results, byes


def random_table(rng: random.Random, number: int, table: int, players: list[int]) -> TableResult:
    ranks = [rng.randint(1, len(players)) for _ in players]
    nets = [rng.randint(-20, 20) for _ in players[1:]]
    return TableResult(
        round=number,
        table=table,
        players=tuple(players),
        points=table_points(ranks),
        scores=tuple(rng.randint(0, 100) for _ in players),
        net=(-sum(nets), *nets),
        voided=rng.random() < 0.1,
    )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), chosen=st.permutations(TIEBREAKS))
def test_random_standings_keep_ranks_points_and_nets(seed: int, chosen: list[str]) -> None:
    players, results, byes = random_tournament(seed)
    last = max([r.round for r in results] + [b.round for b in byes])
    tiebreaks = chosen[: seed % 7]

    table = standings(players, results, byes, tiebreaks, round=last)

    ranks = [r.rank for r in table.rows]
    assert ranks[0] == 1
    assert ranks == sorted(ranks)
    assert all(rank <= index for index, rank in enumerate(ranks, start=1))
    counted = [r for r in results if not r.voided]
    assert sum(r.net for r in table.rows) == sum(sum(r.net) for r in counted) == 0
    given_points = sum(sum(r.points) for r in counted) + sum(b.points for b in byes)
    assert sum(r.points for r in table.rows) == pytest.approx(given_points)
    assert sum(r.played for r in table.rows) == sum(len(r.players) for r in results)
    for number in range(1, last + 1):
        before = standings(players, results, byes, (), round=number - 1)
        after = standings(players, results, byes, (), round=number)
        in_round = [r for r in counted if r.round == number]
        round_points = sum(sum(r.points) for r in in_round)
        round_points += sum(b.points for b in byes if b.round == number)
        gained = sum(r.points for r in after.rows) - sum(r.points for r in before.rows)
        assert gained == pytest.approx(round_points)
