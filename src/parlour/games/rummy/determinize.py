"""Re-dealing the cards one seat cannot see, consistently with what it has seen: the
determinizations of the ``search`` level (``docs/rules/rummy.md#computer-players``).

What *seat* cannot see is the order of the stock and, in each other hand, the cards not known
to be there (known cards were taken from the discard pile). A determinization deals those
hidden cards again: every other hand keeps its known cards and its size, the stock its size.
Only the public facts are read: the seat's own hand, the table, the discard pile, the known
cards, the counts, and from the history the public moves (draws, discards, melds) and the
turned-up card of each deal (``Deal.order`` at the upcard's place, face up on the table).

Among uniform re-deals, :func:`determinize` prefers hands that agree with how players play:
a player who drew from the stock passed over the top discard, so a hand that would have made
a meld with it is less likely; and players meld what they can, so a hand holding a meld
already is less likely. These are preferences (the re-deal with the fewest disagreements of
``tries`` uniform ones), never certainties: a person may play otherwise.

A player may also hold its melds back, as the ``expert`` level does while the other hands are
long (issue 18). With ``held`` (:func:`determinize`), a hand is read that way: a meld in it is
no disagreement while the player, at its last turn, saw every other hand hold more than
``held`` cards (:func:`may_hold`), and a card it took from the discard pile and still holds
was taken to make a meld, so a hand where that card is in no meld disagrees.
"""

from __future__ import annotations

import random

from parlour.games.rummy.cards import FULL_DECK, Card, Mask, cards_of
from parlour.games.rummy.melds import melds_in
from parlour.games.rummy.notation import Deal, Discard, Draw, LayOff, Meld, Skip
from parlour.games.rummy.state import RummyState


def hidden_cards(state: RummyState, seat: int) -> Mask:
    """The cards *seat* cannot place (the stock and the other hands less their known cards),
    found from what it sees: every card not in its hand, on the table, in the discard pile or
    known to be in another hand."""
    seen = state.hands[seat]
    for meld in state.table:
        seen |= meld.mask
    for c in state.discard:
        seen |= 1 << c
    for other, known in enumerate(state.known):
        if other != seat:
            seen |= known
    return FULL_DECK & ~seen


def passed_over(state: RummyState) -> list[Mask]:
    """For each seat, the top discards it saw at its draw this round and did not take.

    Read from the public moves since the last deal, following the discard pile from the upcard;
    a host skip's discard is not named by the move, so nothing is inferred while it is on top.
    """
    passed = [0] * state.n
    pile: list[Card | None] = []
    start = 0
    for index in range(len(state.history) - 1, -1, -1):
        if isinstance(state.history[index][1], Deal):
            start = index
            break
    for who, action in state.history[start:]:
        if isinstance(action, Deal):
            pile = [action.order[state.n * state.hand_size]]  # the upcard, dealt face up
        elif isinstance(action, Draw):
            if action.discard:
                pile.pop()
            elif pile and pile[-1] is not None and 0 <= who < state.n:
                passed[who] |= 1 << pile[-1]
        elif isinstance(action, Discard):
            pile.append(action.card)
        elif isinstance(action, Skip):
            pile.append(None)  # a card went to the pile, but the move does not name it
    return passed


def may_hold(state: RummyState, hold: int) -> list[bool]:
    """For each seat, whether a player holding melds back while every other hand has more
    than *hold* cards (``expert``'s rule, *hold* 3) may be holding melds in its hand now: it
    has had no turn since the last deal, or at the end of its last turn every other hand held
    more than *hold* cards. Read from the public moves since the last deal (the hand counts
    follow the draws, discards, melds, lay-offs and host skips).

    Raises :class:`ValueError` for a negative *hold*."""
    if hold < 0:
        raise ValueError(f"hold must be at least 0, not {hold}")
    start = 0
    for index in range(len(state.history) - 1, -1, -1):
        if isinstance(state.history[index][1], Deal):
            start = index
            break
    counts = [state.hand_size] * state.n
    holding = [True] * state.n
    drawer: int | None = None  # the seat that drew last, until its turn ends
    for who, action in state.history[start + 1 :]:
        if isinstance(action, Draw):
            counts[who] += 1
            drawer = who
        elif isinstance(action, Discard):
            counts[who] -= 1
            holding[who] = min(n for s, n in enumerate(counts) if s != who) > hold
            drawer = None
        elif isinstance(action, Meld):
            counts[who] -= action.cards.bit_count()
        elif isinstance(action, LayOff):
            counts[who] -= 1
        elif isinstance(action, Skip):
            if drawer is not None:  # after the draw a card of the hand is discarded
                counts[drawer] -= 1
            drawer = None  # before it, the stock's top card is drawn and discarded
    return holding


