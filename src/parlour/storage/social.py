"""Notifications, the mail outbox, e-mail settings, table chat and mutes (migration
``0009_notifications_chat``): the models and the statements the server's social services
run. Every function takes an open connection; the caller owns the transaction."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from parlour.storage.models import Base

PENDING = "pending"
SENT = "sent"
FAILED = "failed"


class Notification(Base):
    """One thing a person was told: ``kind`` (``turn``, ``start``, ``end``, ``clock``,
    ``daily``), a text naming the table and the game, and a ``key`` unique per account so
    the same event is never stored twice (by two processes, or after a restart)."""

    __tablename__ = "notifications"
    __table_args__ = (UniqueConstraint("account_id", "key", name="uq_notifications_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(300))
    key: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MailSettings(Base):
    """A person's e-mail address, whether they asked for mail (off by default), and the
    random token of their one-click unsubscribe link."""

    __tablename__ = "mail_settings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    opt_in: Mapped[bool] = mapped_column(Boolean, default=False)
    unsubscribe_token: Mapped[str] = mapped_column(String(64), unique=True)


class OutboxMail(Base):
    """A mail to send: ``pending`` until the SMTP server accepted it (then ``sent``), or
    ``failed`` once it refused it for good or every attempt was used."""

    __tablename__ = "mail_outbox"
    __table_args__ = (UniqueConstraint("account_id", "key", name="uq_mail_outbox_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    key: Mapped[str] = mapped_column(String(120))
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    unsubscribe_token: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(8))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)


class ChatMessage(Base):
    """A line of a table's chat."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMute(Base):
    """*account_id* does not want to read *muted_id*'s chat."""

    __tablename__ = "chat_mutes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)


@dataclass(frozen=True)
class NotificationRow:
    """A notification as read."""

    id: int
    account_id: int
    table_id: int | None
    kind: str
    text: str
    created_at: datetime
    read_at: datetime | None


@dataclass(frozen=True)
class MailRow:
    """An outbox mail as read."""

    id: int
    account_id: int
    to_address: str
    subject: str
    body: str
    unsubscribe_token: str
    attempts: int


@dataclass(frozen=True)
class ChatRow:
    """A chat line as read (``name``: the sender's display name)."""

    id: int
    table_id: int
    account_id: int
    name: str
    text: str
    created_at: datetime


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored here is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _insert_ignore(connection: Connection, model: type[Base], values: dict[str, Any]) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING id: the new row's id, or ``None`` when a
    row with the same unique key is there already."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(model).values(**values).on_conflict_do_nothing()
    return connection.execute(statement.returning(model.id)).scalar()  # type: ignore[attr-defined]


# --- notifications --------------------------------------------------------------------------

ADD_NOTIFICATION = sql_text(
    "INSERT INTO notifications (account_id, table_id, kind, text, key, created_at) "
    "VALUES (:account_id, :table_id, :kind, :text, :key, :created_at) "
    "ON CONFLICT DO NOTHING RETURNING id"
).bindparams(bindparam("created_at", type_=DateTime(timezone=True)))
"""One notification, unless its key is stored for the account already (then no row comes
back). Written out once: a notice is stored at nearly every turn, and building the
statement each time cost more than running it."""


def add_notification(
    connection: Connection,
    *,
    account_id: int,
    table_id: int | None,
    kind: str,
    text: str,
    key: str,
    now: datetime,
) -> NotificationRow | None:
    """Store a notification; ``None`` (nothing stored) when *key* was stored for this
    account before."""
    new_id = connection.execute(
        ADD_NOTIFICATION,
        dict(
            account_id=account_id,
            table_id=table_id,
            kind=kind,
            text=text[:300],
            key=key,
            created_at=now,
        ),
    ).scalar()
    if new_id is None:
        return None
    return NotificationRow(new_id, account_id, table_id, kind, text[:300], now, None)


