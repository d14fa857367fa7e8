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
"""

from __future__ import annotations

from parlour.games.rummy.bots import outs
from parlour.games.rummy.cards import Card, Mask
from parlour.games.rummy.determinize import hidden_cards
from parlour.games.rummy.notation import Discard
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


def hard_discard(state: RummyState, seat: int, allowed: Mask) -> Card:
    """``hard``'s discard for *seat* among the *allowed* cards of its hand (a hand holding no
    meld), by the cost in the module docstring; among equal costs the higher rank, then the
    first in deck order (as ``hard``)."""
    hand = state.hands[seat]
    live = hidden_cards(state, seat)
    unseen = max(1, live.bit_count())
    others = sum(h.bit_count() for h in state.hands) - hand.bit_count()
    draws = max(1, min(len(state.stock) // state.n + 1, 2 + others // 2))
    power = draws * REACH
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
            value = value * (1 - 2 * (1 - miss**power)) - START_BONUS
        if danger >> c & 1:
            value -= DANGER
        cost = (value, c % 13)
        if cost > best_cost:
            best, best_cost = c, cost
    if best < 0:
        raise ValueError("no card to discard")
    return best


def play_out(state: RummyState, *, hard: bool = False, max_steps: int = 2_000) -> None:
    """Play *state* (a simulation copy) to the end of its round with the simple player in
    every seat or, with *hard*, the cheap hard player of the module docstring (the simple
    player's draws and melds, :func:`hard_discard` for a hand holding no meld). Moves are
    applied without the legality check and without history (for speed; they are legal by
    construction). Stops at the next deal, the end of the game, or after *max_steps* moves."""
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
                hand = state.hands[seat]
                taken = state.taken
                allowed = hand if taken is None or hand == 1 << taken else hand & ~(1 << taken)
                state._discard(hard_discard(state, seat, allowed))
            else:
                state._discard(action.card)
        else:
            return


def play_out_hard(state: RummyState, *, max_steps: int = 2_000) -> None:
    """:func:`play_out` with the cheap hard player in every seat."""
    play_out(state, hard=True, max_steps=max_steps)
