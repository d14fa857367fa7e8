"""Saved games in the SQLite database under PARLOUR_HOME, schema by Alembic."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from parlour.engine.errors import ParlourError
from parlour.storage import delete_save, list_saves, load_save, open_database, save_game


def test_database_lives_in_parlour_home(parlour_home: Path) -> None:
    engine = open_database()
    assert (parlour_home / "parlour.db").exists()
    assert "saved_games" in inspect(engine).get_table_names()
    assert "alembic_version" in inspect(engine).get_table_names()


def test_save_update_list_load_delete() -> None:
    engine = open_database()
    first = save_game(engine, game="ten-thousand", players=["ann", "cpu:strong"], state={"x": 1})
    second = save_game(engine, game="ten-thousand", players=["bob", "cpu:strong"], state={"x": 2})
    assert [s.id for s in list_saves(engine)] == [second, first]
    save_game(
        engine,
        game="ten-thousand",
        players=["ann", "cpu:strong"],
        state={"x": 3},
        save_id=first,
        finished=True,
    )
    assert [s.id for s in list_saves(engine)] == [second]
    assert load_save(engine, first).state == {"x": 3}
    assert load_save(engine, first).status == "finished"
    delete_save(engine, second)
    with pytest.raises(ParlourError, match="no saved game"):
        load_save(engine, second)


def test_reopening_is_idempotent() -> None:
    from parlour.storage.db import forget_engines

    engine = open_database()
    save_game(engine, game="g", players=["a"], state={})
    forget_engines()
    assert len(list_saves(open_database())) == 1


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("sqlite://", "an in-memory SQLite database would lose every game"),
        ("sqlite:///:memory:", "an in-memory SQLite database would lose every game"),
        ("not a url", "'not a url' is not a database URL"),
    ],
)
def test_a_database_that_cannot_keep_games_is_refused(url: str, reason: str) -> None:
    with pytest.raises(ParlourError, match=reason):
        open_database(url)


def test_a_save_with_an_unreadable_time_is_listed_damaged_and_deleted() -> None:
    engine = open_database()
    good = save_game(engine, game="g", players=["a"], state={"x": 1})
    bad = save_game(engine, game="g", players=["b"], state={"x": 2})
    with engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE saved_games SET updated_at = 'a week ago', created_at = 'x' WHERE id = :i"
            ),
            {"i": bad},
        )
    listed = {s.id: s for s in list_saves(engine)}
    assert listed[good].damage == () and not listed[good].damaged
    assert listed[good].updated_at is not None
    assert listed[bad].damage == ("time saved",) and listed[bad].damaged
    assert listed[bad].updated_at is None and listed[bad].state == {"x": 2}
    assert load_save(engine, bad).players == ["b"]
    save_game(engine, game="g", players=["b"], state={"x": 3}, save_id=bad)  # saving mends it
    assert load_save(engine, bad).damage == ()
    delete_save(engine, bad)
    assert [s.id for s in list_saves(engine)] == [good]
