"""A season's counting, pure (games/tournaments/core/season/counting.py, API.md "Seasons"),
checked against standings worked out by hand."""

from __future__ import annotations

from games.tournaments.core.season.counting import Evening, evening_points, placed, standings
from games.tournaments.core.season.state import FIELD

A, B, C, D, E = 1, 2, 3, 4, 5


def evening(number: int, places: dict[int, int], field: int | None = None) -> Evening:
    return Evening(
        f"t{number}", f"Evening {number}", f"2027-01-0{number}", places, field or len(places)
    )


def table(rows: tuple) -> list[tuple[int, int, float]]:  # type: ignore[type-arg]
    return [(row.place, row.player, row.points) for row in rows]


def test_a_players_best_two_of_three_evenings_count_and_the_third_is_shown_uncounted() -> None:
    # given three evenings: of 4, of 3, of 4 ("field": n - place + 1)
    first = evening(1, {A: 1, B: 2, C: 3, D: 4})  # A 4, B 3, C 2, D 1
    second = evening(2, {B: 1, A: 2, C: 3})  # B 3, A 2, C 1
    third = evening(3, {C: 1, A: 2, B: 3, D: 4})  # C 4, A 3, B 2, D 1
    # when the season counts each player's best two
    rows = standings([first, second, third], FIELD, 2)
    # then A has 4 + 3; B 3 + 3 and C 4 + 2 tie on 6, each with one evening won, and B is
    # ahead on the points of every evening (8 to 7); D's two evenings both count
    assert table(rows) == [(1, A, 7.0), (2, B, 6.0), (3, C, 6.0), (4, D, 2.0)]
    ann = rows[0]
    assert [(r.tournament, r.points, r.counted) for r in ann.results] == [
        ("t1", 4.0, True),
        ("t2", 2.0, False),
        ("t3", 3.0, True),
    ]
    assert (ann.evenings, ann.counted, ann.won, ann.all_points) == (3, 2, 1, 9.0)
    # of evenings of equal points the earlier counts: B's 3 and 3, not his 2
    assert [r.counted for r in rows[1].results] == [True, True, False]
    assert (rows[1].all_points, rows[2].all_points) == (8.0, 7.0)


def test_without_a_limit_every_evening_counts() -> None:
    rows = standings([evening(1, {A: 1, B: 2}), evening(2, {B: 1, A: 2})], FIELD, None)
    assert [(r.points, r.counted) for r in rows] == [(3.0, 2), (3.0, 2)]


def test_players_sharing_a_place_under_field_share_the_points_of_the_places_they_cover() -> None:
    # given an evening of eight where two share second place
    places = {A: 1, B: 2, C: 2, D: 4, E: 5, 6: 6, 7: 7, 8: 8}
    # then they share 7 and 6 (6.5 each); fourth keeps 5
    points = evening_points(evening(1, places), FIELD)
    assert points == {A: 8, B: 6.5, C: 6.5, D: 5, E: 4, 6: 3, 7: 2, 8: 1}


def test_a_by_place_table_gives_nothing_past_its_end_and_a_shared_place_crossing_it_shares() -> (
    None
):
    # given the table 10, 8, 6 and an evening of five where two share third
    places = {A: 1, B: 2, C: 3, D: 3, E: 5}
    # then the two cover 3rd and 4th: (6 + 0) / 2 each; fifth is past the table: 0
    points = evening_points(evening(1, places), [10, 8, 6])
    assert points == {A: 10, B: 8, C: 3, D: 3, E: 0}
    rows = standings([evening(1, places)], [10, 8, 6], None)
    # C and D are level on everything: they share third, and E is fifth
    assert table(rows) == [(1, A, 10.0), (2, B, 8.0), (3, C, 3.0), (3, D, 3.0), (5, E, 0.0)]


def test_level_players_are_ranked_by_evenings_won_before_the_points_of_every_evening() -> None:
    # given P (1) who won a small evening, and Q (2) second in two larger ones, best 1 counting
    P, Q, X, Y, Z = 1, 2, 3, 4, 5
    evenings = [
        evening(1, {P: 1, X: 2}),  # P 2, X 1
        evening(2, {Y: 1, Q: 2, Z: 3}),  # Y 3, Q 2, Z 1
        evening(3, {Y: 1, Q: 2, Z: 3}),
    ]
    rows = standings(evenings, FIELD, 1)
    # then P and Q count 2 each: P won an evening, Q none, so P is ahead although Q's evenings
    # give him 4 in all; Z and X count 1 each, Z ahead on the points of every evening (2 to 1)
    assert table(rows) == [(1, Y, 3.0), (2, P, 2.0), (3, Q, 2.0), (4, Z, 1.0), (5, X, 1.0)]
    assert [(r.won, r.all_points) for r in rows[1:3]] == [(1, 2.0), (0, 4.0)]


def test_players_level_on_points_wins_and_every_evenings_points_share_their_place() -> None:
    evenings = [evening(1, {A: 1, B: 2}), evening(2, {B: 1, A: 2}), evening(3, {C: 1})]
    rows = standings(evenings, FIELD, None)
    # A and B: 3 points, one win, 3 in all each: they share first; C is third
    assert table(rows) == [(1, A, 3.0), (1, B, 3.0), (3, C, 1.0)]


def test_a_player_absent_from_an_evening_has_no_result_for_it() -> None:
    rows = standings([evening(1, {A: 1, B: 2}), evening(2, {A: 1})], FIELD, 2)
    bob = next(r for r in rows if r.player == B)
    assert [r.tournament for r in bob.results] == ["t1"] and bob.evenings == 1


def test_an_evenings_field_is_placed_among_itself_not_among_the_whole_table() -> None:
    # given an evening's table of five whose 3rd (an entrant who withdrew before playing, on
    # nothing at all) ranks above a player who played, lost and has a negative difference, and
    # whose 1st and 4th entries turned out to be one player, merged
    ranks = {A: 1, B: 2, D: 4, E: 5}  # C, ranked 3rd, never played: not in the field
    merged = {A: 1, B: 2, E: 5}  # D merged into A: A keeps his better rank
    # when each is placed among the field
    # then the places close up: nobody is 5th of 4, or 4th of 3
    assert placed(ranks) == {A: 1, B: 2, D: 3, E: 4}
    assert placed(merged) == {A: 1, B: 2, E: 3}
    # and players sharing a rank share the place
    assert placed({A: 1, B: 1, D: 4, E: 4}) == {A: 1, B: 1, D: 3, E: 3}


def test_a_by_place_table_of_decimals_counts_exactly() -> None:
    # given a table 1, 0.3, 0.2, 0.1: A is 3rd and 4th (0.2 + 0.1), B 2nd once (0.3)
    first = evening(1, {D: 1, B: 2, A: 3, E: 4})
    second = evening(2, {D: 1, E: 2, C: 3, A: 4})
    # when the season counts every evening
    rows = {row.player: row for row in standings([first, second], [1, 0.3, 0.2, 0.1], None)}
    # then A and B are level on 0.3 (not 0.30000000000000004 against 0.3) and share the place
    assert rows[A].points == rows[B].points == 0.3
    assert rows[A].place == rows[B].place
