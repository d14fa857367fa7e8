"""Pig is found, never named: no module outside ``parlour/games/pig/`` refers to it.

What is checked, in ``src/parlour`` outside ``games/pig/`` and in ``tests`` outside
``tests/games/pig/`` (every ``.py`` file, and the web client's ``.js``, ``.html`` and ``.css``
files):

- Python: an ``import`` or ``from ... import`` (relative ones resolved) of ``parlour.games.pig``
  or anything in it; and any string literal (docstrings and f-string parts included) that is
  the game's name, ``"pig"`` (any case, spaces around), or that names the package or its files:
  ``games.pig``, ``games/pig``, ``pig:SPEC``, ``rules/pig.md``, ``pig.js``.
- The web client: the word "pig" anywhere (any case; comments too: the client has no model
  of the textbook game, so any mention is of this one), and ``games/pig``, ``pig.js``.
- ``pyproject.toml``: exactly one line names Pig, its entry point.

Not flagged in Python: identifiers, comments, and prose in longer strings.
``parlour.games.dice.optimal`` has a ``pig_model`` and docstrings about "Pig": that is the
textbook game (Neller and Presser's, 2004) as a calibration model for the win-probability
solver, with its own units and its own test (``tests/games/dice/test_optimal.py``); neither
imports anything of ``games/pig``, and both would stay if this package went. Tests elsewhere
reach Pig through the registry (``parlour.games()``) or as ``tests.quick_game.QUICK_GAME``,
whose one line is the only other place that names it.
"""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "src" / "parlour"
OWN = SRC / "games" / "pig"
TESTS = ROOT / "tests"
OWN_TESTS = TESTS / "games" / "pig"
NAMES = re.compile(r"games[./]pig\b|\bpig:spec\b|rules/pig\.md|\bpig\.js\b", re.IGNORECASE)
WORD = re.compile(r"\bpig\b", re.IGNORECASE)
PACKAGE = "parlour.games.pig"


def module_name(path: Path) -> str:
    """``src/parlour/games/dice/state.py`` -> ``parlour.games.dice.state``;
    ``tests/games/dice/test_optimal.py`` -> ``tests.games.dice.test_optimal``."""
    base = SRC.parent if SRC in path.parents else ROOT
    parts = path.relative_to(base).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _is_pig(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def python_references(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Where *source* (the module *module*) names Pig: ``"line N: why"`` entries."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [f"line {line}: imports {a.name}" for a in node.names if _is_pig(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            for alias in node.names:
                if _is_pig(base) or _is_pig(f"{base}.{alias.name}"):
                    found.append(f"line {line}: imports {alias.name} from {base}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.strip().lower() == "pig":
                found.append(f"line {line}: the game's name as a literal {node.value!r}")
            elif match := NAMES.search(node.value):
                found.append(f"line {line}: names the package or its files ({match[0]})")
    return found


def web_references(text: str) -> list[str]:
    """Where a web client file names Pig: ``"line N: why"`` entries."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if match := WORD.search(line) or NAMES.search(line):
            found.append(f"line {number}: {match[0]}")
    return found


def outside_files(*suffixes: str, under: tuple[Path, ...] = (SRC,)) -> list[Path]:
    """The files ending in *suffixes* below *under*, Pig's package and tests left out."""
    return sorted(
        path
        for root in under
        for suffix in suffixes
        for path in root.rglob(f"*{suffix}")
        if OWN not in path.parents
        and OWN_TESTS not in path.parents
        and "__pycache__" not in path.parts
    )


def test_no_python_module_outside_the_package_names_pig() -> None:
    files = outside_files(".py", under=(SRC, TESTS))
    assert len(files) > 200  # the scan sees the product's modules and the other tests
    assert TESTS / "engine" / "test_protocol.py" in files
    found = {
        str(path.relative_to(ROOT)): refs
        for path in files
        if (
            refs := python_references(
                path.read_text(encoding="utf-8"),
                module_name(path),
                is_package=path.name == "__init__.py",
            )
        )
    }
    # the one line that names the other tests' quick game (tests/quick_game.py)
    assert found.pop("tests/quick_game.py") == ["line 6: the game's name as a literal 'pig'"]
    assert found == {}


def test_no_web_client_file_names_pig() -> None:
    files = outside_files(".js", ".html", ".css")
    assert files  # the web client is there to scan
    found = {
        str(path.relative_to(ROOT)): refs
        for path in files
        if (refs := web_references(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_pyproject_names_pig_once_in_the_entry_point_and_it_is_installed() -> None:
    lines = (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if "pig" in line.lower()] == ['pig = "parlour.games.pig:SPEC"']
    points = {p.name: p.value for p in entry_points(group="parlour.games")}
    assert points["pig"] == "parlour.games.pig:SPEC"  # pip install -e . has been re-run


def test_pig_imports_only_the_engine_and_itself() -> None:
    for path in sorted(OWN.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("parlour"):
                    assert name.startswith(("parlour.engine", PACKAGE)), (path.name, name)


# --- the checks can fail: what they flag, and what they leave alone ------------------------


@pytest.mark.parametrize(
    ("source", "module", "why"),
    [
        ("import parlour.games.pig\n", "parlour.cli.main", "imports parlour.games.pig"),
        ("from parlour.games import pig\n", "parlour.tui.registry", "imports pig from"),
        ("from parlour.games.pig.bots import make_bot\n", "parlour.server.x", "imports make_bot"),
        ("from .pig import SPEC\n", "parlour.games", "imports SPEC from parlour.games.pig"),
        ("from ..pig.state import PigState\n", "parlour.games.dice.x", "imports PigState"),
        ('if spec.name == "pig":\n    pass\n', "parlour.scorebook", "the game's name"),
        ("RENDERERS = {'Pig ': 'dice'}\n", "parlour.server.x", "the game's name"),
        ('load("parlour.games.pig.bots:make_bot")\n', "parlour.session", "games.pig"),
        ('f"{root}/games/pig/state.py"\n', "parlour.cli.x", "games/pig"),
        ('"""See docs/rules/pig.md."""\n', "parlour.tui.x", "rules/pig.md"),
    ],
)
def test_a_reference_is_flagged(source: str, module: str, why: str) -> None:
    found = python_references(source, module, is_package=module == "parlour.games")
    assert len(found) == 1 and why in found[0], found


def test_the_calibration_model_of_the_textbook_game_is_not_a_reference() -> None:
    source = (
        "def pig_model(sides: int = 6) -> TurnModel:\n"
        '    """Pig\'s turn as a TurnModel: one die, a 1 loses the turn total."""\n'
        "    return TurnModel(1, pig_kind(sides))\n"
    )
    assert python_references(source, "parlour.games.dice.optimal") == []
    assert "Pig" in (SRC / "games" / "dice" / "optimal.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("const RENDERERS = {pig: 'dice'};", True),
        ("if (game === 'pig') {", True),
        ('import("./games/pig.js")', True),
        ("render(`Pig`)", True),
        ("// a game such as Pig gets the generic table", True),
        ("const pigment = 'ochre';", False),
    ],
)
def test_web_references_are_the_word_and_the_file(line: str, flagged: bool) -> None:
    assert bool(web_references(line)) is flagged
