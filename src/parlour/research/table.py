"""A codec for any game whose actions and chance outcomes are a short fixed list, declared
as plain data in the game's own package (which imports only the engine).

The game's spec names its encoding (``GameSpec.research``, ``"module"`` or
``"module:object"``): a module or object with

- ``ACTIONS``: every player action, in id order (id = index; the numbering, stable across
  versions);
- ``OUTCOMES``: every chance outcome, in id order;
- ``observation_layout(game) -> list[tuple[str, int]]``: the observation's parts and lengths;
- ``observation(state, seat) -> Sequence[float]``: *seat*'s view as numbers, laid out so,
  from what the seat may know only.

:class:`TableCodec` turns it into a :class:`~parlour.research.position.Codec`: legal ids are
the ids of the engine's legal actions, chance ids those of its outcomes with their
probabilities, and every id applied goes through the engine's checked ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE, Game, State
from parlour.research.position import (
    Codec,
    Position,
    Vector,
    check_id,
    check_layout,
    check_seat,
)


class Encoding(Protocol):
    """What a game declares (see the module docstring)."""

    ACTIONS: Sequence[Any]
    OUTCOMES: Sequence[Any]

    def observation_layout(self, game: Game) -> list[tuple[str, int]]: ...

    def observation(self, state: State, seat: int) -> Sequence[float]: ...


class TableCodec(Codec):
    """The codec of a game with an :class:`Encoding`."""

    def __init__(self, game: Game, encoding: Encoding) -> None:
        super().__init__(game)
        self.encoding = encoding
        self.actions = tuple(encoding.ACTIONS)
        self.outcomes = tuple(encoding.OUTCOMES)
        self.action_ids = {a: i for i, a in enumerate(self.actions)}
        self.outcome_ids = {o: i for i, o in enumerate(self.outcomes)}
        self.num_actions = len(self.actions)
        self.max_chance_outcomes = max(1, len(self.outcomes))
        self._layout = list(encoding.observation_layout(game))
        self.observation_size = sum(n for _, n in self._layout)
        check_layout(self._layout, self.observation_size)

    def observation_layout(self) -> list[tuple[str, int]]:
        return list(self._layout)

    def new_position(self) -> TablePosition:
        return TablePosition(self, self.game.new_initial_state())

    def action_name(self, action_id: int) -> str:
        """The action's notation. Raises :class:`IllegalMove` for anything but an id."""
        check_id(action_id, self.num_actions, f"an action id of {self.game.spec.name}")
        return str(self.actions[action_id])


class TablePosition(Position):
    """A game in progress through a :class:`TableCodec`."""

    codec: TableCodec

    def legal_ids(self) -> list[int]:
        player = self.state.current_player()
        if player < 0:
            return []
        ids = self.codec.action_ids
        return sorted(ids[a] for a in self.state.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = self.codec.outcome_ids
        return sorted((ids[o], float(p)) for o, p in self.state.chance_outcomes())

    def sample_chance(self, rng: random.Random) -> int:
        return self.codec.outcome_ids[self.state.sample_chance(rng)]

    def apply_id(self, action_id: int) -> None:
        # The engine's apply checks the action the id names (IllegalMove, nothing changed).
        if self.is_terminal():
            raise IllegalMove("the game is over")
        chance = self.state.current_player() == CHANCE
        table = self.codec.outcomes if chance else self.codec.actions
        if type(action_id) is not int or not 0 <= action_id < len(table):
            kind = "a chance outcome" if chance else "a legal action id"
            raise IllegalMove(f"{action_id!r} is not {kind} here")
        self.state.apply(table[action_id])

    def _apply_chance(self, chance_id: int) -> None:
        self.state.apply(self.codec.outcomes[chance_id])

    def _apply_action(self, action_id: int) -> None:
        self.state.apply(self.codec.actions[action_id])

    def id_to_string(self, action_id: int) -> str:
        chance = self.is_chance()
        table = self.codec.outcomes if chance else self.codec.actions
        what = "a chance outcome" if chance else "an action id"
        return self.state.action_to_string(table[check_id(action_id, len(table), what)])

    def observation(self, seat: int) -> Vector:
        seat = check_seat(seat, self.codec.num_players)
        return np.asarray(self.codec.encoding.observation(self.state, seat), np.float32)

    def clone(self) -> TablePosition:
        return TablePosition(self.codec, self.state.clone())
