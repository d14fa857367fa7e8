"""Greedy against the computer, solved: the most tournament points, or the best chance to win.

The manual's game is one person against the computer, and its tournament ("Scoring") pays
5,000 + 10 x the person's points over 10,000 for a win and -(1,000 + 5 x the computer's
points over 10,000) for a loss (:mod:`.standings`). The computer's policy is fixed (a level
of :mod:`.bots`, ``strong`` by default), so for the person the game is a Markov decision
process over (the person's score *a*, the computer's score *b*, whose turn it is), solved
here exactly for two objectives:

- ``points``: the expected tournament points (win and loss paid as above);
- ``wins``: the chance of winning (a win 1, a loss 0).

The computer's turn from (*a*, *b*) is a distribution over how it ends (a farkle, a bank of
each size below the target, a win at each final score), computed exactly by a forward pass
of its own policy tables (:func:`computer_turn`). ``P[a, b]`` is the person's value at the
start of the person's turn, ``Q[a, b]`` at the start of the computer's:

- ``Q[a, b] = f P[a, b] + sum_x p(x) P[a, b + x] + sum_c w(c) loss(c)``;
- ``P[a, b]`` is the best turn (every keep a choice, then bank or roll on) where banking to
  *c* below the target is worth ``Q[c, b]``, a farkle ``Q[a, b]``, and reaching the target
  wins. The person may roll on past the target (a bigger win pays more): after a keep to
  ``target + y`` points with *n* dice left the value is ``z + 10 E(n, (5,000 - z) / 10 + y)``,
  *z* the farkle value and *E* the expected-points value of Greedy's turn (banking *s* worth
  *s*, a farkle 0; :class:`Continuation`).

Scores never go down, so the pairs are solved by diagonals of equal ``a + b`` from the top;
the only cycle (a farkle by either side keeps the pair) is solved by Newton's method on
``z = Q[a, b]`` (the turn's value is convex and piecewise linear in *z*: policy iteration).
Derivation, figures and the choices made: ``docs/rules/greedy.md#playing-the-tournament``.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np

from parlour.games.dice.optimal import read_array, write_table
from parlour.games.dice.solver import UNIT, Strategy, WinPolicy
from parlour.games.greedy import _tournament_kernel as kernel
from parlour.games.greedy import optimal
from parlour.games.greedy.solver import CAP, N_DICE, GreedyRules, endgame, strategy, turn_model
from parlour.games.greedy.standings import (
    LOSS_PENALTY,
    LOSS_PER_POINT,
    WIN_BONUS,
    WIN_PER_POINT,
)
from parlour.paths import data_dir

Objective = Literal["points", "wins"]
OBJECTIVES: tuple[Objective, ...] = ("points", "wins")
Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` (pairs of scores solved)."""

TOLERANCE = {"points": 1e-9, "wins": 1e-13}
"""Newton's method on a pair stops when *z* moves by no more than this (tournament points,
or a probability)."""
MAX_STEPS = 60
FORMAT = 1
"""The version of the stored tables' layout and meaning."""


@dataclass(frozen=True)
class Computer:
    """The computer player as modelled: ``endgame`` (the ``strong`` level) plays the race
    model's win-probability policy once either score is within ``horizon`` points of the
    target, else the expected-points policy (``steady``); :class:`~.bots.StrongBot`."""

    level: str = "strong"
    endgame: bool = True
    horizon: int = 5_000


STRONG = Computer()


def loss(over: Any) -> Any:
    """Tournament points of a loss when the computer ends on the target plus *over* points
    (a number or an array): ``-(1,000 + 5 over)`` (the manual's "Scoring",
    :func:`.standings.tournament_points`; at other targets than 10,000, which the standings
    do not count, *over* is counted from the target)."""
    return -(LOSS_PENALTY + LOSS_PER_POINT * over)


def win(over: Any) -> Any:
    """Tournament points of a win that ends on the target plus *over* points (a number or an
    array): ``5,000 + 10 over``."""
    return WIN_BONUS + WIN_PER_POINT * over


# --- the computer's turn ------------------------------------------------------------------