def disagreements(hand: Mask, passed: Mask, *, melds: bool = True, taken: Mask = 0) -> int:
    """How many ways *hand* disagrees with melding everything and with passing over the cards
    of *passed*: melds inside the hand (unless *melds* is false: the player may be holding
    them, and only a hand that is one meld disagrees, since it would have gone out), plus
    passed cards that would have made a meld with it, plus cards of *taken* (cards the player
    took from the discard pile, in *hand*) that are in no meld of the hand."""
    inside = melds_in(hand)
    count = len(inside) if melds else int(hand in inside)
    for c in cards_of(passed):
        if any(m >> c & 1 for m in melds_in(hand | 1 << c)):
            count += 1
    if taken:
        melded = 0
        for m in inside:
            melded |= m
        count += (taken & ~melded).bit_count()
    return count


def determinize(
    state: RummyState,
    seat: int,
    rng: random.Random,
    *,
    tries: int = 8,
    passed: list[Mask] | None = None,
    held: int = 0,
) -> RummyState:
    """A copy of *state* with the cards hidden from *seat* dealt again (see the module
    docstring). The copy's history is empty (it is for simulation, not for the record); the
    seat's own hand, the table, the discard pile, the known cards and the counts are those of
    *state*. Deterministic for a given *rng* state; *tries* (1 or more) uniform re-deals are
    drawn and the one with the fewest :func:`disagreements` is kept (the first on a tie).
    *passed* is :func:`passed_over` of *state* when the caller has it already. With *held*
    (at least 1), the other hands are read as holding melds back as in the module docstring
    (:func:`may_hold` with *held*); 0 reads them as melding everything they can. Raises
    :class:`ValueError` for a negative *held*."""
    if held < 0:
        raise ValueError(f"held must be at least 0, not {held}")
    twin = state.clone()
    twin.history = []
    hidden = list(cards_of(hidden_cards(state, seat)))
    others = [s for s in range(state.n) if s != seat]
    counts = {s: state.hands[s].bit_count() - state.known[s].bit_count() for s in others}
    if passed is None:
        passed = passed_over(state) if tries > 1 else [0] * state.n
    holding = may_hold(state, held) if held and tries > 1 else [False] * state.n
    best: tuple[int, list[Card]] | None = None
    for _ in range(max(1, tries)):
        pool = hidden[:]
        rng.shuffle(pool)
        if tries <= 1:
            best = (0, pool)
            break
        score = 0
        at = 0
        for s in others:
            hand = state.known[s]
            for c in pool[at : at + counts[s]]:
                hand |= 1 << c
            at += counts[s]
            if held:
                score += disagreements(hand, passed[s], melds=not holding[s], taken=state.known[s])
            else:
                score += disagreements(hand, passed[s])
        if best is None or score < best[0]:
            best = (score, pool)
            if not score:
                break
    assert best is not None
    pool = best[1]
    at = 0
    for s in others:
        hand = state.known[s]
        for c in pool[at : at + counts[s]]:
            hand |= 1 << c
        at += counts[s]
        twin.hands[s] = hand
    twin.stock = pool[at:]
    twin._listed = None  # the listing copied was of other hands: legal() lists the world's
    if twin.drawn is not None and twin.seat != seat and twin.taken is None:
        twin.drawn = None  # which card another player drew is not seat's to know
    return twin
