"""The move generator against the rules engine (check_play), the reference enumerator and
brute force (docs/rules/crossword.md#move-generator)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.crossword.board import ACROSS, DOWN, SIZE, Board, parse_square
from parlour.games.crossword.bots import MediumBot
from parlour.games.crossword.lexicon import Lexicon, load_lexicon
from parlour.games.crossword.movegen import Move, MoveGenerator
from parlour.games.crossword.notation import Play
from parlour.games.crossword.plays import CrosswordRules, check_play
from parlour.games.crossword.state import CrosswordState
from tests.games.crossword.helpers import board
from tests.games.crossword.reference import all_plays
from tests.games.crossword.test_reference import brute_force

ENABLE = load_lexicon()


def generated(
    b: Board, rack: str, lexicon: Lexicon, rules: CrosswordRules | None = None
) -> list[Move]:
    return MoveGenerator.for_lexicon(lexicon, rules or CrosswordRules()).moves(b, rack)


def assert_agrees(b: Board, rack: str, lexicon: Lexicon, rules: CrosswordRules) -> list[Move]:
    """Each generated play once; each accepted by check_play, in the same canonical form,
    with the same tiles, words and points; and exactly the reference enumerator's plays."""
    moves = generated(b, rack, lexicon, rules)
    plays = [m.play for m in moves]
    assert len(set(plays)) == len(plays), "a play listed twice"
    for move in moves:
        scored = check_play(b, move.play, rack, lexicon, rules)
        assert scored == move.scored(b, rules), move
        assert (scored.play, scored.score, scored.tiles) == (move.play, move.score, move.tiles)
        assert move.covers == len(scored.covered)
    reference = {s.play: s for s in all_plays(b, rack, lexicon, rules)}
    assert set(plays) == set(reference)
    return moves


def self_play_positions(
    count: int, seed: int, lexicon: str = "enable", **options: object
) -> list[tuple[Board, str, CrosswordRules]]:
    """Positions every third turn of seeded games between medium players."""
    bot = MediumBot()
    found: list[tuple[Board, str, CrosswordRules]] = []
    game = 0
    while len(found) < count:
        rng = random.Random(f"{seed}:{game}")
        state = parlour.load("crossword", lexicon=lexicon, **options).new_initial_state()
        assert isinstance(state, CrosswordState)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if state.turns % 3 == 1:
                found.append((state.board, state.racks[state.seat], state.rules))
            state.apply(bot.choose(state, state.seat, rng))
        game += 1
    return found


# --- the word graph --------------------------------------------------------------------------


def test_word_graph_holds_exactly_the_lexicon() -> None:
    graph = MoveGenerator.for_lexicon(ENABLE).graph
    assert tuple(graph.words()) == ENABLE.words
    # the minimal DAWG of a word list is unique: these counts are ENABLE's
    assert (graph.nodes, len(graph.edges)) == (52_929, 121_438)
    assert "QUACK" in graph and "QUAKC" not in graph and graph.has_prefix("QUA")


# --- seeded self-play positions, every option --------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"max_stack": 1},
        {"cover_whole_word": True},
        {"max_stack": 2},
        {"premiums_in_cross_words": True},
        {"players": 3, "max_stack": 3},
    ],
    ids=["default", "no-covering", "cover-whole-word", "max-stack-2", "premiums", "3-players"],
)
def test_generator_agrees_with_the_rules_on_self_play_positions(options: dict[str, object]) -> None:
    positions = self_play_positions(6, seed=len(str(options)), **options)
    for b, rack, rules in positions:
        assert_agrees(b, rack, ENABLE, rules)


