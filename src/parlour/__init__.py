"""parlour: classic turn-based parlour games with exact rules and strong computer players.

>>> import parlour
>>> game = parlour.load("ten-thousand", players=2)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from __future__ import annotations

from parlour.engine import (
    CHANCE,
    TERMINAL,
    BadOption,
    BadRecord,
    Game,
    GameSpec,
    IllegalMove,
    InvalidNotation,
    ParlourError,
    State,
    UnknownGame,
    load,
)

__version__ = "0.1.0"

# ``parlour.games()`` lists the games: the games package is callable (see its docstring).
from parlour import games

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BadOption",
    "BadRecord",
    "Game",
    "GameSpec",
    "IllegalMove",
    "InvalidNotation",
    "ParlourError",
    "State",
    "UnknownGame",
    "__version__",
    "games",
    "load",
]
