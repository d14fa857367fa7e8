"""Combining seeded arena chunks (``parlour_tools.arena_chunks``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour_tools.arena_chunks import combine, main
from tests.tools.conftest import UsageError


def run(seed: int, wins: float, games: int, tournament: tuple[float, float] | None = None) -> dict:
    """A two-bot arena result as ``parlour arena --json`` prints it (the figures used)."""
    first = {"name": "optimal", "games": games, "wins": wins, "points": 500 * games}
    second = {"name": "strong", "games": games, "wins": games - wins, "points": 400 * games}
    first["turns"] = second["turns"] = 10.0 * games
    if tournament is not None:
        first["tournament"], first["tournament_sq"] = tournament
        second["tournament"], second["tournament_sq"] = 0.0, 0.0
    return {"game": "dice", "seed": seed, "games": games, "seconds": 2.0, "bots": [first, second]}


def test_chunks_add_up_to_one_run() -> None:
    out = combine([run(1, 30.5, 50), run(2, 19.5, 50)])
    assert out["games"] == 100 and out["seeds"] == [1, 2] and out["seconds"] == 4.0
    optimal = out["bots"][0]
    assert optimal["wins"] == 50.0 and optimal["win_rate"] == 0.5
    assert optimal["ci95"] == pytest.approx([0.404, 0.596], abs=5e-4)  # Wilson, 50 of 100
    assert optimal["points_per_turn"] == 50.0


def test_tournament_points_per_game_with_the_arenas_interval() -> None:
    # per-game values 0, 2, 4, 6 in two chunks: mean 3, sample variance 20/3, half-width
    # 1.96 * sqrt(20 / 3 / 4) = 2.5303
    out = combine([run(1, 1, 2, (2.0, 4.0)), run(2, 1, 2, (10.0, 52.0))])
    optimal = out["bots"][0]
    assert optimal["tournament_per_game"] == 3.0
    assert optimal["tournament_ci95"] == pytest.approx([3 - 2.5303, 3 + 2.5303], abs=1e-4)


def test_a_seed_twice_or_other_players_are_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        combine([run(1, 1, 2), run(1, 1, 2)])
    other = run(2, 1, 2)
    other["bots"][1]["name"] = "steady"
    with pytest.raises(ValueError, match="other players"):
        combine([run(1, 1, 2), other])
    with pytest.raises(ValueError, match="no arena runs"):
        combine([])


def test_the_command_reads_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (1, 2):
        (tmp_path / f"seed-{seed}.json").write_text(json.dumps(run(seed, 10, 20)))
    main([str(tmp_path / "*.json")])
    assert json.loads(capsys.readouterr().out)["bots"][0]["games"] == 40


def test_the_command_refuses_bad_files_with_a_usage_error(
    tmp_path: Path, usage_error: UsageError
) -> None:
    # each was a traceback: ValueError (no runs, a seed twice), KeyError, JSONDecodeError
    assert "no file matches" in usage_error(main, [str(tmp_path / "none-*.json")])
    (tmp_path / "empty.json").write_text("{}")
    err = usage_error(main, [str(tmp_path / "empty.json")])
    assert "empty.json: not an arena's JSON (parlour arena GAME ... --json)" in err
    (tmp_path / "text.json").write_text("x")
    assert "text.json: cannot be read as JSON (Expecting value" in usage_error(
        main, [str(tmp_path / "text.json")]
    )
    for name in ("a", "b"):
        (tmp_path / f"{name}.run").write_text(json.dumps(run(1, 10, 20)))
    assert "a seed appears twice: [1, 1]" in usage_error(main, [str(tmp_path / "*.run")])
