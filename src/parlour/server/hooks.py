"""Per-game extension points: what the server does differently for one game.

The server plays every registered game through the engine protocol alone. Where a game needs
more, it registers :class:`GameHooks` under its name (``register_hooks("crossword", ...)``),
typically from a module in ``parlour.server.integrations``:

- ``start``: who may start a table and when it starts by itself (default
  :class:`CreatorStarts`: the creator, once every seat is filled). The crossword's lobby
  (``parlour.lobby``: min/max players and a vote) plugs in here.
- ``on_finished``: called inside the transaction that stores a game's last event (Greedy
  standings, Rummy statistics), so the game and its consequences commit together.
- ``host_events``: the host events due at a moment (default :func:`clock_skip`: ``skip`` for
  the seat to move once its turn clock has run out). Crossword daily mode adds its new-day
  events here.
- ``deadline``: when the table's clock next runs out after a change (default
  :func:`clock_deadline`: ``clock_days`` after a person comes to move). The sweeper wakes
  the table then; crossword daily mode answers the next midnight in the table's time zone.
- ``check_table``: refuses a new table's options or clock for this game with the reason
  (crossword daily mode takes a one-day clock or none; only built-in word lists).
- ``warm``: loads what the game's first table would otherwise load while players wait (the
  crossword's word list); run once at start-up, in a thread.
- ``event_visible``: which logged events (in notation) a seat may be sent. Default
  :func:`default_visibility`: all of them in perfect-information games; in the others only a
  seat's own actions until the game is over (the observation carries the rest).
- ``legal_limit``: the most legal actions listed for a client (beyond it, none are listed and
  the client sends notation it composed itself; 0: never listed, nor worked out).
- ``independent``: moves of one seat that no other seat's action depends on (the crossword's
  rack orders): an action made against a version that only such moves of other seats have
  passed is taken as made now, instead of being refused as stale.
- ``compose``: turns tiles a client put on squares one by one into the action's notation
  (the crossword: ``[("H8", "C"), ("I8", "A")]`` -> ``"CAT H8 across"``), for previews.
- ``preview_hides``: why a preview may not show the position after an action at all, when
  that position would show what the seat may not see yet (Rummy's draw from the stock: the
  stock's order is in the state, so the card it takes; Rummy's going out: the round's end
  shows every hand, and whether it ends the game hangs on them). Default
  :func:`end_hidden`: an action that ends a game of imperfect information (its end may show
  every holding); nothing else (a game whose hidden outcomes are chance nodes, which a
  preview never draws).
- ``preview_view``: what a preview shows of the position after an action it does not hide:
  the seat's own observation there, less what only the action's end would reveal. Default
  :func:`observation_after`. The crossword shows its last play or pass (score, words, its
  own rack and end adjustment) with no other seat's final rack, adjustment or score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Connection

from parlour.engine.spec import GameSpec, Information
from parlour.engine.state import CHANCE, HOST, JSON, State
from parlour.storage.tables import SeatRow, TableRow


@dataclass(frozen=True)
class LobbyView:
    """A table before its start, as a start rule sees it."""

    table: TableRow
    seats: Sequence[SeatRow]
    spec: GameSpec

    @property
    def open_seats(self) -> list[int]:
        """Seats waiting for a person."""
        return [s.seat for s in self.seats if s.is_open]


class StartRule(Protocol):
    """When a table in the lobby starts. Asked inside the lobby write's transaction (the
    table's row locked, the lobby read after the lock), so its methods only read the
    :class:`LobbyView` they are given."""

    def refuse_start(self, lobby: LobbyView, account_id: int) -> str | None:
        """Why *account_id* may not start the table now, or ``None`` if they may."""
        ...

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        """True when the table should start at once (after a join or vote)."""
        ...

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        """The game options and the seats the game starts with (a rule may drop open seats
        and set ``players`` to the number who joined)."""
        ...


@dataclass(frozen=True)
class CreatorStarts:
    """The creator starts the table once every seat is filled (all games but the crossword)."""

    def refuse_start(self, lobby: LobbyView, account_id: int) -> str | None:
        """Refuses anyone but the creator, and any start with open seats."""
        if account_id != lobby.table.creator_id:
            return "only the table's creator may start it"
        if lobby.open_seats:
            count = len(lobby.open_seats)
            return f"{count} seat{'s' if count > 1 else ''} still open: wait for players to join"
        return None

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        """Never: the creator starts it."""
        return False

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        """The options and seats as created."""
        return dict(lobby.table.options), list(lobby.seats)


@dataclass(frozen=True)
class Moment:
    """What :data:`HostEvents` hooks see: the table, its seats, its state and the time."""

    table: TableRow
    seats: Sequence[SeatRow]
    state: State
    now: datetime


HostEvents = Callable[[Moment], list[str]]
"""The host events (notation, applied by :data:`~parlour.engine.state.HOST`) due now."""


def clock_skip(moment: Moment) -> list[str]:
    """``["skip"]`` when the turn clock of a person to move has run out, else nothing."""
    table = moment.table
    if table.deadline is None or moment.now < table.deadline:
        return []
    if moment.state.current_player() < 0:
        return []
    return ["skip"]


def deadline_after(now: datetime, clock_days: int | None) -> datetime | None:
    """When a turn that starts at *now* runs out (``None``: no clock)."""
    return None if clock_days is None else now + timedelta(days=clock_days)


@dataclass(frozen=True)
class Turning:
    """What :data:`DeadlineRule` hooks see: the table row *before* the change, the state
    after it, the time, the events the change added (``(by, notation)``), and whether a
    person (not a computer player) may act now."""

    table: TableRow
    state: State
    now: datetime
    added: Sequence[tuple[int, str]]
    person_to_move: bool


DeadlineRule = Callable[[Turning], datetime | None]
"""When the table's clock next runs out after a change (``None``: never)."""


