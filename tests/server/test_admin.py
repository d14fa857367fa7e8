"""``parlour admin``: a host lists accounts, resets a password, disables an account and
removes a table, on the database a server uses (``--database``)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from parlour.cli.main import app as cli
from parlour.server import Settings
from tests.server.conftest import Headers, register
from tests.server.helpers import people_table

runner = CliRunner()


def _admin(settings: Settings, *args: str, input: str | None = None) -> tuple[int, str]:
    assert settings.database_url is not None
    result = runner.invoke(cli, ["admin", *args, "--database", settings.database_url], input=input)
    return result.exit_code, result.output


def _me(client: TestClient, headers: Headers) -> int:
    client.app.state.ctx.logins.clear()  # type: ignore[attr-defined] # 5 s later
    return client.get("/auth/me", headers=headers).status_code


def _login(client: TestClient, name: str, password: str) -> int:
    response = client.post("/auth/login", json={"name": name, "password": password})
    client.cookies.clear()
    return response.status_code


def test_users_lists_every_account_with_its_state(client: TestClient, settings: Settings) -> None:
    register(client, "ann")
    bob = register(client, "bob")
    assert _login(client, "bob", "password123") == 200
    register(client, "cat")
    assert _admin(settings, "disable", "cat")[0] == 0
    deleted = client.request("DELETE", "/auth/me", json={"password": "password123"}, headers=bob)
    assert deleted.status_code == 204
    code, output = _admin(settings, "users", "--json")
    assert code == 0, output
    rows = [(u["name"], u["disabled"], u["deleted"], u["sessions"]) for u in json.loads(output)]
    assert rows == [
        ("ann", False, False, 1),
        ("deleted player 2", False, True, 0),
        ("cat", True, False, 0),
    ]
    code, output = _admin(settings, "users")
    assert code == 0 and "disabled" in output and "deleted player 2" in output


def test_reset_password_sets_a_new_one_and_ends_every_session(
    client: TestClient, settings: Settings
) -> None:
    ann = register(client, "ann")
    code, output = _admin(settings, "reset-password", "ANN", input="fresh-pass-1\nfresh-pass-1\n")
    assert code == 0, output
    assert "ann: password reset; 1 session(s) ended." in output
    assert _me(client, ann) == 401
    assert _login(client, "ann", "password123") == 401
    assert _login(client, "ann", "fresh-pass-1") == 200


def test_reset_password_refuses_a_bad_password_or_an_unknown_name(
    client: TestClient, settings: Settings
) -> None:
    ann = register(client, "ann")
    code, output = _admin(settings, "reset-password", "ann", "--password", "short")
    assert code == 2 and "a password has 8-128 characters" in output
    code, output = _admin(settings, "reset-password", "ann", "--password", " " * 10)
    assert code == 2 and "a password has more than spaces in it" in output
    code, output = _admin(settings, "reset-password", "nobody", "--password", "long-enough-1")
    assert code == 2 and "no account named 'nobody'" in output
    assert _me(client, ann) == 200


def test_a_disabled_account_cannot_log_in_and_its_tokens_stop_working(
    client: TestClient, settings: Settings
) -> None:
    ann = register(client, "ann")
    token = ann["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/ws?token={token}") as socket:
        assert socket.receive_json()["type"] == "hello"
        code, output = _admin(settings, "disable", "ann")
        assert code == 0 and "1 session(s) ended" in output, output
        assert _me(client, ann) == 401
        socket.send_json({"type": "ping"})
        message = socket.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4401
    refused = client.post("/auth/login", json={"name": "ann", "password": "password123"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this account is disabled: ask the server's host"
    assert _login(client, "ann", "wrong-password") == 401  # the password still comes first
    assert _admin(settings, "enable", "ann")[0] == 0
    assert _login(client, "ann", "password123") == 200
    assert _admin(settings, "disable", "nobody")[0] == 2


def test_remove_table_asks_first_and_removes_it_with_its_log(
    client: TestClient, settings: Settings
) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    code, output = _admin(settings, "remove-table", str(table_id), input="n\n")
    assert code == 1
    assert client.get(f"/tables/{table_id}", headers=seats[0]).status_code == 200
    code, output = _admin(settings, "remove-table", str(table_id), input="y\n")
    assert code == 0 and f"table {table_id} (ten-thousand, active) removed." in output
    assert client.get(f"/tables/{table_id}", headers=seats[0]).status_code == 404
    assert client.get("/tables?which=mine", headers=seats[0]).json() == []
    assert _admin(settings, "remove-table", str(table_id), "--yes")[0] == 2


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: object) -> None:
    """``parlour admin users`` (and backup) on a file in a missing folder: one line naming it
    and the cause, not a second ``cannot open the database: Exit: 2``."""
    url = f"sqlite:///{tmp_path}/missing/p.db"
    for args in (["users"], ["backup", f"{tmp_path}/copy.db"]):
        result = runner.invoke(cli, ["admin", *args, "--database", url])
        assert result.exit_code == 2
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1, result.output
        assert "missing/p.db" in lines[0] and "Exit" not in lines[0]
