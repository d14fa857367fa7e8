"""The table every game's terminal app is built on: a screen that plays a game from a
:class:`~parlour.tui.common.source.GameSource` (a :class:`~parlour.session.LocalGame`, or a
:class:`~parlour.tui.common.source.ServerTable` at a server) and an app shell around it.

:class:`TableScreen` owns the loop. After every event it redraws (``show_state``), then:
chance outcomes are drawn from the table's :class:`ChanceSource`; a computer player thinks
in a thread worker and its choice is shown (``preview``) and applied after a pause a person
can follow (:class:`Pace`; ``--fast`` is :meth:`Pace.instant`); when a person is to move the
game is saved and the screen waits for keys. Only this class applies events to the engine
(:meth:`TableScreen.play`); an illegal move is explained on screen, never raised.

Common keys: H help (a Markdown file), Esc end the game early (confirm; it is saved), F8
restart with the same players (confirm), Ctrl+Q quit (saved). At the end, the final
scoreboard offers to save the game record. At a server table Esc is "Leave table" (the
game goes on at the server), Ctrl+Q leaves at once and there is no restart
(:attr:`TableScreen.LOCAL_ONLY`).

At a server table (``settings.link`` talks to the server) the server draws chance, runs the
computer players and checks every move: :meth:`TableScreen.play` sends a person's move and
changes nothing until the server's answer (a refusal is shown with the server's reason);
each update's new events are applied to the seat's state one by one (another seat's move
after ``pace.look``), as local moves are, so the screens show both the same way. The
header's subtitle says whose turn it is, the clock's time left and whether the connection
holds; a lost connection is shown and taken up again by the link.

A game subclasses :class:`TableScreen` (its widgets, keys and the hooks ``show_state``,
``explain``, ``score_rows``) and :class:`TableApp` (``SCREEN`` and ``CSS_PATH``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, JSON, Action, State
from parlour.session import LocalGame
from parlour.tui.common.chance import ChanceSource, RandomChance
from parlour.tui.common.clock import status_line
from parlour.tui.common.keys import KeysInTurn
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.saves import default_record_path, export_record
from parlour.tui.common.scoreboard import ScoreRow
from parlour.tui.common.source import GameSource, Link, RemoteEvent, ServerTable


@dataclass(frozen=True)
class Pace:
    """How long (seconds) a person gets to follow the computer players: ``look`` to see a
    roll or a computer player's choice, ``turn`` to see how a turn ended before the next
    computer turn starts."""

    look: float = 0.9
    turn: float = 1.6

    @classmethod
    def instant(cls) -> Pace:
        """No pauses (``--fast``, and tests)."""
        return cls(0.0, 0.0)


@dataclass
class TableSettings:
    """What a table needs besides the game: the ``chance`` source, the ``pace``, the
    ``database`` it saves to (``None``: not saved), the folder offered for records, and for
    a server table the ``link`` to the server (``None``: a local game)."""

    chance: ChanceSource = field(default_factory=RandomChance)
    pace: Pace = field(default_factory=Pace)
    database: Engine | None = None
    record_dir: Path | None = None
    link: Link | None = None


@dataclass(frozen=True)
class TableExit:
    """How a table ended, for the command line to report: ``outcome`` is ``"saved"`` (left
    mid-game, can be resumed), ``"finished"``, ``"unsaved"`` (no database, or saving
    failed) or ``"server"`` (a server table was left: it goes on at the server);
    ``save_id`` is the saved game's id (of the game played last, after an F8 restart);
    ``records`` lists the record files written, and ``record_saves`` the saved game each
    is a record of (in the same order: an earlier game's, before a restart, is not
    ``save_id``)."""

    outcome: str
    game: str
    save_id: int | None = None
    records: tuple[Path, ...] = ()
    record_saves: tuple[int | None, ...] = ()


class BotChose(Message):
    """Posted (from the worker thread) when a computer player has chosen its action."""

    def __init__(self, generation: int, action: Action) -> None:
        super().__init__()
        self.generation = generation
        self.action = action


class BotFailed(Message):
    """Posted (from the worker thread) when a computer player raised instead of choosing."""

    def __init__(self, generation: int, error: BaseException) -> None:
        super().__init__()
        self.generation = generation
        self.error = error


CLOCK_SECONDS = 30.0
"""How often a server table's header redraws the clock's time left (seconds)."""


class Remote(Message):
    """Posted for each message from the server about this table (a WebSocket ``update``,
    ``table`` notice, an action's answer, or the link's own ``{"type": "link", "state":
    "lost"|"back", "detail"}``)."""

    def __init__(self, data: JSON) -> None:
        super().__init__()
        self.data = data


class TableScreen(Screen[None]):
    """A game in progress at one table. See the module docstring for the loop.

    ``generation`` counts restarts: a timer or a computer player's answer from an older
    generation is dropped. ``waiting`` is true while a step (a roll, a computer player's
    choice or move) is pending; people's keys are refused meanwhile.
    """

    HELP_FILE: ClassVar[Path | None] = None
    """The Markdown file H shows (the game's rules, scoring table and keys)."""

    # Textual's responsive classes, for a game's stylesheet to fit a small terminal:
    # ``-narrow`` under 80 columns; ``-short`` under 24 rows, ``-tiny`` instead under 16.
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [  # noqa: RUF012 (as Textual)
        (0, "-narrow"),
        (80, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: list[tuple[int, str]] | None = [  # noqa: RUF012 (as Textual)
        (0, "-tiny"),
        (16, "-short"),
        (24, "-tall"),
    ]

    DEFAULT_CSS = """
    /* Under 16 rows a table may not fit: it scrolls (mouse wheel) with no scrollbar, which
       would take the columns it needs. */
    TableScreen.-tiny { scrollbar-size-vertical: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "help", "Help"),
        Binding("escape", "end_game", "End game"),
        Binding("escape", "leave_table", "Leave table"),
        Binding("f8", "restart", "Restart"),
    ]
    LOCAL_ONLY: ClassVar[frozenset[str]] = frozenset({"end_game", "restart"})
    """Actions of a local game only: at a server table their keys are neither shown nor
    run, and a binding of the same key to ``leave_table`` ("Leave table") takes over."""

    def __init__(self, local: GameSource, settings: TableSettings) -> None:
        super().__init__()
        self.local: GameSource = local
        self.settings = settings
        self.pending: deque[RemoteEvent] = deque()
        self.connection = "connecting"
        self._rules = ""
        self._sending = False
        self._stepping = False
        self._after_own = False
        self._last_seat: int | None = None
        self.generation = 0
        self.waiting = False
        self.records: list[Path] = []
        self.record_saves: list[int | None] = []
        self.save_error: str | None = None
        self._deferred: Callable[[], None] | None = None
        self._step_timer: Timer | None = None
        self._over_shown = False

    # --- hooks for each game ------------------------------------------------------------

    def show_state(self) -> None:
        """Redraw the whole table from ``self.local.state``."""

    def explain(self, text: str, *, warning: bool = True) -> None:
        """Show *text* (why a move was refused, what just happened) on screen."""
        self.notify(text, severity="warning" if warning else "information")

    def score_rows(self) -> list[ScoreRow]:
        """The scoreboard rows for the current state."""
        state = self.local.state
        scores: Sequence[int] = state.observation(None).get("scores") or [0] * len(self.local.seats)
        to_move = state.actors()
        winners = state.result().winners if state.is_terminal() else ()
        return [
            ScoreRow(seat.name, int(scores[i]), turn=i in to_move, won=i in winners)
            for i, seat in enumerate(self.local.seats)
        ]

    def person_rolls(self) -> bool:
        """True when the chance outcome now waits for a person's key (the first roll of a
        person's turn, say); the game calls :meth:`roll` itself then."""
        return False

    def chance_delay(self) -> float:
        """Seconds before the next chance outcome is drawn (default: none)."""
        return 0.0

    def preview(self, action: Action) -> None:
        """Show what the computer player to move chose, before it is applied."""

    def after(self, player: int, action: Action, before: State) -> None:
        """Called after *player* (a seat or CHANCE) applied *action*; *before* is the state
        just before: ``state.describe_step(before, player, action)`` tells what the step did
        (:class:`~parlour.engine.step.Step`), to show and log it."""

    def replay_history(self, write: Callable[[int, Action, Any, Any], None]) -> None:
        """For a resumed game's history log: replay the state's events from the start and call
        ``write(player, action, before, now)`` for each (the states just before and after)."""
        replayed = self.local.game.new_initial_state()
        for player, action in self.local.state.history:
            before = replayed.clone()
            replayed.apply(action, player=player)
            write(player, action, before, replayed)

    def game_over_note(self) -> str:
        """A line under the final scoreboard (what the game added to the standings, say);
        called after the finished game is saved. Default: none."""
        return ""

    def headline(self) -> str:
        """The game-over headline: who won."""
        result = self.local.state.result()
        names = [self.local.seats[w].name for w in result.winners]
        if len(names) == 1:
            return f"{names[0]} wins with {result.scores[result.winners[0]]:,} points"
        return f"Shared win: {' and '.join(names)}"

    # --- the loop -----------------------------------------------------------------------

    def on_mount(self) -> None:
        remote = self.remote
        if remote is not None and self.settings.link is not None:
            self.run_worker(self._follow(self.settings.link, remote.table_id), group="link")
            self.set_interval(CLOCK_SECONDS, lambda: self._show_status(remote))
        self.advance()

    @property
    def remote(self) -> ServerTable | None:
        """The server table this screen plays at (``None``: a local game)."""
        return self.local if isinstance(self.local, ServerTable) else None

    def advance(self) -> None:
        """Redraw, then drive chance and computer players until a person must act (at a
        server table: apply the next event the server sent, if any)."""
        remote = self.remote
        if remote is not None:
            self._advance_remote(remote)
            return
        self.show_state()
        state = self.local.state
        if state.is_terminal():
            self.finish()
        elif state.is_chance_node() and not self.person_rolls():
            self._later(self.chance_delay(), self.roll)
        elif state.is_chance_node() or self.local.person_to_move():
            self.autosave()
        elif self.local.bot_to_move():
            self._later(self.settings.pace.look, self._think)

    def _later(self, delay: float, step: Callable[[], object]) -> None:
        generation = self.generation
        self.waiting = True

        def run() -> None:
            if generation != self.generation:
                return
            if not self.is_active:  # a help or confirm screen is up: the table waits
                self._deferred = run
                return
            self._step_timer = None
            self.waiting = False
            step()

        if delay > 0:
            self._step_timer = self.set_timer(delay, run)
        else:
            self.call_later(run)

    def on_screen_resume(self) -> None:
        deferred, self._deferred = self._deferred, None
        if deferred is not None:
            self.call_later(deferred)

    def _think(self) -> None:
        assert isinstance(self.local, LocalGame)
        self.waiting = True
        self._choose(self.generation, self.local)

    @work(thread=True, group="bot", exit_on_error=False)
    def _choose(self, generation: int, local: LocalGame) -> None:
        try:
            action = local.bot_choice()
        except Exception as err:  # a faulty bot must not take the table down: report it
            self.post_message(BotFailed(generation, err))
            return
        self.post_message(BotChose(generation, action))

    def on_bot_chose(self, message: BotChose) -> None:
        if message.generation != self.generation:
            return
        self.waiting = False
        self.preview(message.action)
        self._later(self.settings.pace.look, lambda: self.play(message.action))

    def on_bot_failed(self, message: BotFailed) -> None:
        if message.generation != self.generation:
            return
        self.waiting = False
        self.explain(f"the computer player failed ({message.error}); the game is saved")
        self.autosave()

    def roll(self) -> None:
        """Draw the chance outcome from the table's chance source and apply it."""
        try:
            outcome = self.settings.chance.draw(self.local.state)
        except ParlourError as err:
            self.explain(f"no chance outcome: {err}")
            return
        self.play(outcome, player=CHANCE)

    def play(self, action: Action, *, player: int | None = None) -> bool:
        """Apply *action* (for the player to move, or *player*): the one door into the
        engine. An illegal move is explained on screen and changes nothing; returns whether
        the action was applied. At a server table the action is sent and False returned:
        the server's answer applies it (or is shown, when the server refuses it)."""
        remote = self.remote
        if remote is not None:
            self._send(remote, action)
            return False
        state = self.local.state
        before = state.clone()
        who = state.current_player() if player is None else player
        try:
            state.apply(action, player=player)
        except ParlourError as err:
            self.explain(str(err))
            return False
        self.after(who, action, before)
        self.advance()
        return True

    # --- at a server table --------------------------------------------------------------

    def _advance_remote(self, remote: ServerTable) -> None:
        self._show_status(remote)
        if self._stepping:
            return
        if self.pending:
            player = self.pending[0][0]
            own = player == remote.you or (player == CHANCE and self._after_own)
            self._stepping = True
            self._later(0.0 if own else self.settings.pace.look, self._apply_remote)
            return
        self.show_state()
        if remote.state.is_terminal():
            self.finish()

    def _apply_remote(self) -> None:
        """Apply the next event the server sent to the seat's state, as a local move is."""
        remote = self.remote
        assert remote is not None
        self._stepping = False
        if not self.pending:
            self.advance()
            return
        player, move = self.pending.popleft()
        state = remote.state
        before = state.clone()
        try:
            action = state.parse_action(move, player=player)
            state.apply(action, player=player)
        except ParlourError:  # not the server's state after all: take the whole table again
            self.pending.clear()
            remote.state = before
            self._resync()
            return
        if player >= 0:
            self._after_own = player == remote.you
            self._last_seat = player
        self.after(player, action, before)
        self.waiting = self._sending
        self.advance()

    def _send(self, remote: ServerTable, action: Action) -> None:
        link = self.settings.link
        if link is None or self._sending or self._stepping or self.pending:
            self.explain("Wait: the table is still moving.")
            return
        text = remote.state.action_to_string(action)
        self._sending = True
        self.waiting = True
        self._show_status(remote, sending=text)
        self.run_worker(self._act(link, remote.table_id, text, remote.version), group="send")

    async def _act(self, link: Link, table_id: int, text: str, version: int) -> None:
        self.post_message(Remote(await link.act(table_id, text, version)))

    async def _follow(self, link: Link, table_id: int) -> None:
        def deliver(data: JSON) -> None:
            self.post_message(Remote(data))

        await link.follow(table_id, deliver)

    def _resync(self) -> None:
        link, remote = self.settings.link, self.remote
        if link is not None and remote is not None:
            self.run_worker(self._fetch(link, remote.table_id), group="fetch")

    async def _fetch(self, link: Link, table_id: int) -> None:
        try:
            table = await link.table(table_id)
        except Exception as err:  # the server refused or is gone: say so, keep the table
            detail = f"Could not fetch the table again: {err}"
            self.post_message(Remote({"type": "link", "state": self.connection, "detail": detail}))
            return
        self.post_message(Remote({**table, "type": "whole"}))

    def on_remote(self, message: Remote) -> None:
        """A message from the server (see :class:`Remote`)."""
        remote = self.remote
        data = message.data
        kind = data.get("type")
        if remote is None or (data.get("table", data.get("id")) not in (None, remote.table_id)):
            return
        if kind == "link":
            self.connection = str(data.get("state", ""))
            if data.get("detail"):
                self.explain(str(data["detail"]), warning=self.connection != "connected")
            self._show_status(remote)
            return
        if kind == "table":
            self._resync()
            return
        if kind == "refused":
            self._sending = False
            self.waiting = self._stepping
            if data.get("current"):
                self._resync()
            if data.get("code") == "unreachable":  # never reached the server: not refused
                self.explain(f"Not sent ({data.get('detail')}): play it again once connected.")
            else:
                self.explain(f"The server refused it: {data.get('detail')}")
            self._show_status(remote)
            return
        if kind == "answer":
            self._sending = False
        if kind not in ("update", "answer", "whole"):
            return
        absorbed = remote.absorb(data)
        if absorbed.gap:
            self._resync()
            return
        if absorbed.rebuilt:
            self.pending.clear()
            self.rebuilt()
        self.pending.extend(absorbed.events)
        if self._sending or self._stepping:
            self._show_status(remote)
            return
        self.waiting = False
        self.advance()

    def rebuilt(self) -> None:
        """The seat's state was rebuilt whole from the server's table (a game of imperfect
        information, or a resync): a game hook to forget what the screen remembers of the
        old state (default: nothing)."""

    def _show_status(self, remote: ServerTable, *, sending: str = "") -> None:
        if not self._rules:
            self._rules = self.sub_title or " "
        names = [s.name for s in remote.seats]
        showing = None
        if self.pending:  # the next seat's moves to show, else the last seat's on screen
            seats = [player for player, _ in self.pending if player >= 0]
            showing = seats[0] if seats else self._last_seat
        line = status_line(remote, names, self.connection, sending=sending, showing=showing)
        self.sub_title = " · ".join(p for p in (self._rules.strip(), line) if p)

    # --- saving, leaving, restarting ----------------------------------------------------

    def autosave(self) -> None:
        """Save the game in the database (if there is one); a failure is shown, not raised."""
        database = self.settings.database
        if database is None or not isinstance(self.local, LocalGame):
            return
        try:
            self.local.save(database)
        except (SQLAlchemyError, OSError, ParlourError) as err:
            self.save_error = str(err)
            self.explain(f"could not save the game: {err}")
        else:
            self.save_error = None

    def exit_info(self) -> TableExit:
        """Save, and say how the table ends (see :class:`TableExit`)."""
        self.autosave()
        saved = self.settings.database is not None and self.save_error is None
        if self.remote is not None:
            outcome = "server"
        elif not saved:
            outcome = "unsaved"
        elif self.local.state.is_terminal():
            outcome = "finished"
        else:
            outcome = "saved"
        return TableExit(
            outcome,
            self.local.game.spec.name,
            self.local.save_id,
            tuple(self.records),
            tuple(self.record_saves),
        )

    def leave(self) -> None:
        """Save the game and close the app."""
        self.generation += 1
        self.app.exit(self.exit_info())

    def action_help(self) -> None:
        """Show the rules and keys."""
        if self.HELP_FILE is not None:
            self.app.push_screen(HelpScreen(self.HELP_FILE))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """At a server table the local game's actions (``LOCAL_ONLY``) are off and
        ``leave_table`` is on; at a local game the other way round."""
        at_server = self.remote is not None
        if action in self.LOCAL_ONLY:
            return not at_server
        if action == "leave_table":
            return at_server
        return True

    def action_leave_table(self) -> None:
        """Esc at a server table: leave it (back to the lobby), after a confirm. The game
        goes on at the server; nothing is saved on this computer."""
        if self.local.state.is_terminal():
            self.leave()
            return
        self.app.push_screen(
            ConfirmScreen(
                "Leave the table? The game goes on at the server (nothing is saved on this"
                " computer): it stays in My games in the lobby.",
                yes="Leave table",
                no="Keep playing",
            ),
            lambda yes: self.leave() if yes else None,
        )

    def action_end_game(self) -> None:
        """Esc: end the game early, after a confirm (it is saved and can be resumed)."""
        if self.local.state.is_terminal():
            self.leave()
            return
        if self.remote is not None:
            self.action_leave_table()
            return
        saved = self.settings.database is not None
        question = "End the game now?" + (
            " It is saved: continue it later with  parlour play --resume"
            if saved
            else " (It is not saved.)"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave()

        self.app.push_screen(ConfirmScreen(question, yes="End game", no="Keep playing"), answered)

    def action_restart(self) -> None:
        """F8: start again with the same players, after a confirm (not at a server
        table)."""
        if self.remote is not None:
            self.explain("A server table cannot be restarted: Esc leaves it.")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.restart()

        self.app.push_screen(
            ConfirmScreen(
                "Restart with the same players? This game is lost.",
                yes="Restart",
                no="Keep playing",
            ),
            answered,
        )

    def restart(self) -> None:
        """A new game with the same seats and options. An unfinished game's save is reused
        (it is replaced); a finished game stays saved and the new one gets its own."""
        old = self.local
        assert isinstance(old, LocalGame)
        save_id = None if old.state.is_terminal() else old.save_id
        self.local = LocalGame(old.game, old.seats, save_id=save_id)
        self.local.bot_rng = old.bot_rng
        self.generation += 1
        self.waiting = False
        self._deferred = None
        if self._step_timer is not None:
            self._step_timer.stop()
            self._step_timer = None
        self._over_shown = False
        self.reset()
        self.advance()

    def reset(self) -> None:
        """Clear what the screen remembers of the old game (a game hook; default nothing)."""

    # --- the end ------------------------------------------------------------------------

    def finish(self) -> None:
        """The game is over: save it as finished and show the final scoreboard."""
        if self._over_shown:
            return
        self._over_shown = True
        self.autosave()
        self._show_game_over(self.game_over_note())

    def _show_game_over(self, note: str) -> None:
        self.app.push_screen(
            GameOverScreen(
                self.headline(), self.score_rows(), note=note, at_server=self.remote is not None
            ),
            self._game_over_choice,
        )

    def _game_over_choice(self, choice: str | None) -> None:
        if choice in ("again", "record") and self.remote is not None:
            if choice == "record":  # a server game's record is the server's to give
                self._show_game_over(
                    f"The record: GET /tables/{self.remote.table_id}/record at the server"
                )
            else:
                self.leave()
        elif choice == "record":
            assert isinstance(self.local, LocalGame)  # a server game's record is the server's
            default = default_record_path(self.local, self.settings.record_dir)
            self.app.push_screen(SaveRecordScreen(default, self.export), self._record_saved)
        elif choice == "again":
            self.restart()
        elif choice != "close":  # Esc closed the box: the finished board, Esc again leaves
            self.leave()

    def export(self, path: Path) -> Path:
        """Write the game record to *path* (raises ``OSError``); remember it for the exit."""
        assert isinstance(self.local, LocalGame)
        written = export_record(self.local, path)
        self.records.append(written)
        self.record_saves.append(self.local.save_id)
        return written

    def _record_saved(self, path: Path | None) -> None:
        saved = f"Record saved to {path}" if path else ""
        self._show_game_over("\n".join(line for line in (self.game_over_note(), saved) if line))


class TableApp(KeysInTurn[TableExit]):
    """The app shell: shows the game's :class:`TableScreen` (``SCREEN``); Ctrl+Q saves and
    quits. ``app.table`` is the screen (tests drive it)."""

    SCREEN: ClassVar[type[TableScreen]] = TableScreen
    ENABLE_COMMAND_PALETTE = False  # its Theme, Keys, Screenshot and Quit make no sense here
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit (saved)", priority=True),
        Binding("ctrl+q", "leave_table", "Leave table", priority=True, show=False),
    ]

    def __init__(self, local: GameSource, settings: TableSettings | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.table = self.SCREEN(local, settings or TableSettings())

    def on_mount(self) -> None:
        self.push_screen(self.table)

    async def on_unmount(self) -> None:
        link = self.table.settings.link
        if link is not None:
            await link.close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Ctrl+Q saves and quits a local game, and leaves a server table (no confirm, and
        not in the footer: Esc there is "Leave table")."""
        at_server = self.table.remote is not None
        if action == "quit":
            return not at_server
        if action == "leave_table":
            return at_server
        return True

    async def action_quit(self) -> None:
        """Ctrl+Q: save the game and quit."""
        self.table.leave()

    def action_leave_table(self) -> None:
        """Ctrl+Q at a server table: leave it (the game goes on at the server)."""
        self.table.leave()
