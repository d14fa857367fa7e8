"""Every parlour game as an OpenSpiel (pyspiel) Python game (the ``research`` extra).

>>> import pyspiel
>>> import parlour.research.openspiel  # registers the games
>>> game = pyspiel.load_game("parlour_rummy", {"ending_score": 100})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(1307, 52, 2)
>>> game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
True

Registered names: ``parlour_`` and the game's name with ``_`` for ``-``, for every installed
game whose spec names a research codec (``parlour_ten_thousand``, ``parlour_greedy``,
``parlour_pig``, ``parlour_rummy``, ``parlour_crossword``); the parameters are the game's
options (``players`` the number of seats). Game types: sequential, explicit stochastic
chance, terminal rewards, constant sum (winners share 1.0); perfect or imperfect information
as the spec says (imperfect for Rummy and the crossword). Action ids, chance ids and tensors
are the codecs' (``docs/research.md``).

Observations: the observation tensor of a seat is its observation vector; the information
state tensor is the same vector, and the information state string is the seat's observation
string, except in the perfect-information games (the dice games, Pig), whose information
state string is the whole history of ids. For Rummy and the crossword the information state
is therefore the seat's present view (hand or rack, table or board, discard pile, scores,
what is known of the other hands), not a record of every past event.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from parlour.engine.registry import find, load
from parlour.engine.spec import Information
from parlour.engine.state import CHANCE, TERMINAL
from parlour.research.codecs import codec_class, codec_for, games, split_parameters
from parlour.research.position import Codec, Position

_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)
_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)

PREFIX = "parlour_"
"""OpenSpiel names are this prefix and the parlour name with ``_`` for ``-``."""


def openspiel_name(game: str) -> str:
    """``"ten-thousand"`` -> ``"parlour_ten_thousand"``."""
    return PREFIX + find(game).name.replace("-", "_")


def _game_type(name: str) -> Any:
    spec = find(name)
    params = {key: opt.default for key, opt in spec.options.items()}
    for fixed in codec_class(spec).fixed_options:  # options the adapters do not offer
        params.pop(fixed, None)
    params.update(codec_class(spec).parameters)  # the codec's own (the dice numbering)
    imperfect = spec.information is Information.IMPERFECT
    return pyspiel.GameType(
        short_name=openspiel_name(name),
        long_name=f"parlour {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if imperfect
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class ParlourGame(pyspiel.Game):  # type: ignore[misc]
    """One parlour game with its options, as a pyspiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        game, parameters = split_parameters(name, options)
        self.codec: Codec = codec_for(load(name, **game), **parameters)
        n = self.codec.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=self.codec.max_chance_outcomes,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=2**31 - 1,  # no bound: dice turns and rounds can go on
        )
        super().__init__(_GAME_TYPES[name], info, options)

    def new_initial_state(self) -> ParlourState:
        """A state at the start of the game."""
        return ParlourState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ParlourObserver:
        """The observer for observations (default) or information states (perfect recall)."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ParlourObserver(self.codec, information_state=recall)


class ParlourState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state around a :class:`~parlour.research.position.Position`."""

    def __init__(self, game: ParlourGame) -> None:
        super().__init__(game)
        self._codec = game.codec
        self._position: Position | None = None  # made when first asked (a clone replaces it)

    @property
    def position(self) -> Position:
        """The parlour position this state shows."""
        if self._position is None:
            self._position = self._codec.new_position()
        return self._position

    def current_player(self) -> int:
        player = (self._position or self.position).current_player()
        if player >= 0:
            return player
        return _CHANCE_ID if player == CHANCE else _TERMINAL_ID

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.position.current_player():
            return []
        return self.position.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.position.apply_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE) and self.position.is_chance():
            return self.position.id_to_string(action)
        if player == self.position.current_player():
            return self.position.id_to_string(action)
        return self.position.codec.action_name(action)

    def is_terminal(self) -> bool:
        return (self._position or self.position).current_player() == TERMINAL

    def returns(self) -> list[float]:
        return self.position.returns()

    def resample(self, player: int, rng: random.Random) -> ParlourState:
        """A state *player* cannot tell from this one, the hidden cards dealt again at
        random with *rng* (for information-set search). Rummy only; the dice games have
        nothing hidden and return a copy."""
        twin: ParlourState = self.clone()
        resample = getattr(twin.position, "resample", None)
        if resample is not None:
            resample(player, rng)
        return twin

    def __str__(self) -> str:
        return self.position.render()


class ParlourObserver:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from`` and
    ``string_from`` (see the module docstring for what each holds)."""

    def __init__(self, codec: Codec, *, information_state: bool) -> None:
        self.codec = codec
        self.information_state = information_state
        self.tensor = np.zeros(codec.observation_size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, size in codec.observation_layout():
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: ParlourState, player: int) -> None:
        """Fill ``tensor`` with *player*'s view of *state*."""
        self.tensor[:] = state.position.observation(player)

    def string_from(self, state: ParlourState, player: int) -> str:
        """*player*'s observation string, or information state string."""
        if self.information_state and state.get_game().get_type().information == (
            pyspiel.GameType.Information.PERFECT_INFORMATION
        ):
            return str(state.history_str())
        return state.position.observation_string(player)


_GAME_TYPES = {name: _game_type(name) for name in games()}


def _game_class(name: str) -> type[ParlourGame]:
    """A ParlourGame subclass for *name*, the creator pyspiel registers (a class, not a
    closure: pyspiel's registry outlives the interpreter, and a class is still referenced
    when it lets go, so nothing is freed without the GIL at exit)."""

    def __init__(self: ParlourGame, params: dict[str, Any] | None = None) -> None:
        ParlourGame.__init__(self, name, params)

    title = "".join(part.title() for part in name.split("-"))
    return type(f"{title}Game", (ParlourGame,), {"__init__": __init__})


def load_game(game: str, **options: Any) -> Any:
    """``pyspiel.load_game`` of a parlour game by its parlour name, with its options."""
    return pyspiel.load_game(openspiel_name(game), options)


for _name in games():
    if openspiel_name(_name) not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPES[_name], _game_class(_name))
