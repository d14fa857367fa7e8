"""The server's settings: one object, made by ``parlour serve`` or by a test.

Every limit a request can run into is here, with its unit.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.engine.state import State

ChanceScript = Callable[["State", str], str | None]
"""A test's chance source: the state at a chance node -> an outcome in notation, or None."""

CLOCK_DAYS = (1, 2, 3, 5, 7, 14)
"""The days-per-move a table's clock may have (``None``: unlimited)."""


def utcnow() -> datetime:
    """Now, in UTC (the default clock; tests inject their own)."""
    return datetime.now(UTC)


@dataclass
class Settings:
    """Server settings. ``database_url`` ``None`` is SQLite in the data directory."""

    database_url: str | None = None
    clock: Callable[[], datetime] = utcnow
    """Where the server reads the time (turn clocks, tokens, rate limits)."""
    max_body_bytes: int = 16_384
    """Largest request body accepted (bytes); larger gets 413."""
    max_ws_message_chars: int = 4_096
    """Largest WebSocket message accepted from a client (characters)."""
    max_open_tables: int = 20
    """Tables in the lobby or in play one person may sit at."""
    max_action_chars: int = 500
    """Longest action text (characters)."""
    token_days: int = 30
    """How long a login lasts (days)."""
    login_window_seconds: int = 900
    """Failed logins count for this long (seconds)."""
    max_failures_per_account: int = 5
    """Failed logins per account within the window before refusing (429)."""
    max_failures_per_address: int = 20
    """Failed logins per client address within the window before refusing (429)."""
    max_signups_per_address: int = 10
    """Accounts one client address may create within ``signup_window_seconds`` (429 past
    it); 0 turns the limit off (the load test registers its players from one address)."""
    signup_window_seconds: int = 3600
    """Sign-ups count for this long (seconds)."""
    hash_workers: int = 1
    """Threads that do the account work that hashes passwords (sign-up, login, password
    change, account deletion), apart from the request threads (``workers``). One hash
    (argon2: 64 MiB, 3 passes, 4 lanes, so up to 4 cores for tens of milliseconds) at a
    time by default: a flood of sign-ups or logins waits here instead of taking the lobby's
    threads or every core."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies trusted to say who the client is (``X-Forwarded-For``, ``X-Forwarded-Proto``):
    addresses or networks (``10.0.0.0/8``; ``*``: any). Empty (the default): forwarded
    headers are ignored and the client is the connection's peer address, which the per-address
    limits count."""
    cookie_secure: bool = False
    """Mark the session cookie ``Secure`` (set it when served over HTTPS)."""
    default_time_zone: str = "UTC"
    """A new table's IANA time zone when its creator names none (crossword daily mode's
    midnight)."""
    default_max_skips: int = 3
    """Turns a person may lose to the clock in a row before a computer takes their seat."""
    sweep_seconds: float = 30.0
    """How often the clock sweeper runs (seconds); 0 turns it off."""
    bots: bool = True
    """Let computer players (and the clock's bot takeovers) move in the background."""
    bot_workers: int = 2
    """Computer-player moves worked on at once (each in a thread)."""
    poll_seconds: float = 1.0
    """How often WebSocket subscribers are checked for changes made by other processes."""
    login_cache_seconds: float = 5.0
    """How long a checked login is trusted without asking the database (seconds): a logout
    in another server process takes effect within this time; in this one at once."""
    workers: int = 8
    """Threads that do the database and game work of requests (sync routes, WebSocket
    actions); few threads keep the event loop responsive under load."""
    writer_threads: int = 1
    """Group-commit writer threads, each with a connection of its own. One is enough on one
    machine (batches grow with the load); more let one batch's round trips overlap
    another's on a PostgreSQL across a network. SQLite always has one."""
    commit_window_seconds: float = 0.0
    """The group writer's commit window (seconds; 0, the default: off): a write alone in
    the writer's queue, while the recent rate expects company within the window, waits for
    it up to this long after its submission and shares its transaction (fewer transactions
    at a moderate rate, for at most this much latency; ``services/writer.py``). Off by
    default: a few milliseconds showed no CPU gain per action that the measurements could
    tell from noise (docs/server.md, "Fifth pass")."""
    argon2_fast: bool = False
    """Cheap argon2 parameters (tests and the load test only; never in production)."""
    new_seed: Callable[[], str] = field(default=lambda: secrets.token_hex(32))
    """Makes each new table's secret seed (tests inject a repeatable one)."""
    # --- operations (ops lane): metrics, logs, shutdown ---
    metrics: str = "loopback"
    """Who may read ``/metrics``: ``"loopback"`` (127.0.0.0/8 and ::1 only; behind a proxy
    trusted by ``forwarded_allow_ips``, the forwarded client counts), ``"on"`` (anyone: keep
    it from the internet at the proxy), ``"off"`` (not collected, 404)."""
    json_logs: bool = False
    """Log one JSON object per line (``parlour.server.logs``), with request and table ids."""
    drain_seconds: float = 10.0
    """At shutdown, how long WebSocket messages under way may take to be answered before
    every socket is closed with the reconnect code (seconds)."""
    instance: str = field(default_factory=lambda: uuid.uuid4().hex)
    """This process's name in leases."""
    chance_script: ChanceScript | None = None
    """Test only: picks chance outcomes (dice, deals, draws) so browser tests are
    deterministic. Called with each chance node's state and the table's secret seed; returns
    the outcome in the game's notation, or ``None`` to draw as usual. ``parlour serve`` never
    sets it (no option or variable reaches it), and an outcome it names is still checked by
    the engine."""
    # --- notifications and chat (lane: social; docs/server.md "Notifications and chat") ---
    site_url: str = "http://127.0.0.1:8000"
    """The site's address as players reach it: the links in mail start with it."""
    smtp_host: str | None = None
    """The SMTP server mail is sent through; ``None``: no mail is queued or sent."""
    smtp_port: int = 25
    """The SMTP server's port."""
    smtp_from: str = "parlour@localhost"
    """The ``From`` address of the mail the server sends."""
    smtp_starttls: bool = False
    """Ask the SMTP server for STARTTLS before logging in and sending."""
    smtp_user: str | None = None
    """Log in to the SMTP server as this user (with ``smtp_password``); ``None``: no login."""
    smtp_password: str | None = None
    """The SMTP login's password."""
    smtp_timeout: float = 10.0
    """Seconds to wait for the SMTP server before counting the attempt failed."""
    mail_poll_seconds: float = 5.0
    """How often the outbox sender looks for mail due (seconds; 0: never, tests send by
    hand). New mail wakes it at once within a process."""
    mail_retry_seconds: tuple[float, float] = (30.0, 3_600.0)
    """Back-off of a mail the SMTP server did not take: the first wait and the longest
    (seconds; doubled at each failure up to the longest)."""
    mail_max_attempts: int = 20
    """Attempts at one mail before it is marked ``failed``."""
    clock_warning_seconds: float = 60.0
    """How often tables are checked for clocks with less than a day left (seconds; 0:
    never)."""
    chat_max_chars: int = 500
    """Longest chat message (characters)."""
    notifications: bool = True
    """Make notifications (and their mail); off only to measure what they cost (the load
    test's comparison)."""
    chat_rate: tuple[int, float] = (5, 10.0)
    """Chat messages one account may post within a window of seconds (429 past it)."""
