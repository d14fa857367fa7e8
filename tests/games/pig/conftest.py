"""The server's fixtures (a client through the real app, its settings and clock) for
``test_server.py``: Pig is played there exactly as every game is."""

from tests.server.conftest import client, clock, settings

__all__ = ["client", "clock", "settings"]
