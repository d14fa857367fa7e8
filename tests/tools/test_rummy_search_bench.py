"""Think time of the Rummy search (parlour_tools.rummy_search_bench): its arguments."""

from __future__ import annotations

import re

import pytest

from parlour_tools.rummy_search_bench import main, positions
from tests.tools.conftest import UsageError


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # each was a traceback (a zero slice step, a division by zero) or, for a negative
        # --every, the positions silently taken backwards
        (["--every", "0"], "--every must be at least 1"),
        (["--every", "-1"], "--every must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        # refused before the baselines are measured
        (["--width", "0"], "width must be a whole number of at least 1, not 0"),
        (["--simulations", "-1"], "simulations must be a whole number of at least 1, not -1"),
        (["--held", "-1"], "held must be a whole number of at least 0, not -1"),
    ],
)
def test_bad_arguments_are_argument_errors(
    argv: list[str], words: str, usage_error: UsageError
) -> None:
    assert words in usage_error(main, argv)


def test_every_decision_measured_is_counted_once(capsys: pytest.CaptureFixture[str]) -> None:
    found = positions(1, 40, 1)
    main(["--games", "1", "--every", "40", "--simulations", "4"])
    out = capsys.readouterr().out
    counts = [int(n) for n in re.findall(r"^\w+: (\d+) decisions", out, re.MULTILINE)]
    assert sum(counts) == len(found) > 1
    assert f"({len(found)} measured)" in out


def test_searched_draws_are_counted_as_searched(capsys: pytest.CaptureFixture[str]) -> None:
    # with --draws every draw with a discard to take is searched: more searched decisions
    argv = ["--games", "1", "--every", "20", "--simulations", "4", "--base", "expert"]
    searched = []
    for extra in ([], ["--draws", "--held", "3"]):
        main([*argv, *extra])
        out = capsys.readouterr().out
        found = re.search(r"^searched: (\d+) decisions", out, re.MULTILINE)
        searched.append(int(found.group(1)) if found else 0)
    assert searched[1] > searched[0]
