"""The Rummy terminal app, driven headless with Textual's pilot on forced shuffles."""

from __future__ import annotations

from textual.pilot import Pilot

from parlour.games.rummy.cards import card_text, parse_card, parse_cards
from parlour.games.rummy.rules import RummyState, arrange_deck
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.tui.rummy.app import RummyApp

ME = "5H 6H 7H 8H QC QD 2S 9C 4D KD"
CPU = "3C 5C 7D 9D JS 2H 10S 4S 6S KC"
STOCK = "QS 8C 2D 10D 3H"  # the first cards drawn: QS by me, 8C by the computer, ...


def new_app(engine=None) -> RummyApp:  # type: ignore[no-untyped-def]
    local = LocalGame.new("rummy", "me,cpu:easy")
    deal = arrange_deck(
        [parse_cards(ME.split()), parse_cards(CPU.split())],
        parse_card("JD"),
        parse_cards(STOCK.split()),
    )
    return RummyApp(local, engine=engine, pause=0.0, deals=[deal])


def state(app: RummyApp) -> RummyState:
    return app.state


async def select(pilot: Pilot[object], app: RummyApp, *cards: str) -> None:
    """Move the cursor to each card and select it with space."""
    for text in cards:
        target = app.order.index(parse_card(text))
        while app.cursor != target:
            await pilot.press("right")
        await pilot.press("space")


def message(app: RummyApp) -> str:
    return app.message


async def test_draw_meld_lay_off_discard_and_a_refusal() -> None:
    app = new_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        assert state(app).current_player() == 0 and len(app.order) == 10
        before = state(app).to_json()
        await pilot.press("d")  # discarding before drawing is refused, with the reason
        assert message(app).startswith("Refused: draw first")
        assert state(app).to_json() == before
        await pilot.press("s")
        assert "QS" in [card_text(c) for c in app.order]
        await select(pilot, app, "5H", "6H", "7H")
        await pilot.press("m")
        assert state(app).table[0].text() == "5H 6H 7H"
        await select(pilot, app, "QS", "QC", "QD")
        await pilot.press("m")
        assert state(app).table[1].text() == "QS QD QC"
        await select(pilot, app, "8H")
        await pilot.press("l")  # two melds: the app asks which one
        await pilot.press("1", "enter")
        await pilot.pause()
        assert state(app).table[0].text() == "5H 6H 7H 8H"
        assert state(app).table[0].owners == (0, 0, 0, 0)
        await select(pilot, app, "KD")
        await pilot.press("d")
        await pilot.pause()
        for _ in range(20):  # the computer (easy) plays its turn
            if state(app).current_player() == 0:
                break
            await pilot.pause(0.05)
        assert state(app).current_player() == 0 and state(app).phase == "draw"
        assert state(app).discard[0] == parse_card("JD")
        log = "\n".join(str(line.text) for line in app.query_one("#log").lines)  # type: ignore[attr-defined]
        assert "you melded 5♥ 6♥ 7♥" in log and "you discarded K♦" in log
        assert "CPU 1 (easy) drew from the stock" in log or "CPU 1 (easy) took" in log
        # the table shows who owns each card
        table = str(app.query_one("#table").render())
        assert "[you]" in table


async def test_sorting_and_moving_cards() -> None:
    app = new_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        assert [card_text(c) for c in app.order][:3] == ["2S", "4D", "5H"]
        await pilot.press("greater_than_sign")
        assert [card_text(c) for c in app.order][:2] == ["4D", "2S"] and app.cursor == 1
        await pilot.press("n")
        assert [card_text(c) for c in app.order][:2] == ["2S", "4D"]


async def test_quit_saves_and_resume_continues() -> None:
    engine = open_database()
    app = new_app(engine)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await select(pilot, app, "5H", "6H", "7H")
        await pilot.press("m")
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
    save_id = app.return_value
    assert save_id is not None
    local = LocalGame.resume(engine, save_id)
    assert local.state == app.local.state
    again = RummyApp(local, engine=engine, pause=0.0)
    async with again.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        assert again.state.table[0].text() == "5H 6H 7H"
        await select(pilot, again, "2S")
        await pilot.press("d")
        await pilot.pause()
        assert parse_card("2S") in again.state.discard


async def test_help_opens_and_closes() -> None:
    app = new_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        assert app.screen.__class__.__name__ != "HelpScreen"


async def test_game_over_saves_and_updates_the_statistics() -> None:
    from parlour.storage.rummy_stats import rummy_stats

    engine = open_database()
    local = LocalGame.new("rummy", "me,cpu:easy", ending_score=5, hand_size=4)
    deal = arrange_deck(
        [parse_cards(["2S", "3S", "4S", "5S"]), parse_cards(["5H", "7D", "9S", "JC"])],
        parse_card("KD"),
        parse_cards(["8C"]),
    )
    app = RummyApp(local, engine=engine, pause=0.0, deals=[deal])
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await pilot.press("m")
        await select(pilot, app, "8C")
        await pilot.press("d")
        await pilot.pause()
        assert app.state.is_terminal()
        assert "Game over: you win with 20 points" in message(app)
        await pilot.press("q")
    (me,) = rummy_stats(engine)
    assert (me.name, me.played, me.won, me.best_game_score, me.best_round_score) == (
        "me",
        1,
        1,
        20,
        20,
    )
