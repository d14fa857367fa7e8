"""Greedy's coach (``GameSpec.coach``): each keep's chance of winning, banking or rolling on
(``docs/rules/greedy.md#the-coach``).

The figures come from the two-player race table of :mod:`.optimal` (both playing to win;
the first to end a turn on the target wins at once): banking to *c* is worth ``1 - wins[b,
c]`` below the target and 1 from it up, a farkle ``1 - wins[b, a]``, and one turn's
backward induction (:class:`~parlour.games.dice.solver.WinPolicy`) gives rolling on. With
three or more players the figures are against the leading opponent (an approximation).
With two players and the tournament tables of :mod:`.tournament` stored for the target,
each choice also carries its expected **tournament points** against the computer player as it
plays (a second figure, tournament-optimal play after; the choices stay ranked by the chance
of winning).

The default target's table ships in the package (``data/race-10000.npy.gz``); others are
solved by :func:`race_table` (a few seconds at 1,000, minutes at 10,000 on two cores) and
cached in the data directory (``$PARLOUR_HOME/solver/greedy-race-v1-*.npy.gz``); until
then the coach says nothing.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from parlour.engine.coach import Advice, Choice, Figure
from parlour.engine.state import State
from parlour.games.dice.coach import keep_advice
from parlour.games.dice.notation import Keep
from parlour.games.dice.optimal import Progress, read_table, write_table
from parlour.games.dice.solver import UNIT, WinPolicy
from parlour.games.greedy.solver import GreedyRules
from parlour.games.greedy.state import GreedyState
from parlour.paths import data_dir

FORMAT = 1
"""The version of the cached tables' layout and meaning."""
APPROXIMATE = "three or more players: figures against the leader only (an approximation)"

_TABLES: dict[GreedyRules, Any] = {}


def cache_path(rules: GreedyRules) -> Path:
    """Where the race table for *rules* is cached in the data directory."""
    return data_dir() / "solver" / f"greedy-race-v{FORMAT}-{rules.target}.npy.gz"


def _packaged(rules: GreedyRules) -> bytes | None:
    try:
        ref = resources.files("parlour.games.greedy.data") / f"race-{rules.target}.npy.gz"
        return ref.read_bytes() if ref.is_file() else None
    except (OSError, ModuleNotFoundError):
        return None


def stored_race_table(rules: GreedyRules) -> Any | None:
    """``wins[a, b]`` (units of 50 points) of :func:`.optimal.solve` for *rules* from memory,
    the package (the default target's) or the data directory's cache; ``None`` if it has not
    been solved yet."""
    wins = _TABLES.get(rules)
    if wins is not None:
        return wins
    path, goal = cache_path(rules), rules.target // UNIT
    raw = _packaged(rules)
    wins = None if raw is None else read_table(raw, goal)
    if wins is None and path.is_file():
        wins = read_table(path.read_bytes(), goal)
    if wins is not None:
        _TABLES[rules] = wins
    return wins


def store_race_table(rules: GreedyRules, wins: Any) -> None:
    """Keep *wins* (of :func:`.optimal.solve` for *rules*) in memory and cache it in the data
    directory (:func:`cache_path`), for :func:`stored_race_table`."""
    write_table(cache_path(rules), wins)
    _TABLES[rules] = wins


def race_table(rules: GreedyRules, progress: Progress | None = None) -> Any:
    """The table of :func:`stored_race_table`, or solved now and cached (*progress* is
    called while solving)."""
    from parlour.games.greedy.optimal import solve

    wins = stored_race_table(rules)
    if wins is None:
        wins = solve(rules, progress=progress).wins
        store_race_table(rules, wins)
    return wins


class GreedyTurn(WinPolicy):
    """The win-maximising turn for a player with *mine* against *other* (points, both below
    the target), from the race table *wins*."""

    def __init__(self, rules: GreedyRules, wins: Any, mine: int, other: int) -> None:
        from parlour.games.greedy.optimal import turn_model

        model = turn_model()
        goal = rules.target // UNIT
        a, b = mine // UNIT, other // UNIT
        top = goal - a  # banking to the target wins at once
        c = a + np.arange(top + model.max_keep + 1)
        u = np.ones(len(c))
        below = c < goal
        u[below] = 1.0 - wins[b, c[below]]
        u[0] = 1.0 - wins[b, a]
        super().__init__(model, u.tolist(), top=top)


@lru_cache(maxsize=256)
def greedy_turn(rules: GreedyRules, mine: int, other: int) -> GreedyTurn:
    """The :class:`GreedyTurn` for *mine* against *other* (points), the last 256 cached.
    Raises ``ValueError`` unless both are below the target."""
    if not (0 <= mine < rules.target and 0 <= other < rules.target):
        raise ValueError(f"both scores must be below {rules.target}, not {mine} and {other}")
    return GreedyTurn(rules, race_table(rules), mine, other)


def advise(state: State, seat: int) -> Advice | None:
    """Each keep of *seat* (to choose dice in *state*) with its chance of winning, best
    first (see the module docstring); ``None`` until the race table for the game's target is
    stored. Raises ``ValueError`` when *seat* has no roll to
    choose from."""
    if not isinstance(state, GreedyState):
        raise TypeError(f"not a Greedy state: {state.game.spec.name}")
    if state.roll is None or state.is_terminal() or state.seat != seat:
        raise ValueError(f"seat {seat} has no dice to choose from")
    others = [s for i, s in enumerate(state.scores) if i != seat]
    rules = GreedyRules.of(state.game.options)
    if stored_race_table(rules) is None:
        return None
    note = APPROXIMATE if len(others) > 1 else ""
    advice = keep_advice(state, seat, greedy_turn(rules, state.scores[seat], max(others)), note)
    return with_tournament_points(state, seat, rules, advice)


def tournament_figure(points: float) -> Figure:
    """Expected tournament points as a figure: ``tournament_figure(5828.46).text ==
    "5,828 tournament points"``."""
    return Figure("tournament", points, f"{points:,.0f} tournament points")


def with_tournament_points(
    state: GreedyState, seat: int, rules: GreedyRules, advice: Advice
) -> Advice:
    """*advice* with each choice's expected tournament points added as a second figure
    (:func:`.tournament.choice_values`), where the game has two players and the tournament
    tables for *rules* are stored; else *advice* unchanged (a solve takes minutes: never
    started here)."""
    from parlour.games.greedy import tournament

    if len(state.scores) != 2 or tournament.stored_tables(rules) is None:
        return advice
    points = {(c.kept, c.bank): c.points for c in tournament.choice_values(state, seat)}
    choices = []
    for choice in advice.choices:
        action = state.parse_action(choice.action, player=seat)
        value = points.get((tuple(action.dice), action.bank)) if isinstance(action, Keep) else None
        figures = choice.figures if value is None else (*choice.figures, tournament_figure(value))
        choices.append(Choice(choice.action, figures, choice.best))
    return Advice(advice.seat, tuple(choices), advice.note)
