"""Server test fixtures: the database (SQLite, or PostgreSQL when ``PARLOUR_TEST_DATABASE``
names one), settings with a fixed clock, a client through the real app, and accounts."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.server import Settings, create_app


class FakeClock:
    """An injectable clock: fixed until a test moves it on."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move the clock on by ``timedelta(**delta)``."""
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    """The fixed clock the test's server reads."""
    return FakeClock()


@pytest.fixture
def settings(db_url: str, clock: FakeClock) -> Settings:
    """Test settings: cheap argon2, the fixed clock, no sign-up limit, no timed sweeper or
    poller."""
    seeds = itertools.count()
    return Settings(
        database_url=db_url,
        clock=clock,
        argon2_fast=True,
        max_signups_per_address=0,  # tests sign many people up from one address
        sweep_seconds=0,
        poll_seconds=0,
        new_seed=lambda: f"test-seed-{next(seeds)}",
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A client through the real app (lifespan included: computer players run)."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client


Headers = dict[str, str]


def register(client: TestClient, name: str, password: str = "password123") -> Headers:
    """Register *name* and return bearer headers for it."""
    response = client.post("/auth/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def wait_until(check: Callable[[], Any], *, seconds: float = 60.0) -> Any:
    """Poll *check* until it returns something truthy (computer players move in the
    background); fail after *seconds*. The bound is only how long a broken test takes to
    fail: a busy machine (load 17 seen) made five computer seats take over 10 s a round."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)
