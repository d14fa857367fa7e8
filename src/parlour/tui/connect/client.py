"""The client of a ``parlour serve`` server that ``parlour connect`` uses: REST over
``httpx`` and the live table over a ``websockets`` WebSocket. No Textual here.

Every call answers plain JSON; a refusal of the server raises :class:`ServerRefused` with
its ``detail`` (the server's reason) and ``code``, a server that cannot be reached raises
:class:`ServerRefused` with code ``unreachable``. :meth:`ServerClient.follow` and
:meth:`ServerClient.act` (the :class:`~parlour.tui.common.source.Link` a table screen
uses) never raise: what goes wrong is a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

JSON = Any

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""How long to wait before each attempt to reconnect (the last repeats)."""


class ServerRefused(Exception):
    """The server refused a request (``status``, ``code``, ``detail``: its reason), or it
    could not be reached (``code`` ``unreachable``, ``status`` 0)."""

    def __init__(self, status: int, code: str, detail: str, body: JSON = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.body = body


def base_url(url: str) -> str:
    """*url* as the server's base (``http://host:port``, no trailing slash); a bare
    ``host:port`` is taken as ``http://``. Raises :class:`ValueError` for another scheme."""
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a server address: {url!r} (write http://host:port)")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def ws_url(base: str) -> str:
    """The WebSocket address of the server at *base* (``ws://host:port/ws``)."""
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, parts.path + "/ws", "", ""))


