"""Rummy as numbered actions and vectors (see ``docs/research.md``).

Player actions (``num_actions`` = 1307):

- ``0`` draw from the stock, ``1`` take the top of the discard pile;
- ``2 + c`` discard card ``c`` (``c`` = ``suit * 13 + rank - 1``, spades, hearts, diamonds,
  clubs; ace low);
- ``54 + m`` meld :data:`MELDS` ``[m]`` (every set and run of the deck, as card masks in
  ascending order: 369 of them, so ``m`` < 369);
- ``423 + 17 * c + t`` lay off card ``c`` onto the table's meld ``t`` (0 = first laid; a table
  holds at most 17 melds).

Chance: the engine's deal is the whole shuffled deck; here it is 51 chance steps, each the
next card of the deck from the top (chance id = the card, uniform over the cards not yet
placed), and the last card follows.
"""

from __future__ import annotations

import random

import numpy as np

from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE
from parlour.games.rummy.cards import DECK, card_text
from parlour.games.rummy.melds import MELD_KIND
from parlour.games.rummy.notation import (
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Deal,
    Discard,
    LayOff,
    Meld,
)
from parlour.games.rummy.state import DEAL, DRAW, OVER, PLAY, RummyState
from parlour.research.position import (
    Codec,
    Position,
    Vector,
    check_id,
    check_layout,
    check_seat,
    one_hot,
    relative,
)

MELDS: tuple[int, ...] = tuple(sorted(MELD_KIND))
"""Every set and run of the deck as a card mask, ascending: meld action ``54 + index``."""
MAX_MELDS = 17
"""Most melds a table can hold (52 cards, three or more each)."""
DISCARD_BASE = 2
MELD_BASE = DISCARD_BASE + 52
LAYOFF_BASE = MELD_BASE + len(MELDS)
NUM_ACTIONS = LAYOFF_BASE + 52 * MAX_MELDS
_MELD_INDEX = {m: i for i, m in enumerate(MELDS)}
_PHASES = (DEAL, DRAW, PLAY, OVER)


def action_id(action: object) -> int:
    """The id of an engine player action (draw, discard, meld, lay-off)."""
    if action == DRAW_STOCK:
        return 0
    if action == DRAW_DISCARD:
        return 1
    if isinstance(action, Meld):
        return MELD_BASE + _MELD_INDEX[action.cards]
    if isinstance(action, LayOff):
        return LAYOFF_BASE + MAX_MELDS * action.card + action.target
    if isinstance(action, Discard):
        return DISCARD_BASE + action.card
    raise ValueError(f"{action!r} is not a Rummy player action")


def action_of(action_id: int) -> object:
    """The engine action for *action_id*. Raises :class:`IllegalMove` for no such id."""
    if type(action_id) is not int or not 0 <= action_id < NUM_ACTIONS:
        raise IllegalMove(f"{action_id!r} is not a Rummy action id (0-{NUM_ACTIONS - 1})")
    if action_id < DISCARD_BASE:
        return DRAW_DISCARD if action_id else DRAW_STOCK
    if action_id < MELD_BASE:
        return DISCARDS[action_id - DISCARD_BASE]
    if action_id < LAYOFF_BASE:
        return Meld(MELDS[action_id - MELD_BASE])
    card, target = divmod(action_id - LAYOFF_BASE, MAX_MELDS)
    return LayOff(card, target)


def action_name(action_id: int) -> str:
    """The fixed meaning of *action_id* in the engine's notation (meld targets from 1)."""
    return str(action_of(action_id))


class RummyCodec(Codec):
    """The numbering and observation of Rummy."""

    num_actions = NUM_ACTIONS
    max_chance_outcomes = 52

    def __init__(self, game: object) -> None:
        super().__init__(game)  # type: ignore[arg-type]
        self.observation_size = sum(n for _, n in self.observation_layout())
        check_layout(self.observation_layout(), self.observation_size)

    def observation_layout(self) -> list[tuple[str, int]]:
        n = self.num_players
        return [
            ("hand", 52),
            ("discard_top", 52),
            ("discard_below", 52),
            ("taken", 52),
            ("table_melds", MAX_MELDS * 52),
            ("table_owners", n * 52),
            ("known", (n - 1) * 52),
            ("hand_counts", n),
            ("stock_count", 1),
            ("phase", 4),
            ("to_move", n),
            ("scores", n),
        ]

    def new_position(self) -> RummyPosition:
        state = self.game.new_initial_state()
        assert isinstance(state, RummyState)
        return RummyPosition(self, state)

    def action_name(self, action_id: int) -> str:
        return action_name(action_id)


