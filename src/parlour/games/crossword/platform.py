"""What the platform needs to know about the crossword beyond the protocol (its
:class:`~parlour.engine.platform.Platform` declarations, read through ``SPEC.platform``).

- Exchanges (which tiles) and rack orders are secret from the other seats until the game is
  over; plays and passes are public (the board shows them). Observations carry each seat's
  public account of an exchange: how many tiles.
- A rack order changes no other seat's play: it is independent of the position.
- Tiles put on squares one by one compose into a play (:func:`compose_tiles`).
- A preview hides nothing but withholds the final reveal (:func:`final_reveal_withheld`).
- The built-in word list is loaded ahead of the first game (:func:`warm_word_list`).
- Daily mode (``turn_mode="daily"``) runs on days: a ``new-day`` host event each midnight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.engine.errors import InvalidNotation
from parlour.engine.state import JSON, State
from parlour.games.crossword.board import parse_square
from parlour.games.crossword.lexicon import DEFAULT as DEFAULT_LEXICON
from parlour.games.crossword.lexicon import load_lexicon
from parlour.games.crossword.notation import Exchange, Rearrange, parse
from parlour.games.crossword.plays import play_from_tiles
from parlour.games.crossword.state import DAILY, CrosswordState


def secret_move(move: str) -> bool:
    """True for a seat's move only that seat may see before the end: an exchange (which
    tiles) or a rack order. Raises ``InvalidNotation`` for text that is no crossword move.

    >>> secret_move("exchange QVW"), secret_move("rack RETAINS"), secret_move("CAT H8 across")
    (True, True, False)
    """
    return isinstance(parse(move), (Exchange, Rearrange))


def independent_move(move: str) -> bool:
    """True for a rack order (``rack RETAINS``): it changes no other seat's play.

    >>> independent_move("rack RETAINS"), independent_move("pass")
    (True, False)
    """
    return isinstance(parse(move), Rearrange)


def compose_tiles(state: State, tiles: Sequence[tuple[str, str]]) -> str:
    """The play that lays *tiles* (``(square, letter)`` pairs, e.g. ``("H8", "C")``) on the
    board now, in notation (:func:`~parlour.games.crossword.plays.play_from_tiles`). Raises
    ``InvalidNotation`` for a bad square or letter and ``IllegalMove`` for tiles that make no
    word (not in one line, a gap)."""
    if not isinstance(state, CrosswordState):
        raise TypeError(f"not a crossword state: {state.game.spec.name}")
    placed = []
    for square, letter in tiles:
        if len(letter) != 1 or not letter.isascii() or not letter.isalpha():
            raise InvalidNotation(f"{letter!r} is not a tile: one letter A-Z")
        placed.append((parse_square(square), letter.upper()))
    return str(play_from_tiles(state.board, placed))


def never_hidden(before: State, action: Any, seat: int, after: State) -> str | None:
    """No preview is refused: the end of a game is withheld from the view instead
    (:func:`final_reveal_withheld`)."""
    return None


def final_reveal_withheld(before: State, after: State, seat: int) -> JSON:
    """The seat's view after its action (a preview), less what the game's end shows: when
    the action ends the game, no ``final_racks``, and every other seat's end adjustment and
    score, and the winners, are ``None`` (they hang on the other racks). The seat's own
    adjustment stays: its own rack's value, or, going out with the bag empty, the unseen
    tiles' value, which it knows."""
    view = after.observation(seat)
    if not after.is_terminal() or before.is_terminal():
        return view
    assert isinstance(view, dict)
    view.pop("final_racks", None)
    view["winners"] = None
    view["scores"] = [score if s == seat else None for s, score in enumerate(view["scores"])]
    log = view["log"]
    if log and log[-1].get("kind") == "end":
        end = dict(log[-1])
        adjust = end["adjustments"]
        end["adjustments"] = [points if s == seat else None for s, points in enumerate(adjust)]
        log[-1] = end
    return view


def warm_word_list() -> None:
    """Load the built-in word list (a second or two, once per process)."""
    load_lexicon(DEFAULT_LEXICON)


def runs_on_days(options: Mapping[str, Any]) -> bool:
    """True for daily mode (``turn_mode="daily"``).

    >>> runs_on_days({"turn_mode": "daily"}), runs_on_days({"turn_mode": "turns"})
    (True, False)
    """
    return options.get("turn_mode") == DAILY
