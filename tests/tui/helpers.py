"""Driving a table app headless: build one with scripted dice, wait for it to settle."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.tui.common.chance import ScriptedChance
from parlour.tui.common.table import Pace, TableApp, TableSettings
from parlour.tui.greedy.app import GreedyApp
from parlour.tui.ten_thousand.app import TenThousandApp, TenThousandScreen

SIZE = (80, 24)


def ten_thousand_app(
    players: str = "me,bob",
    rolls: Iterable[str] = (),
    *,
    saved: bool = True,
    record_dir: Path | None = None,
    local: LocalGame | None = None,
    pace: Pace | None = None,
    **options: Any,
) -> TenThousandApp:
    """A Ten-Thousand app whose dice are *rolls* (notation), with no pauses unless *pace*
    is given, saving to the test's database unless *saved* is false."""
    game = local or LocalGame.new("ten-thousand", players, **options)
    settings = TableSettings(
        chance=ScriptedChance(rolls),
        pace=pace or Pace.instant(),
        database=open_database() if saved else None,
        record_dir=record_dir,
    )
    return TenThousandApp(game, settings)


def greedy_app(
    players: str = "me,bob",
    rolls: Iterable[str] = (),
    *,
    saved: bool = True,
    record_dir: Path | None = None,
    local: LocalGame | None = None,
    pace: Pace | None = None,
    **options: Any,
) -> GreedyApp:
    """A Greedy app whose dice are *rolls* (notation), with no pauses unless *pace* is
    given, saving to the test's database unless *saved* is false."""
    game = local or LocalGame.new("greedy", players, **options)
    settings = TableSettings(
        chance=ScriptedChance(rolls),
        pace=pace or Pace.instant(),
        database=open_database() if saved else None,
        record_dir=record_dir,
    )
    return GreedyApp(game, settings)


async def settle(pilot: Pilot[Any], *, limit: float = 10.0) -> None:
    """Let chance and computer players run until a person must act (or a modal is up)."""
    app = pilot.app
    assert isinstance(app, TableApp)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while loop.time() < deadline:
        await pilot.pause(0.01)
        if app.keys_held:  # typed keys still on their way (each after the one before)
            continue
        if not app.table.waiting or not app.table.is_active:
            await pilot.pause()
            return
    raise AssertionError("the table did not settle")


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Press *keys* one at a time, settling after each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def text(app: TableApp, selector: str) -> str:
    """The plain text of a Static on the table."""
    visual = app.table.query_one(selector, Static).visual
    plain = visual.plain if isinstance(visual, Content) else str(visual)
    return plain.replace("\n", " ")


def screen(app: TenThousandApp) -> TenThousandScreen:
    """The game screen (typed)."""
    table = app.table
    assert isinstance(table, TenThousandScreen)
    return table


def in_view(app: App[Any], widget: Widget) -> str:
    """The text the screen shows where *widget* is, after checking that the widget is wholly
    on the screen and not cut off by a container around it (a frame, a scrolled area)."""
    geometry = app.screen._compositor.find_widget(widget)
    assert Region(0, 0, *app.size).contains_region(geometry.region), geometry.region
    assert geometry.clip.contains_region(geometry.region), (geometry.region, geometry.clip)
    strips = app.screen._compositor.render_strips()
    r = geometry.region
    return "\n".join(strip.text[r.x : r.right] for strip in strips[r.y : r.bottom])


async def in_view_settled(pilot: Pilot[Any], widget: Widget, *, limit: float = 10.0) -> str:
    """:func:`in_view` once the layout has caught up with a change (a message that grows a
    dialog is laid out on a later refresh, later still on a busy machine); fail after *limit*
    seconds with :func:`in_view`'s own error."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while True:
        try:
            return in_view(pilot.app, widget)
        except AssertionError:
            if loop.time() > deadline:
                raise
        await pilot.pause(0.01)


async def type_fast(pilot: Pilot[Any], *keys: str, limit: float = 20.0) -> None:
    """Send *keys* to the app at once, as a terminal delivers a burst (typed fast, through
    tmux or SSH, or pasted): all of them are read before the first is handled. Pilot's
    ``press`` waits for each key's effects instead, which hides keys lost in a burst. Then
    wait until the app has handled them all."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        char = " " if key == "space" else key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    await pilot.pause()
    while getattr(app, "keys_held", False):
        assert loop.time() < deadline, "the typed keys were not all handled"
        await pilot.pause(0.01)
    await pilot.pause()
