"""Crossword computer players against each other (``parlour arena crossword``): the shared
arena (:func:`parlour.bots.arena.run_arena`, seats rotating from game to game) with the
crossword figures of :func:`parlour.games.crossword.bots.arena_measure`.

A tool, not part of the game (see :mod:`parlour_tools`): the CLI imports it when the command
runs."""

from __future__ import annotations

from typing import Any

from parlour.bots.arena import parse_levels, run_arena
from parlour.engine.registry import find, load
from parlour.games.crossword.bots import ARENA_LEVELS, arena_measure, make_bot


def run(
    players: str, *, games: int, seed: int = 0, lexicon: str = "enable", jobs: int = 1
) -> dict[str, Any]:
    """Play *games* games between the levels *players* (``"hard,medium"``) in *jobs* worker
    processes and return the figures as JSON: the arena's per-player figures (games, wins,
    win rate and its 95% interval ``ci95``, points per game, and the sums of
    :func:`~parlour.games.crossword.bots.arena_measure`) with points per play (before
    end-game adjustments), bingos and cover plays per game; and the games per second. The
    same *seed* gives the same games for any number of jobs.

    Raises :class:`~parlour.engine.errors.ParlourError` for bad levels
    (:func:`~parlour.bots.arena.parse_levels`: unknown, empty, with settings, fewer than 2
    or more than 4) or a lexicon that cannot be loaded.
    """
    levels = parse_levels(players, find("crossword"), extra=ARENA_LEVELS)
    game = load("crossword", players=len(levels), lexicon=lexicon)
    result = run_arena(
        game,
        [make_bot(level) for level in levels],
        games=games,
        seed=seed,
        labels=levels,
        measure=arena_measure,
        jobs=jobs,
    )
    out: dict[str, Any] = result.to_json()
    for figures, bot in zip(result.bots, out["bots"], strict=True):
        per_game = figures.games or 1
        bot["points_per_play"] = (
            figures.extra.get("play_points", 0.0) / figures.extra["plays"]
            if figures.extra.get("plays")
            else 0.0
        )
        bot["bingos_per_game"] = figures.extra.get("bingos", 0.0) / per_game
        bot["covers_per_game"] = figures.extra.get("covers", 0.0) / per_game
    out["game"] = "crossword"
    out["options"] = dict(game.options)
    return out
