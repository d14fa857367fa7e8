"""The searching players, the top level ``lookahead`` among them: determinized Monte Carlo
over the rules engine (``docs/rules/rummy.md#computer-players``).

At each discard the level tries its choices in the same sampled worlds: a world is a
:func:`~.determinize.determinize` re-deal of the cards it cannot see (the other hands less
their known cards, and the stock), consistent with the public moves; in each world each
choice is applied to a clone of the state and the round is played out to its end by the
simple player (:func:`~.simple.simple_choice`) in every seat. The choices searched are the
``hard`` level's choice and the next ones the simple player would pick (``width`` in all);
another choice replaces hard's only when its mean round margin (its round score less the best
other seat's, points) in the paired worlds is higher by more than ``confidence`` standard
errors, so that noise in a small budget does not move the level off a sound choice. Melding
and laying off follow the ``hard`` level's exact split: everything the best split allows goes
on the table at once (cards on the table score, cards in the hand count against). The draw is
hard's (``draws=True`` searches it too: measured, the search changed hard's draw once in 100
draws, for half the work). ``rollout="hard"`` plays the play-outs by a cheap copy of the hard
level (:mod:`.rollout`) instead of the simple player, ``rollout="expert"`` by an exact copy
of the expert level (its hold rule too); ``melds=True`` also searches laying the base
player's melds down this turn against holding them (:func:`meld_or_hold`). Neither got
ahead of ``expert`` on paired deals (``docs/rules/rummy.md#search-expert-playouts``).
``held`` re-deals the other hands as hands that hold melds back as ``expert`` does
(:func:`~.determinize.determinize`'s ``held``): with expert's choices and play-outs it came
out ahead of ``expert`` on paired deals, but so nearly did the same search with the default
worlds (``docs/rules/rummy.md#search-held-worlds``). That search is the top level,
``lookahead`` (:data:`LOOKAHEAD`).

The budget is counted in work, never in time, so that a seed gives the same game on every
machine, loaded or not: at most ``simulations`` played-out rounds a decision. Every
``check`` worlds a choice whose mean margin is below hard's by more than ``confidence``
standard errors is dropped, and the decision ends when none is left; the worlds are drawn in
the same order whatever is dropped, so this too depends only on the seed. When other threads
run (on the server, the bot thinks in a worker thread) the level lets them run between worlds
(``time.sleep(0)``): a pure-Python loop would otherwise keep the event loop and the request
threads waiting for the interpreter lock. That changes when the level thinks, never what it
chooses.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.rummy.bots import PLANNERS, PlannerBot
from parlour.games.rummy.cards import Mask
from parlour.games.rummy.determinize import determinize, passed_over
from parlour.games.rummy.notation import Discard, Draw, LayOff, Meld, RummyAction
from parlour.games.rummy.rollout import POLICIES, play_out
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.simple import in_start
from parlour.games.rummy.state import DRAW, PLAY, RummyState

PLAY_OUT_TURNS = 500
"""The most turns a play-out plays (the default of the game's ``max_turns`` safeguard): its
round then ends as by that safeguard (``SearchBot._margin``)."""

Line = tuple[RummyAction, ...]
"""A choice searched: the moves it plays in a row (a whole turn's melds, lay-offs and discard,
or one move); the first is the one played."""


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
    decision: at most that many rounds played out, shared by the choices (all play the same
    worlds, at least one); ``check`` is how many worlds are played between two looks at the
    means; ``confidence`` is how many standard errors a choice must gain over hard's to
    replace it, or lose to be dropped; ``tries`` is passed to
    :func:`~.determinize.determinize`; ``width`` is how many discards are searched
    (:func:`shortlist`); ``draws`` searches the draw too; ``rollout`` is the player of the
    play-outs: ``"simple"`` (:func:`play_out`, the default) or ``"hard"``
    (:func:`~.rollout.play_out_hard`, a cheap copy of the hard level's discard, about twice
    the time a play-out; measured no stronger, ``docs/rules/rummy.md#search-measured``);
    ``base`` names the player whose draws, melds and lay-offs are played and whose discard is
    searched against the others (:data:`~.bots.PLANNERS`: ``"hard"`` or ``"expert"``);
    ``rollout`` may also be ``"expert"`` (the expert level's plan and hold rule, exactly,
    :data:`~.rollout.POLICIES`); ``melds`` searches, when the base player has melds in its
    plan, laying them down this turn against holding them (:func:`meld_or_hold`); ``held``
    (cards, 0 for off) re-deals each other hand as a hand that holds its melds back while
    every other hand has more than ``held`` cards, and a card it took from the discard pile
    as held in a meld (:func:`~.determinize.determinize`; ``expert`` holds at 3).

    Raises :class:`~parlour.engine.errors.ParlourError` when made with a setting out of
    range, naming the player (its ``name``: ``search-expert: width ...``) and the setting:
    ``simulations``, ``check``, ``tries`` or ``width`` not a whole number of at least 1,
    ``held`` not a whole number of at least 0, ``name`` not a text, ``confidence`` not a
    number of at least 0 within a float's range (kept as a float), ``rollout`` not in
    :data:`~.rollout.POLICIES`, ``base`` not in :data:`~.bots.PLANNERS`, ``draws`` or
    ``melds`` not true or false."""

    name: str = "search"
    simulations: int = 90
    check: int = 10
    tries: int = 8
    width: int = 3
    confidence: float = 2.0
    draws: bool = False
    rollout: str = "simple"
    base: str = "hard"
    melds: bool = False
    held: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ParlourError(f"search: name must be a text, not {self.name!r}")
        for field in ("simulations", "check", "tries", "width"):
            value = getattr(self, field)
            if type(value) is not int or value < 1:
                raise ParlourError(
                    f"{self.name}: {field} must be a whole number of at least 1, not {value!r}"
                )
        if type(self.held) is not int or self.held < 0:
            raise ParlourError(
                f"{self.name}: held must be a whole number of at least 0, not {self.held!r}"
            )
        confidence = self.confidence
        if type(confidence) not in (int, float) or not 0 <= confidence < math.inf:
            raise ParlourError(
                f"{self.name}: confidence must be a number of at least 0, not {confidence!r}"
            )
        try:  # a whole number past a float's range was an OverflowError at the first search
            self.confidence = float(confidence)
        except OverflowError:
            raise ParlourError(
                f"{self.name}: confidence must be a number of at least 0, not a whole number "
                "past a float's range"
            ) from None
        # a list or an object from JSON settings is no name either (was a TypeError: unhashable)
        if not isinstance(self.rollout, str) or self.rollout not in POLICIES:
            known = ", ".join(POLICIES)
            raise ParlourError(f"{self.name}: unknown rollout {self.rollout!r}; rollouts: {known}")
        if not isinstance(self.base, str) or self.base not in PLANNERS:
            known = ", ".join(PLANNERS)
            raise ParlourError(f"{self.name}: unknown base {self.base!r}; bases: {known}")
        for field in ("draws", "melds"):
            if type(getattr(self, field)) is not bool:
                raise ParlourError(
                    f"{self.name}: {field} must be true or false, not {getattr(self, field)!r}"
                )

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat*."""
        assert isinstance(state, RummyState)
        lines = self.lines(state, seat, rng)
        if len(lines) == 1:
            return lines[0][0]
        return self.best(state, seat, lines, rng)[0]

    def lines(self, state: RummyState, seat: int, rng: random.Random) -> list[Line]:
        """The choices :meth:`choose` compares for *seat* (the base player's first), or the
        base player's move alone when nothing is searched (a draw unless ``draws``, a
        lay-off, a meld unless ``melds`` finds a line to hold, a single discard). Uses
        *rng* as :meth:`choose` does before its search."""
        planner = PLANNERS[self.base]
        base = planner.choose(state, seat, rng)
        lines: list[Line] = []
        if state.phase == DRAW:
            if not self.draws:
                return [(base,)]
            legal = state.legal_actions(seat)
            candidates: list[RummyAction] = [a for a in legal if isinstance(a, Draw)]
        else:
            if isinstance(base, LayOff):
                return [(base,)]
            if self.melds:
                lines = meld_or_hold(state, seat, planner, base)
            if isinstance(base, Meld) and not lines:
                return [(base,)]
            legal = state.legal_actions(seat)
            discards = [a for a in legal if isinstance(a, Discard)]
            if not discards and not lines:
                return [(base,)]
            candidates = [*shortlist(state.hands[seat], discards, self.width)]
            if isinstance(base, Meld):
                candidates = []
        if base in candidates:  # the base player's choice first: it wins a tie
            candidates.remove(base)
            candidates.insert(0, base)
        elif candidates:
            candidates = [base, *candidates[: max(0, self.width - 1)]]
        if lines:  # meld now or hold: the base player's line first, then the other
            rest = [(a,) for a in candidates if a not in (lines[0][0], lines[1][0])]
            return [*lines, *rest]
        return [(a,) for a in candidates]

    def best(
        self,
        state: RummyState,
        seat: int,
        candidates: Sequence[Line],
        rng: random.Random,
    ) -> Line:
        """The choice among *candidates* (the first is hard's) to play. Each world is a
        re-deal; hard's choice and every choice still in play are played out in it. Every
        ``check`` worlds, a choice whose mean :func:`round_margin` less hard's (paired by
        world) is below 0 by more than ``confidence`` standard errors is dropped; the search
        ends when none is left or the ``simulations`` budget is spent. Another choice then
        replaces hard's only when its mean is above 0 by more than ``confidence`` standard
        errors (the best such by mean)."""
        passed = passed_over(state)
        yielding = threading.active_count() > 1
        live = list(range(1, len(candidates)))
        sums = [0.0] * len(candidates)
        squares = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        spent = 0
        worlds = 0
        while live and (not worlds or spent + 1 + len(live) <= self.simulations):
            if worlds and yielding:
                time.sleep(0)  # let the server's other threads run (module docstring)
            world = determinize(state, seat, rng, tries=self.tries, passed=passed, held=self.held)
            base = self._margin(world, seat, candidates[0])
            for i in live:
                d = self._margin(world, seat, candidates[i]) - base
                sums[i] += d
                squares[i] += d * d
                counts[i] += 1
            spent += 1 + len(live)
            worlds += 1
            if worlds % self.check == 0:
                live = [i for i in live if not self._clear(sums[i], squares[i], counts[i], -1)]
        best, best_mean = 0, 0.0
        for i in range(1, len(candidates)):
            if counts[i] and self._clear(sums[i], squares[i], counts[i], 1):
                mean = sums[i] / counts[i]
                if mean > best_mean:
                    best, best_mean = i, mean
        return candidates[best]

    def _margin(self, world: RummyState, seat: int, line: Line) -> int:
        """*seat*'s :func:`round_margin` after *line* and a play-out of a copy of *world*. The
        copy's round ends after :data:`PLAY_OUT_TURNS` more turns at most, as the game's
        ``max_turns`` safeguard ends one, whatever the game's setting (with none, two
        holding players can take each other's discards for ever)."""
        sim = world.clone()
        cap = sim.turns + PLAY_OUT_TURNS
        sim.max_turns = min(sim.max_turns, cap) if sim.max_turns else cap
        for action in line:
            sim._apply(action, seat)
        play_out(sim, policy=POLICIES[self.rollout])
        return round_margin(sim, seat)

    def _clear(self, total: float, squares: float, n: int, sign: int) -> bool:
        """Whether a mean difference (*total* over *n* worlds, *squares* its sum of squares)
        is beyond 0 on the side of *sign* by more than ``confidence`` standard errors."""
        if n < 2:
            return False
        mean = total / n
        if sign * mean <= 0:
            return False
        spread = max(0.0, squares - n * mean * mean) / max(1, n - 1)
        return sign * mean > self.confidence * math.sqrt(spread / n)


LOOKAHEAD = SearchBot(name="lookahead", base="expert", rollout="expert", held=3)
"""The ``lookahead`` level, the top one (plain ``cpu``): the expert level's choices with its
discard searched (90 play-outs a discard at most) in worlds where the other hand holds its
melds back as expert does, played out by expert. Measured (1,100 games a pairing,
``docs/rules/rummy.md#search-held-games``): it beats hard 63.2% and the simple player 76.7%,
and expert by 5.77 +/- 1.46 points a round on paired deals."""


def meld_or_hold(
    state: RummyState, seat: int, planner: PlannerBot, base: RummyAction
) -> list[Line]:
    """The two lines of *seat*'s turn when *planner* (whose choice is *base*) has melds in
    its plan, its own first: laying them down (the planner's turn with ``hold`` off: its
    melds, lay-offs and discard, played on a copy of the state) and holding them (its
    discard with no meld laid). Empty when the planner plans no meld, or when the two are
    the same move, or when no discard is legal (``must_discard`` corners)."""
    legal = state.legal_actions(seat)
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards or not any(isinstance(a, Meld) for a in legal):
        return []
    opener = replace(planner, hold=0)
    view = state.view(seat)
    holding: Line = (planner._play(view, discards),)
    laying: list[RummyAction] = []
    sim = state.clone()
    while sim.phase == PLAY and len(laying) < 20:
        action = opener._play(sim.view(seat), sim.legal_actions(seat))
        laying.append(action)
        sim._apply(action, seat)
        if isinstance(action, Discard):
            break
    if not isinstance(laying[0], Meld) or laying[0] == holding[0]:
        return []
    return [tuple(laying), holding] if isinstance(base, Meld) else [holding, tuple(laying)]
