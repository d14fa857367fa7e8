"""The SSH door's tests: a real game server (uvicorn in a thread, a temporary SQLite
database), ``parlour door`` as its own process, and OpenSSH's ``ssh`` driven through a
pseudo-terminal by pexpect, the password given by an ``SSH_ASKPASS`` script.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour.server import Settings, create_app
from tests.door.sshclient import PASSWORD
from tests.helpers import free_port


@dataclass
class GameServer:
    url: str

    def register(self, name: str, password: str = PASSWORD) -> str:
        """A new account; returns its token."""
        response = httpx.post(
            f"{self.url}/auth/register", json={"name": name, "password": password}
        )
        assert response.status_code == 201, response.text
        return str(response.json()["token"])

    def rest(self, token: str, method: str, path: str, body: object = None) -> Any:
        """A REST call as the web client makes it; fails the test on an error answer."""
        response = httpx.request(
            method, self.url + path, json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code < 400, response.text
        return response.json()


@pytest.fixture(scope="session")
def game_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameServer]:
    """The real app under uvicorn on loopback, stopped at the end."""
    import uvicorn

    home = tmp_path_factory.mktemp("door-server")
    settings = Settings(
        database_url=f"sqlite:///{home / 'door.db'}",
        argon2_fast=True,
        max_signups_per_address=0,
        sweep_seconds=0,
        poll_seconds=0.5,
    )
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield GameServer(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture
def askpass(tmp_path: Path) -> Path:
    """An ``SSH_ASKPASS`` program that answers with ``$DOOR_PASSWORD``."""
    script = tmp_path / "askpass.sh"
    script.write_text('#!/bin/sh\nprintf "%s\\n" "$DOOR_PASSWORD"\n')
    script.chmod(0o700)
    return script
