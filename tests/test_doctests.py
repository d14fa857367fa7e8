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


RESEARCH_EXTRA = ("pettingzoo", "gymnasium", "pyspiel")
"""The modules of the research extra (pyproject.toml): a tool that imports one (the pyspiel
bridge) has its examples run only where the extra is installed, as in ``.ci/run``; the
README's test command installs ``.[test]`` alone."""


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name in RESEARCH_EXTRA:
            pytest.skip(f"{name} needs the research extra ({error.name} is not installed)")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
