"""The account limits hold under concurrency: guesses and sign-ups are counted before any
password is checked or hashed, across threads and across server processes on one database;
forwarded headers are trusted only from the proxies named; hashing never starves the lobby."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash

from parlour.server import Settings, create_app
from parlour.server.errors import RateLimited, Unauthorized
from parlour.server.services import accounts
from parlour.server.services.context import ServerContext
from parlour.storage.accounts import count_failures
from parlour.storage.db import open_database
from tests.server.conftest import register

EVER = datetime(2000, 1, 1, tzinfo=UTC)
TRIALS = 8
"""Each race is run this many times (a fresh account and address each time)."""


class Checks:
    """Counts the passwords argon2 checks (every login attempt that got past the limits)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.lock = threading.Lock()
        original = PasswordHash.verify_and_update

        def counted(hasher: PasswordHash, *args: Any, **kwargs: Any) -> Any:
            with self.lock:
                self.count += 1
            return original(hasher, *args, **kwargs)

        monkeypatch.setattr(PasswordHash, "verify_and_update", counted)


def _other_process_url(url: str) -> str:
    """The same database under another URL: :func:`open_database` gives it an engine (and
    SQLite write lock) of its own, as another server process would have."""
    if url.startswith("sqlite"):
        return f"{url}?timeout=30"
    return f"{url}{'&' if '?' in url else '?'}application_name=other"


@pytest.fixture
def contexts(settings: Settings) -> list[ServerContext]:
    """Two server contexts on one database with separate engines (two processes)."""
    assert settings.database_url is not None
    one = ServerContext(engine=open_database(settings.database_url), settings=settings)
    other_settings = replace(settings, database_url=_other_process_url(settings.database_url))
    two = ServerContext(engine=open_database(other_settings.database_url), settings=other_settings)
    return [one, two]


