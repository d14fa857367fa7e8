"""Play-outs of the ``search`` level by a cheap version of the ``hard`` level
(``docs/rules/rummy.md#computer-players``).

A play-out plays a sampled world (every card placed) to the end of its round, many times a
decision, so it must be fast. Its player draws as ``hard`` and the simple player do (the top
discard only when it makes a meld with the hand), melds and lays off as the simple player
(:func:`~.simple.simple_choice`: everything at once, largest meld first), and discards by
``hard``'s rule (:class:`~.bots.PlannerBot` with memory), computed on the bits: a card in no
two-card start costs its points to keep; a card in a start costs *v*(1 - 2*p*) less 10
points, *p* being its chance to join a meld before the round ends (its outs among the cards
the player has not seen, over twice the draws left); a card that would join a card another
player is known to hold costs 6 points more to throw. The player reads only what its seat
sees (its hand, the table, the discard pile, the known cards, the counts).

A :class:`Policy` names such a player: ``simple``, ``hard`` (above) and ``expert``, which is
hard's discard with the ``expert`` level's ``reach`` 4 and ``gain`` 3 and its ``hold`` rule
(issue 18): while every other hand holds more than 3 cards it keeps new melds in its hand
unless laying them down leaves at most one card; lay-offs go down at once; a held meld's
cards are not thrown. Its melds are the expert level's exact split (:func:`planned_melds`).
:class:`RolloutBot` plays a policy as a computer player (to measure its strength).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.engine.state import State
from parlour.games.rummy.bots import HOLD_MOST_PLAYERS, outs, plan_melds
from parlour.games.rummy.cards import Card, Mask
from parlour.games.rummy.determinize import hidden_cards
from parlour.games.rummy.notation import (
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    LayOff,
    Meld,
    RummyAction,
)
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.simple import (
    completes_meld,
    has_meld,
    simple_choice,
    starts,
)
from parlour.games.rummy.state import DRAW, PLAY, RummyState

START_BONUS = 10.0
"""Points taken off the cost of keeping a card in a two-card start (hard's ``start_bonus``)."""
DANGER = 6.0
"""Points added to the cost of throwing a card that joins a known card (hard's
``danger_weight``)."""
REACH = 2.0
"""Hard's ``reach``: the draws left count twice (the other player's discards complete melds
too)."""


def danger_cards(state: RummyState, seat: int) -> Mask:
    """The cards that would join a card another seat is known to hold: the same rank, or the
    next rank up or down in its suit (the king's next up is the ace, as in hard)."""
    danger = 0
    for other, known in enumerate(state.known):
        if other == seat or not known:
            continue
        for c in range(52):
            if known >> c & 1:
                rank, suit = c % 13, c // 13
                danger |= 0x0008004002001 << rank  # the four suits of the rank
                danger |= 1 << (13 * suit + (rank + 1) % 13)
                if rank:
                    danger |= 1 << (13 * suit + rank - 1)
    return danger


@dataclass(frozen=True)
class Policy:
    """A play-out player (module docstring): ``hard`` discards by :func:`hard_discard` with
    ``reach`` and ``gain`` (otherwise as the simple player); ``hold`` holds new melds back
    while every other hand has more than that many cards (0: never)."""

    name: str
    hard: bool = False
    reach: float = REACH
    gain: float = 2.0
    hold: int = 0


POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy("simple"),
        Policy("hard", hard=True),
        Policy("expert", hard=True, reach=4.0, gain=3.0, hold=3),
    )
}
"""The play-out players by name: ``simple``, ``hard`` and ``expert`` (module docstring)."""


def allowed_discards(state: RummyState, seat: int) -> Mask:
    """The cards *seat* (the player to move, after drawing) may discard: its hand less the
    card just taken from the discard pile, unless that is its only card."""
    hand = state.hands[seat]
    taken = state.taken
    return hand if taken is None or hand == 1 << taken else hand & ~(1 << taken)


def planned_melds(state: RummyState, seat: int) -> tuple[list[Mask], Mask]:
    """The expert level's plan for *seat*'s hand: :func:`~.bots.plan_melds` on the table."""
    return plan_melds(state.table, state.hands[seat])


def holds(state: RummyState, seat: int, hold: int, melded: Mask, free: Mask) -> bool:
    """Whether the ``hold`` rule keeps *seat*'s *melded* cards in its hand this turn: some
    are melded, every other hand has more than *hold* cards, and laying the melds down and
    laying off the *free* cards would leave more than one card, in a game of at most
    :data:`~.bots.HOLD_MOST_PLAYERS` players (as the expert level)."""
    if not hold or not melded or state.n > HOLD_MOST_PLAYERS:
        return False
    if min(h.bit_count() for s, h in enumerate(state.hands) if s != seat) <= hold:
        return False
    return (state.hands[seat] & ~melded & ~free).bit_count() > 1


