"""The win-probability-optimal Ten-Thousand player: an independent recursion at small
targets, the per-move policy against the solved table, and the ``optimal`` level."""

from __future__ import annotations

import random
from functools import cache

import pytest

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.games.dice.notation import Keep
from parlour.games.ten_thousand import optimal
from parlour.games.ten_thousand.bots import make_bot
from parlour.games.ten_thousand.scoring import keep_options
from parlour.games.ten_thousand.solver import TenThousandRules
from parlour.games.ten_thousand.state import TenThousandState

Options = tuple[tuple[float, tuple[tuple[int, int], ...]], ...]


@cache
def rolls(n: int, specials: bool) -> tuple[float, Options]:
    """(farkle chance, [(chance, ((units, dice left), ...)), ...]) for rolling *n* dice,
    straight from the scoring table: rolls with the same choices merged."""
    merged: dict[tuple[tuple[int, int], ...], float] = {}
    farkle = 0.0
    for roll, p in roll_outcomes(n):
        keeps = keep_options(roll, specials=specials)
        if not keeps:
            farkle += float(p)
            continue
        choices = tuple(sorted({(pts // 50, n - len(kept) or 6) for kept, pts in keeps.items()}))
        merged[choices] = merged.get(choices, 0.0) + float(p)
    return farkle, tuple((p, c) for c, p in merged.items())


def brute_force(goal: int, beyond: int, entry: int = 0) -> dict[tuple[int, int], float]:
    """Win chances (units of 50), pairs of scores from the highest sum down: each turn a
    memoised recursion over (turn total, dice to roll) given the farkle value, and each pair
    ``V[a, b]``, ``V[b, a]`` (a farkle swaps them) by the secant method on
    ``x = T_ab(1 - T_ba(1 - x))``; banking to the goal or more gives the opponent one last
    turn (its own recursion, a tie worth half); banking forced from ``goal + beyond``. A
    player with 0 may bank only *entry* units or more (then the last turn has no tie when
    the entry is more than the leader's score)."""

    @cache
    def last(need: int, dice: int, tie: bool) -> float:
        """The opponent's best chance after a keep, *need* units short of passing (1: a tie
        if it banks now, worth half when *tie*), *dice* to roll."""
        if need <= 0:
            return 1.0
        _, outcomes = rolls(dice, False)
        roll_on = sum(p * max(last(need - k, m, tie) for k, m in c) for p, c in outcomes)
        return max(0.5, roll_on) if need == 1 and tie else roll_on

    @cache
    def last_turn(need: int, tie: bool = True) -> float:
        _, outcomes = rolls(6, True)
        return sum(p * max(last(need - k, m, tie) for k, m in c) for p, c in outcomes)

    def end(b: int, c: int) -> float:
        if b == 0 and entry > c:  # the opponent must bank the entry: more than c, no tie
            return 1.0 - last_turn(max(c + 1, entry), tie=False)
        return 1.0 - last_turn(c - b + 1)

    wins: dict[tuple[int, int], float] = {}

    def turn(a: int, b: int, z: float) -> float:
        @cache
        def after(c: int, dice: int) -> float:
            bank = 1.0 - wins[b, c] if c < goal else end(b, c)
            if c >= goal + beyond:
                return bank
            farkle, outcomes = rolls(dice, False)
            roll_on = farkle * z + sum(
                p * max(after(c + k, m) for k, m in ch) for p, ch in outcomes
            )
            return max(bank, roll_on) if a > 0 or c >= entry else roll_on

        farkle, outcomes = rolls(6, True)
        return farkle * z + sum(p * max(after(a + k, m) for k, m in ch) for p, ch in outcomes)

    for total in range(2 * goal - 2, -1, -1):
        for a in range(max(0, total - goal + 1), total // 2 + 1):
            b = total - a

            def h(x: float, a: int = a, b: int = b) -> float:
                return turn(a, b, 1.0 - turn(b, a, 1.0 - x))

            x0, x1 = 0.5, h(0.5)
            f0, f1 = x1 - x0, h(x1) - x1
            while abs(f1) > 1e-15 and f1 != f0:
                x0, x1, f0 = x1, x1 - f1 * (x1 - x0) / (f1 - f0), f1
                f1 = h(x1) - x1
            wins[a, b] = x1
            wins[b, a] = turn(b, a, 1.0 - x1)
    return wins


@pytest.mark.parametrize(("target", "entry"), [(300, 0), (500, 0), (300, 350)])
def test_small_targets_match_an_independent_recursion(target: int, entry: int) -> None:
    rules = TenThousandRules(target=target, entry=entry)
    beyond = 200
    table = optimal.solve(rules, beyond=beyond)
    brute = brute_force(target // 50, beyond // 50, entry // 50)
    goal = target // 50
    worst = max(abs(table.wins[a, b] - brute[a, b]) for a in range(goal) for b in range(goal))
    assert worst < 1e-10
    assert 0.5 < table.first_player < 0.75


@pytest.fixture(scope="module")
def small() -> TenThousandRules:
    """Target 1000, entry 300: solved once for the module and kept in memory."""
    rules = TenThousandRules(target=1000, entry=300)
    optimal._TABLES[rules] = optimal.solve(rules).wins
    return rules


def test_each_move_policy_agrees_with_the_solved_table(small: TenThousandRules) -> None:
    rules = small
    wins = optimal.wins_table(rules)
    for a in range(0, 1000, 150):
        for b in range(0, 1000, 100):
            turn = optimal.optimal_turn(rules, a, b)
            assert turn.win_chance == pytest.approx(wins[a // 50, b // 50], abs=1e-12)


def test_tables_are_cached_in_the_data_directory(small: TenThousandRules) -> None:
    optimal.store(small, optimal.wins_table(small))
    path = optimal.cache_path(small)
    assert path.is_file() and path.name == "ten-thousand-v1-optimal-1000-300-0.npy.gz"
    del optimal._TABLES[small]
    reread = optimal.stored_table(small)
    assert reread is not None and reread.shape == (20, 20)
    path.write_bytes(b"not a table")
    del optimal._TABLES[small]
    assert optimal.stored_table(small) is None  # corrupt: solved again when needed
    optimal._TABLES[small] = reread


def position(scores: list[int], target: int, entry: int, *moves: str) -> TenThousandState:
    """A game of len(scores) players at *target* with those banked scores, seat 0 to move,
    after *moves* (notation) of seat 0's turn."""
    state = parlour.load(
        "ten-thousand", players=len(scores), target=target, entry=entry
    ).new_initial_state()
    assert isinstance(state, TenThousandState)
    state.scores = list(scores)
    for move in moves:
        state.apply(state.parse_action(move))
    return state


def test_the_optimal_choice_has_the_highest_chance_of_winning(small: TenThousandRules) -> None:
    # 0 against 900 at target 1000 (entry 300), a later roll of three dice: of every keep
    # and bank-or-roll choice, the level takes one with the highest solved chance
    state = position([0, 900], 1000, 300, "roll 1 1 1 2 3 4", "keep 1 1 1 roll", "roll 1 5 3")
    state.scores[0] = 0
    strong = make_bot("strong").choose(state, 0, random.Random(0))
    best = make_bot("optimal").choose(state, 0, random.Random(0))
    turn = optimal.optimal_turn(small, 0, 900)
    assert isinstance(best, Keep) and isinstance(strong, Keep)
    total = state.turn_total
    values = {
        (dice, bank): (
            turn.u[(total + pts) // 50] if bank else turn.value(total + pts, 3 - len(dice) or 6)
        )
        for dice, pts in state.keep_points(state.roll, first_roll=False).items()
        for bank in (False, True)
    }
    assert values[best.dice, best.bank] == max(values.values())


def test_the_optimal_level_plays_legal_games_with_two_and_three_players(
    small: TenThousandRules,
) -> None:
    from parlour.bots.arena import play_game

    for players in (2, 3):
        game = parlour.load("ten-thousand", players=players, target=1000, entry=300)
        for index in range(3):
            levels = ["optimal", "strong", "cautious"][:players]
            seats = [make_bot(levels[(index + s) % players]) for s in range(players)]
            state = play_game(game, seats, random.Random(index))
            assert state.is_terminal()


def test_the_shipped_table_for_the_default_rules() -> None:
    wins = optimal.stored_table(TenThousandRules())
    assert wins is not None and wins.shape == (200, 200)
    assert wins[0, 0] == pytest.approx(0.5348115056, abs=1e-9)  # parlour solve --optimal
    assert (
        optimal.win_probability(TenThousandRules(), 0, 300)
        < 0.5
        < optimal.win_probability(TenThousandRules(), 0, 250)
    )
    assert all(wins[0, b] > wins[0, b + 1] for b in range(199))  # a head start always helps


def test_six_ones_on_the_first_roll_the_optimal_player_banks_where_strong_rolls() -> None:
    # 8,000 and hot dice at 0-0: the expected-points policy rolls six dice below 10,950; to
    # win, 8,000 now is worth more than the chance of adding to it
    state = position([0, 0], 10_000, 0, "roll 1 1 1 1 1 1")
    strong = make_bot("strong").choose(state, 0, random.Random(0))
    best = make_bot("optimal").choose(state, 0, random.Random(0))
    assert strong == Keep((1, 1, 1, 1, 1, 1), bank=False)
    assert best == Keep((1, 1, 1, 1, 1, 1), bank=True)
    turn = optimal.optimal_turn(TenThousandRules(), 0, 0)
    assert turn.banks(8000, 6) and turn.value(8000, 6) == pytest.approx(turn.u[160])
    with pytest.raises(ValueError, match="below 10000"):
        optimal.optimal_turn(TenThousandRules(), 10_000, 0)
