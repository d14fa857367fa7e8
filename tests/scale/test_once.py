"""Computer players move in one process at a time: two server contexts on one PostgreSQL
(two processes, each its own table cache and locks) woken for the same table at once think
once per turn, and a process that holds a table's turn and dies leaves it to the other."""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import text

from parlour.engine.state import State
from parlour.server import Settings
from parlour.server.services import accounts, lobby, play
from parlour.server.services.context import ServerContext
from parlour.server.services.once import BOT_LOCK, play_bots_once
from parlour.storage.db import open_database
from parlour.storage.tables import get_table

LOCK_HELD = text(
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :table AND granted"
)

pytestmark = pytest.mark.allowed_skip  # PostgreSQL's advisory locks: .ci/run runs it there


@pytest.fixture
def two(settings: Settings) -> tuple[ServerContext, ServerContext]:
    if not settings.database_url or not settings.database_url.startswith("postgresql"):
        pytest.skip("advisory locks are PostgreSQL's (set PARLOUR_TEST_DATABASE)")
    engine = open_database(settings.database_url)
    one = ServerContext(engine=engine, settings=settings)
    other = ServerContext(
        engine=engine, settings=Settings(**{**settings.__dict__, "instance": "b"})
    )
    return one, other


def computer_to_move(ctx: ServerContext, account: int) -> int:
    """A started Ten-Thousand table of *account* against a computer, the computer to move."""
    table_id = lobby.create_table(
        ctx,
        account_id=account,
        request=lobby.NewTable(
            game="ten-thousand", seats=["cpu", "me"], options={"target": 1000}, start=True
        ),
    )
    return table_id


def test_two_processes_think_once_per_turn(
    two: tuple[ServerContext, ServerContext], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, other = two
    thought: Counter[tuple[int, int]] = Counter()
    real = play.bot_for
    versions = threading.local()

    def counting(game: str, level: str) -> Any:
        bot = real(game, level)

        class Counted:
            def choose(self, state: State, player: int, rng: random.Random) -> Any:
                thought[(versions.table, versions.version)] += 1
                return bot.choose(state, player, rng)

        return Counted()

    original_rng = play.table_rng

    def noting_rng(seed: str, purpose: str, version: int) -> random.Random:
        versions.version = version
        return original_rng(seed, purpose, version)

    monkeypatch.setattr(play, "bot_for", counting)
    monkeypatch.setattr(play, "table_rng", noting_rng)
    ann = accounts.register(one, name="ann", password="password123").account.id
    for _ in range(15):
        table_id = computer_to_move(one, ann)
        barrier = threading.Barrier(2)
        moves: list[int] = []

        def run(
            ctx: ServerContext,
            table: int = table_id,
            gate: threading.Barrier = barrier,
            made: list[int] = moves,
        ) -> None:
            versions.table = table
            gate.wait()
            made.append(play_bots_once(ctx, table))

        threads = [threading.Thread(target=run, args=(c,)) for c in (one, other)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(moves) > 0
        with one.engine.connect() as connection:
            row = get_table(connection, table_id)
        assert row is not None and not row.bot_turn  # the person's turn (or the end)
    twice = {key: n for key, n in thought.items() if n > 1}
    assert not twice, f"turns thought by both processes: {twice}"


def test_a_turn_left_by_a_dead_process_is_taken_by_another(
    two: tuple[ServerContext, ServerContext],
) -> None:
    one, other = two
    ann = accounts.register(one, name="ann", password="password123").account.id
    table_id = computer_to_move(one, ann)
    holder = one.engine.connect()  # a process in the middle of the computer's turn
    holder.execute(
        text("SELECT pg_advisory_lock(:space, :table)"), {"space": BOT_LOCK, "table": table_id}
    )
    holder.commit()
    pid = holder.execute(text("SELECT pg_backend_pid()")).scalar_one()
    try:
        assert play_bots_once(other, table_id) == 0  # left to the holder
        # the holder dies: its connection goes, and its lock with it
        with other.engine.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            connection.commit()
            while connection.execute(LOCK_HELD, {"table": table_id}).scalar_one():
                connection.commit()
    finally:
        holder.invalidate()
        holder.close()
    assert play_bots_once(other, table_id) > 0
    with other.engine.connect() as connection:
        row = get_table(connection, table_id)
    assert row is not None and not row.bot_turn
