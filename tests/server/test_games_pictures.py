"""Each game's picture for the lobby's card: ``GET /games`` says whether the game has one of
its own, ``GET /games/{name}/picture`` serves it (or a generic one), 404 for no such game."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

import parlour
from parlour.engine import registry
from parlour.web import web_root
from tests import count_game


@pytest.fixture(autouse=True)
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    count_game.install(monkeypatch)


def test_every_installed_game_ships_its_own_picture() -> None:
    for spec in parlour.games():
        if spec.name == count_game.NAME:  # this test's game, which has none
            continue
        package = spec.picture.partition(":")[0]
        assert package == spec.new_state.__module__.rsplit(".", 1)[0], spec.name  # its own
        svg = spec.picture_svg()
        assert svg is not None, spec.name
        assert svg.lstrip().startswith(b"<svg") and b"<title" in svg, spec.name
        assert b"<script" not in svg, spec.name  # it draws, and loads nothing from elsewhere
        assert re.findall(rb'href="([^#])', svg) == [], spec.name


def test_the_listing_says_which_games_have_a_picture(client: TestClient) -> None:
    pictures = {g["name"]: g["picture"] for g in client.get("/games").json()}
    assert pictures == {s.name: bool(s.picture) for s in parlour.games()}
    assert pictures["count-to-ten"] is False
    assert all(pictures[s.name] for s in parlour.games() if s.name != "count-to-ten")


def test_a_games_picture_is_served_as_a_cacheable_svg(client: TestClient) -> None:
    for spec in parlour.games():
        if not spec.picture:
            continue
        answer = client.get(f"/games/{spec.name}/picture")
        assert answer.status_code == 200, spec.name
        assert answer.headers["content-type"] == "image/svg+xml"
        assert "max-age=" in answer.headers["cache-control"]
        assert answer.headers["content-security-policy"].startswith("default-src 'none'")
        assert answer.content == spec.picture_svg()


def test_a_game_without_a_picture_gets_the_generic_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    generic = (web_root() / "img" / "game.svg").read_bytes()
    answer = client.get("/games/count-to-ten/picture")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.content == generic
    # a picture its package does not have, or that is no SVG: the generic one too
    for picture in ("tests:no-such-picture.svg", "no.such.package:picture.svg", "tests:x.py"):
        spec = replace(count_game.SPEC, picture=picture)
        monkeypatch.setitem(registry._SPECS, count_game.NAME, spec)
        assert client.get("/games/count-to-ten/picture").content == generic, picture
        listed = {g["name"]: g for g in client.get("/games").json()}
        assert listed["count-to-ten"]["picture"] is False


def test_an_unknown_games_picture_is_not_found(client: TestClient) -> None:
    answer = client.get("/games/no-such-game/picture")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
