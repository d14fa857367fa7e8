"""Table chat: each table has one chat, written by its players and read by everyone who may
see the table (spectators read it and cannot post), stored with the table
(``chat_messages``) and pushed live as a ``chat`` WebSocket message.

Limits (``Settings``): a message is 1 to ``chat_max_chars`` characters after trimming, with no
control characters but line breaks and tabs and no bidirectional override (refused with
422 and the reason); an account
posts at most ``chat_rate`` messages in its window of seconds, counted in the database
(so across server processes) within the write that stores the message (429 past it, with
``retry_after``). A person may mute another: the muted person's messages are left out of
the muter's list and never pushed to the muter's sockets.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from parlour.server.errors import Forbidden, NotFound, RateLimited, Refused
from parlour.server.services.accounts import fold
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import may_see
from parlour.storage.accounts import find_account
from parlour.storage.social import (
    add_chat,
    chat_since,
    list_chat,
    muted_by,
    muters_of,
    set_mute,
)
from parlour.storage.tables import CANCELLED, get_seats, get_table

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to
U+2069): an override (U+202E) makes the rest of a line read backwards, so a message could
show other words than it holds. The plain marks (U+200E, U+200F), which right-to-left
writers use, are taken."""


@dataclass(frozen=True)
class ChatLine:
    """A chat message as shown: id, table, sender (id and name), text, when."""

    id: int
    table_id: int
    account_id: int
    name: str
    text: str
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        """As the API and the ``chat`` message carry it."""
        return {
            "id": self.id,
            "table": self.table_id,
            "account": self.account_id,
            "name": self.name,
            "text": self.text,
            "created_at": self.created_at.isoformat(),
        }


def clean_text(ctx: ServerContext, text: str) -> str:
    """The message to store: *text* with its CRLF and CR line breaks as LF, trimmed. Raises
    :class:`Refused` for an empty one, one over ``Settings.chat_max_chars`` characters, or
    one with control characters or bidirectional overrides (:data:`BIDI`)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    limit = ctx.settings.chat_max_chars
    if not text:
        raise Refused("a chat message needs some text")
    if len(text) > limit:
        raise Refused(f"a chat message is at most {limit} characters (this one has {len(text)})")
    if CONTROL.search(text):
        raise Refused("a chat message may not hold control characters (line breaks are fine)")
    if BIDI.search(text):
        raise Refused(
            "a chat message may not hold the invisible characters that change the direction "
            "of text (they can make words read backwards)"
        )
    return text


def post(
    ctx: ServerContext, *, table_id: int, account_id: int, text: str
) -> tuple[ChatLine, set[int]]:
    """Store a message of a player at *table_id*; the line and the accounts that muted the
    sender (not to be sent it). Raises :class:`NotFound` (no such table, or one the account
    may not see), :class:`Forbidden` (not a player there), :class:`Refused` (the text, a
    cancelled table) and :class:`RateLimited` (past ``Settings.chat_rate``)."""
    text = clean_text(ctx, text)
    most, window = ctx.settings.chat_rate

    def work(connection: Connection) -> tuple[int, datetime, set[int]]:
        table = get_table(connection, table_id)
        if table is None:
            raise NotFound(f"no table {table_id}")
        seats = get_seats(connection, table_id)
        if not any(s.account_id == account_id for s in seats):
            if not may_see(table, seats, account_id, None):
                raise NotFound(f"no table {table_id}")
            raise Forbidden("only the players of a table post in its chat; spectators read it")
        if table.status == CANCELLED:
            raise Refused("the table was cancelled: its chat is closed")
        now = ctx.now()
        if chat_since(connection, account_id, now - timedelta(seconds=window)) >= most:
            raise RateLimited(
                f"at most {most} chat messages in {window:g} seconds: wait a moment",
                retry_after=max(1, math.ceil(window)),
            )
        return (
            add_chat(connection, table_id, account_id, text, now),
            now,
            muters_of(connection, account_id),
        )

    message_id, now, muters = ctx.write(work)
    with ctx.engine.connect() as connection:
        name = ctx.account_names(connection, [account_id]).get(account_id, "?")
    return ChatLine(message_id, table_id, account_id, name, text, now), muters


def read(
    ctx: ServerContext,
    *,
    table_id: int,
    account_id: int | None,
    invite: str | None,
    after: int,
    limit: int,
) -> list[ChatLine]:
    """The chat of *table_id* after message id *after*, oldest first, for a viewer who may
    see the table (players, and spectators of a table they may watch), without the senders
    the viewer muted. Raises :class:`NotFound` otherwise."""
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
        if table is None or not may_see(table, get_seats(connection, table_id), account_id, invite):
            raise NotFound(f"no table {table_id}")
        hidden = muted_by(connection, account_id) if account_id is not None else set()
        rows = list_chat(connection, table_id, after=after, limit=limit, hidden=hidden)
        names = ctx.account_names(connection, [r[1] for r in rows])
    return [ChatLine(i, table_id, a, names.get(a, "?"), t, at) for i, a, t, at in rows]


def mute(ctx: ServerContext, *, account_id: int, name: str, muted: bool) -> str:
    """Mute (or unmute) the account named *name* for *account_id*; the name as registered.
    Raises :class:`NotFound` for no such account and :class:`Refused` for oneself."""
    with ctx.engine.connect() as connection:
        other = find_account(connection, fold(name))
    if other is None:
        raise NotFound(f"no account {name!r}")
    if other.id == account_id:
        raise Refused("you cannot mute yourself")
    ctx.write(lambda c: set_mute(c, account_id, other.id, muted))
    return other.name


def mutes(ctx: ServerContext, account_id: int) -> list[str]:
    """The names of the accounts *account_id* muted, sorted."""
    with ctx.engine.connect() as connection:
        ids = muted_by(connection, account_id)
        names = ctx.account_names(connection, sorted(ids))
    return sorted(names.values(), key=str.lower)
