"""Typed keys delivered one at a time, each once the one before it has done its work.

Textual hands each key to the widget focused *when the key is read*. A key that opens a
prompt or a dialog changes the focus later: the action runs in the screen's own queue, then
the new screen mounts, then ``focus()`` takes effect through the app's queue. Keys typed
quickly after it (a burst through tmux or SSH, a fast typist, a paste) were read before
that and went to the old screen: lost, or worse taken as its keys (``w`` then ``h8 cake``
opened the crossword's help instead of typing into its prompt).

:class:`KeysInTurn` holds the keys (and pastes) it reads in a queue and releases the next
one only when the app, the screen and every widget on it have handled every message queued
after the one before it (a few rounds, as a change of screen or focus takes several), so
each key goes where the previous one left the focus, in the order typed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any, ClassVar, TypeVar

from textual import events
from textual.app import App
from textual.message_pump import MessagePump

ReturnT = TypeVar("ReturnT")

CLOSED_CHECK = 0.02
"""Seconds between two looks for widgets closed while a round waits for them."""


class KeysInTurn(App[ReturnT]):
    """An app whose typed keys and pastes are handled in order, each after the effects of
    the one before it (see the module docstring)."""

    SETTLE_ROUNDS: ClassVar[int] = 6
    """At most this many rounds of "every queue handled what it held" between two keys (a
    key's action, a screen pushed, its mount, its focus call, the focus taking effect, and
    one to spare); fewer once a round leaves every queue empty."""
    ROUND_LIMIT: ClassVar[float] = 1.0
    """Seconds a round may wait for a busy widget before the next key goes anyway."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._typed: deque[events.Key | events.Paste] = deque()
        self._released: list[events.Key | events.Paste] = []
        self._releasing = False

    @property
    def keys_held(self) -> bool:
        """True while typed keys wait their turn (or the last one released is at work)."""
        return self._releasing or bool(self._typed)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if any(event is held for held in self._released):
                self._released = [held for held in self._released if held is not event]
                await super().on_event(event)
                return
            self._typed.append(event)
            if not self._releasing:
                self._releasing = True
                self.run_worker(self._release_typed(), group="typed-keys")
            return
        await super().on_event(event)

    async def _release_typed(self) -> None:
        """Hand the held keys to the app one at a time (see :class:`KeysInTurn`)."""
        try:
            while self._typed:
                event = self._typed.popleft()
                self._released.append(event)
                self.post_message(event)
                for round_ in range(self.SETTLE_ROUNDS):
                    if round_ and self._quiet():  # nothing more came of it: the next key
                        break
                    if not await self._round():
                        break
        finally:
            self._releasing = False

    def _quiet(self) -> bool:
        """True when the app, the screen and its widgets hold no message."""
        try:
            pumps: list[MessagePump] = [self, *self.screen.walk_children(with_self=True)]
        except Exception:  # no screen, or the app is closing
            return True
        return all(pump.message_queue_size == 0 for pump in pumps)

    async def _round(self) -> bool:
        """Wait until the app, the screen and its widgets have handled what they held (a
        widget closed meanwhile, a dialog's on dismissal, is not waited for; at most
        ``ROUND_LIMIT`` seconds in all); False when there is nothing left to wait on (the
        app is closing)."""
        try:
            pumps: list[MessagePump] = [self, *self.screen.walk_children(with_self=True)]
        except Exception:  # no screen yet, or the app is closing
            return False
        waiting: dict[int, MessagePump] = {}
        done = asyncio.Event()

        def handled(pump: MessagePump) -> None:
            waiting.pop(id(pump), None)
            if not waiting:
                done.set()

        for pump in pumps:
            waiting[id(pump)] = pump
            if not pump.call_later(handled, pump):
                del waiting[id(pump)]
        if not waiting:
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ROUND_LIMIT
        while waiting and loop.time() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), CLOSED_CHECK)
            for key, pump in list(waiting.items()):
                if pump._closing or pump._closed:  # removed: its queue is never read again
                    del waiting[key]
        return True
