"""Crossword: the word game where words can be changed by covering tiles (QUICK -> QUACK).

Manual ``002`` (a 1994 door game "similar to Scrabble"); every rule and decision is in
``docs/rules/crossword.md``. Modules: :mod:`.tiles` (letters, values, bag draws),
:mod:`.board` (squares, premiums, the compact board), :mod:`.lexicon` (word lists),
:mod:`.notation` (actions and their text), :mod:`.plays` (what makes a play legal),
:mod:`.scoring` (points), :mod:`.state` (turns, draws, days, the end), :mod:`.wordgraph`
(the lexicon as a minimal DAWG), :mod:`.movegen` (every legal play, fast),
and around them :mod:`.bots` (computer players), :mod:`.leaves` (the learned rack-leave
values), :mod:`.analysis` (``parlour analyse``), and :mod:`.platform` (what the server and
clients need to know beyond the protocol). The tools are apart from the game: the
arena, the bench and the leave learning in :mod:`parlour_tools.crossword`, the reference
enumerator (every legal play, simply: the generator's oracle) in
``tests/games/crossword/reference.py``.

For a move generator (and anything else that must be fast), the pieces are plain values:

- the board is :class:`~.board.Board`: ``letters`` (225-character ``str``, ``"."`` empty;
  ``letters[r*15:r*15+15]`` a row, ``letters[c::15]`` a column) and ``heights`` (225 bytes,
  tiles stacked per square); a premium is available exactly when its square is empty, with
  its factors in :data:`~.board.LETTER_MULTIPLIER` and :data:`~.board.WORD_MULTIPLIER`;
- a rack is a ``str`` of letters; tile values are :data:`~.tiles.TILE_VALUES`;
- a play is :class:`~.notation.Play` ``(word, square, direction)``; its direction names the
  played word, a one-tile play's too (``SHAM K5 down`` and ``SO K5 across`` are two plays);
- :func:`~.plays.check_play` validates and scores a play (pure; the rules' single source),
  :func:`~.scoring.score_word` scores one word,
  :meth:`~.movegen.MoveGenerator.cross_checks` gives every square's allowed letters for
  plays in one direction, occupied squares included;
- the lexicon's words are :attr:`~.lexicon.Lexicon.words` (sorted); its word graph is cached
  under :func:`~.lexicon.cache_dir`;
- :meth:`~.state.CrosswordState.plays` (scored plays) and :meth:`~.state.CrosswordState.moves`
  (light ones) ask the move generator (:class:`~.movegen.MoveGenerator`) for every legal play;
  the reference enumerator stays as its oracle in the tests.
"""

from parlour.engine.platform import Platform, Start
from parlour.engine.spec import Chance, GameSpec, Information, Option
from parlour.games.crossword import platform
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
            "enable",
            "word list: 'enable' (built in) or a file, one word per line",
            kind=str,
            file=True,
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
    bot_levels=("easy", "medium", "hard", "lookahead"),
    bots="parlour.games.crossword.bots:make_bot",
    research="parlour.research.crossword:CrosswordCodec",
    host_events=("skip", "new-day"),
    terminal_app="parlour.tui.crossword.app:make_app",
    web_renderer="crossword",
    picture="parlour.games.crossword:picture.svg",
    platform=Platform(
        secret=platform.secret_move,
        independent=platform.independent_move,
        compose=platform.compose_tiles,
        preview_hides=platform.never_hidden,
        preview_view=platform.final_reveal_withheld,
        warm=platform.warm_word_list,
        legal_limit=0,  # hundreds of plays: never listed; clients compose plays in notation
        start=Start.VOTE,
        daily=platform.runs_on_days,
    ),
)
