"""Several notifications stored in one statement (``add_notifications``): each new one comes
back as its row, in the order given; a key stored before for the account, or repeated in the
same call, stores nothing and comes back ``None``. On SQLite, and on PostgreSQL when
``PARLOUR_TEST_DATABASE`` names one."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from parlour.storage.accounts import create_account
from parlour.storage.db import forget_engines, open_database
from parlour.storage.social import Notification, add_notification, add_notifications

NOW = datetime(2026, 12, 2, 21, 0, tzinfo=UTC)


def test_add_notifications_stores_new_keys_once(db_url: str) -> None:
    engine = open_database(db_url)
    try:
        with engine.begin() as connection:
            ann = create_account(connection, name="ann", name_key="ann", password_hash="x", now=NOW)
            bob = create_account(connection, name="bob", name_key="bob", password_hash="x", now=NOW)
            before = add_notification(
                connection, account_id=bob, table_id=7, kind="turn", text="t", key="k1", now=NOW
            )
            assert before is not None
            rows = add_notifications(
                connection,
                [
                    (ann, 7, "turn", "It is your turn at table 7.", "k1"),  # ann's first k1
                    (bob, 7, "turn", "It is your turn at table 7.", "k1"),  # bob's k1: stored
                    (bob, 7, "end", "x" * 400, "end:7"),  # cut to 300 characters
                    (ann, 7, "turn", "again", "k1"),  # repeated in this call
                ],
                now=NOW,
            )
            assert [r is None for r in rows] == [False, True, False, True]
            first, _, end, _ = rows
            assert first is not None and end is not None
            assert (first.account_id, first.table_id, first.kind) == (ann, 7, "turn")
            assert first.text == "It is your turn at table 7."
            assert (end.account_id, end.kind, end.text) == (bob, "end", "x" * 300)
            assert first.created_at == NOW
            ids = {r.id for r in (before, first, end)}
            assert len(ids) == 3
            stored = connection.execute(
                select(Notification.account_id, Notification.key, Notification.text).order_by(
                    Notification.id
                )
            ).all()
            assert [tuple(r) for r in stored] == [
                (bob, "k1", "t"),
                (ann, "k1", "It is your turn at table 7."),
                (bob, "end:7", "x" * 300),
            ]
            assert add_notifications(connection, [], now=NOW) == []
            again = add_notifications(connection, [(ann, 7, "turn", "t", "k1")], now=NOW)
            assert again == [None]
            count = connection.execute(select(func.count()).select_from(Notification)).scalar()
            assert count == 3
    finally:
        forget_engines()
