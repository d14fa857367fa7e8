"""Which games have a terminal app: the game's ``GameSpec.terminal_app``, imported only when
used. ``parlour play <game>`` and ``parlour play --resume`` find the app here. Nothing in this
module imports Textual.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, specs

if TYPE_CHECKING:
    from parlour.session import LocalGame
    from parlour.tui.common.table import TableApp, TableSettings

    AppFactory = Callable[[LocalGame, TableSettings], TableApp]
else:
    AppFactory = Callable[..., Any]


def has_app(game: str) -> bool:
    """True if *game* (a name or alias) has a terminal app."""
    try:
        return bool(find(game).terminal_app)
    except ParlourError:
        return False


def app_factory(game: str) -> AppFactory:
    """The app factory for *game* (a name or alias); imports the game's app module.

    Raises :class:`~parlour.engine.errors.UnknownGame` for an unknown game and
    :class:`ParlourError` for a game without a terminal app, naming those that have one.
    """
    spec = find(game)
    target = spec.terminal_app
    if not target:
        with_app = sorted(s.name for s in specs() if s.terminal_app)
        raise ParlourError(
            f"{spec.name} has no terminal app yet; games with one: {', '.join(with_app)}"
        )
    module, _, function = target.partition(":")
    factory: AppFactory = getattr(importlib.import_module(module), function)
    return factory
