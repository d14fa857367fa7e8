"""Mail through a real SMTP server on loopback (aiosmtpd): opt-in (off by default), the
outbox (sent only once the server accepted, kept across a restart, retried while the server
is down), the one-click unsubscribe link end to end, and one daily-crossword mail a day."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from parlour.server import Settings, create_app
from parlour.server.services.clock import sweep
from parlour.storage.social import outbox
from tests.quick_game import QUICK_GAME
from tests.server.conftest import FakeClock, Headers, wait_until
from tests.server.conftest import register as register_headers
from tests.server.helpers import people_table
from tests.server.social_helpers import SmtpServer, free_port, pass_turn, wait_notified


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A running SMTP server on a free loopback port."""
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


def mail_settings(settings: Settings, port: int, **extra: object) -> Settings:
    """*settings* sending through 127.0.0.1:*port*; the outbox is sent by hand unless
    ``mail_poll_seconds`` is given."""
    values: dict[str, object] = {
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_from": "games@parlour.test",
        "site_url": "http://parlour.test:8000",
        "mail_poll_seconds": 0,
        "clock_warning_seconds": 0,
        **extra,
    }
    return replace(settings, **values)  # type: ignore[arg-type]


def opt_in(client: TestClient, who: Headers, address: str) -> None:
    answer = client.put("/me/mail", json={"email": address, "notify": True}, headers=who)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"email": address, "notify": True, "sending": True}


def rows(client: TestClient) -> list[dict[str, object]]:
    with client.app.state.ctx.engine.connect() as connection:  # type: ignore[attr-defined]
        return outbox(connection)


def started(client: TestClient, seats: list[Headers]) -> None:
    """Wait for every seat's start notice: notices are written at most every 50 ms, and one
    stored after an opt-in would be mailed too."""
    for who in seats:
        wait_notified(client, who, "start")


def deliver(client: TestClient) -> int:
    sent: int = client.app.state.mailer.deliver_due()  # type: ignore[attr-defined]
    return sent


