"""``parlour door`` with a real SSH client: log in with the server's password, one program
per session with its own token, terminal and size; wrong passwords, session limits, idle
sessions, the kept host key."""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from pathlib import Path

import httpx
import pexpect
import pytest

from tests.door.conftest import GameServer
from tests.door.sshclient import PASSWORD, SSH, Screen, keyscan, running_door, ssh

pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason=f"no OpenSSH client at {SSH}")


def _value(child: pexpect.spawn, key: str) -> str:
    child.expect(rf"\b{key}=(\S+)[ \r]")
    return str(child.match.group(1).decode())


def test_a_session_runs_its_own_program_with_its_own_login(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    game_server.register("dora")
    with running_door(game_server.url, tmp_path / "home") as door:
        child = ssh(door, "dora", askpass, size=(30, 100))
        assert _value(child, "ACCOUNT") == "dora"  # the token logs in as the SSH user
        token = _value(child, "TOKEN")
        assert _value(child, "TERM") == "xterm-256color"
        names = _value(child, "ENV").split(",")
        assert "DOOR_TEST_SECRET" not in names  # nothing of the door's own environment
        assert names == sorted(
            ["HOME", "LANG", "PARLOUR_DOOR", "PARLOUR_HOME", "PARLOUR_TOKEN", "PATH", "TERM"]
        )
        home = _value(child, "HOME")
        assert home != str(door.home)  # a data directory of its own
        assert _value(child, "SIZE") == "100x30"
        child.expect("READY")
        child.setwinsize(40, 132)  # the client's window grows: the program is told
        assert _value(child, "SIZE") == "132x40"
        other = ssh(door, "dora", askpass)
        assert _value(other, "ACCOUNT") == "dora"
        assert _value(other, "TOKEN") != token  # each session logs in on its own
        assert _value(other, "HOME") != home
        other.sendline("quit")
        other.expect("BYE")
        other.expect(pexpect.EOF)
        child.sendline("quit")
        child.expect("BYE")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        me = httpx.get(f"{game_server.url}/auth/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 401  # the door logged the session out when it ended


def test_a_wrong_password_is_refused_with_the_servers_reason(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    game_server.register("wrongpass")
    with running_door(game_server.url, tmp_path / "home") as door:
        for name, password in (("wrongpass", "not-the-password"), ("nobody-here", "x" * 12)):
            child = ssh(door, name, askpass, password=password)
            child.expect("Wrong name or password.")
            child.expect("Permission denied")
            child.expect(pexpect.EOF)
            assert b"ACCOUNT=" not in child.before
            child.close()
            assert child.exitstatus == 255


def test_session_limits_per_account_and_in_all(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    for name in ("lim-a", "lim-b", "lim-c"):
        game_server.register(name)
    options = ("--max-sessions", "2", "--max-per-account", "1")
    with running_door(game_server.url, tmp_path / "home", *options) as door:
        first = ssh(door, "lim-a", askpass)
        first.expect("READY")
        again = ssh(door, "lim-a", askpass)
        again.expect("lim-a already has 1 session open through this door, the most it allows")
        again.expect(pexpect.EOF)
        assert b"ACCOUNT=" not in again.before
        second = ssh(door, "lim-b", askpass)
        second.expect("READY")
        third = ssh(door, "lim-c", askpass)
        third.expect(r"The door is full \(2 sessions are open\)")
        third.expect(pexpect.EOF)
        first.sendline("quit")
        first.expect(pexpect.EOF)
        back = ssh(door, "lim-c", askpass)  # a session that ended frees its place
        assert _value(back, "ACCOUNT") == "lim-c"
        for child in (second, back):
            child.sendline("quit")
            child.expect(pexpect.EOF)


def test_an_idle_session_is_closed_with_a_message(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    game_server.register("idler")
    with running_door(game_server.url, tmp_path / "home", "--idle-minutes", "0.02") as door:
        child = ssh(door, "idler", askpass)
        child.expect("Closed after 1.2 seconds without input. Come back any time.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 1


def test_commands_are_refused(game_server: GameServer, tmp_path: Path, askpass: Path) -> None:
    game_server.register("commander")
    with running_door(game_server.url, tmp_path / "home") as door:
        child = ssh(door, "commander", askpass, command="cat /etc/passwd")
        child.expect("This door runs no commands")
        child.expect(pexpect.EOF)
        assert b"root:" not in child.before


def test_the_host_key_is_made_once_and_kept(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    game_server.register("keeper")
    home = tmp_path / "home"
    known = tmp_path / "known_hosts"
    with running_door(game_server.url, home) as door:
        first = door.fingerprint
        assert keyscan(door.port) == first
        child = ssh(door, "keeper", askpass, known_hosts=known)
        child.expect("READY")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    key = home / "door" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    with running_door(game_server.url, home, port=door.port) as door:  # as known_hosts has it
        assert door.fingerprint == first
        assert keyscan(door.port) == first
        child = ssh(door, "keeper", askpass, known_hosts=known, strict=True)  # known: no warning
        child.expect("READY")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    with running_door(game_server.url, tmp_path / "elsewhere") as door:
        assert door.fingerprint != first  # another data directory, another key
        assert re.fullmatch(r"SHA256:[A-Za-z0-9+/]{43}", door.fingerprint)


def test_a_terminal_app_plays_through_the_door(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    game_server.register("textual")
    app = f"{sys.executable} -m parlour play crossword --players guest,cpu --fast --seed 3"
    with running_door(game_server.url, tmp_path / "home", command=app) as door:
        child = ssh(door, "textual", askpass, size=(40, 120))
        screen = Screen(child, 120, 40)
        screen.wait_for("guest's rack")
        shown = screen.wait_for("x Exchange")
        assert "  8 TW  ·  · DL  ·  ·  ·  ★" in shown  # the board, drawn at the client's size
        assert "x Exchange" in shown.splitlines()[-1]  # the footer on the last of 40 rows
        child.sendcontrol("q")  # the app quits: the session ends with it
        child.expect(pexpect.EOF)


def test_a_command_with_no_input_is_still_refused_with_the_reason(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    """``ssh host ls < /dev/null`` (a script's ssh): the client's end of input arrives
    before the session starts; the refusal is still written and the status is 1."""
    import os
    import subprocess

    game_server.register("scripted")
    with running_door(game_server.url, tmp_path / "home") as door:
        args = [
            SSH,
            "-F",
            "/dev/null",
            "-p",
            str(door.port),
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-o",
            f"UserKnownHostsFile={askpass.with_name('known_hosts')}",
            "-o",
            "PubkeyAuthentication=no",
            "-o",
            "PreferredAuthentications=password",
            "-o",
            "NumberOfPasswordPrompts=1",
            "scripted@127.0.0.1",
            "ls",
        ]
        env = dict(
            os.environ,
            SSH_ASKPASS=str(askpass),
            SSH_ASKPASS_REQUIRE="force",
            DOOR_PASSWORD=PASSWORD,
        )
        done = subprocess.run(
            args, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=30, text=True
        )
    assert "This door runs no commands" in done.stdout + done.stderr, done
    assert done.returncode == 1, done


def test_the_idle_message_counts_in_good_english() -> None:
    from parlour.door.server import idle_message

    assert idle_message(60) == "Closed after 1 minute without input. Come back any time."
    assert idle_message(1800).startswith("Closed after 30 minutes without")
    assert idle_message(1.2).startswith("Closed after 1.2 seconds without")
    assert idle_message(1).startswith("Closed after 1 second without")


def test_closing_the_door_ends_a_program_that_ignores_the_hang_up(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    """A session's program is hung up when the door closes, and killed if it does not end
    (``parlour connect`` outlived a door stopped with SIGTERM: the kill timer went with
    the door)."""
    game_server.register("hugh")
    command = """sh -c 'trap "" HUP; echo PID=$$; echo READY; exec sleep 600'"""
    with running_door(game_server.url, tmp_path / "home", command=command) as door:
        child = ssh(door, "hugh", askpass)
        pid = int(_value(child, "PID"))
        child.expect("READY")
        os.kill(pid, 0)  # running
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        raise AssertionError("the session's program outlived the door")
    child.close()


def test_closing_the_door_ends_the_program_of_a_session_that_just_ended(
    game_server: GameServer, tmp_path: Path, askpass: Path
) -> None:
    """A player's SSH client goes, so the door hangs up the session's program and would
    kill it two seconds later; the door is stopped within those two seconds: the program
    is still ended (two ``parlour connect`` outlived a door stopped just after their
    clients went, found by stopping a door by hand)."""
    game_server.register("hana")
    hung_up = tmp_path / "hung-up"
    command = (
        f"""sh -c 'trap "touch {hung_up}" HUP; echo PID=$$; echo READY; """
        """while :; do sleep 0.05; done'"""
    )
    with running_door(game_server.url, tmp_path / "home", command=command) as door:
        child = ssh(door, "hana", askpass)
        pid = int(_value(child, "PID"))
        child.expect("READY")
        child.close()  # the client goes: the door hangs the program up, which ignores it
        deadline = time.monotonic() + 10
        while not hung_up.exists():
            assert time.monotonic() < deadline, "the program was never hung up"
            time.sleep(0.02)
    # the door is stopped at once (SIGTERM), well within its two seconds' kill timer
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.killpg(pid, 9)
        raise AssertionError("the session's program outlived the door")
