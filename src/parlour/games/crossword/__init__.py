"""Crossword: the word game where words can be changed by covering tiles (QUICK -> QUACK).

Manual ``002`` (a 1994 door game "similar to Scrabble"); every rule and decision is in
``docs/rules/crossword.md``. Modules: :mod:`.tiles` (letters, values, bag draws),
:mod:`.board` (squares, premiums, the compact board), :mod:`.lexicon` (word lists),
:mod:`.notation` (actions and their text), :mod:`.rules` (what makes a play legal),
:mod:`.scoring` (points), :mod:`.state` (turns, draws, days, the end) and :mod:`.reference`
(every legal play, simply).
"""

from parlour.engine.registry import register
from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.crossword.state import CrosswordState

SPEC = GameSpec(
    name="crossword",
    title="Crossword",
    summary="A word game for 2-4 on a 15x15 board where a tile may cover another to change "
    "a word (QUICK becomes QUACK); turns in order, or one play a day.",
    aliases=("crosswords", "words"),
    chance=Chance.EXPLICIT,
    information=Information.IMPERFECT,
    options={
        "players": Option(2, "number of seats", minimum=2, maximum=4),
        "turn_mode": Option(
            "turns",
            "turns: fixed seat order; daily: first come, first play, one turn per seat a day",
            kind=str,
            choices=("turns", "daily"),
        ),
        "lexicon": Option(
            "enable", "word list: 'enable' (built in) or a file, one word per line", kind=str
        ),
        "cover_whole_word": Option(
            False, "a play may cover every tile of an existing word", kind=bool
        ),
        "max_stack": Option(
            0, "most tiles one square may hold (0: no limit; 1: no covering)", minimum=0
        ),
        "premiums_in_cross_words": Option(
            False, "cross words also use new premium squares (standard Scrabble)", kind=bool
        ),
    },
    new_state=CrosswordState,
    rules_doc="docs/rules/crossword.md",
)

register(SPEC)
