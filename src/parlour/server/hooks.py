"""Per-game behaviour of the server: what it does differently for one game.

The server plays every installed game through the engine protocol alone. What it needs to
know beyond that, each game declares on its spec (``GameSpec.platform``,
:class:`~parlour.engine.platform.Platform`); :func:`hooks_for` builds the server's
:class:`GameHooks` from those declarations plus the server's own policy. No module of the
server names a game.

- ``start``: who may start a table and when it starts by itself. ``Start.CREATOR``:
  :class:`CreatorStarts` (the creator, once every seat is filled); ``Start.VOTE``: the vote
  lobby (:class:`parlour.server.votes.VotesToBegin`, the crossword's).
- ``host_events``: the host events due at a moment (default :func:`clock_skip`: ``skip`` for
  the seat to move once its turn clock has run out). A game that runs on days
  (``Platform.daily``) gets its ``new-day`` at midnight here
  (:func:`parlour.server.daily.daily_host_events`).
- ``deadline``: when the table's clock next runs out after a change (default
  :func:`clock_deadline`: ``clock_days`` after a person comes to move). The sweeper wakes
  the table then; on days it is the next midnight in the table's time zone.
- ``check_table``: refuses a new table's options or clock for this game with the reason (on
  days the clock is one day or none).
- ``warm``: ``Platform.warm``, run once at start-up in a thread (the crossword's word list).
- ``event_visible``: which logged events (in notation) a seat may be sent
  (:func:`default_visibility`, reading ``Platform.secret``).
- ``legal_limit``: ``Platform.legal_limit``, the most legal actions listed for a client.
- ``independent``: ``Platform.independent``: an action made against a version that only such
  moves of other seats have passed is taken as made now, instead of being refused as stale.
- ``compose``: ``Platform.compose``, tiles put on squares into notation, for previews.
- ``preview_hides``: ``Platform.preview_hides``, or by default :func:`end_hidden`: an action
  that ends a game of imperfect information (its end may show every holding); nothing else
  (a game whose hidden outcomes are chance nodes, which a preview never draws).
- ``preview_view``: ``Platform.preview_view``, or by default :func:`observation_after`.

What a finished game adds to standings and statistics is recorded by the scorebook
(:mod:`parlour.scorebook`, from ``Platform.contributions``) after the game's last event is
stored (:mod:`parlour.server.services.scores`), not by a hook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from parlour.engine.platform import Start
from parlour.engine.registry import find
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
        """Why *account_id* may not start the table now, or ``None`` if they may: a
        :class:`NotYours` when it is never theirs to start (403), else a plain string (409)."""
        ...

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        """True when the table should start at once (after a join or vote)."""
        ...

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        """The game options and the seats the game starts with (a rule may drop open seats
        and set ``players`` to the number who joined)."""
        ...


class NotYours(str):
    """A start rule's refusal that says the start is not this person's to make (answered
    403), where a plain string says it is not the time yet (409)."""

    __slots__ = ()


@dataclass(frozen=True)
class CreatorStarts:
    """The creator starts the table once every seat is filled (all games but the crossword)."""

    def refuse_start(self, lobby: LobbyView, account_id: int) -> str | None:
        """Refuses anyone but the creator, and any start with open seats."""
        if account_id != lobby.table.creator_id:
            return NotYours("only the table's creator may start it")
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


EventVisible = Callable[[GameSpec, int, str, int | None, bool], bool]
"""``(spec, by, move, seat, finished) -> bool``: may *seat* (``None``: spectator) see it?"""


def default_visibility(spec: GameSpec, by: int, move: str, seat: int | None, over: bool) -> bool:
    """Everything at the end, and host events (a clock's skip, a new day: public by nature).
    Perfect information: everything. Otherwise no chance outcome, a seat's own moves, and the
    other seats' moves the game does not declare secret (``Platform.secret``; a game that
    declares nothing keeps every seat's moves from the others, its observations carrying what
    is public)."""
    if over or spec.information is Information.PERFECT or by == HOST:
        return True
    if by == CHANCE:
        return False
    if seat is not None and by == seat:
        return True
    secret = spec.platform.secret
    return secret is not None and not secret(move)


Compose = Callable[[State, Sequence[tuple[str, str]]], str]
"""``(state, [(square, letter), ...]) -> notation``; raises the engine's errors with the
reason the tiles make no action."""


PreviewHides = Callable[[State, Any, int, State], str | None]
"""``(before, action, seat, after) -> reason`` the position *after* the seat's *action*
(applied to a copy of *before*, the table's state now) may not be previewed at all (it would
show hidden information), or ``None``."""


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
    """A game's behaviour on the server (see the module docstring); the defaults suit most
    games. Built by :func:`hooks_for`."""

    start: StartRule = field(default_factory=CreatorStarts)
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


def build_hooks(spec: GameSpec) -> GameHooks:
    """The server's hooks for *spec*: its ``platform`` declarations plus the server's policy.

    Raises ``ValueError`` for a game that runs on days but declares no ``new-day`` host event
    (the engine would refuse the event the server sends at midnight).
    """
    # the vote lobby and the daily clocks build on this module's types
    from parlour.server import daily, votes

    declared = spec.platform
    hooks = GameHooks(
        warm=declared.warm,
        legal_limit=declared.legal_limit,
        compose=declared.compose,
        independent=declared.independent,
        preview_hides=declared.preview_hides or end_hidden,
        preview_view=declared.preview_view or observation_after,
    )
    if declared.start is Start.VOTE:
        hooks = replace(hooks, start=votes.VotesToBegin())
    if declared.daily is not None:
        if daily.NEW_DAY not in spec.host_events:
            raise ValueError(f"{spec.name} runs on days but its host_events lack {daily.NEW_DAY!r}")
        hooks = replace(
            hooks,
            host_events=daily.daily_host_events,
            deadline=daily.daily_deadline,
            check_table=daily.daily_clock(declared.daily),
        )
    return hooks


_HOOKS: dict[str, GameHooks] = {}


def hooks_for(game: str) -> GameHooks:
    """The hooks of the game named *game* (its name or an alias), built once per process.
    Raises :class:`~parlour.engine.errors.UnknownGame` for a game not installed."""
    spec = find(game)
    hooks = _HOOKS.get(spec.name)
    if hooks is None:
        hooks = _HOOKS[spec.name] = build_hooks(spec)
    return hooks
