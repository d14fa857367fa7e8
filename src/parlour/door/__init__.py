"""``parlour door``: an SSH server that opens a game server to terminal players, as the
BBS doors did (docs/server.md, "The SSH door").

People log in with their game-server account (the password is checked by the server's
``POST /auth/login``); each SSH session gets its own pseudo-terminal and its own process
running ``parlour connect URL`` with that login's token in ``PARLOUR_TOKEN``. Nothing is
shared between sessions but the game server.
"""

from __future__ import annotations

from parlour.door.settings import DoorSettings

__all__ = ["DoorSettings"]
