"""Graceful shutdown: on SIGTERM (or Ctrl-C) ``parlour serve`` stops accepting connections,
lets every WebSocket message under way finish (its write committed, its ``ack`` sent), then
closes each WebSocket with :data:`RECONNECT`; uvicorn then finishes the HTTP requests under
way, and the app's lifespan writes whatever is still queued (computer players' moves) before
the process exits.

:class:`Drain` knows the open WebSockets through :class:`DrainMiddleware`: a socket is *busy*
from the arrival of a message until the app asks for the next one (the socket's loop answers
one message at a time), so a socket is closed only between messages.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

RECONNECT = 1012
"""The close code of a server going away on purpose (RFC 6455's "Service Restart"): the
client should reconnect (to this server once it is back, or to another behind the proxy)
and follow its tables again; nothing it was acknowledged is lost."""
REASON = "the server is restarting: reconnect"


@dataclass(eq=False)
class _Socket:
    send: Send
    busy: bool = False
    closed: bool = False

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self.send({"type": "websocket.close", "code": RECONNECT, "reason": REASON})


@dataclass
class Drain:
    """The app's shutdown state (``app.state.drain``)."""

    draining: bool = False
    """True from the start of :meth:`run`: ``/ready`` answers 503."""
    sockets: set[_Socket] = field(default_factory=set)

    async def run(self, seconds: float) -> int:
        """Close every WebSocket with :data:`RECONNECT`: idle ones at once, busy ones once
        their message is answered, the rest after *seconds* whatever they do. Returns how
        many were closed."""
        self.draining = True
        closed = 0
        deadline = time.monotonic() + seconds
        while True:
            for socket in list(self.sockets):
                if not socket.busy or time.monotonic() > deadline:
                    closed += not socket.closed
                    await socket.close()
                    self.sockets.discard(socket)
            if not self.sockets:
                return closed
            await asyncio.sleep(0.01)


class DrainMiddleware:
    """Tracks WebSockets for :class:`Drain` (pure ASGI; HTTP passes straight through)."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        drain = self.drain

        async def guarded_send(message: Message) -> None:
            if not socket.closed:  # after the close: nothing more to this socket
                if message["type"] == "websocket.close":
                    socket.closed = True
                await send(message)

        socket = _Socket(send)
        drain.sockets.add(socket)

        async def tracked_receive() -> Message:
            socket.busy = False  # the app asks for more: the last message is answered
            if drain.draining:
                await socket.close()
                drain.sockets.discard(socket)
                return {"type": "websocket.disconnect", "code": RECONNECT}
            message = await receive()
            if message["type"] == "websocket.receive":
                socket.busy = True
            return message

        try:
            await self.app(scope, tracked_receive, guarded_send)
        finally:
            drain.sockets.discard(socket)


class GracefulServer(uvicorn.Server):
    """uvicorn's server, draining the app's WebSockets (:meth:`Drain.run`) once it stopped
    accepting connections and before it closes the rest."""

    def __init__(self, config: uvicorn.Config, drain: Drain, seconds: float) -> None:
        super().__init__(config)
        self.drain = drain
        self.seconds = seconds

    async def shutdown(self, sockets: Any = None) -> None:
        for server in self.servers:  # stop accepting: no new connection from here on
            server.close()
        for sock in sockets or []:
            sock.close()
        await self.drain.run(self.seconds)
        await super().shutdown(sockets=sockets)
