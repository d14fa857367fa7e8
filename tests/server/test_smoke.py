from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import register


def test_smoke(client: TestClient) -> None:
    ann = register(client, "ann")
    bob = register(client, "bob")
    r = client.post("/tables", json={"game": "ten-thousand", "seats": ["me", "open"]}, headers=ann)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    r = client.post(f"/tables/{tid}/join", json={}, headers=bob)
    assert r.status_code == 200, r.text
    r = client.post(f"/tables/{tid}/start", headers=ann)
    assert r.status_code == 200, r.text
    t = r.json()
    print(t)
    v = t["version"]
    legal = t["legal"]
    r = client.post(f"/tables/{tid}/actions", json={"action": legal[0], "version": v}, headers=ann)
    print(r.json())
    assert r.status_code == 200
