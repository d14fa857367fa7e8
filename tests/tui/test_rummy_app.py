"""The Rummy terminal app, driven headless with Textual's pilot on forced shuffles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import RichLog

from parlour.engine.records import read_record, replay
from parlour.games.rummy.cards import card_symbol, card_text, cards_of, parse_card, parse_cards
from parlour.games.rummy.notation import parse
from parlour.games.rummy.state import RummyState, arrange_deck
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.storage.rummy_stats import rummy_stats
from parlour.tui.common.chance import ScriptedChance
from parlour.tui.common.modals import ConfirmScreen, GameOverScreen, HelpScreen, SaveRecordScreen
from parlour.tui.common.table import Pace, TableExit, TableSettings
from parlour.tui.rummy.app import RummyApp, RummyScreen, make_app
from parlour.tui.rummy.modals import LayOffScreen, RoundSummaryScreen
from parlour.tui.rummy.view import table_after, with_symbols
from parlour.tui.rummy.widgets import HandView, MeldPicture, meld_line
from tests.tui.helpers import press, settle

SIZE = (80, 24)
ME = "5H 6H 7H 8S 8D 8C 8H 9H 2S KD"
CPU = "3C 5C 7D 9D JS 2H 10S 4S 6S KC"
STOCK = "QS 4C 2D 10D 3H"  # the first cards drawn: QS by seat 0, 4C by seat 1, ...


def deal(me: str = ME, other: str = CPU, up: str = "JD", stock: str = STOCK) -> str:
    """A forced shuffle in notation: seat 0 gets *me*, seat 1 *other*, *up* is turned up."""
    hands = [parse_cards(me.split()), parse_cards(other.split())]
    return str(arrange_deck(hands, parse_card(up), parse_cards(stock.split())))


def rummy_app(
    players: str = "me,cpu:easy",
    deals: tuple[str, ...] = (),
    *,
    saved: bool = True,
    local: LocalGame | None = None,
    pace: Pace | None = None,
    record_dir: Path | None = None,
    **options: Any,
) -> RummyApp:
    game = local or LocalGame.new("rummy", players, **options)
    settings = TableSettings(
        chance=ScriptedChance(deals or (deal(),)),
        pace=pace or Pace.instant(),
        database=open_database() if saved else None,
        record_dir=record_dir,
    )
    return make_app(game, settings)


def table(app: RummyApp) -> RummyScreen:
    screen = app.table
    assert isinstance(screen, RummyScreen)
    return screen


def state(app: RummyApp) -> RummyState:
    s = app.table.local.state
    assert isinstance(s, RummyState)
    return s


def hand(app: RummyApp) -> list[str]:
    """The cards the hand shows, in their order."""
    return [card_text(c) for c in app.table.query_one(HandView).shown()]


def text(app: RummyApp, selector: str) -> str:
    """What the widget *selector* shows on the screen, its lines joined by spaces."""
    region = app.table.query_one(selector).region
    strips = app.table._compositor.render_strips()[region.y : region.bottom]
    return " ".join(strip.text[region.x : region.right].strip() for strip in strips)


def message(app: RummyApp) -> str:
    return table(app).message


def history(app: RummyApp) -> list[str]:
    return [line.text for line in app.table.query_one("#history", RichLog).lines]


def screen_text(app: RummyApp) -> str:
    """Everything the table screen shows, as plain text (Textual's compositor)."""
    return "\n".join(strip.text for strip in app.table._compositor.render_strips())


def modal_text(app: RummyApp) -> str:
    """Everything on the screen, the modal on top included, as plain text."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


async def select(pilot: Pilot[Any], app: RummyApp, *cards: str) -> None:
    """Move the cursor to each card, as a person would, and select it with Space."""
    for name in cards:
        assert name in hand(app), f"{name} is not in the hand {hand(app)}"
        while hand(app)[table(app).cursor] != name:
            await press(pilot, "right")
        await press(pilot, "space")


def private_cards_shown(app: RummyApp, seat: int) -> list[str]:
    """The cards of *seat*'s hand that nobody else may know, found on the screen."""
    s = state(app)
    secret = s.hands[seat] & ~s.known[seat]
    shown = screen_text(app)
    return [card_text(c) for c in cards_of(secret) if card_symbol(c) in shown]


async def test_draw_meld_lay_off_discard_and_the_computer_plays() -> None:
    app = rummy_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert hand(app) == ["2S", "5H", "6H", "7H", "8S", "8H", "8D", "8C", "9H", "KD"]
        assert "S draws from the stock (31 left) or T takes J♦" in text(app, "#turn")
        assert private_cards_shown(app, 1) == []
        before = state(app).to_json()
        await press(pilot, "d")  # discarding before drawing: refused with the reason
        assert message(app).startswith("draw first: take the top card of the stock")
        assert state(app).to_json() == before
        await press(pilot, "s")
        assert "QS" in hand(app) and hand(app)[table(app).cursor] == "QS"  # the new card
        assert "new: Q♠" in text(app, "#hand-title")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m")
        await select(pilot, app, "8S", "8D", "8C")
        await press(pilot, "m")
        assert [m.text() for m in state(app).table] == ["5H 6H 7H", "8S 8D 8C"]
        # 8H fits both melds: the app asks which one, and 2 picks the set
        await select(pilot, app, "8H")
        await press(pilot, "l")
        assert isinstance(app.screen, LayOffScreen)
        await press(pilot, "2")
        assert state(app).table[1].text() == "8S 8H 8D 8C"
        assert state(app).table[1].owners == (0, 0, 0, 0)
        # 9H now fits no meld: refused with the rule, nothing changes
        before = state(app).to_json()
        await select(pilot, app, "9H")
        await press(pilot, "l")
        assert message(app) == (
            "9♥ fits none of the 2 melds: a run takes the next card of its suit at either "
            "end, a set of three its fourth card"
        )
        assert state(app).to_json() == before
        await press(pilot, "space")  # unselect 9H; discard KD at the cursor
        await select(pilot, app, "KD")
        table(app).selected.clear()
        await press(pilot, "d")
        # the computer (easy) played its turn; it is the person's turn again
        assert state(app).current_player() == 0 and state(app).phase == "draw"
        assert history(app) == [
            "r1  Round 1: the cards are dealt; J♦ is turned up",
            "r1  you drew from the stock (Q♠)",
            "r1  you melded 5♥ 6♥ 7♥ (a run)",
            "r1  you melded 8♠ 8♦ 8♣ (a set)",
            "r1  you laid off 8♥ on meld 2",
            "r1  you discarded K♦",
            # easy takes the discard only for a meld; it draws 4C, melds, discards high
            "r1  CPU 1 drew from the stock",
            "r1  CPU 1 melded 3♣ 4♣ 5♣ (a run)",
            "r1  CPU 1 discarded K♣",
        ]
        assert message(app) == "CPU 1 discarded K♣"
        # the table shows who owns each card; the scoreboard counts the cards in each hand
        assert "1 run  5♥ 6♥ 7♥ ·you" in text(app, "#melds")
        assert "2 set  8♠ 8♥ 8♦ 8♣ ·you" in text(app, "#melds")
        assert "3 run  3♣ 4♣ 5♣ ·CPU 1" in text(app, "#melds")
        scores = text(app, "#scores")
        assert "3 cards · 35 on table CPU 1 (easy)" in scores and "7 cards · 15 on table" in scores
        assert private_cards_shown(app, 1) == []


async def test_a_lay_off_of_several_cards_onto_the_only_meld_that_fits() -> None:
    app = rummy_app(deals=(deal(me="5H 6H 7H 8H 9H 2S 3D 4D 7S KD"),))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m")
        await select(pilot, app, "9H", "8H")  # laid off 8H then 9H, whatever the order
        await press(pilot, "l")
        assert state(app).table[0].text() == "5H 6H 7H 8H 9H"
        assert history(app)[-2:] == [
            "r1  you laid off 8♥ on meld 1",
            "r1  you laid off 9♥ on meld 1",
        ]
        # with one meld on the table, a card that does not fit gets the engine's reason
        await select(pilot, app, "KD")
        await press(pilot, "l")
        assert message(app) == (
            "K♦ does not fit meld 1 (5♥ 6♥ 7♥ 8♥ 9♥): a run is extended at either end with "
            "the next card of its suit"
        )


async def test_the_taken_card_may_not_be_discarded_and_the_turn_line_says_so() -> None:
    app = rummy_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "t")
        assert "JD" in hand(app)
        assert "keep J♦, just taken" in text(app, "#turn")
        await select(pilot, app, "JD")
        await press(pilot, "d")
        assert message(app) == (
            "J♦ was just taken from the discard pile: it may not be discarded this turn"
        )
        assert state(app).phase == "play" and state(app).current_player() == 0


