"""Prometheus metrics at ``/metrics`` (``prometheus-client``), one registry per app.

What is counted, and where:

- ``parlour_actions_total{game, kind, by}``: events stored by a game's actions (each
  action of a person, a computer player or the host, and the chance outcomes after it);
  ``kind`` is the event's first word (``roll``, ``keep``, ``play``...; ``other`` when it is
  not a short word), ``by`` is ``person``, ``computer``, ``chance`` or ``host``. Actions
  per second: ``rate(parlour_actions_total[1m])``.
- ``parlour_request_seconds{method, route, status}``: HTTP request latency (the route's
  template, e.g. ``/tables/{table_id}/actions``; ``static`` for the web client's files).
- ``parlour_ws_message_seconds``: time from a WebSocket message's arrival to its answer.
- ``parlour_writer_batch_writes`` and ``parlour_writer_commit_seconds``: the group
  writer's batch sizes and the time each batch took to write and commit;
  ``parlour_writer_queued``: writes waiting or being written now.
- ``parlour_followers{kind}``: WebSockets following tables and accounts.
- ``parlour_errors_total{kind}``: HTTP answers of 400 and over (``http_<status>``),
  WebSocket ``error`` messages (``ws_<code>``), and records logged at ERROR or worse by the
  server (``logged``).
- ``parlour_bot_think_seconds{game, level}``: a computer player's time to choose a move.

``Settings.metrics`` decides who may read it (see :func:`allowed`).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.engine.state import CHANCE, HOST

if TYPE_CHECKING:
    from parlour.server.services.cache import Entry

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: the request and message latency histograms' upper bounds."""
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
"""Writes per batch: the batch-size histogram's upper bounds."""
_KIND = re.compile(r"[a-z][a-z-]{0,15}")
_ERROR_PREFIX = '{"type":"error"'
_ERROR_CODE = re.compile(r'"code":"([a-z_]{1,32})"')


class Metrics:
    """The app's metrics (see the module docstring); every method is thread-safe."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.actions = Counter(
            "parlour_actions", "Events stored.", ("game", "kind", "by"), registry=r
        )
        self.requests = Histogram(
            "parlour_request_seconds",
            "HTTP request latency (seconds).",
            ("method", "route", "status"),
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.ws_messages = Histogram(
            "parlour_ws_message_seconds",
            "WebSocket message latency, arrival to answer (seconds).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.batch_writes = Histogram(
            "parlour_writer_batch_writes",
            "Writes per group-writer batch.",
            buckets=BATCH_BUCKETS,
            registry=r,
        )
        self.commit_seconds = Histogram(
            "parlour_writer_commit_seconds",
            "Time to write and commit one batch (seconds).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.queued = Gauge("parlour_writer_queued", "Writes waiting or being written.", registry=r)
        self.followers = Gauge(
            "parlour_followers", "WebSockets following tables or accounts.", ("kind",), registry=r
        )
        self.errors = Counter("parlour_errors", "Errors by kind.", ("kind",), registry=r)
        self._children: dict[tuple[Any, ...], Any] = {}
        """Labelled children already made, by their labels (a dictionary look-up, not
        ``labels()``, on every action and request; the label sets are few)."""
        self.think = Histogram(
            "parlour_bot_think_seconds",
            "A computer player's time to choose a move (seconds).",
            ("game", "level"),
            buckets=LATENCY_BUCKETS,
            registry=r,
        )

    def count_events(self, entry: Entry, added: Iterable[tuple[int, str]]) -> None:
        """Count the events *added* (``(by, move)``, as stored) at *entry*'s table."""
        game = entry.table.game
        children = self._children
        for by, move in added:
            key = ("actions", game, action_kind(move), _by(entry, by))
            child = children.get(key)
            if child is None:  # labels() takes a lock and checks its labels: once per set
                child = children[key] = self.actions.labels(*key[1:])
            child.inc()

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """An HTTP request's latency (and an error answer's count)."""
        key = ("requests", method, route, status)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = self.requests.labels(method, route, str(status))
        child.observe(seconds)
        if status >= 400:
            self.errors.labels(f"http_{status}").inc()

    def observe_batch(self, writes: int, seconds: float) -> None:
        """A group-writer batch of *writes* committed in *seconds*."""
        self.batch_writes.observe(writes)
        self.commit_seconds.observe(seconds)

    def track_followers(self, count: Callable[[], dict[str, Any]]) -> None:
        """Read the follower gauges from *count* (``hub.follower_count``) at each scrape."""
        for kind in ("tables", "accounts"):

            def read(kind: str = kind) -> float:
                return float(count()[kind])

            self.followers.labels(kind).set_function(read)

    def track_queue(self, size: Callable[[], int]) -> None:
        """Read the writer's queue gauge from *size* at each scrape."""
        self.queued.set_function(size)

    def render(self) -> bytes:
        """The text exposition format of every metric."""
        return generate_latest(self.registry)

    content_type = CONTENT_TYPE_LATEST


