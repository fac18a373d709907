"""The evening's settlement: each player's net over his matches, paid with the fewest transfers.

A player's net in a match is what he receives minus what he pays (RULES.md 0.8); over an evening
the nets of his matches are summed (``evening_nets``), and instead of settling match by match
the room pays the sums (``fewest_transfers``).

Fewest transfers: n non-zero balances split into g disjoint groups that each sum to zero can be
paid with n - g transfers (a group of m with m - 1), and no fewer, so the least number of
transfers is n minus the largest number of zero-sum groups. That number is found exactly by a
bitmask search over subsets up to ``EXACT_LIMIT`` non-zero balances; above that (a room rarely
has so many), exact opposites are paired first and then the largest debtor pays the largest
creditor, which is not always minimal.

Chips left in a pot: when the nets do not sum to zero, the surplus on the heavier side cannot be
paid by anyone present. ``payable`` takes it off that side's balances, the smallest first (so
that as many of them as possible fall to zero), and the transfers pay the rest; ``left_in_pot``
says how many chips that leaves (negative when the pot paid out more than it took in).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from games.tournaments.core.standings import TableResult

EXACT_LIMIT = 16

Transfer = tuple[int, int, int]  # (payer, payee, amount)


def evening_nets(results: Sequence[TableResult]) -> dict[int, int]:
    """Each player's net summed over his matches; voided tables count nothing, as in standings."""
    nets: defaultdict[int, int] = defaultdict(int)
    for result in results:
        for player, net in zip(result.players, result.net, strict=True):
            nets[player] += 0 if result.voided else net
    return dict(sorted(nets.items()))


def left_in_pot(nets: Mapping[int, int]) -> int:
    """Chips paid in that no player received (negative: received that no player paid)."""
    return -sum(nets.values())


def payable(nets: Mapping[int, int]) -> dict[int, int]:
    """The part of the nets that players can pay each other: it sums to zero.

    The surplus is taken off the heavier side (the payers when chips stayed in the pot), from
    the smallest balance up; ties in size by player id.
    """
    surplus = sum(nets.values())
    balances = dict(nets)
    sign = 1 if surplus > 0 else -1
    heavy = sorted((p for p, n in nets.items() if n * sign > 0), key=lambda p: (abs(nets[p]), p))
    left = abs(surplus)
    for player in heavy:
        if not left:
            break
        taken = min(left, abs(balances[player]))
        balances[player] -= sign * taken
        left -= taken
    return balances


def fewest_transfers(nets: Mapping[int, int]) -> list[Transfer]:
    """(payer, payee, amount) transfers that pay every net, as few as can be, sorted.

    Nets that do not sum to zero are first reduced to their ``payable`` part; the difference is
    ``left_in_pot``.
    """
    balances = payable(nets)
    players = sorted(p for p, n in balances.items() if n)
    if len(players) > EXACT_LIMIT:
        return sorted(_settle_opposites_then_greedy({p: balances[p] for p in players}))
    transfers = []
    for group in _zero_sum_groups([balances[p] for p in players]):
        transfers += _settle({players[i]: balances[players[i]] for i in group})
    return sorted(transfers)


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The indexes of ``values`` (summing to zero) split into the most zero-sum groups.

    best[mask] is the most zero-sum prefixes any ordering of the subset ``mask`` has; for a
    zero-sum mask it is the most zero-sum groups the subset splits into. Walking back from the
    full set, each subset whose sum is zero closes a group.
    """
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + values[low]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        best[mask] += total[mask] == 0
    return _walk_back(full, n, total, best)


def _walk_back(full: int, n: int, total: list[int], best: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        gain = total[mask] == 0
        if gain and current:
            groups.append(current)
            current = []
        i = next(
            i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] + gain == best[mask]
        )
        current.append(i)
        mask ^= 1 << i
    if current:
        groups.append(current)
    return groups


def _settle(balances: Mapping[int, int]) -> list[Transfer]:
    """A zero-sum group paid by its largest debtor to its largest creditor, again and again.

    Every transfer clears at least one balance and the last clears two, so a group of m that
    holds no smaller zero-sum group is paid in m - 1 transfers.
    """
    left = {p: n for p, n in balances.items() if n}
    transfers = []
    while left:
        payer = min(left, key=lambda p: (left[p], p))
        payee = max(left, key=lambda p: (left[p], -p))
        amount = min(-left[payer], left[payee])
        if amount <= 0:
            raise ValueError("The balances to settle do not sum to zero.")
        transfers.append((payer, payee, amount))
        for player, change in ((payer, amount), (payee, -amount)):
            left[player] += change
            if not left[player]:
                del left[player]
    return transfers


def _settle_opposites_then_greedy(balances: Mapping[int, int]) -> list[Transfer]:
    """Too many balances for the exact search: pay exact opposites directly, then greedily."""
    transfers = []
    left = dict(balances)
    creditors: defaultdict[int, list[int]] = defaultdict(list)
    for player in sorted(left):
        if left[player] > 0:
            creditors[left[player]].append(player)
    for payer in sorted(p for p, n in balances.items() if n < 0):
        owed = -left[payer]
        if creditors[owed]:
            payee = creditors[owed].pop(0)
            transfers.append((payer, payee, owed))
            del left[payer], left[payee]
    return transfers + _settle(left)
