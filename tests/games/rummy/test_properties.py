"""Property tests (issue 4): cards conserved at every step, scores add up, random play ends,
and nothing hidden leaks into another seat's observation."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.rummy.cards import FULL_DECK, card_text, cards_of, parse_card
from parlour.games.rummy.notation import LayOff, Meld
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.state import DEAL, RummyState

OPTIONS = st.sampled_from(
    [
        {},
        {"must_discard": True},
        {"players": 3},
        {"players": 4, "alternate_start": True},
        {"ending_score": 50, "hand_size": 5},
    ]
)


def check_conserved(state: RummyState) -> None:
    """Each of the 52 cards is in exactly one place: a hand, the table, the stock or the
    discard pile (between rounds, all are back in the deck; at the end the last round's
    cards stay where they were)."""
    if state.phase == DEAL:
        assert not any(state.hands) and not state.table and not state.stock
        return
    places = [*state.hands, *(m.mask for m in state.table)]
    places += [1 << c for c in state.stock] + [1 << c for c in state.discard]
    total = 0
    for mask in places:
        assert not total & mask, "a card is in two places"
        total |= mask
    assert total == FULL_DECK
    assert sum(bin(m).count("1") for m in places) == 52


def hidden_reshuffled(state: RummyState, seat: int, rng: random.Random) -> RummyState:
    """A twin of *state* in which everything *seat* cannot see (the other hands, less the
    cards known to be there, and the stock order) is dealt again at random."""
    twin = state.clone()
    pool = list(twin.stock)
    for other in range(twin.n):
        if other != seat:
            pool += list(cards_of(twin.hands[other] & ~twin.known[other]))
    rng.shuffle(pool)
    for other in range(twin.n):
        if other != seat:
            count = (twin.hands[other] & ~twin.known[other]).bit_count()
            twin.hands[other] = twin.known[other]
            for c in pool[:count]:
                twin.hands[other] |= 1 << c
            pool = pool[count:]
    twin.stock = pool
    if twin.drawn is not None and twin.seat != seat and twin.taken is None:
        twin.drawn = None  # which card the other player drew is not seat's to know
    return twin


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_play_conserves_cards_adds_up_and_ends(
    seed: int, options: dict[str, object]
) -> None:
    rng = random.Random(seed)
    game = parlour.load("rummy", max_rounds=6, **options)
    state = game.new_initial_state()
    assert isinstance(state, RummyState)
    owners: dict[int, int] = {}
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 20_000
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            owners = {}
            check_conserved(state)
            continue
        seat = state.current_player()
        action = rng.choice(list(state.legal_actions()))
        if isinstance(action, Meld):
            owners.update({c: seat for c in cards_of(action.cards)})
        elif isinstance(action, LayOff):
            owners[action.card] = seat
        rounds = len(state.round_scores)
        state.apply(action)
        check_conserved(state)
        if len(state.round_scores) > rounds:  # the round just ended: check its scores
            assert state.last_round is not None
            hands = state.last_round["hands"]
            for s in range(state.n):
                on_table = sum(POINTS[c] for c, o in owners.items() if o == s)
                in_hand = sum(POINTS[parse_card(t)] for t in hands[s])
                assert state.round_scores[-1][s] == on_table - in_hand
            total_on_table = sum(POINTS[c] for c in owners)
            assert total_on_table + sum(POINTS[parse_card(t)] for h in hands for t in h) <= sum(
                POINTS
            )
    assert [sum(r[s] for r in state.round_scores) for s in range(state.n)] == state.scores
    result = state.result()
    assert result.scores == tuple(state.scores)
    top = max(state.scores)
    assert result.winners == tuple(s for s in range(state.n) if state.scores[s] == top)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_observations_hide_other_hands_and_the_stock(seed: int) -> None:
    rng = random.Random(seed)
    state = parlour.load("rummy").new_initial_state()
    assert isinstance(state, RummyState)
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(state.n):
            obs = state.observation(seat)
            twin = hidden_reshuffled(state, seat, random.Random(rng.random()))
            assert twin.observation(seat) == obs
            assert twin.view(seat) == state.view(seat)
            # and directly: no card of the stock is named anywhere but in the public parts
            text = json.dumps({k: v for k, v in obs.items() if k != "last_round"})
            for c in state.stock:
                assert f'"{card_text(c)}"' not in text
        state.apply(rng.choice(list(state.legal_actions())))


def test_random_play_of_the_default_game_ends() -> None:
    rng = random.Random(5)
    for _ in range(3):
        state = parlour.load("rummy").new_initial_state()
        steps = 0
        while not state.is_terminal():
            steps += 1
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
        assert steps < 100 * 400  # at most max_rounds (100) rounds
