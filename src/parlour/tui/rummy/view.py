"""What the Rummy screen says and draws, as pure functions of observations and moves: cards
from their notation, messages with suit symbols, the melds on the table (also as a round's
last move left them), moves in words, and the plan for laying off several cards.

Nothing here reads a hand from the state: hands come from ``observation(seat)``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from rich.text import Text

from parlour.engine.errors import ParlourError
from parlour.engine.state import Action, State
from parlour.games.rummy.cards import Card, card_symbol, mask_of, parse_card
from parlour.games.rummy.melds import run_order
from parlour.games.rummy.notation import Discard, Draw, LayOff, Meld, Skip
from parlour.tui.rummy.widgets import MeldPicture, card_label, cards_label


def cards(texts: Iterable[str]) -> list[Card]:
    """Cards from their notation (as observations write them)."""
    return [parse_card(t) for t in texts]


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"7 cards"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


CARD_WORD = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
"""A card in notation inside a message (``10H``, ``QS``)."""


def with_symbols(text: str) -> str:
    """*text* with the cards written with suit symbols (``"QS 10H"`` -> ``"Q♠ 10♥"``), as
    the table shows them; the engine's messages use the notation.

    >>> with_symbols("you do not hold QS 10H")
    'you do not hold Q♠ 10♥'
    """
    return CARD_WORD.sub(lambda m: card_symbol(parse_card(m.group(0))), text)


def melds_of(obs: dict[str, Any]) -> list[MeldPicture]:
    """The melds on the table in an observation."""
    return [
        MeldPicture(m["kind"], tuple(cards(m["cards"])), tuple(m["owners"])) for m in obs["table"]
    ]


def table_after(table: Sequence[MeldPicture], action: Action, seat: int) -> list[MeldPicture]:
    """The melds on *table* once *seat* has made *action* (a meld or a lay-off; anything
    else leaves the table as it is). The view keeps the table of a round's last move this
    way: the engine clears it for the next deal as the round ends."""
    melds = list(table)
    if isinstance(action, Meld):
        laid = run_order(action.cards)
        kind = "set" if len({c % 13 for c in laid}) == 1 else "run"
        melds.append(MeldPicture(kind, tuple(laid), (seat,) * len(laid)))
    elif isinstance(action, LayOff) and 0 <= action.target < len(melds):
        old = melds[action.target]
        owner = dict(zip(old.cards, old.owners, strict=True)) | {action.card: seat}
        ordered = run_order(mask_of(owner))
        melds[action.target] = MeldPicture(
            old.kind, tuple(ordered), tuple(owner[c] for c in ordered)
        )
    return melds


def describe(name: str, action: Action, obs: dict[str, Any], *, present: bool) -> Text:
    """*action* by *name* in words, in the present (about to happen) or the past; *obs* is
    the public view before it (for the card taken from the discard pile)."""

    def verb(now: str, then: str) -> str:
        return now if present else then

    text = Text(name + " ")
    if isinstance(action, Draw):
        if action.discard and obs["discard_top"]:
            text.append(verb("takes ", "took "))
            text.append_text(card_label(parse_card(obs["discard_top"])))
            text.append(" from the discard pile")
        else:
            text.append(verb("draws", "drew") + " from the stock")
    elif isinstance(action, Meld):
        kind = "set" if len({c % 13 for c in run_order(action.cards)}) == 1 else "run"
        text.append(verb("melds ", "melded "))
        text.append_text(cards_label(run_order(action.cards)))
        text.append(f" (a {kind})")
    elif isinstance(action, LayOff):
        text.append(verb("lays off ", "laid off "))
        text.append_text(card_label(action.card))
        text.append(f" on meld {action.target + 1}")
    elif isinstance(action, Discard):
        text.append(verb("discards ", "discarded "))
        text.append_text(card_label(action.card))
    elif isinstance(action, Skip):
        text.append(verb("loses the turn", "lost the turn") + " (skipped)")
    else:
        text.append(str(action))
    return text


def plan_lay_off(
    state: State, chosen: Collection[Card], target: int
) -> tuple[list[LayOff], str | None]:
    """The lay-offs that put all of *chosen* on meld *target* (0-based), in an order that
    fits (a run grows one card at a time), tried on a copy of *state*; and ``None``, or the
    engine's reason why the next card does not go (with the lay-offs that did)."""
    trial = state.clone()
    left = sorted(chosen)
    steps: list[LayOff] = []
    while left:
        for c in left:
            try:
                trial.apply(LayOff(c, target))
            except ParlourError:
                continue
            steps.append(LayOff(c, target))
            left.remove(c)
            break
        else:
            try:
                trial.apply(LayOff(left[0], target))
            except ParlourError as err:
                return steps, str(err)
    return steps, None


def no_fit_reason(chosen: Sequence[Card], plans: Sequence[tuple[list[LayOff], str | None]]) -> str:
    """Why *chosen* fit no meld: the engine's reason when there is one meld, or when a
    meld took some of them, or when every meld gives the same reason; else the rule."""
    furthest = max(plans, key=lambda p: len(p[0]))
    reasons = {error for _, error in plans}
    if len(plans) == 1 or furthest[0] or len(reasons) == 1:
        return str(furthest[1])
    what = " ".join(str(card_label(c)) for c in chosen)
    return (
        f"{what} fit{'s' if len(chosen) == 1 else ''} none of the {len(plans)} melds: a run "
        "takes the next card of its suit at either end, a set of three its fourth card"
    )
