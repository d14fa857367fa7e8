"""A test-only game with no terminal app and no web renderer of its own: "count to ten".

Two to four players count up in turn from 0; on a turn a player adds 1 up to ``step``
(default 2) to the count, never going past ``target`` (default 10). Whoever says the target
wins. Perfect information, no chance. Its observation has a count, a per-seat list of lists
(the numbers each seat said) and ``scores`` (1 for the winner), so the generic interfaces
show every kind of value. Computer levels: ``first`` (always adds 1) and ``smart`` (leaves
the count one multiple of ``step + 1`` short of the target when it can).

It is never installed (no entry point): :func:`install` registers it for one test.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from parlour.engine import registry
from parlour.engine.errors import IllegalMove, InvalidNotation
from parlour.engine.spec import Chance, GameSpec, Option
from parlour.engine.state import JSON, TERMINAL, Action, Game, Result, State

NAME = "count-to-ten"


@dataclass(frozen=True)
class Add:
    """Add ``n`` to the count (notation ``add <n>``)."""

    n: int


class CountState(State):
    """The count, whose turn it is, what each seat said, and the winner once there is one."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.target: int = int(game.options["target"])
        self.step: int = int(game.options["step"])
        self.count = 0
        self.seat = 0
        self.said: list[list[int]] = [[] for _ in range(game.num_players)]
        self.winner: int | None = None

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.seat

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        who = self.current_player() if player is None else player
        if self.winner is not None or who != self.seat:
            return []
        return [Add(n) for n in range(1, self.step + 1) if self.count + n <= self.target]

    def sample_chance(self, rng: random.Random) -> Action:
        raise IllegalMove("count-to-ten has no chance")

    def _check(self, action: Action, player: int) -> None:
        if not isinstance(action, Add):
            raise IllegalMove(f"{action!r} is not a count-to-ten move")
        if not 1 <= action.n <= self.step:
            raise IllegalMove(f"add 1 to {self.step}, not {action.n}")
        if self.count + action.n > self.target:
            raise IllegalMove(f"the count is {self.count}: adding {action.n} passes {self.target}")

    def _apply(self, action: Action, player: int) -> None:
        self.count += action.n
        self.said[player].append(self.count)
        if self.count == self.target:
            self.winner = player
        else:
            self.seat = (self.seat + 1) % self.game.num_players

    def action_to_string(self, action: Action) -> str:
        return f"add {action.n}"

    def parse_action(self, text: str, *, player: int | None = None) -> Action:
        verb, _, number = text.strip().partition(" ")
        if verb != "add" or not number.strip().isdigit():
            raise InvalidNotation(f"{text!r}: write add <n>, such as add 2")
        return Add(int(number))

    def _observation(self, seat: int | None) -> JSON:
        return {
            "to_move": self.current_player(),
            "count": self.count,
            "target": self.target,
            "said": [list(numbers) for numbers in self.said],
            "scores": [int(self.winner == s) for s in range(self.game.num_players)],
            "over": self.winner is not None,
        }

    def result(self) -> Result:
        self.require_terminal()
        assert self.winner is not None
        scores = tuple(int(self.winner == s) for s in range(self.game.num_players))
        return Result(scores, (self.winner,))

    def _dump(self) -> JSON:
        return {"count": self.count, "seat": self.seat, "said": self.said, "winner": self.winner}


class FirstBot:
    """Always adds 1."""

    name = "first"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return state.legal_actions(seat)[0]


class SmartBot:
    """Leaves the count a multiple of ``step + 1`` short of the target when it can."""

    name = "smart"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        assert isinstance(state, CountState)
        legal = list(state.legal_actions(seat))
        for action in legal:
            if (state.target - state.count - action.n) % (state.step + 1) == 0:
                return action
        return legal[0]


def make_bot(level: str) -> FirstBot | SmartBot:
    """The bot of *level* (``first`` or ``smart``)."""
    return FirstBot() if level == "first" else SmartBot()


SPEC = GameSpec(
    name=NAME,
    title="Count to Ten",
    summary="Count up in turn, 1 or 2 at a time; whoever says 10 wins.",
    options={
        "players": Option(2, "number of seats", minimum=2, maximum=4),
        "target": Option(10, "the number that wins", minimum=3, maximum=50),
        "step": Option(2, "the most a turn may add", minimum=1, maximum=5),
    },
    new_state=CountState,
    chance=Chance.DETERMINISTIC,
    bot_levels=("first", "smart"),
    bots="tests.count_game:make_bot",
)


def install(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """Register the game for one test (undone after it); the installed games load first."""
    registry.specs()  # load the entry points now, so the game is added beside them
    monkeypatch.setitem(registry._SPECS, NAME, SPEC)
    return SPEC
