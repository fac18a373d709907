"""Tontine (RULES.md 17): groups and values, last-played claims, the hand result for three and
four players, the required base game, and the game of hands closed by match.ended."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from games.rules.base import Move, fold_states
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL, PACK
from games.rules.tarot.tontine import (
    GROUP_VALUES,
    SIDE_TARGET,
    THREE_PLAYER_SHARE,
    TONTINE_MATCH,
    TONTINE_RULES,
    TOTAL,
    State,
    group_of,
    group_owners,
    hand_result,
    last_played,
    seat_points,
    side_result,
    tontine_value,
)

RULES = TONTINE_RULES
SCARTO = {"base_game": "scarto"}


def act(state: State, type: str, **data: Any) -> State:
    return RULES.apply(state, Move(type, data))


def refusal(state: State, type: str, **data: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        RULES.apply(state, Move(type, data))
    return caught.value


def trick(state: State, played: list[str], winner: int) -> State:
    """Play ``played`` from the seat on lead clockwise, then record the winner."""
    for card in played:
        state = act(state, "card.played", seat=state.table.to_play, card=card)
    return act(state, "trick.won", winner=winner)


def test_the_groups_carry_111_points_so_37_each_of_three_and_56_wins_for_a_side() -> None:
    assert GROUP_VALUES == {
        "kings": 20,
        "queens": 16,
        "cavaliers": 12,
        "jacks": 8,
        "honours": 15,
        "pips_s": 10,
        "pips_b": 10,
        "pips_c": 10,
        "pips_d": 10,
    }
    assert TOTAL == 111 and THREE_PLAYER_SHARE == 37 == 111 // 3 and SIDE_TARGET == 56
    assert SIDE_TARGET == 111 // 2 + 1  # more than half


def test_group_values_add_up_from_the_individual_tontine_values() -> None:
    for group, value in GROUP_VALUES.items():
        members = [c for c in cards.CONFERENCE_PACK if group_of(c) == group]
        assert sum(tontine_value(c) for c in members) == value
    assert tontine_value("As") == 1 and tontine_value("T1") == 5 and tontine_value("T7") == 0
    assert tontine_value("GOOD") == 0 and group_of("GOOD") is None and group_of("T20") is None
    assert sum(1 for c in PACK if group_of(c)) == 16 + 3 + 40


def test_base_game_is_required_and_must_be_a_known_game_d_tar_3() -> None:
    with pytest.raises(BadSetup) as caught:
        RULES.initial_state({}, {}, 3)
    assert caught.value.code == "ruleset.base_game_required"
    with pytest.raises(BadRuleset):
        RULES.initial_state({}, {"base_game": "tarot"}, 3)
    assert RULES.initial_state({}, {"base_game": "tarocchi"}, 3).ruleset.base_game == "tarocchi"
    with pytest.raises(BadSetup):
        TONTINE_MATCH.initial_state({}, 3)


def test_the_last_card_of_a_group_scores_only_if_claimed() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["Ks", "2s", "3s"], winner=0)
    state = act(state, "card.claimed", seat=0, card="Ks")
    state = trick(state, ["4s", "Kb", "5s"], winner=1)  # leader 0: seat 1 plays Kb
    assert group_owners(state)["kings"] == {"card": "Kb", "seat": None, "value": 20}
    state = act(state, "card.claimed", seat=1, card="Kb")
    assert group_owners(state)["kings"]["seat"] == 1
    # Ks was turned down by the later King: it no longer counts.
    assert seat_points(state) == [0, 20, 0]
    assert last_played(state)["pips_s"] == "5s"  # later position in the same trick (D-TON-1)


def test_claims_are_refused_for_cards_not_won_or_outside_the_groups() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["Ks", "T5", "3s"], winner=1)
    assert refusal(state, "card.claimed", seat=0, card="Ks").code == "claim.not_won"
    assert refusal(state, "card.claimed", seat=1, card="Qs").code == "claim.not_won"
    assert refusal(state, "card.claimed", seat=1, card="T5").code == "claim.not_group_card"
    state = act(state, "card.claimed", seat=1, card="Ks")
    assert refusal(state, "card.claimed", seat=1, card="Ks").code == "claim.already_made"
    assert refusal(state, "card.claimed", seat=1, card="Zz").code == "card.unknown"


def test_the_fool_may_be_claimed_by_the_tricks_winner_or_its_player() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["Ks", FOOL, "3s"], winner=0)
    assert refusal(state, "card.claimed", seat=2, card=FOOL).code == "claim.not_won"
    assert act(state, "card.claimed", seat=1, card=FOOL).claims == ((1, FOOL),)
    assert act(state, "card.claimed", seat=0, card=FOOL).claims == ((0, FOOL),)


def test_a_card_is_claimed_only_as_its_trick_is_won_d_ton_6() -> None:
    """RULES.md 17.3, D-TON-6: a claim is accepted only between trick.won and the next card
    played, and only for cards of that trick; a claim of an earlier trick's card is too late."""
    state = RULES.initial_state({}, SCARTO, 3)
    state = act(state, "cards.dealt", hands=[["Kd", "2s"], ["3s", "4s"], ["5s", "6s"]])
    state = trick(state, ["Kd", "3s", "5s"], winner=0)  # Kd not claimed
    state = trick(state, ["2s", "4s", "6s"], winner=1)
    late = refusal(state, "card.claimed", seat=0, card="Kd")
    assert late.code == "claim.too_late" and "Kd (King of d)" in late.message
    assert late.data == {"card": "Kd", "seat": 0}
    assert Move("card.claimed", {"seat": 0, "card": "Kd"}) not in (RULES.legal_events(state) or [])
    state = act(state, "hand.ended")
    assert seat_points(state) == [0, 0, 0]
    # Without hands: once the next card is played, the last trick's cards cannot be claimed.
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["Ks", "2s", "3s"], winner=0)
    assert RULES.expected(state) == ["card.played", "card.claimed", "hand.ended"]
    state = act(state, "card.played", seat=0, card="4s")
    assert RULES.expected(state) == ["card.played"]
    assert refusal(state, "card.claimed", seat=0, card="Ks").code == "claim.too_late"
    assert refusal(state, "card.claimed", seat=0, card="4s").code == "claim.not_won"


