"""Daily clocks: the server's policy for games that run on days (``Platform.daily``; the
crossword's daily mode).

A table of such a game gets a ``new-day`` host event at each midnight in the table's time
zone (from the sweeper, or the first action after it); its clock is the day: one day or none.
Games that do not run on days (or whose options say not, the crossword's turns mode) keep
the days-per-move clock of :mod:`parlour.server.hooks`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from parlour.engine.state import HOST, State
from parlour.server.hooks import Moment, TableCheck, Turning, clock_deadline, clock_skip

NEW_DAY = "new-day"
"""The host event that starts a new day."""


def runs_on_days(state: State) -> bool:
    """True when *state*'s game runs on days with its options (``Platform.daily``)."""
    daily = state.game.spec.platform.daily
    return daily is not None and daily(state.game.options)


def next_midnight(now: datetime, zone: str) -> datetime:
    """The first midnight after *now* in the IANA time zone *zone*, as an aware datetime.

    >>> from datetime import UTC
    >>> str(next_midnight(datetime(2026, 12, 1, 22, 30, tzinfo=UTC), "Europe/Paris"))
    '2026-12-02 00:00:00+01:00'
    """
    tz = ZoneInfo(zone)
    tomorrow = now.astimezone(tz).date() + timedelta(days=1)
    return datetime.combine(tomorrow, time(0), tzinfo=tz)


def daily_deadline(turning: Turning) -> datetime | None:
    """On days: the midnight that ends the day, in UTC (set at the start and at each
    ``new-day``, kept by every other change). Otherwise the days-per-move clock."""
    if not runs_on_days(turning.state):
        return clock_deadline(turning)
    new_day = any(by == HOST and move == NEW_DAY for by, move in turning.added)
    if turning.table.deadline is None or new_day:
        return next_midnight(turning.now, turning.table.time_zone).astimezone(UTC)
    return turning.table.deadline


def daily_host_events(moment: Moment) -> list[str]:
    """On days, once the day's midnight has passed: ``skip`` (with a one-day clock, while a
    seat has not acted) then ``new-day``. Otherwise the clock's ``skip``."""
    if not runs_on_days(moment.state):
        return clock_skip(moment)
    deadline = moment.table.deadline
    if deadline is None or moment.now < deadline:
        return []
    if moment.state.is_terminal() or moment.state.is_chance_node():
        return []
    if moment.table.clock_days is not None and moment.state.actors():
        return ["skip"]
    return [NEW_DAY]


def daily_clock(daily: Callable[[Mapping[str, Any]], bool]) -> TableCheck:
    """The table check of a game that runs on days when *daily* says so: then the clock is a
    day or none; otherwise any clock the server offers. (Such a game's files, the crossword's
    word list, are always the built-in ones: the lobby refuses every file option.)"""

    def check(options: dict[str, Any], clock_days: int | None) -> str | None:
        if daily(options) and clock_days not in (None, 1):
            return (
                "in daily mode the day is the clock: clock_days is 1 (a seat that lets a day "
                "pass without acting is skipped at midnight) or null (a missed day costs "
                "nothing)"
            )
        return None

    return check
