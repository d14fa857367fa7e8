"""The game server: a FastAPI app (REST + WebSocket) over the engine protocol and storage.

``create_app(settings)`` builds it; ``parlour serve`` runs it under uvicorn. Layout (STYLE.md
section 5): ``settings``, ``errors`` (domain errors -> HTTP), ``schemas`` (wire models),
``deps`` (typed dependencies), ``routers/`` (thin routes), ``services/`` (the work, shared by
HTTP and WebSocket), ``hub`` (pushing events), ``runner`` (computer players and the clock
sweeper in the background), ``hooks`` (per-game extension points), ``bench`` (load test).
"""

from parlour.server.app import create_app
from parlour.server.settings import Settings

__all__ = ["Settings", "create_app"]
