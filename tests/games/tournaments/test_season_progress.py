"""A season's points after each evening (counting.progress), for the chart of its leaders,
computed by hand: best-N applied to the evenings so far, shared places sharing their points."""

from __future__ import annotations

from games.tournaments.core.season.counting import Evening, progress, standings

ANN, BOB, CID, DEE = 1, 2, 3, 4
# Three evenings: Cid misses the second; Bob and Dee share 3rd of 4 in the third.
EVENINGS = [
    Evening("e1", "Evening 1", "2027-01-05", {ANN: 1, BOB: 2, CID: 3}, 3),
    Evening("e2", "Evening 2", "2027-01-12", {BOB: 1, ANN: 2}, 2),
    Evening("e3", "Evening 3", "2027-01-19", {CID: 1, ANN: 2, BOB: 3, DEE: 3}, 4),
]


def test_field_points_after_each_evening_count_each_players_best_two_so_far() -> None:
    # field points: e1 Ann 3, Bob 2, Cid 1; e2 Bob 2, Ann 1; e3 Cid 4, Ann 3, Bob and Dee
    # share 3rd and 4th (2 + 1) / 2 = 1.5
    lines = progress(EVENINGS, "field", 2, [ANN, BOB, CID])
    assert lines == {
        ANN: [3.0, 4.0, 6.0],  # 3; 3 + 1; best two of 3, 1, 3
        BOB: [2.0, 4.0, 4.0],  # 2; 2 + 2; the 1.5 is not among his best two
        CID: [1.0, 1.0, 5.0],  # absent from e2: his points stay
    }


def test_without_a_limit_every_evening_so_far_counts() -> None:
    lines = progress(EVENINGS, "field", None, [ANN, BOB, CID, DEE])
    assert lines == {
        ANN: [3.0, 4.0, 7.0],
        BOB: [2.0, 4.0, 5.5],
        CID: [1.0, 1.0, 5.0],
        DEE: [0.0, 0.0, 1.5],  # before his first evening he has none
    }


def test_a_points_table_with_best_one_keeps_only_the_best_evening_so_far() -> None:
    # by place 10, 6, 4 and 0 past it: e3's shared 3rd and 4th give (4 + 0) / 2 = 2
    lines = progress(EVENINGS, [10, 6, 4], 1, [ANN, BOB, CID, DEE])
    assert lines == {
        ANN: [10.0, 10.0, 10.0],
        BOB: [6.0, 10.0, 10.0],
        CID: [4.0, 4.0, 10.0],
        DEE: [0.0, 0.0, 2.0],
    }


def test_the_last_point_of_each_line_is_the_players_season_points() -> None:
    rows = standings(EVENINGS, "field", 2)
    lines = progress(EVENINGS, "field", 2, [row.player for row in rows])
    assert {row.player: row.points for row in rows} == {p: line[-1] for p, line in lines.items()}


def test_no_evening_gives_empty_lines() -> None:
    assert progress([], "field", 2, [ANN]) == {ANN: []}
