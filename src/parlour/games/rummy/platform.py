"""What the platform needs to know about Rummy beyond the protocol (its
:class:`~parlour.engine.platform.Platform` declarations, read through ``SPEC.platform``).

What a preview may not show: the deal is Rummy's one chance node; it shuffles the whole
deck, so the stock's order is in the state from then on (:mod:`parlour.games.rummy.state`).
A preview of ``draw stock`` applied to a copy of the state would show the card on top of the
stock before the seat draws it, and the seat could then take the discard instead; so that
preview says only that the draw is legal. A move that ends the round (going out, or the
discard that empties the stock) scores every hand and shows them in the round's summary;
whether the game ends there, and every score it changes, hangs on the hidden hands, so that
preview too says only that the move is legal and ends the round.

Which moves the other seats see: every one (``secret_move``). A draw from the stock names no
card ("draw stock"), and taking the discard, melds, lay-offs and discards happen in front of
everyone at a real table; only the deal (chance) stays hidden until the end, and each seat's
hand is in its own observation alone.

What a finished game adds to the records: a game with at least one computer player updates
each person's statistics (``docs/rules/rummy.md#statistics``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.engine.platform import Contributions, StatisticsGame
from parlour.engine.state import State
from parlour.games.rummy.notation import DRAW_STOCK
from parlour.games.rummy.state import RummyState
from parlour.games.rummy.stats import seat_facts


def secret_move(move: str) -> bool:
    """False: no seat's Rummy move hides anything from the others (see the module's text).

    >>> secret_move("draw stock"), secret_move("discard 7S")
    (False, False)
    """
    return False


def preview_hidden(before: State, action: Any, seat: int, after: State) -> str | None:
    """The reason a draw from the stock or a move that ends the round is not previewed,
    ``None`` for any other action."""
    if action == DRAW_STOCK:
        return "the stock's top card stays hidden until you draw it"
    assert isinstance(before, RummyState) and isinstance(after, RummyState)
    if len(after.round_scores) > len(before.round_scores) and after.last_round is not None:
        ended = after.last_round
        mover = "going out" if ended["ended"] == "out" else "this move"
        return f"{mover} ends the round: every hand is shown once you do"
    return None


def counted_seats(persons: Sequence[bool]) -> list[int]:
    """The seats whose statistics a game updates: every person's seat, when at least one
    seat is a computer player (a person's game with the computer); none otherwise.

    >>> counted_seats([True, False]), counted_seats([True, True])
    ([0], [])
    """
    if all(persons):
        return []
    return [seat for seat, person in enumerate(persons) if person]


def contributions(state: State, persons: Sequence[bool]) -> Contributions:
    """Each counted person's game for the statistics (:func:`counted_seats`). Raises
    ``IllegalMove`` if the game is not over."""
    seats = counted_seats(persons)
    if not seats:
        return Contributions()
    facts = seat_facts(state)
    return Contributions(
        statistics=tuple(
            StatisticsGame(seat, facts[seat].won, facts[seat].game_score, facts[seat].round_scores)
            for seat in seats
        )
    )