async def test_the_taken_card_once_melded_is_no_longer_mentioned() -> None:
    app = rummy_app(deals=(deal(me="5H 6H 7H 2S 3D 4D 9S JC QD KD", up="8H"),))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "t")
        assert "keep 8♥, just taken" in text(app, "#turn")
        await select(pilot, app, "5H", "6H", "7H", "8H")
        await press(pilot, "m")
        assert state(app).table[0].text() == "5H 6H 7H 8H"
        assert "keep" not in text(app, "#turn") and "new:" not in text(app, "#hand-title")


async def test_sorting_and_moving_cards() -> None:
    other = "3C 5C 7D 9D JS 4H 10S 4S 6S KC"
    app = rummy_app(deals=(deal(me="KD 2S 2H 5H 6H 7H 8S AC 2C 9H", other=other),))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # dealt hands are sorted by rank then suit (the manual's N/S)
        assert hand(app) == ["AC", "2S", "2H", "2C", "5H", "6H", "7H", "8S", "9H", "KD"]
        await press(pilot, "right", "greater_than_sign", "greater_than_sign")
        assert hand(app)[:4] == ["AC", "2H", "2C", "2S"] and table(app).cursor == 3
        await press(pilot, "less_than_sign")
        assert hand(app)[:4] == ["AC", "2H", "2S", "2C"] and table(app).cursor == 2
        await press(pilot, "r")  # by rank only: the 2s keep their order
        assert hand(app)[:4] == ["AC", "2H", "2S", "2C"]
        await press(pilot, "n")  # by rank then suit
        assert hand(app)[:4] == ["AC", "2S", "2H", "2C"]
        # arranged by hand, a new card goes to the right end; sorted, it is sorted in
        await press(pilot, "greater_than_sign")
        await press(pilot, "s")
        assert hand(app)[-1] == "QS"
        await press(pilot, "n")
        assert hand(app)[-2:] == ["QS", "KD"]


