"""The app factory: ``create_app(settings)`` assembles routers, errors, limits and the
background runner. ``parlour serve`` runs it under uvicorn."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from parlour import __version__
from parlour.engine.registry import specs
from parlour.server import errors, ws
from parlour.server.fanout import Fanout
from parlour.server.fast_actions import FastActions
from parlour.server.hooks import hooks_for
from parlour.server.hub import Hub
from parlour.server.mailer import Mailer
from parlour.server.ops import install_ops
from parlour.server.routers import auth, games, health, play, preview, scores, social, tables
from parlour.server.routers import endings as endings_routes  # resign, rematch, ratings
from parlour.server.runner import Runner
from parlour.server.services.context import ServerContext
from parlour.server.services.notifications import Notifier, warn_clocks
from parlour.server.settings import Settings
from parlour.storage.db import open_database
from parlour.web import web_root

DESCRIPTION = """
The parlour game server: accounts, a lobby, and games of every registered game, played
through the engine protocol. The server is the authority: clients send actions in the
game's notation with the version they saw; the engine validates them and the server stores
them in the table's append-only log.

Log in with `/auth/login` (a bearer token, and an HttpOnly cookie for browsers). Live updates
come over the WebSocket at `/ws` (see `parlour.server.ws`).
"""


class BodyLimit:
    """Refuse request bodies over *limit* bytes with 413 (by header, and while streaming)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = self.limit + 1
                if size > self.limit:
                    await self._too_large(send)
                    return
        # read the (small) body first, so an oversized one never reaches the app
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # disconnected: let the app see it
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        body = b'{"detail":"the request body is over %d bytes","code":"too_large"}' % self.limit
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


DOCS_POLICY = (
    b"default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    b"img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:"
)
"""The Content-Security-Policy of /docs and /redoc: nothing from another site. ReDoc's
bundle names a logo on its maker's CDN ("API docs by Redocly"); the browser does not fetch
it (on a machine with no network the page would otherwise look a name up and fail)."""


class DocsPolicy:
    """Add :data:`DOCS_POLICY` to the answers of the API docs pages."""

    PAGES = frozenset({"/docs", "/redoc"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in self.PAGES:
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"content-security-policy", DOCS_POLICY)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_policy)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server app for *settings* (default: SQLite in the data directory)."""
    settings = settings or Settings()
    ws.hide_tokens_in_logs()  # uvicorn logs each WebSocket's path with its ?token=
    for spec in specs():  # a game whose declarations the server cannot use fails here
        hooks_for(spec.name)
    engine = open_database(settings.database_url)
    ctx = ServerContext(engine=engine, settings=settings)
    hub = Hub(ctx)
    runner = Runner(ctx, hub)
    ctx.listeners.extend([hub.on_change, runner.on_change])
    # scale (issue 21): several processes on one PostgreSQL tell each other their commits
    fanout = Fanout(ctx, hub) if engine.dialect.name == "postgresql" else None
    if fanout is not None:
        ctx.listeners.insert(0, fanout.on_change)
    # notifications, mail and chat (lane social): a listener, and the outbox sender
    mailer = Mailer(ctx)
    notifier = Notifier(ctx, hub.send_account, mailer.wake)
    mailer.extra = lambda: warn_clocks(ctx, notifier)
    if settings.notifications:
        ctx.listeners.append(notifier.on_change)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(1, settings.workers)
        for spec in specs():  # what games load first (a word list), before anyone waits
            warm = hooks_for(spec.name).warm
            if warm is not None:
                await anyio.to_thread.run_sync(warm)
        # the word lists and everything loaded so far live as long as the server: out of the
        # collector's way, so a full collection no longer walks them (~60 ms on the loop)
        gc.collect()
        gc.freeze()
        ctx.writer.start()
        await runner.start()
        if fanout is not None:
            fanout.start()
        await mailer.start()
        try:
            yield
        finally:
            await mailer.stop()
            await runner.stop()
            ctx.writer.stop()
            if fanout is not None:
                fanout.stop()

    # /docs (Swagger UI) and /redoc load their scripts from the fastapi-offline package at
    # /docs-assets, never from a CDN: the docs work on a machine with no network
    app = FastAPIOffline(
        title="parlour",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        static_url="/docs-assets",
        swagger_ui_parameters={"validatorUrl": None},
    )
    app.state.ctx = ctx
    app.state.hub = hub
    app.state.runner = runner
    app.state.fanout = fanout
    app.state.mailer = mailer
    app.state.notifier = notifier
    errors.install(app)
    for module in (play, tables, auth, games, preview, scores, health):  # actions first
        app.include_router(module.router)
    app.include_router(social.router)
    app.include_router(ws.router)
    app.include_router(endings_routes.router)  # endings lane

    # the web client, last: every path no route above claims is a file of it
    app.mount("/", StaticFiles(directory=web_root(), html=True), name="web")
    # innermost: plain actions answered without FastAPI's routing (server/fast_actions.py)
    app.add_middleware(FastActions, ctx=ctx)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(DocsPolicy)
    install_ops(app, ctx, hub)  # /health, /ready, /metrics, request ids, shutdown (ops lane)
    if settings.forwarded_allow_ips:  # outermost: everything after sees the real client
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.forwarded_allow_ips))
    return app
