"""Rack leaves: what the tiles kept after a play are worth, learned from self-play
(``docs/rules/crossword.md#computer-players``).

A *leave* is what stays on the rack after a play or an exchange. Its value is the points it
adds to (or takes from) the player's next play compared with an average leave, in points. The
hard computer player plays for score plus leave value.

The value is a linear model over the leave's make-up, whose weights are learned, not written
by hand: :mod:`parlour_tools.crossword.learn_leaves` (a tool, apart from the game) plays
games between computer players, records each leave and the points of that player's next
play, and fits the weights by ridge regression. The features:

- each letter's count (what an S, a Q or an E is worth to keep);
- each letter's duplicates (count minus one: two Us are worse than one);
- the number of vowels and of consonants together (one weight for each pair, 0-6 tiles in
  all: the balance of the rack; these also carry the average, so the values centre on 0);
- a Q kept without a U.

The learned table ships as package data (``data/leaves.json``, with the command and the
figures of the run that produced it).

>>> model = LeaveModel.load()
>>> model.value("") == model.value("")
True
>>> model.value("S") > model.value("Q")
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from parlour.games.crossword.tiles import LETTERS, RACK_SIZE

VOWELS = frozenset("AEIOU")
"""The vowels (Y counts as a consonant)."""
_A = ord("A")
_BALANCES = [(v, c) for v in range(RACK_SIZE) for c in range(RACK_SIZE) if v + c < RACK_SIZE]
_BALANCE_INDEX = {pair: 52 + i for i, pair in enumerate(_BALANCES)}
Q_WITHOUT_U = 52 + len(_BALANCES)
FEATURES: tuple[str, ...] = (
    *(f"letter {x}" for x in LETTERS),
    *(f"duplicate {x}" for x in LETTERS),
    *(f"{v} vowels {c} consonants" for v, c in _BALANCES),
    "Q without U",
)
"""The names of the model's features, in weight order."""
MEMO_LIMIT = 100_000


def features(leave: str) -> list[tuple[int, float]]:
    """The non-zero features of *leave* (up to 6 tiles) as ``(index, value)`` pairs.

    Raises ``ValueError`` for a leave of 7 tiles or more (nothing was played).

    >>> [FEATURES[i] for i, _ in features("QE")]
    ['letter E', 'letter Q', '1 vowels 1 consonants', 'Q without U']
    """
    if len(leave) >= RACK_SIZE:
        raise ValueError(f"a leave has at most {RACK_SIZE - 1} tiles, not {len(leave)}")
    counts = Counter(leave)
    found: list[tuple[int, float]] = []
    for letter in sorted(counts):
        found.append((ord(letter) - _A, float(counts[letter])))
    for letter in sorted(counts):
        if counts[letter] > 1:
            found.append((26 + ord(letter) - _A, float(counts[letter] - 1)))
    vowels = sum(n for letter, n in counts.items() if letter in VOWELS)
    found.append((_BALANCE_INDEX[(vowels, len(leave) - vowels)], 1.0))
    if "Q" in counts and "U" not in counts:
        found.append((Q_WITHOUT_U, 1.0))
    return found


@dataclass
class LeaveModel:
    """Leave values (points) from learned ``weights`` (one per :data:`FEATURES` name);
    ``meta`` says how they were learned."""

    weights: Sequence[float]
    meta: dict[str, Any] = field(default_factory=dict)
    _memo: dict[str, float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"{len(self.weights)} weights for {len(FEATURES)} features")

    def value(self, leave: str) -> float:
        """What keeping *leave* (0-6 tiles, any order) is worth, in points of the next play
        compared with an average leave."""
        key = "".join(sorted(leave))
        known = self._memo.get(key)
        if known is None:
            weights = self.weights
            known = sum(weights[i] * x for i, x in features(key))
            if len(self._memo) > MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = known
        return known

    # --- the table --------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The model as JSON: ``meta`` and the weights by feature name."""
        return {
            "meta": self.meta,
            "weights": {name: round(w, 4) for name, w in zip(FEATURES, self.weights, strict=True)},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeaveModel:
        """Read :meth:`to_json`. Raises ``ValueError`` for a table that does not give every
        feature a number."""
        try:
            table = data["weights"]
            weights = [float(table[name]) for name in FEATURES]
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a leave table: {err}") from None
        return cls(weights, dict(data.get("meta", {})))

    @classmethod
    def load(cls, path: str | Path | None = None) -> LeaveModel:
        """The table at *path*, or the one shipped with parlour (``data/leaves.json``)."""
        if path is None:
            text = (resources.files("parlour.games.crossword.data") / "leaves.json").read_text(
                encoding="utf-8"
            )
        else:
            text = Path(path).read_text(encoding="utf-8")
        return cls.from_json(json.loads(text))

    def save(self, path: str | Path) -> None:
        """Write the table to *path* as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def fit(samples: Iterable[tuple[str, float]], *, ridge: float = 1.0) -> tuple[list[float], float]:
    """Ridge regression of the points of the next play on the features of the leave.

    *samples* are ``(leave, points of the next play)``. Returns the weights, centred so that
    the mean leave is worth 0 (the mean of the points is taken off the vowel/consonant
    weights, one of which every leave has), and the mean. Raises ``ValueError`` without
    samples.
    """
    n = len(FEATURES)
    gram = [[0.0] * n for _ in range(n)]
    moment = [0.0] * n
    total = 0.0
    count = 0
    for leave, points in samples:
        row = features(leave)
        for i, x in row:
            moment[i] += x * points
            gram_i = gram[i]
            for j, y in row:
                gram_i[j] += x * y
        total += points
        count += 1
    if not count:
        raise ValueError("no samples to learn from")
    for i in range(n):
        gram[i][i] += ridge
    weights = _solve(gram, moment)
    mean = total / count
    for index in _BALANCE_INDEX.values():
        weights[index] -= mean
    return weights, mean


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` (symmetric positive definite) by Gaussian elimination
    with partial pivoting."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / head[col]
            if factor:
                row = rows[r]
                for k in range(col, n + 1):
                    row[k] -= factor * head[k]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (rows[i][n] - sum(rows[i][k] * x[k] for k in range(i + 1, n))) / rows[i][i]
    return x