def test_the_fool_is_claimed_by_the_winner_or_its_player_as_the_trick_is_won_d_ton_7() -> None:
    """D-TON-7: either the trick's winner or the Fool's player may claim the Fool (the base
    game's excuse rules decide where it goes); the claimer scores the Honours, and the claim is
    made as the trick is won (D-TON-6)."""
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["T1", "T21", "2s"], winner=1)
    state = trick(state, ["Ks", FOOL, "3s"], winner=1)  # seat 1 leads, seat 2 plays the Fool
    by_player = act(state, "card.claimed", seat=2, card=FOOL)
    assert act(by_player, "hand.ended").claims == ((2, FOOL),)
    assert seat_points(act(by_player, "hand.ended")) == [0, 0, 15]
    by_winner = act(state, "card.claimed", seat=1, card=FOOL)
    assert seat_points(act(by_winner, "hand.ended")) == [0, 15, 0]
    assert refusal(by_winner, "card.claimed", seat=2, card=FOOL).code == "claim.already_made"
    assert refusal(state, "card.claimed", seat=0, card=FOOL).code == "claim.not_won"
    later = act(state, "card.played", seat=1, card="4s")
    assert refusal(later, "card.claimed", seat=2, card=FOOL).code == "claim.too_late"


def test_an_unplayed_group_card_never_scores_but_the_group_goes_with_its_last_played() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = act(state, "cards.discarded", seat=0, cards=["Kd"])
    state = trick(state, ["Ks", "Kb", "Kc"], winner=2)
    state = act(state, "card.claimed", seat=2, card="Kc")
    assert refusal(state, "card.claimed", seat=0, card="Kd").code == "claim.not_won"
    state = act(state, "hand.ended")
    assert seat_points(state) == [0, 0, 20]