def test_no_covering_lists_no_cover_play_and_covering_adds_some() -> None:
    covers = 0
    for b, rack, _ in self_play_positions(6, seed=4):
        off = generated(b, rack, ENABLE, CrosswordRules(max_stack=1))
        on = generated(b, rack, ENABLE, CrosswordRules())
        assert not any(m.covers for m in off)
        assert {m.play for m in off} == {m.play for m in on if not m.covers}
        covers += sum(1 for m in on if m.covers)
    assert covers > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_brute_force_finds_no_play_the_generator_misses(tiny_lexicon_file: str, seed: int) -> None:
    # every word of the lexicon tried at every square in both directions through check_play
    lexicon = load_lexicon(tiny_lexicon_file)
    rules = CrosswordRules(cover_whole_word=seed == 2, max_stack=2 if seed == 3 else 0)
    for b, rack, _ in self_play_positions(2, seed=seed, lexicon=tiny_lexicon_file):
        moves = generated(b, rack, lexicon, rules)
        assert {m.play: m.score for m in moves} == brute_force(b, rack, lexicon, rules)


# --- Hypothesis: arbitrary boards ---------------------------------------------------------------

SMALL = "ACDEILNORSTU"
SMALL_WORDS = sorted(w for w in ENABLE.words if len(w) <= 5 and set(w) <= set(SMALL))
SETTINGS = settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, str, CrosswordRules]:
    """A board of words from the small lexicon written anywhere near the centre (not always a
    legal position: the generator must still agree with check_play), some tiles stacked."""
    words = draw(st.lists(st.sampled_from(SMALL_WORDS), min_size=0, max_size=6))
    b = Board.empty()
    for word in words:
        direction = draw(st.sampled_from([ACROSS, DOWN]))
        line = draw(st.integers(4, 10))
        start = draw(st.integers(3, SIZE - len(word) - 3))
        square = line * SIZE + start if direction is ACROSS else start * SIZE + line
        b = b.with_word(word, square, direction)
    heights = bytearray(b.heights)
    for sq in range(SIZE * SIZE):
        if heights[sq] and draw(st.integers(0, 5)) == 0:
            heights[sq] = draw(st.integers(2, 3))
    rack = draw(st.text(SMALL, min_size=1, max_size=7))
    rules = CrosswordRules(
        cover_whole_word=draw(st.booleans()),
        max_stack=draw(st.sampled_from([0, 0, 1, 2, 3])),
        premiums_in_cross_words=draw(st.booleans()),
    )
    return Board(b.letters, bytes(heights)), rack, rules


@SETTINGS
@given(position=positions())
def test_generator_agrees_with_the_reference_on_arbitrary_boards(
    small_lexicon_file: str, position: tuple[Board, str, CrosswordRules]
) -> None:
    b, rack, rules = position
    assert_agrees(b, rack, load_lexicon(small_lexicon_file), rules)


# --- hand-checked cases --------------------------------------------------------------------------


def test_quick_becomes_quack_with_one_cover() -> None:
    lexicon = Lexicon.from_words(["QUICK", "QUACK"])
    b = board(("QUICK", "H8", ACROSS))
    (move,) = generated(b, "AEIOU", lexicon)
    # Q10 U1 A1 C3 K5, no premium on a covered or kept square: 20
    assert (str(move.play), move.score, move.tiles, move.covers) == ("QUACK H8 across", 20, "A", 1)
    assert move.scored(b).covered == "I"


def test_a_whole_word_is_covered_only_with_the_option() -> None:
    lexicon = Lexicon.from_words(["AT", "ON", "IT"])
    b = board(("AT", "H8", ACROSS))
    assert {str(m.play) for m in generated(b, "ON", lexicon)} == set()
    whole = generated(b, "ON", lexicon, CrosswordRules(cover_whole_word=True))
    assert [(str(m.play), m.score) for m in whole] == [("ON H8 across", 2)]
    # covering only the A keeps the T: IT is allowed either way (and an I above the T on
    # I7, a double letter, makes IT down: 1*2 + 1 = 3)
    assert {(str(m.play), m.score) for m in generated(b, "I", lexicon)} == {
        ("IT H8 across", 2),
        ("IT I7 down", 3),
    }


