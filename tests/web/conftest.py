"""Browser tests of the web client: Playwright for Python driving Debian's chromium against
a real server (uvicorn in a thread, the real app, a temporary SQLite database).

Chance is scripted through the test-only ``Settings.chance_script`` so every game is
deterministic; computer players move in the background as in production. Every page fails
its test on a browser console error or an uncaught exception, and each test saves
screenshots under ``artifacts/screenshots/`` (ignored by git).

Without chromium (``/usr/bin/chromium``) or Playwright these tests are skipped, unless
``PARLOUR_BROWSER_TESTS=required`` (as ``.ci/run`` sets), when they fail instead.
"""

from __future__ import annotations

import itertools
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from parlour.engine.state import State
from parlour.server import Settings, create_app
from tests.helpers import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PACE_MS = 40
"""How long the pages show each computer move (the real default is 800 ms)."""

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

    expect.set_options(timeout=10_000)  # a busy CI machine: waits end as soon as they can
except ImportError:  # pragma: no cover - without the test extras
    sync_playwright = None

_missing = None
if sync_playwright is None:
    _missing = "Playwright is not installed (pip install -e '.[test]')"
elif not Path(CHROMIUM).exists():
    _missing = f"no chromium at {CHROMIUM} (apt-get install chromium)"
if _missing is not None:
    if os.environ.get("PARLOUR_BROWSER_TESTS") == "required":
        raise RuntimeError(f"browser tests are required here but {_missing}")
    pytestmark = pytest.mark.skip(reason=_missing)


class ChanceScript:
    """The server's chance source for these tests: a function per game (by name) that
    names the outcome at a chance node, or ``None`` to let the server draw. It scripts only
    the tables the running test made (their seeds carry its ``prefix``): a computer still
    playing at a table an earlier test left draws as usual, never from this test's script."""

    def __init__(self) -> None:
        self.by_game: dict[str, Callable[[State], str | None]] = {}
        self.prefix = "web-test-"

    def __call__(self, state: State, seed: str) -> str | None:
        script = self.by_game.get(state.game.spec.name)
        if script is None or not seed.startswith(self.prefix):
            return None
        return script(state)


class Seeds:
    """The server's seeds for new tables: ``web-test-<test>-0``, ``-1``, ... named after the
    running test and counted from 0 again for every test, so the draws a test does not
    script (computer players' dice, the deal) are the same whichever tests ran before it."""

    def __init__(self) -> None:
        self.prefix = "web-test-"
        self.counter = itertools.count()

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.counter)}"

    def reset(self, test: str = "") -> None:
        self.prefix = f"web-test-{test}-"
        self.counter = itertools.count()


@dataclass
class LiveServer:
    """The running server: its address, settings, chance script and seeds."""

    url: str
    settings: Settings
    script: ChanceScript
    app: Any = None
    seeds: Seeds = field(default_factory=Seeds)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``parlour serve``'s app under uvicorn in a thread, on a temporary SQLite database."""
    import uvicorn

    home = tmp_path_factory.mktemp("web-home")
    os.environ.setdefault("PARLOUR_HOME", str(home))
    script = ChanceScript()
    seeds = Seeds()
    settings = Settings(
        database_url=f"sqlite:///{home / 'web.db'}",
        argon2_fast=True,
        max_signups_per_address=0,  # every test's people sign up from 127.0.0.1
        sweep_seconds=0,
        poll_seconds=0.5,
        chance_script=script,
        new_seed=seeds,
    )
    app = create_app(settings)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", settings, script, app, seeds)
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture(autouse=True)
def same_seeds_in_any_order(request: pytest.FixtureRequest) -> None:
    """Every test that uses the server starts its seeds from ``web-test-0``: a test passes
    alone, in any order and repeated, never thanks to the tests before it."""
    if "live_server" in request.fixturenames:
        server = request.getfixturevalue("live_server")
        server.seeds.reset(request.node.nodeid)
        server.script.prefix = server.seeds.prefix


@pytest.fixture
def script(live_server: LiveServer) -> Iterator[ChanceScript]:
    """The chance script, emptied after the test."""
    yield live_server.script
    live_server.script.by_game.clear()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, with no background networking (the machine is offline).
    Playwright gives every launch a fresh, temporary user data directory. Closed after
    ``tests/web``: Playwright's sync API keeps an event loop running in this thread, and
    later tests that call ``asyncio.run`` (tests/server) fail while it is open."""
    assert sync_playwright is not None
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Pages:
    """Opens pages, each in its own browser context (its own cookies: one person each),
    collecting console errors; saves screenshots."""

    browser: Browser
    server: LiveServer
    test_name: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, *, width: int = 1280, height: int = 900, has_touch: bool = False) -> Page:
        """A page in a context of its own; ``has_touch``: a touch screen (a phone), where
        the pointer is coarse (CSS ``pointer: coarse``)."""
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            base_url=self.server.url,
            has_touch=has_touch,
        )
        context.add_init_script(f"localStorage.setItem('parlour.pace', '{PACE_MS}')")
        self.contexts.append(context)
        return self._watch(context.new_page())

    def tab(self, page: Page) -> Page:
        """Another tab beside *page*: the same browser context, so the same cookies (the
        same person, logged in or out together)."""
        return self._watch(page.context.new_page())

    def _watch(self, page: Page) -> Page:
        page.set_default_timeout(15_000)
        label = f"page {sum(len(c.pages) for c in self.contexts)}"
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{label} console: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        # the stack too: an uncaught exception that happens once in many runs says where
        page.on(
            "pageerror",
            lambda error: self.errors.append(f"{label} exception: {error.stack or error}"),
        )
        return page

    def shot(self, page: Page, name: str, *, full_page: bool = True) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.test_name}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[Pages]:
    """Pages for one test; the test fails if any page logged a console error."""
    name = request.node.name.removeprefix("test_")
    opened = Pages(browser, live_server, name)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, "browser console errors:\n" + "\n".join(opened.errors)


def clean_artifacts() -> None:
    """Remove old screenshots (kept between runs otherwise)."""
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
