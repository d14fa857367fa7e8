"""Storage: SQLAlchemy 2 models and repositories, schema managed by Alembic.

Imports only the engine (never a game's internals): it stores JSON states and records.
"""

from parlour.storage.db import open_database
from parlour.storage.saves import SaveInfo, delete_save, list_saves, load_save, save_game

__all__ = ["SaveInfo", "delete_save", "list_saves", "load_save", "open_database", "save_game"]
