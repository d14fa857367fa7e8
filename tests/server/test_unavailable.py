"""When the database does not answer, or one stored value is damaged: a clear JSON answer,
never a plain-text 500, and one bad row never hides the others."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError

from parlour.server import Settings, create_app
from tests.server.conftest import register


def _take_the_database_away(client: TestClient) -> None:
    """Every new connection fails as a stopped database server's would."""
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    engine.dispose()

    def refuse(*_args: Any) -> None:
        raise engine.dialect.dbapi.OperationalError("connection refused")

    event.listen(engine, "do_connect", refuse)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/tables", None),
        ("GET", "/tables?which=mine", None),
        ("GET", "/auth/me", None),
        ("POST", "/auth/login", {"name": "ann", "password": "password123"}),
        ("POST", "/auth/register", {"name": "newcomer", "password": "password123"}),
    ],
)
def test_a_database_that_does_not_answer_gets_a_json_503_with_retry_after(
    client: TestClient, method: str, path: str, body: dict[str, str] | None
) -> None:
    ann = register(client, "ann")
    client.app.state.ctx.logins.clear()  # type: ignore[attr-defined] # the token is asked
    _take_the_database_away(client)
    response = client.request(method, path, json=body, headers=ann)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "5"
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "detail": "the database is not answering: try again shortly",
        "code": "unavailable",
        "retry_after": 5,
    }


def _two_open_tables(client: TestClient) -> tuple[int, int, dict[str, str]]:
    ann = register(client, "ann")
    ids = []
    for _ in range(2):
        made = client.post(
            "/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=ann
        )
        assert made.status_code == 201, made.text
        ids.append(made.json()["id"])
    return ids[0], ids[1], ann


DAMAGE = {
    "unknown game": ("game", "'no-such-game'", True),
    "lobby not an object": ("lobby", "'\"votes\"'", True),
    "options not JSON": ("options", "'{not json'", False),
    "time not a time": ("created_at", "'half past never'", False),
}
"""column, SQL value, and whether PostgreSQL can hold it (it checks JSON and times)."""


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_one_damaged_table_is_left_out_of_the_lobby_list_and_logged(
    client: TestClient, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    column, value, on_postgresql = DAMAGE[damage]
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    good, bad, ann = _two_open_tables(client)
    if ctx.engine.dialect.name != "sqlite" and not on_postgresql:
        # PostgreSQL's typed columns refuse to store this damage: the write fails, nothing
        # changes, and both tables stay in the lobby (the SQLite run covers the damage itself)
        with pytest.raises(DBAPIError), ctx.engine.begin() as connection:
            connection.execute(text(f"UPDATE game_tables SET {column} = {value} WHERE id = {bad}"))
        listed = client.get("/tables", headers=register(client, "bob"))
        assert sorted(t["id"] for t in listed.json()) == sorted([good, bad])
        return
    with ctx.engine.begin() as connection:
        connection.execute(text(f"UPDATE game_tables SET {column} = {value} WHERE id = {bad}"))
    bob = register(client, "bob")
    with caplog.at_level(logging.WARNING, logger="parlour.server"):
        listed = client.get("/tables", headers=bob)
        mine = client.get("/tables?which=mine", headers=ann)
    assert listed.status_code == 200, listed.text
    assert [t["id"] for t in listed.json()] == [good]
    assert mine.status_code == 200, mine.text
    assert [t["id"] for t in mine.json()] == [good]
    assert any(f"table {bad} cannot be" in r.getMessage() for r in caplog.records)


def test_an_unexpected_failure_gets_a_json_500_not_a_plain_text_page(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.server.services import views

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "list_tables", broken)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        response = client.get("/tables")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "the server failed to answer this request",
        "code": "internal_error",
    }
