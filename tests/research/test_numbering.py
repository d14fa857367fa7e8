"""The action numbering is stable across versions (docs/research.md): these ids are pinned.

A change here breaks every trained agent and saved policy; if one is ever needed, it is a
new numbering with a new name, never an edit of these values."""

from __future__ import annotations

import hashlib
import random

import pytest

from parlour.engine.errors import BadOption
from parlour.games.dice.notation import Keep, Quit
from parlour.games.rummy.cards import mask_of as cards_mask
from parlour.games.rummy.cards import parse_card, parse_cards
from parlour.games.rummy.notation import DRAW_DISCARD, DRAW_STOCK, Discard, LayOff, Meld
from parlour.research import crossword, rummy
from parlour.research.codecs import load_codec
from parlour.research.dice import multisets


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_dice_multisets_are_pinned() -> None:
    assert len(multisets(6)) == 923 and len(multisets(9)) == 5004
    assert multisets(6)[:8] == ((1,), (2,), (3,), (4,), (5,), (6,), (1, 1), (1, 2))
    assert _digest("\n".join(" ".join(map(str, m)) for m in multisets(6))) == "50c95af404b6af5f"
    assert _digest("\n".join(" ".join(map(str, m)) for m in multisets(9))) == "6287c6f590c36c30"


@pytest.mark.parametrize(("game", "size"), [("ten-thousand", 1846), ("greedy", 10009)])
def test_dice_action_ids_of_version_0(game: str, size: int) -> None:
    codec = load_codec(game, numbering="multisets")
    assert codec.num_actions == size and codec.version == 0
    assert codec.id_of(Keep((1,), False)) == 0
    assert codec.id_of(Keep((5,), True)) == 9
    assert codec.id_of(Keep((1, 1, 5), True)) == 63  # (1, 1, 5) is multiset 31
    if game == "greedy":
        assert codec.id_of(Keep((6,) * 9, True)) == 10007
        assert codec.id_of(Quit()) == 10008
    else:
        assert codec.id_of(Keep((6,) * 6, True)) == 1845


@pytest.mark.parametrize(
    ("game", "size", "digest"),
    [("ten-thousand", 268, "159e3acad07909f4"), ("greedy", 573, "986351386c6be5ed")],
)
def test_dice_action_ids_of_the_scoring_numbering(game: str, size: int, digest: str) -> None:
    codec = load_codec(game)
    assert codec.num_actions == size and codec.version == 1
    keeps = codec.keeps  # type: ignore[attr-defined]
    assert _digest("\n".join(" ".join(map(str, k)) for k in keeps)) == digest
    assert keeps[:6] == ((1,), (5,), (1, 1), (1, 5), (5, 5), (1, 1, 1))
    assert codec.id_of(Keep((1,), False)) == 0
    assert codec.id_of(Keep((5,), True)) == 3
    assert codec.id_of(Keep((1, 1, 5), True)) == 13  # (1, 1, 5) is selection 6
    assert codec.id_of(Keep((2, 2, 2), False)) == 16
    if game == "greedy":
        assert codec.id_of(Keep((6,) * 9, True)) == 571
        assert codec.id_of(Quit()) == 572
    else:
        assert codec.id_of(Keep((6,) * 6, True)) == 267
        assert codec.id_of(Keep((1, 2, 3, 4, 5, 6), False)) == 180  # the straight
        assert sum(len(k) == 6 for k in keeps) == 74
    for i in range(codec.num_actions):
        assert codec.id_of(codec.action_of(i)) == i  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("ten-thousand", {"specials_any_roll": True, "entry": 500, "players": 3}),
        ("ten-thousand", {}),
        ("greedy", {"target": 3000}),
    ],
)
def test_every_legal_keep_has_a_scoring_id(game: str, options: dict[str, object]) -> None:
    """Random games with the game's options: every legal action has an id of the scoring
    numbering, which names it back."""
    codec = load_codec(game, **options)
    rng = random.Random(11)
    for _ in range(40):
        state = codec.game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            for action in actions:
                assert codec.action_of(codec.id_of(action)) == action  # type: ignore[attr-defined]
            state.apply(rng.choice([a for a in actions if not isinstance(a, Quit)]))


def test_a_bad_numbering_is_refused() -> None:
    with pytest.raises(BadOption, match="numbering must be one of scoring, multisets"):
        load_codec("greedy", numbering="sorted")
    for value in (["scoring"], {"scoring": 1}, None, 1):  # a list raised TypeError (unhashable)
        with pytest.raises(BadOption, match="numbering must be one of scoring, multisets"):
            load_codec("ten-thousand", numbering=value)
    with pytest.raises(BadOption, match="no option 'numbering'"):
        load_codec("rummy", numbering="scoring")


def test_dice_chance_ids() -> None:
    position = load_codec("ten-thousand").new_position()
    ids = [i for i, _ in position.chance_outcomes()]
    assert ids[0] == 461 and ids[-1] == 922  # the six-dice rolls follow those of 1-5 dice


def test_rummy_action_ids() -> None:
    assert rummy.NUM_ACTIONS == 1307 and len(rummy.MELDS) == 369
    assert _digest(",".join(map(str, rummy.MELDS))) == "682d05279e478959"
    assert rummy.action_id(DRAW_STOCK) == 0 and rummy.action_id(DRAW_DISCARD) == 1
    assert rummy.action_id(Discard(parse_card("AS"))) == 2
    assert rummy.action_id(Discard(parse_card("KC"))) == 53
    assert rummy.action_id(Meld(cards_mask(parse_cards(["AS", "2S", "3S"])))) == 54
    assert rummy.action_id(LayOff(parse_card("AS"), 0)) == 423
    assert rummy.action_id(LayOff(parse_card("KC"), 16)) == 1306
    for i in range(rummy.NUM_ACTIONS):
        assert rummy.action_id(rummy.action_of(i)) == i


def test_crossword_action_ids() -> None:
    assert crossword.NUM_ACTIONS == 505
    names = [crossword.action_name(i) for i in (0, 1, 2, 225, 450, 451, 476, 477, 478, 503, 504)]
    assert names == [
        "pass",
        "play from A1 across",
        "play from A1 down",
        "play from H8 across",
        "play from O15 down",
        "letter A",
        "letter Z",
        "end of word",
        "exchange a A",
        "exchange a Z",
        "end of exchange",
    ]
