"""The bench's printed overheads and ratios: the median of the same-round ratios, with a 95%
confidence interval of that median."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from parlour.research.bench import _legend, _overhead, _ratio, median_interval


def _below(n: int, j: int) -> float:
    """P(Binomial(n, 1/2) < j)."""
    return sum(math.comb(n, i) for i in range(j)) / 2**n


def test_the_median_interval_is_the_binomial_order_statistics() -> None:
    # n = 40: P(B < 14) = 0.0192 <= 0.025 < P(B < 15) = 0.0403, so the 14th and 27th values
    assert _below(40, 14) <= 0.025 < _below(40, 15)
    values = [float(v) for v in range(40, 0, -1)]  # 40 .. 1, the order does not matter
    assert median_interval(values) == (14.0, 27.0)
    # n = 9: P(B < 2) = 10/512 = 0.0195, P(B < 3) = 46/512 = 0.0898: the 2nd and 8th
    assert median_interval([float(v) for v in range(1, 10)]) == (2.0, 8.0)
    # n = 5: even the extremes cover only 1 - 2/32 = 93.75% < 95%: the whole range
    assert median_interval([3.0, 1.0, 2.0, 5.0, 4.0]) == (1.0, 5.0)
    assert median_interval([7.0]) == (7.0, 7.0)
    # at 50% the interval narrows: n = 9, P(B < 4) = 0.254 > 0.25, P(B < 3) = 0.0898
    assert median_interval([float(v) for v in range(1, 10)], 0.5) == (3.0, 7.0)
    with pytest.raises(ValueError):
        median_interval([])


def test_an_overhead_is_the_median_same_round_ratio_with_its_interval() -> None:
    # same-round ratios - 1: 100%, -50%, 100%; the medians of the rates (200 / 150) would
    # say 33%, which is why the legend warns that the two differ
    rates = {"engine": [100.0, 200.0, 300.0], "zoo": [50.0, 400.0, 150.0]}
    assert _overhead(rates, "engine", "zoo") == "100% [-50% to 100%]"
    # nine rounds: overheads 10% .. 90%, median 50%, interval the 2nd and 8th
    rates = {"engine": [100.0 + 10 * k for k in range(1, 10)], "zoo": [100.0] * 9}
    assert _overhead(rates, "engine", "zoo") == "50% [20% to 80%]"
    rates = {"fast": [830.0, 810.0, 860.0, 820.0, 850.0, 830.0], "gin": [100.0] * 6}
    assert _ratio(rates, "fast", "gin") == "8.3x [8.1-8.6x]"


def test_the_legend_says_what_the_figures_are() -> None:
    legend = _legend()
    assert "median of the 40 same-round ratios" in legend
    assert "95% confidence interval" in legend
    assert "engine rate / wrapper rate - 1" in legend and "Load average" in legend


def test_the_median_interval_refuses_nan_and_a_level_outside_0_to_1() -> None:
    # sorted() leaves a NaN where it was: [1, nan, 3, 2, 0.5, 7, 4, 9] gave (1.0, 9.0), an
    # interval that misses the smallest value 0.5 (without the NaN, 8 values: the whole range)
    nan = float("nan")
    for values in ([nan], [1.0, nan, 3.0, 2.0, 0.5, 7.0, 4.0, 9.0], [nan, *map(float, range(8))]):
        with pytest.raises(ValueError, match="NaN"):
            median_interval(values)
    # a level of 1 or more (or 0 or less, or NaN) has no interval: 1.0 gave the whole range,
    # which covers the median with probability 1 - 2 / 2**40, and 0.0 the middle two values
    forty = [float(v) for v in range(40)]
    for level in (1.0, 1.5, 0.0, -1.0, nan):
        with pytest.raises(ValueError, match="level"):
            median_interval(forty, level)
    # just under 1: P(B < 1) = 2**-40 > (1 - level) / 2 = 2**-41, no j: the whole range
    assert median_interval(forty, 1 - 2**-40) == (0.0, 39.0)


def _exact(n: int, level: float) -> int:
    """The largest j with P(Binomial(n, 1/2) < j) <= (1 - level) / 2 in exact fractions
    (0: none), j at most n // 2."""
    tail, below, j = (1 - Fraction(level)) / 2, 0, 0
    while j < n // 2:
        below += math.comb(n, j)
        if Fraction(below, 2**n) > tail:
            break
        j += 1
    return j


def test_the_median_interval_agrees_with_exact_binomial_tails() -> None:
    # levels with dyadic tails (0.5, 0.75, 0.875) hit P(B < j) == tail exactly: n = 2 at 50%
    # is P(B < 1) = 1/4 = tail, so j = 1
    assert _exact(2, 0.5) == 1 and _exact(5, 0.95) == 0 and _exact(6, 0.95) == 1
    assert _exact(40, 0.95) == 14 and _exact(9, 0.95) == 2
    for level in (0.5, 0.75, 0.875, 0.9, 0.95, 0.99):
        for n in range(1, 121):
            values = [float(v) for v in range(n, 0, -1)]  # value v is the v-th smallest
            j = _exact(n, level)
            expected = (1.0, float(n)) if j == 0 else (float(j), float(n + 1 - j))
            assert median_interval(values, level) == expected, (n, level)
    # ties: the order statistics themselves, equal or not
    assert median_interval([2.0] * 40) == (2.0, 2.0)
    assert median_interval([1.0] * 20 + [2.0] * 20) == (1.0, 2.0)
