"""``parlour replay``: the scoreboard of a record, whatever its players are called."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.engine.records import read_record

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return str(path)


def example() -> dict[str, Any]:
    record: dict[str, Any] = read_record(EXAMPLES / "ten-thousand.json")
    return copy.deepcopy(record)


def test_names_are_shown_as_written_never_as_markup(tmp_path: Path) -> None:
    record = example()
    record["players"] = ["[/]", "[bold]x[/bold]", "cpu:reckless"]
    result = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.output
    assert "[/] (winner)" in result.output and "[bold]x[/bold]" in result.output


def test_the_winner_is_marked_by_seat_not_by_name(tmp_path: Path) -> None:
    record = example()  # seat 0 wins with 10,200; seat 1 has 7,650
    record["players"] = ["cpu:cautious", "cpu:cautious", "cpu:reckless"]
    result = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "cpu:cautious" in line]
    assert len(lines) == 2
    assert "(winner)" in lines[0] and "(winner)" not in lines[1]


def test_an_error_naming_bracketed_text_shows_it(tmp_path: Path) -> None:
    record = example()
    record["result"] = {"scores": [float("nan"), 1, 2], "winners": [0]}  # NaN in the file
    result = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert result.exit_code == 2
    assert "{'scores': [nan, 1, 2], 'winners': [0]}" in result.output.replace("\n", "")


def test_a_record_whose_players_are_not_names_is_refused(tmp_path: Path) -> None:
    record = example()
    record["players"] = [1, 2, 3]
    result = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert result.exit_code == 2
    assert "'players' must be names" in result.output
