"""Migration ``0009_notifications_chat``: it adds the notification, outbox, mail-settings,
chat and mute tables (with the unique keys that make a notice or a mail stored once), and
its downgrade takes them away again."""

from __future__ import annotations

from alembic import command
from sqlalchemy import create_engine, inspect

from parlour.storage.db import alembic_config

TABLES = {"notifications", "mail_outbox", "mail_settings", "chat_messages", "chat_mutes"}


def _tables(url: str) -> tuple[set[str], dict[str, list[list[str]]]]:
    engine = create_engine(url)
    try:
        found = inspect(engine)
        names = set(found.get_table_names())
        uniques = {
            t: [u["column_names"] for u in found.get_unique_constraints(t)]
            for t in ("notifications", "mail_outbox")
            if t in names
        }
        return names, uniques
    finally:
        engine.dispose()


def test_the_social_tables_come_and_go_with_the_migration(db_url: str) -> None:
    config = alembic_config(db_url)
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")
        names, uniques = _tables(db_url)
        assert names >= TABLES
        assert uniques == {
            "notifications": [["account_id", "key"]],
            "mail_outbox": [["account_id", "key"]],
        }
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0008_no_table_snapshot")
        assert not TABLES & _tables(db_url)[0]
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")
        assert _tables(db_url)[0] >= TABLES
    finally:
        engine.dispose()
