"""Rummy rules (manual ``003``, closest to 500 Rum; decisions in ``docs/rules/rummy.md``).

A round: the deck is shuffled (a chance outcome, :class:`~.notation.Deal`) and dealt, 10
cards each to two players (7 each to three or four); the next card starts the discard pile
and the rest is the stock. The seat of option ``first`` (0 by default; against the computer,
the person's: the platform sets it) starts every round (option ``alternate_start``: the
first player moves on one seat a round). A turn:

1. **draw** the top card of the stock or take the top card of the discard pile;
2. **meld** sets and runs and **lay off** single cards onto any meld on the table, any number
   of times;
3. **discard** one card, ending the turn. The card just taken from the discard pile may not
   be discarded in the same turn.

A player whose hand becomes empty ends the round at once (option ``must_discard``: only a
discard may empty the hand). When the stock is empty at the end of a turn the round ends; the
stock is never reshuffled. Each player scores the points of their cards on the table minus
those left in their hand (:mod:`.scoring`). Rounds go on until, at the end of a round, a
game score is over the ending score (500); the highest score wins, and a tie at the top
plays another round.

What a step did (:meth:`RummyState.describe_step`): ``seat`` is the seat whose turn it is
(also for a host skip; ``None`` for a deal), ``points`` the points of the cards a meld or a
lay-off puts on the table (they count for that seat when the round is scored), and the
marks ``"turn_over"`` (a discard or a skip passed the turn, or the round ended) and
``"round_over"`` (the round was scored: ``score_changes`` are its scores by seat, facts
``round`` and ``ended``: ``out``, ``stock`` or ``turns``), then the engine's ``"game_over"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import BadOption, IllegalMove
from parlour.engine.state import CHANCE, HOST, JSON, TERMINAL, Game, Result, State
from parlour.engine.step import Step
from parlour.games.rummy.cards import (
    DECK,
    Card,
    Mask,
    card_text,
    cards_of,
    cards_text,
    mask_of,
    shuffled_deck,
)
from parlour.games.rummy.listing import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    play_actions,
    suit_entry,
    with_melds,
)
from parlour.games.rummy.melds import TableMeld, why_not_meld
from parlour.games.rummy.notation import (
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Deal,
    Discard,
    Draw,
    LayOff,
    Meld,
    RummyAction,
    Skip,
    parse,
)
from parlour.games.rummy.scoring import POINTS, mask_points

DEAL = "deal"
DRAW = "draw"
PLAY = "play"
OVER = "over"

_DRAW_BOTH = (DRAW_STOCK, DRAW_DISCARD)
_DRAW_STOCK_ONLY = (DRAW_STOCK,)
_BITS: tuple[Mask, ...] = tuple(1 << c for c in DECK)
# the history events of the fast path's draws and discards, made once (equal tuples shared)
_DRAW_EVENTS = tuple(((seat, DRAW_STOCK), (seat, DRAW_DISCARD)) for seat in range(4))
_DISCARD_EVENTS = tuple(tuple((seat, DISCARDS[c]) for c in DECK) for seat in range(4))


def _is_card(c: object) -> bool:
    """Whether *c* is a card: an ``int`` 0..51 (not a bool, a float or ``None``, which
    Python code could put in an action by mistake)."""
    return type(c) is int and 0 <= c < 52


def hand_size_for(players: int, option: int) -> int:
    """Cards dealt to each player: the ``hand_size`` option, or (0) 10 for two players and
    7 for three or four."""
    if option:
        return option
    return 10 if players == 2 else 7


def arrange_deck(
    hands: Sequence[Sequence[Card]],
    upcard: Card,
    stock: Sequence[Card] = (),
    *,
    starter: int = 0,
) -> Deal:
    """The deal that gives each seat ``hands[seat]``, turns up *upcard* and puts *stock*
    on top of the stock (its first card is drawn first); the other cards follow in deck order.

    For tests and demonstrations: forcing a shuffle. The hands must have equal sizes and are
    dealt one card at a time starting with *starter* (the seat that plays first).
    """
    n = len(hands)
    size = len(hands[0])
    order: list[Card] = []
    for i in range(size * n):
        order.append(hands[(starter + i) % n][i // n])
    order.append(upcard)
    order.extend(stock)
    used = set(order)
    if len(used) != len(order):
        raise ValueError("a card is given twice")
    order.extend(c for c in DECK if c not in used)
    return Deal(tuple(order))


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know: its own hand, the table, the whole discard pile, the counts,
    and the cards each player is known to hold (taken from the discard pile and not played
    since). Bots decide from this alone. ``seat`` is ``None`` for a spectator."""

    seat: int | None
    hand: Mask
    hand_counts: tuple[int, ...]
    stock_count: int
    discard: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    known: tuple[Mask, ...]
    phase: str
    to_move: int
    taken: Card | None
    scores: tuple[int, ...]
    round: int
    must_discard: bool
    ending_score: int