_ADD_NOTIFICATIONS: dict[int, Any] = {}
"""The statement storing *n* notifications at once, by *n* (written out once each)."""


def _add_notifications_statement(count: int) -> Any:
    statement = _ADD_NOTIFICATIONS.get(count)
    if statement is None:
        values = ", ".join(
            f"(:account_id_{i}, :table_id_{i}, :kind_{i}, :text_{i}, :key_{i}, :created_at)"
            for i in range(count)
        )
        statement = sql_text(
            "INSERT INTO notifications (account_id, table_id, kind, text, key, created_at) "
            f"VALUES {values} ON CONFLICT DO NOTHING RETURNING id, account_id, key"
        ).bindparams(bindparam("created_at", type_=DateTime(timezone=True)))
        if count <= 64:
            _ADD_NOTIFICATIONS[count] = statement
    return statement


def add_notifications(
    connection: Connection,
    notices: Sequence[tuple[int, int | None, str, str, str]],
    *,
    now: datetime,
) -> list[NotificationRow | None]:
    """Store several notifications in one statement: *notices* are ``(account_id, table_id,
    kind, text, key)``; the answer holds, in their order, each one's row, or ``None`` where
    its key was stored for the account before (or earlier in *notices*). One round trip
    however many (a turn passes at nearly every action: one statement per action was a
    large part of the writer's time)."""
    unique: dict[tuple[int, str], tuple[int, int | None, str, str, str]] = {}
    for notice in notices:
        unique.setdefault((notice[0], notice[4]), notice)
    if not unique:
        return [None] * len(notices)
    params: dict[str, Any] = {"created_at": now}
    for i, (account_id, table_id, kind, text, key) in enumerate(unique.values()):
        params[f"account_id_{i}"] = account_id
        params[f"table_id_{i}"] = table_id
        params[f"kind_{i}"] = kind
        params[f"text_{i}"] = text[:300]
        params[f"key_{i}"] = key
    stored = {
        (account_id, key): new_id
        for new_id, account_id, key in connection.execute(
            _add_notifications_statement(len(unique)), params
        )
    }
    out: list[NotificationRow | None] = []
    for account_id, table_id, kind, text, key in notices:
        new_id = stored.pop((account_id, key), None)  # a repeated key: stored once, first
        out.append(
            None
            if new_id is None
            else NotificationRow(new_id, account_id, table_id, kind, text[:300], now, None)
        )
    return out


def list_notifications(
    connection: Connection, account_id: int, *, before: int | None, limit: int
) -> list[NotificationRow]:
    """An account's notifications, newest first, those with an id below *before* if given."""
    query = select(
        Notification.id,
        Notification.account_id,
        Notification.table_id,
        Notification.kind,
        Notification.text,
        Notification.created_at,
        Notification.read_at,
    ).where(Notification.account_id == account_id)
    if before is not None:
        query = query.where(Notification.id < before)
    rows = connection.execute(query.order_by(Notification.id.desc()).limit(limit))
    return [
        NotificationRow(i, a, t, k, x, _utc(at), None if read is None else _utc(read))
        for i, a, t, k, x, at, read in rows
    ]


def unread_count(connection: Connection, account_id: int) -> int:
    """How many of an account's notifications are unread."""
    query = select(func.count()).where(
        Notification.account_id == account_id, Notification.read_at.is_(None)
    )
    return int(connection.execute(query).scalar_one())


def mark_read(
    connection: Connection, account_id: int, now: datetime, notification_id: int | None = None
) -> int:
    """Mark one notification (or, with no id, all) of the account read; how many changed."""
    statement = update(Notification).where(
        Notification.account_id == account_id, Notification.read_at.is_(None)
    )
    if notification_id is not None:
        statement = statement.where(Notification.id == notification_id)
    return connection.execute(statement.values(read_at=now)).rowcount


