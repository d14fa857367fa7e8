"""OpenSpiel's searches as parlour computer players, for ``parlour arena`` (the research
extra): ``openspiel-mcts`` in the dice games (OpenSpiel's MCTS) and ``openspiel-ismcts`` in
Rummy (OpenSpiel's information-set MCTS).

Each search runs on the pyspiel game of :mod:`parlour.research.openspiel`, from the seat's
position, and its leaves are valued by a short look-ahead rather than a rollout to the end of
the game (a random game of Ten-Thousand or Rummy lasts thousands of steps):

- dice (MCTS, 200 simulations, UCT constant 2): a leaf is worth what the turn's owner would
  bank now (the turn total plus the best keep that banks, or what the turn banked once it is
  over), in thousands of points, to the turn's owner and minus that to the others;
- Rummy (IS-MCTS, 100 simulations, UCT constant 2): a leaf is worth ``tanh(d / 50)``, where *d*
  is the seat's round score minus the best other seat's after one random play-out to the end
  of the round, hidden cards dealt again at random for each simulation (each determinization
  keeps what the seat knows).

The bots decide from the seat's observation only: Rummy's hidden cards are resampled, never
read.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from parlour.bots.base import Bot
from parlour.engine.state import State
from parlour.games.dice.state import DiceState
from parlour.games.rummy.state import RummyState

LEVELS = {
    "ten-thousand": ("openspiel-mcts",),
    "greedy": ("openspiel-mcts",),
    "rummy": ("openspiel-ismcts",),
}
"""The research extra's computer levels by game."""


def levels(game: str) -> tuple[str, ...]:
    """The research extra's levels for *game* (a parlour name); empty if none."""
    return LEVELS.get(game, ())


def make_bot(game: str, level: str) -> Bot:
    """The bot of *level* for *game*. Raises ``ValueError`` for a level the game lacks."""
    if level not in levels(game):
        raise ValueError(f"{game} has no research level {level!r}; it has {levels(game)}")
    if level == "openspiel-mcts":
        return OpenSpielMCTSBot()
    return OpenSpielISMCTSBot()


class _TurnValue:
    """MCTS evaluator for the dice games (see the module docstring)."""

    def __init__(self) -> None:
        self.owner = 0
        self.turns = 0
        self.score = 0

    def evaluate(self, state: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
        dice: DiceState = state.position.state
        n = dice.game.num_players
        if dice.turns > self.turns or dice.over:
            points = dice.scores[self.owner] - self.score
        elif dice.roll is None:
            points = dice.turn_total
        else:
            keeps = dice.keep_points(dice.roll, first_roll=dice.rolls == 1)
            points = dice.turn_total + max(keeps.values(), default=0)
        value = points / 1000.0
        out = np.full(n, -value / max(1, n - 1))
        out[self.owner] = value
        return out

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class _RoundValue:
    """IS-MCTS evaluator for Rummy (see the module docstring)."""

    def __init__(self, rng: random.Random) -> None:
        self.owner = 0
        self.rng = rng

    def evaluate(self, state: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
        position = state.position
        n = position.codec.num_players
        if position.is_terminal():
            return np.array(position.returns()) * 2.0 - 1.0
        rummy: RummyState = position.state.clone()
        rounds = len(rummy.round_scores)
        choice = self.rng.choice
        while rummy.phase in ("draw", "play") and len(rummy.round_scores) == rounds:
            rummy.apply(choice(rummy.legal_actions()))
        if len(rummy.round_scores) == rounds:  # still dealing: nothing played yet
            return np.zeros(n)
        scores = rummy.round_scores[rounds]
        out = np.empty(n)
        for seat in range(n):
            best_other = max(scores[s] for s in range(n) if s != seat)
            out[seat] = math.tanh((scores[seat] - best_other) / 50.0)
        return out

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class _SearchBot:
    """What the two bots share: the pyspiel game of the state's game, one per options."""

    name = "openspiel"

    def __init__(self) -> None:
        self._games: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}

    def _pyspiel_state(self, state: State) -> Any:
        from parlour.research import openspiel

        key = (state.game.spec.name, tuple(sorted(state.game.options.items())))
        game = self._games.get(key)
        if game is None:
            options = dict(state.game.options)
            game = self._games[key] = openspiel.load_game(state.game.spec.name, **options)
        spiel_state = game.new_initial_state()
        codec = spiel_state.position.codec
        position = type(spiel_state.position)(codec, state.clone())
        spiel_state._position = position
        return spiel_state


class OpenSpielMCTSBot(_SearchBot):
    """OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) for the dice games."""

    name = "openspiel-mcts"

    def __init__(self, simulations: int = 200, uct_c: float = 2.0) -> None:
        super().__init__()
        self.simulations = simulations
        self.uct_c = uct_c

    def choose(self, state: State, seat: int, rng: random.Random) -> Any:
        from open_spiel.python.algorithms import mcts

        assert isinstance(state, DiceState)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        spiel_state = self._pyspiel_state(state)
        evaluator = _TurnValue()
        evaluator.owner, evaluator.turns, evaluator.score = seat, state.turns, state.scores[seat]
        bot = mcts.MCTSBot(
            spiel_state.get_game(),
            self.uct_c,
            self.simulations,
            evaluator,
            solve=False,
            random_state=np.random.RandomState(rng.getrandbits(32)),
        )
        action_id = bot.step(spiel_state)
        return spiel_state.position.codec.action_of(int(action_id))


class OpenSpielISMCTSBot(_SearchBot):
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) for Rummy."""

    name = "openspiel-ismcts"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0) -> None:
        super().__init__()
        self.simulations = simulations
        self.uct_c = uct_c

    def choose(self, state: State, seat: int, rng: random.Random) -> Any:
        from open_spiel.python.algorithms import ismcts

        from parlour.research.rummy import action_of

        assert isinstance(state, RummyState)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        spiel_state = self._pyspiel_state(state)
        evaluator = _RoundValue(random.Random(rng.getrandbits(32)))
        evaluator.owner = seat
        bot = ismcts.ISMCTSBot(
            spiel_state.get_game(),
            evaluator,
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(rng.getrandbits(32)),
            allow_inconsistent_action_sets=True,
        )
        sampler = random.Random(rng.getrandbits(32))
        bot.set_resampler(lambda s, player: s.resample(player, sampler))
        return action_of(int(bot.step(spiel_state)))
