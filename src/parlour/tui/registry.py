"""Which games have a terminal app: game name -> app factory, imported only when used.

A game adds one entry to :data:`APPS`; ``parlour play <game>`` and ``parlour play --resume``
then find its app here. Nothing in this module imports Textual.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find

if TYPE_CHECKING:
    from parlour.session import LocalGame
    from parlour.tui.common.table import TableApp, TableSettings

    AppFactory = Callable[[LocalGame, TableSettings], TableApp]
else:
    AppFactory = Callable[..., Any]

APPS: dict[str, str] = {
    "ten-thousand": "parlour.tui.ten_thousand.app:make_app",
    "crossword": "parlour.tui.crossword.app:make_app",
    "greedy": "parlour.tui.greedy.app:make_app",
    "rummy": "parlour.tui.rummy.app:make_app",
}
"""Game name (``GameSpec.name``) -> ``"module:function"`` building its app from a
:class:`~parlour.session.LocalGame` and :class:`~parlour.tui.common.table.TableSettings`."""


def has_app(game: str) -> bool:
    """True if *game* (a name or alias) has a terminal app."""
    try:
        return find(game).name in APPS
    except ParlourError:
        return False


def app_factory(game: str) -> AppFactory:
    """The app factory for *game* (a name or alias); imports the game's app module.

    Raises :class:`~parlour.engine.errors.UnknownGame` for an unknown game and
    :class:`ParlourError` for a game without a terminal app, naming those that have one.
    """
    name = find(game).name
    target = APPS.get(name)
    if target is None:
        raise ParlourError(
            f"{name} has no terminal app yet; games with one: {', '.join(sorted(APPS))}"
        )
    module, _, function = target.partition(":")
    factory: AppFactory = getattr(importlib.import_module(module), function)
    return factory
