"""The action numbering is stable across versions (docs/research.md): these ids are pinned.

A change here breaks every trained agent and saved policy; if one is ever needed, it is a
new numbering with a new name, never an edit of these values."""

from __future__ import annotations

import hashlib

import pytest

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
def test_dice_action_ids(game: str, size: int) -> None:
    codec = load_codec(game)
    assert codec.num_actions == size
    assert codec.id_of(Keep((1,), False)) == 0
    assert codec.id_of(Keep((5,), True)) == 9
    assert codec.id_of(Keep((1, 1, 5), True)) == 63  # (1, 1, 5) is multiset 31
    if game == "greedy":
        assert codec.id_of(Keep((6,) * 9, True)) == 10007
        assert codec.id_of(Quit()) == 10008
    else:
        assert codec.id_of(Keep((6,) * 6, True)) == 1845


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
