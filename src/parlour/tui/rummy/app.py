"""The Rummy table in the terminal: ``parlour play rummy --players "me,cpu:hard"``.

The app drives a :class:`~parlour.session.LocalGame`: after every event it redraws, deals
when a round starts (forced deals first, for tests; then the game's chance source), lets a
computer player think in a thread worker and shows its move after a pause a person can
follow, and waits for keys when a person is to move (the game is saved then). :meth:`play`
is the one door into the engine: a refused move is explained on screen and changes nothing.
Keys and rules: ``help.md`` beside this module (H).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Markdown, RichLog, Static

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, Action
from parlour.games.rummy.cards import Card, card_symbol, cards_of, sort_by_rank
from parlour.games.rummy.notation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    Deal,
    Discard,
    Draw,
    LayOff,
    Meld,
    Skip,
)
from parlour.games.rummy.rules import RummyState
from parlour.session import LocalGame
from parlour.tui.rummy.widgets import HandView, TableView

HELP_FILE = Path(__file__).with_name("help.md")


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (Y/N or the buttons)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question)
            yield Button("Yes (Y)", id="yes", variant="primary")
            yield Button("No (N)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class MeldNumberScreen(ModalScreen[int | None]):
    """Asks which meld on the table to lay off onto (its number; Esc cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"Lay off onto which meld? (1-{self.count}, Enter)")
            yield Input(id="number", type="integer")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(int(text) if text.isdigit() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The rules and keys (``help.md``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,q", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        yield Markdown(HELP_FILE.read_text(encoding="utf-8"), id="help-body")

    def action_close(self) -> None:
        self.dismiss(None)


class BotChose(Message):
    """Posted from the worker thread with the computer player's choice."""

    def __init__(self, generation: int, action: Action) -> None:
        super().__init__()
        self.generation = generation
        self.action = action


class RummyApp(App[int | None]):
    """A game of Rummy at one table. Returns the save id (``None`` if not saved) on exit.

    ``pause`` is the time in seconds a computer move stays on screen before the next step;
    ``deals`` are forced shuffles used before the game's chance source (tests).
    """

    CSS_PATH = "rummy.tcss"
    TITLE = "parlour: Rummy"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "select", "Select"),
        Binding("s", "draw_stock", "Stock"),
        Binding("t", "take_discard", "Take discard"),
        Binding("m", "meld", "Meld"),
        Binding("l", "lay_off", "Lay off"),
        Binding("d", "discard", "Discard"),
        Binding("n", "sort(True)", "Sort N/S"),
        Binding("r", "sort(False)", "Sort N"),
        Binding("less_than_sign,shift+left", "move_card(-1)", "Move left", show=False),
        Binding("greater_than_sign,shift+right", "move_card(1)", "Move right", show=False),
        Binding("h", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(
        self,
        local: LocalGame,
        *,
        engine: Engine | None = None,
        pause: float = 0.8,
        deals: Sequence[Deal] = (),
    ) -> None:
        super().__init__()
        if not isinstance(local.state, RummyState):
            raise ParlourError(f"the Rummy app cannot play {local.game.spec.name}")
        self.local = local
        self.engine = engine
        self.pause = pause
        self.deals = list(deals)
        self.order: list[Card] = []
        self.cursor = 0
        self.selected: set[Card] = set()
        self.generation = 0
        self.thinking = False
        self.message = ""

    @property
    def state(self) -> RummyState:
        """The game state (read it; change it only through :meth:`play`)."""
        state = self.local.state
        assert isinstance(state, RummyState)
        return state

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="opponents")
        yield Label("Table", id="table-title")
        yield TableView(id="table")
        yield Label("Your hand", id="hand-title")
        yield HandView(id="hand")
        yield Static(id="message")
        yield RichLog(id="log", markup=False, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.advance()

    # --- who is who ---------------------------------------------------------------------

    def names(self) -> list[str]:
        """Short seat names: 'you' for the person whose hand is shown."""
        viewer = self.viewer()
        return ["you" if i == viewer else s.name for i, s in enumerate(self.local.seats)]

    def viewer(self) -> int | None:
        """The person whose hand is shown: the person to move, else the first person."""
        seat = self.state.current_player()
        if seat >= 0 and seat not in self.local.bots:
            return seat
        people = [i for i, s in enumerate(self.local.seats) if not s.is_bot]
        return people[0] if people else None

    # --- drawing ------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw every widget from the state."""
        state = self.state
        names = self.names()
        viewer = self.viewer()
        hand = state.hands[viewer] if viewer is not None else 0
        held = set(cards_of(hand))
        self.order = [c for c in self.order if c in held]
        self.order += sort_by_rank(held - set(self.order))
        self.selected &= held
        self.cursor = max(0, min(self.cursor, len(self.order) - 1))
        top = card_symbol(state.discard[-1]) if state.discard else "-"
        scores = "  ".join(f"{n} {p}" for n, p in zip(names, state.scores, strict=True))
        self.query_one("#status", Static).update(
            f"Round {state.round} · stock {len(state.stock)} · discard {top} · {scores}"
            f" · {self.turn_text()}"
        )
        lines = []
        for seat, name in enumerate(names):
            if seat == viewer:
                continue
            known = " ".join(card_symbol(c) for c in cards_of(state.known[seat]))
            count = state.hands[seat].bit_count()
            lines.append(
                f"{name}: {count} card{'' if count == 1 else 's'}"
                + (f" (known: {known})" if known else "")
            )
        self.query_one("#opponents", Static).update("\n".join(lines))
        self.query_one(TableView).show(state.table, names)
        drawn = state.drawn if state.seat == viewer else None
        self.query_one(HandView).show(self.order, self.cursor, self.selected, drawn)
        self.query_one("#message", Static).update(self.message)

    def turn_text(self) -> str:
        state = self.state
        if state.is_terminal():
            return "game over"
        seat = state.current_player()
        if seat == CHANCE:
            return "dealing"
        who = self.names()[seat]
        step = "draw" if state.phase == "draw" else "meld, lay off or discard"
        return f"to move: {who} ({step})"

    def say(self, text: str) -> None:
        """Show *text* on the message line."""
        self.message = text
        self.query_one("#message", Static).update(text)

    def log_line(self, text: str) -> None:
        """Add *text* to the game log."""
        self.query_one("#log", RichLog).write(Text(text))

    # --- the loop -----------------------------------------------------------------------

    def advance(self) -> None:
        """Redraw, then deal or let a computer player move; wait when a person is to move."""
        self.refresh_view()
        state = self.state
        if state.is_terminal():
            self.finish()
        elif state.is_chance_node():
            deal = self.deals.pop(0) if self.deals else state.sample_chance(self.local.rng)
            self.play(deal, player=CHANCE)
        elif self.local.bot_to_move():
            if not self.thinking:
                self.thinking = True
                self.later(self._think)
        else:
            self.autosave()

    def later(self, step: Callable[[], None]) -> None:
        """Run *step* after the pause (at once with no pause)."""
        generation = self.generation

        def run() -> None:
            if generation == self.generation:
                step()

        if self.pause > 0:
            self.set_timer(self.pause, run)
        else:
            self.call_later(run)

    def _think(self) -> None:
        self._choose(self.generation)

    @work(thread=True, exclusive=True, group="bot")
    def _choose(self, generation: int) -> None:
        action = self.local.bot_choice()
        self.post_message(BotChose(generation, action))

    def on_bot_chose(self, message: BotChose) -> None:
        if message.generation != self.generation:
            return
        self.thinking = False
        self.play(message.action)

    def play(self, action: Action, *, player: int | None = None) -> bool:
        """Apply *action* (for the player to move, or *player*): the one door into the
        engine. A refused move is shown on the message line and changes nothing."""
        state = self.state
        who = state.current_player() if player is None else player
        rounds = len(state.round_scores)
        before_top = state.discard[-1] if state.discard else None
        try:
            state.apply(action, player=player)
        except ParlourError as err:
            self.say(f"Refused: {err}")
            self.refresh_view()
            return False
        self.message = ""
        self.describe(who, action, before_top)
        if len(state.round_scores) > rounds:
            self.describe_round()
        self.call_later(self.advance)
        return True

    def describe(self, who: int, action: Action, before_top: Card | None) -> None:
        """Log what *who* just did, in words (hidden cards stay hidden)."""
        if who == CHANCE:
            self.log_line(f"Round {self.state.round}: the cards are dealt.")
            return
        names = self.names()
        name = "host" if who < 0 else names[who]
        if isinstance(action, Draw):
            if action.discard and before_top is not None:
                self.log_line(f"{name} took {card_symbol(before_top)} from the discard pile.")
            elif who == self.viewer() and self.state.drawn is not None:
                self.log_line(f"{name} drew {card_symbol(self.state.drawn)} from the stock.")
            else:
                self.log_line(f"{name} drew from the stock.")
        elif isinstance(action, Meld):
            cards = (
                " ".join(card_symbol(c) for c in self.state.table[-1].cards)
                if self.state.table
                else ""
            )
            self.log_line(f"{name} melded {cards}.")
        elif isinstance(action, LayOff):
            self.log_line(
                f"{name} laid off {card_symbol(action.card)} on meld {action.target + 1}."
            )
        elif isinstance(action, Discard):
            self.log_line(f"{name} discarded {card_symbol(action.card)}.")
        elif isinstance(action, Skip):
            self.log_line(f"{self.turn_text()}: a turn was skipped.")

    def describe_round(self) -> None:
        last = self.state.last_round
        if last is None:
            return
        names = self.names()
        how = "the stock ran out" if last["ended"] == "stock" else f"{names[last['out']]} went out"
        parts = [
            f"{n} {r:+d} ({t} on the table, {h} in hand)"
            for n, r, t, h in zip(
                names, last["round_scores"], last["table_points"], last["hand_points"], strict=True
            )
        ]
        self.log_line(f"Round {last['round']} over, {how}: " + "; ".join(parts) + ".")
        for seat, cards in enumerate(last["hands"]):
            if cards and seat != self.viewer():
                self.log_line(f"  {names[seat]} held {' '.join(cards)}.")
        self.say(
            f"Round {last['round']} over: "
            + ", ".join(f"{n} {s}" for n, s in zip(names, last["scores"], strict=True))
        )

    def finish(self) -> None:
        """The game is over: save (which updates the statistics) and say who won."""
        self.autosave()
        result = self.state.result()
        names = self.names()
        winners = " and ".join(names[w] for w in result.winners)
        line = (
            f"Game over: {winners} {'win' if winners == 'you' or ' and ' in winners else 'wins'} "
            + (f"with {result.scores[result.winners[0]]} points. Press Q to leave.")
        )
        if self.message != line:
            self.log_line(line)
            self.say(line)

    def autosave(self) -> None:
        """Save the game (when there is a database); a failure is shown, not raised."""
        if self.engine is None:
            return
        try:
            self.local.save(self.engine)
        except (SQLAlchemyError, OSError, ParlourError) as err:
            self.say(f"could not save the game: {err}")

    # --- a person's keys ----------------------------------------------------------------

    def my_turn(self) -> bool:
        if self.local.person_to_move():
            return True
        self.say(
            "Wait: it is not your turn." if not self.state.is_terminal() else "The game is over."
        )
        return False

    def action_cursor(self, step: int) -> None:
        if self.order:
            self.cursor = (self.cursor + step) % len(self.order)
            self.refresh_view()

    def action_select(self) -> None:
        if self.order:
            c = self.order[self.cursor]
            self.selected ^= {c}
            self.refresh_view()

    def action_move_card(self, step: int) -> None:
        i, j = self.cursor, self.cursor + step
        if 0 <= i < len(self.order) and 0 <= j < len(self.order):
            self.order[i], self.order[j] = self.order[j], self.order[i]
            self.cursor = j
            self.refresh_view()

    def action_sort(self, suit_too: bool) -> None:
        self.order = sort_by_rank(self.order, suit_too=suit_too)
        self.refresh_view()

    def action_draw_stock(self) -> None:
        if self.my_turn():
            self.play(DRAW_STOCK)

    def action_take_discard(self) -> None:
        if self.my_turn():
            self.play(DRAW_DISCARD)

    def action_meld(self) -> None:
        if not self.my_turn():
            return
        if not self.selected:
            self.say("Select the cards to meld first (space).")
            return
        mask = 0
        for c in self.selected:
            mask |= 1 << c
        if self.play(Meld(mask)):
            self.selected.clear()

    def action_discard(self) -> None:
        if not self.my_turn():
            return
        if len(self.selected) > 1:
            self.say("Discard one card: select only one (or none, for the card under the cursor).")
            return
        if not self.order:
            return
        c = next(iter(self.selected)) if self.selected else self.order[self.cursor]
        if self.play(Discard(c)):
            self.selected.clear()

    def action_lay_off(self) -> None:
        if not self.my_turn():
            return
        if not self.selected:
            self.say("Select the cards to lay off first (space).")
            return
        count = len(self.state.table)
        if count == 0:
            self.say("Refused: there are no melds on the table to lay off onto.")
            return
        if count == 1:
            self.lay_off_onto(1)
            return
        self.push_screen(MeldNumberScreen(count), self.lay_off_onto)

    def lay_off_onto(self, number: int | None) -> None:
        """Lay the selected cards off onto meld *number*, one by one in an order that fits;
        all or nothing: if one cannot go, nothing is laid off and the reason is shown."""
        if number is None:
            return
        trial = self.state.clone()
        left = sorted(self.selected)
        steps: list[LayOff] = []
        while left:
            for c in left:
                try:
                    trial.apply(LayOff(c, number - 1))
                except ParlourError:
                    continue
                steps.append(LayOff(c, number - 1))
                left.remove(c)
                break
            else:
                try:
                    trial.apply(LayOff(left[0], number - 1))
                except ParlourError as err:
                    self.say(f"Refused: {err}")
                return
        for step in steps:
            if not self.play(step):
                return
        self.selected.clear()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        if self.state.is_terminal():
            self.exit(self.local.save_id)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.generation += 1
                self.autosave()
                self.exit(self.local.save_id)

        saved = " It is saved: resume it with --resume." if self.engine is not None else ""
        self.push_screen(ConfirmScreen("Quit this game?" + saved), answered)


def make_app(local: LocalGame, engine: Engine | None = None, pause: float = 0.8) -> RummyApp:
    """The Rummy app for *local* (the factory the terminal registry calls)."""
    return RummyApp(local, engine=engine, pause=pause)