async def test_clicking_a_card_selects_it() -> None:
    app = rummy_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        faces = list(app.table.query_one(HandView).query("CardFace"))
        await pilot.click(faces[3])
        await settle(pilot)
        assert table(app).selected == {parse_card("7H")} and table(app).cursor == 3
        await press(pilot, "right", "space", "c")  # C clears the selection
        assert table(app).selected == set() and table(app).cursor == 4


async def test_q_asks_then_saves_and_resume_continues() -> None:
    engine = open_database()
    app = rummy_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m", "q")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")  # keep playing
        assert not app._exit
        await press(pilot, "q", "y")
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "saved"
    assert result.save_id is not None
    local = LocalGame.resume(engine, result.save_id)
    assert local.state == state(app)
    again = rummy_app(local=local, deals=(deal(),))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert state(again).table[0].text() == "5H 6H 7H"
        assert "QS" in hand(again)
        # the history is written again from the game's events, as it was at the table
        assert history(again) == [
            "r1  Round 1: the cards are dealt; J♦ is turned up",
            "r1  you drew from the stock (Q♠)",
            "r1  you melded 5♥ 6♥ 7♥ (a run)",
            f"r1  Continuing saved game #{result.save_id}: you 0, CPU 1 0",
        ]
        await select(pilot, again, "2S")
        await press(pilot, "d")
        assert parse_card("2S") in state(again).discard


async def test_help_opens_and_closes_and_names_the_keys() -> None:
    app = rummy_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "h")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape")
        assert app.screen is app.table
    help_text = (Path(RummyScreen.HELP_FILE or "")).read_text(encoding="utf-8")
    for key in ("| `S` |", "| `T` |", "| `M` |", "| `L` |", "| `D` |", "| `N` |", "| `R` |"):
        assert key in help_text


# A 4-card game: seat 0 draws 8C, melds 2S-5S (20 points) and goes out by discarding 8C.
SHORT = dict(me="2S 3S 4S 5S", other="5H 7D 9S JC", up="KD", stock="8C")