def test_three_players_score_points_less_37_even_below_zero_d_ton_2() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = trick(state, ["Ks", "Kb", "Kc"], winner=2)
    state = act(state, "card.claimed", seat=2, card="Kc")
    state = trick(state, ["Qs", "Qb", "Qc"], winner=0)  # nobody claims: nobody scores
    state = act(state, "hand.ended")
    assert hand_result(state) == [-37, -37, 20 - 37]
    assert sum(hand_result(state) or []) == 20 - 111  # the unclaimed shortfall is lost
    assert [s.total for s in RULES.scores(state)] == [-37, -37, -17]
    result = RULES.result(state)
    assert result is not None and result.winners == (2,)
    assert refusal(state, "card.played", seat=0, card="2s").code == "game.over"


def test_a_fully_claimed_three_player_hand_sums_to_zero() -> None:
    rng = random.Random(7)
    pack = list(PACK)
    rng.shuffle(pack)
    state = RULES.initial_state({}, SCARTO, 3)
    state = act(state, "cards.dealt", hands=[pack[0:26], pack[26:52], pack[52:78]])
    while not RULES.is_terminal(state):
        moves = RULES.legal_events(state)
        assert moves
        claims = [m for m in moves if m.type == "card.claimed"]
        state = RULES.apply(state, claims[0] if claims else rng.choice(moves))
    assert sum(seat_points(state)) == 111
    assert sum(hand_result(state) or []) == 0
    assert RULES.expected(state) == [] and RULES.legal_events(state) == []


def test_with_hands_recorded_the_last_tricks_claims_come_before_hand_ended() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    state = act(state, "cards.dealt", hands=[["Ks"], ["Kb"], ["2s"]])
    state = trick(state, ["Ks", "Kb", "2s"], winner=0)
    assert not RULES.is_terminal(state)
    assert RULES.legal_events(state) == [
        Move("card.claimed", {"seat": 0, "card": "Ks"}),
        Move("card.claimed", {"seat": 0, "card": "Kb"}),
        Move("card.claimed", {"seat": 0, "card": "2s"}),
        Move("hand.ended", {}),
    ]
    state = act(state, "card.claimed", seat=0, card="Kb")
    state = act(act(state, "card.claimed", seat=0, card="2s"), "hand.ended")
    assert RULES.is_terminal(state) and seat_points(state) == [30, 0, 0]


def test_four_players_side_with_56_wins_the_difference_d_ton_4() -> None:
    assert side_result([40, 10, 20, 41], "no_score") == [9, -9, 9, -9]
    assert side_result([50, 0, 10, 30], "no_score") == [30, -30, 30, -30]  # 60 v 30, not 60-56
    assert side_result([0, 56, 0, 0], "no_score") == [-56, 56, -56, 56]


def test_four_players_with_no_side_at_56_score_nothing_by_default_d_ton_3() -> None:
    assert side_result([30, 20, 20, 10], "no_score") == [0, 0, 0, 0]
    assert side_result([30, 20, 20, 10], "higher_side_wins_difference") == [20, -20, 20, -20]
    assert side_result([25, 25, 25, 25], "higher_side_wins_difference") == [0, 0, 0, 0]
    state = RULES.initial_state(
        {}, {**SCARTO, "tontine4_below_56": "higher_side_wins_difference"}, 4
    )
    state = trick(state, ["Ks", "Kb", "Kc", "Kd"], winner=1)
    state = act(state, "card.claimed", seat=1, card="Kd")
    state = act(state, "hand.ended")
    assert hand_result(state) == [-20, 20, -20, 20]


def test_other_player_counts_get_points_but_no_result_d_ton_5() -> None:
    state = RULES.initial_state({}, SCARTO, 5)
    state = trick(state, ["Ks", "Kb", "Kc", "Kd", "2s"], winner=4)
    state = act(state, "card.claimed", seat=4, card="Kd")
    state = act(state, "hand.ended")
    assert hand_result(state) is None
    assert [s.total for s in RULES.scores(state)] == [0, 0, 0, 0, 20]


