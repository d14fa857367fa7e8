"""Game names and aliases -> specs, found through the ``parlour.games`` entry points.

Each installed game package declares one entry point in the ``parlour.games`` group, naming
its :class:`GameSpec` (``ten-thousand = "parlour.games.ten_thousand:SPEC"`` in
``pyproject.toml``); the registry loads them on first use and never imports a game itself.
:func:`register` adds a spec by hand (a test's or a notebook's game).
"""

from __future__ import annotations

import warnings
from typing import Any

from parlour.engine.errors import UnknownGame
from parlour.engine.spec import GameSpec
from parlour.engine.state import Game

_SPECS: dict[str, GameSpec] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register(spec: GameSpec) -> None:
    """Add *spec* under its name and aliases. Raises ``ValueError`` on a name clash, adding
    none of them (a spec is registered whole or not at all)."""
    names = (spec.name, *spec.aliases)
    for name in names:
        key = _key(name)
        if key in _SPECS and _SPECS[key] is not spec:
            raise ValueError(f"game name {name!r} is already registered")
    for name in names:
        _SPECS[_key(name)] = spec


def find(name: str) -> GameSpec:
    """The spec for *name* or an alias (case-insensitive; ``_`` and ``-`` alike).

    Raises :class:`UnknownGame` listing the games there are.
    """
    _load_games()
    spec = _SPECS.get(_key(name)) if isinstance(name, str) else None
    if spec is None:
        names = ", ".join(s.name for s in specs())
        raise UnknownGame(f"no game called {name!r}; the games are: {names}")
    return spec


def specs() -> list[GameSpec]:
    """Every registered game, once each, sorted by name."""
    _load_games()
    seen: list[GameSpec] = []
    for spec in _SPECS.values():
        if spec not in seen:
            seen.append(spec)
    return sorted(seen, key=lambda spec: spec.name)


def load(name: str, **options: Any) -> Game:
    """Load the game *name* with *options* (each game's ``players`` and house rules).

    Raises :class:`UnknownGame` or :class:`~parlour.engine.errors.BadOption`, whose messages
    list what is allowed.

    >>> import parlour
    >>> parlour.load("ten-thousand", players=3).num_players
    3
    """
    spec = find(name)
    return Game(spec, spec.resolve_options(options))


ENTRY_POINTS = "parlour.games"
"""The entry-point group games are found in."""

_loaded = False
_broken: dict[str, str] = {}


def broken() -> dict[str, str]:
    """Entry points of the ``parlour.games`` group that failed to load: name -> reason."""
    _load_games()
    return dict(_broken)


def _load_games() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINTS):
        try:
            spec = point.load()
            if not isinstance(spec, GameSpec):
                raise TypeError(f"{point.value} is a {type(spec).__name__}, not a GameSpec")
            register(spec)
        except Exception as error:  # a broken plugin must not take the other games down
            _broken[point.name] = f"{type(error).__name__}: {error}"
            warnings.warn(
                f"game {point.name!r} ({point.value}) did not load: {error}", stacklevel=2
            )
