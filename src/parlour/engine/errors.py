"""The errors parlour raises, all subclasses of :class:`ParlourError` (a ``ValueError``).

Each message says what was tried and why it was refused, so an interface can show it as is.
"""

from __future__ import annotations


class ParlourError(ValueError):
    """Base class of every error parlour raises on bad input."""


class UnknownGame(ParlourError):
    """A game name that no registered game has as its name or alias."""


class BadOption(ParlourError):
    """An unknown game option, or a value of the wrong type or out of range."""


class IllegalMove(ParlourError):
    """An action refused by the rules; the state it was applied to is unchanged."""


class InvalidNotation(ParlourError):
    """Text that does not parse as an action, chance outcome or dice/cards/tiles."""


class NotEnumerable(ParlourError):
    """The chance outcomes at this node are too many to list (sample one instead)."""


class BadRecord(ParlourError):
    """A game record or saved state that cannot be read or replayed.

    ``index`` is the position of the offending event in the record's ``events`` list, or
    ``None`` when the problem is not with one event (bad JSON, unknown game, wrong result).
    """

    def __init__(self, message: str, *, index: int | None = None) -> None:
        self.index = index
        self.reason = message
        if index is not None:
            message = f"event {index}: {message}"
        super().__init__(message)
