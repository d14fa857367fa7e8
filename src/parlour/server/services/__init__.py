"""The server's work, as plain functions over a :class:`ServerContext` (no HTTP in here)."""

from parlour.server.services.context import ServerContext

__all__ = ["ServerContext"]
