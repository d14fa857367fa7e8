"""Rummy computer players (``docs/rules/rummy.md#computer-players``).

Every level decides from :meth:`RummyState.view` of its own seat (its hand, the table, the
discard pile, the counts, the cards known to be in other hands) and the legal actions: never
from another seat's hand or the order of the stock. ``tests/games/rummy/test_bots.py``
checks that choices do not change when those hidden cards are permuted.

- ``easy``: takes the top discard only when it makes a meld at once; lays down the first
  meld it sees (largest first) and lays off what fits; discards its highest card.
- ``medium``: finds the split of its hand into melds that leaves the least deadwood exactly
  (:func:`~.scoring.deadwood_points`, a search over meld partitions), also counting cards
  that can be laid off; takes the discard when it lowers that deadwood; melds and lays off
  that split; discards the card that costs most and has the fewest ways to join a meld,
  counting as live every card it cannot see now (its hand, the table, the top discard).
- ``hard``: as medium, but remembers every card seen in the discard pile and every card the
  opponents took from it: live cards are only the unseen ones; it weighs each discard by its
  chance of joining a meld before the round ends, keeps two-card starts (pairs and near
  cards of a suit) over loose cards, and avoids discarding cards that join the cards an
  opponent is known to hold; it takes the discard only when that card makes a meld.
- ``expert``: ``hard`` with its parameters tuned on paired deals against it
  (:data:`EXPERT`); it also holds its melds back while the other hands are long
  (``docs/rules/rummy.md#tuned``).
- ``lookahead``, the top level (plain ``cpu``): determinized Monte Carlo over the rules
  engine (:mod:`.search`, :data:`~.search.LOOKAHEAD`): expert's choices with its discard
  searched in worlds where the other hand holds its melds back as expert does, played out by
  expert; a budget per move counted in play-outs (deterministic for a seed).
- ``search`` and ``search-expert`` (:data:`BASELINES`, the arena only): the same search from
  hard's or expert's choices with the default worlds and the simple player's play-outs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from parlour.bots.arena import json_settings
from parlour.bots.base import Bot
from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.rummy.cards import FULL_DECK, Card, Mask, cards_of
from parlour.games.rummy.melds import SET, TableMeld, card_at, melds_in, run_positions
from parlour.games.rummy.notation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    LayOff,
    Meld,
    RummyAction,
)
from parlour.games.rummy.scoring import POINTS, best_melds, deadwood_points
from parlour.games.rummy.simple import completes_meld, in_start
from parlour.games.rummy.state import DRAW, PlayerView, RummyState


def layoff_closure(table: Sequence[TableMeld], hand: Mask) -> Mask:
    """The cards of *hand* that can be laid off onto *table*, one after another (a card
    laid off can open the way for the next: 8H then 9H onto 5H 6H 7H)."""
    free = 0
    for meld in table:
        if meld.kind == SET:
            free |= meld.accepts & hand
            continue
        low, high = run_positions(meld.mask)
        suit = meld.cards[0] // 13
        p = low - 1
        while p >= 1 and hand >> card_at(suit, p) & 1:
            free |= 1 << card_at(suit, p)
            p -= 1
        p = high + 1
        while p <= 14 and p - 13 < low and hand >> card_at(suit, p) & 1:
            free |= 1 << card_at(suit, p)
            p += 1
    return free


def plan_melds(table: Sequence[TableMeld], hand: Mask) -> tuple[list[Mask], Mask]:
    """The planners' melds for *hand* (``hard``, ``expert``; docs/rules/rummy.md): the melds
    of its exact best split, leaving out the cards that can be laid off onto *table* unless
    melding them leaves fewer deadwood points; and those cards (the lay-off closure)."""
    free = layoff_closure(table, hand)
    if not free:
        return best_melds(hand), 0
    full = best_melds(hand)
    melded = 0
    for m in full:
        melded |= m
    with_full = sum(POINTS[c] for c in cards_of(hand & ~melded & ~free))
    return (full if with_full < deadwood_points(hand & ~free) else best_melds(hand & ~free)), free


def plan_deadwood(table: Sequence[TableMeld], hand: Mask) -> int:
    """The fewest deadwood points of *hand* after melding and laying off (exact search over
    meld partitions; cards that fit the table count as laid off)."""
    free = layoff_closure(table, hand)
    if not free:
        return deadwood_points(hand)
    melds = best_melds(hand)
    melded = 0
    for m in melds:
        melded |= m
    left = hand & ~melded & ~free
    return min(sum(POINTS[c] for c in cards_of(left)), deadwood_points(hand & ~free))


def best_after_discard(table: Sequence[TableMeld], hand: Mask, keep: Card | None) -> int:
    """The least :func:`plan_deadwood` after discarding one card of *hand* other than
    *keep*."""
    best = 1 << 30
    for c in cards_of(hand):
        if c != keep:
            best = min(best, plan_deadwood(table, hand & ~(1 << c)))
    return best


def outs(c: Card, hand: Mask, live: Mask) -> int:
    """How many *live* cards would put *c* into a meld together with other cards of *hand*
    (a third card of a pair, the card completing a run of three)."""
    rank, suit = c % 13, c // 13
    ways = 0
    same_rank = sum(1 << (rank + 13 * s) for s in range(4))
    if (hand & same_rank & ~(1 << c)).bit_count() >= 1:
        ways |= same_rank & live
    base = 13 * suit
    for step in (-2, -1, 1, 2):
        r = rank + step
        if 0 <= r < 13 and hand >> (base + r) & 1:
            lo, hi = min(rank, r), max(rank, r)
            for need in (lo - 1, hi + 1) if hi - lo == 1 else (lo + 1,):
                if 0 <= need < 13:
                    ways |= 1 << (base + need) & live
                elif need == 13:
                    ways |= 1 << base & live  # Q-K wants the ace (Q-K-A)
    return (ways & ~hand).bit_count()


@dataclass
class EasyBot:
    """Melds what it sees, discards its highest card (see the module docstring)."""

    name: str = "easy"

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat*."""
        assert isinstance(state, RummyState)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        if view.phase == DRAW:
            if DRAW_DISCARD in legal:
                top = view.discard[-1]
                with_top = view.hand | 1 << top
                fits = any(m.accepts >> top & 1 for m in view.table)
                if fits or any(m >> top & 1 for m in melds_in(with_top)):
                    return DRAW_DISCARD
            return DRAW_STOCK
        melds = [a for a in legal if isinstance(a, Meld)]
        if melds:
            return max(melds, key=lambda m: m.cards.bit_count())
        for action in legal:
            if isinstance(action, LayOff):
                return action
        discards = [a for a in legal if isinstance(a, Discard)]
        return max(discards, key=lambda d: (POINTS[d.card], d.card % 13, d.card))


