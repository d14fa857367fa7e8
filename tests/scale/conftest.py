"""The server tests' fixtures (settings on the test database, a fixed clock)."""

from tests.server.conftest import clock, settings

__all__ = ["clock", "settings"]
