"""The coordinate search of hard's parameters (parlour_tools.rummy_tune)."""

from __future__ import annotations

from parlour_tools.rummy_paired import paired_margins, player
from parlour_tools.rummy_tune import main, margins, mean_error, tune
from tests.tools.conftest import UsageError


def test_mean_and_standard_error() -> None:
    # mean 2; sample deviation 1 (values 1, 2, 3); error 1 / sqrt(3)
    mean, error = mean_error([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert abs(error - 3**-0.5) < 1e-12


def test_a_candidate_is_played_against_hard_on_the_same_deals() -> None:
    assert margins({}, 3, 1) == [0.0, 0.0, 0.0]  # hard against itself
    held = margins({"hold": 3}, 5, 2)
    assert held == paired_margins(player('hard{"hold": 3}'), player("hard"), 5, 2)
    assert any(held)


def test_only_a_clear_gain_moves_the_search() -> None:
    # hard's own value is skipped; a bar no gain can pass keeps hard's settings
    assert tune({"hold": (0,)}, 4, 1, 2.0, 1) == {}
    assert tune({"hold": (0, 3)}, 6, 1, 1e9, 1) == {}


def test_bad_arguments_are_usage_errors_before_any_deal(usage_error: UsageError) -> None:
    cases = {
        ("--deals", "0"): "--deals and --passes must be at least 1",
        ("--passes", "0"): "--deals and --passes must be at least 1",
        ("--bar", "-1"): "--bar must be a number of at least 0, not -1.0",
        ("--bar", "nan"): "--bar must be a number of at least 0, not nan",
        ("--only", "reach,nope"): "--only: unknown parameter 'nope'",
        ("--start", "[1]"): "--start: settings must be a JSON object, not [1]",
        ("--start", "{bad"): "--start: settings are not JSON (Expecting property name",
        # read as an arena reads settings: no traceback for what Python's reader refuses
        ("--start", '{"hold": ' + "[" * 100_000 + "]" * 100_000 + "}"): "nested too deep",
        ("--start", '{"hold": 1' + "0" * 5000 + "}"): "a number of too many digits",
        ("--start", '{"nope": 1}'): "--start: unknown setting 'nope'",
        ("--start", '{"hold": 3, "hold": 0}'): "--start: 'hold' given twice in the settings",
        ("--start", '{"hold": -1}'): "hold must be a whole number of at least 0, not -1",
        ("--start", '{"reach": "far"}'): "--start: hard: reach",
    }
    for argv, message in cases.items():
        assert message in usage_error(main, list(argv)), argv
