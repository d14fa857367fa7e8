"""The web client's files: served by the package, no file loaded from elsewhere, and the
crossword's drawing data equal to the game's."""

from __future__ import annotations

import re
from pathlib import Path

from parlour.games.crossword.board import SIZE, premium_name
from parlour.games.crossword.tiles import TILE_VALUES
from parlour.web import web_root

STATIC = web_root()


def test_the_files_ship_with_the_package() -> None:
    for name in ("index.html", "favicon.svg", "css/parlour.css", "js/main.js", "js/table.js"):
        assert (STATIC / name).is_file(), name
    games = {p.name for p in (STATIC / "js" / "games").glob("*.js")}
    assert {"dice.js", "crossword.js", "rummy.js", "crossword-board.js"} <= games


def test_nothing_is_loaded_from_another_site() -> None:
    """The server works offline: no CDN, no font service, no absolute URL in any file."""
    for path in STATIC.rglob("*"):
        if path.suffix not in {".html", ".js", ".css"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), path
        assert not re.search(r"""(import|from)\s*\(?\s*["']https?://""", text), path
        assert "@import url(http" not in text, path


def _js_strings(source: str, name: str) -> list[str]:
    block = source.split(f"export const {name} = [", 1)[1].split("];", 1)[0]
    return re.findall(r'"([^"]*)"', block)


def test_the_crossword_premiums_and_values_match_the_game() -> None:
    source = (STATIC / "js" / "games" / "crossword-board.js").read_text(encoding="utf-8")
    rows = _js_strings(source, "PREMIUMS")
    code = {"TW": "T", "DW": "D", "TL": "t", "DL": "d", "": "."}
    expected = ["".join(code[premium_name(r * SIZE + c)] for c in range(SIZE)) for r in range(SIZE)]
    assert rows == expected
    values = dict(re.findall(r"([A-Z]): (\d+)", source.split("TILE_VALUES = {", 1)[1]))
    assert {k: int(v) for k, v in values.items()} == TILE_VALUES


def test_modules_import_only_each_other() -> None:
    """Every import in a module names a file of the client (relative, and it exists)."""
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"""from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)""", text):
            name = target[0] or target[1]
            assert name.startswith("./") or name.startswith("../"), (path, name)
            assert (path.parent / name).resolve().is_file(), (path, name)
    assert Path(STATIC / "js" / "main.js").read_text(encoding="utf-8").count("import(") >= 5
