"""Bounded and malformed input: 4xx with a reason, never a 500, nothing changed."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.helpers import people_table


def test_a_body_over_the_limit_gets_413(client: TestClient) -> None:
    ann = register(client, "ann")
    big = {"game": "ten-thousand", "seats": ["me"], "options": {"x": "y" * 20_000}}
    response = client.post("/tables", json=big, headers=ann)
    assert response.status_code == 413
    assert response.json() == {
        "detail": "the request body is over 16384 bytes",
        "code": "too_large",
    }


def test_a_streamed_body_over_the_limit_gets_413(client: TestClient) -> None:
    ann = register(client, "ann")

    def chunks():  # no Content-Length: the limit is enforced while reading
        for _ in range(40):
            yield b"x" * 1000

    response = client.post(
        "/tables", content=chunks(), headers={**ann, "content-type": "application/json"}
    )
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b"{not json", "body"),
        (b"[]", "body"),
        (b'{"game": 5, "seats": ["me"]}', "body.game"),
        (b'{"game": "ten-thousand", "seats": "me"}', "body.seats"),
        (b'{"game": "ten-thousand", "seats": ["me"], "colour": "red"}', "body.colour"),
        (b'{"game": "ten-thousand", "seats": []}', "body.seats"),
        (b'{"game": "ten-thousand", "seats": ["me"], "visibility": "secret"}', "body.visibility"),
        (b'{"game": "ten-thousand", "seats": ["me"], "max_skips": 0}', "body.max_skips"),
    ],
)
def test_bad_json_wrong_types_and_unknown_fields_get_422_with_where(
    client: TestClient, body: bytes, where: str
) -> None:
    ann = register(client, "ann")
    response = client.post(
        "/tables", content=body, headers={**ann, "content-type": "application/json"}
    )
    assert response.status_code == 422
    payload = response.json()
    assert payload["code"] == "invalid_request"
    assert any(p["where"].startswith(where) for p in payload["problems"]), payload


def test_action_bodies_are_strict(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    version = client.get(f"/tables/{table_id}", headers=seats[0]).json()["version"]
    for body in (
        {"action": "keep 1 roll", "version": str(version)},
        {"action": "keep 1 roll", "version": version, "seat": 1},
        {"action": "", "version": version},
        {"action": "k" * 501, "version": version},
        {"action": "keep 1 roll", "version": -1},
        {"action": ["keep"], "version": version},
    ):
        response = client.post(f"/tables/{table_id}/actions", json=body, headers=seats[0])
        assert response.status_code == 422, body
    after = client.get(f"/tables/{table_id}", headers=seats[0]).json()
    assert after["version"] == version


def test_unknown_paths_and_ids(client: TestClient) -> None:
    ann = register(client, "ann")
    assert client.get("/tables/999", headers=ann).json() == {
        "detail": "no table 999",
        "code": "not_found",
    }
    assert client.get("/tables/0").status_code == 422
    assert client.get("/tables/abc").status_code == 422
    assert client.get("/nowhere").status_code == 404
    assert client.get("/tables?which=everything").status_code == 422
    assert client.post(f"/tables/{2**40}/join", json={}, headers=ann).status_code == 422


def test_nul_characters_are_refused_not_stored(client: TestClient) -> None:
    # PostgreSQL cannot store NUL in text: it must be a 422, never a 500
    for path, body in (
        ("/auth/login", {"name": "ann\x00", "password": "password123"}),
        ("/auth/register", {"name": "ann", "password": "pass\x00word123"}),
    ):
        response = client.post(path, json=body)
        assert response.status_code == 422
        assert "NUL" in response.json()["detail"]
    assert client.get("/tables?game=ten%00thousand").status_code == 422
    assert client.get("/tables/1?invite=%C3%A9").status_code == 422


@pytest.mark.parametrize("path", ["/auth/login", "/auth/register", "/tables"])
@pytest.mark.parametrize("depth", [9, 500, 2700])
def test_deeply_nested_bodies_are_refused_not_a_500(
    client: TestClient, path: str, depth: int
) -> None:
    # found by probing: 500 nested objects (3 KB, under the size limit) overflowed the
    # recursion of the NUL check and the server answered 500 Internal Server Error
    ann = register(client, "ann")
    body = '{"a":' * depth + "1" + "}" * depth
    assert len(body) < 16 * 1024
    response = client.post(
        path, content=body.encode(), headers={**ann, "content-type": "application/json"}
    )
    if depth > 1000:  # deeper than Python's JSON parser goes: FastAPI's own refusal
        assert response.status_code == 400, response.text
        assert response.json()["detail"] == "There was an error parsing the body"
        return
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == "a request nests arrays and objects at most 8 deep"


@pytest.mark.parametrize("path", ["/auth/login", "/tables/1/actions"])
def test_a_body_that_is_not_utf8_is_bad_json(client: TestClient, path: str) -> None:
    # docs/server.md: bad JSON gets 422; a body that is not UTF-8 (JSON's encoding) got 400
    # "There was an error parsing the body", FastAPI's words for an unexpected failure
    ann = register(client, "ann")
    response = client.post(
        path,
        content=b'{"name": "\xff", "password": "password123"}',
        headers={**ann, "content-type": "application/json"},
    )
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": "the body is not JSON: it is not UTF-8 text",
        "code": "invalid_request",
        "problems": [{"where": "body", "problem": "the body is not JSON: it is not UTF-8 text"}],
    }


def test_a_request_nested_as_deep_as_allowed_is_read(client: TestClient) -> None:
    ann = register(client, "ann")
    body = {"game": "ten-thousand", "seats": ["me", "open"], "options": {"x": [[[[[[1]]]]]]}}
    response = client.post("/tables", json=body, headers=ann)
    assert response.status_code == 422
    assert response.json()["problems"][0]["where"].startswith("body.options.x")


def test_a_body_that_is_not_json_is_told_so_in_plain_words(client: TestClient) -> None:
    """Not "1: JSON decode error": the reason says the body is not JSON, why, and where."""
    ann = register(client, "ann")
    response = client.post(
        "/tables", content=b"{not json", headers={**ann, "content-type": "application/json"}
    )
    assert response.status_code == 422
    payload = response.json()
    assert payload["detail"].startswith("the body is not JSON: "), payload
    assert "at character 1" in payload["detail"], payload
    assert payload["problems"] == [{"where": "body", "problem": payload["detail"]}]
