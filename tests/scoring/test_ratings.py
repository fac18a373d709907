"""Ratings (scoring/ratings, docs/DESIGN.md "Ratings"): each rated result moves the ratings as
OpenSkill's Plackett-Luce model says, in the order of the events that decided the results, and
a rebuild from the events gives the same rows."""

from __future__ import annotations

import datetime as dt
import math
import random
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.demo import sample_tables
from games.play import services
from games.store import folding
from games.store.models import Player, Stream
from games.tournaments import creating, entries, results, rounds
from scoring import projections
from scoring.models import Rating, RatingPoint, RatingResult
from scoring.projections import ratings as projection
from scoring.ratings import ledger, outcomes, scale
from tests.conformance import projection_rows

pytestmark = pytest.mark.django_db

LENIENT = {"sheet_entry_validation": "lenient"}


def sheet(names: list[str], lines: list[list[int]], user: Any = None) -> uuid.UUID:
    """A Scarney Singles match entered from a sheet: five lines play it out."""
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": name} for name in names],
        entry="sheet",
        ruleset=LENIENT,
        user=user,
    )
    for scores in lines:
        line(match.pk, scores)
    return match.pk


def line(match: uuid.UUID, scores: list[int]) -> None:
    services.event_record(
        stream_id=match, event_id=uuid.uuid4(), type="game.scored", data={"scores": scores}
    )


def undo(stream: uuid.UUID) -> None:
    services.event_record(
        stream_id=stream, event_id=uuid.uuid4(), type="move.undone", data={"reason": "misread"}
    )


def rating(name: str, kind: str = "scarney-singles") -> Rating:
    return Rating.objects.get(player__name=name, kind=kind)


def play_out(game: uuid.UUID, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Random legal moves to the game's end; the moves recorded."""
    rng = random.Random(seed)
    moves = []
    while (stream := Stream.objects.get(pk=game)).status == "in_progress":
        move = sample_tables.next_move(folding.load(stream), rng)
        assert move is not None
        services.event_record(stream_id=game, event_id=uuid.uuid4(), type=move[0], data=move[1])
        moves.append(move)
    return moves


def model_after(ranks: list[int], teams: list[int] | None = None) -> list[list[Any]]:
    """What OpenSkill itself gives new players of ``teams`` sizes (one each by default)."""
    model = PlackettLuce()
    sizes = teams or [1] * len(ranks)
    return model.rate([[model.rating() for _ in range(n)] for n in sizes], ranks=ranks)


def test_a_two_player_match_moves_both_ratings_as_the_model_and_plain_arithmetic_say() -> None:
    # when Ann wins a two-player match
    sheet(["Ann", "Bob"], [[30, 10]] * 5)

    # then both ratings are OpenSkill's, with mu and sigma kept to six decimals
    (ann,), (bob,) = model_after([1, 2])
    assert (rating("Ann").mu, rating("Ann").sigma) == (round(ann.mu, 6), round(ann.sigma, 6))
    assert (rating("Bob").mu, rating("Bob").sigma) == (round(bob.mu, 6), round(bob.sigma, 6))
    # and by hand (Weng and Lin's algorithm 4, two new players): sigma grows by tau first;
    # each wins with p = 1/2, so mu moves by v/c * (1 - p); sigma^2 shrinks by gamma v/c^2 p(1-p)
    v = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * v + 2 * (25 / 6) ** 2)
    moved = v / c * 0.5
    shrink = math.sqrt(v) / c * v / c**2 * 0.25
    assert rating("Ann").mu == pytest.approx(25 + moved, abs=1e-6)
    assert rating("Bob").mu == pytest.approx(25 - moved, abs=1e-6)
    assert rating("Ann").sigma == pytest.approx(math.sqrt(v * (1 - shrink)), abs=1e-6)
    # shown on the 1500 scale: 30 a unit of mu, the deviation likewise
    assert (rating("Ann").rating, rating("Bob").rating) == (1579, 1421)
    assert rating("Ann").deviation == rating("Bob").deviation == 242
    assert rating("Ann").games == 1 and rating("Ann").provisional


def test_a_table_of_four_rates_each_player_by_his_place_and_equal_places_tie() -> None:
    # when four play one match: Ann first, Bob and Cid level, Dee last
    match = sheet(["Ann", "Bob", "Cid", "Dee"], [[30, 10, 10, 5]] * 5)

    # then the result is the standing's places, and each rating the model's
    result = RatingResult.objects.get(pk=match)
    ids = [Player.objects.get(name=n).pk for n in ["Ann", "Bob", "Cid", "Dee"]]
    assert result.sides == [[p] for p in ids] and result.ranks == [1, 2, 2, 4]
    after = model_after([1, 2, 2, 4])
    for name, (expected,) in zip(["Ann", "Bob", "Cid", "Dee"], after, strict=True):
        assert rating(name).mu == round(expected.mu, 6)
        assert rating(name).sigma == round(expected.sigma, 6)
    assert rating("Bob").rating == rating("Cid").rating
    assert rating("Ann").rating > rating("Bob").rating > rating("Dee").rating


