"""The lexicon: the packaged ENABLE list, other word lists, refusals and the compiled cache."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import parlour
from parlour.games.crossword import lexicon as lexmod
from parlour.games.crossword.lexicon import (
    Lexicon,
    LexiconError,
    cache_dir,
    default_source,
    load_lexicon,
    load_source,
)
from parlour.games.crossword.notation import parse


def test_enable_word_counts() -> None:
    lines = gzip.decompress(default_source()).decode("ascii").split()
    assert len(lines) == 172_820 and len(set(lines)) == 172_820
    lex = load_lexicon()
    assert len(lex) == 168_548  # the words of 2-15 letters
    assert lex.words == tuple(sorted(lex.words))
    assert all(2 <= len(w) <= 15 and w.isupper() for w in lex.words)
    assert {"AA", "QUACK", "QUICK", "ZYZZYVAS", "OX", "UN"} <= set(lex.words)
    assert "QUAKC" not in lex and "A" not in lex and "quack" not in lex
    assert lex.has_prefix("QUA") and not lex.has_prefix("QX")


def test_a_word_list_file(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("zax\nQAT\n\n  xu  \nno way\nx\n12\nzax\n", encoding="utf-8")
    lex = load_lexicon(str(path))
    assert lex.words == ("QAT", "XU", "ZAX")
    state = parlour.load("crossword", lexicon=str(path)).new_initial_state()
    assert state.lexicon is lex


def test_a_word_list_with_no_usable_word_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("x\n1234\nhello world\nabcdefghijklmnop\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"no usable words in 4 lines .*2-15 letters"):
        load_lexicon(str(path))
    with pytest.raises(LexiconError, match="no usable words"):
        parlour.load("crossword", lexicon=str(path)).new_initial_state()
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00cat")
    with pytest.raises(LexiconError, match="not a word list"):
        load_lexicon(str(binary))
    with pytest.raises(LexiconError, match="cannot read the word list"):
        load_lexicon(str(tmp_path / "missing.txt"))
    with pytest.raises(LexiconError, match="an empty name"):  # not "Is a directory"
        load_lexicon(" ")


def test_a_small_lexicon_decides_what_is_legal(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("zax\nqat\n", encoding="utf-8")
    state = parlour.load("crossword", lexicon=str(path)).new_initial_state()
    for rack in ("AXZQTEE", "AETEEII"):
        state.apply(state.parse_action(f"draw {rack}"))
    plays = {str(a) for a in state.legal_actions() if str(a).endswith(("across", "down"))}
    assert plays == {
        f"{word} {square} {direction}"
        for word in ("QAT", "ZAX")
        for square, direction in [
            ("F8", "across"),
            ("G8", "across"),
            ("H8", "across"),
            ("H6", "down"),
            ("H7", "down"),
            ("H8", "down"),
        ]
    }
    state.apply(parse("ZAX H8 across"))
    assert state.scores == [38, 0]  # (10 + 1 + 8) * 2


def test_the_compiled_form_is_cached_and_a_corrupt_cache_is_rebuilt() -> None:
    source = b"cat\ndog\n"
    first = load_source(source, "mini")
    files = list(cache_dir().glob("*.marshal"))
    assert len(files) == 1
    again = load_source(source, "mini")
    assert again.words == first.words == ("CAT", "DOG") and again.digest == first.digest
    files[0].write_bytes(b"not marshal data")
    assert load_source(source, "mini").words == ("CAT", "DOG")
    assert load_source(source, "mini", use_cache=False).words == ("CAT", "DOG")


def test_from_words_checks_its_words() -> None:
    assert Lexicon.from_words(["OX", "AX", "OX"]).words == ("AX", "OX")
    with pytest.raises(LexiconError, match="not playable"):
        Lexicon.from_words(["ox"])
    assert lexmod.playable("QUACK") and not lexmod.playable("Q")


def test_an_unusable_data_directory_only_costs_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PARLOUR_HOME is a file: no cache can be kept, yet the list loads and its graph builds
    from parlour.games.crossword.wordgraph import load_word_graph

    home = tmp_path / "not-a-directory"
    home.write_text("", encoding="ascii")
    monkeypatch.setenv("PARLOUR_HOME", str(home))
    words = tmp_path / "words.txt"
    words.write_text("qat\nqats\nzax\n", encoding="ascii")
    lexicon = load_lexicon(str(words))
    assert lexicon.words == ("QAT", "QATS", "ZAX")
    graph = load_word_graph(lexicon)
    assert "QATS" in graph and "QA" not in graph
