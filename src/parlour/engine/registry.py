"""Game names and aliases -> specs. Games register themselves when ``parlour.games`` loads."""

from __future__ import annotations

from typing import Any

from parlour.engine.errors import UnknownGame
from parlour.engine.spec import GameSpec
from parlour.engine.state import Game

_SPECS: dict[str, GameSpec] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register(spec: GameSpec) -> None:
    """Add *spec* under its name and aliases. Raises ``ValueError`` on a name clash."""
    for name in (spec.name, *spec.aliases):
        key = _key(name)
        if key in _SPECS and _SPECS[key] is not spec:
            raise ValueError(f"game name {name!r} is already registered")
        _SPECS[key] = spec


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
    """Every registered game, once each, in registration order."""
    _load_games()
    seen: list[GameSpec] = []
    for spec in _SPECS.values():
        if spec not in seen:
            seen.append(spec)
    return seen


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


def _load_games() -> None:
    import importlib

    importlib.import_module("parlour.games")
