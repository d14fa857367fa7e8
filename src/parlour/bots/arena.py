"""The arena: computer players against each other, game after game, with figures.

Seats rotate from game to game (game *i* seats the bots shifted by *i*), so no bot keeps the
advantage of playing first. Win rates count a shared win as a fraction and come with 95%
Wilson intervals. Game *i* draws its dice, cards and the bots' choices from its own
``random.Random`` seeded by ``(seed, i)``, so a run gives the same games whether it is played
in one process or split over several (``jobs``).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from itertools import repeat
from typing import Any

from parlour.bots.base import Bot
from parlour.bots.stats import wilson_interval
from parlour.engine.errors import ParlourError
from parlour.engine.spec import GameSpec
from parlour.engine.state import JSON, Game, State


@dataclass
class BotFigures:
    """One bot's totals over an arena run (``name`` is its label, e.g. ``"strong"``).

    ``points`` sums the bot's final scores; ``extra`` sums the figures of the run's
    ``measure`` (e.g. ``"turns"``); ``think`` and ``think_cpu`` are the wall and processor
    seconds of each of its moves (``choose`` calls).
    """

    name: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    extra: dict[str, float] = field(default_factory=dict)
    think: list[float] = field(default_factory=list)
    think_cpu: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """Wins per game (shared wins count as fractions)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def per(self, key: str) -> float | None:
        """Points per unit of ``extra[key]`` (points per turn for ``"turns"``), or None."""
        amount = self.extra.get(key)
        return self.points / amount if amount else None

    def to_json(self) -> JSON:
        """The figures as a JSON object (win rate and interval as fractions 0..1)."""
        low, high = self.interval
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "points": self.points,
            "points_per_game": self.points / self.games if self.games else 0.0,
            **{key: value for key, value in sorted(self.extra.items())},
            **_think_figures("think", self.think),
            **_think_figures("think_cpu", self.think_cpu),
        }


def _think_figures(key: str, seconds: Sequence[float]) -> JSON:
    """``{key}_median`` and ``{key}_max`` of *seconds* (none for no moves)."""
    if not seconds:
        return {}
    return {f"{key}_median": statistics.median(seconds), f"{key}_max": max(seconds)}


@dataclass
class ArenaResult:
    """An arena run: per-bot figures, the number of games and the wall time in seconds."""

    bots: list[BotFigures]
    games: int
    seconds: float
    seed: int = 0
    jobs: int = 1

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds else float("inf")

    def to_json(self) -> JSON:
        """The run as a JSON object."""
        return {
            "games": self.games,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "bots": [b.to_json() for b in self.bots],
        }


Measure = Callable[[State, int], dict[str, float]]
"""Per-game, per-seat extra figures (e.g. turns played), summed into ``BotFigures.extra``.
Must be a module-level function when the run uses several jobs (it is pickled)."""