class RummyPosition(Position):
    """Rummy through :class:`RummyCodec`; ``dealt`` holds the deck order placed so far
    during a deal's chance steps."""

    codec: RummyCodec
    state: RummyState

    def __init__(self, codec: RummyCodec, state: RummyState) -> None:
        super().__init__(codec, state)
        self.dealt: list[int] = []

    def legal_ids(self) -> list[int]:
        if self.state.phase not in (DRAW, PLAY):
            return []
        return sorted(map(action_id, self.state.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state.phase != DEAL:
            raise IllegalMove("not a chance node: the cards are dealt")
        placed = set(self.dealt)
        rest = [c for c in DECK if c not in placed]
        p = 1.0 / len(rest)
        return [(c, p) for c in rest]

    def sample_chance(self, rng: random.Random) -> int:
        if self.state.phase != DEAL:
            raise IllegalMove("not a chance node: the cards are dealt")
        placed = set(self.dealt)
        return rng.choice([c for c in DECK if c not in placed])

    def apply_id(self, action_id: int) -> None:
        state = self.state
        if state.phase == DEAL:
            if type(action_id) is not int or not 0 <= action_id < 52 or action_id in self.dealt:
                raise IllegalMove(f"{action_id!r} is not a card still to deal")
            self._apply_chance(action_id)
        else:
            state.apply(action_of(action_id))  # the engine checks it (IllegalMove)

    def _apply_chance(self, chance_id: int) -> None:
        self.dealt.append(chance_id)
        if len(self.dealt) == 51:
            last = (set(DECK) - set(self.dealt)).pop()
            order = (*self.dealt, last)
            self.dealt = []
            self.state.apply(Deal(order), player=CHANCE)

    def _apply_action(self, action_id: int) -> None:
        self.state.apply(action_of(action_id))

    def id_to_string(self, action_id: int) -> str:
        if self.is_chance():
            card = check_id(action_id, 52, "a card")
            return f"deal card {len(self.dealt) + 1}: {card_text(card)}"
        return action_name(action_id)

    def _own_dealt(self, seat: int) -> tuple[int, int | None]:
        """During a deal: (mask of *seat*'s cards dealt so far, the upcard if dealt)."""
        state = self.state
        n, size = state.n, state.hand_size
        mask = 0
        for i, c in enumerate(self.dealt[: n * size]):
            if (state.starter + i) % n == seat:
                mask |= 1 << c
        upcard = self.dealt[n * size] if len(self.dealt) > n * size else None
        return mask, upcard

    def observation(self, seat: int) -> Vector:
        seat = check_seat(seat, self.codec.num_players)
        state = self.state
        n = self.codec.num_players
        out = np.zeros(self.codec.observation_size, dtype=np.float32)
        hand = state.hands[seat]
        discard = state.discard
        if state.phase == DEAL:
            hand, upcard = self._own_dealt(seat)
            discard = [upcard] if upcard is not None else []
        _bits(out, 0, hand)
        if discard:
            out[52 + discard[-1]] = 1.0
            for c in discard[:-1]:
                out[104 + c] = 1.0
        if state.taken is not None and state.phase == PLAY:
            out[156 + state.taken] = 1.0
        base = 208
        owners = base + MAX_MELDS * 52
        for t, meld in enumerate(state.table):
            for c, owner in zip(meld.cards, meld.owners, strict=True):
                out[base + 52 * t + c] = 1.0
                out[owners + 52 * relative(seat, owner, n) + c] = 1.0
        known = owners + n * 52
        for other in range(n):
            if other != seat:
                _bits(out, known + 52 * (relative(seat, other, n) - 1), state.known[other])
        tail = known + (n - 1) * 52
        counts = [h.bit_count() / 13.0 for h in state.hands]
        if state.phase == DEAL:
            counts = [0.0] * n
        for s in range(n):
            out[tail + relative(seat, s, n)] = counts[s]
        out[tail + n] = len(state.stock) / 52.0
        out[tail + n + 1 + _PHASES.index(state.phase)] = 1.0
        player = state.current_player()
        to_move = one_hot(n, relative(seat, player, n) if player >= 0 else None)
        out[tail + n + 5 : tail + 2 * n + 5] = to_move
        for s in range(n):
            out[tail + 2 * n + 5 + relative(seat, s, n)] = state.scores[s] / state.ending_score
        return out

    def observation_string(self, seat: int) -> str:
        seat = check_seat(seat, self.codec.num_players)
        if self.state.phase == DEAL:
            hand, upcard = self._own_dealt(seat)
            mine = " ".join(card_text(c) for c in DECK if hand >> c & 1)
            up = card_text(upcard) if upcard is not None else "-"
            head = super().observation_string(seat)
            return f"{head} dealing: {len(self.dealt)} placed; your cards {mine}; upcard {up}"
        return super().observation_string(seat)

    def _pending_text(self) -> str:
        return f"\ndealing: {len(self.dealt)} of 52 cards placed" if self.dealt else ""

    def resample(self, player: int, rng: random.Random) -> None:
        """See :func:`resample`."""
        resample(self, player, rng)

    def clone(self) -> RummyPosition:
        twin = RummyPosition(self.codec, self.state.clone())
        twin.dealt = list(self.dealt)
        return twin


def _bits(out: Vector, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[offset + low.bit_length() - 1] = 1.0
        mask ^= low


def resample(position: RummyPosition, player: int, rng: random.Random) -> None:
    """Deal *position*'s hidden cards again at random with *rng*, as *player* cannot tell
    them apart: the other hands' cards not known to be there, and the stock's order. What
    *player* sees (its observation) is unchanged. Only at a seat's decision (draw or play).
    The state's last :meth:`~.RummyState.legal` listing is dropped (the mover's hand may be
    dealt again): ``apply_legal`` needs a new one."""
    state = position.state
    if state.phase not in (DRAW, PLAY):
        raise IllegalMove("hidden cards are resampled at a seat's decision only")
    pool: list[int] = list(state.stock)
    hidden: list[tuple[int, int]] = []  # (seat, count of unknown cards)
    for seat in range(state.n):
        if seat == player:
            continue
        unknown = state.hands[seat] & ~state.known[seat]
        pool.extend(c for c in DECK if unknown >> c & 1)
        hidden.append((seat, unknown.bit_count()))
    rng.shuffle(pool)
    at = 0
    for seat, count in hidden:
        mask = state.known[seat]
        for c in pool[at : at + count]:
            mask |= 1 << c
        state.hands[seat] = mask
        at += count
        if seat == state.seat and state.drawn is not None and state.taken is None:
            state.drawn = None  # the card drawn from the stock was hidden
    state.stock[:] = pool[at:]
    state._listed = None  # a hand dealt again: legal() lists it afresh before apply_legal