def has_notification(connection: Connection, account_id: int, notification_id: int) -> bool:
    """True when the account has a notification with this id."""
    query = select(Notification.id).where(
        Notification.account_id == account_id, Notification.id == notification_id
    )
    return connection.execute(query).first() is not None


# --- e-mail settings and the outbox ---------------------------------------------------------


def mail_settings(connection: Connection, account_id: int) -> tuple[str | None, bool, str | None]:
    """An account's (e-mail, opt-in, unsubscribe token); ``(None, False, None)`` when unset."""
    row = connection.execute(
        select(MailSettings.email, MailSettings.opt_in, MailSettings.unsubscribe_token).where(
            MailSettings.account_id == account_id
        )
    ).first()
    return (None, False, None) if row is None else (row[0], bool(row[1]), row[2])


def mail_recipients(connection: Connection, account_ids: list[int]) -> dict[int, tuple[str, str]]:
    """The accounts among *account_ids* that asked for mail: id -> (address, token)."""
    if not account_ids:
        return {}
    rows = connection.execute(
        select(MailSettings.account_id, MailSettings.email, MailSettings.unsubscribe_token).where(
            MailSettings.account_id.in_(account_ids),
            MailSettings.opt_in.is_(True),
            MailSettings.email.is_not(None),
        )
    )
    return {row[0]: (str(row[1]), row[2]) for row in rows}


def set_mail_settings(
    connection: Connection, account_id: int, *, email: str | None, opt_in: bool
) -> None:
    """Set an account's e-mail address and opt-in (a new account gets its token here)."""
    changed = connection.execute(
        update(MailSettings)
        .where(MailSettings.account_id == account_id)
        .values(email=email, opt_in=opt_in)
    ).rowcount
    if not changed:
        connection.execute(
            insert(MailSettings).values(
                account_id=account_id,
                email=email,
                opt_in=opt_in,
                unsubscribe_token=secrets.token_urlsafe(32),
            )
        )


def forget_mail(connection: Connection, account_id: int) -> None:
    """Drop an account's address and its unsent mail (the account is being deleted)."""
    connection.execute(delete(MailSettings).where(MailSettings.account_id == account_id))
    connection.execute(
        delete(OutboxMail).where(OutboxMail.account_id == account_id, OutboxMail.status == PENDING)
    )


def unsubscribe(connection: Connection, token: str) -> bool:
    """Turn mail off for the account of *token*; ``False`` for an unknown token."""
    changed = connection.execute(
        update(MailSettings).where(MailSettings.unsubscribe_token == token).values(opt_in=False)
    ).rowcount
    return bool(changed)


def token_known(connection: Connection, token: str) -> bool:
    """True when *token* is some account's unsubscribe token."""
    query = select(MailSettings.account_id).where(MailSettings.unsubscribe_token == token)
    return connection.execute(query).first() is not None


def queue_mail(
    connection: Connection,
    *,
    account_id: int,
    key: str,
    to_address: str,
    subject: str,
    body: str,
    token: str,
    now: datetime,
) -> bool:
    """Put a mail in the outbox; ``False`` (nothing queued) when *key* was queued for this
    account before (the once-a-day mail, a notification seen twice)."""
    new_id = _insert_ignore(
        connection,
        OutboxMail,
        dict(
            account_id=account_id,
            key=key,
            to_address=to_address,
            subject=subject[:200],
            body=body,
            unsubscribe_token=token,
            status=PENDING,
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        ),
    )
    return new_id is not None


def due_mail(connection: Connection, now: datetime, limit: int) -> list[MailRow]:
    """Pending mail whose next attempt is due, oldest first. On PostgreSQL the rows are
    locked (``FOR UPDATE SKIP LOCKED``) until the caller's transaction ends, so another
    process's outbox sender skips them."""
    query = (
        select(
            OutboxMail.id,
            OutboxMail.account_id,
            OutboxMail.to_address,
            OutboxMail.subject,
            OutboxMail.body,
            OutboxMail.unsubscribe_token,
            OutboxMail.attempts,
        )
        .where(OutboxMail.status == PENDING, OutboxMail.next_attempt_at <= now)
        .order_by(OutboxMail.id)
        .limit(limit)
    )
    if connection.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return [MailRow(*row) for row in connection.execute(query)]


