"""The examples in the research adapters' docstrings run (they need the research extra)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import parlour.research


@pytest.mark.parametrize(
    "name", [m.name for m in pkgutil.walk_packages(parlour.research.__path__, "parlour.research.")]
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