class RummyState(State):
    """A game of Rummy. Attributes (read them, never assign): ``hands`` (masks by seat),
    ``stock`` (cards, top last), ``discard`` (the discard pile, top last), ``table`` (melds in
    the order laid), ``seat`` (whose turn), ``phase`` (``deal``/``draw``/``play``/``over``),
    ``taken`` (card taken from the discard pile this turn), ``drawn`` (card drawn this turn),
    ``known`` (cards known to be in each hand), ``scores`` (game scores), ``round``,
    ``round_scores`` (per finished round, by seat), ``last_round`` (summary of the last
    finished round)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        options = game.options
        self.n = game.num_players
        self.hand_size = hand_size_for(self.n, int(options.get("hand_size", 0)))
        if self.n * self.hand_size + 2 > 52:
            raise BadOption(f"{self.n} hands of {self.hand_size} cards leave no stock")
        self.ending_score = int(options.get("ending_score", 500))
        self.must_discard = bool(options.get("must_discard", False))
        self.alternate_start = bool(options.get("alternate_start", False))
        self.max_rounds = int(options.get("max_rounds", 0))
        self.max_turns = int(options.get("max_turns", 0))
        first = int(options.get("first", 0))
        if not 0 <= first < self.n:
            seats = f"seats 0-{self.n - 1}"
            raise BadOption(f"option first={first}: there is no seat {first} ({seats})")
        self.scores: list[int] = [0] * self.n
        self.round = 1
        self.round_scores: list[list[int]] = []
        self.starter = first
        self.last_round: dict[str, Any] | None = None
        self._new_round()

    def _new_round(self) -> None:
        self.phase = DEAL
        self.hands: list[Mask] = [0] * self.n
        self.known: list[Mask] = [0] * self.n
        self.stock: list[Card] = []
        self.discard: list[Card] = []
        self.table: list[TableMeld] = []
        self.seat = self.starter
        self.taken: Card | None = None
        self.drawn: Card | None = None
        self.turns = 0  # turns ended this round (the max_turns safeguard)

    # --- whose move ---------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase in (DRAW, PLAY):
            return self.seat
        return CHANCE if phase == DEAL else TERMINAL

    def actors(self) -> tuple[int, ...]:
        return (self.seat,) if self.phase in (DRAW, PLAY) else ()

    # --- legal actions ------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> Sequence[RummyAction]:
        """The moves of the player to move (see :mod:`.notation`); empty for another seat.

        At the deal there are 52! outcomes: sample one or apply any permutation.
        """
        phase = self.phase
        if phase == DRAW:
            if player is not None and player != self.seat:
                return ()
            return _DRAW_BOTH if self.discard else _DRAW_STOCK_ONLY
        if phase != PLAY or (player is not None and player != self.seat):
            return ()
        return play_actions(self.hands[self.seat], self.taken, self.must_discard, self.table)

    # --- the simulation fast path (see State.legal) ------------------------------------

    def legal(self) -> Sequence[RummyAction]:
        phase = self.phase
        actions: Sequence[RummyAction]
        if phase == PLAY:  # listing.play_actions, inlined for the usual hand
            hand = self.hands[self.seat]
            a = hand & 0x1FFF
            b = hand >> 13 & 0x1FFF
            c = hand >> 26 & 0x1FFF
            d = hand >> 39
            ea = SPADES.get(a) or suit_entry(0, a)
            eb = HEARTS.get(b) or suit_entry(13, b)
            ec = DIAMONDS.get(c) or suit_entry(26, c)
            ed = CLUBS.get(d) or suit_entry(39, d)
            discards: list[RummyAction] = [*ea[1], *eb[1], *ec[1], *ed[1]]
            taken = self.taken
            if taken is not None and hand >> taken & 1 and hand != 1 << taken:
                del discards[(hand & ((1 << taken) - 1)).bit_count()]  # in card order
            ab = a & b
            cd = c & d
            threes = ab & (c | d) | cd & (a | b)
            table = self.table
            if ea[0] or eb[0] or ec[0] or ed[0] or threes:
                runs = ea[0] + eb[0] + ec[0] + ed[0]
                actions = with_melds(hand, taken, self.must_discard, table, runs, threes, discards)
            elif table and self._table_accepts() & hand:
                actions = with_melds(hand, taken, self.must_discard, table, (), 0, discards)
            else:
                actions = discards
        elif phase == DRAW:
            actions = _DRAW_BOTH if self.discard else _DRAW_STOCK_ONLY
        else:
            actions = ()
        self._listed = (len(self.history), actions)
        return actions

    _accepts: tuple[list[TableMeld], Mask] | None = None
    """The table (the list itself) and the cards that may be laid off onto it: reset by a
    meld or a lay-off, found again for a new list (a clone's, a new round's)."""

    def _table_accepts(self) -> Mask:
        """The cards that may be laid off onto some meld of the table (cached)."""
        table = self.table
        cached = self._accepts
        if cached is None or cached[0] is not table:
            fits = 0
            for meld in table:
                fits |= meld.accepts
            cached = self._accepts = (table, fits)
        return cached[1]

    def apply_legal(self, index: int) -> RummyAction:
        history = self.history
        listed = self._listed
        if (
            listed is None
            or listed[0] != len(history)
            or type(index) is not int
            or not 0 <= index < len(listed[1])
        ):
            self._listed_action(index)  # raises IllegalMove with the reason
        assert listed is not None
        action: RummyAction = listed[1][index]
        seat = self.seat  # a listing is never empty but at a seat's decision
        kind = type(action)
        if kind is Discard:  # _discard, inlined for a turn that passes to the next seat
            c: Card = action.card  # type: ignore[union-attr]
            bit = _BITS[c]
            hands = self.hands
            left = hands[seat] & ~bit
            turns = self.turns + 1
            if left and self.stock and not 0 < self.max_turns <= turns:
                hands[seat] = left
                known = self.known
                if known[seat]:
                    known[seat] &= ~bit
                self.discard.append(c)
                self.turns = turns
                self.seat = (seat + 1) % self.n
                self.taken = None
                self.drawn = None
                self.phase = DRAW
            else:
                self._discard(c)  # the round may end
            history.append(_DISCARD_EVENTS[seat][c])
            return action
        if kind is Draw:  # _draw, inlined
            if action.discard:  # type: ignore[union-attr]
                c = self.discard.pop()
                self.taken = c
                self.known[seat] |= _BITS[c]
            else:
                c = self.stock.pop()
            self.drawn = c
            self.hands[seat] |= _BITS[c]
            self.phase = PLAY
            history.append(_DRAW_EVENTS[seat][action.discard])  # type: ignore[union-attr]
            return action
        self._apply(action, seat)
        history.append((seat, action))
        return action

    def apply_sample(self, rng: random.Random) -> RummyAction:
        """At the deal: shuffle with *rng* (the stream of :meth:`sample_chance`, so the
        same deal) and deal without checking the deck again; return the deal. Raises
        :class:`IllegalMove` elsewhere."""
        if self.phase != DEAL:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        deal = Deal(shuffled_deck(rng))
        self._deal(deal.order)
        self.history.append((CHANCE, deal))
        return deal

    sample_and_apply = apply_sample

    def chance_outcomes(self) -> list[tuple[RummyAction, Any]]:
        """Raises :class:`NotEnumerable`: a shuffle has 52! outcomes (sample one)."""
        if self.phase != DEAL:
            raise IllegalMove("not a chance node: the cards are dealt")
        return super().chance_outcomes()

    def sample_chance(self, rng: random.Random) -> Deal:
        """A uniformly shuffled deck, drawn with *rng*."""
        if self.phase != DEAL:
            raise IllegalMove("not a chance node: the cards are dealt")
        return Deal(shuffled_deck(rng))

    # --- checks -------------------------------------------------------------------------

    def _check(self, action: RummyAction, player: int) -> None:
        phase = self.phase
        if player == CHANCE:
            if not isinstance(action, Deal):
                raise IllegalMove(f"the chance outcome here is a deal, not {action}")
            order = action.order
            if not isinstance(order, tuple) or not all(_is_card(c) for c in order):
                raise IllegalMove(f"a deal is a tuple of cards 0-51, not {order!r:.80}")
            if len(order) != 52 or mask_of(order) != (1 << 52) - 1:
                have = set(order)
                missing = [card_text(c) for c in DECK if c not in have]
                raise IllegalMove(
                    f"a deal is the whole deck once each ({len(order)} cards given"
                    + (f"; missing {' '.join(missing)}" if missing else "")
                    + ")"
                )
            return
        if player == HOST:
            if not isinstance(action, Skip):
                raise IllegalMove(f"the host may only skip a turn, not {action}")
            if phase not in (DRAW, PLAY):
                raise IllegalMove("there is no turn to skip: the cards are not dealt")
            return
        if phase == DRAW:
            if isinstance(action, Draw):
                if action.discard and not self.discard:
                    raise IllegalMove("the discard pile is empty: draw from the stock")
                return
            raise IllegalMove(
                f"draw first: take the top card of the stock or the discard pile, not {action}"
            )
        hand = self.hands[player]
        if isinstance(action, (Discard, LayOff)) and not _is_card(action.card):
            raise IllegalMove(f"{action.card!r} is not a card (cards are 0-51)")
        if isinstance(action, LayOff) and type(action.target) is not int:
            raise IllegalMove(f"{action.target!r} is not a meld number")
        if isinstance(action, Meld) and (
            type(action.cards) is not int or not 0 < action.cards <= (1 << 52) - 1
        ):
            raise IllegalMove(f"{action.cards!r} is not a set of cards")
        if isinstance(action, Discard):
            c = action.card
            if not hand >> c & 1:
                raise IllegalMove(f"you do not hold {card_text(c)}")
            if c == self.taken:
                raise IllegalMove(
                    f"{card_text(c)} was just taken from the discard pile: it may not be "
                    "discarded this turn"
                )
            return
        if isinstance(action, Meld):
            cards = action.cards
            lacking = cards & ~hand
            if lacking:
                raise IllegalMove(f"you do not hold {cards_text(lacking)}")
            why = why_not_meld(cards)
            if why:
                raise IllegalMove(why)
            self._check_left(hand & ~cards)
            return
        if isinstance(action, LayOff):
            c = action.card
            if not hand >> c & 1:
                raise IllegalMove(f"you do not hold {card_text(c)}")
            if not 0 <= action.target < len(self.table):
                raise IllegalMove(
                    f"there is no meld {action.target + 1} on the table"
                    + (f" (melds 1-{len(self.table)})" if self.table else " (no melds yet)")
                )
            meld = self.table[action.target]
            if not meld.accepts >> c & 1:
                raise IllegalMove(
                    f"{card_text(c)} does not fit meld {action.target + 1} ({meld.text()}): "
                    + (
                        "a run is extended at either end with the next card of its suit"
                        if meld.kind == "run"
                        else "a set of three takes only the fourth card of its rank"
                    )
                )
            self._check_left(hand & ~(1 << c))
            return
        if isinstance(action, Draw):
            raise IllegalMove("you have drawn this turn: meld, lay off or discard")
        raise IllegalMove(f"{action} is not a move: " + "meld, lay off or discard")

    def _check_left(self, left: Mask) -> None:
        if not left and self.must_discard:
            raise IllegalMove(
                "you must keep a card to discard: going out needs a final discard "
                "(option must_discard)"
            )
        if left and self.taken is not None and left == 1 << self.taken:
            raise IllegalMove(
                f"that would leave only {card_text(self.taken)}, which was just taken from "
                "the discard pile and may not be discarded"
            )

    # --- applying -----------------------------------------------------------------------

    def _apply(self, action: RummyAction, player: int) -> None:
        if isinstance(action, Draw):
            self._draw(action.discard)
        elif isinstance(action, Discard):
            self._discard(action.card)
        elif isinstance(action, Meld):
            seat = self.seat
            cards = action.cards
            self.hands[seat] &= ~cards
            self.known[seat] &= ~cards
            self.table.append(TableMeld.laid_down(cards, seat))
            self._accepts = None
            if not self.hands[seat]:
                self._end_round("out")
        elif isinstance(action, LayOff):
            seat = self.seat
            bit = 1 << action.card
            self.hands[seat] &= ~bit
            self.known[seat] &= ~bit
            self.table[action.target] = self.table[action.target].lay_off(action.card, seat)
            self._accepts = None
            if not self.hands[seat]:
                self._end_round("out")
        elif isinstance(action, Deal):
            self._deal(action.order)
        elif isinstance(action, Skip):
            self._skip()

    def describe_step(self, before: State, player: int, action: RummyAction) -> Step:
        """What the event did (see the module docstring for the marks and facts).

        Raises :class:`~parlour.engine.errors.ParlourError` unless *before* is this game's
        state just before the event."""
        step = super().describe_step(before, player, action)
        assert isinstance(before, RummyState)
        points = 0
        if isinstance(action, Meld):
            points = sum(POINTS[c] for c in cards_of(action.cards))
        elif isinstance(action, LayOff):
            points = POINTS[action.card]
        marks: list[str] = []
        facts: dict[str, Any] = {}
        changes: tuple[int, ...] = (0,) * self.n
        ended = len(self.round_scores) > len(before.round_scores)
        if ended or isinstance(action, (Discard, Skip)):
            marks.append("turn_over")
        if ended:
            assert self.last_round is not None
            marks.append("round_over")
            changes = tuple(self.round_scores[-1])
            facts = {"round": before.round, "ended": self.last_round["ended"]}
        return Step(
            step.by,
            step.action,
            None if isinstance(action, Deal) else before.seat,
            points=points,
            score_changes=changes,
            marks=(*marks, *step.marks),
            facts=facts,
        )

    def _draw(self, from_discard: bool) -> None:
        seat = self.seat
        if from_discard:
            c = self.discard.pop()
            self.taken = c
            self.known[seat] |= 1 << c
        else:
            c = self.stock.pop()
        self.drawn = c
        self.hands[seat] |= 1 << c
        self.phase = PLAY

    def _deal(self, order: tuple[Card, ...]) -> None:
        n, size = self.n, self.hand_size
        hands = [0] * n
        dealt = n * size
        for i in range(n):  # one card at a time from the starter: every n-th card (distinct bits)
            hands[(self.starter + i) % n] = sum(map(_BITS.__getitem__, order[i:dealt:n]))
        self.hands = hands
        self.discard = [order[n * size]]
        self.stock = list(reversed(order[n * size + 1 :]))
        self.seat = self.starter
        self.phase = DRAW

    def _discard(self, c: Card) -> None:
        seat = self.seat
        bit = 1 << c
        self.hands[seat] &= ~bit
        self.known[seat] &= ~bit
        self.discard.append(c)
        self.turns += 1
        if not self.hands[seat]:
            self._end_round("out")
        elif not self.stock:
            self._end_round("stock")
        elif self.max_turns and self.turns >= self.max_turns:
            self._end_round("turns")
        else:
            self.seat = (seat + 1) % self.n
            self.taken = None
            self.drawn = None
            self.phase = DRAW

    def _skip(self) -> None:
        """Host skip (``docs/rules/rummy.md#skip``): before drawing, the top stock card is
        drawn and discarded; after drawing, the card drawn from the stock is discarded, or
        if the card was taken from the discard pile, the highest-valued other card."""
        seat = self.seat
        if self.phase == DRAW:
            c = self.stock.pop()
            self.hands[seat] |= 1 << c
            self._discard(c)
            return
        hand = self.hands[seat]
        if self.drawn is not None and self.taken is None and hand >> self.drawn & 1:
            self._discard(self.drawn)
            return
        choices = [c for c in cards_of(hand) if c != self.taken]
        self._discard(max(choices, key=lambda c: (POINTS[c], -c)))

    def _end_round(self, how: str) -> None:
        n = self.n
        table_points = [0] * n
        for meld in self.table:
            for c, owner in zip(meld.cards, meld.owners, strict=True):
                table_points[owner] += POINTS[c]
        hand_points = [mask_points(h) for h in self.hands]
        round_scores = [table_points[s] - hand_points[s] for s in range(n)]
        for s in range(n):
            self.scores[s] += round_scores[s]
        self.round_scores.append(round_scores)
        self.last_round = {
            "round": self.round,
            "ended": how,
            "out": self.seat if how == "out" else None,
            "table_points": table_points,
            "hand_points": hand_points,
            "round_scores": round_scores,
            "hands": [list(map(card_text, cards_of(h))) for h in self.hands],
            "scores": list(self.scores),
        }
        top = max(self.scores)
        leaders = self.scores.count(top)
        capped = self.max_rounds and self.round >= self.max_rounds
        if (top > self.ending_score and leaders == 1) or capped:
            self.phase = OVER
            return
        self.round += 1
        if self.alternate_start:
            self.starter = (self.starter + 1) % n
        self._new_round()

    # --- notation and views -------------------------------------------------------------

    def action_to_string(self, action: RummyAction) -> str:
        return str(action)

    def parse_action(self, text: str, *, player: int | None = None) -> RummyAction:
        return parse(text)

    def view(self, seat: int | None) -> PlayerView:
        """What *seat* may know now (``None``: a spectator, who sees no hand)."""
        return PlayerView(
            seat=seat,
            hand=self.hands[seat] if seat is not None else 0,
            hand_counts=tuple(h.bit_count() for h in self.hands),
            stock_count=len(self.stock),
            discard=tuple(self.discard),
            table=tuple(self.table),
            known=tuple(self.known),
            phase=self.phase,
            to_move=self.current_player(),
            taken=self.taken,
            scores=tuple(self.scores),
            round=self.round,
            must_discard=self.must_discard,
            ending_score=self.ending_score,
        )

    def _observation(self, seat: int | None) -> JSON:
        """A JSON view for *seat*: its own hand only; the others' hands as counts and the
        cards known to be in them (taken from the discard pile); the stock as a count."""
        obs: dict[str, Any] = {
            "game": self.game.spec.name,
            "you": seat,
            "to_move": self.current_player(),
            "phase": self.phase,
            "round": self.round,
            "starter": self.starter,
            "seat": self.seat,
            "scores": list(self.scores),
            "ending_score": self.ending_score,
            "hand": [card_text(c) for c in cards_of(self.hands[seat])] if seat is not None else [],
            "hand_counts": [h.bit_count() for h in self.hands],
            "known": [[card_text(c) for c in cards_of(k)] for k in self.known],
            "stock_count": len(self.stock),
            "discard_top": card_text(self.discard[-1]) if self.discard else None,
            "discard_pile": [card_text(c) for c in self.discard],
            "table": [m.to_json() for m in self.table],
            "taken": card_text(self.taken) if self.taken is not None else None,
            "drawn": (
                card_text(self.drawn)
                if self.drawn is not None and seat == self.seat and self.phase == PLAY
                else None
            ),
            "round_scores": [list(r) for r in self.round_scores],
            "last_round": self.last_round,
            "over": self.phase == OVER,
            "winners": list(self.result().winners) if self.phase == OVER else [],
            "ended_by": self.ended_by(),
        }
        return obs

    def ended_by(self) -> str | None:
        """How the game ended: ``"ending_score"`` (one highest score over the ending score,
        the manual's end), ``"max_rounds"`` (the safeguard: no single score over it after
        that many rounds), ``None`` while the game goes on."""
        if self.phase != OVER:
            return None
        top = max(self.scores)
        if top > self.ending_score and self.scores.count(top) == 1:
            return "ending_score"
        return "max_rounds"

    def result(self) -> Result:
        """Final scores; the highest score wins. When the ``max_rounds`` safeguard ends the
        game it wins too, over the ending score or not (a winner may have a score below 0),
        and a tie at the top shares the win (``docs/rules/rummy.md#end-of-the-game``)."""
        self.require_terminal()
        top = max(self.scores)
        return Result(tuple(self.scores), tuple(s for s in range(self.n) if self.scores[s] == top))

    def _dump(self) -> JSON:
        return {
            "phase": self.phase,
            "round": self.round,
            "turns": self.turns,
            "starter": self.starter,
            "seat": self.seat,
            "hands": [cards_text(h) for h in self.hands],
            "known": [cards_text(k) for k in self.known],
            "stock": cards_text(self.stock),
            "discard": cards_text(self.discard),
            "table": [m.to_json() for m in self.table],
            "taken": None if self.taken is None else card_text(self.taken),
            "drawn": None if self.drawn is None else card_text(self.drawn),
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "last_round": self.last_round,
        }

    def clone(self) -> RummyState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        twin.hands = list(self.hands)
        twin.known = list(self.known)
        twin.stock = list(self.stock)
        twin.discard = list(self.discard)
        twin.table = list(self.table)
        twin.scores = list(self.scores)
        twin.round_scores = [list(r) for r in self.round_scores]
        return twin

    def __str__(self) -> str:
        lines = [
            f"Rummy round {self.round}: "
            + "  ".join(
                f"{'>' if s == self.seat else ' '}seat {s}: {p}" for s, p in enumerate(self.scores)
            ),
            f"stock {len(self.stock)}, discard {cards_text(self.discard[-1:]) or '-'}",
        ]
        lines.extend(f"  meld {i + 1}: {m.text()}" for i, m in enumerate(self.table))
        return "\n".join(lines)
