"""The lexicon as a word graph: a minimal DAWG (directed acyclic word graph) for the move
generator (:mod:`.movegen`).

A word graph is a trie whose equal sub-tries are merged: ENABLE's 168,548 playable words take
52,929 nodes and 121,438 edges. Node 0 is the root; the path of a word's letters from the root
ends at a node marked terminal. Two plain tables hold it, made for the generator's inner loop:

- ``masks[node]``: bits 0-25 the letters A-Z that have an edge out of *node*, bit 26
  (:data:`TERMINAL`) set when a word ends at *node*; the generator intersects it with the
  letters of the rack and of a square's cross-check in one ``&``;
- ``edges[node << 5 | letter]``: the node an edge leads to (``letter`` is 0 for A to 25 for Z).

Built with the incremental algorithm of Daciuk, Mihov, Watson and Watson ("Incremental
construction of minimal acyclic finite-state automata", Computational Linguistics 26(1), 2000)
from the sorted words, then cached in the data directory beside the compiled lexicon
(``lexicon/<lexicon digest>.dawg``), so later runs read two arrays instead of building it.

**Why not a package:** ``dawg2`` stores a DAWG in C++, but its Python API answers questions
about whole keys (``keys``, ``prefixes``, ``has_keys_with_prefix``) and steps one byte at a time;
it has no per-node set of next letters, which is what the generator intersects with the rack and
the cross-check at every square.

>>> graph = WordGraph.build(["CAT", "CATS", "COT"])
>>> "CATS" in graph, "CA" in graph, graph.has_prefix("CA")
(True, False, True)
>>> sorted(graph.words())
['CAT', 'CATS', 'COT']
"""

from __future__ import annotations

import marshal
import os
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from parlour.games.crossword.lexicon import Lexicon, cache_dir

TERMINAL = 1 << 26
"""Bit of :attr:`WordGraph.masks`: a word ends at this node."""
LETTERS_MASK = TERMINAL - 1
"""Bits 0-25 of a mask: the letters A-Z."""
ALPHABET = 26
CACHE_FORMAT = 1
"""Bumped whenever the cached form changes, so old caches are rebuilt."""
_A = ord("A")


def letter_bits(letters: Iterable[str]) -> int:
    """The mask of *letters* (``"A"`` is bit 0).

    >>> bin(letter_bits("CAB"))
    '0b111'
    """
    mask = 0
    for letter in letters:
        mask |= 1 << (ord(letter) - _A)
    return mask


