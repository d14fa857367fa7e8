"""Benchmarks for Crossword: figures, not tests (nothing here asserts a speed).

``parlour bench crossword-lexicon``: how long a lexicon takes to load and how much memory it
holds;

- **cold**: the first run: decompress, parse, sort, build the set, write the compiled cache;
- **cached**: a later run in the same data directory: read the compiled cache, build the set;
- **fresh process**: a new Python process loading the cached lexicon (import time excluded);
- **memory**: bytes allocated by a cached load that stay alive (the lexicon itself), and the
  peak during the load (tracemalloc).

``parlour bench crossword``: the move generator on a fixed set of mid-game positions from
seeded self-play (:func:`bench_positions`), with covering on and off; the word graph's build
and load times and memory; and the hard player against the medium one (the arena).

A tool, apart from the game (see :mod:`parlour_tools`): the CLI imports it when the command
runs.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass
from pathlib import Path

from parlour.engine.registry import load
from parlour.games.crossword.board import Board
from parlour.games.crossword.lexicon import (
    DEFAULT,
    _cache_file,
    default_source,
    load_lexicon,
    load_source,
)
from parlour.games.crossword.movegen import MoveGenerator
from parlour.games.crossword.plays import CrosswordRules
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.wordgraph import WordGraph, cache_file, load_word_graph


@dataclass(frozen=True)
class LexiconFigures:
    """Load figures for one word list: times in seconds (medians over ``repeats``), memory
    in bytes."""

    name: str
    words: int
    source_bytes: int
    cache_bytes: int
    repeats: int
    cold_seconds: float
    cached_seconds: float
    fresh_process_seconds: float
    retained_bytes: int
    peak_bytes: int

    def to_json(self) -> dict[str, object]:
        """The figures as a JSON object."""
        return asdict(self)


def _source(spec: str) -> tuple[bytes, str]:
    if spec == DEFAULT:
        return default_source(), DEFAULT
    return Path(spec).expanduser().read_bytes(), spec


_FRESH = """
import sys, time
from parlour.games.crossword.lexicon import load_source, default_source, DEFAULT
from pathlib import Path
spec = sys.argv[1]
source = default_source() if spec == DEFAULT else Path(spec).expanduser().read_bytes()
start = time.perf_counter()
lex = load_source(source, spec)
print(time.perf_counter() - start, len(lex))
"""


def measure_lexicon(spec: str = DEFAULT, *, repeats: int = 5) -> LexiconFigures:
    """Measure loading the word list *spec* (``"enable"`` or a file) *repeats* times each way.

    Uses (and rewrites) the compiled cache in the data directory. Raises
    :class:`~parlour.games.crossword.lexicon.LexiconError` for a bad list, ``OSError`` for an
    unreadable file.
    """
    source, name = _source(spec)
    cache = _cache_file(source)
    cold: list[float] = []
    for _ in range(repeats):
        cache.unlink(missing_ok=True)
        start = time.perf_counter()
        lexicon = load_source(source, name)
        cold.append(time.perf_counter() - start)
    cached: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        lexicon = load_source(source, name)
        cached.append(time.perf_counter() - start)
    del lexicon
    tracemalloc.start()
    kept = load_source(source, name)
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    fresh: list[float] = []
    for _ in range(max(1, repeats // 2)):
        out = subprocess.run(
            [sys.executable, "-c", _FRESH, spec],
            capture_output=True,
            text=True,
            check=True,
        )
        fresh.append(float(out.stdout.split()[0]))
    return LexiconFigures(
        name=name,
        words=len(kept),
        source_bytes=len(source),
        cache_bytes=cache.stat().st_size,
        repeats=repeats,
        cold_seconds=statistics.median(cold),
        cached_seconds=statistics.median(cached),
        fresh_process_seconds=statistics.median(fresh),
        retained_bytes=retained,
        peak_bytes=peak,
    )


# --- the move generator (``parlour bench crossword``) ---------------------------------------


@dataclass(frozen=True)
class Position:
    """A position to generate plays in: the ``board`` and the ``rack`` of the seat to move,
    from game ``game`` at turn ``turn`` of seeded self-play."""

    board: Board
    rack: str
    game: int
    turn: int


def bench_positions(count: int = 60, *, seed: int = 1) -> list[Position]:
    """*count* mid-game positions (turns 4 to 19, bag not empty) from seeded games between
    two medium computer players, with the ENABLE lexicon and default rules: the same list for
    the same arguments."""
    from parlour.games.crossword.bots import MediumBot

    bot = MediumBot()
    found: list[Position] = []
    game_number = 0
    while len(found) < count:
        rng = random.Random(f"bench:{seed}:{game_number}")
        state = load("crossword", players=2).new_initial_state()
        assert isinstance(state, CrosswordState)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            if 4 <= state.turns < 20 and state.bag:
                found.append(Position(state.board, state.racks[seat], game_number, state.turns))
            state.apply(bot.choose(state, seat, rng))
        game_number += 1
    return found


@dataclass(frozen=True)
class GenerationFigures:
    """Generating every play in each of ``positions`` positions under one set of rules
    (``covering``: covers allowed): times in milliseconds (``wall``: elapsed; ``cpu``: this
    process's processor time, which other load on the machine disturbs less), plays found
    per position, and the time to expand every play into a scored play with its words."""

    covering: bool
    positions: int
    median_ms: float
    max_ms: float
    median_cpu_ms: float
    max_cpu_ms: float
    median_plays: float
    max_plays: int
    cover_plays: int
    median_scored_ms: float

    def to_json(self) -> dict[str, object]:
        """The figures as a JSON object."""
        return asdict(self)


def measure_generation(positions: list[Position], rules: CrosswordRules) -> GenerationFigures:
    """Time :meth:`MoveGenerator.moves` on each position with a fresh generator (no
    cross-check memo from earlier positions: the slowest case) after a garbage collection
    (the collector stays on while timing), and ``plays`` (scored, with words) after it."""
    graph = load_word_graph(load_lexicon())
    wall: list[float] = []
    cpu: list[float] = []
    scored: list[float] = []
    plays: list[int] = []
    covers = 0
    for position in positions:
        generator = MoveGenerator(graph, rules)
        gc.collect()  # the last position's garbage is not this one's cost
        started, started_cpu = time.perf_counter(), time.process_time()
        moves = generator.moves(position.board, position.rack)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        plays.append(len(moves))
        covers += sum(1 for m in moves if m.covers)
        started = time.perf_counter()
        generator.plays(position.board, position.rack)
        scored.append(time.perf_counter() - started)
    return GenerationFigures(
        covering=rules.max_stack != 1,
        positions=len(positions),
        median_ms=statistics.median(wall) * 1000,
        max_ms=max(wall) * 1000,
        median_cpu_ms=statistics.median(cpu) * 1000,
        max_cpu_ms=max(cpu) * 1000,
        median_plays=statistics.median(plays),
        max_plays=max(plays),
        cover_plays=covers,
        median_scored_ms=statistics.median(scored) * 1000,
    )


@dataclass(frozen=True)
class GraphFigures:
    """Loading the word graph of ENABLE: ``build_seconds`` from the words (the first run),
    ``cached_seconds`` from the cache file, ``fresh_process_seconds`` from the cache in a new
    process; its ``nodes``, ``edges``, ``cache_bytes`` and the memory it holds
    (``retained_bytes``, tracemalloc)."""

    nodes: int
    edges: int
    cache_bytes: int
    build_seconds: float
    cached_seconds: float
    fresh_process_seconds: float
    retained_bytes: int

    def to_json(self) -> dict[str, object]:
        """The figures as a JSON object."""
        return asdict(self)


_FRESH_GRAPH = """
import time
from parlour.games.crossword.lexicon import load_lexicon
from parlour.games.crossword import wordgraph
lexicon = load_lexicon()
start = time.perf_counter()
graph = wordgraph.WordGraph.from_bytes(wordgraph.cache_file(lexicon).read_bytes())
print(time.perf_counter() - start, graph.nodes)
"""


def measure_graph(*, repeats: int = 3) -> GraphFigures:
    """Measure building and loading ENABLE's word graph *repeats* times each way (medians).
    Uses (and rewrites) the cache file in the data directory."""
    lexicon = load_lexicon()
    path = cache_file(lexicon)
    build: list[float] = []
    for _ in range(repeats):
        path.unlink(missing_ok=True)
        started = time.perf_counter()
        graph = load_word_graph(lexicon, use_cache=False)
        build.append(time.perf_counter() - started)
    path.write_bytes(graph.to_bytes())
    cached: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        WordGraph.from_bytes(path.read_bytes())
        cached.append(time.perf_counter() - started)
    del graph
    tracemalloc.start()
    kept = WordGraph.from_bytes(path.read_bytes())
    retained, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    fresh = [
        float(
            subprocess.run(
                [sys.executable, "-c", _FRESH_GRAPH], capture_output=True, text=True, check=True
            ).stdout.split()[0]
        )
        for _ in range(max(1, repeats // 2))
    ]
    return GraphFigures(
        nodes=kept.nodes,
        edges=len(kept.edges),
        cache_bytes=path.stat().st_size,
        build_seconds=statistics.median(build),
        cached_seconds=statistics.median(cached),
        fresh_process_seconds=statistics.median(fresh),
        retained_bytes=retained,
    )


if __name__ == "__main__":  # pragma: no cover - manual use
    print(json.dumps(measure_lexicon().to_json(), indent=1))
