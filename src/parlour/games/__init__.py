"""The games: one package each. Importing this package registers every game.

Calling it lists them: ``parlour.games()`` returns each game's :class:`GameSpec` (the package
object is callable, so the subpackage and the documented function share one name).
"""

from __future__ import annotations

import sys
import types

from parlour.engine.registry import specs
from parlour.engine.spec import GameSpec
from parlour.games import crossword, greedy, rummy, ten_thousand


class _CallableGames(types.ModuleType):
    def __call__(self) -> list[GameSpec]:
        """Every game parlour has, with its options (``spec.options``)."""
        return specs()


sys.modules[__name__].__class__ = _CallableGames

__all__ = ["crossword", "greedy", "rummy", "ten_thousand"]
