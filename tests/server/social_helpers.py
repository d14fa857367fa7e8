"""Helpers of the notification, mail and chat tests: a real SMTP server on loopback
(aiosmtpd) and moves that pass the turn."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from tests.server.conftest import Headers, wait_until


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Inbox:
    """What the SMTP server received: each mail as parsed, with its envelope recipients."""

    mails: list[Message] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.original_content or envelope.content))
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


class SmtpServer:
    """An aiosmtpd server on 127.0.0.1:*port* that can be stopped and started again."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.inbox = Inbox()
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None


def pass_turn(client: TestClient, table_id: int, seats: list[Headers]) -> int:
    """Pig: the seat to move holds until the other seat is to move; the seat now to move."""
    table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    if not table["to_move"]:
        return -1
    mover = table["to_move"][0]
    while True:
        table = client.get(f"/tables/{table_id}", headers=seats[mover]).json()
        if table["to_move"] != [mover]:
            return int(table["to_move"][0]) if table["to_move"] else -1  # -1: over
        legal = table["legal"]
        action = "hold" if "hold" in legal else legal[0]
        done = client.post(
            f"/tables/{table_id}/actions",
            json={"action": action, "version": table["version"]},
            headers=seats[mover],
        )
        assert done.status_code == 200, done.text


def notifications(
    client: TestClient, who: Headers, kind: str | None = None
) -> list[dict[str, Any]]:
    """The person's notifications (of *kind*), newest first."""
    answer = client.get("/me/notifications", headers=who)
    assert answer.status_code == 200, answer.text
    items: list[dict[str, Any]] = answer.json()["notifications"]
    return [n for n in items if kind is None or n["kind"] == kind]


def wait_notified(
    client: TestClient, who: Headers, kind: str, count: int = 1
) -> list[dict[str, Any]]:
    """Wait for the person's *count*-th notification of *kind* (stored just after the
    change, by the group writer)."""
    found: list[dict[str, Any]] = wait_until(
        lambda: (lambda ns: ns if len(ns) >= count else None)(notifications(client, who, kind))
    )
    return found
