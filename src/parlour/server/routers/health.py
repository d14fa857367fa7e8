"""The host's routes: ``/health`` (alive), ``/ready`` (able to serve) and ``/metrics``.

- ``GET /health`` touches no database: 200 while the process runs and its group writer has
  not died (503 with ``ok: false`` and ``writer.failure`` once it has: restart the process).
  A load balancer's or systemd's liveness check.
- ``GET /ready``: 200 when the database answers a query and the writer runs and the process
  is not shutting down; else 503 with ``ready: false`` and ``reason``. A load balancer sends
  players only to a ready process.
- ``GET /metrics``: Prometheus' text format (:mod:`parlour.server.metrics`), for the
  addresses ``Settings.metrics`` allows (by default loopback only); 404 for the others.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from parlour import __version__
from parlour.server import metrics
from parlour.server.hub import follower_count
from parlour.server.services.context import ServerContext

router = APIRouter(tags=["server"])


@router.get("/health")
def health(request: Request) -> JSONResponse:
    """Liveness: the version, the database dialect, the WebSocket followers and the group
    writer's figures; no query. 503 with ``ok: false`` and the writer's ``failure`` once the
    writer is down (every change is then refused: restart the server)."""
    ctx: ServerContext = request.app.state.ctx
    writer = ctx.writer
    body: dict[str, Any] = {
        "ok": writer.failure is None,
        "version": __version__,
        "database": ctx.engine.dialect.name,
        "followers": follower_count(request.app.state.hub),
        "writer": {
            "running": writer.running,
            "failure": writer.failure,
            "batches": writer.batches,
            "writes": writer.writes,
            "busy_seconds": round(writer.busy, 3),
        },
    }
    return JSONResponse(body, status_code=200 if writer.failure is None else 503)


@router.get("/ready")
def ready(request: Request) -> JSONResponse:
    """Readiness: ``{"ready": true}``, or 503 with ``ready: false`` and ``reason`` when the
    server is shutting down, its writer is not running, or the database does not answer."""
    ctx: ServerContext = request.app.state.ctx
    drain = getattr(request.app.state, "drain", None)
    reason: str | None = None
    if drain is not None and drain.draining:
        reason = "shutting down"
    elif not ctx.writer.running:
        reason = f"the writer is not running ({ctx.writer.failure or 'stopped'})"
    else:
        try:
            with ctx.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError as err:
            reason = f"the database does not answer ({type(err).__name__})"
    if reason is not None:
        return JSONResponse({"ready": False, "reason": reason}, status_code=503)
    return JSONResponse({"ready": True})


@router.get("/metrics", include_in_schema=False)
def metrics_text(request: Request) -> Response:
    """The metrics in Prometheus' text format; 404 to an address ``Settings.metrics`` does
    not allow."""
    ctx: ServerContext = request.app.state.ctx
    client = request.client.host if request.client else None
    found: metrics.Metrics | None = getattr(request.app.state, "metrics", None)
    if found is None or not metrics.allowed(ctx.settings.metrics, client):
        return JSONResponse({"detail": "Not Found", "code": "not_found"}, status_code=404)
    return Response(found.render(), media_type=found.content_type)
