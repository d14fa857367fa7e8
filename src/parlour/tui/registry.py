"""Which terminal app plays a game: the game's own (``GameSpec.terminal_app``), or the generic
app (:mod:`parlour.tui.generic.app`) for a game with none, imported only when used.
``parlour play <game>`` and ``parlour play --resume`` find the app here. Nothing in this
module imports Textual.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find

if TYPE_CHECKING:
    from parlour.tui.common.source import GameSource
    from parlour.tui.common.table import TableApp, TableSettings

    AppFactory = Callable[[GameSource, TableSettings], TableApp]
else:
    AppFactory = Callable[..., Any]


GENERIC_APP = "parlour.tui.generic.app:make_app"
"""The app of every game whose ``GameSpec.terminal_app`` is ``""``."""


def has_app(game: str) -> bool:
    """True if *game* (a name or alias) has a terminal app of its own (else it is played in
    the generic app)."""
    try:
        return bool(find(game).terminal_app)
    except ParlourError:
        return False


def app_factory(game: str) -> AppFactory:
    """The app factory for *game* (a name or alias): its own app's, or the generic app's for
    a game without one. Imports the app's module.

    Raises :class:`~parlour.engine.errors.UnknownGame` for an unknown game.
    """
    target = find(game).terminal_app or GENERIC_APP
    module, _, function = target.partition(":")
    factory: AppFactory = getattr(importlib.import_module(module), function)
    return factory
