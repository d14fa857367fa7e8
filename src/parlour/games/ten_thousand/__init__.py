"""Ten-Thousand: the classic six-dice game for 2-6 players, to 10,000 points."""

from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.ten_thousand.state import TenThousandState

SPEC = GameSpec(
    name="ten-thousand",
    title="Ten-Thousand",
    summary="Six dice, 2-6 players (1 for practice): set aside 1s, 5s and groups, bank "
    "before you farkle; first to 10,000 triggers the last turns.",
    aliases=("10000", "10k", "tenthousand"),
    chance=Chance.EXPLICIT,
    information=Information.PERFECT,
    options={
        "players": Option(2, "number of seats (1 is practice)", minimum=1, maximum=6),
        "target": Option(
            10_000, "score that starts the last turns", minimum=1_000, maximum=100_000, step=50
        ),
        "entry": Option(0, "minimum first bank (0: none)", minimum=0, maximum=5_000, step=50),
        "specials_any_roll": Option(
            False, "three pairs and straights score on any six-dice roll", kind=bool
        ),
    },
    new_state=TenThousandState,
    rules_doc="docs/rules/ten-thousand.md",
    bot_levels=("reckless", "cautious", "steady", "strong", "optimal"),
    bots="parlour.games.ten_thousand.bots:make_bot",
    coach="parlour.games.ten_thousand.coach:advise",
    research="parlour.research.dice:DiceCodec",
    host_events=("skip",),
    terminal_app="parlour.tui.ten_thousand.app:make_app",
    web_renderer="dice",
    picture="parlour.games.ten_thousand:picture.svg",
)