def mark_mail(
    connection: Connection,
    mail_id: int,
    *,
    status: str,
    attempts: int,
    next_attempt_at: datetime | None = None,
    sent_at: datetime | None = None,
    error: str | None = None,
) -> None:
    """Record an attempt at a mail: sent, failed for good, or to try again at a time."""
    values: dict[str, Any] = {"status": status, "attempts": attempts, "last_error": error}
    if next_attempt_at is not None:
        values["next_attempt_at"] = next_attempt_at
    if sent_at is not None:
        values["sent_at"] = sent_at
    connection.execute(update(OutboxMail).where(OutboxMail.id == mail_id).values(**values))


def outbox(connection: Connection) -> list[dict[str, Any]]:
    """Every outbox row's id, key, status and attempts (for tests and the admin)."""
    rows = connection.execute(
        select(OutboxMail.id, OutboxMail.key, OutboxMail.status, OutboxMail.attempts).order_by(
            OutboxMail.id
        )
    )
    return [dict(id=r[0], key=r[1], status=r[2], attempts=r[3]) for r in rows]


# --- chat -----------------------------------------------------------------------------------


def add_chat(
    connection: Connection, table_id: int, account_id: int, text: str, now: datetime
) -> int:
    """Store a chat line; its id."""
    result = connection.execute(
        insert(ChatMessage).values(
            table_id=table_id, account_id=account_id, text=text, created_at=now
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def chat_since(connection: Connection, account_id: int, since: datetime) -> int:
    """How many chat lines the account posted after *since* (any table)."""
    query = select(func.count()).where(
        ChatMessage.account_id == account_id, ChatMessage.created_at > since
    )
    return int(connection.execute(query).scalar_one())


def list_chat(
    connection: Connection, table_id: int, *, after: int, limit: int, hidden: set[int]
) -> list[tuple[int, int, str, datetime]]:
    """A table's chat lines after id *after*, oldest first, leaving out *hidden* senders:
    (id, account id, text, created at)."""
    query = select(
        ChatMessage.id, ChatMessage.account_id, ChatMessage.text, ChatMessage.created_at
    ).where(ChatMessage.table_id == table_id, ChatMessage.id > after)
    if hidden:
        query = query.where(ChatMessage.account_id.not_in(hidden))
    rows = connection.execute(query.order_by(ChatMessage.id).limit(limit))
    return [(r[0], r[1], r[2], _utc(r[3])) for r in rows]


def muted_by(connection: Connection, account_id: int) -> set[int]:
    """The accounts *account_id* muted."""
    rows = connection.execute(select(ChatMute.muted_id).where(ChatMute.account_id == account_id))
    return {row[0] for row in rows}


def muters_of(connection: Connection, account_id: int) -> set[int]:
    """The accounts that muted *account_id*."""
    rows = connection.execute(select(ChatMute.account_id).where(ChatMute.muted_id == account_id))
    return {row[0] for row in rows}


def set_mute(connection: Connection, account_id: int, muted_id: int, muted: bool) -> None:
    """Mute (or unmute) *muted_id* for *account_id*; doing it twice changes nothing."""
    if not muted:
        connection.execute(
            delete(ChatMute).where(ChatMute.account_id == account_id, ChatMute.muted_id == muted_id)
        )
        return
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(
        dialect.insert(ChatMute)
        .values(account_id=account_id, muted_id=muted_id)
        .on_conflict_do_nothing()
    )


def delete_chat(connection: Connection, table_id: int) -> None:
    """Delete a table's chat (the table is being deleted)."""
    connection.execute(delete(ChatMessage).where(ChatMessage.table_id == table_id))