def _policy_tables(rules: GreedyRules, computer: Computer, mine: int, other: int) -> Any:
    """(value, bank) arrays (n_dice + 1 rows, a column per turn total in units) of the
    computer's policy with *mine* points against *other*: the same tables its bot reads."""
    if computer.endgame and max(mine, other) >= rules.target - computer.horizon:
        plan: WinPolicy = endgame(rules, mine, other)
        value = np.array(plan._value)  # the policy's own table, read only
        u = np.array(plan.u[: value.shape[1]])
        bank = value <= u[None, :]
        bank[:, plan.top :] = True
        return value, bank
    plan_points: Strategy = strategy()
    return plan_points._arrays[True], plan_points._bank_arrays[True]


@dataclass(frozen=True)
class ComputerTurn:
    """How the computer's turn from a pair of scores ends: ``farkle`` (chance),
    ``banked[x]`` the chance of banking *x* units (x below what it needs), ``won[j]`` of
    winning on the target plus *j* units."""

    farkle: float
    banked: Any
    won: Any


def computer_turn(rules: GreedyRules, computer: Computer, person: int, mine: int) -> ComputerTurn:
    """The computer's turn with *mine* points against the person's *person* (points, both
    below the target): exact, from its policy tables (see :class:`ComputerTurn`)."""
    value, bank = _policy_tables(rules, computer, mine, person)
    model = turn_model()
    flat = model.flat
    need = (rules.target - mine) // UNIT
    lost, banked, won = kernel.compiled_computer_turn(
        value,
        bank,
        need,
        model.max_keep,
        model.n_dice,
        flat.dice,
        flat.points,
        flat.groups,
        flat.probability,
        flat.kinds,
        flat.farkle,
    )
    return ComputerTurn(float(lost), banked, won)


# --- past the target: the expected-points continuation ------------------------------------

LOW = -12_000
"""The lowest bank value (points) :class:`Continuation` covers."""
HIGH = 8_000
"""The highest bank value (points) :class:`Continuation` covers."""


class Continuation:
    """``E(n, s)``: the expected-points value of Greedy's turn after a keep with *n* dice
    left when banking is worth *s* points (any real number in ``[LOW, HIGH)``) and each keep
    adds its points; a farkle is worth 0.

    Solved exactly on every whole point (50 backward inductions, one per remainder mod 50,
    vectorised, from the expected-points strategy's certified cap down), and linear between:
    ``E(n, .)`` is convex with slopes in [0, 1] (a max of sums of convex functions), so the
    interpolation is off by at most 1/4 point. :meth:`at` also gives the slope in *s* (the
    chance that the turn does not end in a farkle).
    """

    def __init__(self, grid: Any, seconds: float = 0.0) -> None:
        self.grid = grid
        """``grid[n, i]``: E(n, LOW + i) for whole points (n_dice + 1 rows)."""
        self.seconds = seconds

    @classmethod
    def solve(cls) -> Continuation:
        """Solve the grid (one to two minutes of CPU: 20,101 steps from the cap down, each
        over the 50 remainders; shipped in the package, so rarely needed)."""
        started = time.perf_counter()
        model = turn_model()
        flat = model.flat
        rows = model.n_dice + 1
        renewal = strategy().renewal
        top = (CAP - LOW) // UNIT + 1  # from here up, banking (nine dice: rolling) is known
        width = top + model.max_keep + 1
        shifts = np.arange(UNIT, dtype=float)
        value = np.zeros((rows, width, UNIT))
        above = LOW + np.arange(top, width)[:, None] * float(UNIT) + shifts[None, :]
        for n in range(1, rows):
            value[n, top:] = above + renewal[n]
        cells = value.reshape(rows * width, UNIT)
        index = flat.dice * width + flat.points
        probability = flat.probability[:, None]
        span = (HIGH - LOW) // UNIT + 1
        for t in range(top - 1, -1, -1):
            best = np.maximum.reduceat(cells[index + t], flat.groups, axis=0)
            rolled = np.add.reduceat(best * probability, flat.kinds, axis=0)
            here = LOW + t * float(UNIT) + shifts
            value[1:, t] = np.maximum(rolled, here[None, :])
        grid = value[:, :span, :].reshape(rows, span * UNIT)
        return cls(grid, time.perf_counter() - started)

    def at(self, s: Any) -> tuple[Any, Any]:
        """(E, slope) at bank values *s* (points, array of any shape): arrays of shape
        ``(n_dice + 1,) + s.shape``. Raises ``ValueError`` outside ``[LOW, HIGH)``."""
        s = np.asarray(s, dtype=float)
        x = s - LOW
        if s.size and (x.min() < 0 or s.max() >= HIGH):
            raise ValueError(f"bank values must be in [{LOW}, {HIGH}), not {s.min()}..{s.max()}")
        i = np.floor(x).astype(np.int64)
        frac = x - i
        left, right = self.grid[:, i], self.grid[:, i + 1]
        return left + (right - left) * frac, right - left


