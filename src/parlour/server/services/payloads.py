"""The game part of what clients are sent, built from one :class:`~.cache.Entry` for one seat.

Only ever ``state.observation(seat)`` for the viewer's own seat (``None``: a spectator), the
legal actions of that seat, and the logged events the game's visibility hook lets that seat
see. Nothing else of the state, and never the table's seed. Call these under the table's lock.

The seat is the one the viewer's account holds in the entry the payload is built from
(:func:`viewer_seat`), never one remembered from an earlier version: an account that left
before the start, or whose seat was renumbered by it, is sent what REST shows it then.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.state import JSON
from parlour.server.hooks import hooks_for
from parlour.server.services.cache import SERVER_EVENT, Entry
from parlour.storage.tables import EventRow


def viewer_seat(entry: Entry, account_id: int | None) -> int | None:
    """The seat *account_id* holds in *entry* (``None``: anonymous, or no seat there)."""
    return None if account_id is None else entry.seat_of(account_id)


def visible_events(entry: Entry, seat: int | None, events: Sequence[EventRow]) -> list[JSON]:
    """The *events* that *seat* may be sent, as ``{"seq", "by", "move"}``."""
    spec = entry.state.game.spec
    visible = hooks_for(spec.name).event_visible
    over = entry.state.is_terminal()
    return [
        {"seq": e.seq, "by": e.by, "move": e.move}
        for e in events
        if e.by == SERVER_EVENT or visible(spec, e.by, e.move, seat, over)
    ]


def legal(entry: Entry, seat: int | None) -> list[str] | None:
    """The seat's legal actions in notation ([] for spectators and seats not to move)."""
    if seat is None or entry.plays_itself(seat):
        return []
    return entry.legal_for(seat, hooks_for(entry.table.game).legal_limit)


def your_turn(entry: Entry, seat: int | None) -> bool:
    """True when *seat* is a person to move."""
    return seat is not None and seat in entry.table.to_move and not entry.plays_itself(seat)


def action_result(entry: Entry, seat: int, first_seq: int) -> JSON:
    """The answer to an accepted action: version, new events, the seat's view and legal
    actions."""
    return {
        "version": entry.version,
        "status": entry.table.status,
        "to_move": list(entry.table.to_move),
        "your_turn": your_turn(entry, seat),
        "events": visible_events(entry, seat, entry.events[first_seq:]),
        "view": entry.view(seat),
        "legal": legal(entry, seat),
        "result": entry.table.result,
    }


def current_payload(entry: Entry, seat: int | None) -> JSON:
    """What a 409 carries: the version, the seat's view and legal actions now."""
    return {
        "version": entry.version,
        "status": entry.table.status,
        "to_move": list(entry.table.to_move),
        "view": entry.view(seat),
        "legal": legal(entry, seat),
    }


def update_message(entry: Entry, account_id: int | None, since: int) -> JSON:
    """The WebSocket ``update`` for *account_id* (``None``: anonymous): the table now, for
    the seat the account holds in *entry* (:func:`viewer_seat`), and the events after
    *since* that seat may see."""
    table = entry.table
    seat = viewer_seat(entry, account_id)
    return {
        "type": "update",
        "table": table.id,
        "version": entry.version,
        "status": table.status,
        "you": seat,
        "to_move": list(table.to_move),
        "your_turn": your_turn(entry, seat),
        "deadline": None if table.deadline is None else table.deadline.isoformat(),
        "view": entry.view(seat),
        "legal": legal(entry, seat),
        "events": visible_events(entry, seat, entry.events[since:]),
        "result": table.result,
    }