@dataclass(frozen=True)
class GameRecord:
    """One finished arena game: ``order[seat]`` is the bot in that seat; final ``scores`` and
    ``winners`` by seat; ``extra[seat]`` the measure's figures; ``think[seat]`` the (wall,
    processor) seconds of each move made there."""

    order: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    extra: tuple[dict[str, float], ...]
    think: tuple[tuple[tuple[float, float], ...], ...] = ()


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game *index* of a run with *seed* (independent of other games)."""
    return random.Random(f"arena:{seed}:{index}")


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    max_steps: int = 1_000_000,
    think: Sequence[list[tuple[float, float]]] | None = None,
) -> State:
    """Play one game of *game* with ``bots[seat]`` in each seat; chance drawn with *rng*.
    With *think* (one list per seat), each move's (wall, processor) seconds are appended.

    Raises ``RuntimeError`` if the game has not ended after *max_steps* events.
    """
    state = game.new_initial_state()
    for _ in range(max_steps):
        player = state.current_player()
        if player >= 0:
            began, began_cpu = time.perf_counter(), time.process_time()
            action = bots[player].choose(state, player, rng)
            if think is not None:
                think[player].append((time.perf_counter() - began, time.process_time() - began_cpu))
            state.apply(action, player=player)
        elif state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            return state
    raise RuntimeError(f"{game.spec.name}: no end after {max_steps} steps")


def _play_games(
    game: Game, bots: Sequence[Bot], seed: int, indices: Iterable[int], measure: Measure | None
) -> list[GameRecord]:
    records = []
    n = game.num_players
    for index in indices:
        order = tuple((index + seat) % n for seat in range(n))  # order[seat] = bot there
        think: list[list[tuple[float, float]]] = [[] for _ in range(n)]
        state = play_game(game, [bots[b] for b in order], game_rng(seed, index), think=think)
        result = state.result()
        extra = tuple(measure(state, seat) if measure else {} for seat in range(n))
        moves = tuple(tuple(t) for t in think)
        records.append(GameRecord(order, result.scores, result.winners, extra, moves))
    return records


def run_arena(
    game: Game,
    bots: Sequence[Bot],
    *,
    games: int,
    seed: int = 0,
    labels: Sequence[str] | None = None,
    measure: Measure | None = None,
    jobs: int = 1,
) -> ArenaResult:
    """Play *games* games of *game* between *bots* (one per seat), rotating seats.

    ``labels`` name the bots in the figures (default: each bot's ``name``), numbered after
    the level when two are the same (``hard#1``, ``hard#2 reach=3``). The same *seed* gives
    the same games and figures for any number of *jobs* (worker processes; bots and
    *measure* must then be picklable). Raises ``ValueError`` when the number of bots is not
    the number of seats or *games* is negative.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{len(bots)} bots for {game.num_players} seats")
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    names = list(labels) if labels else [b.name for b in bots]
    if len(set(names)) < len(names):  # the number after the level, before any settings
        names = [_numbered(n, i + 1) for i, n in enumerate(names)]
    figures = [BotFigures(n) for n in names]
    started = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        records = _play_games(game, bots, seed, range(games), measure)
    else:
        size = -(-games // (jobs * 4))
        chunks = [range(i, min(i + size, games)) for i in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = pool.map(
                _play_games, repeat(game), repeat(bots), repeat(seed), chunks, repeat(measure)
            )
            records = [r for part in parts for r in part]
    for record in records:
        for seat, bot in enumerate(record.order):
            fig = figures[bot]
            fig.games += 1
            fig.points += record.scores[seat]
            if seat in record.winners:
                fig.wins += 1 / len(record.winners)
            for key, value in record.extra[seat].items():
                fig.extra[key] = fig.extra.get(key, 0.0) + value
            for wall, cpu in record.think[seat] if record.think else ():
                fig.think.append(wall)
                fig.think_cpu.append(cpu)
    return ArenaResult(figures, games, time.perf_counter() - started, seed=seed, jobs=jobs)


def _numbered(label: str, number: int) -> str:
    """*label* with ``#number`` after its level (its first word), before any settings
    (:meth:`Player.label`): ``"hard reach=3"`` -> ``"hard#1 reach=3"``, not
    ``"hard reach=3#1"``, which reads as a reach of ``3#1``."""
    level, space, settings = label.partition(" ")
    return f"{level}#{number}{space}{settings}"


RESEARCH_BOTS = "parlour.research.bots"
"""Where the research extra's levels live (OpenSpiel's searches; ``docs/research.md``).
Loaded by name only when a level is not the game's own, so nothing here needs the extra."""


def research_levels(spec: GameSpec) -> tuple[str, ...]:
    """The research extra's levels for *spec*'s game (``openspiel-mcts``...); empty when the
    extra (OpenSpiel) is not installed."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("pyspiel") is None:
        return ()
    try:
        module = importlib.import_module(RESEARCH_BOTS)
    except ImportError:
        return ()
    found: tuple[str, ...] = module.levels(spec.name)
    return found


def split_players(text: str) -> list[str]:
    """``'search{"a": 1, "b": 2}, hard'`` -> ``['search{"a": 1, "b": 2}', ' hard']``: an
    arena's ``--players`` text split at the commas outside braces (a comma or brace inside
    a JSON string within braces is text). The parts are as written, not stripped.

    Raises :class:`ParlourError` for a brace closed but not opened, or one not closed.

    >>> split_players('search{"a": 1, "b": "}"},hard')
    ['search{"a": 1, "b": "}"}', 'hard']
    """
    parts: list[str] = []
    depth = 0
    start = 0
    quoted = escaped = False
    for i, ch in enumerate(text):
        if quoted:  # a JSON string inside braces: only its closing quote matters
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"' and depth:
            quoted = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise ParlourError(f"a brace closed but not opened in {text!r}")
        elif ch == "," and not depth:
            parts.append(text[start:i])
            start = i + 1
    if depth or quoted:
        raise ParlourError(f"a brace not closed in {text!r}")
    parts.append(text[start:])
    return parts


@dataclass(frozen=True)
class Player:
    """One player of an arena's ``--players`` text: its ``level`` (stripped, in lower case),
    its ``settings`` (the JSON object in braces after the level; empty for none) and its
    ``text`` (the entry as written, stripped: error messages name it)."""

    level: str
    settings: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def label(self, defaults: object | None = None) -> str:
        """A short name for the figures: the level, then each setting whose value differs
        from the attribute of that name of *defaults* (the player the level makes with no
        settings; every setting when None), as ``key=value`` in the order given (JSON values,
        text bare).

        >>> Player("search", {"simulations": 90, "base": "expert", "melds": True}).label()
        'search simulations=90 base=expert melds=true'
        """
        missing = object()
        shown = [
            f"{key}={value if isinstance(value, str) else json.dumps(value)}"
            for key, value in self.settings.items()
            if defaults is None or getattr(defaults, key, missing) != value
        ]
        return " ".join((self.level, *shown))


def parse_player(text: str, *, within: str | None = None) -> Player:
    """``' Search {"base": "expert"} '`` -> ``Player("search", {"base": "expert"}, ...)``:
    one entry of an arena's ``--players`` text (no comma outside braces), its level
    stripped and in lower case. Whether the level exists is the caller's to check.

    Raises :class:`ParlourError` for an empty level (naming *within*, the whole text the
    entry came from, if given) or settings that are not a JSON object.
    """
    entry = text.strip()
    brace = entry.find("{")
    level = (entry if brace < 0 else entry[:brace]).strip().lower()
    if not level:
        whole = text if within is None else within
        raise ParlourError(f"an empty level in {whole!r}: write levels separated by commas")
    settings = json_object(entry, entry[brace:]) if brace >= 0 else {}
    return Player(level, settings, entry)


def json_object(spec: str, text: str) -> dict[str, Any]:
    """The JSON object *text* (empty for none) of the player *spec* (named in the errors).
    Raises :class:`ParlourError` when *text* is not JSON or not an object, or gives a key
    twice in one object (JSON's reader keeps the last silently: ``{"reach": 1, "reach": 4}``
    is a typing slip, not reach 4); a number of more digits than Python reads (over 4,300)
    and arrays or objects nested too deep for its reader are not JSON here either (were a
    ``ValueError`` or ``RecursionError``)."""
    try:
        found = json.loads(text or "{}", object_pairs_hook=_once_each)
    except _Repeated as repeated:
        raise ParlourError(f"{spec}: {repeated.key!r} given twice in the settings") from None
    except json.JSONDecodeError as error:
        raise ParlourError(f"{spec}: settings are not JSON ({error})") from None
    except ValueError:  # int() refuses a number of more than 4,300 digits
        raise ParlourError(f"{spec}: settings hold a number of too many digits") from None
    except RecursionError:
        raise ParlourError(f"{spec}: settings are not JSON (nested too deep)") from None
    if not isinstance(found, dict):
        raise ParlourError(f"{spec}: settings must be a JSON object, not {found!r}")
    return found


class _Repeated(Exception):
    """A key given twice in one JSON object (:func:`json_object`)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's *pairs* as a dict; raises :class:`_Repeated` for a key given twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Repeated(key)
        found[key] = value
    return found


def json_settings(spec: str, settings: Mapping[str, Any], kind: type) -> dict[str, Any]:
    """The *settings* of the player *spec* (a JSON object, as :func:`parse_player` reads
    it) as keyword arguments of the dataclass *kind*: a new dict. Raises
    :class:`ParlourError` for a key that is not a field of *kind*; the values are *kind*'s
    to check (its ``__post_init__``)."""
    known = [f.name for f in fields(kind)]
    for key in settings:
        if key not in known:
            raise ParlourError(f"{spec}: unknown setting {key!r}; settings: {', '.join(known)}")
    return dict(settings)


def parse_players(
    text: str, spec: GameSpec, *, extra: Sequence[str] = (), settable: Sequence[str] = ()
) -> list[Player]:
    """``'hard{"reach": 4.0, "gain": 3.0}, medium'`` -> one :class:`Player` per seat for an
    arena of *spec*'s game, split at the commas outside braces (:func:`split_players`);
    *extra* names levels an arena also accepts (``"random"``), *settable* the levels that
    take settings in braces.

    Raises :class:`ParlourError` for a brace not matched, an empty entry, an unknown level,
    settings that are not a JSON object or given to a level not in *settable*, or a number
    of players outside 2 and the game's maximum.
    """
    players = [parse_player(part, within=text) for part in split_players(text)]
    for player in players:
        level = player.level
        if level not in (*spec.bot_levels, *extra) and level not in research_levels(spec):
            known = ", ".join((*spec.bot_levels, *extra, *research_levels(spec)))
            raise ParlourError(f"unknown computer level {level!r}; levels are: {known}")
        if "{" in player.text and level not in settable:
            takes = f"; only {', '.join(settable)} take settings" if settable else ""
            raise ParlourError(f"{player.text}: {level} takes no settings{takes}")
    if not 2 <= len(players) <= spec.max_players:
        raise ParlourError(
            f"an arena takes 2-{spec.max_players} players for {spec.title}, not {len(players)}"
        )
    return players


def parse_levels(text: str, spec: GameSpec, *, extra: Sequence[str] = ()) -> list[str]:
    """``"strong,cautious"`` -> one computer level per seat for an arena of *spec*'s game
    (no level takes settings); *extra* names baselines an arena also accepts (``"random"``).

    Raises :class:`ParlourError` as :func:`parse_players` does: for an empty entry, an
    unknown level, settings in braces, or a number of players outside 2 and the game's
    maximum.

    >>> from parlour.engine.registry import find
    >>> parse_levels(" Strong, cautious ", find("ten-thousand"))
    ['strong', 'cautious']
    """
    return [player.level for player in parse_players(text, spec, extra=extra)]