def test_conference_adds_good_and_evil_as_plain_trumps_worth_nothing() -> None:
    state = RULES.initial_state({}, {"base_game": "conference"}, 3)
    state = trick(state, ["GOOD", "EVIL", "T21"], winner=2)
    assert refusal(state, "card.claimed", seat=2, card="GOOD").code == "claim.not_group_card"
    scarto = RULES.initial_state({}, SCARTO, 3)
    assert refusal(scarto, "card.played", seat=0, card="GOOD").code == "card.unknown"


def test_hand_end_and_deal_rules_of_recording_mode() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    assert refusal(state, "hand.ended").code == "hand.not_over"
    state = act(state, "card.played", seat=0, card="2s")
    assert refusal(state, "cards.dealt", hands=[[], [], []]).code == "deal.too_late"
    assert refusal(state, "card.played", seat=0, card="3s").code == "play.not_your_turn"
    assert refusal(state, "card.played", seat=1, card="2s").code == "card.already_played"
    assert RULES.expected(state) == ["card.played", *([])]
    assert RULES.legal_events(state) is None  # hands not recorded


def test_undo_takes_back_a_claim() -> None:
    start = RULES.initial_state({}, SCARTO, 3)
    moves = [
        Move("card.played", {"seat": s, "card": c}) for s, c in ((0, "Ks"), (1, "2s"), (2, "3s"))
    ]
    moves += [Move("trick.won", {"winner": 0}), Move("card.claimed", {"seat": 0, "card": "Ks"})]
    states = fold_states(RULES, start, [*moves, Move("move.undone", {})])
    assert states[-1].claims == () and states[-1] == fold_states(RULES, start, moves[:-1])[-1]


def test_malformed_data_is_refused() -> None:
    state = RULES.initial_state({}, SCARTO, 3)
    for data in (
        {},
        {"seat": "0", "card": "Ks"},
        {"seat": 0, "card": 5},
    ):
        assert refusal(state, "card.played", **data).code == "event.bad_data"
    assert refusal(state, "card.played", seat=9, card="Ks").code == "seat.unknown"
    assert refusal(state, "bogus").code == "event.unknown_type"


# --- the game of hands --------------------------------------------------------------------------


def finished(scores: list[int]) -> Move:
    return Move("game.finished", {"game": str(uuid.uuid4()), "scores": scores})


def test_a_three_player_game_settles_in_game_points_that_may_sum_below_zero() -> None:
    match = TONTINE_MATCH
    state = match.initial_state(SCARTO, 3)
    with pytest.raises(IllegalEvent) as caught:
        match.apply(state, Move("match.ended", {}))
    assert caught.value.code == "match.no_games"
    state = match.apply(state, finished([10, -27, 17]))
    state = match.apply(state, finished([-37, 0, 30]))
    assert not match.is_complete(state)
    state = match.apply(state, Move("match.ended", {}))
    assert match.is_complete(state)
    assert match.settlement(state) == {
        "payments": [],
        "nets": [-27, -27, 47],
        "game_points": [-27, -27, 47],
    }
    assert match.standing(state)[0]["seat"] == 2


def test_a_four_player_game_settles_by_side_difference() -> None:
    match = TONTINE_MATCH
    state = match.initial_state(SCARTO, 4)
    state = match.apply(state, finished([9, -9, 9, -9]))
    state = match.apply(state, finished([-30, 30, -30, 30]))
    state = match.apply(state, Move("match.ended", {}))
    settlement = match.settlement(state)
    assert settlement["nets"] == [-21, 21, -21, 21]
    assert settlement["payments"] == [
        {"from": 0, "to": 1, "points": 21},
        {"from": 2, "to": 3, "points": 21},
    ]


