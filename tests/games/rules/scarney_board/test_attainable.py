"""Attainable Solitaire totals (RULES.md Appendix C.1)."""

from games.rules.scarney_board.solitaire import attainable_totals

PRINTED = (
    "1–37, 49, 52–59, 61–68, 70–78, 80–84, 86–88, 90–98, 100, 102, 104, 106, 108, 110–117, "
    "130–134, 150–154, 170, 190"
)


def printed_set() -> frozenset[int]:
    values: set[int] = set()
    for part in PRINTED.split(", "):
        low, _, high = part.partition("–")
        values.update(range(int(low), int(high or low) + 1))
    return frozenset(values)


def test_the_attainable_totals_are_exactly_the_printed_set() -> None:
    assert attainable_totals() == printed_set()


def test_nothing_between_38_and_48_nor_above_190_nor_0_is_attainable() -> None:
    assert not attainable_totals() & set(range(38, 49))
    assert max(attainable_totals()) == 190
    assert 0 not in attainable_totals()
