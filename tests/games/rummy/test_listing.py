"""The fast listing of a hand after the draw (listing.py, and its copy inlined in
RummyState.legal) against the rules spelt out plainly: every set and run of the deck, every
table meld's lay-off cards, the checks of the checked apply."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.errors import IllegalMove
from parlour.games.rummy.cards import cards_of, parse_card
from parlour.games.rummy.listing import play_actions
from parlour.games.rummy.melds import MELD_KIND, TableMeld
from parlour.games.rummy.notation import DISCARDS, LayOff, Meld, RummyAction
from parlour.games.rummy.state import PLAY, RummyState


def _plain_listing(
    hand: int, taken: int | None, must_discard: bool, table: list[TableMeld]
) -> set[RummyAction]:
    """The moves after the draw by the rules, one by one (no order)."""
    found: set[RummyAction] = set()

    def leaves_playable(left: int) -> bool:
        if not left:
            return not must_discard
        return taken is None or left != 1 << taken

    for meld in MELD_KIND:
        if meld & hand == meld and leaves_playable(hand & ~meld):
            found.add(Meld(meld))
    for index, meld in enumerate(table):
        for c in cards_of(meld.accepts & hand):
            if leaves_playable(hand & ~(1 << c)):
                found.add(LayOff(c, index))
    for c in cards_of(hand):
        if c != taken or hand == 1 << c:
            found.add(DISCARDS[c])
    return found


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int | None, bool, list[TableMeld]]:
    """A hand after the draw (1-14 cards), the card taken from the discard pile (or None),
    must_discard, and a table of up to four melds apart from the hand, some laid off onto."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deck = list(range(52))
    rng.shuffle(deck)
    hand_cards = deck[: draw(st.integers(1, 14))]
    hand = sum(1 << c for c in hand_cards)
    taken = rng.choice([None, *hand_cards])
    if taken is not None and hand == 1 << taken:
        taken = None  # the rules never leave a hand of just the taken card
    used = hand
    table: list[TableMeld] = []
    melds = [m for m in MELD_KIND if m.bit_count() <= 4]
    for _ in range(draw(st.integers(0, 4))):
        free = [m for m in melds if not m & used]
        if not free:
            break
        meld = TableMeld.laid_down(rng.choice(free), rng.randrange(2))
        used |= meld.mask
        for _ in range(rng.randrange(3)):
            fits = [c for c in cards_of(meld.accepts & ~used)]
            if fits:
                c = rng.choice(fits)
                meld = meld.lay_off(c, rng.randrange(2))
                used |= 1 << c
        table.append(meld)
    return hand, taken, draw(st.booleans()), table


def _state_at(
    hand: int, taken: int | None, must_discard: bool, table: list[TableMeld]
) -> RummyState:
    """A two-seat game at seat 0's play holding *hand*, with *taken* and *table* set."""
    state = parlour.load("rummy", must_discard=must_discard).new_initial_state()
    assert isinstance(state, RummyState)
    state.apply(state.sample_chance(random.Random(0)))
    state.apply(state.legal_actions()[0])  # draw from the stock
    assert state.phase == PLAY and state.seat == 0
    state.hands[0] = hand
    state.taken = taken
    state.table = list(table)
    return state


@settings(max_examples=300, deadline=None, derandomize=True)
@given(position=positions())
def test_the_fast_listing_is_the_rules_listing(
    position: tuple[int, int | None, bool, list[TableMeld]],
) -> None:
    """play_actions lists each legal move once, the melds first, then the lay-offs meld by
    meld, then the discards in card order; the fast path's inlined copy (legal) lists the
    same; the checked apply accepts every move listed."""
    hand, taken, must_discard, table = position
    listed = play_actions(hand, taken, must_discard, table)
    assert len(set(listed)) == len(listed)
    assert set(listed) == _plain_listing(hand, taken, must_discard, table)
    kinds = [0 if isinstance(a, Meld) else 1 if isinstance(a, LayOff) else 2 for a in listed]
    assert kinds == sorted(kinds)
    lay_offs = [a for a in listed if isinstance(a, LayOff)]
    assert [a.target for a in lay_offs] == sorted(a.target for a in lay_offs)
    discards = [a.card for a in listed if not isinstance(a, (Meld, LayOff))]
    assert discards == sorted(discards)
    state = _state_at(hand, taken, must_discard, table)
    assert list(state.legal()) == list(state.legal_actions()) == listed
    for action in listed:
        state.clone().apply(action)  # passes every check