def policy_play(state: RummyState, seat: int, policy: Policy) -> RummyAction:
    """The play-phase action of *policy* for *seat*, the player to move after drawing. A
    policy that holds plays the expert level's plan (:func:`planned_melds`): its melds,
    largest first, unless :func:`holds`; then its lay-offs; then :func:`hard_discard` among
    the cards in none of its melds."""
    hand = state.hands[seat]
    if policy.hold and has_meld(hand):
        melds, free = planned_melds(state, seat)
        melded = 0
        for m in melds:
            melded |= m
        legal = state.legal_actions(seat)
        if not holds(state, seat, policy.hold, melded, free):
            planned = [a for a in legal if type(a) is Meld and a.cards in melds]
            if planned:
                return max(planned, key=lambda a: (a.cards.bit_count(), a.cards))
        for action in legal:
            if type(action) is LayOff:
                return action
        allowed = allowed_discards(state, seat)
        if not any(type(a) is Discard for a in legal):  # must_discard corners
            return legal[0]
        return DISCARDS[hard_discard(state, seat, allowed & ~melded or allowed, policy)]
    action = simple_choice(state, seat)
    if policy.hard and type(action) is Discard and not has_meld(hand):
        return DISCARDS[hard_discard(state, seat, allowed_discards(state, seat), policy)]
    return action


def hard_discard(state: RummyState, seat: int, allowed: Mask, policy: Policy | None = None) -> Card:
    """``hard``'s discard for *seat* among the *allowed* cards of its hand, by the cost in the
    module docstring (with *policy*'s ``reach`` and ``gain``; hard's by default); among equal
    costs the higher rank, then the first in deck order (as ``hard``). For a hand holding a
    meld, *allowed* should leave the melded cards out (as :func:`policy_play` does)."""
    reach, gain = (REACH, 2.0) if policy is None else (policy.reach, policy.gain)
    hand = state.hands[seat]
    live = hidden_cards(state, seat)
    unseen = max(1, live.bit_count())
    others = sum(h.bit_count() for h in state.hands) - hand.bit_count()
    draws = max(1, min(len(state.stock) // state.n + 1, 2 + others // 2))
    power = draws * reach
    in_starts = starts(hand)
    danger = danger_cards(state, seat)
    best = -1
    best_cost = (-1e9, -1)
    for c in range(52):
        if not allowed >> c & 1:
            continue
        value = float(POINTS[c])
        if in_starts >> c & 1:
            miss = 1 - min(1.0, outs(c, hand, live) / unseen)
            value = value * (1 - gain * (1 - miss**power)) - START_BONUS
        if danger >> c & 1:
            value -= DANGER
        cost = (value, c % 13)
        if cost > best_cost:
            best, best_cost = c, cost
    if best < 0:
        raise ValueError("no card to discard")
    return best


def play_out(
    state: RummyState,
    *,
    hard: bool = False,
    policy: Policy | None = None,
    max_steps: int = 2_000,
) -> None:
    """Play *state* (a simulation copy) to the end of its round with the simple player in
    every seat or, with *hard*, the cheap hard player of the module docstring (the simple
    player's draws and melds, :func:`hard_discard` for a hand holding no meld), or *policy*
    (:data:`POLICIES`) when given. Moves are applied without the legality check and without
    history (for speed; they are legal by construction). Stops at the next deal, the end of
    the game, or after *max_steps* moves."""
    if policy is not None and policy.hold:
        _play_out_policy(state, policy, max_steps)
        return
    if policy is not None:
        hard = policy.hard
    for _ in range(max_steps):
        phase = state.phase
        if phase == DRAW:
            pile = state.discard
            state._draw(bool(pile) and completes_meld(state.hands[state.seat], pile[-1]))
        elif phase == PLAY:
            seat = state.seat
            action = simple_choice(state, seat)
            if type(action) is not Discard:
                state._apply(action, seat)
            elif hard and not has_meld(state.hands[seat]):
                state._discard(hard_discard(state, seat, allowed_discards(state, seat), policy))
            else:
                state._discard(action.card)
        else:
            return


def play_out_hard(state: RummyState, *, max_steps: int = 2_000) -> None:
    """:func:`play_out` with the cheap hard player in every seat."""
    play_out(state, hard=True, max_steps=max_steps)


def _play_out_policy(state: RummyState, policy: Policy, max_steps: int) -> None:
    """:func:`play_out` by :func:`policy_play` (a policy that holds melds)."""
    for _ in range(max_steps):
        phase = state.phase
        if phase == DRAW:
            pile = state.discard
            state._draw(bool(pile) and completes_meld(state.hands[state.seat], pile[-1]))
        elif phase == PLAY:
            seat = state.seat
            action = policy_play(state, seat, policy)
            if type(action) is Discard:
                state._discard(action.card)
            else:
                state._apply(action, seat)
        else:
            return


@dataclass
class RolloutBot:
    """A play-out :class:`Policy` as a computer player (``rummy_paired``'s ``rollout-NAME``):
    it takes the top discard only when that card makes a meld with its hand, and plays
    :func:`policy_play`. Reads only what its seat sees; the random source is not used."""

    policy: Policy
    name: str = "rollout"

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat*."""
        assert isinstance(state, RummyState)
        if state.phase == DRAW:
            pile = state.discard
            takes = bool(pile) and completes_meld(state.hands[seat], pile[-1])
            return DRAW_DISCARD if takes else DRAW_STOCK
        return policy_play(state, seat, self.policy)
