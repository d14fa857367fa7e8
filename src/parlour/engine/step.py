"""What one step of a game did, told by the rules: the summary screens and logs read.

A terminal app, a history log or a commentary wants to know what an event *did* (a roll that
lost the turn, the points a keep scored, a bank that started the last turns), not only what
the event was. The rules know it: :meth:`~parlour.engine.state.State.describe_step` tells it
as a :class:`Step`, so no interface works it out by comparing two states itself.

The engine fills in who acted, the action's notation, the seat concerned and the
``"game_over"`` mark; each game adds its points, score changes, marks and facts, and lists
its marks in its state module's docstring (the dice games: :mod:`parlour.games.dice.state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GAME_OVER = "game_over"
"""The mark of the step that ended the game (set by the engine for every game)."""


@dataclass(frozen=True)
class Step:
    """One event's summary: plain data (ints, strings, tuples and a JSON-safe mapping).

    - ``by``: who made the event: a seat, :data:`~parlour.engine.state.CHANCE` or
      :data:`~parlour.engine.state.HOST`;
    - ``action``: the event in the game's notation (``"keep 1 5 bank"``, ``"roll 2 2 3 4 6 6"``);
    - ``seat``: the seat the event concerns: the seat that moved; for a chance outcome or a
      host event, the seat whose turn it fell in where the game names it (the dice games, a
      Rummy skip), else ``None``;
    - ``points``: points the event scored for ``seat`` (the dice a keep set aside), 0 if none;
    - ``score_changes``: by seat, how the event changed each seat's score (a bank), or ``()``
      when the game does not tell;
    - ``marks``: names of what happened, in the order it happened (``"farkle"``, ``"bank"``,
      ``"last_turns"``, ...; see the game's state module), the engine's ``"game_over"`` last;
    - ``facts``: the game's figures about the event (``"lost"``: the turn total a farkle
      lost, ...), JSON-safe values by name.
    """

    by: int
    action: str
    seat: int | None
    points: int = 0
    score_changes: tuple[int, ...] = ()
    marks: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)

    def has(self, mark: str) -> bool:
        """Whether *mark* is among :attr:`marks`.

        >>> Step(0, "keep 5 bank", 0, marks=("bank",)).has("bank")
        True
        """
        return mark in self.marks

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON: the fields by name, tuples as lists.

        >>> Step(-1, "roll 2 3", 1, marks=("farkle",), facts={"lost": 350}).to_json()["facts"]
        {'lost': 350}
        """
        return {
            "by": self.by,
            "action": self.action,
            "seat": self.seat,
            "points": self.points,
            "score_changes": list(self.score_changes),
            "marks": list(self.marks),
            "facts": dict(self.facts),
        }
