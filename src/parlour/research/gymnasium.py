"""A single-agent Gymnasium environment: solo play, or one seat against fixed parlour
computer players (the ``research`` extra).

>>> from parlour.research.gymnasium import ParlourGymEnv
>>> env = ParlourGymEnv("ten-thousand", players=1, reward="points", turns=1)
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((19,), True)

The agent plays seat ``seat`` (default 0); every other seat is played by ``opponent``, a
computer level of the game (``"strong"``, ``"hard"``...) or any :class:`parlour.bots.Bot`.
Chance and the opponents' choices are drawn with a ``random.Random`` seeded by
``reset(seed=...)``. Observations are the seat's vector (``docs/research.md``); the legal
actions are ``info["action_mask"]`` (and :meth:`ParlourGymEnv.action_masks`, the form
MaskablePPO reads). Rewards: ``"win"`` (default) gives the engine's return at the end
(winners share 1.0); ``"points"`` gives each change of the seat's score (points banked,
round scores, word scores). ``turns=N`` (dice games only) ends the episode when the seat has
finished N turns: ``turns=1`` with ``players=1`` is one solo turn. ``info["over"]`` says the
episode is over; it can be so at ``reset`` already (a farkle on the first roll of a one-turn
episode: no action is legal, and the turn scored nothing). An illegal action, and any
action once the episode is over, raises :class:`~parlour.engine.errors.IllegalMove` and
changes nothing; with ``illegal="end"`` it ends the episode instead (reward -1, the game
unchanged), for learners that sample unmasked actions.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.bots.base import Bot
from parlour.engine.errors import IllegalMove
from parlour.games.dice.state import DiceState
from parlour.research.codecs import load_codec
from parlour.research.position import Position, Vector, action_id


class ParlourGymEnv(gymnasium.Env[Vector, int]):
    """One seat of a parlour game as a Gymnasium environment (see the module docstring).

    Raises ``ValueError`` for a game with other seats and no ``opponent``, an unknown
    ``reward`` or ``illegal``, ``turns`` that is not an ``int`` of 1 or more, or ``turns`` in
    a game that is not a dice game; ``BadOption``
    for the game's options.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        game: str,
        *,
        opponent: str | Bot | None = None,
        seat: int = 0,
        reward: str = "win",
        turns: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.codec = load_codec(game, **options)
        n = self.codec.num_players
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat}: seats are 0-{n - 1}")
        if reward not in ("win", "points"):
            raise ValueError(f"reward is 'win' or 'points', not {reward!r}")
        if turns is not None and (type(turns) is not int or turns < 1):
            raise ValueError(f"turns is a whole number of turns, 1 or more, not {turns!r}")
        if illegal not in ("raise", "end"):
            raise ValueError(f"illegal is 'raise' or 'end', not {illegal!r}")
        self.illegal = illegal
        self.seat = seat
        self.reward_kind = reward
        self.turns = turns
        self.render_mode = render_mode
        self.opponent: Bot | None = self._bot(opponent) if isinstance(opponent, str) else opponent
        if n > 1 and self.opponent is None:
            raise ValueError(f"{game} with {n} seats needs an opponent (a computer level)")
        self.observation_space = spaces.Box(
            -np.inf, np.inf, (self.codec.observation_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.codec.num_actions)  # type: ignore[assignment]
        self.position: Position = self.codec.new_position()
        if turns is not None and not isinstance(self.position.state, DiceState):
            raise ValueError("turns=N is offered for the dice games only")
        self._rng = random.Random()

    def _bot(self, level: str) -> Bot:
        from parlour.session import make_bot

        return make_bot(self.codec.game.spec, level)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for each legal action id now, 0 for the others."""
        if self.position.current_player() == self.seat:
            return self.position.action_mask()
        return np.zeros(self.codec.num_actions, dtype=np.int8)

    _ended = False
    """True once an illegal action ended the episode (``illegal="end"``), until ``reset``."""

    def _points(self) -> int:
        return int(self.position.state.scores[self.seat])  # type: ignore[attr-defined]

    def _turns_done(self) -> bool:
        state = self.position.state
        return (
            self.turns is not None
            and isinstance(state, DiceState)
            and state.turns_played(self.seat) >= self.turns
        )

    def _advance(self) -> None:
        """Chance and the other seats move until this seat decides or the episode ends."""
        position = self.position
        while not position.is_terminal() and not self._turns_done():
            player = position.current_player()
            if player == self.seat:
                return
            if position.is_chance():
                position.draw(self._rng)
            else:
                assert self.opponent is not None
                state = position.state
                action = self.opponent.choose(state, player, self._rng)
                state.apply(action, player=player)

    def _info(self) -> dict[str, Any]:
        over = self._ended or self.position.is_terminal() or self._turns_done()
        return {"action_mask": self.action_masks(), "over": over}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.position = self.codec.new_position()
        self._ended = False
        self._advance()
        self._last_points = self._points()
        return self.position.observation(self.seat), self._info()

    def step(self, action: int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        try:
            if self._ended or self.position.current_player() != self.seat or self._turns_done():
                # the game over, its turns done, or (turns=N) another seat's roll next: a
                # chance id here would choose the dice
                raise IllegalMove("the episode is over: reset to start another")
            self.position.apply_id(action_id(action))
        except IllegalMove:
            if self.illegal == "raise":
                raise
            self._ended = True  # until reset: the episode ended here, whatever the game
            return self.position.observation(self.seat), -1.0, True, False, self._info()
        self._advance()
        done = self.position.is_terminal() or self._turns_done()
        if self.reward_kind == "points":
            points = self._points()
            reward = float(points - self._last_points)
            self._last_points = points
        else:
            reward = self.position.returns()[self.seat] if self.position.is_terminal() else 0.0
        return self.position.observation(self.seat), reward, done, False, self._info()

    def render(self) -> str | None:
        """The game as text."""
        return self.position.render()
