"""Crossword computer players (``docs/rules/crossword.md#computer-players``), weakest first:

- ``easy``: a random legal play among the lower-scoring half; with no play, it exchanges its
  whole rack (or passes when the bag holds fewer than 7 tiles).
- ``medium``: the highest-scoring play (a random one among equals); with no play, as easy.
- ``hard``: the play with the best *equity*: its score plus the value of the tiles it keeps
  (:class:`~.leaves.LeaveModel`, learned from self-play). It exchanges when keeping the best
  part of its rack is worth more than any play. When the bag is empty it plays the end game:
  going out is worth the others' tiles twice (they lose them, it gains them); with one
  opponent, whose rack is then known (the tiles it cannot see), it looks at the reply to each
  of its best plays, so it does not open a way out for the opponent cheaply.

Every level decides from its own seat's observation only (:func:`seen`): the board, its own
rack, the number of tiles in the bag, the multiset of tiles it cannot see and the scores;
never the bag's contents or another seat's rack. Only the computer player is random (ties, the
easy level), through the ``rng`` it is given.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.crossword import SPEC
from parlour.games.crossword.board import SIZE, SQUARES, Board
from parlour.games.crossword.leaves import LeaveModel
from parlour.games.crossword.movegen import Move, MoveGenerator
from parlour.games.crossword.notation import CrosswordAction, Exchange, Pass
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import (
    EXCHANGE_MIN_BAG,
    RACK_SIZE,
    rack_value,
    sorted_tiles,
    sub_multisets,
    take,
)

LEVELS = SPEC.bot_levels
"""The computer levels, weakest first: the spec's one list (``GameSpec.bot_levels``); the
top one, ``lookahead`` (:mod:`.lookahead`), is plain ``cpu``."""
ARENA_LEVELS: tuple[str, ...] = ()
"""Levels the arena takes besides :data:`LEVELS` (none now: ``lookahead``, measured ahead of
``hard``, is the top level; ``docs/rules/crossword.md#lookahead-measured``)."""
ENDGAME_REPLIES = 12
"""With one opponent and an empty bag, the hard player looks at the reply to this many of its
highest-scoring plays (and every play that goes out)."""


@dataclass(frozen=True)
class Seen:
    """What one seat knows (from ``observation(seat)``): the ``board``, its ``rack``, the
    number of tiles in the ``bag``, the ``unseen`` tiles (bag and other racks together,
    sorted), the ``scores``, each seat's scoreless ``streak``, its ``seat`` and the number
    of ``players``."""

    seat: int
    players: int
    board: Board
    rack: str
    bag: int
    unseen: str
    scores: tuple[int, ...]
    streak: tuple[int, ...] = ()
    """Each seat's scoreless turns in a row (the engine's ``streak``; empty: none known)."""


def seen(state: State, seat: int) -> Seen:
    """The :class:`Seen` of *seat*, built only from ``state.observation(seat)``."""
    view: dict[str, Any] = state.observation(seat)
    letters = "".join(view["board"])
    heights = bytes(h for row in view["heights"] for h in row)
    if len(letters) != SQUARES or len(heights) != SQUARES:
        raise ValueError(
            f"an observation with a board of {len(letters)} squares, not {SIZE}x{SIZE}"
        )
    return Seen(
        seat=seat,
        players=len(view["scores"]),
        board=Board(letters, heights),
        rack=str(view["rack"]),
        bag=int(view["bag"]),
        unseen=str(view["unseen"]),
        scores=tuple(view["scores"]),
        streak=tuple(view.get("streak", ())),
    )


def leave_of(rack: str, move: Move) -> str:
    """The tiles *move* keeps on *rack*, sorted."""
    rest = take(rack, move.tiles)
    if rest is None:
        raise ValueError(f"{move.play} uses {move.tiles}, not on the rack {rack}")
    return sorted_tiles(rest)


def _key(move: Move) -> tuple[int, str, int, str]:
    """A total order on moves that does not depend on the generator's order."""
    return (move.score, move.word, move.square, move.direction.value)


def no_play(view: Seen) -> CrosswordAction:
    """With no play to make: exchange the whole rack if the bag allows it, else pass."""
    if view.bag >= EXCHANGE_MIN_BAG and view.rack:
        return Exchange(sorted_tiles(view.rack))
    return Pass()


class CrosswordBot:
    """A computer player: :meth:`choose` reads the seat's :class:`Seen` and its legal plays
    from the move generator and hands them to :meth:`decide` (each level's choice)."""

    name = "crossword"

    def choose(self, state: State, seat: int, rng: random.Random) -> CrosswordAction:
        """A legal action for *seat* (see the module docstring). Raises
        :class:`ParlourError` for a state that is not a crossword game."""
        if not isinstance(state, CrosswordState):
            raise ParlourError(f"a crossword player cannot play {state.game.spec.name}")
        view = seen(state, seat)
        generator = state.generator
        return self.decide(view, generator.moves(view.board, view.rack), generator, rng)

    def decide(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, rng: random.Random
    ) -> CrosswordAction:
        """The action for *view* given its legal *moves*."""
        raise NotImplementedError


class EasyBot(CrosswordBot):
    """A random play among the lower-scoring half (see the module docstring)."""

    name = "easy"

    def decide(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, rng: random.Random
    ) -> CrosswordAction:
        if not moves:
            return no_play(view)
        ranked = sorted(moves, key=_key)
        return rng.choice(ranked[: (len(ranked) + 1) // 2]).play


class MediumBot(CrosswordBot):
    """The highest-scoring play (see the module docstring)."""

    name = "medium"

    def decide(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, rng: random.Random
    ) -> CrosswordAction:
        if not moves:
            return no_play(view)
        best = max(m.score for m in moves)
        return rng.choice(sorted((m for m in moves if m.score == best), key=_key)).play


class HardBot(CrosswordBot):
    """Score plus leave value, exchanges, and the end game (see the module docstring).

    ``leaves`` is the leave table (default: the one shipped with parlour).
    """

    name = "hard"

    def __init__(self, leaves: LeaveModel | None = None) -> None:
        self.leaves = leaves or shipped_leaves()

    def equity(self, view: Seen, move: Move) -> float:
        """The score of *move* plus the value of its leave. While the bag cannot refill the
        rack the leave counts in proportion to the tiles it still holds."""
        value = self.leaves.value(leave_of(view.rack, move))
        if view.bag < RACK_SIZE:
            value *= view.bag / RACK_SIZE
        return move.score + value

    def best_exchange(self, view: Seen) -> tuple[float, Exchange] | None:
        """The exchange whose kept tiles are worth most, with that value; ``None`` when the
        bag holds too few tiles to exchange."""
        if view.bag < EXCHANGE_MIN_BAG or not view.rack:
            return None
        rack = sorted_tiles(view.rack)
        best: tuple[float, str] | None = None
        for tiles in sub_multisets(rack):
            kept = take(rack, tiles)
            assert kept is not None
            value = self.leaves.value(kept)
            if best is None or (value, tiles) > best:
                best = (value, tiles)
        assert best is not None
        return best[0], Exchange(best[1])

    def decide(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, rng: random.Random
    ) -> CrosswordAction:
        if view.bag == 0:
            return self.end_game(view, moves, generator)
        ranked = sorted(((self.equity(view, m), _key(m), m) for m in moves), reverse=True)
        exchange = self.best_exchange(view)
        if exchange is not None and (not ranked or exchange[0] > ranked[0][0]):
            return exchange[1]
        return ranked[0][2].play if ranked else no_play(view)

    def end_game(self, view: Seen, moves: list[Move], generator: MoveGenerator) -> CrosswordAction:
        """The bag is empty: go out when it pays; with one opponent, weigh each of the best
        plays against the opponent's best reply (the opponent's rack is the unseen tiles)."""
        if not moves:
            return Pass()
        others = rack_value(view.unseen)
        share = others * (1 + 1 / max(1, view.players - 1))  # gained, and lost by them
        out = len(view.rack)

        def alone(move: Move) -> float:
            if len(move.tiles) == out:
                return move.score + share
            return move.score - rack_value(leave_of(view.rack, move))

        ranked = sorted(moves, key=lambda m: (alone(m), _key(m)), reverse=True)
        if view.players != 2 or not view.unseen:
            return ranked[0].play
        candidates = [m for m in ranked if len(m.tiles) == out][:1]
        candidates += [m for m in ranked if len(m.tiles) != out][:ENDGAME_REPLIES]
        return max(candidates, key=lambda m: (self._after_reply(view, m, generator), _key(m))).play

    def _after_reply(self, view: Seen, move: Move, generator: MoveGenerator) -> float:
        """Points of *move* minus the opponent's best answer to it (two players, empty bag);
        going out counts the other side's tiles twice."""
        if len(move.tiles) == len(view.rack):
            return move.score + 2 * rack_value(view.unseen)
        kept = rack_value(leave_of(view.rack, move))
        board = view.board.with_tiles(move.scored(view.board, generator.rules).placed)
        reply = 0.0
        for answer in generator.moves(board, view.unseen):
            gain = answer.score + (2 * kept if len(answer.tiles) == len(view.unseen) else 0)
            reply = max(reply, gain)
        return move.score - reply


@functools.cache
def shipped_leaves() -> LeaveModel:
    """The leave table shipped with parlour, read once per process."""
    return LeaveModel.load()


def make_bot(level: str) -> CrosswordBot:
    """The computer player at *level* (one of :data:`LEVELS`). Raises :class:`ParlourError`
    for an unknown level."""
    if level == "easy":
        return EasyBot()
    if level == "medium":
        return MediumBot()
    if level == "hard":
        return HardBot()
    if level == "lookahead":
        from parlour.games.crossword.lookahead import LookaheadBot

        return LookaheadBot()
    known = ", ".join(LEVELS)
    raise ParlourError(f"unknown Crossword level {level!r}; levels: {known}")


def arena_measure(state: State, seat: int) -> dict[str, float]:
    """The arena's per-game figures for *seat* (``run_arena``'s ``measure`` hook): plays
    made, their points (before the end-game adjustment), bingos and cover plays."""
    assert isinstance(state, CrosswordState)
    plays = [e for e in state.log if e.get("kind") == "play" and e.get("seat") == seat]
    return {
        "plays": float(len(plays)),
        "play_points": float(sum(e["score"] for e in plays)),
        "bingos": float(sum(1 for e in plays if e["bingo"])),
        "covers": float(sum(1 for e in plays if e["covered"])),
    }