HOLD_MOST_PLAYERS = 3
"""The ``hold`` rule holds melds back only in games of at most this many players: with four,
someone goes out soon after the deal (7 cards a hand) and the held melds count against the
holder; ``expert`` won 15.6% of 800 four-player games against three ``hard`` players with it
and 26.8% without (``docs/rules/rummy.md#computer-players``)."""


@dataclass
class PlannerBot:
    """Exact meld split, discard by cost and outs; ``memory`` turns on the hard level's use
    of the whole discard pile and the opponents' known cards.

    Hard's tuning (``docs/rules/rummy.md#why-simple-wins``): ``reach`` multiplies the draws
    left when estimating a card's chance to meld (the opponent's discards complete melds
    too); ``start_bonus`` (points) is taken off the cost of keeping a card in a two-card
    start; ``take_to_meld`` takes the discard only when it makes a meld with the hand
    (otherwise: when it lowers the deadwood, and for ``memory`` no more than a sampled stock
    draw would, ``samples`` cards).

    More of the ``memory`` discard rule, as parameters (issue 18's tuning; the defaults are
    hard's): ``gain`` weighs the chance *p* of melding a card of value *v*, whose keeping
    costs *v*(1 - ``gain`` *p*) points; ``danger_weight`` (points) is added to the cost of
    throwing a card that joins a card an opponent is known to hold; ``tie_outs`` breaks ties
    between equal costs by fewer outs first (then the higher rank; otherwise the higher rank
    alone); ``start_draws`` scales the start bonus down when fewer draws than that are
    left (0: never); ``hold`` holds melds back (lay-offs still go down) while every other
    hand has more than that many cards, unless melding leaves at most one card (0: never).
    With ``take_to_meld``, the discard is also taken when ``take_fit`` and it can be
    laid off onto the table, or when it makes a two-card start with the hand and counts at
    most ``take_start`` points (0: never).

    Raises :class:`ParlourError` when made with a setting out of range, naming it: ``name``
    not a non-empty text; ``memory``, ``take_to_meld``, ``tie_outs`` or ``take_fit`` not
    true or false; ``samples`` not a whole number of at least 1; ``take_start`` or ``hold``
    not a whole number of at least 0; ``outs_weight``, ``danger_weight``, ``reach``,
    ``start_bonus``, ``gain`` or ``start_draws`` not a finite number of at least 0 (a whole
    number will do, within a float's range; it is kept as a float)."""

    name: str
    memory: bool
    samples: int = 12
    outs_weight: float = 2.5
    danger_weight: float = 6.0
    reach: float = 1.0
    start_bonus: float = 0.0
    take_to_meld: bool = False
    gain: float = 2.0
    tie_outs: bool = False
    take_fit: bool = False
    take_start: int = 0
    start_draws: float = 0.0
    hold: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ParlourError(f"planner: name must be a non-empty text, not {self.name!r}")
        for key in ("memory", "take_to_meld", "tie_outs", "take_fit"):
            value = getattr(self, key)
            if type(value) is not bool:
                raise ParlourError(f"{self.name}: {key} must be true or false, not {value!r}")
        for key, least in (("samples", 1), ("take_start", 0), ("hold", 0)):
            value = getattr(self, key)
            if type(value) is not int or value < least:
                raise ParlourError(
                    f"{self.name}: {key} must be a whole number of at least {least}, not {value!r}"
                )
        for key in ("outs_weight", "danger_weight", "reach", "start_bonus", "gain", "start_draws"):
            value = getattr(self, key)
            if type(value) not in (int, float) or not 0 <= value < math.inf:
                raise ParlourError(
                    f"{self.name}: {key} must be a finite number of at least 0, not {value!r}"
                )
            # kept as a float: a whole number past a float's range (10**400 from JSON) was an
            # OverflowError in the middle of a game, where it met a float
            try:
                setattr(self, key, float(value))
            except OverflowError:
                raise ParlourError(
                    f"{self.name}: {key} must be a finite number of at least 0, not a whole "
                    "number past a float's range"
                ) from None

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat*."""
        assert isinstance(state, RummyState)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        if view.phase == DRAW:
            return self._draw(view, legal, rng)
        return self._play(view, legal)

    # --- seeing ---------------------------------------------------------------------------

    def _live(self, view: PlayerView) -> Mask:
        """Cards that may still come: not in the hand or on the table, and (for the hard
        level) not seen in the discard pile or known to be in another hand; otherwise only
        the top discard is excluded."""
        seen = view.hand
        for meld in view.table:
            seen |= meld.mask
        if self.memory:
            for c in view.discard:
                seen |= 1 << c
            for s, known in enumerate(view.known):
                if s != view.seat:
                    seen |= known
        elif view.discard:
            seen |= 1 << view.discard[-1]
        return FULL_DECK & ~seen

    # --- drawing --------------------------------------------------------------------------

    def _draw(
        self, view: PlayerView, legal: Sequence[RummyAction], rng: random.Random
    ) -> RummyAction:
        if DRAW_DISCARD not in legal:
            return DRAW_STOCK
        top = view.discard[-1]
        hand = view.hand
        if self.take_to_meld:
            return DRAW_DISCARD if self._takes(view, top) else DRAW_STOCK
        table = view.table
        keep_now = best_after_discard(table, hand | 1 << top, top)
        without = min(plan_deadwood(table, hand), best_after_discard(table, hand, None))
        if keep_now >= without:
            return DRAW_STOCK
        if not self.memory:
            return DRAW_DISCARD
        unseen = list(cards_of(self._live(view)))
        if not unseen:
            return DRAW_DISCARD
        sample = rng.sample(unseen, min(self.samples, len(unseen)))
        expected = sum(best_after_discard(table, hand | 1 << x, None) for x in sample) / len(sample)
        return DRAW_DISCARD if keep_now <= expected else DRAW_STOCK

    def _takes(self, view: PlayerView, top: Card) -> bool:
        """Whether the ``take_to_meld`` rule takes the top discard *top*."""
        hand = view.hand
        if completes_meld(hand, top):
            return True
        if self.take_fit and any(m.accepts >> top & 1 for m in view.table):
            return True
        return POINTS[top] <= self.take_start and in_start(hand | 1 << top, top)

    # --- melding, laying off, discarding --------------------------------------------------

    def _play(self, view: PlayerView, legal: Sequence[RummyAction]) -> RummyAction:
        hand = view.hand
        melds, free = plan_melds(view.table, hand)
        planned = {m for m in melds}
        legal_melds = [a for a in legal if isinstance(a, Meld) and a.cards in planned]
        if legal_melds and self._holds(view, melds, free):
            legal_melds = []
        if legal_melds:
            return max(legal_melds, key=lambda a: (a.cards.bit_count(), a.cards))
        layoffs = [a for a in legal if isinstance(a, LayOff)]
        if layoffs:
            return layoffs[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:  # only melds outside the plan are left (must_discard corner cases)
            return legal[0]
        live = self._live(view)
        danger = self._danger_cards(view) if self.memory else 0
        melded_now = 0
        for m in melds:
            melded_now |= m

        if self.memory:
            unseen = max(1, live.bit_count())
            others = sum(view.hand_counts) - view.hand.bit_count()
            draws = max(1, min(view.stock_count // len(view.hand_counts) + 1, 2 + others // 2))

            def cost(action: Discard) -> tuple[float, int, int]:
                c = action.card
                if melded_now >> c & 1:
                    return (-100.0, 0, c % 13)
                ways = outs(c, hand, live)
                miss = 1 - min(1.0, ways / unseen)
                p = 1 - miss ** (draws * self.reach)
                value = POINTS[c] * (1 - self.gain * p)
                if in_start(hand, c):
                    fade = min(1.0, draws / self.start_draws) if self.start_draws else 1.0
                    value -= self.start_bonus * fade
                if danger >> c & 1:
                    value -= self.danger_weight
                return (value, -ways if self.tie_outs else 0, c % 13)

        else:

            def cost(action: Discard) -> tuple[float, int, int]:
                c = action.card
                keep = POINTS[c] if not melded_now >> c & 1 else -20
                return (keep - self.outs_weight * outs(c, hand, live), 0, c % 13)

        return max(discards, key=cost)

    def _holds(self, view: PlayerView, melds: Sequence[Mask], free: Mask) -> bool:
        """Whether to hold the planned *melds* back this turn (``hold``): while every other
        hand has more than ``hold`` cards and melding would not leave at most one card, in a
        game of at most :data:`HOLD_MOST_PLAYERS` players."""
        if not self.hold or len(view.hand_counts) > HOLD_MOST_PLAYERS:
            return False
        others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
        if min(others) <= self.hold:
            return False
        left = view.hand & ~free
        for m in melds:
            left &= ~m
        return left.bit_count() > 1

    def _danger_cards(self, view: PlayerView) -> Mask:
        """Cards that would join a card another player is known to hold (same rank, or next
        in suit): discarding them may hand that player a meld."""
        danger = 0
        for s, known in enumerate(view.known):
            if s == view.seat:
                continue
            for c in cards_of(known):
                rank, suit = c % 13, c // 13
                danger |= sum(1 << (rank + 13 * t) for t in range(4))
                for step in (-1, 1):
                    r = (rank + step) % 13
                    if 0 <= rank + step <= 13:
                        danger |= 1 << (13 * suit + r)
        return danger


HARD = PlannerBot("hard", memory=True, reach=2.0, start_bonus=10.0, take_to_meld=True)
"""The ``hard`` level (its parameters set by hand, ``docs/rules/rummy.md#why-simple-wins``)."""

EXPERT = replace(HARD, name="expert", reach=4.0, gain=3.0, hold=3)
"""The ``expert`` level: ``hard`` with its parameters tuned on paired deals against it (issue
18): the draws left count four times, keeping costs *v*(1 - 3*p*), and melds are held back
while every other hand has more than 3 cards (``docs/rules/rummy.md#tuned``)."""

LEVELS: dict[str, EasyBot | PlannerBot] = {
    "easy": EasyBot(),
    "medium": PlannerBot("medium", memory=False),
    "hard": HARD,
    "expert": EXPERT,
}

"""The levels that play by rule, weakest first; the top level, ``lookahead``, searches
(:data:`~.search.LOOKAHEAD`, made by :func:`make_bot`: :mod:`.search` imports this module).
The game's ``bot_levels`` are these and ``lookahead``."""

PLANNERS: dict[str, PlannerBot] = {"hard": HARD, "expert": EXPERT}
"""The players whose choices the ``search`` level starts from (``SearchBot.base``)."""


BASELINES = ("simple", "search", "search-expert")
"""Players the arena accepts besides the levels people play (``GameSpec.bot_levels``):
``simple`` (:mod:`.simple`), the baseline of issue 18; ``search`` (:mod:`.search`, from
hard's choices): over 1,100 games it beat ``hard`` 50.3% (95% interval 47.3-53.2%), level
with it (``docs/rules/rummy.md#search-1100``); ``search-expert``, the same search from the
expert level's choices: it adds nothing measured to them (``docs/rules/rummy.md#tuned``)."""


SEARCHES = ("lookahead", "search", "search-expert")
"""The players made by :class:`~.search.SearchBot`."""

SETTABLE = ("medium", "hard", "expert", *SEARCHES)
"""The players that take settings (:func:`make_bot`): the planners (:class:`PlannerBot`'s
parameters) and the searches (:class:`~.search.SearchBot`'s)."""


def make_bot(level: str, settings: Mapping[str, Any] | None = None) -> Bot:
    """The computer player at *level* (``easy``, ``medium``, ``hard``, ``expert``,
    ``lookahead``), or one of the :data:`BASELINES`; with *settings* (a JSON object's keys and
    values), a player of :data:`SETTABLE` with those of its parameters changed: ``hard`` with
    ``{"reach": 4.0}`` is hard with ``reach`` 4 (its name stays ``hard``), ``lookahead`` with
    ``{"simulations": 40}`` is that search with a budget of 40.

    Raises :class:`ParlourError` for an unknown level, settings for a level not in
    :data:`SETTABLE`, an unknown setting or one out of range (:class:`PlannerBot`,
    :class:`~.search.SearchBot`).
    """
    if settings and level not in SETTABLE and (level in LEVELS or level in BASELINES):
        known = ", ".join(SETTABLE)
        raise ParlourError(f"{level} takes no settings; players that take settings: {known}")
    if level == "simple":
        from parlour.games.rummy.simple import SimpleBot

        return SimpleBot()
    if level in SEARCHES:
        from parlour.games.rummy.search import LOOKAHEAD, SearchBot

        changed = json_settings(level, settings or {}, SearchBot)
        if level == "lookahead":
            return replace(LOOKAHEAD, **changed) if changed else LOOKAHEAD
        if level == "search-expert":
            changed = {"name": level, "base": "expert", **changed}
        return SearchBot(**changed)
    try:
        bot = LEVELS[level]
    except KeyError:
        known = ", ".join((*LEVELS, "lookahead", *BASELINES))
        raise ParlourError(f"unknown Rummy level {level!r}; levels: {known}") from None
    if settings:
        assert isinstance(bot, PlannerBot)
        return replace(bot, **json_settings(level, settings, PlannerBot))
    return bot
