"""Rummy actions and chance outcomes, and their text notation (``docs/records.md``).

| text | by | meaning |
| --- | --- | --- |
| ``deal 7H 2C ... (52 cards)`` | chance | the shuffle: the whole deck, top card first |
| ``draw stock`` (``stock``, ``s``) | seat | draw the top card of the stock |
| ``draw discard`` (``take``, ``t``) | seat | take the top card of the discard pile |
| ``meld 3S 4S 5S`` | seat | lay down a set or a run from the hand |
| ``layoff 6S on 2`` | seat | lay off one card onto meld number 2 on the table (1 = first laid) |
| ``discard 7S`` | seat | discard a card, ending the turn |
| ``skip`` | host | the player to move loses the turn (see ``docs/rules/rummy.md#skip``) |

Cards are written as in :mod:`parlour.games.rummy.cards`; meld cards in any order.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.errors import InvalidNotation
from parlour.games.rummy.cards import Card, Mask, card_text, mask_of, parse_card, parse_cards
from parlour.games.rummy.melds import run_order


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance outcome: the shuffled deck, ``order[0]`` on top (52 cards)."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "deal " + " ".join(card_text(c) for c in self.order)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock (``discard=False``) or of the discard pile."""

    discard: bool

    def __str__(self) -> str:
        return "draw discard" if self.discard else "draw stock"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay down the set or run ``cards`` (a mask) from the hand."""

    cards: Mask

    def __str__(self) -> str:
        return "meld " + " ".join(card_text(c) for c in run_order(self.cards))

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay off ``card`` onto the table meld at index ``target`` (0-based; 1-based in text)."""

    card: Card
    target: int

    def __str__(self) -> str:
        return f"layoff {card_text(self.card)} on {self.target + 1}"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card``, ending the turn."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_text(self.card)}"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Skip:
    """Host event: the player to move loses the turn (a clock ran out)."""

    def __str__(self) -> str:
        return "skip"

    def __repr__(self) -> str:
        return "parse('skip')"


RummyAction = Deal | Draw | Meld | LayOff | Discard | Skip

DRAW_STOCK = Draw(False)
DRAW_DISCARD = Draw(True)
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(52))
SKIP = Skip()

_HELP = (
    "moves are 'draw stock', 'draw discard', 'meld <cards>', 'layoff <card> on <meld number>', "
    "'discard <card>', 'skip' and 'deal <52 cards>'"
)


def parse(text: str) -> RummyAction:
    """Parse Rummy notation (see the module docstring).

    Raises :class:`InvalidNotation` naming what is wrong. Parsing does not check legality.

    >>> parse("layoff 6s on 2")
    parse('layoff 6S on 2')
    >>> str(parse("meld 5S 3S 4S"))
    'meld 3S 4S 5S'
    """
    words = text.strip().split()
    if not words:
        raise InvalidNotation("empty move: " + _HELP)
    verb, rest = words[0].lower(), words[1:]
    if verb == "lay" and rest and rest[0].lower() == "off":
        verb, rest = "layoff", rest[1:]
    if verb in ("stock", "s") and not rest:
        return DRAW_STOCK
    if verb in ("take", "t") and not rest:
        return DRAW_DISCARD
    if verb == "draw" and len(rest) == 1 and rest[0].lower() in ("stock", "discard"):
        return DRAW_DISCARD if rest[0].lower() == "discard" else DRAW_STOCK
    if verb == "meld":
        if not rest:
            raise InvalidNotation("meld which cards? e.g. 'meld 3S 4S 5S'")
        return Meld(mask_of(parse_cards(rest)))
    if verb == "layoff":
        number_text = rest[-1] if rest else ""
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
        if number_text.isascii() and number_text.isdigit() and len(rest) in (2, 3):
            if len(rest) == 3 and rest[1].lower() not in ("on", "to", "onto"):
                raise InvalidNotation(f"{text!r}: write 'layoff <card> on <meld number>'")
            if len(number_text) > 6:
                raise InvalidNotation(f"{text!r}: no table holds that many melds (at most 17)")
            number = int(number_text)
            if number < 1:
                raise InvalidNotation(f"{text!r}: melds are numbered from 1")
            return LayOff(parse_card(rest[0]), number - 1)
        raise InvalidNotation(
            f"{text!r}: write 'layoff <card> on <meld number>', e.g. 'layoff 6S on 2'"
        )
    if verb == "discard":
        if len(rest) != 1:
            raise InvalidNotation(f"{text!r}: discard one card, e.g. 'discard 7S'")
        return DISCARDS[parse_card(rest[0])]
    if verb == "skip" and not rest:
        return SKIP
    if verb == "deal":
        return Deal(parse_cards(rest, distinct=False))
    raise InvalidNotation(f"{text!r}: " + _HELP)
