"""Rummy: the two-player card game against the computer, closest to 500 Rum (manual ``003``).

Sets and runs are melded and cards laid off onto any meld; each card on the table scores for
the player who put it there, cards left in the hand count against. Rounds go on until a score
is over the ending score (500).
"""

from parlour.engine.platform import Platform
from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.rummy import platform
from parlour.games.rummy.state import RummyState

SPEC = GameSpec(
    name="rummy",
    title="Rummy",
    summary="One deck, 10 cards each: meld sets and runs, lay off onto any meld; cards on the "
    "table score for whoever put them there. First over 500 wins.",
    aliases=("rum", "500-rum"),
    chance=Chance.EXPLICIT,
    information=Information.IMPERFECT,
    options={
        "players": Option(2, "number of seats", minimum=2, maximum=4),
        "ending_score": Option(
            500,
            "a game score over this at the end of a round ends the game",
            minimum=5,
            maximum=100_000,
        ),
        "hand_size": Option(
            0,
            "cards dealt to each player (0: 10 for two players, 7 for three or four)",
            minimum=0,
            maximum=13,
        ),
        "must_discard": Option(False, "going out needs a final discard", kind=bool),
        "first": Option(
            0,
            "the seat that plays first in every round (with alternate_start: in the first); "
            "against the computer, the person's seat",
            minimum=0,
            maximum=3,
        ),
        "alternate_start": Option(
            False,
            "the first player alternates from round to round (manual: the same one always)",
            kind=bool,
        ),
        "max_rounds": Option(
            100,
            "safeguard: the game ends after this many rounds (0: no limit)",
            minimum=0,
            maximum=10_000,
        ),
        "max_turns": Option(
            500,
            "safeguard: a round ends after this many turns, as when the stock runs out "
            "(0: no limit)",
            minimum=0,
            maximum=100_000,
        ),
    },
    new_state=RummyState,
    rules_doc="docs/rules/rummy.md",
    bot_levels=("easy", "medium", "hard", "expert", "lookahead"),
    bots="parlour.games.rummy.bots:make_bot",
    research="parlour.research.rummy:RummyCodec",
    host_events=("skip",),
    terminal_app="parlour.tui.rummy.app:make_app",
    web_renderer="rummy",
    picture="parlour.games.rummy:picture.svg",
    platform=Platform(
        secret=platform.secret_move,
        preview_hides=platform.preview_hidden,
        contributions=platform.contributions,
    ),
    person_starts="first",
)