def test_a_turn_is_mailed_with_a_working_one_click_unsubscribe(
    settings: Settings, smtp: SmtpServer
) -> None:
    with TestClient(create_app(mail_settings(settings, smtp.port))) as client:
        table_id, seats = people_table(client, QUICK_GAME)
        started(client, seats)
        table = client.get(f"/tables/{table_id}", headers=seats[0]).json()
        waiting = 1 - table["to_move"][0]
        opt_in(client, seats[waiting], "waiting@example.org")
        pass_turn(client, table_id, seats)
        wait_until(lambda: rows(client))
        assert deliver(client) == 1
        assert len(smtp.inbox.mails) == 1
        mail = smtp.inbox.mails[0]
        assert smtp.inbox.recipients == [["waiting@example.org"]]
        assert mail["From"] == "games@parlour.test"
        assert mail["Subject"] == f"parlour: It is your turn at table {table_id} (Pig)."
        link = mail["List-Unsubscribe"].strip("<>")
        assert re.fullmatch(r"http://parlour\.test:8000/unsubscribe/[A-Za-z0-9_-]{20,}", link)
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        body = mail.get_payload(decode=True).decode()
        assert f"http://parlour.test:8000/#/table/{table_id}" in body and link in body
        assert rows(client)[0]["status"] == "sent" and deliver(client) == 0  # sent once
        path = link.removeprefix("http://parlour.test:8000")
        page = client.get(path)
        assert page.status_code == 200 and '<form method="post"' in page.text
        assert (
            client.get("/me/mail", headers=seats[waiting]).json()["notify"] is True
        )  # GET: no change
        done = client.post(
            path,
            content="List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert done.status_code == 200 and "no more mail" in done.text
        assert client.get("/me/mail", headers=seats[waiting]).json() == {
            "email": "waiting@example.org",
            "notify": False,
            "sending": True,
        }
        assert client.post("/unsubscribe/" + "x" * 30).status_code == 404
        # opted out: the next turns are told on the site, never mailed
        before = len(rows(client))
        pass_turn(client, table_id, seats)
        pass_turn(client, table_id, seats)
        wait_notified(client, seats[waiting], "turn", 2)
        assert len(rows(client)) == before and deliver(client) == 0


def test_mail_is_off_by_default_and_needs_an_address(settings: Settings, smtp: SmtpServer) -> None:
    with TestClient(create_app(mail_settings(settings, smtp.port))) as client:
        table_id, seats = people_table(client, QUICK_GAME)
        assert client.get("/me/mail", headers=seats[0]).json() == {
            "email": None,
            "notify": False,
            "sending": True,
        }
        for who in seats:  # an address, but no opt-in
            assert client.put("/me/mail", json={"email": "a@example.org"}, headers=who).is_success
        pass_turn(client, table_id, seats)
        pass_turn(client, table_id, seats)
        wait_notified(client, seats[0], "turn")
        assert rows(client) == [] and deliver(client) == 0 and smtp.inbox.mails == []
        refused = client.put("/me/mail", json={"notify": True}, headers=seats[0])
        assert refused.status_code == 422 and "e-mail address" in refused.json()["detail"]
        bad = client.put(
            "/me/mail", json={"email": "not an address", "notify": True}, headers=seats[0]
        )
        assert bad.status_code == 422 and "not an e-mail address" in bad.json()["detail"]


def test_a_server_that_is_down_delays_the_mail_then_it_is_sent_once(
    settings: Settings, clock: FakeClock
) -> None:
    smtp = SmtpServer(free_port())  # not started: the connection is refused
    with TestClient(create_app(mail_settings(settings, smtp.port))) as client:
        table_id, seats = people_table(client, QUICK_GAME)
        started(client, seats)
        opt_in(client, seats[0], "zero@example.org")
        opt_in(client, seats[1], "one@example.org")
        pass_turn(client, table_id, seats)
        wait_until(lambda: rows(client))
        assert deliver(client) == 0
        assert [(r["status"], r["attempts"]) for r in rows(client)] == [("pending", 1)]
        assert deliver(client) == 0  # backing off: not tried again yet
        assert rows(client)[0]["attempts"] == 1
        # the game goes on meanwhile
        assert pass_turn(client, table_id, seats) in (0, 1)
        wait_until(lambda: len(rows(client)) == 2)
        smtp.start()
        try:
            clock.advance(seconds=31)  # the first back-off (30 s) is over
            assert deliver(client) == 2
            assert [r["status"] for r in rows(client)] == ["sent", "sent"]
            assert sorted(m["To"] for m in smtp.inbox.mails) == [
                "one@example.org",
                "zero@example.org",
            ]
            clock.advance(hours=2)
            assert deliver(client) == 0 and len(smtp.inbox.mails) == 2
        finally:
            smtp.stop()


def test_mail_pending_at_a_restart_is_sent_once_after_it(
    settings: Settings, smtp: SmtpServer
) -> None:
    down = free_port()
    with TestClient(create_app(mail_settings(settings, down))) as client:
        table_id, seats = people_table(client, QUICK_GAME)
        started(client, seats)
        waiting = 1 - client.get(f"/tables/{table_id}", headers=seats[0]).json()["to_move"][0]
        opt_in(client, seats[waiting], "later@example.org")
        pass_turn(client, table_id, seats)
        wait_until(lambda: rows(client))
    # a new server process on the same database, whose outbox sender runs in the background
    restarted = mail_settings(settings, smtp.port, mail_poll_seconds=0.05)
    with TestClient(create_app(restarted)) as client:
        wait_until(lambda: smtp.inbox.mails)
        wait_until(lambda: rows(client)[0]["status"] == "sent")
        assert deliver(client) == 0
    assert len(smtp.inbox.mails) == 1 and smtp.inbox.mails[0]["To"] == "later@example.org"


def test_the_daily_crossword_mails_once_a_day_whatever_the_tables(
    settings: Settings, smtp: SmtpServer, clock: FakeClock
) -> None:
    daily = {"options": {"turn_mode": "daily"}, "time_zone": "UTC"}
    with TestClient(create_app(mail_settings(settings, smtp.port))) as client:
        first, seats = people_table(client, "crossword", **daily)
        other = client.post(
            "/tables",
            json={"game": "crossword", "seats": ["me", "cpu:easy"], **daily},
            headers=seats[0],
        )
        assert other.status_code == 201, other.text
        wait_notified(client, seats[0], "start", 2)  # both games' (see started)
        opt_in(client, seats[0], "words@example.org")
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        clock.advance(hours=12, seconds=1)  # past midnight UTC: day 2 at both tables
        assert sweep(ctx).applied >= 2
        told = wait_notified(client, seats[0], "daily", 2)
        assert {n["table"] for n in told} == {first, other.json()["id"]}
        assert deliver(client) == 1
        assert smtp.inbox.mails[0]["Subject"] == "parlour: your plays today"
        clock.advance(days=1)  # day 3: one more mail
        assert sweep(ctx).applied >= 2
        wait_notified(client, seats[0], "daily", 4)
        assert deliver(client) == 1 and len(smtp.inbox.mails) == 2


@pytest.mark.parametrize("attempt", range(5))
def test_two_outbox_senders_at_once_send_each_mail_once(
    settings: Settings, smtp: SmtpServer, attempt: int
) -> None:
    """Two server processes' senders on one database (PostgreSQL: rows claimed with SKIP
    LOCKED; SQLite: one holds the lease) race over the same outbox."""
    from parlour.server.mailer import Mailer
    from parlour.server.services.context import ServerContext
    from parlour.storage.db import open_database, write_transaction
    from parlour.storage.social import queue_mail

    with TestClient(create_app(mail_settings(settings, smtp.port))) as client:
        seats = [register_headers(client, f"racer{n}") for n in range(2)]
        ids = [client.get("/auth/me", headers=who).json()["id"] for who in seats]
        ctx: ServerContext = client.app.state.ctx  # type: ignore[attr-defined]
        with write_transaction(ctx.engine) as connection:
            for n in range(12):
                queue_mail(
                    connection,
                    account_id=ids[n % 2],
                    key=f"race:{attempt}:{n}",
                    to_address=f"racer{n}@example.org",
                    subject=f"mail {n}",
                    body="b",
                    token="t" * 30,
                    now=ctx.now(),
                )
        senders = [
            Mailer(
                ServerContext(
                    open_database(settings.database_url),
                    replace(ctx.settings, instance=f"process-{p}"),
                )
            )
            for p in range(2)
        ]
        barrier = threading.Barrier(2)
        counts: list[int] = []

        def run(mailer: Mailer) -> None:
            barrier.wait()
            counts.append(mailer.deliver_due())

        threads = [threading.Thread(target=run, args=(m,)) for m in senders]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # what one left (it did not hold the SQLite lease) the lease holder sends next run
        while sum(counts) < 12:
            counts.append(senders[0].deliver_due() + senders[1].deliver_due())
        assert sum(counts) == 12
        subjects = sorted(m["Subject"] for m in smtp.inbox.mails)
        assert subjects == sorted(f"mail {n}" for n in range(12))
        assert all(r["status"] == "sent" for r in rows(client))


def test_mail_settings_with_an_unknown_field_a_wrong_type_or_a_nul_are_refused(
    client: TestClient,
) -> None:
    """``PUT /me/mail`` checks its body as every request body is (422 for unknown fields,
    wrong types and NUL characters) and stores nothing it refused."""
    who = register_headers(client, "mailer")
    for body in (
        {"email": "a@example.org", "notify": "false"},
        {"email": "a@example.org", "bcc": "b@example.org"},
        {"email": "a\x00@example.org"},
    ):
        refused = client.put("/me/mail", json=body, headers=who)
        assert refused.status_code == 422, (body, refused.text)
    assert client.get("/me/mail", headers=who).json()["email"] is None
