"""``--help`` as a new user reads it: a flag shows no value type (it takes none)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from parlour.cli.main import app


@pytest.mark.parametrize(
    "command", [["games"], ["play", "crossword"], ["play"], ["saves", "list"], ["door"]]
)
def test_flags_show_no_value_type(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.output
    assert "<bool>" not in result.output  # `--json true` is refused: a flag takes no value


def test_options_with_values_still_show_their_type() -> None:
    result = CliRunner().invoke(app, ["play", "crossword", "--help"], env={"COLUMNS": "100"})
    assert "--seed" in result.output
    assert "<int>" in result.output
    assert "<str>" in result.output
