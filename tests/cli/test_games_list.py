"""``parlour games`` at the narrowest usual terminal: every option a person types is shown
whole (at 80 columns the options column cut names: ``cover_whole_word=Fa…``)."""

from __future__ import annotations

from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.engine.registry import specs


def test_every_option_name_and_default_is_whole_at_80_columns() -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.output
    for spec in specs():
        assert any(line.startswith(f"│ {spec.name} ") for line in lines), spec.name
        for name, option in spec.options.items():
            if name != "players":
                assert f"  {name} = {option.default!r}" in result.output, name


def test_each_game_says_which_level_plain_cpu_plays() -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for spec in specs():
        if spec.bot_levels:
            said = f"cpu = {spec.bot_levels[-1]}"
            assert any(said in line for line in lines), (spec.name, said)
    assert any("cpu = optimal" in line for line in lines)  # Greedy's and Ten-Thousand's
