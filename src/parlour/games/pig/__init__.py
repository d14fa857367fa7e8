"""Pig: one die, 2-6 players; roll as often as you like, a 1 loses the turn total; first to
hold 100 wins (``docs/rules/pig.md``).

The model game package (``docs/adding-a-game.md``): the spec below is everything the platform
knows about Pig, and the ``pig`` entry point in ``pyproject.toml`` is how it finds it.
"""

from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.pig.state import PigState

SPEC = GameSpec(
    name="pig",
    title="Pig",
    summary="One die, 2-6 players: roll as often as you like, but a 1 loses the turn's "
    "points; hold to bank them. First to 100 wins.",
    options={
        "players": Option(2, "number of seats", minimum=2, maximum=6),
        "target": Option(100, "holding this many points or more wins", minimum=10, maximum=1000),
    },
    new_state=PigState,
    chance=Chance.EXPLICIT,
    information=Information.PERFECT,
    rules_doc="docs/rules/pig.md",
    bot_levels=("random", "hold-20"),
    bots="parlour.games.pig.bots:make_bot",
    research="parlour.games.pig.research",
    host_events=("skip",),
    terminal_app="",
    web_renderer="",
    picture="parlour.games.pig:picture.svg",
)