def action_kind(move: str) -> str:
    """The label of an action: its first word when that is a short lower-case word, else
    ``other`` (coordinates, numbers: the label set stays small)."""
    word = move.split(" ", 1)[0].lower()
    return word if _KIND.fullmatch(word) else "other"


def _by(entry: Entry, seat: int) -> str:
    if seat == CHANCE:
        return "chance"
    if seat == HOST or not 0 <= seat < len(entry.seats):
        return "host"
    return "computer" if entry.plays_itself(seat) else "person"


class _ErrorLogCounter(logging.Handler):
    """Counts the server's records at ERROR and worse as ``parlour_errors_total{kind=
    "logged"}`` in every live app's metrics (one handler for all of them)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.counted: weakref.WeakSet[Metrics] = weakref.WeakSet()

    def emit(self, record: logging.LogRecord) -> None:
        for metrics in list(self.counted):
            metrics.errors.labels("logged").inc()


_LOGGED = _ErrorLogCounter()
logging.getLogger("parlour.server").addHandler(_LOGGED)


def count_logged_errors(metrics: Metrics) -> None:
    """Count the server's logged errors in *metrics* (as long as it lives)."""
    _LOGGED.counted.add(metrics)


class MetricsMiddleware:
    """Times HTTP requests and WebSocket messages and counts error answers (pure ASGI)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        began = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", None) or "static"
            self.metrics.observe_request(scope["method"], path, status, time.perf_counter() - began)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        arrived: float | None = None
        metrics = self.metrics

        async def timed_receive() -> Message:
            nonlocal arrived
            if arrived is not None:  # the app asks again: the last message is answered
                metrics.ws_messages.observe(time.perf_counter() - arrived)
                arrived = None
            message = await receive()
            if message["type"] == "websocket.receive":
                arrived = time.perf_counter()
            return message

        async def counted_send(message: Message) -> None:
            frame = message.get("text")  # a WebSocket frame: the JSON of one message
            if isinstance(frame, str) and frame.startswith(_ERROR_PREFIX):
                found = _ERROR_CODE.search(frame)
                metrics.errors.labels(f"ws_{found.group(1) if found else 'error'}").inc()
            await send(message)

        await self.app(scope, timed_receive, counted_send)


def allowed(setting: str, client: str | None) -> bool:
    """Whether a client at address *client* may read ``/metrics`` under ``Settings.metrics``:
    ``"loopback"`` (the default) only from 127.0.0.0/8 and ::1, ``"on"`` from anywhere,
    ``"off"`` never. Raises ``ValueError`` for another setting."""
    if setting == "on":
        return True
    if setting == "off":
        return False
    if setting != "loopback":
        raise ValueError(f"Settings.metrics is 'loopback', 'on' or 'off', not {setting!r}")
    if client is None:
        return False
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:  # not an address (a test client's name)
        return False
