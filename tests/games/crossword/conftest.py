"""Fixtures for the crossword tests: a small word list, so whole games run fast."""

from __future__ import annotations

import pytest

from parlour.games.crossword.lexicon import load_lexicon

SMALL_ALPHABET = set("AEIOSTNRLCDU")


def _write(tmp_path_factory: pytest.TempPathFactory, longest: int) -> str:
    words = [w for w in load_lexicon().words if len(w) <= longest and set(w) <= SMALL_ALPHABET]
    path = tmp_path_factory.mktemp("lexicon") / f"small{longest}.txt"
    path.write_text("\n".join(words) + "\n", encoding="ascii")
    return str(path)


@pytest.fixture(scope="session")
def small_lexicon_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The ENABLE words of 2-4 letters spelt with AEIOSTNRLCDU (1,114 words), as a file."""
    return _write(tmp_path_factory, 4)


@pytest.fixture(scope="session")
def tiny_lexicon_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The ENABLE words of 2-3 letters spelt with AEIOSTNRLCDU (277 words), as a file."""
    return _write(tmp_path_factory, 3)
