"""The door with its own program, ``parlour connect URL``: a person logs in over SSH, opens
a crossword table from My games and moves; the other player, a web client of the same
server, sees the move arrive, and their answer shows on the SSH screen."""

from __future__ import annotations

import time
from pathlib import Path

import pexpect
import pytest

from tests.door.conftest import GameServer
from tests.door.sshclient import SSH, Screen, running_door, ssh

pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason=f"no OpenSSH client at {SSH}")


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "door"


def _moves(server: GameServer, token: str, table_id: int) -> list[str]:
    return [e["move"] for e in server.rest(token, "GET", f"/tables/{table_id}")["events"]]


def _until(check: object, what: str, screen: Screen, timeout: float = 150) -> None:
    """Wait for *check*, reading the SSH screen meanwhile (an unread terminal stalls the app)."""
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never: {what}; the screen:\n{screen.text()}"
        screen.pump(0.1)


def test_a_crossword_move_over_ssh_reaches_the_web_player_and_back(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    door_player = game_server.register("sshplayer")  # the token of another login of theirs
    web_player = game_server.register("webplayer")
    table = game_server.rest(
        door_player, "POST", "/tables", {"game": "crossword", "seats": ["me", "open"]}
    )
    table_id = table["id"]
    game_server.rest(web_player, "POST", f"/tables/{table_id}/join", {"invite": None})
    status = game_server.rest(web_player, "GET", f"/tables/{table_id}")["status"]
    assert status == "active"  # a full table begins by itself
    assert _moves(game_server, web_player, table_id) == []
    with running_door(game_server.url, tmp_path / "home", command="") as door:
        child = ssh(door, "sshplayer", askpass, size=(40, 120))
        screen = Screen(child, 120, 40)
        screen.wait_for("My games")  # the token from the door: no log-in screen
        screen.wait_for(f" {table_id} ")
        child.send("\r")  # Enter: the table under the cursor, the first of My games
        screen.wait_for("sshplayer's rack")
        screen.wait_for("p Pass")
        child.send("p")
        screen.wait_for("Pass? Your turn ends with no points.")
        child.send("y")
        _until(lambda: _moves(game_server, web_player, table_id) == ["pass"], "the pass", screen)
        state = game_server.rest(web_player, "GET", f"/tables/{table_id}")
        game_server.rest(
            web_player,
            "POST",
            f"/tables/{table_id}/actions",
            {"action": "pass", "version": state["version"]},
        )
        screen.wait_for("webplayer: passed")  # the web player's answer, live
        # each on its own: a screen read mid-redraw can show one line of the frame already
        screen.wait_for("sshplayer: passed", timeout=30)
        shown = screen.wait_for("sshplayer's rack", timeout=30)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)  # the screen, for people to look at
        (ARTIFACTS / "crossword-through-the-door.txt").write_text(shown + "\n")
        child.sendcontrol("q")  # leaves the table for the lobby; Q there leaves the door
        screen.wait_for("Open tables")
        child.send("q")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