async def test_round_summary_between_rounds_then_the_next_deal() -> None:
    second = deal(me="AS 2H 3D 4C", other="6H 7S 8D 9C", up="QH", stock="KS")
    app = rummy_app(deals=(deal(**SHORT), second), hand_size=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await press(pilot, "m", "d")
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        shown = modal_text(app)
        assert "Round 1 is over: me went out." in shown
        assert "player                            on the table  in hand  round  game" in shown
        assert "me                                          20        0    +20    20" in shown
        assert "CPU 1 (easy)                                 0      -25    -25   -25" in shown
        assert "CPU 1 (easy) held 5♥ 7♦ 9♠ J♣  (25 points)" in shown
        assert "Enter: deal the next round" in shown
        # behind the summary, the table as the round ended (the engine has cleared it)
        assert "Table at the end of round 1" in screen_text(app)
        assert "1 run  2♠ 3♠ 4♠ 5♠ ·you" in text(app, "#melds")
        assert state(app).is_chance_node()  # the next deal waits for the person
        await press(pilot, "enter")
        assert app.screen is app.table
        assert state(app).round == 2 and state(app).scores == [20, -25]
        assert hand(app) == ["AS", "2H", "3D", "4C"]
        assert text(app, "#melds") == "No melds on the table yet."
        assert "r1  Round over: you went out; you +20 → 20, CPU 1 -25 → -25" in history(app)


async def test_game_over_summary_statistics_and_record(tmp_path: Path) -> None:
    engine = open_database()
    app = rummy_app(deals=(deal(**SHORT),), ending_score=5, hand_size=4, record_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await press(pilot, "m", "d")
        assert state(app).is_terminal()
        # statistics are recorded as soon as the game ends (LocalGame.save -> scorebook)
        (me,) = rummy_stats(engine)
        assert (me.name, me.played, me.won, me.best_game_score, me.best_round_score) == (
            "me",
            1,
            1,
            20,
            20,
        )
        assert isinstance(app.screen, RoundSummaryScreen)
        await press(pilot, "enter")
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert over.headline == "me wins with 20 points"
        assert over.note == (
            "me has won 1 of 1 game against the computer; winning streak 1, longest 1\n"
            "(parlour stats rummy)"
        )
        await press(pilot, "s")
        assert isinstance(app.screen, SaveRecordScreen)
        await press(pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "q")
    result = app.return_value
    assert isinstance(result, TableExit) and result.outcome == "finished"
    (path,) = result.records
    assert path.parent == tmp_path
    replayed = replay(read_record(path))
    assert replayed.is_terminal() and replayed.result().scores == (20, -25)
    assert len(rummy_stats(engine)) == 1 and rummy_stats(engine)[0].played == 1


async def test_hot_seat_hands_hide_behind_a_curtain() -> None:
    app = rummy_app("ann,bob")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert hand(app) == []
        assert "Pass the keyboard to ann" in text(app, "#curtain")
        assert private_cards_shown(app, 0) == [] and private_cards_shown(app, 1) == []
        await press(pilot, "s")  # refused behind the curtain
        assert message(app) == "ann: press Enter to see your hand first."
        assert state(app).phase == "draw"
        await press(pilot, "enter")
        assert hand(app) == ["2S", "5H", "6H", "7H", "8S", "8H", "8D", "8C", "9H", "KD"]
        assert "ann's hand" in text(app, "#hand-title")
        assert private_cards_shown(app, 1) == []
        await press(pilot, "s")
        assert history(app)[-1] == "r1  ann drew from the stock"  # no card named in the log
        await select(pilot, app, "KD")
        await press(pilot, "d")
        # bob's turn: ann's hand is hidden again, bob's until he presses Enter
        assert state(app).current_player() == 1 and hand(app) == []
        assert "Pass the keyboard to bob" in text(app, "#curtain")
        assert private_cards_shown(app, 0) == [] and private_cards_shown(app, 1) == []
        await press(pilot, "enter")
        assert hand(app) == ["2H", "3C", "4S", "5C", "6S", "7D", "9D", "10S", "JS", "KC"]
        assert private_cards_shown(app, 0) == []


async def test_the_computer_s_move_is_shown_before_it_is_made() -> None:
    # what the screen said is recorded when it is said, so a busy machine that runs the
    # computer's turn before the test looks cannot make the check miss it
    app = rummy_app(pace=Pace(look=1.0, turn=3.0))
    shown: list[tuple[str, str, int]] = []  # (move, message on screen, events applied)
    said: list[str] = []
    screen = table(app)
    preview, explain = screen.preview, screen.explain

    def spy(action: Any) -> None:
        preview(action)
        shown.append((str(action), message(app), len(state(app).history)))

    def spy_explain(text: str, *, warning: bool = True) -> None:
        explain(text, warning=warning)
        said.append(message(app))

    screen.preview = spy  # type: ignore[method-assign]
    screen.explain = spy_explain  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "KD")
        said.clear()
        # the person's keys wait while the computer plays (its turn takes 3 x 1 s at least)
        await pilot.press("d", "s")
        before = 3  # the deal, the person's draw and discard
        await settle(pilot, limit=60)
        assert "Wait: CPU 1 (easy) is playing." in said
        # each move was on screen before it was applied (the history had not grown yet)
        assert shown == [
            ("draw stock", "CPU 1 draws from the stock", before),
            ("meld 3C 4C 5C", "CPU 1 melds 3♣ 4♣ 5♣ (a run)", before + 1),
            ("discard KC", "CPU 1 discards K♣", before + 2),
        ]
        assert state(app).current_player() == 0


async def test_a_name_is_shown_as_written_never_as_markup() -> None:
    app = rummy_app("[b]x[/b],cpu:easy", saved=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "[b]x[/b]" in text(app, "#scores")


def test_table_after_the_last_move_of_a_round() -> None:
    run = MeldPicture("run", tuple(parse_cards(["5H", "6H", "7H"])), (0, 0, 0))
    sets = MeldPicture("set", tuple(parse_cards(["QS", "QD", "QC"])), (1, 1, 1))
    after = table_after([run, sets], parse("layoff QH on 2"), 0)
    assert after[0] == run
    assert after[1] == MeldPicture(
        "set", tuple(parse_cards(["QS", "QH", "QD", "QC"])), (1, 0, 1, 1)
    )
    after = table_after([run], parse("layoff 4H on 1"), 1)
    assert after == [MeldPicture("run", tuple(parse_cards(["4H", "5H", "6H", "7H"])), (1, 0, 0, 0))]
    after = table_after([], parse("meld KS AS QS"), 1)
    assert after == [MeldPicture("run", tuple(parse_cards(["QS", "KS", "AS"])), (1, 1, 1))]
    assert table_after([run], parse("discard 2C"), 0) == [run]


def test_a_long_meld_wraps_under_its_first_card() -> None:
    meld = MeldPicture("run", parse_cards(["2H 3H 4H 5H 6H 7H"]), (1, 1, 0, 0, 0, 1))
    names = ["you", "CPU 1"]
    assert meld_line(1, meld, names).plain == " 1 run  2♥ 3♥ ·CPU 1 4♥ 5♥ 6♥ ·you 7♥ ·CPU 1"
    assert meld_line(1, meld, names, width=40).plain == (
        " 1 run  2♥ 3♥ ·CPU 1 4♥ 5♥ 6♥ ·you 7♥\n        ·CPU 1"
    )


def test_messages_name_cards_with_suit_symbols() -> None:
    assert with_symbols("you do not hold QS 10H AD") == "you do not hold Q♠ 10♥ A♦"
    assert with_symbols("there is no meld 3 on the table (melds 1-2)") == (
        "there is no meld 3 on the table (melds 1-2)"
    )


async def test_f8_restarts_with_the_same_players_and_a_fresh_table() -> None:
    again = deal(me="AS 3D 6D 7S 8C 9H JD KH QC 5D", up="QH")
    app = rummy_app(deals=(deal(), again))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m", "f8")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert state(app).round == 1 and state(app).table == []
        assert hand(app) == ["AS", "3D", "5D", "6D", "7S", "8C", "9H", "JD", "QC", "KH"]
        assert message(app) == "New game with the same players."
        assert history(app) == ["r1  Round 1: the cards are dealt; Q♥ is turned up"]


async def test_l_without_a_selection_lays_off_the_card_under_the_cursor() -> None:
    app = rummy_app(deals=(deal(me="5H 6H 7H 8H 2S 3D 4D 7S 9S KD"),))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m")
        assert table(app).selected == set()
        while hand(app)[table(app).cursor] != "8H":
            await press(pilot, "right")
        await press(pilot, "l")  # nothing selected: L takes the card at the cursor, as D does
        assert state(app).table[0].text() == "5H 6H 7H 8H"
        assert state(app).table[0].owners == (0, 0, 0, 0)
        assert "8H" not in hand(app)


async def test_a_small_terminal_keeps_the_turn_line_and_the_hand_in_view() -> None:
    app = rummy_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        # the table and the history shrink: the table, the turn line and the hand all fit
        # (before, the table kept 10 rows and the screen scrolled, leaving one of them out)
        screen = app.table.region
        for selector in ("#top", "#turn", "#hand"):
            region = app.table.query_one(selector).region
            assert screen.contains_region(region), (selector, region)
        assert "S draws from the stock (31 left)" in text(app, "#turn")
        await press(pilot, "s")
        # eleven cards need 66 columns: the hand scrolls to keep the cursor's card in view
        for _ in range(10 - table(app).cursor):
            await press(pilot, "right")
        assert hand(app)[table(app).cursor] == "KD"
        await settle(pilot)
        assert "K♦" in screen_text(app)
        while table(app).cursor != 0:
            await press(pilot, "left")
        await settle(pilot)
        assert "2♠" in screen_text(app)


async def test_resume_writes_the_history_again_with_round_ends_and_no_card_for_the_hot_seat() -> (
    None
):
    engine = open_database()
    second = deal(me="AS 2H 3D 4C", other="6H 7S 8D 9C", up="QH", stock="KS")
    app = rummy_app("ann,bob", deals=(deal(**SHORT), second), hand_size=4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await press(pilot, "m", "d")
        assert isinstance(app.screen, RoundSummaryScreen)
        await press(pilot, "enter")  # round 2 is dealt; ann to move
        live = history(app)
        await press(pilot, "q", "y")
    result = app.return_value
    assert isinstance(result, TableExit) and result.save_id is not None
    again = rummy_app(local=LocalGame.resume(engine, result.save_id), deals=(second,))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # people share the keyboard: the card ann drew is named nowhere, then or now
        assert live == [
            "r1  Round 1: the cards are dealt; K♦ is turned up",
            "r1  ann drew from the stock",
            "r1  ann melded 2♠ 3♠ 4♠ 5♠ (a run)",
            "r1  ann discarded 8♣",
            "r1  Round over: ann went out; ann +20 → 20, bob -25 → -25",
            "r2  Round 2: the cards are dealt; Q♥ is turned up",
        ]
        assert history(again) == [
            *live,
            f"r2  Continuing saved game #{result.save_id}: ann 20, bob -25",
        ]


async def test_the_hand_order_survives_save_and_resume() -> None:
    engine = open_database()
    other = "3C 5C 7D 9D JS 4H 10S 4S 6S KC"
    app = rummy_app(deals=(deal(me="KD 2S 2H 5H 6H 7H 8S AC 2C 9H", other=other),))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "right", "greater_than_sign", "greater_than_sign")  # 2S to 4th
        await press(pilot, "s")  # QS, arranged by hand: to the right end
        arranged = ["AC", "2H", "2C", "2S", "5H", "6H", "7H", "8S", "9H", "KD", "QS"]
        assert hand(app) == arranged
        await press(pilot, "q", "y")
    result = app.return_value
    assert isinstance(result, TableExit) and result.save_id is not None
    local = LocalGame.resume(engine, result.save_id)
    assert local.screen == {"rummy_hands": {"0": {"order": arranged, "sort": None}}}
    again = rummy_app(local=local)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert hand(again) == arranged
        await press(pilot, "n")  # sorted again; the sort is what is saved next
        await press(pilot, "q", "y")
    resumed = LocalGame.resume(engine, result.save_id)
    assert resumed.screen["rummy_hands"]["0"]["sort"] == "suit"


async def test_unreadable_hand_orders_in_a_save_are_left_out() -> None:
    local = LocalGame.new("rummy", "me,cpu:easy")
    local.screen = {
        "rummy_hands": {
            "0": {"order": ["ZZ", "2S"], "sort": None},  # not a card: the entry is dropped
            "9" * 5000: {"order": []},
            "x": 3,
        }
    }
    app = rummy_app(local=local)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert hand(app) == ["2S", "5H", "6H", "7H", "8S", "8H", "8D", "8C", "9H", "KD"]


async def test_the_round_summary_fits_a_small_terminal() -> None:
    second = deal(me="AS 2H 3D 4C", other="6H 7S 8D 9C", up="QH", stock="KS")
    app = rummy_app(deals=(deal(**SHORT), second), hand_size=4)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await press(pilot, "m", "d")
        assert isinstance(app.screen, RoundSummaryScreen)
        shown = modal_text(app)
        # the player column shrinks; the round and game columns stay (cut off before)
        assert "player            on the table  in hand  round  game" in shown
        assert "CPU 1 (easy)                 0      -25    -25   -25" in shown


async def test_the_arrow_keys_move_the_cursor_even_when_the_history_could_scroll() -> None:
    app = rummy_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        log = app.table.query_one("#history", RichLog)
        log.write("x" * 200, width=200, shrink=False)  # wider than the screen
        await settle(pilot)
        assert log.max_scroll_x > 0
        # the history never takes the keyboard (it did: it had the focus and ate ←/→)
        assert app.focused is not log
        await press(pilot, "right", "right")
        assert table(app).cursor == 2 and log.scroll_x == 0
