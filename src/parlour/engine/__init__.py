"""The engine: the protocol every game follows. Imports nothing else from parlour."""

from parlour.engine.errors import (
    BadOption,
    BadRecord,
    IllegalMove,
    InvalidNotation,
    NotEnumerable,
    ParlourError,
    UnknownGame,
)
from parlour.engine.registry import find, load, register, specs
from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.engine.state import CHANCE, HOST, SIMULTANEOUS, TERMINAL, Game, Result, State

__all__ = [
    "CHANCE",
    "HOST",
    "SIMULTANEOUS",
    "TERMINAL",
    "BadOption",
    "BadRecord",
    "Chance",
    "Game",
    "GameSpec",
    "IllegalMove",
    "Information",
    "InvalidNotation",
    "NotEnumerable",
    "Option",
    "ParlourError",
    "Result",
    "State",
    "UnknownGame",
    "find",
    "load",
    "register",
    "specs",
]
