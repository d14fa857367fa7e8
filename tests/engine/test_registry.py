"""The registry finds games through the ``parlour.games`` entry points and imports none itself."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from importlib.metadata import EntryPoint

import pytest

from parlour.engine import registry
from parlour.engine.errors import UnknownGame

GAME_MODULES = (
    "import sys; import parlour.engine.registry as r; import parlour.games; "
    "before = sorted(m for m in sys.modules if m.startswith('parlour.games.')); "
    "names = [s.name for s in r.specs()]; "
    "after = sorted({m.split('.')[2] for m in sys.modules if m.startswith('parlour.games.')}); "
    "import json; print(json.dumps([before, names, after]))"
)


def test_nothing_imports_a_game_until_the_games_are_asked_for() -> None:
    out = subprocess.run(
        [sys.executable, "-c", GAME_MODULES], capture_output=True, text=True, check=True
    ).stdout
    before, names, after = json.loads(out)
    assert before == []  # the registry and parlour.games import no game
    assert names == sorted(names)
    assert {"crossword", "greedy", "rummy", "ten-thousand"} <= set(names)
    assert {"crossword", "greedy", "rummy", "ten_thousand"} <= set(after)


def test_every_entry_point_names_a_registered_spec() -> None:
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group=registry.ENTRY_POINTS)}
    assert points["ten-thousand"] == "parlour.games.ten_thousand:SPEC"
    for name in points:
        assert registry.find(name).name == name
    assert registry.broken() == {}


def test_a_broken_entry_point_is_reported_and_the_others_still_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    points = [
        EntryPoint("chess", "parlour.games.no_such_game:SPEC", registry.ENTRY_POINTS),
        EntryPoint("notaspec", "parlour.engine.errors:UnknownGame", registry.ENTRY_POINTS),
        EntryPoint("greedy", "parlour.games.greedy:SPEC", registry.ENTRY_POINTS),
    ]
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: points)
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_broken", {})
    monkeypatch.setattr(registry, "_SPECS", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [s.name for s in registry.specs()] == ["greedy"]
    assert sorted(registry.broken()) == ["chess", "notaspec"]
    assert "ModuleNotFoundError" in registry.broken()["chess"]
    assert "is a type, not a GameSpec" in registry.broken()["notaspec"]
    assert len(caught) == 2 and "did not load" in str(caught[0].message)
    with pytest.raises(UnknownGame, match="the games are: greedy"):
        registry.find("chess")


def test_a_spec_whose_alias_clashes_is_not_half_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an outside package's spec with a new name but an alias already taken: reported broken,
    # and its own name must not be left behind, playable, while broken() says it failed
    from dataclasses import replace

    from parlour.games.greedy import SPEC as GREEDY

    impostor = replace(GREEDY, name="impostor", aliases=("greedy",))
    monkeypatch.setattr(registry, "_SPECS", {})
    registry.register(GREEDY)
    with pytest.raises(ValueError, match="'greedy' is already registered"):
        registry.register(impostor)
    expected = dict.fromkeys(("greedy", *GREEDY.aliases), GREEDY)
    assert expected == registry._SPECS
