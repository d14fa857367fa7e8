"""Benchmarks for Crossword (``parlour bench crossword-lexicon``): how long a lexicon takes to
load and how much memory it holds. Figures, not tests: nothing here asserts a speed.

- **cold**: the first run: decompress, parse, sort, build the set, write the compiled cache;
- **cached**: a later run in the same data directory: read the compiled cache, build the set;
- **fresh process**: a new Python process loading the cached lexicon (import time excluded);
- **memory**: bytes allocated by a cached load that stay alive (the lexicon itself), and the
  peak during the load (tracemalloc).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass
from pathlib import Path

from parlour.games.crossword.lexicon import (
    DEFAULT,
    _cache_file,
    default_source,
    load_source,
)


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


if __name__ == "__main__":  # pragma: no cover - manual use
    print(json.dumps(measure_lexicon().to_json(), indent=1))
