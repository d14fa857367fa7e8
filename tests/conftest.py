"""Shared fixtures: every test gets its own data directory (never the user's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def parlour_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh ``PARLOUR_HOME`` for each test; cached database engines are dropped after."""
    home = tmp_path / "parlour-home"
    monkeypatch.setenv("PARLOUR_HOME", str(home))
    yield home
    from parlour.storage.db import forget_engines

    forget_engines()
