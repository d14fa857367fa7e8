"""Checking a door login against the game server: ``POST /auth/login``, and
``POST /auth/logout`` when the SSH connection ends."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class Login:
    """A login the game server accepted: the account's name as the server spells it, and
    the bearer token (the session's ``PARLOUR_TOKEN``)."""

    name: str
    token: str


class Refused(Exception):
    """The server refused the login: ``reason`` is a line to show the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def log_in(
    client: httpx.AsyncClient, name: str, password: str, *, address: str | None = None
) -> Login:
    """Log *name* in on the game server *client* talks to.

    *address* is the SSH client's address, sent as ``X-Forwarded-For`` (the server uses it
    for its per-address limits only if it trusts the door's address, ``serve
    --forwarded-allow-ips``). Raises :class:`Refused` with a line to show for a wrong name
    or password (401), a disabled account (403), too many failures (429) or a server that
    does not answer.
    """
    headers = {"X-Forwarded-For": address} if address else {}
    try:
        response = await client.post(
            "/auth/login", json={"name": name, "password": password}, headers=headers
        )
    except httpx.HTTPError as err:
        raise Refused(f"The game server does not answer ({type(err).__name__}).") from err
    if response.status_code == 200:
        body = response.json()
        return Login(name=str(body["account"]["name"]), token=str(body["token"]))
    if response.status_code == 429:
        wait = response.headers.get("retry-after")
        after = f" in {wait} seconds" if wait else " later"
        raise Refused(f"Too many failed logins: try again{after}.")
    if response.status_code == 403:
        raise Refused("This account is disabled.")
    if response.status_code in (401, 422):
        raise Refused("Wrong name or password.")
    raise Refused(f"The game server refused the login (HTTP {response.status_code}).")


async def log_out(client: httpx.AsyncClient, token: str) -> None:
    """Revoke *token* on the server (best effort: a server that is gone is ignored)."""
    with contextlib.suppress(httpx.HTTPError):
        await client.post("/auth/logout", headers={"Authorization": f"Bearer {token}"})