def test_a_partnership_is_one_side_and_partners_move_together() -> None:
    # given a Partnership Scarney 3000 match, seats 0 and 2 against 1 and 3
    match = services.match_start(
        format="partnership-scarney-3000",
        players=[{"name": n} for n in ["Pat", "Quin", "Rae", "Sol"]],
        teams=[[0, 2], [1, 3]],
        ruleset={"s3000_target": 1000},
    )
    game = services.game_start(kind="partnership-scarney-3000", seats=None, match_id=match.pk)

    # when it is played out
    play_out(game.pk, seed=3)

    # then the result has two sides of two, and the ratings are the model's for two teams
    result = RatingResult.objects.get(pk=match.pk)
    pat, quin, rae, sol = (Player.objects.get(name=n).pk for n in ["Pat", "Quin", "Rae", "Sol"])
    assert result.sides == [[pat, rae], [quin, sol]]
    assert sorted(result.ranks) == [1, 2]
    after = model_after(result.ranks, teams=[2, 2])
    for side, rated in zip(result.sides, after, strict=True):
        for player, expected in zip(side, rated, strict=True):
            row = Rating.objects.get(player_id=player, kind="partnership-scarney-3000")
            assert (row.mu, row.sigma) == (round(expected.mu, 6), round(expected.sigma, 6))
    winners = result.sides[result.ranks.index(1)]
    assert len({r.rating for r in Rating.objects.filter(player__in=winners)}) == 1


def test_a_game_outside_a_match_counts_once_by_its_own_result() -> None:
    # when two play a game of High-Low Scarney on their own, to its end
    game = services.game_start(kind="high-low-scarney", seats=[{"name": "Ann"}, {"name": "Bob"}])
    play_out(game.pk, seed=5)

    # then it is one result of its kind, ranked as a match of that one game would rank it
    result = RatingResult.objects.get(pk=game.pk)
    assert result.kind == "high-low-scarney" and sorted(result.ranks) == [1, 2]
    assert RatingPoint.objects.filter(result=result).count() == 2
    assert rating("Ann", "high-low-scarney").games == 1


def test_solo_play_is_not_rated() -> None:
    services.match_start(format="scarney-solitaire", players=[{"name": "Mia"}])
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Mia"}])
    play_out(game.pk, seed=1)
    assert not RatingResult.objects.exists() and not Rating.objects.exists()


def test_a_match_taken_back_and_entered_again_changes_the_ratings() -> None:
    # given Ann beat Bob
    match = sheet(["Ann", "Bob"], [[30, 10]] * 5)
    assert rating("Ann").rating > rating("Bob").rating

    # when a director takes the last line back: the match is no result any more
    undo(match)
    assert not RatingResult.objects.filter(pk=match).exists()
    assert not Rating.objects.exists() and not RatingPoint.objects.exists()

    # and the line is entered again, read right this time: Bob won the match
    line(match, [10, 200])

    # then the ratings are the other way round
    assert rating("Bob").rating == 1579 and rating("Ann").rating == 1421
    rows = projection_rows()
    call_command("rebuild_projections", "--no-progress")
    assert projection_rows() == rows


def test_a_match_closed_then_taken_back_is_no_result_though_its_status_says_settled() -> None:
    # given Ann beat Bob and the match was closed (its settlement recorded)
    match = sheet(["Ann", "Bob"], [[30, 10]] * 5)
    assert services.match_close(match_id=match)
    assert Stream.objects.get(pk=match).status == "settled"
    # when a director takes back the settlement and the last line
    undo(match)
    undo(match)
    # then the match is not played out: it is no result, inline as rebuilt
    assert not RatingResult.objects.filter(pk=match).exists()
    rows = projection_rows()
    call_command("rebuild_projections", "--no-progress")
    assert projection_rows() == rows


