"""Accounts: register, log in and out, cookies and bearer tokens, failed-login limits."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.server.deps import COOKIE
from tests.server.conftest import FakeClock, register


def test_register_returns_a_token_and_sets_an_httponly_samesite_cookie(
    client: TestClient,
) -> None:
    response = client.post("/auth/register", json={"name": "Ann  Lee", "password": "s3cret-pw"})
    assert response.status_code == 201
    body = response.json()
    assert body["account"]["name"] == "Ann Lee"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={body['token']}")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    # the browser way: the cookie alone authenticates
    assert client.get("/auth/me").json()["name"] == "Ann Lee"
    client.cookies.clear()
    assert client.get("/auth/me").status_code == 401
    bearer = {"Authorization": f"Bearer {body['token']}"}
    assert client.get("/auth/me", headers=bearer).json()["name"] == "Ann Lee"


def test_the_password_is_stored_as_an_argon2_hash(client: TestClient) -> None:
    from parlour.storage.accounts import find_account

    register(client, "ann", "correct horse")
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with ctx.engine.connect() as connection:
        account = find_account(connection, "ann")
    assert account is not None
    assert account.password_hash.startswith("$argon2id$")
    assert "correct horse" not in account.password_hash


@pytest.mark.parametrize(
    ("name", "password", "reason"),
    [
        ("ab", "password123", "at least 3 characters"),
        ("a" * 21, "password123", "at most 20 characters"),
        # the reason in words, not the pattern (a newcomer typing "Zoë" read a regex)
        ("ann!", "password123", "name: a name has only letters A-Z, digits, spaces and"),
        ("-ann", "password123", "begins and ends with a letter or digit"),
        ("Zoë", "password123", "a name has only letters A-Z"),
        ("ann ", "password123", "begins and ends with a letter or digit"),
        ("ann", "short", "at least 8 characters"),
        ("ann", " " * 8, "a password has more than spaces in it"),
        ("ann", " \t \n    ", "a password has more than spaces in it"),
        # invisible characters that str.isspace() does not call blank: zero-width spaces,
        # a zero-width joiner, the byte-order mark, a soft hyphen
        ("ann", "\u200b" * 8, "a password has more than spaces in it"),
        ("ann", "\u200b \u200d\ufeff\u00ad\u2060  ", "a password has more than spaces in it"),
    ],
)
def test_bad_names_and_passwords_are_refused_with_the_reason(
    client: TestClient, name: str, password: str, reason: str
) -> None:
    response = client.post("/auth/register", json={"name": name, "password": password})
    assert response.status_code == 422
    assert reason in response.json()["detail"]
    assert "pattern" not in response.json()["detail"]
    assert not response.json()["detail"].startswith("body")


def test_a_password_logs_in_however_its_accents_are_encoded(client: TestClient) -> None:
    # "ü" is one code point (NFC, most keyboards) or "u" and a combining diaeresis (NFD,
    # some input methods): the same password typed on two machines
    composed, decomposed = "gr\u00fcn-t\u00e9e", "gru\u0308n-te\u0301e"
    register(client, "ann", composed)
    register(client, "bob", decomposed)
    for name in ("ann", "bob"):
        for password in (composed, decomposed):
            login = client.post("/auth/login", json={"name": name, "password": password})
            assert login.status_code == 200, (name, password)
    other = client.post("/auth/login", json={"name": "ann", "password": "grun-tee!"})
    assert other.status_code == 401


def test_a_hash_of_a_password_stored_before_normalising_still_logs_in(
    client: TestClient,
) -> None:
    from parlour.server.services.accounts import _hasher
    from parlour.storage.accounts import find_account, update_password_hash
    from parlour.storage.db import write_transaction

    decomposed = "gru\u0308n-te\u0301e"
    register(client, "ann", "password123")
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with write_transaction(ctx.engine) as connection:
        account = find_account(connection, "ann")
        assert account is not None
        update_password_hash(connection, account.id, _hasher(True).hash(decomposed))
    login = client.post("/auth/login", json={"name": "ann", "password": decomposed})
    assert login.status_code == 200
    # the match stored the normalised form's hash: the composed spelling logs in too
    composed = "gr\u00fcn-t\u00e9e"
    assert client.post("/auth/login", json={"name": "ann", "password": composed}).status_code == 200


def test_an_unknown_name_checks_a_password_as_often_as_a_known_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a known account checks a password not in NFKC twice (normalised, then as typed, for a
    # hash stored before): an unknown name must too, or the time it takes tells the name
    from pwdlib.hashers.argon2 import Argon2Hasher

    register(client, "ann", "password123")
    calls: list[str] = []
    verify = Argon2Hasher.verify

    def counted(self: Argon2Hasher, password: str | bytes, hash: str | bytes) -> bool:
        calls.append("verify")
        return verify(self, password, hash)

    monkeypatch.setattr(Argon2Hasher, "verify", counted)
    checks = []
    for name in ("ann", "zed"):
        calls.clear()
        wrong = client.post("/auth/login", json={"name": name, "password": "gru\u0308n-tee"})
        assert wrong.status_code == 401
        checks.append(len(calls))
    assert checks == [2, 2]


def test_the_reason_shown_has_no_body_prefix_but_problems_keep_where(client: TestClient) -> None:
    response = client.post("/auth/register", json={"name": "ann!", "password": "password123"})
    payload = response.json()
    assert payload["detail"].startswith("name: a name has only letters A-Z, digits, spaces and")
    assert payload["problems"][0]["where"] == "body.name"
    response = client.post(
        "/auth/register", content=b"[]", headers={"content-type": "application/json"}
    )
    assert not response.json()["detail"].startswith("body")


def test_names_are_unique_ignoring_case(client: TestClient) -> None:
    register(client, "Ann")
    response = client.post("/auth/register", json={"name": "aNN", "password": "password123"})
    assert response.status_code == 409
    assert "taken" in response.json()["detail"]


def test_login_and_logout_revokes_the_token(client: TestClient) -> None:
    register(client, "ann", "password123")
    response = client.post("/auth/login", json={"name": "ANN", "password": "password123"})
    assert response.status_code == 200
    token = response.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    client.cookies.clear()
    assert client.get("/auth/me", headers=bearer).status_code == 200
    assert client.post("/auth/logout", headers=bearer).status_code == 204
    assert client.get("/auth/me", headers=bearer).status_code == 401
    # the other login (from registering) is untouched
    again = client.post("/auth/login", json={"name": "ann", "password": "password123"})
    assert again.status_code == 200


def test_logout_clears_the_cookie(client: TestClient) -> None:
    client.post("/auth/register", json={"name": "ann", "password": "password123"})
    assert client.get("/auth/me").status_code == 200
    response = client.post("/auth/logout")
    assert response.status_code == 204
    assert f'{COOKIE}=""' in response.headers["set-cookie"]
    assert client.get("/auth/me").status_code == 401


def test_wrong_password_and_unknown_name_get_the_same_answer(client: TestClient) -> None:
    register(client, "ann")
    wrong = client.post("/auth/login", json={"name": "ann", "password": "nope-nope"})
    unknown = client.post("/auth/login", json={"name": "zed", "password": "nope-nope"})
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "detail": "wrong name or password",
            "code": "unauthorized",
        }
    )


def test_failed_logins_are_limited_per_account(client: TestClient, clock: FakeClock) -> None:
    register(client, "ann", "password123")
    for _ in range(5):
        response = client.post("/auth/login", json={"name": "ann", "password": "wrong-one"})
        assert response.status_code == 401
    # even the right password is refused now, with when to retry
    limited = client.post("/auth/login", json={"name": "ann", "password": "password123"})
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "900"
    clock.advance(seconds=901)
    assert (
        client.post("/auth/login", json={"name": "ann", "password": "password123"}).status_code
        == 200
    )


def test_failed_logins_are_limited_per_address(client: TestClient) -> None:
    for index in range(20):
        response = client.post(
            "/auth/login", json={"name": f"user{index}", "password": "wrong-one"}
        )
        assert response.status_code == 401
    register(client, "fresh")
    response = client.post("/auth/login", json={"name": "fresh", "password": "password123"})
    assert response.status_code == 429


def test_a_good_login_clears_the_account_failures(client: TestClient) -> None:
    register(client, "ann", "password123")
    for _ in range(4):
        client.post("/auth/login", json={"name": "ann", "password": "wrong-one"})
    assert client.post("/auth/login", json={"name": "ann", "password": "password123"}).is_success
    for _ in range(4):
        client.post("/auth/login", json={"name": "ann", "password": "wrong-one"})
    assert client.post("/auth/login", json={"name": "ann", "password": "password123"}).is_success


def test_cookie_requests_from_another_site_are_refused(client: TestClient) -> None:
    client.post("/auth/register", json={"name": "ann", "password": "password123"})
    response = client.post(
        "/tables",
        json={"game": "ten-thousand", "seats": ["me", "open"]},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403
    ok = client.post(
        "/tables",
        json={"game": "ten-thousand", "seats": ["me", "open"]},
        headers={"Origin": "http://testserver"},
    )
    assert ok.status_code == 201


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [("http://testserver", True), ("http://testserver/", True), ("https://evil.example", False)],
)
def test_a_cookie_websocket_checks_its_origin_as_requests_do(
    client: TestClient, origin: str, accepted: bool
) -> None:
    client.post("/auth/register", json={"name": "ann", "password": "password123"})
    if accepted:
        with client.websocket_connect("/ws", headers={"Origin": origin}) as ws:
            assert ws.receive_json()["account"]["name"] == "ann"
        return
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws", headers={"Origin": origin}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4401
