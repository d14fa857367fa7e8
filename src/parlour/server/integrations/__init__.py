"""Per-game server integrations: each module registers its game's :class:`GameHooks`.

Importing this package registers them all (``create_app`` does).
"""

from parlour.server.integrations import crossword, rummy

__all__ = ["crossword", "rummy"]
