"""A player's page (docs/API.md "Pages": ``/players/{id}/``): his ratings with their charts, his
recent play, his tournaments and places, head to head; what a reader may not read is not there."""

from __future__ import annotations

import random
import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.demo import sample_tables
from games.play import services
from games.store import folding
from games.store.models import Match, MatchSeat, Player, Stream, TournamentEntry
from games.tournaments import creating, rounds
from games.tournaments import entries as entering
from scoring.models import RatingPoint
from tests.api_seed import SHEET
from tests.games.pages.browsing import check_page
from tests.games.tournaments.helpers import HL_WIN

LENIENT = {"sheet_entry_validation": "lenient"}


@dataclass(frozen=True)
class Evening:
    ann: Player
    cid: Player
    won: uuid.UUID
    lost: uuid.UUID
    table: uuid.UUID
    private: uuid.UUID
    game: uuid.UUID
    cup: uuid.UUID
    hidden_cup: uuid.UUID
    ann_user: Any
    director: Any
    keeper: Any


def sheet(names: list[str], lines: list[list[int]], user: Any, public: bool = True) -> uuid.UUID:
    """A Scarney Singles match entered from its sheet, line by line."""
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": name} for name in names],
        entry="sheet",
        ruleset=LENIENT,
        user=user,
    )
    if not public:
        Stream.objects.filter(pk=match.pk).update(is_public=False)
    for scores in lines:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": scores},
            user=user,
        )
    return match.pk


def dice_game(names: list[str], user: Any, seed: int) -> uuid.UUID:
    """A game of Straight Scarney Dice outside any match, played to its end."""
    game = services.game_start(
        kind="straight-scarney-dice", seats=[{"name": n} for n in names], user=user
    )
    rng = random.Random(seed)
    while (stream := Stream.objects.get(pk=game.pk)).status == Stream.Status.IN_PROGRESS:
        move = sample_tables.next_move(folding.load(stream), rng)
        assert move is not None
        services.event_record(
            stream_id=game.pk, event_id=uuid.uuid4(), type=move[0], data=move[1], user=user
        )
    return game.pk


def cup(director: Any, name: str, published: bool, entries: list[dict[str, str]]) -> uuid.UUID:
    """A Swiss High-Low tournament of two rounds, its first played: the first seat of each
    table wins (three games of 34 - 0)."""
    made = creating.tournament_create(
        spec={
            "name": name,
            "format": "high-low-scarney",
            "system": "swiss",
            "entry": "sheet",
            "rounds": 2,
            "published": published,
        },
        user=director,
    )
    for spec in entries:
        entering.entry_add(tournament_id=made.pk, spec=spec, user=director)
    rounds.round_pair(tournament_id=made.pk, tables=None, seed=1, user=director)
    for match in Match.objects.filter(tournament_id=made.pk):
        for _ in range(3):
            services.event_record(
                stream_id=match.pk,
                event_id=uuid.uuid4(),
                type="game.scored",
                data={"scores": HL_WIN},
                user=director,
            )
    return made.pk


def make_evening(capture: Any) -> Evening:
    """Ann (member M-0017, her own account) won, lost and came second at a table in public,
    played a dice game and a tournament; with Cid she played only privately."""
    users = get_user_model().objects
    director = users.create_user(username="director", password="pw", is_staff=True)
    keeper = users.create_user(username="keeper", password="pw")
    ann_user = users.create_user(username="ann", password="pw")
    with capture(execute=True):  # a match settles on commit, as the outbox sends it
        won = sheet(["Ann", "Bob"], [[30, 10]] * 5, keeper)
        lost = sheet(["Ann", "Bob"], [[10, 30]] * 5, keeper)
        table = sheet(["Dee", "Ann", "Bob"], SHEET, keeper)
        private = sheet(["Ann", "Cid"], [[30, 10]] * 5, keeper, public=False)
    game = dice_game(["Ann", "Bob"], keeper, seed=3)
    Player.objects.filter(name="Ann").update(member_number="M-0017", user=ann_user)
    with capture(execute=True):
        entries = [{"name": "Ann", "label": "Ann S."}, {"name": "Bob"}, {"name": "Dee"}]
        public_cup = cup(
            director, "Tuesday club evening", True, entries + [{"name": "Eve"}, {"name": "Gus"}]
        )
        hidden_cup = cup(director, "Directors' trial", False, entries + [{"name": "Fay"}])
    return Evening(
        ann=Player.objects.get(name="Ann"),
        cid=Player.objects.get(name="Cid"),
        won=won,
        lost=lost,
        table=table,
        private=private,
        game=game,
        cup=public_cup,
        hidden_cup=hidden_cup,
        ann_user=ann_user,
        director=director,
        keeper=keeper,
    )


@pytest.fixture
def evening(db: Any, django_capture_on_commit_callbacks: Any) -> Evening:
    return make_evening(django_capture_on_commit_callbacks)


