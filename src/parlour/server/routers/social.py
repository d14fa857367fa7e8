"""Notifications, e-mail settings, the unsubscribe link, table chat and mutes (see
:mod:`parlour.server.services.notifications`, :mod:`parlour.server.mailer` and
:mod:`parlour.server.services.chat`)."""

from __future__ import annotations

import html
import re
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field, field_validator

from parlour.server.deps import AccountDep, CtxDep, MaybeAccountDep
from parlour.server.errors import NotFound, Refused
from parlour.server.schemas import ErrorOut, Strict
from parlour.server.services import chat
from parlour.server.services.notifications import notification_json
from parlour.storage.social import (
    has_notification,
    list_notifications,
    mail_settings,
    mark_read,
    set_mail_settings,
    token_known,
    unread_count,
    unsubscribe,
)

router = APIRouter(tags=["notifications and chat"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422, 429)
}
TableId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Invite = Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Token = Annotated[str, Path(min_length=20, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
EMAIL = re.compile(r"^[^@\s<>\",;]{1,64}@[^@\s<>\",;]+\.[^@\s<>\",;]+$")


class NotificationOut(BaseModel):
    """One notification: what happened at which table (``kind``: ``turn``, ``start``,
    ``end``, ``clock``, ``daily``)."""

    id: int
    table: int | None
    kind: str
    text: str
    created_at: str
    read: bool


class NotificationsOut(BaseModel):
    """A page of notifications, newest first; ``next_before`` asks for the next page."""

    notifications: list[NotificationOut]
    unread: int
    next_before: int | None


class UnreadOut(BaseModel):
    """How many notifications are unread now."""

    unread: int


class MailIn(Strict):
    """E-mail settings: an address (``null``: none) and whether to get mail (off unless
    asked; needs an address). Checked as every request body (:class:`Strict`)."""

    email: str | None = Field(default=None, max_length=254)
    notify: bool = False

    @field_validator("email")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not EMAIL.match(value):
            raise ValueError("not an e-mail address (name@example.org)")
        return value


class MailOut(BaseModel):
    """E-mail settings as stored; ``sending``: whether this server sends mail at all."""

    email: str | None
    notify: bool
    sending: bool


class ChatIn(Strict):
    """A chat message (trimmed; 1 to ``Settings.chat_max_chars`` characters); checked as
    every request body (:class:`Strict`)."""

    text: str = Field(max_length=4_000)


class ChatLineOut(BaseModel):
    """A chat message: its id, table, sender (account id and name), text and time."""

    id: int
    table: int
    account: int
    name: str
    text: str
    created_at: str


class ChatOut(BaseModel):
    """Chat messages, oldest first."""

    messages: list[ChatLineOut]


class MutesOut(BaseModel):
    """The names of the accounts you muted."""

    muted: list[str]


# --- notifications --------------------------------------------------------------------------


@router.get("/me/notifications", response_model=NotificationsOut, responses=ERRORS)
def notifications(
    ctx: CtxDep,
    account: AccountDep,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Any:
    """Your notifications, newest first (``before``: ids below it, for the next page), and
    how many are unread."""
    with ctx.engine.connect() as connection:
        rows = list_notifications(connection, account.id, before=before, limit=limit)
        unread = unread_count(connection, account.id)
    return {
        "notifications": [notification_json(r) for r in rows],
        "unread": unread,
        "next_before": rows[-1].id if len(rows) == limit else None,
    }


@router.post("/me/notifications/read", response_model=UnreadOut, responses=ERRORS)
def read_all(ctx: CtxDep, account: AccountDep) -> Any:
    """Mark all your notifications read."""
    ctx.write(lambda c: mark_read(c, account.id, ctx.now()))
    return {"unread": 0}


@router.post("/me/notifications/{notification_id}/read", response_model=UnreadOut, responses=ERRORS)
def read_one(
    notification_id: Annotated[int, Path(ge=1, le=2**31 - 1)], ctx: CtxDep, account: AccountDep
) -> Any:
    """Mark one of your notifications read (404: not one of yours)."""

    def work(connection: Any) -> int:
        if not has_notification(connection, account.id, notification_id):
            raise NotFound(f"no notification {notification_id}")
        mark_read(connection, account.id, ctx.now(), notification_id)
        return unread_count(connection, account.id)

    return {"unread": ctx.write(work)}


# --- e-mail -------------------------------------------------------------------------------


@router.get("/me/mail", response_model=MailOut, responses=ERRORS)
def get_mail(ctx: CtxDep, account: AccountDep) -> Any:
    """Your e-mail settings."""
    with ctx.engine.connect() as connection:
        email, opt_in, _token = mail_settings(connection, account.id)
    return {"email": email, "notify": opt_in, "sending": bool(ctx.settings.smtp_host)}


@router.put("/me/mail", response_model=MailOut, responses=ERRORS)
def put_mail(body: MailIn, ctx: CtxDep, account: AccountDep) -> Any:
    """Set your e-mail address and whether you get mail (turns, starts, ends, clocks, and
    one "your plays today" mail a day for daily crosswords). Asking for mail without an
    address is refused (422)."""
    if body.notify and body.email is None:
        raise Refused("give an e-mail address to get mail")
    ctx.write(lambda c: set_mail_settings(c, account.id, email=body.email, opt_in=body.notify))
    return {"email": body.email, "notify": body.notify, "sending": bool(ctx.settings.smtp_host)}


def _page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title><body><h1>{html.escape(title)}</h1>{body}</body>"
        "</html>",
        status_code=status_code,
    )


@router.get("/unsubscribe/{token}", response_class=HTMLResponse, responses={404: {}})
def unsubscribe_page(token: Token, ctx: CtxDep) -> HTMLResponse:
    """The page of a mail's unsubscribe link: a button that confirms (a GET changes nothing:
    mail scanners follow links)."""
    with ctx.engine.connect() as connection:
        known = token_known(connection, token)
    if not known:
        return _page("Unknown link", "<p>This unsubscribe link is not known.</p>", 404)
    return _page(
        "Stop parlour mail",
        f'<form method="post" action="/unsubscribe/{html.escape(token)}">'
        "<p>Stop all mail from parlour to this address?</p>"
        '<button type="submit">Unsubscribe</button></form>',
    )


@router.post("/unsubscribe/{token}", response_class=HTMLResponse, responses={404: {}})
async def unsubscribe_post(token: Token, ctx: CtxDep, request: Request) -> HTMLResponse:
    """Unsubscribe (the confirm page's button, or a mail client's RFC 8058 one-click POST):
    no more mail for the account until it asks again in its settings."""
    await request.body()
    done = await ctx.write_async(lambda c: unsubscribe(c, token))
    if not done:
        return _page("Unknown link", "<p>This unsubscribe link is not known.</p>", 404)
    return _page("Unsubscribed", "<p>You will get no more mail from parlour.</p>")


# --- chat ---------------------------------------------------------------------------------


@router.get("/tables/{table_id}/chat", response_model=ChatOut, responses=ERRORS)
def get_chat(
    table_id: TableId,
    ctx: CtxDep,
    account: MaybeAccountDep,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
    invite: Invite = None,
) -> Any:
    """The table's chat after message ``after``, oldest first (the replay reads it too).
    Everyone who may see the table reads it (spectators too); the senders you muted are
    left out."""
    lines = chat.read(
        ctx,
        table_id=table_id,
        account_id=account.id if account else None,
        invite=invite,
        after=after,
        limit=limit,
    )
    return {"messages": [line.to_json() for line in lines]}


@router.post(
    "/tables/{table_id}/chat",
    status_code=status.HTTP_201_CREATED,
    response_model=ChatLineOut,
    responses=ERRORS,
)
def post_chat(
    table_id: TableId, body: ChatIn, ctx: CtxDep, account: AccountDep, request: Request
) -> Any:
    """Post to the table's chat (players only: 403 for a spectator). Refused with 422 for
    an empty or too long text, 429 past the rate limit (``Retry-After``). Sent live as a
    ``chat`` message to the table's WebSockets, except to those who muted you."""
    line, muters = chat.post(ctx, table_id=table_id, account_id=account.id, text=body.text)
    message = line.to_json()
    request.app.state.hub.send_table(
        table_id, {"type": "chat", "table": table_id, "message": message}, skip=muters
    )
    return message


@router.get("/me/mutes", response_model=MutesOut, responses=ERRORS)
def get_mutes(ctx: CtxDep, account: AccountDep) -> Any:
    """The accounts you muted."""
    return {"muted": chat.mutes(ctx, account.id)}


Name = Annotated[str, Path(min_length=1, max_length=40)]


@router.put("/me/mutes/{name}", response_model=MutesOut, responses=ERRORS)
def put_mute(name: Name, ctx: CtxDep, account: AccountDep) -> Any:
    """Mute an account: its chat messages no longer reach you (listed or live)."""
    chat.mute(ctx, account_id=account.id, name=name, muted=True)
    return {"muted": chat.mutes(ctx, account.id)}


@router.delete("/me/mutes/{name}", response_model=MutesOut, responses=ERRORS)
def delete_mute(name: Name, ctx: CtxDep, account: AccountDep) -> Any:
    """Unmute an account."""
    chat.mute(ctx, account_id=account.id, name=name, muted=False)
    return {"muted": chat.mutes(ctx, account.id)}
