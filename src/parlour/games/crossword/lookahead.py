"""The ``lookahead`` crossword level: simulation of the reply, and an end-game search
(``docs/rules/crossword.md#computer-players``).

While the bag holds tiles (two players), the level takes the ``width`` best candidates by the
``hard`` level's equity (score plus the learned value of the tiles kept, cover plays and the
best exchange included) and plays each against the same sampled opponent racks, as Quackle's
simulation does: a sample deals the opponent a rack of its size, uniformly from the tiles the
player cannot see (bag and opponent's rack together, from its own observation only; the real
rack is never read); the opponent answers with its best play by the same equity (or passes,
worth 0). A candidate's value in a sample is its score, less the reply's score, plus the value
of the tiles it keeps (scaled as ``hard`` scales it when the bag runs low); the candidate with
the best mean over the samples is played.

Once the bag is empty both racks are known (the opponent's is the unseen tiles) and the level
plays the end game by a bounded search (:func:`endgame_value`): a negamax over the two racks,
``depth`` turns deep, looking at every play that goes out and the ``beam`` highest-scoring
other plays and the pass at each turn; at the last turn it counts each play alone (going out
gains the other rack twice, a play that does not go out loses the tiles it keeps). With racks
of a few tiles this is the exact game; the bound is what keeps it inside the time budget.

Budget, counted in work: ``samples`` racks per decision (the same for every candidate), and
the end game's ``depth`` and ``beam``; no clock is read, so a seed gives the same game on any
machine, loaded or not (issue 18). ``seconds`` is an optional wall-clock stop, off by default
(``math.inf``): when set, sampling ends early, after a whole sample, once the time is up, and
the end game search falls back to ``hard``'s choice. More than two players: ``hard``'s
choice.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from parlour.games.crossword.board import Board
from parlour.games.crossword.bots import (
    CrosswordBot,
    HardBot,
    Seen,
    _key,
    leave_of,
    no_play,
)
from parlour.games.crossword.movegen import Move, MoveGenerator
from parlour.games.crossword.notation import CrosswordAction, Exchange, Pass
from parlour.games.crossword.tiles import RACK_SIZE, rack_value, sorted_tiles, take

Candidate = Move | Exchange


class _OutOfTime(Exception):
    """The end-game search ran past its deadline."""


@dataclass
class LookaheadBot(CrosswordBot):
    """Simulate the reply to the best candidates; search the end game (module docstring).

    ``width`` candidates, ``samples`` opponent racks per decision, ``seconds`` an optional
    wall-clock stop per move (off: ``math.inf``, the default, reads no clock); the end game
    looks ``depth`` turns ahead with ``beam`` plays per turn.
    """

    name: str = "lookahead"
    width: int = 6
    samples: int = 16
    seconds: float = math.inf
    depth: int = 3
    beam: int = 8

    def __post_init__(self) -> None:
        self.hard = HardBot()

    def decide(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, rng: random.Random
    ) -> CrosswordAction:
        deadline = math.inf if self.seconds == math.inf else time.perf_counter() + self.seconds
        fallback = self.hard.decide(view, moves, generator, rng)
        if view.players != 2 or not moves:
            return fallback
        if view.bag == 0:
            try:
                return self.end_game(view, moves, generator, deadline)
            except _OutOfTime:
                return fallback
        return self.simulate(view, moves, generator, rng, deadline)

    # --- while the bag holds tiles ------------------------------------------------------

    def candidates(self, view: Seen, moves: list[Move]) -> list[tuple[float, Candidate]]:
        """The ``width`` best plays by ``hard``'s equity (and its best exchange, if it ranks
        among them), best first, with that equity (points)."""
        ranked: list[tuple[float, tuple[int, str, int, str], Candidate]] = [
            (self.hard.equity(view, m), _key(m), m) for m in moves
        ]
        exchange = self.hard.best_exchange(view)
        if exchange is not None:
            ranked.append((exchange[0], (-1, exchange[1].tiles, 0, ""), exchange[1]))
        ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
        return [(equity, c) for equity, _, c in ranked[: self.width]]

    def simulate(
        self,
        view: Seen,
        moves: list[Move],
        generator: MoveGenerator,
        rng: random.Random,
        deadline: float,
    ) -> CrosswordAction:
        """The candidate with the best mean of score - reply + leave over sampled racks."""
        ranked = self.candidates(view, moves)
        if len(ranked) == 1:
            return _action(ranked[0][1])
        other_size = len(view.unseen) - view.bag
        after: list[tuple[Board, float, float]] = []  # board after, score, leave value
        scale = min(1.0, view.bag / RACK_SIZE)
        for _, c in ranked:
            if isinstance(c, Exchange):
                kept = take(view.rack, c.tiles) or ""
                after.append((view.board, 0.0, self.hard.leaves.value(kept)))
            else:
                board = view.board.with_tiles(c.scored(view.board, generator.rules).placed)
                leave = self.hard.leaves.value(leave_of(view.rack, c)) * scale
                after.append((board, float(c.score), leave))
        totals = [0.0] * len(ranked)
        pool = list(view.unseen)
        for done in range(self.samples):
            if done and deadline < math.inf and time.perf_counter() > deadline:
                break
            rack = sorted_tiles("".join(rng.sample(pool, other_size)))
            for i, (board, score, leave) in enumerate(after):
                totals[i] += score + leave - self.reply(board, rack, generator, view.bag)
        best = max(range(len(ranked)), key=lambda i: (totals[i], -i))
        return _action(ranked[best][1])

    def reply(self, board: Board, rack: str, generator: MoveGenerator, bag: int) -> float:
        """The score of the opponent's best play on *board* with *rack* by ``hard``'s
        equity (score plus leave value, scaled by the *bag*), or 0 (a pass)."""
        scale = min(1.0, bag / RACK_SIZE)
        value = self.hard.leaves.value
        best_equity, best_score = 0.0, 0
        for m in generator.moves(board, rack):
            rest = take(rack, m.tiles)
            equity = m.score + (value(rest) * scale if rest else 0.0)
            if equity > best_equity:
                best_equity, best_score = equity, m.score
        return float(best_score)

    # --- the end game ----------------------------------------------------------------------

    def end_game(
        self, view: Seen, moves: list[Move], generator: MoveGenerator, deadline: float
    ) -> CrosswordAction:
        """The bag is empty: the root of :func:`endgame_value` (every play that goes out,
        the ``beam`` best others and the pass), the best by value."""
        theirs = view.unseen
        best: tuple[float, tuple[int, str, int, str]] | None = None
        choice: CrosswordAction = Pass()
        options = _scored(
            view.board,
            view.rack,
            theirs,
            moves,
            generator,
            self,
            deadline,
            self.depth,
            scoreless_behind(view),
        )
        for m, value in options:
            key = (value, _key(m) if m is not None else (-1, "", 0, ""))
            if best is None or key > best:
                best, choice = key, (m.play if m is not None else Pass())
        return choice if best is not None else no_play(view)


def scoreless_behind(view: Seen) -> int:
    """The scoreless turns in a row just played (two players; 0 if no ``streak`` is known),
    as :func:`endgame_value` counts them (4 end the game): the other seat's last turns and
    the mover's alternate back from the other's latest, so a run is at most twice the
    other's streak and twice the mover's plus one."""
    if len(view.streak) != 2:
        return 0
    mine, other = view.streak[view.seat], view.streak[1 - view.seat]
    return min(2 * other, 2 * mine + 1)


def _action(candidate: Candidate) -> CrosswordAction:
    return candidate if isinstance(candidate, Exchange) else candidate.play


def _scored(
    board: Board,
    mine: str,
    theirs: str,
    moves: list[Move],
    generator: MoveGenerator,
    bot: LookaheadBot,
    deadline: float,
    depth: int,
    passes: int,
) -> list[tuple[Move | None, float]]:
    """Each option of the player to move with its value (spread from here on, for the mover):
    the plays that go out, the ``beam`` highest-scoring others, and the pass (``None``)."""
    if deadline < math.inf and time.perf_counter() > deadline:
        raise _OutOfTime
    out = len(mine)
    results: list[tuple[Move | None, float]] = []
    outs = [m for m in moves if len(m.tiles) == out]
    others = sorted((m for m in moves if len(m.tiles) != out), key=_key, reverse=True)
    for m in outs:
        results.append((m, m.score + 2.0 * rack_value(theirs)))
    for m in others[: bot.beam]:
        leave = take(mine, m.tiles) or ""
        if depth <= 1:
            value: float = m.score - rack_value(leave) + rack_value(theirs)
        else:
            after = board.with_tiles(m.scored(board, generator.rules).placed)
            value = m.score - endgame_value(
                after, theirs, leave, generator, bot, deadline, depth - 1, 0
            )
        results.append((m, value))
    # a pass: the game ends once both players have passed twice in a row (4 scoreless turns)
    if passes + 1 >= 4 or depth <= 1:
        results.append((None, rack_value(theirs) - rack_value(mine)))
    else:
        results.append(
            (
                None,
                -endgame_value(
                    board, theirs, mine, generator, bot, deadline, depth - 1, passes + 1
                ),
            )
        )
    return results


def endgame_value(
    board: Board,
    mine: str,
    theirs: str,
    generator: MoveGenerator,
    bot: LookaheadBot,
    deadline: float,
    depth: int,
    passes: int,
) -> float:
    """The end game's value for the player to move with rack *mine* against *theirs* on
    *board* (empty bag, two players): the spread it gains from here on, points, by negamax
    *depth* turns deep over the bounded options of :func:`_scored`; *passes* is the number
    of scoreless turns just before. Raises ``_OutOfTime`` past *deadline*."""
    moves = generator.moves(board, mine)
    return max(
        v for _, v in _scored(board, mine, theirs, moves, generator, bot, deadline, depth, passes)
    )