def test_a_game_taken_back_and_recorded_again_is_rated_after_the_games_since() -> None:
    # given Ann and Bob played a game, then Bob and Cid
    first = services.game_start(kind="high-low-scarney", seats=[{"name": "Ann"}, {"name": "Bob"}])
    moves = play_out(first.pk, seed=5)
    second = services.game_start(kind="high-low-scarney", seats=[{"name": "Bob"}, {"name": "Cid"}])
    play_out(second.pk, seed=6)
    cid_before = rating("Cid", "high-low-scarney").rating

    # when the first game's last move is taken back and recorded again
    undo(first.pk)
    assert not RatingResult.objects.filter(pk=first.pk).exists()
    last_type, last_data = moves[-1]
    services.event_record(stream_id=first.pk, event_id=uuid.uuid4(), type=last_type, data=last_data)

    # then it counts after the second game: Bob met Cid as a new player, and Cid's rating moved
    first_result = RatingResult.objects.get(pk=first.pk)
    assert first_result.position > RatingResult.objects.get(pk=second.pk).position
    assert rating("Cid", "high-low-scarney").rating != cid_before
    assert rating("Cid", "high-low-scarney").rating in (1579, 1421)
    rows = projection_rows()
    call_command("rebuild_projections", "--no-progress")
    assert projection_rows() == rows


def test_the_same_events_give_the_same_rows_rebuilt_twice() -> None:
    # given results of two, of four, a partnership and a result taken back
    sheet(["Ann", "Bob"], [[30, 10]] * 5)
    sheet(["Ann", "Bob", "Cid", "Dee"], [[5, 10, 20, 30]] * 5)
    taken_back = sheet(["Bob", "Cid"], [[30, 10]] * 5)
    undo(taken_back)
    game = services.game_start(
        kind="partnership-straight-scarney-dice",
        seats=[{"name": n} for n in ["Ann", "Bob", "Cid", "Dee"]],
        setup={"teams": [[0, 2], [1, 3]]},
    )
    play_out(game.pk, seed=2)
    inline = projection_rows()
    assert len(inline["rating_results"]) == 3 and len(inline["rating_points"]) == 10

    # when everything is rebuilt from the events, twice
    call_command("rebuild_projections", "--no-progress")
    once = projection_rows()
    call_command("rebuild_projections", "--no-progress")

    # then the rows are the inline ones, the same both times
    assert once == inline
    assert projection_rows() == once


def test_results_rated_out_of_order_are_rated_again_in_the_order_of_their_events() -> None:
    # given three matches in which Bob plays each time
    sheet(["Ann", "Bob"], [[30, 10]] * 5)
    sheet(["Bob", "Cid"], [[30, 10]] * 5)
    sheet(["Cid", "Bob", "Dee"], [[5, 10, 30]] * 5)
    rows = projection_rows()
    results = projection.found_results()

    # when they arrive last first, as transactions may commit out of order
    for model in (RatingPoint, Rating, RatingResult):
        model.objects.all().delete()
    for result in reversed(results):
        ledger.record(
            stream_id=result.stream_id,
            kind=result.kind,
            outcome=outcomes.Outcome(
                result.kind,
                tuple(tuple(side) for side in result.sides),
                tuple(result.ranks),
            ),
            position=result.position,
            at=result.at,
        )

    # then each one rated again the later ones: the rows are those of the events' order
    assert projection_rows() == rows


def test_a_rating_is_provisional_until_enough_results_count(monkeypatch: Any) -> None:
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 2)
    sheet(["Ann", "Bob"], [[30, 10]] * 5)
    assert rating("Ann").provisional and rating("Ann").games == 1
    sheet(["Ann", "Bob"], [[10, 30]] * 5)
    assert not rating("Ann").provisional and rating("Ann").games == 2
    points = RatingPoint.objects.filter(player__name="Ann").order_by("position")
    assert [point.games for point in points] == [1, 2]


def evening(director: Any) -> tuple[uuid.UUID, uuid.UUID, uuid.UUID]:
    """A Swiss evening of High-Low Scarney with its first round paired: it and its two
    tables' matches."""
    made = creating.tournament_create(
        spec={"name": "Evening", "format": "high-low-scarney", "rounds": 2}, user=director
    )
    for name in ["Ann", "Bob", "Cid", "Dee"]:
        entries.entry_add(tournament_id=made.pk, spec={"name": name}, user=director)
    rounds.round_pair(tournament_id=made.pk, user=director)
    state = folding.load(Stream.objects.get(pk=made.pk)).state
    first, second = (uuid.UUID(t.match) for t in state.current.tables)
    return made.pk, first, second


def assert_rebuilt_alike() -> None:
    rows = projection_rows()
    call_command("rebuild_projections", "--no-progress")
    assert projection_rows() == rows


