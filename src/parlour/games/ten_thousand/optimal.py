"""Ten-Thousand played to win: the two-player policy that maximises the chance of winning.

The race solver of :mod:`parlour.games.dice.optimal` on Ten-Thousand's turns
(:func:`~.solver.turn_model`): ``wins[a, b]`` (units of 50 points) is the chance that the
player about to start a turn with *a* beats the opponent with *b*, both below the target and
both playing to win. Banking to the target or more starts the last turn: the opponent then
plays the exact points-still-needed policy (:func:`~.solver.need_table`, a tie for the lead
worth half, the entry score respected), so banking to *c* is worth ``1 - L(b, c)``, *L* the
opponent's chance of passing *c* (a tie half). The last turns themselves are played by that
exact table too, so the "last turns have begun" part of the state needs no table of its own.

The table is solved once per rule set (91 s of CPU for the default game with numba's
compiled loop; the numpy one is 4.4 times slower) and kept: the default rules' table ships in
the package (``data/optimal-10000-0-0.npy.gz``), others are cached in the data directory
(``$PARLOUR_HOME/solver/``). A move is then one turn's backward induction for the pair of
scores (:class:`~parlour.games.dice.solver.WinPolicy`, a few milliseconds).

Derivation and figures: ``docs/rules/ten-thousand.md#the-optimal-player``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from parlour.games.dice.optimal import Progress, RaceTable, read_table, solve_race, write_table
from parlour.games.dice.solver import (
    UNIT,
    RollKind,
    TurnModel,
    WinPolicy,
    bank_from,
    build_roll_kind,
)
from parlour.games.ten_thousand.solver import (
    MAX_KEEP,
    TIE_SHARE,
    TenThousandRules,
    _plain,
    _specials,
    need_table,
)
from parlour.paths import data_dir

BEYOND = 15_000
"""How far past the target (points) the solver looks at most; banking is provably optimal
well before it in every position of the default game (the solve reports it if not)."""
FORMAT = 1
"""The version of the cached tables' layout and meaning."""


@cache
def every_roll_kind(dice: int, specials: bool) -> RollKind:
    """Rolling *dice* dice with **every** distinct (points, dice left) keep listed: to win, a
    player may prefer fewer points (the shared solver's default lists only the most)."""
    return build_roll_kind(_specials if specials else _plain, dice, 6, every=True)


@cache
def turn_model(rules: TenThousandRules) -> TurnModel:
    """Ten-Thousand's turns under *rules* with every keep (see :func:`every_roll_kind`)."""
    later = {n: every_roll_kind(n, rules.specials_any_roll and n == 6) for n in range(1, 7)}
    return TurnModel(6, every_roll_kind(6, True), later, entry=rules.entry)


