"""The actions route's short way (``server/fast_actions.py``): a plain action with a bearer
token checked lately is answered without FastAPI's routing, with the same answers; every
other request goes to the route as before."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.server import Settings, create_app, fast_actions
from parlour.server.services import play
from tests.server.helpers import choose, people_table, server_state


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The real app, with logins remembered for an hour: the short way takes only a login
    checked lately, and a loaded machine may take longer than the default 5 s between a
    test's check and its action."""
    with TestClient(create_app(dataclasses.replace(settings, login_cache_seconds=3600))) as c:
        yield c


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The table ids of the actions the short way submitted (it still submits them)."""
    seen: list[int] = []

    async def spy(ctx: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["table_id"])
        return await play.submit_action_async(ctx, **kwargs)

    monkeypatch.setattr(fast_actions, "play", SimpleNamespace(submit_action_async=spy))
    return seen


def _move(client: TestClient, table_id: int) -> tuple[int, str, int]:
    state = server_state(client, table_id)
    seat = state.actors()[0]
    return seat, choose(state, seat, random.Random(3)), len(state.history)


def _same(a: Any, b: Any) -> None:
    assert a.status_code == b.status_code
    assert a.json() == b.json()
    assert a.headers["content-type"] == b.headers["content-type"] == "application/json"


def test_a_bearer_action_takes_the_short_way_and_answers_as_the_route(
    client: TestClient, taken: list[int]
) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    seat, action, version = _move(client, table_id)
    answer = client.post(
        f"/tables/{table_id}/actions",
        json={"action": action, "version": version},
        headers=seats[seat],
    )
    assert answer.status_code == 200, answer.text
    assert taken == [table_id]
    assert answer.json()["version"] > version
    assert int(answer.headers["content-length"]) == len(answer.content)
    # the next move by the cookie (the route), its answer the same shape
    seat, action, version = _move(client, table_id)
    token = seats[seat]["Authorization"].removeprefix("Bearer ")
    client.cookies.set("parlour_session", token)
    by_route = client.post(
        f"/tables/{table_id}/actions", json={"action": action, "version": version}
    )
    client.cookies.clear()
    assert by_route.status_code == 200, by_route.text
    assert taken == [table_id]  # not the short way
    assert set(by_route.json()) == set(answer.json())


def test_refusals_are_the_routes_whichever_way(client: TestClient, taken: list[int]) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    seat, action, version = _move(client, table_id)
    other = seats[1 - seat]
    other_token = other["Authorization"].removeprefix("Bearer ")
    path = f"/tables/{table_id}/actions"
    cases = [
        {"action": action, "version": version},  # not your turn: 409
        {"action": "xyzzy 42", "version": version},  # the engine's refusal: 422
    ]
    for body in cases:
        short = client.post(path, json=body, headers=other)
        client.cookies.set("parlour_session", other_token)
        route = client.post(path, json=body)
        client.cookies.clear()
        _same(short, route)
        assert short.status_code in (409, 422)
    assert len(taken) == 2  # the bearer ones only
    stale = client.post(path, json={"action": action, "version": version + 5}, headers=other)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert stale.json()["current"]["version"] == version
    missing = client.post("/tables/99999/actions", json=cases[0], headers=other)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert len(taken) == 4


def test_what_the_short_way_leaves_to_the_route(client: TestClient, taken: list[int]) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    seat, action, version = _move(client, table_id)
    path = f"/tables/{table_id}/actions"
    mover = seats[seat]
    # a body the model refuses: the route's 422 with its problems
    extra = client.post(path, json={"action": action, "version": version, "x": 1}, headers=mover)
    assert extra.status_code == 422 and extra.json()["code"] == "invalid_request"
    assert extra.json()["problems"][0]["where"] == "body.x"
    not_json = client.post(
        path, content=b"{", headers={**mover, "content-type": "application/json"}
    )
    assert not_json.status_code == 422 and not_json.json()["code"] == "invalid_request"
    # a table id the route's path refuses, a token nobody knows
    assert client.post("/tables/0/actions", json={}, headers=mover).status_code == 422
    assert client.post(f"/tables/{2**31}/actions", json={}, headers=mover).status_code == 422
    unknown = client.post(
        path,
        json={"action": action, "version": version},
        headers={"Authorization": "Bearer nobody"},
    )
    assert unknown.status_code == 401 and unknown.headers["www-authenticate"] == "Bearer"
    assert taken == []
    # a login not checked lately: the route asks the database, and plays it
    client.app.state.ctx.logins.clear()  # type: ignore[attr-defined]
    played = client.post(path, json={"action": action, "version": version}, headers=mover)
    assert played.status_code == 200, played.text
    assert taken == []
    # checked now (by the route, or any request): the next action takes the short way
    seat, action, version = _move(client, table_id)
    assert client.get(f"/tables/{table_id}", headers=seats[seat]).status_code == 200
    again = client.post(path, json={"action": action, "version": version}, headers=seats[seat])
    assert again.status_code == 200 and taken == [table_id]


def test_two_content_types_are_the_routes_to_judge(client: TestClient, taken: list[int]) -> None:
    # the route reads the first Content-Type (text/plain: not JSON, refused); the short way
    # read the last one and played the action
    table_id, seats = people_table(client, "ten-thousand")
    seat, action, version = _move(client, table_id)
    assert client.get(f"/tables/{table_id}", headers=seats[seat]).status_code == 200  # checked
    answer = client.post(
        f"/tables/{table_id}/actions",
        content=json.dumps({"action": action, "version": version}),
        headers=[
            ("authorization", seats[seat]["Authorization"]),
            ("content-type", "text/plain"),
            ("content-type", "application/json"),
        ],
    )
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"
    assert taken == []
    assert len(server_state(client, table_id).history) == version  # nothing played
