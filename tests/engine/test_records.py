"""Game records (``docs/records.md``): unreadable or malformed records are refused with the
reason, never a crash."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from parlour.engine.errors import BadRecord
from parlour.engine.records import read_record, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example() -> dict[str, Any]:
    record: dict[str, Any] = read_record(EXAMPLES / "ten-thousand.json")
    return copy.deepcopy(record)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([1, 2, 3], "'players' must be names"),
        (["me", None, "cpu:reckless"], "'players' must be names"),
        (["me", ["x"], "cpu:reckless"], "'players' must be names"),
    ],
)
def test_players_that_are_not_names_are_refused(players: list[Any], message: str) -> None:
    record = example()
    record["players"] = players
    with pytest.raises(BadRecord, match=message):
        replay(record)


@pytest.mark.parametrize("version", [True, 1.0, "1", 2])
def test_only_the_integer_version_1_is_read(version: object) -> None:
    record = example()
    record["version"] = version
    with pytest.raises(BadRecord, match="version"):
        replay(record)


def test_json_nested_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(BadRecord, match="not JSON"):
        read_record(path)


def test_a_binary_file_is_refused_as_a_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\x00\xff\xfe{}")
    with pytest.raises(BadRecord, match="not JSON"):
        read_record(path)
