"""The outbox sender: mails the notifications people asked to get by e-mail.

Mail is never sent on a request's path. :func:`~.services.notifications.store_notices`
puts it in the ``mail_outbox`` table in the same transaction as the notification, so a
restart loses none of it; :class:`Mailer`, a background task of the app (started in its
lifespan, stopped at shutdown), sends what is due through the SMTP server of the settings
(``Settings.smtp_*``) and marks a row ``sent`` only after the server accepted it. A server
that is down, refuses the connection or answers 4xx delays the mail: the row is tried again
after a back-off (``Settings.mail_retry_seconds``, doubled each time) and nothing else waits
for it. A 5xx answer to the mail (an address refused) marks it ``failed``, as does the last of
``Settings.mail_max_attempts`` attempts.

Several server processes on one database: on PostgreSQL each claims a row with ``SELECT ...
FOR UPDATE SKIP LOCKED`` in a transaction of its own that lasts until the row is marked, so
two processes never send one mail, and they share the work. SQLite serves one process (the
project's rule for SQLite); should a second one run, a lease row (``server_leases``, name
``mailer``, as the clock sweeper's) keeps their runs apart, and a run marks each mail before
it gives the lease back. Either way a process killed between the SMTP
server's acceptance and the mark sends that one mail again after the restart: delivery is
at least once, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
from collections.abc import Callable, Iterator
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import anyio.to_thread
from sqlalchemy import Connection

from parlour.server.services.context import ServerContext
from parlour.storage.db import write_transaction
from parlour.storage.social import FAILED, PENDING, SENT, MailRow, due_mail, mark_mail
from parlour.storage.tables import take_lease

log = logging.getLogger("parlour.server")

HEADERS = policy.SMTP.clone(max_line_length=998)
"""Headers folded only past RFC 5322's line limit: a long ``List-Unsubscribe`` link stays
plain text (the default policy would encode it, and some mail clients then miss it)."""
LEASE = "mailer"
LEASE_SECONDS = 120
BATCH = 50
"""Mails sent per run at most (the next run takes the rest)."""


def unsubscribe_url(site_url: str, token: str) -> str:
    """The one-click unsubscribe link of a mail."""
    return f"{site_url.rstrip('/')}/unsubscribe/{token}"


def build_message(ctx: ServerContext, mail: MailRow) -> EmailMessage:
    """The mail as sent: the body with an unsubscribe line, and the ``List-Unsubscribe``
    headers (RFC 8058 one-click)."""
    settings = ctx.settings
    link = unsubscribe_url(settings.site_url, mail.unsubscribe_token)
    message = EmailMessage(policy=HEADERS)
    message["From"] = settings.smtp_from
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    message["Date"] = format_datetime(ctx.now())
    message["Message-ID"] = make_msgid(domain="parlour")
    message["List-Unsubscribe"] = f"<{link}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(f"{mail.body}\n--\nNo more mail from parlour: {link}\n")
    return message


class Mailer:
    """Sends the outbox (see the module docstring). :meth:`deliver_due` does one run in the
    calling thread; :meth:`start` / :meth:`stop` run it in the background."""

    def __init__(self, ctx: ServerContext, extra: Callable[[], object] | None = None) -> None:
        self.ctx = ctx
        self.extra = extra
        """Also run at each wake-up (the clock warnings), in a worker thread."""
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- one run ------------------------------------------------------------------------

    def deliver_due(self) -> int:
        """Send every mail due (up to :data:`BATCH`); how many the SMTP server accepted.
        Stops at the first failure to reach the server (the rest wait for the next run)."""
        if not self.ctx.settings.smtp_host:
            return 0
        if self.ctx.engine.dialect.name == "postgresql":
            return self._deliver_postgresql()
        return self._deliver_sqlite()

    def _deliver_postgresql(self) -> int:
        sent = 0
        with self._smtp() as smtp:
            for _ in range(BATCH):
                with self.ctx.engine.begin() as connection:
                    rows = due_mail(connection, self.ctx.now(), 1)  # locked: skipped by others
                    if not rows:
                        break
                    ok = self._send(smtp, connection, rows[0])
                if not ok:
                    break
                sent += 1
        return sent

    def _deliver_sqlite(self) -> int:
        ctx = self.ctx
        now = ctx.now()
        holder = ctx.settings.instance
        with write_transaction(ctx.engine) as connection:
            until = now + timedelta(seconds=LEASE_SECONDS)
            if not take_lease(connection, LEASE, holder, now, until):
                return 0
        sent = 0
        try:
            with ctx.engine.connect() as connection:
                rows = due_mail(connection, now, BATCH)
            with self._smtp() as smtp:
                for row in rows:
                    with write_transaction(ctx.engine) as connection:
                        ok = self._send(smtp, connection, row)
                    if not ok:
                        break
                    sent += 1
        finally:  # every row sent is marked: another process may take the next run
            with write_transaction(ctx.engine) as connection:
                take_lease(connection, LEASE, holder, now, ctx.now())
        return sent

    @contextlib.contextmanager
    def _smtp(self) -> Iterator[_Session]:
        session = _Session(self.ctx)
        try:
            yield session
        finally:
            session.close()

    def _send(self, smtp: _Session, connection: Connection, mail: MailRow) -> bool:
        """Send one mail and record the attempt on *connection*; True when accepted."""
        attempts = mail.attempts + 1
        try:
            smtp.send(build_message(self.ctx, mail))
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as err:
            self._failed(connection, mail, attempts, f"refused: {err}", final=True)
            return True  # the server answers: go on with the next mail
        except smtplib.SMTPResponseException as err:
            final = 500 <= err.smtp_code < 600
            self._failed(connection, mail, attempts, f"{err.smtp_code} {err.smtp_error!r}", final)
            return final
        except (OSError, smtplib.SMTPException) as err:
            self._failed(connection, mail, attempts, f"{type(err).__name__}: {err}", final=False)
            return False
        mark_mail(connection, mail.id, status=SENT, attempts=attempts, sent_at=self.ctx.now())
        log.info("mail %s sent to account %s", mail.id, mail.account_id)
        return True

    def _failed(
        self, connection: Connection, mail: MailRow, attempts: int, error: str, final: bool
    ) -> None:
        settings = self.ctx.settings
        first, longest = settings.mail_retry_seconds
        wait = min(longest, first * 2 ** (attempts - 1))
        if attempts >= settings.mail_max_attempts:
            final = True
        mark_mail(
            connection,
            mail.id,
            status=FAILED if final else PENDING,
            attempts=attempts,
            next_attempt_at=self.ctx.now() + timedelta(seconds=wait),
            error=error[:300],
        )
        log.warning("mail %s not sent (attempt %s): %s", mail.id, attempts, error)

    # --- in the background --------------------------------------------------------------

    def wake(self) -> None:
        """Mail may be due (from any thread): the background task runs at once."""
        loop, event = self._loop, self._wake
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: stopping
                loop.call_soon_threadsafe(event.set)

    async def start(self) -> None:
        """Start the background task (on the running loop)."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(self._wake), name="parlour-mailer")

    async def stop(self) -> None:
        """Stop the background task (a run under way finishes its current mail first)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            except Exception:  # pragma: no cover - a bug in the task: logged, not re-raised
                log.exception("the outbox sender failed")
        self._loop = None

    async def _run(self, wake: asyncio.Event) -> None:
        settings = self.ctx.settings
        periods = [p for p in (settings.mail_poll_seconds, settings.clock_warning_seconds) if p]
        if not periods:
            return
        period = min(periods)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=period)
            wake.clear()
            try:
                if self.extra is not None and settings.clock_warning_seconds:
                    await anyio.to_thread.run_sync(self.extra)
                if settings.mail_poll_seconds:
                    await asyncio.shield(anyio.to_thread.run_sync(self.deliver_due))
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is down: try at the next wake-up
                log.exception("the outbox run failed")


class _Session:
    """One SMTP connection for a run, opened at the first mail."""

    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        self.smtp: smtplib.SMTP | None = None

    def send(self, message: EmailMessage) -> None:
        if self.smtp is None:
            settings = self.ctx.settings
            assert settings.smtp_host is not None
            smtp = smtplib.SMTP(
                settings.smtp_host, settings.smtp_port, timeout=settings.smtp_timeout
            )
            try:
                if settings.smtp_starttls:
                    smtp.starttls()
                if settings.smtp_user:
                    smtp.login(settings.smtp_user, settings.smtp_password or "")
            except BaseException:
                with contextlib.suppress(Exception):
                    smtp.close()
                raise
            self.smtp = smtp
        self.smtp.send_message(message)

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(Exception):
                self.smtp.quit()
            self.smtp = None
