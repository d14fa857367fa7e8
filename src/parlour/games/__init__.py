"""The games: one package each, found through the ``parlour.games`` entry points.

Calling this package lists them: ``parlour.games()`` returns each installed game's
:class:`GameSpec` (the package object is callable, so the subpackage and the documented
function share one name). Importing it imports no game.
"""

from __future__ import annotations

import sys
import types

from parlour.engine.registry import specs
from parlour.engine.spec import GameSpec


class _CallableGames(types.ModuleType):
    def __call__(self) -> list[GameSpec]:
        """Every installed game, sorted by name, with its options (``spec.options``)."""
        return specs()


sys.modules[__name__].__class__ = _CallableGames