class ServerClient:
    """One account's connection to the server at *url* (``token``: a bearer token from
    ``POST /auth/login``, or ``None`` until :meth:`login`)."""

    def __init__(self, url: str, token: str | None = None, *, timeout: float = 15.0) -> None:
        self.url = base_url(url)
        self.token = token
        self.account: JSON = None
        self._http = httpx.AsyncClient(base_url=self.url, timeout=timeout)
        self._socket: ClientConnection | None = None
        self._wake: asyncio.Event | None = None
        self.retry_seconds = RETRY_SECONDS

    async def close(self) -> None:
        """Close the HTTP client and any WebSocket."""
        if self._socket is not None:
            await self._socket.close()
        await self._http.aclose()

    # --- REST ---------------------------------------------------------------------------

    async def request(self, method: str, path: str, body: JSON = None, **params: Any) -> JSON:
        """``method path`` with *body* (JSON) and query *params*; the answer's JSON (``None``
        for 204). Raises :class:`ServerRefused`."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        query = {k: v for k, v in params.items() if v is not None}
        try:
            answer = await self._http.request(
                method, path, json=body, params=query, headers=headers
            )
        except httpx.HTTPError as err:
            raise ServerRefused(0, "unreachable", f"the server does not answer: {err}") from err
        if answer.status_code == 204:
            return None
        try:
            data = answer.json()
        except ValueError:
            data = {"detail": answer.text[:200]}
        if answer.status_code >= 400:
            detail = data.get("detail") if isinstance(data, dict) else None
            code = data.get("code") if isinstance(data, dict) else None
            raise ServerRefused(
                answer.status_code, str(code or answer.status_code), str(detail), data
            )
        return data

    async def login(self, name: str, password: str, *, sign_up: bool = False) -> JSON:
        """Log in (or sign up: ``POST /auth/register``) and keep the token; the account."""
        path = "/auth/register" if sign_up else "/auth/login"
        answer = await self.request("POST", path, {"name": name, "password": password})
        self.token = str(answer["token"])
        self.account = answer["account"]
        return self.account

    async def me(self) -> JSON:
        """The account the token logs in (``GET /auth/me``); raises for a dead token."""
        self.account = await self.request("GET", "/auth/me")
        return self.account

    async def games(self) -> list[JSON]:
        """``GET /games``: every game with its options, player counts and levels."""
        answer: list[JSON] = await self.request("GET", "/games")
        return answer

    async def tables(self, *, mine: bool = False) -> list[JSON]:
        """The lobby's open tables, or with *mine* the account's own (``?which=mine``)."""
        answer: list[JSON] = await self.request("GET", "/tables", which="mine" if mine else None)
        return answer

    async def table(self, table_id: int, invite: str | None = None) -> JSON:
        """``GET /tables/{id}``: the table for this account."""
        return await self.request("GET", f"/tables/{table_id}", invite=invite)

    async def coach(self, table_id: int) -> JSON:
        """``GET /tables/{id}/coach``: the coach's figures for this account's decision now
        (``{"version", "advice"}``); raises :class:`ServerRefused` with the server's reason
        (a rated table, not your decision)."""
        return await self.request("GET", f"/tables/{table_id}/coach")

    async def create(self, body: JSON) -> JSON:
        """``POST /tables`` with *body* (game, seats, options, ...): the new table."""
        return await self.request("POST", "/tables", body)

    async def lobby(self, table_id: int, what: str, invite: str | None = None) -> JSON:
        """A lobby request on *table_id*: *what* is ``join``, ``leave``, ``vote`` or
        ``start``."""
        body = {"invite": invite} if what == "join" else None
        return await self.request("POST", f"/tables/{table_id}/{what}", body)

    async def act(self, table_id: int, action: str, version: int) -> JSON:
        """``POST /tables/{id}/actions``: ``{"type": "answer", ...}`` or ``{"type":
        "refused", "detail", "code", "current"}`` (never raises)."""
        try:
            answer = await self.request(
                "POST", f"/tables/{table_id}/actions", {"action": action, "version": version}
            )
        except ServerRefused as err:
            body = err.body if isinstance(err.body, dict) else {}
            return {
                "type": "refused",
                "table": table_id,
                "detail": err.detail,
                "code": err.code,
                "current": body.get("current"),
            }
        return {**answer, "type": "answer", "table": table_id}

    # --- the WebSocket ------------------------------------------------------------------

    async def follow(
        self, table_id: int, deliver: Callable[[JSON], None], invite: str | None = None
    ) -> None:
        """Follow *table_id* until cancelled (see :class:`~parlour.tui.common.source.Link`):
        each connection sends ``follow`` (with *invite*, the code of an invite-only table),
        so the first ``update`` after a reconnection is the whole table at the server's
        version."""
        lost = False
        failures = 0
        while True:
            try:
                async with websockets.connect(
                    ws_url(self.url),
                    additional_headers=(
                        {"Authorization": f"Bearer {self.token}"} if self.token else {}
                    ),
                    open_timeout=10,
                ) as socket:
                    self._socket = socket
                    await socket.send(
                        json.dumps({"type": "follow", "table": table_id, "invite": invite})
                    )
                    deliver(
                        {
                            "type": "link",
                            "table": table_id,
                            "state": "connected",
                            "detail": "Connected again: the table is up to date." if lost else "",
                        }
                    )
                    failures = 0
                    async for text in socket:
                        message = json.loads(text)
                        if isinstance(message, dict):
                            deliver(message)
            except (TimeoutError, OSError, websockets.WebSocketException, ValueError):
                pass
            finally:
                self._socket = None
            lost = True
            deliver(
                {
                    "type": "link",
                    "table": table_id,
                    "state": "reconnecting",
                    "detail": "The connection to the server is lost: reconnecting…",
                }
            )
            delay = self.retry_seconds[min(failures, len(self.retry_seconds) - 1)]
            failures += 1
            self._wake = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            self._wake = None

    def reconnect_now(self) -> None:
        """Reconnect at once if the follow loop is waiting to (the wait is cut short)."""
        if self._wake is not None:
            self._wake.set()

    def drop(self) -> None:
        """Cut the WebSocket as a network failure would (its transport aborted); the
        follow loop reconnects (for tests and for a user's "reconnect now")."""
        socket = self._socket
        if socket is not None:
            with contextlib.suppress(Exception):
                socket.transport.abort()