CONTINUATION = f"greedy-continuation-v{FORMAT}.npy.gz"


@cache
def continuation() -> Continuation:
    """The :class:`Continuation`: shipped in the package, else cached in the data directory,
    else solved now (a minute) and cached."""
    rows = N_DICE + 1
    shape = (rows, ((HIGH - LOW) // UNIT + 1) * UNIT)
    raw = _packaged(CONTINUATION)
    grid = None if raw is None else read_array(raw, shape)
    path = data_dir() / "solver" / CONTINUATION
    if grid is None and path.is_file():
        grid = read_array(path.read_bytes(), shape)
    if grid is not None:
        return Continuation(grid)
    solved = Continuation.solve()
    write_table(path, solved.grid)
    return solved


def _packaged(name: str) -> bytes | None:
    try:
        ref = resources.files("parlour.games.greedy.data") / name
        return ref.read_bytes() if ref.is_file() else None
    except (OSError, ModuleNotFoundError):
        return None


def past_target(objective: Objective, z: Any, extra: int, rows: int) -> tuple[Any, Any]:
    """(value, slope in *z*) after a keep to the target plus ``j`` units with *n* dice left,
    for j < *extra*: arrays (len(z), rows, extra). ``wins``: 1 (bank and win); ``points``:
    ``z + 10 E(n, (5,000 - z) / 10 + 50 j)``."""
    z = np.asarray(z, dtype=float)
    if objective == "wins":
        return np.ones((len(z), rows, extra)), np.zeros((len(z), rows, extra))
    scale = float(WIN_PER_POINT)
    s = (WIN_BONUS - z)[:, None] / scale + UNIT * np.arange(extra)[None, :]
    e, de = continuation().at(s)  # (rows, pairs, extra)
    value = z[None, :, None] + scale * e
    return value.transpose(1, 0, 2).copy(), (1.0 - de).transpose(1, 0, 2).copy()


# --- the solve ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentTable:
    """The solved game for one objective: ``start[a, b]`` (units) the person's value at the
    start of the person's turn, ``after[a, b]`` at the start of the computer's turn;
    ``seconds`` the solve time (both objectives together), ``steps`` the Newton steps (pair
    by pair),
    ``drops`` the cells where a keep's value drops as the score rises (see :func:`solve`)."""

    objective: Objective
    start: Any
    after: Any
    goal: int
    seconds: float = 0.0
    steps: int = 0
    drops: int = 0

    @property
    def person_first(self) -> float:
        """The person's value from the start of a game in which the person rolls first."""
        return float(self.start[0, 0])

    @property
    def computer_first(self) -> float:
        """The person's value from the start of a game in which the computer rolls first."""
        return float(self.after[0, 0])


def _person_flat(every: bool) -> tuple[Any, ...]:
    model = optimal.turn_model() if every else turn_model()
    flat = model.flat
    return (
        model.n_dice,
        flat.dice,
        flat.points,
        flat.groups,
        flat.probability,
        flat.kinds,
        flat.farkle,
    )


def _extra() -> int:
    return optimal.turn_model().max_keep + 1


def solve(
    rules: GreedyRules,
    computer: Computer = STRONG,
    *,
    objectives: tuple[Objective, ...] = OBJECTIVES,
    every: bool = True,
    progress: Progress | None = None,
) -> dict[Objective, TournamentTable]:
    """Solve *objectives* against *computer* (see the module docstring).

    The person's keeps: with *every* (the default), every distinct (points, dice left) a
    roll allows; without, only the most points for each number of dice left (1.7 times
    faster), exact only when the value after a keep never drops as the score rises: the
    solve counts the cells where it does (``drops``; 0 proves the smaller model exact, and
    Greedy at 2,000 has such cells: 7,029.1 against the exact 7,037.0 tournament points). Raises
    ``ArithmeticError`` if Newton's method does not settle on a pair within
    :data:`MAX_STEPS` steps (never seen), ``ValueError`` if the tournament values leave the
    range :class:`Continuation` covers."""
    started = time.perf_counter()
    goal = rules.target // UNIT
    person = _person_flat(every)
    drops = {o: 0 for o in objectives}
    rows, extra = N_DICE + 1, _extra()
    start = {o: np.zeros((goal, goal)) for o in objectives}
    after = {o: np.zeros((goal, goal)) for o in objectives}
    steps = 0
    turns: dict[int, ComputerTurn] = {}
    done = 0
    for total in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        b = total - a
        pairs = len(a)
        farkle = np.empty(pairs)
        rest = {o: np.empty(pairs) for o in objectives}
        for i in range(pairs):
            ai, bi = int(a[i]), int(b[i])
            mine, other = bi * UNIT, ai * UNIT
            plain = not computer.endgame or max(mine, other) < rules.target - computer.horizon
            turn = turns.get(bi) if plain else None
            if turn is None:
                turn = computer_turn(rules, computer, other, mine)
                if plain:
                    turns[bi] = turn
            farkle[i] = turn.farkle
            over = UNIT * np.arange(len(turn.won))
            paid = float(turn.won @ loss(over))
            gains = turn.banked[1:]
            for objective in objectives:
                later = float(gains @ start[objective][ai, bi + 1 : goal])
                rest[objective][i] = later + (paid if objective == "points" else 0.0)
        for objective in objectives:
            bank = after[objective][:, b].T.copy()  # bank[i, c] = Q[c, b_i]
            near = np.minimum(b + 1, goal - 1)
            z = after[objective][a, near] if total < 2 * goal - 2 else np.zeros(pairs)
            z = z.copy()
            tolerance = TOLERANCE[objective]
            value = np.zeros(pairs)
            unsettled = np.arange(pairs)
            for _ in range(MAX_STEPS):
                zi, ri, fi = z[unsettled], rest[objective][unsettled], farkle[unsettled]
                bound, dbound = past_target(objective, zi, extra, rows)
                phi, slope, drop = kernel.compiled_person_turns(
                    a[unsettled], zi, bank[unsettled], bound, dbound, *person
                )
                drops[objective] += drop
                steps += len(unsettled)
                here = (phi + slope * (ri - zi)) / (1.0 - slope * fi)
                new = fi * here + ri
                value[unsettled], z[unsettled] = here, new
                settled = np.abs(new - zi) <= tolerance * np.maximum(1.0, np.abs(new))
                unsettled = unsettled[~settled]
                if not len(unsettled):
                    break
            else:
                raise ArithmeticError(f"Newton's method did not settle on the diagonal {total}")
            start[objective][a, b] = value
            after[objective][a, b] = z
        done += pairs
        if progress is not None:
            progress(done, goal * goal)
    seconds = time.perf_counter() - started
    return {
        o: TournamentTable(o, start[o], after[o], goal, seconds, steps, drops[o])
        for o in objectives
    }


# --- stored tables ------------------------------------------------------------------------


def _name(rules: GreedyRules, computer: Computer) -> str:
    return f"greedy-tournament-v{FORMAT}-{rules.target}-{computer.level}.npz"


def cache_path(rules: GreedyRules, computer: Computer = STRONG) -> Path:
    """Where the tables for *rules* against *computer* are cached in the data directory."""
    return data_dir() / "solver" / _name(rules, computer)


_TABLES: dict[tuple[GreedyRules, Computer], dict[Objective, TournamentTable]] = {}


def _read_tables(raw: bytes, goal: int) -> dict[Objective, TournamentTable] | None:
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            out = {
                o: TournamentTable(o, data[f"start_{o}"], data[f"after_{o}"], goal)
                for o in OBJECTIVES
            }
    except (OSError, ValueError, KeyError, EOFError):
        return None  # corrupt or partial: solved again
    return out if all(t.start.shape == (goal, goal) for t in out.values()) else None


def stored_tables(
    rules: GreedyRules, computer: Computer = STRONG
) -> dict[Objective, TournamentTable] | None:
    """Both objectives' tables from memory, the package or the data directory's cache;
    ``None`` if not solved yet."""
    key = (rules, computer)
    if key in _TABLES:
        return _TABLES[key]
    goal = rules.target // UNIT
    raw = _packaged(_name(rules, computer))
    found = None if raw is None else _read_tables(raw, goal)
    path = cache_path(rules, computer)
    if found is None and path.is_file():
        found = _read_tables(path.read_bytes(), goal)
    if found is not None:
        _TABLES[key] = found
    return found


def store(tables: dict[Objective, TournamentTable], path: Path) -> None:
    """Write both objectives' tables to *path* (npz, compressed) atomically; a read-only
    directory is skipped."""
    tmp = path.with_suffix(f".tmp{os.getpid()}.npz")
    arrays = {f"{k}_{o}": getattr(tables[o], k) for o in OBJECTIVES for k in ("start", "after")}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(tmp, **arrays)
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)


def tables(
    rules: GreedyRules, computer: Computer = STRONG, *, progress: Progress | None = None
) -> dict[Objective, TournamentTable]:
    """Both objectives' tables for *rules* against *computer*: stored, or solved now (both
    objectives, every keep; *progress* is called while solving) and cached in the data
    directory. The default game's solve is about 15 minutes of CPU (one core)."""
    found = stored_tables(rules, computer)
    if found is None:
        found = solve(rules, computer, progress=progress)
        store(found, cache_path(rules, computer))
        _TABLES[rules, computer] = found
    return found


# --- one decision -------------------------------------------------------------------------


class TournamentTurn:
    """The person's best turn for one pair of scores and one objective: the value of
    banking to each score, and of rolling each number of dice at each score, with the
    computer's policy fixed (:func:`solve`'s tables, one backward induction of the turn)."""

    def __init__(self, table: TournamentTable, person: int, computer: int) -> None:
        goal = table.goal
        a, b = person // UNIT, computer // UNIT
        if not (0 <= a < goal and 0 <= b < goal):
            raise ValueError(f"both scores must be below {goal * UNIT}, not {person}, {computer}")
        self.objective, self.goal, self.a, self.b = table.objective, goal, a, b
        z = float(table.after[a, b])
        self.z = z
        self.bank = np.ascontiguousarray(table.after[:, b])
        rows, extra = N_DICE + 1, _extra()
        bound, _ = past_target(table.objective, np.array([z]), extra, rows)
        self.past = bound[0]
        self.value, self.rolled = kernel.compiled_person_values(
            a, z, self.bank, bound[0], *_person_flat(True)
        )
        self._past_rolls: dict[tuple[int, int], float] = {}

    def bank_value(self, score: int) -> float:
        """The value of banking to *score* (points, above the pair's own)."""
        c = score // UNIT
        if c >= self.goal:
            over = (c - self.goal) * UNIT
            return win(over) if self.objective == "points" else 1.0
        return float(self.bank[c])

    def roll_value(self, score: int, dice: int) -> float:
        """The value of rolling *dice* dice with the score (own plus turn total, points) at
        *score* and playing on at best."""
        c = score // UNIT
        if c >= self.goal:
            # past the target: the continuation's value of rolling on (not of banking)
            key = (c - self.goal, dice)
            found = self._past_rolls.get(key)
            if found is None:  # a decision asks for a few keys many times: kept per turn
                found = self._past_rolls[key] = float(self._past_roll(*key))
            return found
        return float(self.rolled[dice, c])

    def _past_roll(self, j: int, dice: int) -> float:
        """Rolling *dice* dice at the target plus *j* units: the farkle value *z* with the
        chance of a farkle, else a win (``wins``) or ``z + 10 E`` after the best keep
        (:meth:`roll_value` keeps each answer for the turn)."""
        z = float(self.z)
        flat = turn_model().flat
        g0 = int(flat.kinds[dice - 1])
        g1 = int(flat.kinds[dice]) if dice < N_DICE else len(flat.groups)
        farkle = float(flat.farkle[dice - 1])
        if self.objective == "wins":
            return (1.0 - farkle) + farkle * z
        o0 = int(flat.groups[g0])
        o1 = int(flat.groups[g1]) if g1 < len(flat.groups) else len(flat.points)
        s = (WIN_BONUS - z) / WIN_PER_POINT + UNIT * (j + flat.points[o0:o1])
        e, _ = continuation().at(s)
        values = e[flat.dice[o0:o1], np.arange(o1 - o0)]
        best = np.maximum.reduceat(values, flat.groups[g0:g1] - o0)
        return z + WIN_PER_POINT * float(best @ flat.probability[g0:g1])


@lru_cache(maxsize=1024)
def tournament_turn(
    rules: GreedyRules, objective: Objective, person: int, computer: int
) -> TournamentTurn:
    """The :class:`TournamentTurn` for the pair (points) against ``strong``, from the stored
    tables (solved and cached first if needed); the last 1,024 cached."""
    return TournamentTurn(tables(rules)[objective], person, computer)


@dataclass(frozen=True)
class ChoiceValue:
    """One choice at a decision: ``kept`` (sorted faces) and ``bank`` (end the turn, or
    roll the dice left); ``points`` the person's expected tournament points with it and
    tournament-optimal play after, ``wins`` the chance of winning with it and
    win-optimal play after; ``best`` whether it has the most expected tournament points."""

    kept: tuple[int, ...]
    bank: bool
    points: float
    wins: float
    best: bool = False


def _values(
    state: Any, seat: int, objectives: tuple[Objective, ...]
) -> list[tuple[Any, dict[Objective, float]]]:
    """(action, {objective: value}) for every keep action *seat* may take in *state*."""
    if state.over or state.roll is None or state.seat != seat:
        raise ValueError(f"seat {seat} has no roll to choose from")
    rules = GreedyRules(int(state.target))
    mine = state.scores[seat]
    other = max(s for i, s in enumerate(state.scores) if i != seat)
    turns = {o: tournament_turn(rules, o, mine, other) for o in objectives}
    dice = len(state.roll)
    points = state.keep_points(state.roll, first_roll=False)
    out = []
    for action in state.keep_actions():
        score = mine + state.turn_total + points[action.dice]
        left = dice - len(action.dice) or N_DICE
        out.append(
            (action, {o: _choice_value(turns[o], score, left, action.bank) for o in objectives})
        )
    return out


def best_action(state: Any, seat: int, objective: Objective = "points") -> Any:
    """The keep action with the greatest value for *objective* (ties: more points kept,
    then banking); the errors of :func:`choice_values`."""
    options = _values(state, seat, (objective,))
    points = state.keep_points(state.roll, first_roll=False)
    return max(options, key=lambda o: (o[1][objective], points[o[0].dice], o[0].bank))[0]


def choice_values(state: Any, seat: int) -> list[ChoiceValue]:
    """Every choice of the decision *seat* faces in a Greedy *state* (a roll to keep from),
    with its expected tournament points and chance of winning against the computer
    (``strong``; the leading other seat stands for it with more seats, an approximation),
    the best-points choice marked, sorted best first. Solves the tables the first time
    under the game's rules (minutes; then cached). Raises ``ValueError`` when *seat* has no
    roll to choose from or a score is at or past the target."""
    out = [
        ChoiceValue(tuple(action.dice), action.bank, values["points"], values["wins"])
        for action, values in _values(state, seat, OBJECTIVES)
    ]
    top = max(c.points for c in out)
    marked = [ChoiceValue(c.kept, c.bank, c.points, c.wins, c.points == top) for c in out]
    return sorted(marked, key=lambda c: (-c.points, -c.wins, c.bank, c.kept))


def _choice_value(turn: TournamentTurn, score: int, dice_left: int, bank: bool) -> float:
    """The value of a keep to *score* (points) with *dice_left* dice, then bank or roll."""
    return turn.bank_value(score) if bank else turn.roll_value(score, dice_left)


def tournament_measure(state: Any, seat: int) -> dict[str, float]:
    """Arena measure (two seats): the tournament points *seat* would score as the person
    against the other seat as the computer (points over the target, which is 10,000 in the
    manual's game), and their square (for the 95% interval of the mean)."""
    result = state.result()
    other = 1 - seat
    over_target = max(0, result.scores[seat] - state.target)
    if result.winners == (seat,):
        points = float(win(over_target))
    else:
        points = float(loss(max(0, result.scores[other] - state.target)))
    return {"tournament": points, "tournament_sq": points * points}
