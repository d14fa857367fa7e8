"""``--help`` as a new user reads it: a flag shows no value type (it takes none)."""

from __future__ import annotations

import itertools
from typing import Any

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


# --- every command's help at 80 columns ------------------------------------------------

WIDTH = 80


def _commands() -> list[list[str]]:
    """Every command and group of ``parlour``, as argument lists (the root is ``[]``)."""
    import typer

    found: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        found.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            if not sub.hidden:
                walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


def _text_of(line: str) -> tuple[str, int] | None:
    """A help line's text and the width it may fill: inside a panel's borders, or the
    description above the panels; ``None`` for other lines (rules, the usage line)."""
    line = line.rstrip()
    if line.startswith("│") and line.endswith("│"):
        return line[1:-1], WIDTH - 2
    if line.startswith(" ") and not line.lstrip().startswith(("Usage:", "╭", "╰")):
        return line, WIDTH
    return None


def hard_breaks(output: str) -> list[tuple[str, str]]:
    """Pairs of lines where a sentence breaks although the next word would have fitted on
    the first line: a line break of the source, not the terminal's wrapping."""
    found = []
    lines = output.split("\n")
    for first, second in itertools.pairwise(lines):
        a, b = _text_of(first), _text_of(second)
        if a is None or b is None or a[1] != b[1] or not a[0].strip() or not b[0].strip():
            continue
        (text_a, width), text_b = a, b[0]
        column = len(text_b) - len(text_b.lstrip())
        if len(text_a) - len(text_a.lstrip()) > column:
            continue  # the second line starts a new row (an option's name)
        ending = text_a[column:].rstrip()
        if not ending or ending.endswith((".", ":", ";", "?", "]")):
            continue
        if text_b.lstrip().startswith(("-", "[")):
            continue  # an option or a default, each on its own line
        word = text_b.split()[0]
        if len(ending) + 1 + len(word) <= width - column - 1:
            found.append((first.rstrip(), second.rstrip()))
    return found


def test_the_break_finder_finds_a_source_line_break() -> None:
    broken = (
        "│ analyse    Look back at a finished Crossword game: for each turn, the best   │\n"
        "│            play there was and the                                            │\n"
        "│            points left on the table.                                         │"
    )
    assert hard_breaks(broken) == [tuple(broken.split("\n")[1:])]
    wrapped = (
        "│ analyse    Look back at a finished game. A game with a coach (the dice       │\n"
        "│            games): each decision's chance of winning lost against the best   │\n"
        "│            choice, and each player's biggest mistakes. Crossword: for each   │"
    )
    assert hard_breaks(wrapped) == []


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "parlour")
def test_every_help_wraps_at_80_columns_and_shows_no_bool(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert "``" not in result.output  # a docstring's literal is shown 'quoted'
    assert max(len(line) for line in result.output.splitlines()) <= WIDTH
    assert hard_breaks(result.output) == []
    assert "…" not in result.output  # no option name or word cut short to fit a column


def test_the_command_list_reads_as_sentences_at_80_columns() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": str(WIDTH)})
    assert (
        "│ analyse    Look back at a finished game. A game with a coach (the dice       │\n"
        "│            games): each decision's chance of winning lost against the best   │\n"
        "│            choice, and each player's biggest mistakes. Crossword: for each   │"
    ) in result.output


def test_a_docstring_literal_is_shown_quoted() -> None:
    result = CliRunner().invoke(app, ["door", "--help"], env={"COLUMNS": str(WIDTH)})
    assert "each session its own program ('ssh -p 8622 name@host')." in result.output


def test_serve_keeps_the_earlier_option_names_hidden() -> None:
    """``serve``'s one-sided flags leave room for whole names at 80 columns; the names
    scripts used before still parse, and are not shown."""
    import typer

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    args = ["--access-log", "--notifications", "--max-signups-per-address", "3"]
    params = serve.make_context("serve", args).params
    assert params["no_access_log"] is False and params["no_notifications"] is False
    assert params["_max_signups_per_address"] == 3 and params["max_signups"] == 10
    params = serve.make_context("serve", ["--no-access-log", "--max-signups", "0"]).params
    assert params["no_access_log"] is True and params["max_signups"] == 0
    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--no-access-log" in shown and "--max-signups " in shown
    assert "--max-signups-per-address" not in shown and "--access-log " not in shown
    assert "--no-secure-cookie" not in shown  # a flag that is off unless given
