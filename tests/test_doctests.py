"""Run the examples in the public docstrings (they are part of the documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import parlour
import parlour_tools


def _modules() -> list[str]:
    names = []
    infos = [
        *pkgutil.walk_packages(parlour.__path__, "parlour."),
        *pkgutil.walk_packages(parlour_tools.__path__, "parlour_tools."),
    ]
    for info in infos:
        # .research needs the research extra: tests/research runs its examples
        if any(
            part in info.name for part in (".migrations", ".tui", ".server", ".web", ".research")
        ):
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