def clock_deadline(turning: Turning) -> datetime | None:
    """``clock_days`` from now while a person is to move; no deadline otherwise."""
    if not turning.person_to_move:
        return None
    return deadline_after(turning.now, turning.table.clock_days)


TableCheck = Callable[[dict[str, Any], int | None], str | None]
"""``(resolved options, clock_days) -> reason`` a new table is refused, or ``None``."""


def any_clock(options: dict[str, Any], clock_days: int | None) -> str | None:
    """Every clock the server offers is fine (the default)."""
    return None


@dataclass(frozen=True)
class Finished:
    """What ``on_finished`` hooks see: the open transaction, the table, seats, names, state."""

    connection: Connection
    table: TableRow
    seats: Sequence[SeatRow]
    names: Sequence[str]
    state: State


EventVisible = Callable[[GameSpec, int, str, int | None, bool], bool]
"""``(spec, by, move, seat, finished) -> bool``: may *seat* (``None``: spectator) see it?"""


def default_visibility(spec: GameSpec, by: int, move: str, seat: int | None, over: bool) -> bool:
    """Perfect information: everything. Otherwise host events (a clock's skip, a new day:
    public by nature), a seat's own actions, and all at the end."""
    if over or spec.information is Information.PERFECT or by == HOST:
        return True
    return seat is not None and by == seat and by != CHANCE


Compose = Callable[[State, Sequence[tuple[str, str]]], str]
"""``(state, [(square, letter), ...]) -> notation``; raises the engine's errors with the
reason the tiles make no action."""


PreviewHides = Callable[[State, Any, int, State], str | None]
"""``(before, action, seat, after) -> reason`` the position *after* the seat's *action*
(applied to a copy of *before*, the table's state now) may not be previewed at all (it would
show hidden information), or ``None``."""


def nothing_hidden(before: State, action: Any, seat: int, after: State) -> str | None:
    """Every legal action may be previewed."""
    return None


def end_hidden(before: State, action: Any, seat: int, after: State) -> str | None:
    """The reason an action that ends a game of imperfect information is not previewed (its
    end may show every seat's holdings), ``None`` for any other action (the default)."""
    if before.game.spec.information is Information.PERFECT:
        return None
    if after.is_terminal() and not before.is_terminal():
        return "this move ends the game: what the end shows is shown once you make it"
    return None


PreviewView = Callable[[State, State, int], JSON]
"""``(before, after, seat) -> view``: what a preview of the seat's action shows of the
position *after* it: the seat's observation there, less what only the action's end would
reveal (no other seat's holdings, nothing that depends on them)."""


def observation_after(before: State, after: State, seat: int) -> JSON:
    """``after.observation(seat)`` (the default: safe wherever :data:`PreviewHides` hides the
    actions whose result shows hidden information)."""
    return after.observation(seat)


@dataclass(frozen=True)
class GameHooks:
    """A game's server extensions (see the module docstring); the defaults suit most games."""

    start: StartRule = field(default_factory=CreatorStarts)
    on_finished: Callable[[Finished], None] | None = None
    host_events: HostEvents = clock_skip
    deadline: DeadlineRule = clock_deadline
    check_table: TableCheck = any_clock
    warm: Callable[[], None] | None = None
    event_visible: EventVisible = default_visibility
    legal_limit: int = 300
    compose: Compose | None = None
    independent: Callable[[str], bool] | None = None
    preview_hides: PreviewHides = end_hidden
    preview_view: PreviewView = observation_after


_HOOKS: dict[str, GameHooks] = {}
_DEFAULT = GameHooks()


def all_hooks() -> dict[str, GameHooks]:
    """The hooks registered so far, by game name."""
    return dict(_HOOKS)


def register_hooks(game: str, hooks: GameHooks) -> None:
    """Use *hooks* for the game named *game* (its registered name, not an alias)."""
    _HOOKS[game] = hooks


def hooks_for(game: str) -> GameHooks:
    """The hooks of *game* (the defaults if it registered none)."""
    return _HOOKS.get(game, _DEFAULT)