def test_the_stack_height_limit() -> None:
    lexicon = Lexicon.from_words(["QUICK", "QUACK"])
    b = board(("QUICK", "H8", ACROSS))
    i_square = parse_square("J8")
    stacked = Board(b.letters, b.heights[:i_square] + bytes([2]) + b.heights[i_square + 1 :])
    assert generated(stacked, "A", lexicon, CrosswordRules(max_stack=2)) == []
    assert [str(m.play) for m in generated(stacked, "A", lexicon, CrosswordRules(max_stack=3))] == [
        "QUACK H8 across"
    ]
    assert generated(b, "A", lexicon, CrosswordRules(max_stack=1)) == []


def test_a_cover_re_spells_the_perpendicular_word() -> None:
    # CAT across from G8 and AX down from H8 share the A. COT covers it with an O:
    # COT 3+1+1 = 5 and OX 1+8 = 9 (plain values): 14, and OX H8 down is the same O, declared
    # down: OX 9 + COT 5 = 14 (a cover uses no premium). Without OX in the lexicon, no play.
    b = board(("CAT", "G8", ACROSS), ("AX", "H8", DOWN))
    with_ox = Lexicon.from_words(["CAT", "COT", "AX", "OX"])
    moves = [(str(m.play), m.score, m.covers) for m in generated(b, "O", with_ox)]
    assert moves == [("COT G8 across", 14, 1), ("OX H8 down", 14, 1)]
    assert_agrees(b, "O", with_ox, CrosswordRules())
    without = Lexicon.from_words(["CAT", "COT", "AX"])
    assert generated(b, "O", without) == []


def test_a_one_tile_play_is_listed_in_each_direction() -> None:
    lexicon = Lexicon.from_words(["HAT", "BAT", "BA", "HA", "AT", "TA"])
    b = board(("HA", "I11", ACROSS), ("BA", "K9", DOWN))
    moves = generated(b, "T", lexicon)
    # one T on K11 (double word) makes HAT across and BAT down: two plays, the declared
    # direction's word doubled: HAT (4+1+1)*2 + BAT 3+1+1 = 17; BAT (3+1+1)*2 + HAT 6 = 16
    on_k11 = [m for m in moves if parse_square("K11") in m.play.squares()]
    assert [(str(m.play), m.score) for m in on_k11] == [("HAT I11 across", 17), ("BAT K9 down", 16)]
    assert [check_play(b, m.play, "T", lexicon).score for m in on_k11] == [17, 16]


def test_the_sham_position_lists_both_readings() -> None:
    b = board(("HAM", "K6", DOWN), ("NO", "L4", DOWN))
    scores = {str(m.play): m.score for m in generated(b, "S", ENABLE)}
    assert scores["SHAM K5 down"] == 20 and scores["SO K5 across"] == 13
    assert_agrees(b, "S", ENABLE, CrosswordRules())


def test_the_opening_rack_aeinrst() -> None:
    moves = generated(Board.empty(), "AEINRST", ENABLE)
    assert len(moves) == len(all_plays(Board.empty(), "AEINRST", ENABLE))
    # (7 + 1) * 2 + 50: a bingo over H8 (double word) with one letter on a double letter
    assert max(m.score for m in moves) == 66
    assert Play("RETAINS", parse_square("H8"), ACROSS) in {m.play for m in moves}
    assert all(m.bingo == (len(m.tiles) == 7) for m in moves)
    # the first play always covers H8, down as well as across
    assert all(parse_square("H8") in m.play.squares() for m in moves)
    assert {m.play.direction for m in moves} == {ACROSS, DOWN}


def test_an_empty_rack_has_no_play() -> None:
    assert generated(board(("CAT", "G8", ACROSS)), "", ENABLE) == []


def test_the_state_lists_the_generators_plays() -> None:
    state = parlour.load("crossword").new_initial_state()
    assert isinstance(state, CrosswordState)
    rng = random.Random(5)
    while state.turns < 6:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(MediumBot().choose(state, state.seat, rng))
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    seat = state.seat
    plays = state.plays(seat)
    assert plays == [m.scored(state.board, state.rules) for m in state.moves(seat)]
    assert {s.play for s in plays} == {
        s.play for s in all_plays(state.board, state.racks[seat], ENABLE)
    }
    actions = state.legal_actions()
    assert actions[: len(plays)] == [s.play for s in plays] and str(actions[-1]) == "pass"