def test_a_hand_by_hand() -> None:
    """7H 8H 9H 9S 9D KC, the 9H taken from the discard pile, the table a run 4C 5C 6C and a
    set of three kings: the run 7H 8H 9H, the set 9S 9H 9D, the lay-off of KC onto the kings
    (meld 2), then every discard but the 9H."""
    card = parse_card
    hand = sum(1 << card(t) for t in ("7H", "8H", "9H", "9S", "9D", "KC"))
    run = TableMeld.laid_down(sum(1 << card(t) for t in ("4C", "5C", "6C")), 1)
    kings = TableMeld.laid_down(sum(1 << card(t) for t in ("KS", "KH", "KD")), 1)
    listed = play_actions(hand, card("9H"), False, [run, kings])
    assert [str(a) for a in listed] == [
        "meld 7H 8H 9H",
        "meld 9S 9H 9D",
        "layoff KC on 2",
        "discard 9S",
        "discard 7H",
        "discard 8H",
        "discard 9D",
        "discard KC",
    ]
    state = _state_at(hand, card("9H"), False, [run, kings])
    assert list(state.legal()) == listed
    try:
        state.clone().apply(DISCARDS[card("9H")])
    except IllegalMove as refused:
        assert "just taken" in str(refused)
    else:
        raise AssertionError("the taken card was discarded")


def _every_move(state: RummyState) -> list[RummyAction]:
    """Every move a player could try after the draw: each meld of the deck inside the hand,
    each held card onto each meld number (one past the table too), each card of the deck
    discarded."""
    hand = state.hands[state.seat]
    tries: list[RummyAction] = [Meld(m) for m in MELD_KIND if m & hand == m]
    for c in cards_of(hand):
        tries.extend(LayOff(c, t) for t in range(len(state.table) + 1))
    tries.extend(DISCARDS)
    return tries


def test_in_whole_games_the_listing_is_what_the_checked_apply_accepts() -> None:
    """Random games (2, 3 and 4 players, must_discard on and off, melds and lay-offs played
    whenever listed, so tables grow and rounds end by going out): at every decision the fast
    listing equals the checked one and holds exactly the moves the checked apply accepts (a
    refused one names a reason and changes nothing), and the game played by apply_legal is
    the game played by apply, scores included."""
    for seed, players, must_discard in ((1, 2, False), (2, 3, True), (3, 4, False)):
        game = parlour.load("rummy", players=players, must_discard=must_discard, max_rounds=1)
        fast, checked = game.new_initial_state(), game.new_initial_state()
        assert isinstance(fast, RummyState) and isinstance(checked, RummyState)
        rng = random.Random(seed)
        while not fast.is_terminal():
            if fast.is_chance_node():
                checked.apply(fast.apply_sample(rng))
                continue
            listed = list(fast.legal())
            assert listed == list(checked.legal_actions())
            if fast.phase == PLAY:
                accepted = set()
                for action in _every_move(fast):
                    trial = fast.clone()
                    before = trial.to_json()
                    try:
                        trial.apply(action)
                    except IllegalMove as refused:
                        assert str(refused) and trial.to_json() == before
                    else:
                        accepted.add(action)
                assert accepted == set(listed) and len(listed) == len(accepted)
            plays = [i for i, a in enumerate(listed) if isinstance(a, (Meld, LayOff))]
            index = rng.choice(plays) if plays else rng.randrange(len(listed))
            checked.apply(fast.apply_legal(index))
            assert fast.to_json() == checked.to_json()
        assert fast.result() == checked.result()
        assert fast.round_scores == checked.round_scores and len(fast.round_scores) >= 1


def test_a_round_played_by_the_fast_path_scores_as_counted_by_hand() -> None:
    """Seat 0 takes KS and melds A-2-3 of spades (25 points), Q-K-A of hearts (35) and three
    7s (15), discarding 9D; seat 1 lays off 7S onto the 7s (5, its own inside seat 0's
    meld), melds 2-3-4 of hearts (15) and 8-J of clubs (25), discarding 4D; seat 0 lays off
    4S onto its run (5) and goes out by discarding KS. Seat 0: 80 on the table, nothing in
    hand, +80; seat 1: 45 on the table less 5C 6C in hand (10), +35."""
    from parlour.games.rummy.state import arrange_deck

    cards = [parse_card(t) for t in ["AS", "2S", "3S", "QH", "KH", "AH", "7C", "7D", "7H", "9D"]]
    other = [parse_card(t) for t in ["2H", "3H", "4H", "5C", "6C", "8C", "9C", "10C", "JC", "4D"]]
    deal = arrange_deck([cards, other], parse_card("KS"), [parse_card("7S"), parse_card("4S")])
    state = parlour.load("rummy").new_initial_state()
    assert isinstance(state, RummyState)
    state.apply(deal)
    moves = [
        "draw discard", "meld AS 2S 3S", "meld QH KH AH", "meld 7C 7D 7H", "discard 9D",
        "draw stock", "layoff 7S on 3", "meld 2H 3H 4H", "meld 8C 9C 10C JC", "discard 4D",
        "draw stock", "layoff 4S on 1", "discard KS",
    ]  # fmt: skip
    for text in moves:
        state.apply_legal(list(state.legal()).index(state.parse_action(text)))
    assert state.last_round is not None
    assert state.last_round["ended"] == "out" and state.last_round["out"] == 0
    assert state.last_round["table_points"] == [80, 45]
    assert state.last_round["hand_points"] == [0, 10]
    assert state.scores == [80, 35]
