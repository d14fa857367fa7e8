"""The crossword lexicon: which words are legal (``docs/rules/crossword.md#lexicon``).

The default is the public-domain ENABLE list shipped in this package
(``data/enable.txt.gz``, provenance in ``data/ENABLE.md``); any other list, one word per line,
can be loaded from a file (``--lexicon FILE``, game option ``lexicon``). Only words of 2-15
letters A-Z are playable; case is ignored, other lines are skipped, and a list with no playable
word is refused with the reason.

The first load of a list compiles it (decompress, normalise, sort) and caches the compiled form
in the data directory (``<data dir>/lexicon/<sha256 of the source>.marshal``), so later loads
read it back without parsing; within one process each list is loaded once. A move generator
builds its word graph from :attr:`Lexicon.words` (sorted) and may cache it beside, under
:func:`cache_dir`.

>>> lex = load_lexicon()
>>> len(lex), "QUACK" in lex, "QUAKC" in lex, lex.words[0]
(168548, True, False, 'AA')
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import marshal
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from parlour.engine.errors import ParlourError
from parlour.paths import data_dir

MIN_WORD = 2
"""Shortest playable word (letters)."""
MAX_WORD = 15
"""Longest playable word: the width of the board."""
DEFAULT = "enable"
"""The name of the default lexicon (the game option's default value)."""
CACHE_FORMAT = 1
"""Bumped whenever the compiled form changes, so old caches are rebuilt."""


class LexiconError(ParlourError):
    """A word list that cannot be read or has no playable word."""


@dataclass(frozen=True, eq=False)
class Lexicon:
    """A set of playable words: upper case, letters A-Z, 2-15 letters long.

    ``name`` is ``"enable"`` or the file it came from; ``words`` the words, sorted and
    unique (build a word graph from them); ``digest`` the sha256 of the words joined by
    newlines, which identifies the list whatever file it came from.
    """

    name: str
    words: tuple[str, ...]
    digest: str
    _set: frozenset[str] = field(repr=False)

    @classmethod
    def from_words(cls, words: tuple[str, ...] | list[str], name: str = "words") -> Lexicon:
        """A lexicon of *words*, which must already be playable (see :func:`playable`);
        they are sorted and deduplicated here. For tests and small custom lists."""
        unique = tuple(sorted(set(words)))
        bad = [w for w in unique if not playable(w)]
        if bad:
            raise LexiconError(f"not playable words: {', '.join(bad[:5])}")
        if not unique:
            raise LexiconError(f"{name}: no playable words")
        return cls(name, unique, _digest(unique), frozenset(unique))

    def __contains__(self, word: object) -> bool:
        return word in self._set

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def has_prefix(self, prefix: str) -> bool:
        """True if some word starts with *prefix* (binary search in :attr:`words`)."""
        i = bisect.bisect_left(self.words, prefix)
        return i < len(self.words) and self.words[i].startswith(prefix)


def playable(word: str) -> bool:
    """True for 2-15 upper-case letters A-Z."""
    return (
        MIN_WORD <= len(word) <= MAX_WORD and word.isascii() and word.isalpha() and word.isupper()
    )


def _digest(words: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(words).encode("ascii")).hexdigest()


def parse_word_list(text: str, name: str) -> tuple[str, ...]:
    """The playable words of *text* (one word per line, any case), sorted and unique.

    Raises :class:`LexiconError` saying why when there is none.

    >>> parse_word_list("cat\\nDog\\n\\nx\\nno way\\ncat\\n", "list")
    ('CAT', 'DOG')
    """
    lines = text.splitlines()
    words = {w for w in (line.strip().upper() for line in lines) if playable(w)}
    if not words:
        raise LexiconError(
            f"{name}: no usable words in {len(lines)} lines (a usable word is 2-15 letters "
            "A-Z, one word per line)"
        )
    return tuple(sorted(words))


# --- loading and caching --------------------------------------------------------------------

_LOADED: dict[tuple[str, int, int], Lexicon] = {}


def cache_dir() -> Path:
    """Where compiled lexicons (and a move generator's word graphs) are cached."""
    path = data_dir() / "lexicon"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_source() -> bytes:
    """The packaged ENABLE list, gzip-compressed bytes."""
    return (resources.files("parlour.games.crossword.data") / "enable.txt.gz").read_bytes()


def compile_lexicon(source: bytes, name: str) -> Lexicon:
    """Parse *source* (a word list, gzip-compressed or plain UTF-8 text) into a lexicon.

    Raises :class:`LexiconError` for undecodable bytes or a list with no playable word.
    """
    try:
        if source[:2] == b"\x1f\x8b":
            source = gzip.decompress(source)
        text = source.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise LexiconError(f"{name}: not a word list (gzip or UTF-8 text): {err}") from None
    words = parse_word_list(text, name)
    return Lexicon(name, words, _digest(words), frozenset(words))


def _cache_file(source: bytes) -> Path:
    return cache_dir() / f"{hashlib.sha256(source).hexdigest()}.marshal"


def _read_cache(path: Path, name: str) -> Lexicon | None:
    try:
        fmt, digest, words = marshal.loads(path.read_bytes())
        if fmt != CACHE_FORMAT or not isinstance(words, tuple):
            return None
    except (OSError, ValueError, EOFError, TypeError):
        return None  # missing or corrupt: rebuilt by the caller
    return Lexicon(name, words, digest, frozenset(words))


def _write_cache(path: Path, lexicon: Lexicon) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    try:
        tmp.write_bytes(marshal.dumps((CACHE_FORMAT, lexicon.digest, lexicon.words)))
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only data directory only costs speed


def load_source(source: bytes, name: str, *, use_cache: bool = True) -> Lexicon:
    """The lexicon of the word list *source*, through the compiled cache when *use_cache*.

    Raises :class:`LexiconError` (see :func:`compile_lexicon`).
    """
    path = None
    if use_cache:
        try:
            path = _cache_file(source)
        except OSError:
            path = None  # no usable data directory: load without the cache
    if path is not None:
        cached = _read_cache(path, name)
        if cached is not None:
            return cached
    lexicon = compile_lexicon(source, name)
    if path is not None:
        _write_cache(path, lexicon)
    return lexicon


def load_lexicon(spec: str = DEFAULT) -> Lexicon:
    """The lexicon named by the game option *spec*: ``"enable"`` or a word-list file path.

    Loaded once per process (a file is reloaded if it changes). Raises
    :class:`LexiconError` for a missing or unreadable file or one with no playable word.
    """
    if spec == DEFAULT:
        key = (DEFAULT, 0, 0)
        if key not in _LOADED:
            _LOADED[key] = load_source(default_source(), DEFAULT)
        return _LOADED[key]
    if not spec.strip():
        raise LexiconError(
            "the lexicon option is 'enable' or a file of words, one per line, not an empty name"
        )
    path = Path(spec).expanduser()
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key not in _LOADED:
            _LOADED[key] = load_source(path.read_bytes(), spec)
    except OSError as err:
        raise LexiconError(
            f"cannot read the word list {spec!r}: {err.strerror or err}; the lexicon option "
            "is 'enable' or a file of words, one per line"
        ) from None
    return _LOADED[key]
