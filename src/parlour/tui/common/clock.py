"""The line a server table's header shows: the table, whose turn, the clock's time left, the
daily crossword's day and the connection (no Textual here)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.tui.common.source import ServerTable

DAY = 86_400
HOUR = 3_600


def time_left(deadline: str | None, now: datetime | None = None) -> str:
    """What is left until *deadline* (ISO 8601 with a zone) as ``"2d 3h"``, ``"5h 12m"``,
    ``"7m"`` or ``"time is up"``; ``""`` for no deadline or one that does not parse."""
    if not deadline:
        return ""
    try:
        end = datetime.fromisoformat(deadline)
    except ValueError:
        return ""
    if end.tzinfo is None:
        end = end.replace(tzinfo=UTC)
    seconds = int((end - (now or datetime.now(UTC))).total_seconds())
    if seconds <= 0:
        return "time is up"
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{max(minutes, 1)}m"


def whose_turn(to_move: Sequence[int], you: int | None, names: Sequence[str]) -> str:
    """``"your turn"``, ``"ann's turn"`` or, when several seats may act (the daily
    crossword), ``"your turn (and bob's)"``; ``""`` when nobody is to move."""
    others = [names[s] for s in to_move if s != you and 0 <= s < len(names)]
    if you is not None and you in to_move:
        return "your turn" + (f" (and {', '.join(others)})" if others else "")
    if not others:
        return ""
    return f"{' and '.join(others)} to play"


def status_line(
    table: ServerTable,
    names: Sequence[str],
    connection: str,
    *,
    sending: str = "",
    showing: int | None = None,
) -> str:
    """The header's line for *table*: ``"table 7 · your turn · 2d 3h left · connected"``;
    the daily crossword's day (``day 2026-12-02``) when its observation names one.

    *showing*: the seat whose moves the screen is still showing (the server's moves are
    replayed at a pace a person can follow): the line says ``"showing ann's moves"``
    instead of whose turn it is at the server, which the screen has not reached yet."""
    parts = [f"table {table.table_id}"]
    if showing is not None and 0 <= showing < len(names):
        whose = "your" if showing == table.you else f"{names[showing]}'s"
        parts.append(f"showing {whose} moves")
    elif table.status == "finished":
        parts.append("game over")
    elif table.status == "lobby":
        parts.append("waiting to start")
    else:
        turn = whose_turn(table.to_move_seats, table.you, names)
        if turn:
            parts.append(turn)
        left = time_left(table.deadline)
        if left:
            parts.append(f"{left} left" if left != "time is up" else left)
    day = table.view.get("day") if isinstance(table.view, dict) else None
    if table.options.get("turn_mode") == "daily" and day:
        parts.append(f"day {day}")
    if sending:
        parts.append(f"sending {sending}…")
    parts.append(connection)
    return " · ".join(parts)
