"""The ``search`` level: determinized Monte Carlo over the rules engine
(``docs/rules/rummy.md#computer-players``).

At each draw and each discard, the level tries every legal choice in the same sampled worlds:
a world is a :func:`~.determinize.determinize` re-deal of the cards it cannot see (the other
hands less their known cards, and the stock), consistent with the public moves; in each world
each choice is applied to a clone of the state and the round is played out to its end by the
simple player (:func:`~.simple.simple_choice`) in every seat. The choice with the best mean
round margin (its round score less the best other seat's, points) is played. The choices
searched are the ``hard`` level's choice and, for a discard, the next ones the simple player
would pick (``width`` in all); another choice replaces hard's only when its gain in the
paired worlds is clear (``confidence`` standard errors), so that noise in a small budget
does not move the level off a sound choice. Melding and laying off follow the ``hard``
level's exact split: everything the best split allows goes on the table at once (cards on the
table score, cards in the hand count against).

The budget is a number of played-out rounds per decision (``simulations``), so that the same
seed gives the same games on any machine, with a wall-clock stop (``seconds``, default 0.8):
once the time is up no further world is sampled and the choice is made from the worlds
played so far (at least one). The stop only cuts in on a machine too loaded to play the
budget in time, and only then may the choice differ from an unloaded run; it is what keeps a
move under a second for a person waiting on the server. Between worlds the level lets other
threads run (``time.sleep(0)``): on the server it thinks in a worker thread, and a pure-Python
loop would otherwise keep the event loop and the request threads waiting for the interpreter
lock (``docs/rules/rummy.md#computer-players``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.engine.state import State
from parlour.games.rummy.bots import LEVELS
from parlour.games.rummy.cards import Mask
from parlour.games.rummy.determinize import determinize, passed_over
from parlour.games.rummy.notation import Discard, Draw, LayOff, Meld, RummyAction
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.simple import in_start, simple_choice
from parlour.games.rummy.state import DRAW, PLAY, RummyState

_PLANNER = LEVELS["hard"]


def play_out(state: RummyState, *, max_steps: int = 2_000) -> None:
    """Play *state* (a simulation copy) to the end of its round with the simple player in
    every seat. Moves are the simple player's choices among the legal actions, applied
    without the legality check and without history (for speed; they are legal by
    construction). Stops at the next deal, the end of the game, or after *max_steps* moves."""
    for _ in range(max_steps):
        phase = state.phase
        if phase != DRAW and phase != PLAY:
            return
        seat = state.seat
        state._apply(simple_choice(state, seat), seat)


def round_margin(state: RummyState, seat: int) -> int:
    """*seat*'s score in the last finished round less the best other seat's (points)."""
    scores = state.round_scores[-1]
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


def shortlist(hand: Mask, discards: Sequence[Discard], width: int) -> list[Discard]:
    """The *width* discards worth searching, best first by the simple player's order: cards in
    no meld and no two-card start before the others, then higher points, then higher rank."""

    def order(d: Discard) -> tuple[bool, int, int, int]:
        return (not in_start(hand, d.card), POINTS[d.card], d.card % 13, d.card)

    return sorted(discards, key=order, reverse=True)[: max(1, width)]


@dataclass
class SearchBot:
    """Determinized Monte Carlo (see the module docstring). ``simulations`` is the budget per
    decision: rounds played out, shared equally by the choices (at least one world each);
    ``confidence`` is how many standard errors a choice must gain over hard's to replace it;
    ``tries`` is passed to :func:`~.determinize.determinize`; ``width`` is how many discards
    are searched (:func:`shortlist`); ``seconds`` is the wall-clock stop per decision."""

    name: str = "search"
    simulations: int = 200
    seconds: float = 0.8
    tries: int = 8
    width: int = 3
    confidence: float = 2.0

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat*."""
        assert isinstance(state, RummyState)
        legal = state.legal_actions(seat)
        hard = _PLANNER.choose(state, seat, rng)
        if state.phase == DRAW:
            candidates: list[RummyAction] = [a for a in legal if isinstance(a, Draw)]
        else:
            if isinstance(hard, (Meld, LayOff)):
                return hard
            discards = [a for a in legal if isinstance(a, Discard)]
            if not discards:
                return hard
            candidates = [*shortlist(state.hands[seat], discards, self.width)]
        if hard in candidates:  # hard's choice first: it wins a tie
            candidates.remove(hard)
            candidates.insert(0, hard)
        else:
            candidates = [hard, *candidates[: max(0, self.width - 1)]]
        if len(candidates) == 1:
            return candidates[0]
        return self.best(state, seat, candidates, rng)

    def best(
        self,
        state: RummyState,
        seat: int,
        candidates: Sequence[RummyAction],
        rng: random.Random,
    ) -> RummyAction:
        """The choice among *candidates* (the first is hard's) to play: each is played out in
        the same ``simulations // len(candidates)`` worlds (at least one; fewer when the
        ``seconds`` stop cuts in); another choice replaces the first only when its mean
        :func:`round_margin` is higher by more than ``confidence`` standard errors of the
        paired differences (and the best such by mean)."""
        deadline = time.perf_counter() + self.seconds
        passed = passed_over(state)
        budget = max(1, self.simulations // len(candidates))
        diffs: list[list[int]] = [[] for _ in candidates]
        for index in range(budget):
            if index:
                if time.perf_counter() > deadline:
                    break
                time.sleep(0)  # let the server's other threads run (module docstring)
            world = determinize(state, seat, rng, tries=self.tries, passed=passed)
            margins = []
            for action in candidates:
                sim = world.clone()
                sim._apply(action, seat)
                play_out(sim)
                margins.append(round_margin(sim, seat))
            for i, margin in enumerate(margins):
                diffs[i].append(margin - margins[0])
        worlds = len(diffs[0])
        best, best_mean = 0, 0.0
        for i in range(1, len(candidates)):
            mean = sum(diffs[i]) / worlds
            spread = sum((d - mean) ** 2 for d in diffs[i]) / max(1, worlds - 1)
            if mean > best_mean and mean > self.confidence * math.sqrt(spread / worlds):
                best, best_mean = i, mean
        return candidates[best]
