"""The ``lookahead`` crossword level: its candidates (cover plays included), the simulated
reply, the end-game search, legal whole games and the same choice for the same seed
(docs/rules/crossword.md#computer-players)."""

from __future__ import annotations

import math
import random

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.games.crossword import lookahead
from parlour.games.crossword.board import ACROSS
from parlour.games.crossword.bots import HardBot, make_bot, seen
from parlour.games.crossword.lookahead import LookaheadBot, endgame_value
from parlour.games.crossword.notation import Play
from parlour.games.crossword.state import CrosswordState
from tests.games.crossword.helpers import board
from tests.games.crossword.test_bots import POSITIONS, position

QUICK = board(("QUICK", "H8", ACROSS))


def unclocked(*, samples: int = 16, width: int = 6) -> LookaheadBot:
    """The level without its wall-clock stop, so that a loaded machine changes nothing."""
    return LookaheadBot(samples=samples, width=width, seconds=math.inf)


def test_the_end_game_search_finds_a_better_way_out_than_going_out_at_once() -> None:
    # Bag empty; D S against J Z, which has no play on this board (no vowel to use).
    # hard goes out at once: QUIDS H8, Q10 U1 I1 D2 S1 = 15 (L8's premium is gone under the
    # K), plus J Z (18) twice = 51. The search sees that J Z cannot answer: QUICKS (20 + S1
    # = 21), the opponent passes, then ID J8 down (I1 + D2 = 3) goes out: 21 + 3 + 36 = 60.
    state = position(QUICK, ["DS", "JZ"])
    assert state.moves(1) == []
    assert str(HardBot().choose(state, 0, random.Random(0))) == "QUIDS H8 across"
    bot = unclocked()
    assert endgame_value(QUICK, "DS", "JZ", state.generator, bot, math.inf, 3, 0) == 60
    assert str(bot.choose(state, 0, random.Random(0))) == "QUICKS H8 across"
    # with one tile left the search is exact: QUICKS goes out, 21 + 36
    assert endgame_value(QUICK, "S", "JZ", state.generator, bot, math.inf, 3, 0) == 57


def test_the_candidates_are_hards_best_by_equity_cover_plays_included() -> None:
    # B L O A G E D over QUICK: BLOCKAGE covers Q U I with B L O and keeps the C K.
    state = position(QUICK, ["ABDEGLO", "EEJNRTZ"], bag="EEEEEEE")
    view = seen(state, 0)
    bot = unclocked(width=3)
    ranked = bot.candidates(view, state.moves(0))
    hard = HardBot()
    best = sorted((hard.equity(view, m) for m in state.moves(0)), reverse=True)[:3]
    assert [equity for equity, _ in ranked] == best
    top = ranked[0][1]
    assert isinstance(top, type(state.moves(0)[0]))
    assert (top.word, top.score, top.covers) == ("BLOCKAGE", 51, 3)


def test_the_reply_is_the_opponents_best_by_equity() -> None:
    # On QUICK with J Z only: no play, so the reply is a pass (0 points).
    bot = unclocked()
    state = position(QUICK, ["DS", "JZ"])
    assert bot.reply(QUICK, "JZ", state.generator, 0) == 0
    # With the bag empty the leave is worth nothing: the reply is the top score.
    scores = [m.score for m in state.generator.moves(QUICK, "DS")]
    assert bot.reply(QUICK, "DS", state.generator, 0) == max(scores) == 21


def test_the_same_seed_gives_the_same_choice_and_the_choice_is_legal() -> None:
    for state in POSITIONS[:3]:
        bot = unclocked(samples=4, width=4)
        first = bot.choose(state, state.seat, random.Random(5))
        assert first == bot.choose(state, state.seat, random.Random(5))
        assert isinstance(first, Play)
        assert first in state.legal_actions()


class _NoClock:
    """A ``time`` module whose every use fails the test."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the level read the clock: time.{name}")


def test_the_default_budget_reads_no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: the budget is work (samples, the end game's bound), so a seed gives the same
    move on a loaded machine: the default level never reads the clock, while the bag holds
    tiles or in the end game, and chooses as the level with the stop turned off does."""
    expected = [
        unclocked(samples=4, width=4).choose(s, s.seat, random.Random(5)) for s in POSITIONS[:2]
    ]
    end = position(QUICK, ["DS", "JZ"])
    monkeypatch.setattr(lookahead, "time", _NoClock())
    assert LookaheadBot().seconds == math.inf
    found = [
        LookaheadBot(samples=4, width=4).choose(s, s.seat, random.Random(5)) for s in POSITIONS[:2]
    ]
    assert found == expected
    assert str(LookaheadBot().choose(end, 0, random.Random(0))) == "QUICKS H8 across"


def test_a_whole_game_against_hard_is_legal() -> None:
    game = parlour.load("crossword", players=2)
    players = [unclocked(samples=2, width=3), make_bot("hard")]
    state = play_game(game, players, random.Random(3))
    assert isinstance(state, CrosswordState) and state.is_terminal()
    assert sum(state.tiles_accounted().values()) == 98


def test_more_than_two_players_play_as_hard() -> None:
    state = POSITIONS[3]
    assert state.game.num_players == 3
    choice = unclocked().choose(state, state.seat, random.Random(1))
    assert choice == HardBot().choose(state, state.seat, random.Random(1))


@pytest.mark.parametrize(
    ("streak", "behind"),
    [([0, 0], 0), ([0, 1], 1), ([1, 1], 2), ([1, 2], 3), ([0, 2], 1), ([2, 1], 2)],
)
def test_the_end_game_starts_from_the_scoreless_turns_behind_it(
    monkeypatch: pytest.MonkeyPatch, streak: list[int], behind: int
) -> None:
    """The end game's root counts the scoreless turns in a row just played, from the seats'
    ``streak`` (seat 0 to move): ``[1, 2]`` is seat 1, seat 0, seat 1 scoreless in turn, so
    one more pass ends the game now (both seats' last two turns scoreless); ``[0, 2]`` is
    seat 0's play between seat 1's two passes, one behind. The root began at 0 whatever
    the streak, valuing a pass that ends the game as if play went on."""
    state = position(QUICK, ["DS", "JZ"])
    state.streak = list(streak)
    assert not state.over and state.current_player() == 0
    roots: list[int] = []
    scored = lookahead._scored

    def spy(*args: object) -> object:
        if not roots:
            roots.append(args[-1])  # type: ignore[arg-type]
        return scored(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lookahead, "_scored", spy)
    LookaheadBot().choose(state, 0, random.Random(0))
    assert roots == [behind]
