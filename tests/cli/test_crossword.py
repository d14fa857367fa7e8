"""``parlour bench crossword-lexicon``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli.main import app

runner = CliRunner()


def test_bench_lexicon_json(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\nzax\n", encoding="utf-8")
    out = runner.invoke(
        app, ["bench", "crossword-lexicon", "--lexicon", str(words), "--repeats", "1", "--json"]
    )
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    assert figures["words"] == 3 and figures["cold_seconds"] > 0 and figures["cache_bytes"] > 0


def test_bench_lexicon_refuses_a_bad_list(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("1\n2\n", encoding="utf-8")
    out = runner.invoke(app, ["bench", "crossword-lexicon", "--lexicon", str(words)])
    assert out.exit_code == 2 and "no usable words" in out.output


def test_play_crossword_refuses_bad_input_before_starting(tmp_path: Path) -> None:
    out = runner.invoke(app, ["play", "crossword", "--players", "ann"])
    assert out.exit_code == 2 and "takes 2-4 players, not 1" in out.output
    out = runner.invoke(app, ["play", "crossword", "--players", "ann,cpu"])
    assert out.exit_code == 2 and "no computer players yet" in out.output
    out = runner.invoke(app, ["play", "crossword"])
    assert out.exit_code == 2 and "give the players" in out.output
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n", encoding="utf-8")
    out = runner.invoke(app, ["play", "crossword", "--players", "a,b", "--lexicon", str(bad)])
    assert out.exit_code == 2 and "no usable words" in out.output
    out = runner.invoke(app, ["play", "crossword", "--resume"])
    assert out.exit_code == 2 and "no saved crossword game" in out.output
