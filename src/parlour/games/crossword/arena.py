"""Crossword computer players against each other (``parlour arena crossword``): the shared
arena (:func:`parlour.bots.arena.run_arena`, seats rotating from game to game) with the
crossword figures of :func:`~.bots.arena_measure`."""

from __future__ import annotations

from typing import Any

from parlour.bots.arena import run_arena
from parlour.engine.errors import ParlourError
from parlour.engine.registry import load
from parlour.games.crossword.bots import LEVELS, arena_measure, make_bot


def parse_levels(text: str) -> list[str]:
    """``"hard,medium"`` -> ``["hard", "medium"]``. Raises :class:`ParlourError` for an
    unknown level or a number of players outside 2-4.

    >>> parse_levels(" hard, medium ")
    ['hard', 'medium']
    """
    levels = [part.strip().lower() for part in text.split(",")]
    for level in levels:
        if level not in LEVELS:
            raise ParlourError(f"unknown Crossword level {level!r}; levels: {', '.join(LEVELS)}")
    if not 2 <= len(levels) <= 4:
        raise ParlourError(f"Crossword takes 2-4 players, not {len(levels)}")
    return levels


def run(players: str, *, games: int, seed: int = 0, lexicon: str = "enable") -> dict[str, Any]:
    """Play *games* games between the levels *players* (``"hard,medium"``) and return the
    figures as JSON: per player the games, wins, win rate and its 95% ``interval``, points per
    game and per play (before end-game adjustments), bingos and cover plays per game; and
    the games per second.

    Raises :class:`ParlourError` for bad levels or a lexicon that cannot be loaded.
    """
    levels = parse_levels(players)
    game = load("crossword", players=len(levels), lexicon=lexicon)
    result = run_arena(
        game,
        [make_bot(level) for level in levels],
        games=games,
        seed=seed,
        labels=levels,
        measure=arena_measure,
    )
    bots = []
    for fig in result.bots:
        extra = fig.extra
        played = extra.get("plays", 0.0)
        bots.append(
            {
                "name": fig.name,
                "games": fig.games,
                "wins": fig.wins,
                "win_rate": fig.win_rate,
                "interval": list(fig.interval),
                "points_per_game": fig.points / fig.games if fig.games else 0.0,
                "points_per_play": extra.get("play_points", 0.0) / played if played else 0.0,
                "bingos_per_game": extra.get("bingos", 0.0) / fig.games if fig.games else 0.0,
                "covers_per_game": extra.get("covers", 0.0) / fig.games if fig.games else 0.0,
            }
        )
    return {
        "games": result.games,
        "seconds": result.seconds,
        "games_per_second": result.games_per_second,
        "bots": bots,
    }