def test_four_players_sit_in_fixed_sides() -> None:
    assert TONTINE_MATCH.initial_state(SCARTO, 4).teams == ((0, 2), (1, 3))
    assert TONTINE_MATCH.initial_state(SCARTO, 4, [[1, 3], [2, 0]]).teams == ((0, 2), (1, 3))
    for teams in ([[0, 1], [2, 3]], "x", [[0, 2]]):
        with pytest.raises(BadSetup) as caught:
            TONTINE_MATCH.initial_state(SCARTO, 4, teams)
        assert caught.value.code == "match.bad_teams"
    with pytest.raises(BadSetup):
        TONTINE_MATCH.initial_state(SCARTO, 3, [[0, 2], [1]])


def test_sheet_hands_must_be_possible_results() -> None:
    match = TONTINE_MATCH
    three = match.initial_state(SCARTO, 3)
    with pytest.raises(IllegalEvent) as caught:
        match.apply(three, Move("game.scored", {"scores": [-38, 0, 0]}))
    assert caught.value.code == "score.unattainable"
    assert match.apply(three, Move("game.scored", {"scores": [-37, 37, 0]})).entries
    four = match.initial_state(SCARTO, 4)
    with pytest.raises(IllegalEvent):
        match.apply(four, Move("game.scored", {"scores": [5, -5, 4, -4]}))
    assert match.apply(four, Move("game.scored", {"scores": [5, -5, 5, -5]})).entries


def test_with_hands_recorded_the_expected_events_after_the_last_trick_end_the_hand() -> None:
    """RULES.md 17.3: claims of the last trick, then the hand ends; with every card played, no
    card.played is expected and hand.ended is (the view's ``expected`` matches legal_events)."""
    state = RULES.initial_state({}, SCARTO, 3)
    state = act(state, "cards.dealt", hands=[["Ks"], ["Kb"], ["2s"]])
    state = trick(state, ["Ks", "Kb", "2s"], winner=0)
    assert RULES.expected(state) == ["card.claimed", "hand.ended"]
    assert {m.type for m in RULES.legal_events(state) or []} == set(RULES.expected(state))


def test_sheet_hand_results_must_come_from_the_group_values() -> None:
    """RULES.md 0.6 and 17.2-17.4: a sheet result is checked against what the rules allow. Points
    are sums of whole groups (20, 16, 12, 8, 15 and four 10s), so a three-player result of
    points 1 (1 - 37 = -36), 82, or two players at 16 are impossible; four players win the side
    difference only with 56 or more (D-TON-3), so +-2 (56 v 54 would leave 1 point unclaimed)
    is not."""
    match = TONTINE_MATCH
    three = match.initial_state(SCARTO, 3)
    for scores in ([-36, -37, -37], [-37, -37, 45], [16 - 37, 16 - 37, -37]):
        with pytest.raises(IllegalEvent) as caught:
            match.apply(three, Move("game.scored", {"scores": scores}))
        assert caught.value.code == "score.unattainable"
    # 20 + 16 = 36, 15 + 12 + 10 = 37, 8 + 10 + 10 + 10 = 38: all 111 claimed.
    assert match.apply(three, Move("game.scored", {"scores": [-1, 0, 1]})).entries
    four = match.initial_state(SCARTO, 4)
    for d in (2, 111 - 1):
        with pytest.raises(IllegalEvent):
            match.apply(four, Move("game.scored", {"scores": [d, -d, d, -d]}))
    assert match.apply(four, Move("game.scored", {"scores": [1, -1, 1, -1]})).entries  # 56 v 55
    # A difference of 10 needs 56-60 v 46-50 with 1-9 unclaimed (no group is under 8, and 103
    # is odd): by default only 30 v 20 would give it, and that scores nothing; the house rule
    # (higher side wins the difference) allows it, and 20 v 18 for 2.
    low = [10, -10, 10, -10]
    with pytest.raises(IllegalEvent):
        match.apply(four, Move("game.scored", {"scores": low}))
    higher = match.initial_state({**SCARTO, "tontine4_below_56": "higher_side_wins_difference"}, 4)
    assert match.apply(higher, Move("game.scored", {"scores": low})).entries
    assert match.apply(higher, Move("game.scored", {"scores": [2, -2, 2, -2]})).entries