def _race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run *calls* at once (they wait for each other at a barrier); each one's result or
    the exception it raised."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        try:
            return call()
        except Exception as err:
            return err

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_forty_concurrent_wrong_passwords_get_at_most_five_checked(
    contexts: list[ServerContext], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = Checks(monkeypatch)
    limit = contexts[0].settings.max_failures_per_account
    for trial in range(TRIALS):
        name = f"ann{trial}"
        accounts.register(contexts[0], name=name, password="password123")
        checks.count = 0
        calls = [
            # each from its own address, half through each "process": only the account's
            # limit applies
            lambda i=i, name=name, trial=trial: accounts.login(
                contexts[i % 2], name=name, password=f"wrong-{i}", address=f"10.{trial}.0.{i}"
            )
            for i in range(40)
        ]
        results = _race(calls)
        assert checks.count == limit, trial
        assert sum(isinstance(r, Unauthorized) for r in results) == limit
        assert sum(isinstance(r, RateLimited) for r in results) == 40 - limit
        # the right password is refused too now: the limit holds whatever is guessed
        with pytest.raises(RateLimited):
            accounts.login(contexts[0], name=name, password="password123", address="10.9.9.9")


def test_concurrent_guesses_from_one_address_get_at_most_its_limit_checked(
    contexts: list[ServerContext], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = Checks(monkeypatch)
    limit = contexts[0].settings.max_failures_per_address
    for trial in range(TRIALS):
        checks.count = 0
        calls = [  # forty names (most unknown: a dummy hash is checked), one address
            lambda i=i, trial=trial: accounts.login(
                contexts[i % 2], name=f"who{trial}x{i}", password="guess1234", address=f"a{trial}"
            )
            for i in range(40)
        ]
        results = _race(calls)
        assert checks.count == limit, trial
        assert sum(isinstance(r, RateLimited) for r in results) == 40 - limit


def test_a_right_password_among_concurrent_guesses_logs_in_and_is_not_counted(
    contexts: list[ServerContext],
) -> None:
    for trial in range(TRIALS):
        name = f"bob{trial}"
        accounts.register(contexts[0], name=name, password="password123")
        calls: list[Callable[[], Any]] = [
            lambda i=i, name=name, trial=trial: accounts.login(
                contexts[i % 2], name=name, password=f"wrong-{i}", address=f"b{trial}.{i}"
            )
            for i in range(3)
        ]
        calls.append(
            lambda name=name, trial=trial: accounts.login(
                contexts[1], name=name, password="password123", address=f"b{trial}.r"
            )
        )
        results = _race(calls)
        assert isinstance(results[-1], accounts.Login)
        assert all(isinstance(r, Unauthorized) for r in results[:-1])
        # the right guess was uncounted, and it cleared the failures counted before it: the
        # account has five guesses less those counted after it
        with contexts[0].engine.connect() as connection:
            counted = count_failures(
                connection, f"account:{name}", datetime.min.replace(tzinfo=UTC)
            )
        assert counted <= 3
        for i in range(5 - counted):
            with pytest.raises(Unauthorized):
                accounts.login(contexts[0], name=name, password="nope-nope", address=f"c{i}")
        with pytest.raises(RateLimited):
            accounts.login(contexts[0], name=name, password="nope-nope", address="c9")


def test_forty_concurrent_sign_ups_from_one_address_are_limited(
    contexts: list[ServerContext], monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed = 0
    lock = threading.Lock()
    original = accounts.hash_password

    def counted(password: str, *, fast: bool = False) -> str:
        nonlocal hashed
        with lock:
            hashed += 1
        return original(password, fast=fast)

    monkeypatch.setattr(accounts, "hash_password", counted)
    limited = [
        replace(c, settings=replace(c.settings, max_signups_per_address=10)) for c in contexts
    ]
    for trial in range(TRIALS):
        hashed = 0
        calls = [
            lambda i=i, trial=trial: accounts.register(
                limited[i % 2], name=f"new{trial}x{i}", password="password123", address=f"s{trial}"
            )
            for i in range(40)
        ]
        results = _race(calls)
        made = [r for r in results if isinstance(r, accounts.Login)]
        refused = [r for r in results if isinstance(r, RateLimited)]
        assert (len(made), len(refused), hashed) == (10, 30, 10), trial
        assert refused[0].extra == {"retry_after": 3600}
    # another address may still sign up
    accounts.register(limited[0], name="elsewhere", password="password123", address="other")


def test_the_sign_up_limit_answers_429_with_retry_after(settings: Settings) -> None:
    with TestClient(create_app(replace(settings, max_signups_per_address=3))) as client:
        for name in ("ann", "bob", "cat"):
            register(client, name)
        response = client.post("/auth/register", json={"name": "dan", "password": "password123"})
        assert response.status_code == 429
        assert response.headers["retry-after"] == "3600"
        assert response.json()["code"] == "rate_limited"
        # a name already taken is answered without counting or hashing
        taken = client.post("/auth/register", json={"name": "ANN", "password": "password123"})
        assert taken.status_code == 409


def _wrong_login(client: TestClient, name: str, headers: dict[str, str]) -> int:
    response = client.post(
        "/auth/login", json={"name": name, "password": "wrong-wrong"}, headers=headers
    )
    return response.status_code


def test_a_spoofed_x_forwarded_for_is_ignored_by_default(settings: Settings) -> None:
    app = create_app(replace(settings, max_failures_per_address=3))
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        codes = [
            _wrong_login(client, f"who{i}", {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(4)
        ]
    # one address (127.0.0.1) whatever the header says: the fourth guess is refused
    assert codes == [401, 401, 401, 429]


def test_x_forwarded_for_is_trusted_only_from_the_proxies_named(settings: Settings) -> None:
    changed = replace(settings, max_failures_per_address=3, forwarded_allow_ips=("10.0.0.0/8",))
    app = create_app(changed)
    with TestClient(app, client=("10.1.2.3", 40000)) as proxy:
        codes = [
            _wrong_login(proxy, f"who{i}", {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(4)
        ]
        assert codes == [401, 401, 401, 401]  # four clients behind the proxy
        same = [_wrong_login(proxy, "ann", {"X-Forwarded-For": "203.0.113.9"}) for _ in range(4)]
        assert same == [401, 401, 401, 429]  # one client behind the proxy
    with TestClient(app, client=("192.0.2.7", 40000)) as stranger:
        codes = [
            _wrong_login(stranger, f"x{i}", {"X-Forwarded-For": f"198.51.100.{i}"})
            for i in range(4)
        ]
        assert codes == [401, 401, 401, 429]  # not a proxy named: its header is ignored


def test_serve_leaves_forwarded_headers_to_the_option(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from parlour.cli.main import app as cli
    from parlour.server.shutdown import GracefulServer

    seen: dict[str, Any] = {}

    def fake_run(server: GracefulServer) -> None:  # parlour serve runs uvicorn through this
        config = server.config
        seen.update(proxy_headers=config.proxy_headers, settings=config.app.state.ctx.settings)
        server.started = True

    monkeypatch.setattr(GracefulServer, "run", fake_run)
    # uvicorn's Config configures logging as it is made: dictConfig closes every handler
    # the process holds, and on a pytest-xdist worker that closed the worker's capture
    # (every later test there failed "I/O operation on closed file"); nothing here logs
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    runner = CliRunner()
    url = f"sqlite:///{tmp_path / 'serve.db'}"
    result = runner.invoke(cli, ["serve", "--database", url])
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is False  # uvicorn would trust any client on 127.0.0.1
    assert seen["settings"].forwarded_allow_ips == ()
    result = runner.invoke(
        cli, ["serve", "--database", url, "--forwarded-allow-ips", "10.0.0.1, 10.2.0.0/16"]
    )
    assert result.exit_code == 0, result.output
    assert seen["settings"].forwarded_allow_ips == ("10.0.0.1", "10.2.0.0/16")
    assert seen["proxy_headers"] is False  # the app reads them, from those proxies only


def test_sign_ups_hashing_at_once_never_starve_the_lobby(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    hashing = threading.Semaphore(0)
    original = PasswordHash.hash

    def slow(hasher: PasswordHash, password: str, **kwargs: Any) -> str:
        hashing.release()
        release.wait(30)  # the hash is "expensive" until the test says so
        return original(hasher, password, **kwargs)

    monkeypatch.setattr(PasswordHash, "hash", slow)
    with TestClient(create_app(settings)) as client, ThreadPoolExecutor(20) as pool:
        sign_ups = [
            pool.submit(
                client.post,
                "/auth/register",
                json={"name": f"flood{i}", "password": "password123"},
            )
            for i in range(16)
        ]
        assert hashing.acquire(timeout=30)  # a hash has begun
        lobby = pool.submit(client.get, "/tables")
        games = pool.submit(client.get, "/games")
        # the lobby answers while every sign-up is still hashing or waiting to
        lobby_answer, games_answer = lobby.result(timeout=30), games.result(timeout=30)
        assert not any(f.done() for f in sign_ups)
        release.set()
        codes = [f.result(timeout=60).status_code for f in sign_ups]
    assert lobby_answer.status_code == 200 and games_answer.status_code == 200
    assert codes == [201] * 16
