"""Where a table app gets its game from: a :class:`GameSource`.

Two sources exist. A local game (:class:`~parlour.session.LocalGame`: the engine, the
computer players and the saves on this machine, driven by the table's own loop) and a
server table (:class:`ServerTable`: one seat at a table on a ``parlour serve`` server; the
server draws chance, runs the computer players and checks every move, and this terminal
plays only its own seat). The screens are the same for both: they draw ``source.state``
and ``source.seats`` and send moves through :meth:`TableScreen.play
<parlour.tui.common.table.TableScreen.play>`, which applies a local move to the engine or
sends a server move to the server.

What a server table holds is only what the seat is sent: its observation, legal actions and
the events it may see (``docs/server.md``, "Who sees what"). ``state`` is rebuilt from
those: in a game of perfect information by replaying the seat's events (which are every
event, chance outcomes included) from the initial state of the table's options, so it is
exactly the server's state, which every seat may see whole anyway. A game of imperfect
information needs its own builder from the observation (:data:`SHADOW_BUILDERS`); without
one the table is refused here (:class:`~parlour.engine.errors.ParlourError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from parlour.engine.errors import ParlourError
from parlour.engine.registry import load
from parlour.engine.spec import Information
from parlour.engine.state import JSON, Action, Game, State
from parlour.session import SeatSpec


class GameSource(Protocol):
    """What a table screen reads (the attributes of :class:`~parlour.session.LocalGame`).

    ``bots`` are the seats this terminal does not play (computer players locally; at a
    server table every seat but one's own). ``person_to_move()`` is true when a seat this
    terminal plays may act; ``bot_to_move()`` when the table's own loop must run a
    computer player (never for a server table)."""

    @property
    def game(self) -> Game: ...

    @property
    def seats(self) -> list[SeatSpec]: ...

    @property
    def state(self) -> State: ...

    @property
    def bots(self) -> Mapping[int, object]: ...

    save_id: int | None
    screen: dict[str, Any]

    def to_move(self) -> int: ...

    def person_to_move(self) -> bool: ...

    def bot_to_move(self) -> bool: ...

    def people(self) -> list[str | None]: ...


RemoteEvent = tuple[int, str]
"""A logged event as the server sends it: who (a seat, ``CHANCE`` or ``HOST``) and the move
in notation (parsed against the state it applies to, as the server does)."""

ShadowBuilder = Callable[[Game, int | None, JSON, Sequence[RemoteEvent]], State]
"""Builds a seat's state of a game of imperfect information from what the seat is sent:
``(game, seat, observation, visible events) -> State``. The state holds nothing the seat
may not see (the hidden parts are placeholders)."""

SHADOW_BUILDERS: dict[str, ShadowBuilder] = {}
"""Per game name: its :data:`ShadowBuilder` (registered by the game's terminal app)."""


@dataclass(frozen=True)
class Absorbed:
    """What :meth:`ServerTable.absorb` made of an update: the new ``events`` to apply to
    the state one by one, in order (the caller applies them, so each can be shown);
    ``rebuilt`` when the state was rebuilt whole from the observation instead (a game of
    imperfect information: the caller redraws); ``gap`` when events are missing (nothing
    was taken: the caller fetches the whole table and absorbs that)."""

    events: list[RemoteEvent] = field(default_factory=list)
    rebuilt: bool = False
    gap: bool = False


class Link(Protocol):
    """The connection a server table's screen talks through (``parlour connect``'s client).

    ``follow`` and ``act`` never raise for a refusal or a lost connection: those are
    messages too (plain JSON dicts)."""

    async def follow(
        self, table_id: int, deliver: Callable[[JSON], None], invite: str | None = None
    ) -> None:
        """Follow *table_id* (*invite*: the code of an invite-only table) until
        cancelled: ``deliver`` each server message about it, and ``{"type": "link",
        "state": "reconnecting"|"connected", "detail": text}`` when the connection drops or
        is made again (then the table is followed again)."""

    async def act(self, table_id: int, action: str, version: int) -> JSON:
        """Send *action* (notation) made at *version*: the server's answer as
        ``{"type": "answer", **ActionOut}``, or ``{"type": "refused", "detail", "code",
        "current"}``."""

    async def table(self, table_id: int) -> JSON:
        """``GET /tables/{id}``: the whole table for this account (a dict); the one method
        that raises (the link's own error, with the server's reason) when it cannot."""

    async def coach(self, table_id: int) -> JSON:
        """``GET /tables/{id}/coach``: ``{"version", "advice"}`` for this account's decision
        now; raises (the link's own error, with the server's reason) when refused."""

    async def close(self) -> None:
        """Close the connection (the app is closing)."""


@dataclass
class ServerTable:
    """One seat at a server table, as a :class:`GameSource`.

    Built from the table as ``GET /tables/{id}`` answers it (:meth:`from_table`) and moved on
    by each WebSocket ``update`` (:meth:`absorb`). ``version`` is the server's version the
    state stands at; ``you`` the seat (``None``: watching); ``legal`` the seat's legal
    actions in notation (``None``: not listed); ``deadline`` the turn clock's end (ISO 8601,
    or ``None``); ``view`` the seat's observation as sent.
    """

    table_id: int
    game: Game
    seats: list[SeatSpec]
    you: int | None
    state: State
    version: int
    view: JSON = None
    legal: list[str] | None = None
    deadline: str | None = None
    status: str = "active"
    to_move_seats: list[int] = field(default_factory=list)
    title: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    save_id: int | None = None
    screen: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_table(cls, table: JSON) -> ServerTable:
        """A source from a ``GET /tables/{id}`` answer (a dict). Raises
        :class:`ParlourError` for a game this client cannot show or an event it cannot
        replay."""
        game = load(table["game"], **table["options"])
        events = remote_events(table["events"])
        seats = [seat_spec(s) for s in table["seats"]]
        source = cls(
            table_id=int(table["id"]),
            game=game,
            seats=seats,
            you=table.get("you"),
            state=game.new_initial_state(),
            version=int(table["version"]),
            title=str(table.get("title", "")),
            options=dict(table["options"]),
        )
        source._take(table)
        source.state = source.rebuild(table.get("view"), events)
        return source

    @property
    def bots(self) -> Mapping[int, object]:
        """Every seat but this terminal's own (they play at the server)."""
        return {i: None for i in range(len(self.seats)) if i != self.you}

    @property
    def perfect(self) -> bool:
        """True for a game of perfect information (the state is replayed exactly)."""
        return self.game.spec.information is Information.PERFECT

    def to_move(self) -> int:
        """The seat to move as this seat sees it (``state.current_player()``)."""
        return self.state.current_player()

    def person_to_move(self) -> bool:
        """True when this terminal's seat may act now (the server says it is its turn)."""
        return (
            self.you is not None
            and self.status == "active"
            and self.you in self.to_move_seats
            and self.you in self.state.actors()
        )

    def bot_to_move(self) -> bool:
        """Never: the server runs the computer players."""
        return False

    def people(self) -> list[str | None]:
        """Per seat: the person's name, or ``None`` for a computer player."""
        return [None if s.is_bot else s.name for s in self.seats]

    def rebuild(self, view: JSON, events: Sequence[RemoteEvent]) -> State:
        """The seat's state from its observation and its visible events (see the module
        docstring). Raises :class:`ParlourError` for an event the engine refuses."""
        if self.perfect:
            state = self.game.new_initial_state()
            for player, move in events:
                state.apply(state.parse_action(move, player=player), player=player)
            return state
        builder = SHADOW_BUILDERS.get(self.game.spec.name)
        if builder is None:
            raise ParlourError(f"{self.game.spec.title} cannot be played in the terminal yet")
        return builder(self.game, self.you, view, events)

    def absorb(self, update: JSON) -> Absorbed:
        """Take a WebSocket ``update``, an action's answer or a whole ``GET /tables/{id}``
        for this table (see :class:`Absorbed`). An update older than the known version
        changes nothing."""
        version = int(update["version"])
        if version < self.version:
            return Absorbed()
        if version == self.version:
            self._take(update)
            return Absorbed()
        raw = [e for e in update.get("events", []) if int(e["seq"]) >= self.version]
        if self.perfect:
            seqs = [int(e["seq"]) for e in raw]
            if seqs != list(range(self.version, version)):
                return Absorbed(gap=True)  # the caller fetches the whole table
            self._take(update)
            self.version = version
            return Absorbed(events=remote_events(raw))
        self._take(update)
        self.version = version
        self.state = self.rebuild(self.view, remote_events(update.get("events", [])))
        return Absorbed(rebuilt=True)

    def _take(self, update: JSON) -> None:
        self.view = update.get("view", self.view)
        self.legal = update.get("legal", self.legal)
        self.deadline = update.get("deadline", self.deadline)
        self.status = str(update.get("status", self.status))
        self.to_move_seats = [int(s) for s in update.get("to_move", self.to_move_seats)]


def seat_spec(seat: JSON) -> SeatSpec:
    """A server seat (``SeatOut``) as a :class:`SeatSpec`: a computer's level, or the
    person's name (``open`` for an empty seat)."""
    if seat.get("kind") == "cpu":
        return SeatSpec(str(seat.get("name") or f"CPU ({seat.get('level')})"), seat.get("level"))
    return SeatSpec(str(seat.get("name") or "open"))


def remote_events(events: Sequence[JSON]) -> list[RemoteEvent]:
    """Server events (``{"seq", "by", "move"}``) as :data:`RemoteEvent` pairs, in order."""
    return [(int(e["by"]), str(e["move"])) for e in events]


def action_text(state: State, action: Action) -> str:
    """*action* in notation, as the server takes it."""
    return state.action_to_string(action)
