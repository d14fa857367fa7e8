"""Which codec numbers and encodes which game (see :mod:`parlour.research.position`).

A game declares its encoding on its spec (``GameSpec.research``), as it declares its bots;
this module loads it lazily. It names either a :class:`~parlour.research.position.Codec`
subclass (``"module:Class"``: the dice games, Rummy and the crossword, whose codecs live in
this package) or an :class:`~parlour.research.table.Encoding` in the game's own package
(``"module"`` or ``"module:object"``: plain data importing only the engine), which
:class:`~parlour.research.table.TableCodec` turns into a codec.
"""

from __future__ import annotations

import importlib
from typing import Any

from parlour.engine.errors import BadOption
from parlour.engine.registry import find, load, specs
from parlour.engine.spec import GameSpec
from parlour.engine.state import Game
from parlour.research.position import Codec
from parlour.research.table import TableCodec


def games() -> tuple[str, ...]:
    """The installed games the research adapters offer (those whose spec names a codec),
    by their parlour names, in the registry's order."""
    return tuple(spec.name for spec in specs() if spec.research)


def _declared(spec: GameSpec) -> Any:
    if not spec.research:
        raise ValueError(f"the research adapters do not offer {spec.name!r}; they offer {games()}")
    module, _, name = spec.research.partition(":")
    found = importlib.import_module(module)
    return getattr(found, name) if name else found


def codec_class(spec: GameSpec) -> type[Codec]:
    """The codec class of *spec*'s games (:class:`TableCodec` for a declared encoding).
    Raises ``ValueError`` when the spec declares none, and ``ImportError`` or
    ``AttributeError`` when its ``research`` names nothing importable."""
    found = _declared(spec)
    return found if isinstance(found, type) and issubclass(found, Codec) else TableCodec


def codec_for(game: Game, **parameters: Any) -> Codec:
    """The codec of a loaded *game* (one of :func:`games`), with the codec's own
    *parameters* (``Codec.parameters``: the dice games' ``numbering``).

    Raises :class:`~parlour.engine.errors.BadOption` for options the adapters do not offer
    (the crossword's daily mode) and for a parameter the codec does not take or a bad value,
    ``ValueError`` for a game without an encoding, and ``ImportError`` or
    ``AttributeError`` when its spec names nothing importable.
    """
    found = _declared(game.spec)
    cls = found if isinstance(found, type) and issubclass(found, Codec) else TableCodec
    unknown = sorted(set(parameters) - set(cls.parameters))
    if unknown:
        raise BadOption(f"{game.spec.name} has no option {unknown[0]!r}")
    if cls is TableCodec:
        return TableCodec(game, found)
    return cls(game, **parameters)


def split_parameters(name: str, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """*options* given for the game *name* as (the game's options, the codec's own
    parameters: those named in its ``Codec.parameters``). Raises ``UnknownGame``."""
    spec = find(name)
    own = codec_class(spec).parameters if spec.research else {}
    game = {k: v for k, v in options.items() if k not in own}
    return game, {k: v for k, v in options.items() if k in own}


def load_codec(name: str, **options: Any) -> Codec:
    """:func:`parlour.load` the game *name* with *options*, and return its codec; options
    named in the codec's ``parameters`` (the dice games' ``numbering``) go to the codec.

    Raises :class:`~parlour.engine.errors.UnknownGame` or ``BadOption`` as ``load`` does,
    and ``BadOption`` for a bad codec parameter."""
    game, parameters = split_parameters(name, options)
    return codec_for(load(name, **game), **parameters)
