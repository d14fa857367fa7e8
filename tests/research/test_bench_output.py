"""The bench's printed overheads: the median of the same-round ratios, with their range."""

from __future__ import annotations

from parlour.research.bench import _legend, _overhead


def test_an_overhead_is_the_median_same_round_ratio_with_its_range() -> None:
    # same-round ratios - 1: 100%, -50%, 100%; the medians of the rates (200 / 150) would
    # say 33%, which is why the legend warns that the two differ
    rates = {"engine": [100.0, 200.0, 300.0], "zoo": [50.0, 400.0, 150.0]}
    assert _overhead(rates, "engine", "zoo") == "100% [-50% to 100%]"
    rates = {"engine": [120.0, 100.0, 150.0, 90.0, 110.0], "zoo": [100.0] * 5}
    assert _overhead(rates, "engine", "zoo") == "10% [-10% to 50%]"


def test_the_legend_says_what_the_figures_are() -> None:
    legend = _legend()
    assert "median of the 5 same-round ratios" in legend
    assert "engine rate / wrapper rate - 1" in legend and "Load average" in legend
