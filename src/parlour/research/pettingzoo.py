"""PettingZoo AEC environments for every parlour game (the ``research`` extra).

>>> from parlour.research.pettingzoo import env
>>> e = env("rummy", ending_score=100)
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> obs = e.observe(agent)
>>> obs["observation"].shape, obs["action_mask"].shape
((1259,), (1307,))

Agents are ``player_0`` .. ``player_{n-1}`` (the seats). Each observation is a dict:
``observation``, the seat's ``float32`` vector (layout in ``docs/research.md``; nothing hidden
from that seat), and ``action_mask``, ``int8`` of length ``num_actions``, 1 for the legal action
ids of the agent to move (all zeros for the others). Chance (dice, shuffles, tile draws) is
drawn inside the environment with a ``random.Random`` seeded by ``reset(seed=...)``. Rewards
come at the end: the engine's returns (winners share 1.0). An illegal action raises
:class:`~parlour.engine.errors.IllegalMove` and changes nothing.

``observe`` returns read-only arrays that never change after they are returned (copy one to
change it): in the dice games the observation is a view of immutable bytes and the mask one
the environment keeps per legal-action listing, so nothing is copied. With ``in_place=True``
(:func:`raw_env`, :func:`env`) it writes each agent's observation into that agent's own array
(overwritten by its next ``observe``) and hands out the same read-only masks; the values are
the same.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from parlour.research.codecs import load_codec
from parlour.research.position import Position, action_id

_frombuffer, _FLOAT32 = np.frombuffer, np.dtype(np.float32)


class ParlourEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment of one parlour game with its options (see the module)."""

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        *,
        in_place: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.in_place = in_place
        self.codec = load_codec(game, **options)
        self.game_name = self.codec.game.spec.name
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi", "human"],
            "name": f"parlour_{self.game_name.replace('-', '_')}_v{self.codec.version}",
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        n = self.codec.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    -np.inf, np.inf, (self.codec.observation_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents
        }
        self._observations = [
            np.zeros(self.codec.observation_size, np.float32) for _ in range(n)
        ]  # in_place: each agent's arrays, written by observe
        self._views = [a.data.cast("B") for a in self._observations]  # their bytes
        self._no_mask = np.zeros(self.codec.num_actions, np.int8)
        self._no_mask.flags.writeable = False
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        self._rng: random.Random | None = None
        self.agent_selection: str = self.possible_agents[0]
        self.position: Position = self.codec.new_position()

    def __getstate__(self) -> dict[str, Any]:
        """For ``copy.deepcopy`` and pickle: everything but the byte views of the in-place
        arrays (a memoryview cannot be copied; :meth:`__setstate__` makes the copy's own)."""
        state = self.__dict__.copy()
        del state["_views"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._views = [a.data.cast("B") for a in self._observations]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; *seed* seeds the chance draws (kept from the last reset if None)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.position = self.codec.new_position()
        self.agents = self.possible_agents.copy()
        zeros, falses = self._zeros, self._falses  # new dicts each game, copied: faster
        self.rewards = zeros.copy()
        self._cumulative_rewards = zeros.copy()
        self.terminations = falses.copy()
        self.truncations = falses.copy()
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _advance(self) -> bool:
        """Draw chance until a seat is to move or the game is over; set the selection.
        Returns True when the game is over (the rewards set)."""
        assert self._rng is not None
        player = self.position.advance(self._rng)
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
            return False
        self._finish()
        return True

    def _finish(self) -> None:
        """At the end: each agent's reward (its seat's return) and termination."""
        returns = self.position.returns()
        for a in self.agents:
            self.rewards[a] = returns[self.agent_name_mapping[a]]
            self.terminations[a] = True
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """*agent*'s observation and action mask (see the module): read-only arrays that
        never change, or with ``in_place=True`` the agent's own observation array, written
        again by each call, and a read-only mask (the dice games': one the environment
        keeps)."""
        seat = self.agent_name_mapping[agent]
        position = self.position
        if self.in_place:
            observation = self._observations[seat]
            if position.writes_bytes:
                self._views[seat][:] = position.observation_bytes(seat)
            else:
                position.observation_into(seat, observation)
        elif position.writes_bytes:  # read-only over immutable bytes: nothing copied
            observation = _frombuffer(position.observation_bytes(seat), _FLOAT32)
        else:
            observation = np.empty(self.codec.observation_size, np.float32)
            position.observation_into(seat, observation)
            observation.flags.writeable = False
        return {"observation": observation, "action_mask": position.mask_of(seat, self._no_mask)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._rng is not None
        player = self.position.step_id(
            action if type(action) is int else action_id(action), self._rng
        )
        # Rewards come only at the end, so until then every reward and cumulative reward
        # stays 0 and PettingZoo's bookkeeping (clear, then accumulate) has nothing to do.
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
        else:
            self._finish()
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as text (``ansi``: returned; ``human``: printed)."""
        text = self.position.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game: str, render_mode: str | None = None, *, in_place: bool = False, **options: Any
) -> ParlourEnv:
    """The unwrapped environment of *game* (``"ten-thousand"``, ``"greedy"``, ``"rummy"``,
    ``"crossword"``) with the game's *options*. Raises ``BadOption``/``UnknownGame``.

    :meth:`~ParlourEnv.observe` returns read-only arrays that never change; with
    ``in_place=True`` it writes each agent's observation into one array per agent made once
    and returns it (no allocation per step; copy what you keep)."""
    return ParlourEnv(game, render_mode=render_mode, in_place=in_place, **options)


def env(
    game: str, render_mode: str | None = None, *, in_place: bool = False, **options: Any
) -> AECEnv:
    """:func:`raw_env` wrapped in PettingZoo's order-enforcing wrapper (the usual form)."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(game, render_mode=render_mode, in_place=in_place, **options)
    )
