"""Memory under sign-up and login bursts: argon2 takes 64 MiB a hash, so the server hashes
at most ``Settings.hash_workers`` passwords at once (the hasher is counted here)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.server import Settings, create_app


def test_no_more_password_hashes_run_at_once_than_hash_workers(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """argon2 takes 64 MiB a hash: a burst of sign-ups and logins hashes at most
    ``Settings.hash_workers`` passwords at once (memory stays flat; 50 sign-ups peaked at
    633 MB with 8 at once, 187 MB with 1)."""
    import threading
    import time

    from parlour.server.services import accounts

    running = 0
    peak = 0
    guard = threading.Lock()
    real = accounts._hasher

    class Counting:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def _counted(self, work: Any, *args: Any) -> Any:
            nonlocal running, peak
            with guard:
                running += 1
                peak = max(peak, running)
            try:
                time.sleep(0.005)  # a hash takes a while: let others try to start meanwhile
                return work(*args)
            finally:
                with guard:
                    running -= 1

        def hash(self, password: str) -> str:
            return str(self._counted(self.inner.hash, password))

        def verify_and_update(self, password: str, stored: str) -> Any:
            return self._counted(self.inner.verify_and_update, password, stored)

    monkeypatch.setattr(accounts, "_hasher", lambda fast: Counting(real(fast)))
    for workers in (1, 2):
        peak = 0
        with TestClient(create_app(replace(settings, hash_workers=workers))) as client:
            answers: list[int] = []

            def sign_up(
                i: int,
                client: TestClient = client,
                workers: int = workers,
                answers: list[int] = answers,
            ) -> None:
                name = f"w{workers}p{i}"
                made = client.post("/auth/register", json={"name": name, "password": "pw-1234567"})
                again = client.post("/auth/login", json={"name": name, "password": "pw-1234567"})
                answers.extend([made.status_code, again.status_code])

            threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(16)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert sorted(set(answers)) == [200, 201]
        assert 1 <= peak <= workers