def end_values(rules: TenThousandRules, beyond: int = BEYOND) -> Any:
    """``end[b, j]``: the value to the banker of banking to ``target + j`` units against an
    opponent with *b* units, who then plays the exact last turn (tie half); *j* up to
    *beyond* (points) plus the largest keep."""
    goal = rules.target // UNIT
    entry = -(-rules.entry // UNIT)
    reach, last = need_table(rules), need_table(rules, TIE_SHARE)
    width = beyond // UNIT + MAX_KEEP + 1
    # the opponent with b is goal + j - b units behind: chance[behind + 1] of passing
    chance = [last.chance_first(m * UNIT) for m in range(goal + width + 1)]
    behind = goal + np.arange(width)[None, :] - np.arange(goal)[:, None]
    end = 1.0 - np.array(chance)[behind + 1]
    for j in range(width):
        if entry > goal + j:  # an opponent with 0 must bank the entry score: no tie
            end[0, j] = 1.0 - reach.chance_first(max(goal + j + 1, entry) * UNIT)
    return end


def solve(
    rules: TenThousandRules,
    *,
    progress: Progress | None = None,
    kernel: str = "auto",
    beyond: int = BEYOND,
) -> RaceTable:
    """Solve the two-player race for *rules* (no cache), banking forced from *beyond* points
    past the target: see the module docstring and :func:`~parlour.games.dice.optimal.solve_race`
    (the same errors)."""
    return solve_race(
        turn_model(rules),
        rules.target // UNIT,
        end_values(rules, beyond),
        beyond=beyond // UNIT,
        entry=-(-rules.entry // UNIT),
        progress=progress,
        kernel=kernel,
    )


def _name(rules: TenThousandRules) -> str:
    return f"optimal-{rules.target}-{rules.entry}-{int(rules.specials_any_roll)}.npy.gz"


def cache_path(rules: TenThousandRules) -> Path:
    """Where the table for *rules* is cached in the data directory."""
    return data_dir() / "solver" / f"ten-thousand-v{FORMAT}-{_name(rules)}"


def _packaged(rules: TenThousandRules) -> bytes | None:
    try:
        ref = resources.files("parlour.games.ten_thousand.data") / _name(rules)
        return ref.read_bytes() if ref.is_file() else None
    except (OSError, ModuleNotFoundError):
        return None


_TABLES: dict[TenThousandRules, Any] = {}


def stored_table(rules: TenThousandRules) -> Any | None:
    """The table for *rules* from memory, the package (default rules) or the data
    directory's cache; ``None`` if it has not been solved yet."""
    if rules in _TABLES:
        return _TABLES[rules]
    goal = rules.target // UNIT
    raw = _packaged(rules)
    wins = None if raw is None else read_table(raw, goal)
    if wins is None:
        path = cache_path(rules)
        wins = read_table(path.read_bytes(), goal) if path.is_file() else None
    if wins is not None:
        _TABLES[rules] = wins
    return wins


def store(rules: TenThousandRules, wins: Any) -> None:
    """Keep *wins* as the table for *rules*: in memory and in the data directory's cache."""
    write_table(cache_path(rules), wins)
    _TABLES[rules] = wins


def wins_table(rules: TenThousandRules, progress: Progress | None = None) -> Any:
    """The solved ``wins[a, b]`` table for *rules* (see the module docstring): stored
    (:func:`stored_table`), or solved now and cached (*progress* is called while solving)."""
    wins = stored_table(rules)
    if wins is None:
        wins = solve(rules, progress=progress).wins
        store(rules, wins)
    return wins


def win_probability(rules: TenThousandRules, mover: int, other: int) -> float:
    """The chance that the player starting a turn with *mover* points beats *other* (points,
    both below the target), both playing to win. Raises ``ValueError`` otherwise."""
    goal = rules.target
    if not (0 <= mover < goal and 0 <= other < goal):
        raise ValueError(f"both scores must be in 0..{goal - UNIT}, not {mover} and {other}")
    return float(wins_table(rules)[mover // UNIT, other // UNIT])


class OptimalTurn(WinPolicy):
    """The win-maximising turn for a player with *mine* against *other* (points, both below
    the target): :class:`~parlour.games.dice.solver.WinPolicy` with ``u(x)`` the solved
    table's chance of winning after banking *x* (``u(0)``: after a farkle), exact from the
    turn total where banking is provably best (or :data:`BEYOND` past the target). *kernel*:
    as for :class:`~parlour.games.dice.solver.WinPolicy` (the same values either way)."""

    def __init__(
        self,
        rules: TenThousandRules,
        wins: Any,
        end: Any,
        mine: int,
        other: int,
        *,
        kernel: str = "auto",
    ) -> None:
        model = turn_model(rules)
        goal = rules.target // UNIT
        a, b = mine // UNIT, other // UNIT
        self.mine, self.other = mine, other
        width = goal - a + BEYOND // UNIT + model.max_keep + 1
        u = np.empty(width)
        c = a + np.arange(width)
        below = c < goal
        u[below] = 1.0 - wins[b, c[below]]
        u[~below] = end[b, np.minimum(c[~below] - goal, end.shape[1] - 1)]
        u[0] = 1.0 - wins[b, a]
        entry = 0 if a > 0 else -(-rules.entry // UNIT)
        safe = 1.0 - float(model.flat.farkle.min()) * (1.0 - u[0])
        top = bank_from(u, safe, max(entry, 1), goal - a + BEYOND // UNIT)
        super().__init__(model, u.tolist(), top=top, entry=entry, kernel=kernel)


@cache
def _end(rules: TenThousandRules) -> Any:
    return end_values(rules)


@lru_cache(maxsize=1024)
def optimal_turn(rules: TenThousandRules, mine: int, other: int) -> OptimalTurn:
    """The :class:`OptimalTurn` for *mine* against *other* (points), the last 1024 cached.
    Raises ``ValueError`` unless both are below the target."""
    if not (0 <= mine < rules.target and 0 <= other < rules.target):
        raise ValueError(f"both scores must be below {rules.target}, not {mine} and {other}")
    return OptimalTurn(rules, wins_table(rules), _end(rules), mine, other)
