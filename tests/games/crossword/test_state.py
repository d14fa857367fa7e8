"""Turns, draws, exchanges, the end, daily mode and hidden racks (docs/rules/crossword.md)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from parlour.engine.errors import IllegalMove, NotEnumerable, ParlourError
from parlour.engine.records import read_record, replay
from parlour.engine.state import CHANCE, HOST, SIMULTANEOUS, TERMINAL
from parlour.games.crossword.board import ACROSS, DOWN, Board, parse_square
from parlour.games.crossword.notation import Draw, Exchange, NewDay, Pass, Play, Rearrange, Skip
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import FULL_BAG, sorted_tiles, take
from tests.games.crossword.helpers import act, board, deal, new, position

CAT = board(("CAT", "G8", ACROSS))


def rest_of_tiles(b: Board, racks: list[str], leave: str = "") -> str:
    """Every tile not on *b* or a rack, minus *leave* (which stays in the bag)."""
    rest = take(FULL_BAG, b.tiles_on_top() + "".join(racks) + leave)
    assert rest is not None
    return rest


def unchanged(state: object) -> str:
    return json.dumps(state.to_json())  # type: ignore[attr-defined]


# --- draws ------------------------------------------------------------------------------------


def test_opening_racks_are_draws_in_seat_order() -> None:
    state = new(3)
    assert state.current_player() == CHANCE and state.draw_size() == 7
    with pytest.raises(NotEnumerable):
        state.chance_outcomes()
    deal(state, "AEINRST", "QUICKEE", "ZAXJOBE")
    assert state.racks == ["AEINRST", "CEEIKQU", "ABEJOXZ"]
    assert len(state.bag) == 98 - 21 and state.current_player() == 0


def test_a_draw_the_bag_cannot_give_is_refused() -> None:
    state = new()
    with pytest.raises(IllegalMove, match="does not hold"):
        state.apply(Draw("QQAAAAA"), player=CHANCE)
    with pytest.raises(IllegalMove, match="takes 7 tiles, not 2"):
        state.apply(Draw("AA"), player=CHANCE)
    assert state.history == [] and state.bag == FULL_BAG


def test_small_draws_are_listed_with_hypergeometric_probabilities() -> None:
    # seat 0 plays CATS with its last tile; three tiles (A, A, B) are left in the bag
    b, racks = CAT, ["S", "QI"]
    state = position(b, racks, covered=rest_of_tiles(b, racks, leave="AAB"))
    assert state.bag == "AAB"
    act(state, "CATS G8 across")
    assert state.current_player() == CHANCE and state.draw_size() == 3
    assert state.chance_outcomes() == [(Draw("AAB"), Fraction(1))]
    racks2 = ["SEEEEEE", "QI"]
    state2 = position(b, racks2, covered=rest_of_tiles(b, racks2, leave="AAB"))
    act(state2, "CATS G8 across")  # one tile to draw
    assert dict(state2.chance_outcomes()) == {Draw("A"): Fraction(2, 3), Draw("B"): Fraction(1, 3)}
    assert state2.legal_actions() == [Draw("A"), Draw("B")]


# --- a game's flow ---------------------------------------------------------------------------


def test_quick_then_quack_in_a_game() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    act(state, "QUICK H8 across")
    assert state.scores == [50, 0] and state.racks[0] == "AE"
    assert state.current_player() == CHANCE and state.draw_size() == 5
    act(state, "draw ERSTU", "pass", "QUACK H8 across")
    assert state.scores == [70, 0]
    assert state.covered == "I"  # the covered I is out of the game
    assert state.board.letter(parse_square("J8")) == "A"
    assert state.board.height(parse_square("J8")) == 2
    assert state.log[-1]["words"] == [["QUACK", 20]] and state.log[-1]["covered"] == "I"
    assert sorted(state.tiles_accounted().elements()) == sorted(FULL_BAG)


def test_refused_play_changes_nothing() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    before = unchanged(state)
    with pytest.raises(IllegalMove, match="lacks"):
        state.apply(Play("DOGS", parse_square("H8"), ACROSS))
    with pytest.raises(IllegalMove, match="centre"):
        state.apply(Play("QUICK", parse_square("A1"), ACROSS))
    assert unchanged(state) == before


def test_rearranging_the_rack_is_kept_and_allowed_out_of_turn() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    state.apply(Rearrange("ZYXSGOD"), player=1)  # seat 0 is to move
    assert state.racks[1] == "ZYXSGOD" and state.current_player() == 0
    with pytest.raises(IllegalMove, match="not a rearrangement"):
        state.apply(Rearrange("ZYXSGOA"), player=1)
    act(state, "pass")
    assert state.racks[1] == "ZYXSGOD"


def test_exchange_draws_first_then_returns_the_tiles() -> None:
    b, racks = CAT, ["AEIOUUV", "QI"]
    state = position(b, racks, covered=rest_of_tiles(b, racks, leave="BCDFGHJ"))
    state.apply(Exchange("UUV"))
    assert state.racks[0] == "AEIO" and state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 35 and all(p == Fraction(1, 35) for _, p in outcomes)
    assert all("U" not in d.tiles and "V" not in d.tiles for d, _ in outcomes)
    act(state, "draw BCD")
    assert state.racks[0] == "AEIOBCD" and state.bag == "FGHJUUV"
    assert state.streak == [1, 0] and state.log[-1] == {
        "seat": 0,
        "turn": 0,
        "day": 1,
        "kind": "exchange",
        "count": 3,
    }


def test_exchange_needs_seven_tiles_in_the_bag() -> None:
    b, racks = CAT, ["AEIOUUV", "QI"]
    state = position(b, racks, covered=rest_of_tiles(b, racks, leave="BCDFGH"))
    assert len(state.bag) == 6
    before = unchanged(state)
    with pytest.raises(IllegalMove, match="bag holds 6 tiles"):
        state.apply(Exchange("UUV"))
    assert unchanged(state) == before
    assert not any(isinstance(a, Exchange) for a in state.legal_actions())
    with pytest.raises(IllegalMove, match="does not hold"):
        position(b, racks).apply(Exchange("ZZ"))


def test_an_exchange_of_no_tiles_is_a_pass() -> None:
    # the manual: "A player may exchange from 0-7 tiles"; 0 tiles returns and draws nothing,
    # which is a pass, allowed whatever the bag holds (here 6 tiles)
    b, racks = CAT, ["AEIOUUV", "QI"]
    state = position(b, racks, covered=rest_of_tiles(b, racks, leave="BCDFGH"))
    assert state.parse_action("exchange", player=0) == Pass()
    act(state, "exchange")
    assert state.racks[0] == "AEIOUUV" and state.bag == "BCDFGH" and state.current_player() == 1
    assert state.streak == [1, 0] and state.log[-1]["kind"] == "pass"
    assert state.to_json()["history"] == [[0, "pass"]]


# --- the end ----------------------------------------------------------------------------------


def test_going_out_with_three_players() -> None:
    b, racks = CAT, ["S", "QI", "ZA"]
    state = position(b, racks, covered=rest_of_tiles(b, racks), scores=[100, 90, 80])
    act(state, "CATS G8 across")  # 6 points, the bag is empty: the game ends
    assert state.current_player() == TERMINAL
    # seat 0 gains Q10+I1 + Z10+A1 = 22; the others lose their racks' values
    assert state.scores == [100 + 6 + 22, 90 - 11, 80 - 11]
    assert state.result().winners == (0,) and state.out == 0


def test_going_out_with_four_players() -> None:
    b, racks = CAT, ["E", "KX", "S", "J"]
    state = position(b, racks, covered=rest_of_tiles(b, racks))
    state.seat = 2
    act(state, "CATS G8 across")
    assert state.scores == [-1, -13, 6 + 1 + 13 + 8, -8]
    assert state.log[-1] == {"kind": "end", "out": 2, "adjustments": [-1, -13, 22, -8]}


def test_two_scoreless_rounds_end_the_game() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    act(state, "pass", "pass", "QUICK H8 across", "draw ERSTU", "pass", "pass")
    assert not state.is_terminal() and state.streak == [1, 2]
    act(state, "pass")  # seat 1: third scoreless turn in a row; seat 0 has had only one
    assert not state.is_terminal() and state.streak == [1, 3]
    act(state, "exchange AE", "draw OO")  # seat 0: second scoreless turn in a row
    assert state.is_terminal() and state.out is None
    # nobody went out: each loses the value of the rack (ERSTUOO = 7; DGOSXYZ = 28)
    assert state.scores == [50 - 7, 0 - 28]


def test_host_skip_is_a_pass_for_the_seat_to_move() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    state.apply(Skip(), player=HOST)
    assert state.current_player() == 1 and state.streak == [1, 0]
    assert state.log[-1]["kind"] == "skip"
    with pytest.raises(IllegalMove, match="daily mode"):
        state.apply(NewDay(), player=HOST)
    with pytest.raises(
        IllegalMove, match="no host event 'pass': the host may only skip or new-day"
    ):
        state.apply(Pass(), player=HOST)


# --- daily mode -------------------------------------------------------------------------------


def test_daily_mode_one_turn_per_seat_per_day() -> None:
    state = deal(new(turn_mode="daily"), "QUICKAE", "RETAINS")
    assert state.current_player() == SIMULTANEOUS and state.actors() == (0, 1)
    state.apply(Play("QUICK", parse_square("H8"), ACROSS), player=0)  # first come
    deal(state, "DOGSE")
    assert state.actors() == (1,)
    before = unchanged(state)
    with pytest.raises(IllegalMove, match="day 1: seat\\(s\\) 0 have acted today"):
        state.apply(Pass(), player=0)
    # the second play of the day is checked against the board after the first
    with pytest.raises(IllegalMove, match="covers every tile of QUICK"):
        state.apply(Play("RETAINS", parse_square("H8"), ACROSS), player=1)
    assert unchanged(state) == before
    state.apply(Play("RETAINS", parse_square("J4"), DOWN), player=1)  # keeps QUICK's I
    deal(state, "AEIOUU")
    assert state.actors() == ()
    with pytest.raises(IllegalMove, match="new-day"):
        state.apply(Skip(), player=HOST)
    state.apply(NewDay(), player=HOST)
    assert state.day == 2 and state.actors() == (0, 1)
    state.apply(Pass(), player=1)
    state.apply(Skip(), player=HOST)  # seat 0 let the day go by: a pass
    assert state.streak == [1, 1] and state.actors() == ()


def test_daily_mode_legal_actions_need_the_seat() -> None:
    state = deal(new(turn_mode="daily"), "QUICKAE", "RETAINS")
    assert state.legal_actions() == ()
    assert Pass() in state.legal_actions(1)
    before = unchanged(state)
    with pytest.raises(IllegalMove, match=r"seats 0, 1 may act: say which \(player=\)"):
        state.apply(Pass())  # not "-3 is not a seat"
    assert unchanged(state) == before


# --- hidden information ----------------------------------------------------------------------


def test_observation_never_shows_another_seats_rack() -> None:
    one = act(deal(new(), "QUICKAE", "DOGSXYZ"), "QUICK H8 across", "draw ERSTU")
    two = act(deal(new(), "QUICKAE", "BEFHLMN"), "QUICK H8 across", "draw ERSTU")
    # same game for seat 0 except seat 1's rack and the bag: seat 0 sees no difference
    assert one.observation(0) == two.observation(0)
    assert one.observation(None) == two.observation(None)
    assert one.observation(1)["rack"] == "DGOSXYZ" and "rack" not in one.observation(None)
    assert one.observation(0)["rack_sizes"] == [7, 7]


def test_final_racks_are_shown_to_everyone_only_once_the_game_is_over() -> None:
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    act(state, "pass", "pass", "pass")
    for seat in (None, 0):  # one scoreless turn from the end: seat 1's rack is its own
        view = json.dumps(state.observation(seat))
        assert "final_racks" not in view and "DGOSXYZ" not in view
    assert "final_racks" not in state.observation(1)
    act(state, "pass")
    assert state.is_terminal()
    for seat in (None, 0, 1):
        assert state.observation(seat)["final_racks"] == ["ACEIKQU", "DGOSXYZ"]
    # the end adjustment is what those racks are worth (A1 C3 E1 I1 K5 Q10 U1 = 22;
    # D2 G2 O1 S1 X8 Y4 Z10 = 28)
    assert state.observation(None)["log"][-1]["adjustments"] == [-22, -28]


@pytest.mark.parametrize("seat", [-1, -2, 2, 7])
def test_there_is_no_view_for_a_seat_that_does_not_exist(seat: int) -> None:
    # -1 would otherwise be read as the last seat, and show its rack
    state = deal(new(), "QUICKAE", "DOGSXYZ")
    with pytest.raises(ParlourError, match=f"no seat {seat}"):
        state.observation(seat)
    with pytest.raises(ParlourError, match=f"no seat {seat}"):
        state.preview(Play("DOGS", parse_square("H8"), ACROSS), seat)


def test_exchanged_tiles_are_not_shown() -> None:
    one = act(deal(new(), "QUICKAE", "DOGSXYZ"), "exchange QU", "draw EE")
    two = act(deal(new(), "QUICKAE", "DOGSXYZ"), "exchange CK", "draw EE")
    assert one.observation(1)["log"] == two.observation(1)["log"]
    assert one.observation(1)["log"][-1]["count"] == 2


def test_observation_is_json() -> None:
    state = act(deal(new(), "QUICKAE", "DOGSXYZ"), "QUICK H8 across")
    view = state.observation(0)
    assert json.loads(json.dumps(view)) == view
    assert view["board"][7] == ".......QUICK..." and view["bag"] == 84
    assert sorted_tiles(view["unseen"] + view["rack"] + "QUICK") == FULL_BAG


def test_a_real_record_replays_to_its_result() -> None:
    # seeded self-play, the highest-scoring play each turn, 3 players (tests/data)
    record = read_record(Path(__file__).parents[2] / "data" / "crossword-three-players.json")
    state = replay(record)
    assert isinstance(state, CrosswordState)
    assert state.result().scores == (238, 352, 253)
    assert sum(1 for e in state.log if e.get("covered")) == 11
    assert sorted(state.tiles_accounted().elements()) == sorted(FULL_BAG)
