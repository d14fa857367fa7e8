"""The Rummy terminal app (``parlour play rummy``), on the shared table of
:mod:`parlour.tui.common`.

Keys (``help.md`` has them with the rules): ←/→ move along the hand, Space selects a card
(or click it), S draws from the stock, T takes the top discard, M melds the selected cards,
L lays them off onto a meld, D discards the selected card (L and D take the card under the
cursor when none is selected), N sorts by rank then suit (the manual's N/S button), R by
rank only (its N button), < and > move a card left or right, Enter shows the hand in a
game between people, H help, Q quit (asks first; the game is saved), F8 restart.

Everything drawn comes from ``state.observation(viewer)``, where the viewer is the seat
whose hand is shown: the only person at the table, or in a game between people the person
to move once they pressed Enter behind the curtain (nobody's hand otherwise). The hand's
order, the cursor and the selection live here; the engine only sees the moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, RichLog, Static

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, Action, State
from parlour.games.rummy.cards import Card, card_text, mask_of, parse_card, sort_by_rank
from parlour.games.rummy.notation import (
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Draw,
    LayOff,
    Meld,
)
from parlour.games.rummy.platform import counted_seats
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.state import RummyState
from parlour.scorebook import persons
from parlour.storage.rummy_stats import rummy_stats
from parlour.tui.common.scoreboard import Scoreboard, ScoreRow
from parlour.tui.common.source import SHADOW_BUILDERS, GameSource
from parlour.tui.common.table import TableApp, TableScreen, TableSettings
from parlour.tui.rummy.modals import LayOffScreen, RoundSummary, RoundSummaryScreen
from parlour.tui.rummy.shadow import rummy_shadow
from parlour.tui.rummy.view import (
    cards,
    describe,
    melds_of,
    no_fit_reason,
    plan_lay_off,
    plural,
    table_after,
    with_symbols,
)
from parlour.tui.rummy.widgets import (
    HandPicture,
    HandView,
    MeldPicture,
    MeldsView,
    Piles,
    card_label,
    cards_label,
)

HANDS_KEY = "rummy_hands"
"""Where the hand orders are kept in ``LocalGame.screen``: ``{seat: {"order": [cards],
"sort": "suit" | "rank" | None}}`` (seat as text, cards in notation)."""

SORTS = ("suit", "rank")
"""Hand orders: ``"suit"`` by rank then suit (the manual's N/S), ``"rank"`` by rank only,
keeping the order among equal ranks (its N)."""


class RummyScreen(TableScreen, inherit_bindings=False):
    """A game of Rummy at the table (see the module docstring)."""

    HELP_FILE = Path(__file__).with_name("help.md")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "draw(False)", "Stock"),
        Binding("t", "draw(True)", "Take"),
        Binding("m", "meld", "Meld"),
        Binding("l", "lay_off", "Lay off"),
        Binding("d", "discard", "Discard"),
        Binding("n", "sort('suit')", "Sort N/S"),
        Binding("r", "sort('rank')", "Sort N"),
        Binding("h", "help", "Help"),
        Binding("q,escape", "end_game", "End game"),  # as its confirm says
        Binding("q,escape", "leave_table", "Leave table"),
        Binding("space", "select", "Select", show=False),
        Binding("c", "clear", "Clear selection", show=False),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("less_than_sign,shift+left", "move_card(-1)", "Move left", show=False),
        Binding("greater_than_sign,shift+right", "move_card(1)", "Move right", show=False),
        Binding("enter", "reveal", "Show hand", show=False),
        Binding("f8", "restart", "Restart", show=False),
    ]
    """All of the table's keys, in footer order (the shared ones included: H, Esc, F8)."""

    def __init__(self, local: GameSource, settings: TableSettings) -> None:
        super().__init__(local, settings)
        self.orders: dict[int, list[Card]] = {}
        """Each seat's hand in the order its player arranged it."""
        self.sorts: dict[int, str | None] = {}
        """Each seat's sort (see :data:`SORTS`; ``None``: arranged by hand, new cards go
        to the right end)."""
        self.cursor = 0
        self.selected: set[Card] = set()
        self.revealed: int | None = None
        """In a game between people: the seat whose hand its owner has uncovered."""
        self.summarized = 0
        """Rounds whose summary has been shown."""
        self.drawn: Card | None = None
        self.final_table: list[MeldPicture] | None = None
        """The table as round ``final_round`` ended, shown until its summary is closed."""
        self.final_round = 0
        self.message = ""
        self.message_warning = False

    # --- who sees what ------------------------------------------------------------------

    @property
    def people(self) -> list[int]:
        """The seats of the people at the table."""
        return [s for s in range(len(self.local.seats)) if s not in self.local.bots]

    @property
    def hotseat(self) -> bool:
        """True when two or more people share the keyboard: hands hide behind a curtain."""
        return len(self.people) >= 2

    def viewer(self) -> int | None:
        """The seat whose hand is shown: the only person at the table; in a game between
        people, the person to move once they have uncovered their hand; else nobody."""
        people = self.people
        if len(people) == 1:
            return people[0]
        seat = self.local.state.current_player()
        return seat if seat in people and self.revealed == seat else None

    def observation(self) -> dict[str, Any]:
        """What the viewer may see (a spectator's view when nobody's hand is shown)."""
        return cast(dict[str, Any], self.local.state.observation(self.viewer()))

    def seat_label(self, seat: int) -> str:
        """A seat's name in the log and on the table: "you" for the only person at the
        table, a computer player without its level ("CPU 1")."""
        if len(self.people) == 1 and seat == self.people[0]:
            return "you"
        info = self.local.seats[seat]
        return info.name.split(" (")[0] if info.is_bot else info.name

    def seat_labels(self) -> list[str]:
        """:meth:`seat_label` of every seat."""
        return [self.seat_label(s) for s in range(len(self.local.seats))]

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="top"):
            with Vertical(id="table-panel"):
                yield MeldsView(id="melds")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Piles(id="piles")
        yield Static(id="turn")
        yield Static(id="message", markup=False)
        yield Static("", id="hand-title")
        yield Static(id="curtain")
        yield HandView(id="hand")
        history = RichLog(id="history", max_lines=500, wrap=True, markup=False)
        history.can_focus = False  # focused, it took ←/→ from the hand to scroll itself
        yield history
        yield Footer(compact=True)

    def on_mount(self) -> None:
        state = self.local.state
        obs = state.observation(None)
        self.title = "Rummy"
        rules = [f"game to {obs['ending_score']:,}"]
        options = self.local.game.options
        if options.get("must_discard"):
            rules.append("going out needs a discard")
        if options.get("alternate_start"):
            rules.append("first player alternates")
        self.sub_title = " · ".join(rules)
        self.summarized = len(obs["round_scores"])
        self._restore_hands(self.local.screen.get(HANDS_KEY))
        if self.local.save_id is not None and state.history:
            self._rebuild_history()
            self._history(
                obs["round"], f"Continuing saved game #{self.local.save_id}: {self._scores(obs)}"
            )
        # Textual then calls TableScreen.on_mount itself (handlers run along the MRO),
        # which starts the table: calling it here too would deal twice.

    # --- the hands' order, kept with the save ------------------------------------------

    def _restore_hands(self, saved: object) -> None:
        """Take back the hand orders and sorts saved with the game (``LocalGame.screen``);
        anything unreadable is left out (the hand is then sorted by rank then suit)."""
        if not isinstance(saved, dict):
            return
        for key, entry in saved.items():
            if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > 2:
                continue
            if not isinstance(entry, dict) or not isinstance(entry.get("order"), list):
                continue
            sort = entry.get("sort")
            try:
                order = [parse_card(text) for text in entry["order"] if isinstance(text, str)]
            except ParlourError:
                continue
            self.orders[int(key)] = order
            self.sorts[int(key)] = sort if sort in SORTS else None

    def autosave(self) -> None:
        """Save the game with each hand's order and sort (``LocalGame.screen``), so that a
        resumed game shows the hands as they were left."""
        self.local.screen[HANDS_KEY] = {
            str(seat): {
                "order": [card_text(c) for c in order],
                "sort": self.sorts.get(seat, "suit"),
            }
            for seat, order in self.orders.items()
        }
        super().autosave()

    # --- drawing ------------------------------------------------------------------------

    def show_state(self) -> None:
        viewer = self.viewer()
        obs = self.observation()
        panel = self.query_one("#table-panel")
        if self.final_table is not None:
            panel.border_title = f"Table at the end of round {self.final_round}"
            self.query_one(MeldsView).show(self.final_table, self.seat_labels())
        else:
            panel.border_title = "Table"
            self.query_one(MeldsView).show(melds_of(obs), self.seat_labels())
        self.query_one(Scoreboard).show(self.score_rows())
        top = parse_card(obs["discard_top"]) if obs["discard_top"] else None
        self.query_one(Piles).show(obs["stock_count"], top, len(obs["discard_pile"]))
        self.query_one("#turn", Static).update(self._turn_text(obs))
        message = self.query_one("#message", Static)
        message.update(self.message)
        message.set_class(self.message_warning, "-warning")
        message.set_class(not self.message, "-empty")
        self._show_hand(viewer, obs)

    def _show_hand(self, viewer: int | None, obs: dict[str, Any]) -> None:
        hand_view = self.query_one(HandView)
        curtain = self.query_one("#curtain", Static)
        title = self.query_one("#hand-title", Static)
        if viewer is None:
            hand_view.hide_all()
            hand_view.display = False
            curtain.display = True
            curtain.update(self._curtain_text(obs))
            title.update("")
            return
        hand = cards(obs["hand"])
        order = self.hand_order(viewer, hand)
        drawn = parse_card(obs["drawn"]) if obs["drawn"] else None
        if drawn is not None and drawn != self.drawn and drawn in order:
            self.cursor = order.index(drawn)  # the card just drawn, ready to meld or keep
        self.drawn = drawn
        self.selected &= set(hand)
        self.cursor = max(0, min(self.cursor, len(order) - 1))
        curtain.display = False
        hand_view.display = True
        hand_view.show(HandPicture(order, self.cursor, self.selected, drawn))
        owner = "Your hand" if len(self.people) == 1 else f"{self.seat_label(viewer)}'s hand"
        points = sum(POINTS[c] for c in hand)
        line = Text(f"{owner} · {plural(len(hand), 'card')} · {points} points in hand")
        if drawn in hand:
            line.append(" · new: ")
            line.append_text(card_label(drawn))
        title.update(line)

    def _curtain_text(self, obs: dict[str, Any]) -> Text:
        seat = obs["to_move"]
        if obs["over"]:
            return Text("The game is over.", style="dim")
        if seat in self.people:
            name = self.local.seats[seat].name
            return Text.assemble(
                ("Hand hidden. ", "dim"),
                (f"Pass the keyboard to {name}", "bold"),
                (", who presses ", ""),
                ("Enter", "bold reverse"),
                (" to see it.", ""),
            )
        return Text("No hand shown while the computer plays.", style="dim")

    def hand_order(self, seat: int, hand: Sequence[Card]) -> list[Card]:
        """*hand* in *seat*'s order: its cards in the order its player left them, new cards
        sorted in (or, once the player arranged cards by hand, at the right end)."""
        held = set(hand)
        order = [c for c in self.orders.get(seat, []) if c in held]
        order += [c for c in hand if c not in set(order)]
        sort = self.sorts.get(seat, "suit")
        if sort is not None:
            order = sort_by_rank(order, suit_too=sort == "suit")
        self.orders[seat] = order
        return order

    def _turn_text(self, obs: dict[str, Any]) -> Text:
        seat = obs["to_move"]
        if obs["over"]:
            return Text("Game over", style="bold")
        if seat == CHANCE:
            return Text(f"Dealing round {obs['round']}…", style="bold")
        if seat in self.local.bots:
            return Text.assemble((self.local.seats[seat].name, "bold"), " is playing…")
        if self.viewer() != seat:
            return Text.assemble((self.local.seats[seat].name, "bold"), "'s turn")
        who = "Your turn" if len(self.people) == 1 else f"{self.local.seats[seat].name}, your turn"
        text = Text.assemble((who, "bold"), ": ")
        if obs["phase"] == "draw":
            text.append("S", "bold reverse")
            text.append(f" draws from the stock ({obs['stock_count']} left)")
            if obs["discard_top"]:
                text.append(" or ")
                text.append("T", "bold reverse")
                text.append(" takes ")
                text.append_text(card_label(parse_card(obs["discard_top"])))
            return text
        for key, what in (("M", " meld, "), ("L", " lay off, "), ("D", " discard to end the turn")):
            text.append(key, "bold reverse")
            text.append(what)
        if obs["taken"] and obs["taken"] in obs["hand"]:
            text.append(" · keep ")
            text.append_text(card_label(parse_card(obs["taken"])))
            text.append(", just taken")
        return text

    def score_rows(self) -> list[ScoreRow]:
        obs = self.observation()
        over = obs["over"]
        on_table = [0] * len(self.local.seats)
        for meld in obs["table"]:
            for text, owner in zip(meld["cards"], meld["owners"], strict=True):
                on_table[owner] += POINTS[parse_card(text)]
        rows = []
        for seat, info in enumerate(self.local.seats):
            # Every row keeps a note line while the game goes on: the scoreboard's height
            # stays the same (Textual may miss a height change made during a resize).
            note = ""
            if obs["to_move"] == CHANCE:
                note = "dealing…"
            elif not over:
                note = f"{plural(obs['hand_counts'][seat], 'card')} · {on_table[seat]} on table"
                known = obs["known"][seat]
                if known and seat != obs["you"]:
                    note += " · holds " + " ".join(str(card_label(c)) for c in cards(known))
            rows.append(
                ScoreRow(
                    info.name,
                    obs["scores"][seat],
                    turn=seat == obs["to_move"],
                    won=seat in obs["winners"],
                    note=note,
                )
            )
        return rows

    def explain(self, text: str, *, warning: bool = True) -> None:
        self._hint_said = False
        text = with_symbols(text)
        self.message = text
        self.message_warning = warning
        if self.is_mounted:
            message = self.query_one("#message", Static)
            message.update(text)
            message.set_class(warning, "-warning")
            message.set_class(not text, "-empty")

    _hint_said = False
    """True while the message is a hint about the keys just pressed (select cards first)."""

    def _hint(self, text: str) -> None:
        """Explain what the keys just pressed need: a hint about this position, which goes
        once a server table moves on (:meth:`rebuilt`)."""
        self.explain(text)
        self._hint_said = True

    def _say(self, text: str) -> None:
        self.message = text
        self.message_warning = False

    def _history(self, round_number: int, *parts: str | Text | tuple[str, str]) -> None:
        """Add a line to the history, marked with its round."""
        line = Text.assemble((f"r{round_number:<3}", "dim"), *parts)
        self.query_one("#history", RichLog).write(line)

    # --- what happened ------------------------------------------------------------------

    def preview(self, action: Action) -> None:
        """Say what the computer player is about to do (it is applied after a pause)."""
        obs = self.local.state.observation(None)
        name = self.seat_label(obs["to_move"])
        self._say(str(describe(name, action, obs, present=True)))
        self.show_state()

    def _deal_line(self, obs: dict[str, Any]) -> None:
        """The history line of a deal (*obs*: the public view after it)."""
        top = obs["discard_top"]
        self._history(
            obs["round"],
            f"Round {obs['round']}: the cards are dealt; ",
            card_label(parse_card(top)) if top else Text("-"),
            " is turned up",
        )

    def _move_line(self, seat: int, action: Action, was: dict[str, Any], drawn: str | None) -> Text:
        """Write and return the history line of *seat*'s *action* (*was*: the public view
        before it). *drawn*, the card drawn from the stock, is named only when one person
        plays against the computer and drew it."""
        line = describe(self.seat_label(seat), action, was, present=False)
        if isinstance(action, Draw) and not action.discard and drawn and not self.hotseat:
            line.append(" (")  # only one person at the table: their log may name the card
            line.append_text(card_label(parse_card(drawn)))
            line.append(")")
        self._history(was["round"], line)
        return line

    def _round_line(self, obs: dict[str, Any]) -> RoundSummary:
        """The history line of a round's end (*obs*: the public view after it)."""
        summary = RoundSummary.from_observation(obs["last_round"])
        names = self.seat_labels()
        scores = ", ".join(
            f"{n} {r:+d} → {s:,}"
            for n, r, s in zip(names, summary.round_scores, summary.scores, strict=True)
        )
        self._history(summary.round, ("Round over: ", "bold"), f"{summary.how(names)}; {scores}")
        return summary

    def _rebuild_history(self) -> None:
        """Write the history of a resumed game, replaying its events (what the live table
        wrote: the same lines, the same cards named)."""
        people = self.people
        me = people[0] if len(people) == 1 else None

        def write(player: int, action: Action, before: RummyState, now: RummyState) -> None:
            step = now.describe_step(before, player, action)
            obs = now.observation(None)
            if player == CHANCE:
                self._deal_line(obs)
                return
            assert step.seat is not None
            seat = step.seat
            drawn = now.drawn if seat == me and isinstance(action, Draw) else None
            was = before.observation(None)  # the table the move was made on, to name it
            self._move_line(seat, action, was, None if drawn is None else card_text(drawn))
            if step.has("round_over"):
                self._round_line(obs)

        self.replay_history(write)

    def after(self, player: int, action: Action, before: State) -> None:
        step = self.local.state.describe_step(before, player, action)
        obs = self.local.state.observation(None)
        if player == CHANCE:
            self._deal_line(obs)
            if obs["round"] > 1:
                self._say("")  # the last round's news is in the summary and the history
            return
        assert step.seat is not None
        seat = step.seat
        was = before.observation(None)  # the table the move was made on, to name it
        drawn = self.observation()["drawn"] if seat == self.viewer() else None
        line = self._move_line(seat, action, was, drawn)
        if seat in self.local.bots:
            self._say(str(line))
        elif player >= 0:
            self._say("")
            if not isinstance(action, Draw):
                self.selected.clear()
        if step.has("turn_over"):
            self.revealed = None  # the turn is over: the next person uncovers their own hand
        if step.has("round_over"):
            self.final_table = table_after(melds_of(was), action, seat)
            self.final_round = was["round"]
            self._round_over(obs)

    def _scores(self, obs: dict[str, Any]) -> str:
        return ", ".join(
            f"{n} {s:,}" for n, s in zip(self.seat_labels(), obs["scores"], strict=True)
        )

    def _round_over(self, obs: dict[str, Any]) -> None:
        summary = self._round_line(obs)
        names = self.seat_labels()
        self._say(f"Round {summary.round} is over: {summary.how(names)}.")
        if not obs["over"]:
            self._show_summary(summary, last=False)

    def _show_summary(
        self, summary: RoundSummary, *, last: bool, then: Callable[[], None] | None = None
    ) -> None:
        self.summarized = summary.round
        names = [s.name for s in self.local.seats]

        def closed(_: None) -> None:
            if not last:
                self.final_table = None
                self.show_state()
            if then is not None:
                then()

        self.app.push_screen(RoundSummaryScreen(summary, names, last=last), closed)

    def finish(self) -> None:
        """The game is over: the last round's summary first, then the final scores."""
        if self._over_shown:
            return
        last = self.local.state.observation(None)["last_round"]
        if last is not None and self.summarized < last["round"]:
            summary = RoundSummary.from_observation(last)
            self.autosave()  # the statistics are recorded now, whatever happens next
            self._show_summary(summary, last=True, then=lambda: TableScreen.finish(self))
            return
        super().finish()

    def game_over_note(self) -> str:
        """Each person's statistics against the computer, now that the finished game is in
        them (``docs/rules/rummy.md#statistics``); none in a game between people only."""
        database = self.settings.database
        seats = counted_seats(persons(self.local.people()))
        if database is None or self.save_error is not None or not seats:
            return ""
        lines = []
        for seat in seats:
            name = self.local.seats[seat].name
            for row in rummy_stats(database, name):
                games = plural(row.played, "game")
                lines.append(
                    f"{name} has won {row.won} of {games} against the computer; winning "
                    f"streak {row.current_streak}, longest {row.longest_streak}"
                )
        return "\n".join([*lines, "(parlour stats rummy)"]) if lines else ""

    def rebuilt(self) -> None:
        """A server table's state was rebuilt from the observation: forget selected cards
        no longer in the hand, and show a round that ended since (its summary and history
        line), as :meth:`after` does for a local move. A "Wait" or a hint about the keys
        (select cards first) said before is dropped: the table has moved on (it stayed up
        through the computer's turn into the person's, or after the person's own meld)."""
        if self.message.startswith("Wait") or self._hint_said:
            self._say("")
            self._hint_said = False
        viewer = self.viewer()
        state = cast(RummyState, self.local.state)
        hand = state.hands[viewer] if viewer is not None else 0
        self.selected = {c for c in self.selected if hand >> c & 1}
        obs = self.local.state.observation(None)
        last = obs["last_round"]
        if last is not None and self.summarized < last["round"] and not obs["over"]:
            self._round_over(obs)

    def reset(self) -> None:
        self.orders.clear()
        self.sorts.clear()
        self.selected.clear()
        self.cursor = 0
        self.revealed = None
        self.summarized = 0
        self.drawn = None
        self.final_table = None
        self._say("New game with the same players.")
        self.query_one("#history", RichLog).clear()

    # --- a person's keys ----------------------------------------------------------------

    def _my_seat(self) -> int | None:
        """The seat of the person to move, if their hand is showing; else explain why
        there is nothing to do and return ``None``."""
        state = self.local.state
        seat = state.current_player()
        if state.is_terminal():
            self.explain("The game is over.")
        elif seat in self.local.bots:
            self.explain(f"Wait: {self.local.seats[seat].name} is playing.")
        elif seat == CHANCE:
            self.explain("Wait: the cards are being dealt.")
        elif self.waiting or seat < 0:
            self.explain("Wait…")
        elif self.viewer() != seat:
            self.explain(f"{self.local.seats[seat].name}: press Enter to see your hand first.")
        else:
            return seat
        return None

    def _hand(self) -> list[Card]:
        viewer = self.viewer()
        return self.orders.get(viewer, []) if viewer is not None else []

    def action_reveal(self) -> None:
        """Enter: in a game between people, the person to move uncovers their hand."""
        state = self.local.state
        seat = state.current_player()
        if seat in self.people and self.hotseat and self.revealed != seat and not self.waiting:
            self.revealed = seat
            self.cursor = 0
            self.selected.clear()
            self.drawn = None
            self._say("")
            self.show_state()

    def action_cursor(self, step: int) -> None:
        """Move the cursor *step* places along the hand."""
        hand = self._hand()
        if hand:
            self.cursor = (self.cursor + step) % len(hand)
            self.show_state()

    def action_select(self) -> None:
        """Select or unselect the card under the cursor."""
        hand = self._hand()
        if hand:
            self.selected ^= {hand[self.cursor]}
            self.show_state()

    def action_clear(self) -> None:
        """Unselect every card."""
        self.selected.clear()
        self.show_state()

    @on(HandView.Clicked)
    def _clicked(self, event: HandView.Clicked) -> None:
        self.cursor = event.index
        self.action_select()

    def action_move_card(self, step: int) -> None:
        """Move the card under the cursor *step* places (the hand stays in that order)."""
        viewer = self.viewer()
        hand = self._hand()
        i, j = self.cursor, self.cursor + step
        if viewer is None or not 0 <= i < len(hand) or not 0 <= j < len(hand):
            return
        hand[i], hand[j] = hand[j], hand[i]
        self.sorts[viewer] = None
        self.cursor = j
        self.show_state()

    def action_sort(self, sort: str) -> None:
        """Sort the hand: ``"suit"`` by rank then suit, ``"rank"`` by rank only."""
        viewer = self.viewer()
        if viewer is None:
            return
        self.sorts[viewer] = sort
        self.show_state()

    def action_draw(self, from_discard: bool) -> None:
        """S: draw the top card of the stock; T: take the top card of the discard pile."""
        if self._my_seat() is not None:
            self.play(DRAW_DISCARD if from_discard else DRAW_STOCK)

    def action_meld(self) -> None:
        """M: lay down the selected cards as a set or a run."""
        if self._my_seat() is None:
            return
        if not self.selected:
            self._hint("Select the cards of a set or a run first (Space, or click them).")
            return
        self.play(Meld(mask_of(self.selected)))

    def action_discard(self) -> None:
        """D: discard the selected card, or the card under the cursor if none is selected."""
        if self._my_seat() is None:
            return
        if len(self.selected) > 1:
            self._hint("Discard one card: select only it, or none for the card at the cursor.")
            return
        hand = self._hand()
        if not hand:
            return
        chosen = next(iter(self.selected)) if self.selected else hand[self.cursor]
        self.play(DISCARDS[chosen])

    def action_lay_off(self) -> None:
        """L: lay the selected cards (none selected: the card under the cursor, as for D)
        off onto a meld on the table; asks which when they fit more than one."""
        if self._my_seat() is None:
            return
        hand = self._hand()
        if not hand:
            return
        cards = set(self.selected) if self.selected else {hand[self.cursor]}
        melds = melds_of(self.observation())
        if not melds:
            self._hint("There is no meld on the table yet to lay off onto.")
            return
        plans = [plan_lay_off(self.local.state, cards, t) for t in range(len(melds))]
        fits = [t for t, (steps, error) in enumerate(plans) if error is None]
        chosen = sorted(cards, key=lambda c: (c % 13, c // 13))
        if not fits:
            self._hint(no_fit_reason(chosen, plans))
            return
        if len(fits) == 1:
            self._lay_off(plans[fits[0]][0])
            return
        question = Text("Lay off ")
        question.append_text(cards_label(chosen))
        question.append(" onto which meld?")

        def picked(target: int | None) -> None:
            if target is not None:
                self._lay_off(plans[target][0])

        self.app.push_screen(
            LayOffScreen(question, [(t, melds[t]) for t in fits], self.seat_labels()), picked
        )

    def _lay_off(self, steps: list[LayOff]) -> None:
        for step in steps:
            if not self.play(step):
                return


class RummyApp(TableApp):
    """The Rummy app: :class:`RummyScreen` with its stylesheet. Q (asks first) or Ctrl+Q
    saves and quits."""

    CSS_PATH = "rummy.tcss"
    TITLE = "Rummy"
    SCREEN = RummyScreen
    ENABLE_COMMAND_PALETTE = False  # its footer key would crowd out the game's keys
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit (saved)", priority=True, show=False),
        Binding("ctrl+q", "leave_table", "Leave table", priority=True, show=False),
    ]


def make_app(local: GameSource, settings: TableSettings) -> RummyApp:
    """The app factory the registry names (its ``GameSpec.terminal_app``)."""
    return RummyApp(local, settings)


SHADOW_BUILDERS["rummy"] = rummy_shadow