@dataclass(frozen=True, eq=False)
class WordGraph:
    """A minimal DAWG of a word list (see the module docstring). Immutable; read-only tables.

    ``digest`` is the :attr:`~.lexicon.Lexicon.digest` of the words it holds (empty for a
    graph built from words directly).
    """

    masks: list[int]
    """By node: the letters with an edge out (bits 0-25) and :data:`TERMINAL`."""
    edges: dict[int, int]
    """``node << 5 | letter`` -> the node that edge leads to."""
    digest: str = ""

    ROOT = 0
    """The root node: the empty prefix."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        """How many nodes the graph has."""
        return len(self.masks)

    def walk(self, text: str, node: int = 0) -> int | None:
        """The node reached from *node* by the letters of *text* (upper case A-Z), or
        ``None`` if no word continues that way."""
        edges = self.edges
        for letter in text:
            code = ord(letter) - _A
            if not 0 <= code < ALPHABET:
                return None
            found = edges.get(node << 5 | code)
            if found is None:
                return None
            node = found
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.walk(word)
        return node is not None and bool(self.masks[node] & TERMINAL)

    def has_prefix(self, prefix: str) -> bool:
        """True if some word starts with *prefix* (or is it)."""
        return self.walk(prefix) is not None

    def words(self, node: int = 0, prefix: str = "") -> Iterator[str]:
        """Every word from *node* (default: the whole list), in alphabetical order, each
        prefixed with *prefix*."""
        mask = self.masks[node]
        if mask & TERMINAL:
            yield prefix
        for code in range(ALPHABET):
            if mask >> code & 1:
                yield from self.words(self.edges[node << 5 | code], prefix + chr(_A + code))

    # --- building -------------------------------------------------------------------------

    @classmethod
    def build(cls, words: Iterable[str], digest: str = "") -> WordGraph:
        """The minimal DAWG of *words* (upper case A-Z; sorted here if they are not).

        Raises ``ValueError`` for a word with another character.
        """
        ordered = sorted(set(words))
        for word in ordered:
            if not word.isascii() or not word.isalpha() or not word.isupper():
                raise ValueError(f"{word!r} is not a word of letters A-Z")
        children, final = _minimal_automaton(ordered)
        return _renumber(children, final, digest)

    # --- the cache --------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The graph in the cache format (``marshal`` of a tuple of flat arrays)."""
        keys = array("I", self.edges.keys())
        targets = array("I", self.edges.values())
        masks = array("I", self.masks)
        return marshal.dumps(
            (CACHE_FORMAT, self.digest, masks.tobytes(), keys.tobytes(), targets.tobytes())
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> WordGraph:
        """Read :meth:`to_bytes`. Raises ``ValueError`` for anything else (a corrupt or old
        cache)."""
        try:
            fmt, digest, masks_raw, keys_raw, targets_raw = marshal.loads(data)
        except (EOFError, TypeError, ValueError) as err:
            raise ValueError(f"not a word graph: {err}") from None
        if fmt != CACHE_FORMAT or not isinstance(digest, str):
            raise ValueError("a word graph of another format")
        masks, keys, targets = array("I"), array("I"), array("I")
        masks.frombytes(masks_raw)
        keys.frombytes(keys_raw)
        targets.frombytes(targets_raw)
        if len(keys) != len(targets) or not masks:
            raise ValueError("a truncated word graph")
        edges = dict(zip(keys, targets, strict=True))
        if sum((m & LETTERS_MASK).bit_count() for m in masks) != len(edges) or (
            targets and max(targets) >= len(masks)
        ):
            raise ValueError("a word graph whose edges do not match its nodes")
        return cls(masks.tolist(), edges, digest)


def _minimal_automaton(words: list[str]) -> tuple[list[dict[int, int]], list[bool]]:
    """Daciuk et al.'s incremental construction over sorted *words*: each new word shares
    the longest prefix with the last one; the last word's states past that prefix are then
    final (no later word passes through them) and are replaced by an equal registered state
    or registered themselves. Returns each state's edges and whether it is final."""
    children: list[dict[int, int]] = [{}]
    final = [False]
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    previous: list[int] = []
    path = [0]  # path[i]: the state after i letters of the previous word

    def minimise(keep: int) -> None:
        while len(path) > keep + 1:
            state = path.pop()
            signature = (final[state], tuple(sorted(children[state].items())))
            twin = register.setdefault(signature, state)
            if twin != state:
                children[path[-1]][previous[len(path) - 1]] = twin

    for word in words:
        codes = [ord(c) - _A for c in word]
        common = 0
        limit = min(len(codes), len(previous))
        while common < limit and codes[common] == previous[common]:
            common += 1
        minimise(common)
        for code in codes[common:]:
            children.append({})
            final.append(False)
            children[path[-1]][code] = len(children) - 1
            path.append(len(children) - 1)
        final[path[-1]] = True
        previous = codes
    minimise(0)
    return children, final


def _renumber(children: list[dict[int, int]], final: list[bool], digest: str) -> WordGraph:
    """Number the states reachable from the root 0, 1, 2... (depth first) and flatten them."""
    number = {0: 0}
    order = [0]
    stack = [0]
    while stack:
        state = stack.pop()
        for code in sorted(children[state], reverse=True):
            child = children[state][code]
            if child not in number:
                number[child] = len(order)
                order.append(child)
                stack.append(child)
    masks: list[int] = []
    edges: dict[int, int] = {}
    for new, state in enumerate(order):
        mask = TERMINAL if final[state] else 0
        for code, child in children[state].items():
            mask |= 1 << code
            edges[new << 5 | code] = number[child]
        masks.append(mask)
    return WordGraph(masks, dict(sorted(edges.items())), digest)


# --- loading, through the cache --------------------------------------------------------------

_LOADED: dict[str, WordGraph] = {}


def cache_file(lexicon: Lexicon) -> Path:
    """Where *lexicon*'s word graph is cached: ``<data dir>/lexicon/<digest>.dawg``."""
    return cache_dir() / f"{lexicon.digest}.dawg"


def load_word_graph(lexicon: Lexicon, *, use_cache: bool = True) -> WordGraph:
    """The word graph of *lexicon*: from this process's memory, else the cache file, else
    built (and cached). A missing, corrupt or stale cache file is rebuilt; a read-only data
    directory only costs the build time."""
    if use_cache:
        known = _LOADED.get(lexicon.digest)
        if known is not None:
            return known
    path = None
    if use_cache:
        try:
            path = cache_file(lexicon)
        except OSError:
            path = None  # no usable data directory: build without the cache
    graph = None
    if path is not None:
        try:
            graph = WordGraph.from_bytes(path.read_bytes())
        except (OSError, ValueError):
            graph = None
        if graph is not None and graph.digest != lexicon.digest:
            graph = None
    if graph is None:
        graph = WordGraph.build(lexicon.words, lexicon.digest)
        if path is not None:
            _write(path, graph.to_bytes())
    if use_cache:
        _LOADED[lexicon.digest] = graph
    return graph


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
