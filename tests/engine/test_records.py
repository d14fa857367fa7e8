"""Reading game record files: unreadable content is refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.engine.errors import BadRecord
from parlour.engine.records import read_record


def test_a_binary_file_is_refused_as_a_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\x00\xff\xfe{}")
    with pytest.raises(BadRecord, match="not JSON"):
        read_record(path)
