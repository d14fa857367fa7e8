"""JSON text for the wire (WebSocket messages and action answers). Parsing stays with
``json`` (client messages are small, and it reads every number JSON allows); :func:`loads`
reads what a WebSocket client sends.

The hub encodes every follower's view at every action, so the encoder matters: ``orjson``
is several times faster than ``json.dumps`` on these payloads. Integer dictionary keys are
written as strings, as ``json.dumps`` does.
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """*value* as compact JSON text. Raises ``TypeError`` for what JSON cannot hold."""
    return dumps_bytes(value).decode()


def dumps_bytes(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes (an HTTP body). An integer beyond 64 bits (a client's
    ``ref`` may be one) is written by ``json`` instead."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:
        return json.dumps(value, separators=(",", ":"), allow_nan=False).encode()


def loads(text: str) -> Any:
    """A client's JSON text as Python values. A number beyond a float's range (``1e400``)
    and ``NaN``/``Infinity`` (not JSON, but ``json`` reads them) are read as ``None``, as
    the encoder writes them, so that whatever a client sends can be sent back. Raises
    ``ValueError`` for text that is not JSON and ``RecursionError`` for arrays or objects
    nested about 1,000 deep."""
    return json.loads(text, parse_float=_finite, parse_constant=_none)


def _finite(text: str) -> float | None:
    number = float(text)
    return number if math.isfinite(number) else None


def _none(_text: str) -> None:
    return None
