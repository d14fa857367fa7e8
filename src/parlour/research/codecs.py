"""Which codec numbers and encodes which game (see :mod:`parlour.research.position`)."""

from __future__ import annotations

from typing import Any

from parlour.engine.registry import load
from parlour.engine.state import Game
from parlour.research.position import Codec

GAMES = ("ten-thousand", "greedy", "rummy", "crossword")
"""The games the research adapters offer, by their parlour names."""


def codec_for(game: Game) -> Codec:
    """The codec of a loaded *game* (one of :data:`GAMES`).

    Raises :class:`~parlour.engine.errors.BadOption` for options the adapters do not offer
    (the crossword's daily mode) and ``ValueError`` for a game they do not know.
    """
    name = game.spec.name
    if name in ("ten-thousand", "greedy"):
        from parlour.research.dice import DiceCodec

        return DiceCodec(game)
    if name == "rummy":
        from parlour.research.rummy import RummyCodec

        return RummyCodec(game)
    if name == "crossword":
        from parlour.research.crossword import CrosswordCodec

        return CrosswordCodec(game)
    raise ValueError(f"the research adapters do not offer {name!r}; they offer {GAMES}")


def load_codec(name: str, **options: Any) -> Codec:
    """:func:`parlour.load` the game *name* with *options*, and return its codec.

    Raises :class:`~parlour.engine.errors.UnknownGame` or ``BadOption`` as ``load`` does."""
    return codec_for(load(name, **options))