def test_a_voided_table_counts_for_nothing(director: Any) -> None:
    # given table 1 of an evening played out
    tournament, first, _ = evening(director)
    for _ in range(3):
        line(first, [34, 0])
    assert RatingResult.objects.filter(pk=first).exists()

    # when the director voids it
    results.correction_record(
        tournament_id=tournament,
        event_id=uuid.uuid4(),
        type="game.voided",
        data={"round": 1, "table": 1, "reason": "wrong board"},
        user=director,
    )

    # then its match counts for nothing, inline and rebuilt
    assert not RatingResult.objects.exists() and not Rating.objects.exists()
    assert_rebuilt_alike()


def test_a_match_set_aside_by_a_round_paired_again_counts_for_nothing(director: Any) -> None:
    # given table 2 played out before its result reached the tournament (its close pending)
    tournament, _, second = evening(director)
    for _ in range(3):
        line(second, [34, 0])
    assert RatingResult.objects.filter(pk=second).exists()

    # when the round is paired again
    rounds.round_repair(tournament_id=tournament, reason="late", user=director)

    # then the match set aside counts for nothing, inline and rebuilt
    assert not RatingResult.objects.filter(pk=second).exists()
    assert_rebuilt_alike()


def test_verify_events_finds_an_altered_rating() -> None:
    sheet(["Ann", "Bob"], [[30, 10]] * 5)
    assert projections.differences() == []
    Rating.objects.filter(player__name="Ann").update(rating=2000)
    found = projections.differences()
    assert len(found) == 1 and "rating is 2000" in found[0]


@pytest.fixture
def director(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="td", password="pw", is_staff=True)


# --- any order of arrival gives the rows of the events' order -----------------------------------

SIDES = st.lists(st.integers(0, 5), min_size=2, max_size=4, unique=True)
RESULTS = st.lists(
    SIDES.flatmap(
        lambda seats: st.tuples(
            st.just(seats), st.lists(st.integers(1, 3), min_size=len(seats), max_size=len(seats))
        )
    ),
    min_size=1,
    max_size=7,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results=RESULTS, data=st.data())
def test_results_in_any_order_and_any_taken_back_give_the_rows_of_the_events_order(
    results: list[tuple[list[int], list[int]]], data: Any
) -> None:
    # given results of one kind at positions 1, 2, 3 ... (each on a stream of its own)
    for model in (RatingPoint, Rating, RatingResult):
        model.objects.all().delete()
    players = [Player.objects.create(name=f"P{n}").pk for n in range(6)]
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    made = []
    for position, (seats, ranks) in enumerate(results, 1):
        stream = Stream.objects.create(category="match", kind="scarney-singles")
        sides = tuple((players[seat],) for seat in seats)
        made.append((stream.pk, outcomes.Outcome("scarney-singles", sides, tuple(ranks)), position))

    # when they arrive in any order, and some are taken back afterwards
    arrival = data.draw(st.permutations(made))
    gone = data.draw(st.sets(st.sampled_from([m[0] for m in made])))
    for stream, outcome, position in arrival:
        ledger.record(
            stream_id=stream, kind="scarney-singles", outcome=outcome, position=position, at=at
        )
    for stream, _, position in made:
        if stream in gone:
            ledger.record(
                stream_id=stream, kind="scarney-singles", outcome=None, position=position, at=at
            )

    # then the rows are those of the kept results rated in the order of their positions
    kept = [r for r in RatingResult.objects.order_by("position")]
    assert [r.stream_id for r in kept] == [m[0] for m in made if m[0] not in gone]
    rated = ledger.rate_all("scarney-singles", kept, {})
    fields = ("player_id", "result_id", "position", "mu", "sigma", "rating", "deviation", "games")
    assert sorted(tuple(getattr(p, f) for f in fields) for p in rated.points) == sorted(
        RatingPoint.objects.values_list(*fields)
    )
    expected = {
        p: ledger.rating_row(p, "scarney-singles", *found) for p, found in rated.skills.items()
    }
    stored = {r.player_id: r for r in Rating.objects.all()}
    assert stored.keys() == expected.keys()
    for player, row in expected.items():
        assert all(getattr(stored[player], f) == getattr(row, f) for f in ledger.RATING_FIELDS)


def test_a_raw_rows_time_is_read_as_the_orm_reads_it_on_either_database() -> None:
    from datetime import UTC, datetime

    from scoring.ratings import reading

    aware = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
    # PostgreSQL gives the time itself; SQLite gives text without a zone (make run's database)
    assert reading._aware(aware) == aware  # noqa: SLF001
    assert reading._aware("2026-11-27 20:00:00") == aware  # noqa: SLF001
    assert reading._aware(datetime(2026, 11, 27, 20, 0)) == aware  # noqa: SLF001
