"""The lobby's start rules (manual 002, "STARTING A NEW GAME")."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from parlour.engine.registry import find
from parlour.lobby import LobbyError, VoteLobby

SPEC = find("crossword")


def open_lobby(lo: int, hi: int, begin_now: bool = False) -> VoteLobby:
    return VoteLobby.open(SPEC, "ann", min_players=lo, max_players=hi, begin_now=begin_now)


def test_begins_when_the_maximum_have_joined() -> None:
    lobby = open_lobby(2, 3)
    lobby.join("bob", begin_now=False)
    assert not lobby.started
    lobby.join("cy")
    assert lobby.started and lobby.seats == ("ann", "bob", "cy")
    assert lobby.game_options() == {"players": 3}


def test_begins_when_the_minimum_vote_to_begin_now() -> None:
    lobby = open_lobby(3, 4, begin_now=True)
    lobby.join("bob", begin_now=True)
    assert not lobby.started  # two votes, three needed
    lobby.join("cy")
    assert not lobby.started  # three players, but cy has not voted
    lobby.vote("cy", begin_now=True)
    assert lobby.started and lobby.seats == ("ann", "bob", "cy")


def test_votes_to_wait_do_not_begin_the_game() -> None:
    lobby = open_lobby(2, 4, begin_now=False)
    lobby.join("bob", begin_now=False)
    lobby.join("cy", begin_now=True)
    assert not lobby.started and lobby.begin_votes == 1
    lobby.join("dee")
    assert lobby.started and lobby.seats == ("ann", "bob", "cy", "dee")


def test_creator_alone_does_not_begin_a_two_player_game() -> None:
    lobby = open_lobby(2, 4, begin_now=True)
    assert not lobby.started and lobby.begin_votes == 1
    lobby.join("bob", begin_now=True)
    assert lobby.started and lobby.game_options()["players"] == 2


@pytest.mark.parametrize(("lo", "hi"), [(1, 2), (2, 5), (3, 2), (0, 0)])
def test_bounds_must_be_within_two_to_four(lo: int, hi: int) -> None:
    with pytest.raises(LobbyError, match="takes 2-4 players"):
        open_lobby(lo, hi)


def test_refusals_change_nothing() -> None:
    lobby = open_lobby(2, 2)
    with pytest.raises(LobbyError, match="already voted"):
        lobby.vote("ann", begin_now=True)
    with pytest.raises(LobbyError, match="already joined"):
        lobby.join("ANN")
    with pytest.raises(LobbyError, match="has not joined"):
        lobby.vote("zed", begin_now=True)
    with pytest.raises(LobbyError, match="not started"):
        lobby.game_options()
    before = copy.deepcopy(lobby)
    lobby.join("bob")
    assert lobby.started
    with pytest.raises(LobbyError, match="full"):
        lobby.join("cy")
    with pytest.raises(LobbyError, match="cannot leave: the game has started"):
        lobby.leave("bob")
    with pytest.raises(LobbyError, match="no more votes"):
        lobby.vote("bob", begin_now=True)
    assert lobby == replace(before, players=["ann", "bob"], started=True)


def test_joining_a_started_game_is_refused() -> None:
    lobby = open_lobby(2, 4, begin_now=True)
    lobby.join("bob", begin_now=True)
    with pytest.raises(LobbyError, match="already started"):
        lobby.join("cy")


def test_leaving_before_the_start_frees_the_seat_and_the_vote() -> None:
    lobby = open_lobby(2, 3, begin_now=True)
    lobby.join("bob")
    lobby.leave("ann")
    assert lobby.seats == ("bob",) and lobby.votes == {}
    lobby.vote("bob", begin_now=True)
    assert not lobby.started
    lobby.join("cy", begin_now=True)
    assert lobby.started and lobby.seats == ("bob", "cy")


def test_a_player_is_named_the_same_way_to_join_vote_and_leave() -> None:
    # joining treats " Bob " and "BOB" as bob (refused as a second join); so do vote and leave
    lobby = open_lobby(3, 4)
    lobby.join(" bob ")
    with pytest.raises(LobbyError, match="already joined"):
        lobby.join("BOB")
    lobby.vote("Bob ", begin_now=True)
    assert lobby.votes == {"ann": False, "bob": True}
    lobby.leave(" BOB")
    assert lobby.seats == ("ann",) and lobby.votes == {"ann": False}


@pytest.mark.parametrize(("lo", "hi"), [(2, 2.5), ("2", 3), (True, 2), (2, None)])
def test_bounds_must_be_whole_numbers(lo: object, hi: object) -> None:
    with pytest.raises(LobbyError, match="takes 2-4 players"):
        VoteLobby.open(SPEC, "ann", min_players=lo, max_players=hi, begin_now=True)  # type: ignore[arg-type]
