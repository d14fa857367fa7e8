"""GET /games names each game's web renderer (``""``: the generic one) and marks file options;
a game with no renderer of its own (tests/count_game.py) is listed and played like any other."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.web import web_root
from tests import count_game
from tests.server.conftest import register, wait_until


@pytest.fixture(autouse=True)
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    count_game.install(monkeypatch)


def test_the_listing_names_each_games_web_renderer(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/games").json()}
    renderers = {name: g["web_renderer"] for name, g in games.items()}
    assert renderers == {s.name: s.web_renderer for s in parlour.games()}
    own = {
        "count-to-ten": "",
        "crossword": "crossword",
        "greedy": "dice",
        "rummy": "rummy",
        "ten-thousand": "dice",
    }
    assert {name: renderers[name] for name in own} == own
    assert games["crossword"]["options"]["lexicon"]["file"] is True
    assert games["count-to-ten"]["options"]["target"]["file"] is False
    assert games["count-to-ten"]["bot_levels"] == ["first", "smart"]


def test_every_renderer_named_is_a_module_of_the_web_client() -> None:
    for spec in parlour.games():
        if spec.web_renderer:
            assert (web_root() / "js" / "games" / f"{spec.web_renderer}.js").is_file(), spec.name
    assert (web_root() / "js" / "games" / "generic.js").is_file()


def test_a_game_without_a_renderer_is_played_from_the_legal_list(client: TestClient) -> None:
    ann = register(client, "ann")
    body = {"game": "count-to-ten", "seats": ["me", "cpu:first"], "start": True}
    table = client.post("/tables", json=body, headers=ann).json()
    assert table["legal"] == ["add 1", "add 2"]
    assert table["view"]["count"] == 0
    answer = client.post(
        f"/tables/{table['id']}/actions", json={"action": "add 2", "version": 0}, headers=ann
    )
    assert answer.status_code == 200, answer.text
    # the computer player adds 1 in the background
    now = wait_until(
        lambda: (
            (t := client.get(f"/tables/{table['id']}", headers=ann).json())["version"] == 2 and t
        )
    )
    assert now["view"]["count"] == 3 and now["your_turn"] is True
    assert [e["move"] for e in now["events"]] == ["add 2", "add 1"]


def test_the_listing_says_how_each_game_starts(client: TestClient) -> None:
    # the web client shows a vote to begin from this, never from a game's name
    starts = {g["name"]: g["start"] for g in client.get("/games").json()}
    assert starts["crossword"] == "vote"
    assert {starts[name] for name in ("greedy", "rummy", "ten-thousand", "count-to-ten")} == {
        "creator"
    }


def test_a_renderer_the_web_client_does_not_have_is_listed_as_the_generic_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an outside package's spec naming a renderer that is no file of the web client: the
    # browser would import a missing module and draw nothing; it gets the generic renderer
    from dataclasses import replace

    from parlour.engine import registry

    spec = replace(count_game.SPEC, web_renderer="no-such-renderer")
    monkeypatch.setitem(registry._SPECS, count_game.NAME, spec)
    games = {g["name"]: g for g in client.get("/games").json()}
    assert games["count-to-ten"]["web_renderer"] == ""
    assert games["crossword"]["web_renderer"] == "crossword"
