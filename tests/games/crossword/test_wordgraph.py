"""The word graph: a minimal DAWG of the lexicon, and its cache in the data directory."""

from __future__ import annotations

import pytest

from parlour.games.crossword import wordgraph
from parlour.games.crossword.lexicon import Lexicon
from parlour.games.crossword.wordgraph import TERMINAL, WordGraph, letter_bits, load_word_graph

WORDS = ["CAT", "CATS", "COT", "COTS", "DOG", "DOGS", "AT", "ATS"]


def test_a_small_graph_shares_its_endings() -> None:
    graph = WordGraph.build(WORDS)
    assert list(graph.words()) == sorted(WORDS)
    assert all(w in graph for w in WORDS) and "CA" not in graph and "DOGSS" not in graph
    assert graph.has_prefix("DO") and not graph.has_prefix("DX") and graph.walk("c@t") is None
    # CAT, COT, DOG and AT end in one state (a word, then an optional S); "CA", "CO" and
    # "A" lead to one state (T, then that end). Seven states: the root, after C, after D,
    # after DO, the shared "T next", the shared end, and after the S (a trie needs 16)
    assert graph.nodes == 7
    end = graph.walk("CAT")
    assert end is not None and end == graph.walk("COT") == graph.walk("DOG") == graph.walk("AT")
    assert graph.masks[end] == TERMINAL | letter_bits("S")


def test_building_refuses_what_is_not_a_word() -> None:
    with pytest.raises(ValueError, match="not a word of letters A-Z"):
        WordGraph.build(["CAT", "c4t"])


def test_the_cache_format_round_trips_and_refuses_garbage() -> None:
    graph = WordGraph.build(WORDS, "abc")
    again = WordGraph.from_bytes(graph.to_bytes())
    assert (again.masks, again.edges, again.digest) == (graph.masks, graph.edges, "abc")
    for bad in (b"", b"junk", graph.to_bytes()[:-7]):
        with pytest.raises(ValueError):
            WordGraph.from_bytes(bad)


def test_load_builds_once_then_reads_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    lexicon = Lexicon.from_words(WORDS, "pets")
    built = load_word_graph(lexicon)
    path = wordgraph.cache_file(lexicon)
    assert path.exists() and path.name == f"{lexicon.digest}.dawg"
    monkeypatch.setattr(wordgraph, "_LOADED", {})

    def no_build(*args: object, **kwargs: object) -> WordGraph:
        raise AssertionError("built again")

    monkeypatch.setattr(WordGraph, "build", no_build)
    cached = load_word_graph(lexicon)
    assert cached.edges == built.edges and cached.digest == lexicon.digest
    assert load_word_graph(lexicon) is cached  # once per process


def test_a_corrupt_cache_is_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    lexicon = Lexicon.from_words(WORDS, "pets")
    path = wordgraph.cache_file(lexicon)
    path.write_bytes(b"\x00garbage")
    monkeypatch.setattr(wordgraph, "_LOADED", {})
    graph = load_word_graph(lexicon)
    assert list(graph.words()) == sorted(WORDS)
    assert WordGraph.from_bytes(path.read_bytes()).edges == graph.edges  # rewritten
