"""What a host needs around the app (``create_app`` calls :func:`install_ops`): metrics
(:mod:`parlour.server.metrics`), request ids for JSON logs (:mod:`parlour.server.logs`)
and the WebSocket drain of a graceful shutdown (:mod:`parlour.server.shutdown`)."""

from __future__ import annotations

from fastapi import FastAPI

from parlour.server.hub import Hub, follower_count
from parlour.server.logs import RequestIds
from parlour.server.metrics import Metrics, MetricsMiddleware, allowed, count_logged_errors
from parlour.server.services.context import ServerContext
from parlour.server.shutdown import Drain, DrainMiddleware


def install_ops(app: FastAPI, ctx: ServerContext, hub: Hub) -> None:
    """Set ``app.state.drain`` and ``app.state.metrics`` (``None`` when ``Settings.metrics``
    is ``"off"``) and add their middleware; raises ``ValueError`` for a ``Settings.metrics``
    that is not ``"loopback"``, ``"on"`` or ``"off"``."""
    settings = ctx.settings
    allowed(settings.metrics, None)  # a bad setting fails here, not at the first scrape
    drain = Drain()
    app.state.drain = drain
    app.add_middleware(DrainMiddleware, drain=drain)
    app.state.metrics = None
    if settings.metrics != "off":
        metrics = Metrics()
        app.state.metrics = metrics
        ctx.metrics = metrics

        ctx.writer.on_batch = metrics.observe_batch
        metrics.track_queue(ctx.writer.queued)
        metrics.track_followers(lambda: follower_count(hub))
        count_logged_errors(metrics)
        app.add_middleware(MetricsMiddleware, metrics=metrics)
    if settings.json_logs:
        app.add_middleware(RequestIds)
