"""The server and the scorebook know no game: everything game-specific comes from the game's
spec (``GameSpec.platform``), so no module there names a game, and no code there matches a
game's move text. (Imports of the game packages are refused by import-linter's "name no
game" contract in ``pyproject.toml``.)"""

from __future__ import annotations

import ast
from pathlib import Path

import parlour

SRC = Path(parlour.__file__).parent
CHECKED = [*sorted((SRC / "server").rglob("*.py")), SRC / "scorebook.py"]
EXEMPT: set[Path] = set()  # the load-test client, which names games, is in parlour_tools
NAMES = {name.lower() for spec in parlour.games() for name in (spec.name, *spec.aliases)}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def examples(tree: ast.AST) -> set[int]:
    """The ids of the constants given as OpenAPI ``examples=[...]`` (documentation)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "examples":
            found |= {id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant)}
    return found


def game_names_in(path: Path, root: Path = SRC) -> list[str]:
    """``file:line: 'name'`` for each string literal (not a docstring) naming a game."""
    tree = ast.parse(path.read_text(), str(path))
    skip = docstrings(tree) | examples(tree)
    return [
        f"{path.relative_to(root)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and node.value.strip().lower() in NAMES
    ]


def move_text_matches_in(path: Path, root: Path = SRC) -> list[str]:
    """``file:line`` for each ``.startswith``/``.endswith`` on a variable called ``move`` or
    ``text`` (reading a game's rules from its notation)."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{path.relative_to(root)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("startswith", "endswith")
        and isinstance(node.func.value, (ast.Name, ast.Attribute))
        and (getattr(node.func.value, "id", None) or getattr(node.func.value, "attr", ""))
        in ("move", "text", "notation")
    ]


def test_the_checkers_find_a_game_name_and_a_move_match(tmp_path: Path) -> None:
    path = tmp_path / "sample.py"
    path.write_text(
        'def f(move):\n    """crossword"""\n    return move.startswith("rack ") or "Rummy"\n'
    )
    assert game_names_in(path, tmp_path) == ["sample.py:3: 'Rummy'"]
    assert move_text_matches_in(path, tmp_path) == ["sample.py:3"]


def test_no_module_of_the_server_or_the_scorebook_names_a_game() -> None:
    assert len(CHECKED) > 20 and {"crossword", "rummy", "greedy", "ten-thousand"} <= NAMES
    found = [hit for path in CHECKED if path not in EXEMPT for hit in game_names_in(path)]
    assert found == []


def test_no_module_of_the_server_or_the_scorebook_matches_move_text() -> None:
    found = [hit for path in CHECKED if path not in EXEMPT for hit in move_text_matches_in(path)]
    assert found == []


def test_no_page_of_the_web_client_names_a_game() -> None:
    # the pages (lobby, table, replay...) learn a game's renderer and start rule from GET
    # /games; only the renderers under js/games/ are about one game
    pages = sorted((SRC / "web" / "static" / "js").glob("*.js"))
    assert pages
    found = [
        f"{page.name}: {name}"
        for page in pages
        for name in sorted(NAMES)
        if f'"{name}"' in page.read_text(encoding="utf-8")
        or f"'{name}'" in page.read_text(encoding="utf-8")
    ]
    assert found == []