def client_of(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_of(client: Client, player: Player) -> str:
    answer = client.get(f"/players/{player.pk}/")
    assert answer.status_code == 200, answer.content[:400]
    return answer.content.decode()


def section(html: str, role: str) -> str:
    """The element of ``data-role`` (a list, or a section of the page), as far as its end."""
    found = re.search(rf'<(ul|section)[^>]*data-role="{role}".*?</\1>', html, re.S)
    assert found, f"no {role}"
    return found.group(0)


def text_of(html: str) -> str:
    """What a reader reads of ``html``: its text, without tags, spaces run together."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def row_of(recent: str, stream: uuid.UUID) -> str:
    found = re.search(rf'data-id="{stream}".*?</li>', recent, re.S)
    assert found, f"no row of {stream}"
    return text_of("<" + found.group(0))


def kind_of(html: str, kind: str) -> str:
    found = re.search(rf'<article[^>]*data-kind="{kind}".*?</article>', html, re.S)
    assert found, f"no {kind}"
    return found.group(0)


def test_a_player_page_lists_his_play_newest_first_each_linked_with_its_result(
    evening: Evening,
) -> None:
    html = page_of(client_of(), evening.ann)
    recent = section(html, "recent")
    ids = re.findall(r'data-id="([0-9a-f-]+)"', recent)
    # newest first (the tournaments' matches came last), the private match absent
    ours = [str(evening.game), str(evening.table), str(evening.lost), str(evening.won)]
    assert [played for played in ids if played in ours] == ours
    assert str(evening.private) not in ids
    assert f'href="/matches/{evening.won}/"' in recent
    assert f'href="/games/{evening.game}/"' in recent
    assert "Scarney Singles match" in recent and "Straight Scarney Dice game" in recent
    assert "Won 250 – 50 · v Bob" in row_of(recent, evening.won)
    assert "Lost 50 – 250 · v Bob" in row_of(recent, evening.lost)
    # a table of three: his place, not "lost" (Dee 128, Ann 208, Bob 213 and the match bonus)
    assert "2nd of 3 208 points · v Dee, Bob" in row_of(recent, evening.table)
    assert re.search(r"(Won|Lost|Drawn) \d+ – \d+ · v Bob", row_of(recent, evening.game))
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', recent)


def test_the_rating_per_game_shows_number_deviation_results_provisional_and_its_chart(
    evening: Evening,
) -> None:
    html = page_of(client_of(), evening.ann)
    singles = kind_of(section(html, "ratings"), "scarney-singles")
    rating = evening.ann.ratings.get(kind="scarney-singles")
    assert f'<span class="rating-number">{rating.rating}</span>' in singles
    assert f"± {rating.deviation}" in singles
    assert f"{rating.games} results counted" in singles
    assert rating.provisional and 'data-role="provisional">Provisional<' in singles
    # the chart: one point per result whose play the reader may see (the private match counts
    # in the rating, but its point would say when it was played and how it went), titled,
    # described, its axes named
    assert singles.count('class="point"') == rating.games - 1
    assert 'aria-labelledby="rating-scarney-singles-svg-title rating-scarney-singles-svg-desc"' in (
        singles
    )
    assert '<title id="rating-scarney-singles-svg-title">Rating after each result</title>' in (
        singles
    )
    last_shown = (
        RatingPoint.objects.filter(
            player=evening.ann, kind="scarney-singles", result__stream__is_public=True
        )
        .order_by("position")
        .last()
    )
    assert last_shown is not None and f"to {last_shown.rating}; lowest" in singles
    assert ">Result</text>" in singles and ">Rating</text>" in singles
    # the tournament's game is rated too, Solitaire-free kinds only; the dice game's kind too
    assert 'data-kind="high-low-scarney"' in html and 'data-kind="straight-scarney-dice"' in html


def test_tournaments_show_his_label_and_place_from_the_standings(evening: Evening) -> None:
    html = page_of(client_of(), evening.ann)
    listed = section(html, "tournaments")
    assert f'href="/tournaments/{evening.cup}/"' in listed
    assert '<q data-role="label">Ann S.</q>' in listed
    assert re.search(
        r'data-role="place">\d(st|nd|rd|th) of 5, [01] points? after round 1 of 2<', listed
    )
    # the unpublished tournament is not the visitor's to read
    assert str(evening.hidden_cup) not in html
    # its director sees it
    assert str(evening.hidden_cup) in page_of(client_of(evening.director), evening.ann)


def test_head_to_head_counts_public_meetings_and_links_each_opponent(evening: Evening) -> None:
    html = page_of(client_of(), evening.ann)
    h2h = section(html, "head-to-head")
    bob = Player.objects.get(name="Bob")
    assert f'<a href="/players/{bob.pk}/">Bob</a>' in h2h
    singles = re.search(r'<table[^>]*data-kind="scarney-singles">.*?</table>', h2h, re.S)
    assert singles
    row = re.search(rf'data-opponent="{bob.pk}">.*?</tr>', singles.group(0))
    assert row
    # met three times in singles (two matches and the table): counted as the stats count them
    assert re.findall(r"<td>(\d+)</td>", row.group(0))[0] == "3"


def test_private_play_is_absent_for_a_visitor_and_shown_to_its_keeper(evening: Evening) -> None:
    visitor = page_of(client_of(), evening.ann)
    assert str(evening.private) not in visitor and "Cid" not in visitor
    keeper = page_of(client_of(evening.keeper), evening.ann)
    assert f'href="/matches/{evening.private}/"' in keeper and "Cid" in keeper


def test_a_player_only_of_private_play_is_404_to_a_visitor_and_an_unknown_one_to_all(
    evening: Evening,
) -> None:
    assert client_of().get(f"/players/{evening.cid.pk}/").status_code == 404
    assert client_of(evening.keeper).get(f"/players/{evening.cid.pk}/").status_code == 200
    assert client_of().get("/players/999999/").status_code == 404
    assert client_of(evening.director).get(f"/players/{2**70}/").status_code == 404


def test_the_member_number_is_shown_to_the_player_himself_and_directors_only(
    evening: Evening,
) -> None:
    assert "M-0017" in page_of(client_of(evening.ann_user), evening.ann)
    assert "M-0017" in page_of(client_of(evening.director), evening.ann)
    assert "M-0017" not in page_of(client_of(evening.keeper), evening.ann)
    assert "M-0017" not in page_of(client_of(), evening.ann)


def test_the_tournament_standings_link_each_player_whose_page_the_reader_may_open(
    evening: Evening,
) -> None:
    # given five entrants: four played round 1, one had the bye (no finished play of his own)
    seated = set(
        MatchSeat.objects.filter(match__tournament_id=evening.cup).values_list("player", flat=True)
    )
    entrants = dict(
        TournamentEntry.objects.filter(tournament_id=evening.cup).values_list(
            "player", "player__name"
        )
    )
    (bye,) = set(entrants) - seated

    # when a visitor reads the tournament
    html = client_of().get(f"/tournaments/{evening.cup}/").content.decode()

    # then each player who played links to his page, the one a visitor may not open does not
    assert f'<a href="/players/{evening.ann.pk}/">Ann S.</a>' in html
    assert all(f'href="/players/{player}/"' in html for player in seated)
    assert f'href="/players/{bye}/"' not in html and entrants[bye] in html
    assert client_of().get(f"/players/{bye}/").status_code == 404
    # with a login every player is there to open
    logged_in = client_of(evening.keeper).get(f"/tournaments/{evening.cup}/").content.decode()
    assert f'href="/players/{bye}/"' in logged_in


def test_the_player_page_at_a_phone_and_a_desktop_is_accessible_and_shot(
    transactional_db: Any,
    django_capture_on_commit_callbacks: Any,
    page: Any,
    live_server: Any,
    axe_script: str,
) -> None:
    made = make_evening(django_capture_on_commit_callbacks)
    # more singles, so the chart has a line to read: Ann wins four more of five against Bob
    for number in range(5):
        sheet(["Ann", "Bob"], [[30, 10] if number != 2 else [10, 30]] * 5, made.keeper)
    client = Client()
    client.force_login(made.ann_user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    page.goto(f"/players/{made.ann.pk}/")
    assert page.locator('[data-role="member-number"]').inner_text() == "M-0017"
    chart = page.locator('[data-kind="scarney-singles"] [data-role="chart"]')
    rating = made.ann.ratings.get(kind="scarney-singles")
    # the private match (not hers to list: she neither made nor keeps it) counts, unshown
    assert rating.games == 9 and chart.locator(".point").count() == 8
    check_page(page, axe_script, "player-page")
    # no axe violation at all at the phone's width, whatever its impact
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
    )
    assert violations == []


def test_a_namesakes_page_is_headed_with_his_label(db: Any) -> None:
    """Two Pats in one tournament: each one's page is headed as the standings show him."""
    director = get_user_model().objects.create_user(username="dora", password="pw", is_staff=True)
    made = creating.tournament_create(
        spec={"name": "Club night", "format": "high-low-scarney", "system": "swiss", "rounds": 1},
        user=director,
    )
    pats = [services_player("Pat", "M-1"), services_player("Pat", "M-2")]
    for pat in pats:
        entering.entry_add(tournament_id=made.pk, spec={"player": pat.pk}, user=director)
    labels = folding.load(Stream.objects.get(pk=made.pk)).state.labels()
    assert sorted(labels[p.pk] for p in pats) == ["Pat (1)", "Pat (2)"]
    for pat in pats:
        html = page_of(client_of(director), pat)
        assert f'<h1 id="player-title" class="game-title">{labels[pat.pk]}</h1>' in html
        assert f"<title>{labels[pat.pk]} · Scarney Scorekeeper</title>" in html
    # a player without a namesake is headed with his name
    solo = services_player("Kim", None)
    assert '<h1 id="player-title" class="game-title">Kim</h1>' in page_of(client_of(director), solo)


def services_player(name: str, member_number: str | None) -> Player:
    return Player.objects.create(name=name, member_number=member_number)
