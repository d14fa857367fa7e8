"""Tables built once per process and shared by every thread (the strong players' solves).

The server runs computer players in worker threads, so two of them may ask for the same
table at once. :func:`functools.cache` would let both build it (seconds of work each, and two
copies); :func:`built_once` makes the second caller wait for the first one's table.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class BuiltOnce(Generic[P, R]):
    """*build* cached by its arguments like :func:`functools.cache`, each value built by one
    thread only: callers asking for a value being built wait for it. A build that raises
    caches nothing (the next caller tries again). Read without a lock once built."""

    def __init__(self, build: Callable[P, R]) -> None:
        self._build = build
        self._values: dict[Hashable, R] = {}
        self._building: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, build)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(sorted(kwargs.items())))
        try:
            return self._values[key]
        except KeyError:
            pass
        with self._lock:
            lock = self._building.setdefault(key, threading.Lock())
        with lock:
            if key not in self._values:
                self._values[key] = self._build(*args, **kwargs)
            return self._values[key]

    def cache_clear(self) -> None:
        """Forget every value (the solve commands time a fresh build)."""
        with self._lock:
            self._values.clear()
            self._building.clear()


def built_once(build: Callable[P, R]) -> BuiltOnce[P, R]:
    """Decorate *build* as a :class:`BuiltOnce`: a cache safe to share between threads."""
    return BuiltOnce(build)
