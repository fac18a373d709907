"""The evening's settlement of games.tournaments.core.settlement (pure, no database)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.core.settlement import (
    EXACT_LIMIT,
    evening_nets,
    fewest_transfers,
    left_in_pot,
    payable,
)
from games.tournaments.core.standings import TableResult


def paid(transfers: list[tuple[int, int, int]]) -> Counter[int]:
    """Each player's net as the transfers pay it."""
    nets: Counter[int] = Counter()
    for payer, payee, amount in transfers:
        nets[payer] -= amount
        nets[payee] += amount
    return nets


def without_zeros(nets: dict[int, int] | Counter[int]) -> dict[int, int]:
    return {p: n for p, n in nets.items() if n}


@cache
def brute_force_count(balances: tuple[int, ...]) -> int:
    """The fewest transfers by trying every debtor-creditor pair, each clearing one of the two.

    Some optimal payment has this shape (pay the smaller of the two in full), so trying them all
    finds the minimum; independent of the zero-sum-groups reasoning of the module.
    """
    left = tuple(sorted(b for b in balances if b))
    if not left:
        return 0
    best = len(left)
    for i, debt in enumerate(left):
        for j, credit in enumerate(left):
            if debt < 0 < credit:
                after = list(left)
                amount = min(-debt, credit)
                after[i] += amount
                after[j] -= amount
                best = min(best, 1 + brute_force_count(tuple(after)))
    return best


# --- evening_nets -------------------------------------------------------------------------------


def test_evening_nets_sum_each_players_matches_and_skip_voided_tables() -> None:
    results = [
        TableResult(1, 1, (1, 2), (1, 0), (60, 40), (20, -20)),
        TableResult(2, 1, (1, 3), (0, 1), (30, 45), (-15, 15)),
        TableResult(2, 2, (2, 4, 5), (1, 0.5, 0), (0, 0, 0), (12, -2, -10)),
        TableResult(3, 1, (2, 3), (1, 0), (90, 0), (90, -90), voided=True),
    ]
    assert evening_nets(results) == {1: 5, 2: -8, 3: 15, 4: -2, 5: -10}


# --- fewest_transfers ---------------------------------------------------------------------------


def test_nothing_to_pay_needs_no_transfer() -> None:
    assert fewest_transfers({}) == []
    assert fewest_transfers({1: 0, 2: 0}) == []


def test_one_debtor_pays_each_creditor() -> None:
    assert fewest_transfers({1: -30, 2: 10, 3: 20}) == [(1, 2, 10), (1, 3, 20)]


def test_two_zero_sum_pairs_are_paid_by_two_transfers_not_three() -> None:
    # greedy largest-to-largest would pay 1→3 6, 2→4 5, 1→4 1: three transfers
    nets = {1: -6, 2: -5, 3: 6, 4: 5}
    assert fewest_transfers(nets) == [(1, 3, 6), (2, 4, 5)]


def test_hidden_zero_sum_groups_are_found() -> None:
    # {1, 3, 5} and {2, 4, 6} each sum to zero: 4 transfers for 6 balances
    nets = {1: -7, 2: -9, 3: 3, 4: 4, 5: 4, 6: 5}
    transfers = fewest_transfers(nets)
    assert len(transfers) == 4
    assert without_zeros(paid(transfers)) == nets


def test_chips_left_in_the_pot_come_off_the_smallest_payers() -> None:
    # given: 1 and 2 paid 30 in all, 3 received 25: 5 chips stayed in the pot
    nets = {1: -10, 2: -20, 3: 25}

    # when / then: 1's 10 is cut to 5, and 2's 20 is paid in full
    assert left_in_pot(nets) == 5
    assert payable(nets) == {1: -5, 2: -20, 3: 25}
    assert fewest_transfers(nets) == [(1, 3, 5), (2, 3, 20)]


def test_chips_paid_out_of_the_pot_come_off_the_smallest_receivers() -> None:
    nets = {1: -10, 2: 4, 3: 8}
    assert left_in_pot(nets) == -2
    assert payable(nets) == {1: -10, 2: 2, 3: 8}
    assert fewest_transfers(nets) == [(1, 2, 2), (1, 3, 8)]


def test_a_surplus_larger_than_a_balance_clears_it_and_goes_on() -> None:
    nets = {1: -3, 2: -4, 3: 2}
    assert payable(nets) == {1: 0, 2: -2, 3: 2}
    assert fewest_transfers(nets) == [(2, 3, 2)]


def test_many_balances_fall_back_to_pairs_then_greedy() -> None:
    # 20 non-zero balances: above EXACT_LIMIT; ten exact opposites pay in ten transfers
    nets = {p: (p if p <= 10 else -(p - 10)) for p in range(1, 21)}
    assert len(without_zeros(nets)) > EXACT_LIMIT
    transfers = fewest_transfers(nets)
    assert transfers == [(p + 10, p, p) for p in range(1, 11)]


nets_lists = st.lists(st.integers(-40, 40), min_size=1, max_size=7)


@settings(max_examples=150, deadline=None)
@given(values=nets_lists)
def test_random_balanced_nets_are_paid_exactly_with_the_fewest_transfers(values: list[int]) -> None:
    # given: nets that sum to zero (the last player balances the others)
    nets = {i: v for i, v in enumerate(values)}
    nets[len(values)] = -sum(values)

    # when
    transfers = fewest_transfers(nets)

    # then
    assert without_zeros(paid(transfers)) == without_zeros(nets)
    assert all(amount > 0 and payer != payee for payer, payee, amount in transfers)
    assert transfers == sorted(transfers)
    assert len(transfers) == brute_force_count(tuple(nets.values()))


@settings(max_examples=100, deadline=None)
@given(values=nets_lists)
def test_random_unbalanced_nets_pay_all_but_the_pot(values: list[int]) -> None:
    nets = {i: v for i, v in enumerate(values)}
    part = payable(nets)
    transfers = fewest_transfers(nets)
    assert sum(part.values()) == 0
    assert without_zeros(paid(transfers)) == without_zeros(part)
    assert all(amount > 0 for _, _, amount in transfers)
    # the pot only ever shrinks a balance towards zero, never flips or grows it
    assert all(0 <= part[p] * n and abs(part[p]) <= abs(n) for p, n in nets.items())
    held_back = sum(abs(n) - abs(part[p]) for p, n in nets.items())
    assert held_back == abs(left_in_pot(nets))


@settings(max_examples=10, deadline=None)
@given(
    values=st.lists(st.integers(-1000, 1000).filter(bool), min_size=EXACT_LIMIT + 1, max_size=30)
)
def test_random_many_nets_are_paid_exactly_by_the_fallback(values: list[int]) -> None:
    nets = {i: v for i, v in enumerate(values)}
    nets[len(values)] = -sum(values)
    transfers = fewest_transfers(nets)
    assert without_zeros(paid(transfers)) == without_zeros(nets)
    assert all(amount > 0 for _, _, amount in transfers)
    assert len(transfers) < len(without_zeros(nets)) or not transfers
