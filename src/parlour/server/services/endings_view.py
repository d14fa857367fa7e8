"""What a table shows of how it ended (resigned, aborted), its rating mode and its rematch:
the fields :mod:`parlour.server.services.endings` keeps in the table's ``lobby`` JSON, as the
table views show them. Apart so that the views need no import of the ending services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.storage.tables import TableRow


def ending_fields(table: TableRow, names: Sequence[str]) -> dict[str, Any]:
    """``rated``, ``ended``, ``resigned``, ``rematch`` (accepting names, the new table) and
    ``rematch_of`` of *table*, whose seats are named *names*."""
    lobby = table.lobby
    rematch = lobby.get("rematch")
    return {
        "rated": bool(lobby.get("rated", True)),
        "ended": lobby.get("ended"),
        "resigned": list(lobby.get("resigned", [])),
        "rematch": None
        if rematch is None
        else {
            "accepted": [names[s] for s in rematch.get("seats", []) if 0 <= s < len(names)],
            "table": rematch.get("table"),
        },
        "rematch_of": lobby.get("rematch_of"),
    }
