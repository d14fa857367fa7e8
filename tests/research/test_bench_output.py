"""The bench's printed overheads and ratios: the median of the same-round ratios, with a 95%
confidence interval of that median."""

from __future__ import annotations

import math

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
