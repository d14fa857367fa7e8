"""Game records: a finished (or unfinished) game as JSON, replayable event by event.

The format is documented in ``docs/records.md``::

    {"format": "parlour-record", "version": 1, "game": "ten-thousand",
     "options": {"players": 2, ...}, "players": ["ann", "cpu:strong"],
     "events": [{"by": "chance", "move": "roll 1 1 3 4 5 6"},
                {"by": 0, "move": "keep 1 1 5 roll"}, ...],
     "result": {"scores": [10250, 7300], "winners": [0]}}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parlour.engine.errors import BadRecord, ParlourError
from parlour.engine.registry import load
from parlour.engine.state import JSON, Result, State, parse_player_label, player_label

FORMAT = "parlour-record"
VERSION = 1


def to_record(state: State, players: Sequence[str], **meta: Any) -> JSON:
    """The record of *state*'s game so far, with the seats' *players* names.

    ``result`` is present only when the game is over. Extra keyword arguments go in ``meta``
    (free-form, e.g. a date); replay ignores them.
    """
    if len(players) != state.game.num_players:
        raise ParlourError(f"{len(players)} player names given for {state.game.num_players} seats")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.spec.name,
        "options": dict(state.game.options),
        "players": list(players),
        "events": [
            {"by": player_label(p), "move": state.action_to_string(a)} for p, a in state.history
        ],
    }
    if state.is_terminal():
        record["result"] = state.result().to_json()
    if meta:
        record["meta"] = meta
    return record


def replay(record: JSON, *, upto: int | None = None) -> State:
    """Replay *record* and return the state after its events (or after the first *upto*).

    Raises :class:`BadRecord` with the index of the first bad event and the reason, or with
    no index when the record as a whole is malformed or its ``result`` is not what the events
    give.
    """
    if not isinstance(record, dict):
        raise BadRecord("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise BadRecord(f"not a parlour record (format must be {FORMAT!r})")
    version = record.get("version")
    if type(version) is not int or version != VERSION:  # not True, 1.0 or "1"
        raise BadRecord(f"record version {version!r} is not supported")
    for key, kind in (("game", str), ("options", dict), ("players", list), ("events", list)):
        if not isinstance(record.get(key), kind):
            raise BadRecord(f"record field {key!r} is missing or not a {kind.__name__}")
    if not all(isinstance(name, str) for name in record["players"]):
        raise BadRecord("record field 'players' must be names (text), one per seat")
    try:
        game = load(record["game"], **record["options"])
    except ParlourError as err:
        raise BadRecord(str(err)) from None
    if len(record["players"]) != game.num_players:
        raise BadRecord(f"{len(record['players'])} players named for {game.num_players} seats")
    state = game.new_initial_state()
    events = record["events"] if upto is None else record["events"][:upto]
    for index, event in enumerate(events):
        if not isinstance(event, dict) or "by" not in event or "move" not in event:
            raise BadRecord("an event is an object with 'by' and 'move'", index=index)
        try:
            player = parse_player_label(event["by"])
            if not isinstance(event["move"], str):
                raise ParlourError("'move' must be text")
            action = state.parse_action(event["move"], player=player)
            state.apply(action, player=player)
        except ParlourError as err:
            raise BadRecord(f"{event['move']!r}: {err}", index=index) from None
    if upto is None and "result" in record:
        if not state.is_terminal():
            raise BadRecord("the record gives a result but its events do not end the game")
        got = state.result()
        if record["result"] != got.to_json():
            raise BadRecord(
                f"the record's result {record['result']} is not what its events give: "
                f"{got.to_json()}"
            )
    return state


def read_record(path: str | Path) -> JSON:
    """Read a record file. Raises :class:`BadRecord` for unreadable or non-JSON content."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BadRecord(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise BadRecord(f"{path} is not JSON: not UTF-8 text ({err.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise BadRecord(f"{path} is not JSON: {err}") from None
    except RecursionError:
        raise BadRecord(f"{path} is not JSON that can be read: nested too deep") from None


def write_record(record: JSON, path: str | Path) -> Path:
    """Write *record* as indented JSON to *path*; return the path."""
    target = Path(path)
    target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return target


def result_of(record: JSON) -> Result:
    """The :class:`Result` of a finished record (replays it)."""
    return replay(record).result()
