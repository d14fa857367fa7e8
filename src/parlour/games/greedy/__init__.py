"""Greedy: nine dice against the computer (or 2-6 players); first to end a turn on 10,000."""

from parlour.engine.platform import Platform
from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.greedy import platform
from parlour.games.greedy.state import GreedyState

SPEC = GameSpec(
    name="greedy",
    title="Greedy",
    summary="Nine dice against the computer: keep 1s, 5s and sets of three, bonus rounds when "
    "all nine score; the first to end a turn on 10,000 wins.",
    aliases=("greedy-dice",),
    chance=Chance.EXPLICIT,
    information=Information.PERFECT,
    options={
        "players": Option(2, "number of seats", minimum=2, maximum=6),
        "target": Option(
            10_000,
            "a player who ends a turn with this many points wins",
            minimum=1_000,
            maximum=100_000,
            step=50,
        ),
    },
    new_state=GreedyState,
    rules_doc="docs/rules/greedy.md",
    bot_levels=("easy", "steady", "strong", "optimal"),
    bots="parlour.games.greedy.bots:make_bot",
    coach="parlour.games.greedy.coach:advise",
    research="parlour.research.dice:DiceCodec",
    host_events=("skip",),
    terminal_app="parlour.tui.greedy.app:make_app",
    web_renderer="dice",
    picture="parlour.games.greedy:picture.svg",
    platform=Platform(contributions=platform.contributions, resign_move="quit"),
)
