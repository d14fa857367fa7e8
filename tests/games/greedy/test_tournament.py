"""Greedy against the computer: the tournament and win-probability solves against an
independent recursion at small targets (every roll of the dice, the computer's own policy
objects asked roll by roll)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.chance import roll_outcomes
from parlour.games.dice.notation import Keep
from parlour.games.dice.solver import WinPolicy
from parlour.games.greedy import tournament
from parlour.games.greedy.bots import make_bot
from parlour.games.greedy.scoring import keep_options
from parlour.games.greedy.solver import GreedyRules, endgame, strategy
from parlour.games.greedy.state import GreedyState
from parlour.games.greedy.tournament import Computer
from tests.helpers import play

Choices = tuple[tuple[int, int], ...]


@cache
def rolls(n: int) -> tuple[float, tuple[tuple[float, Choices], ...]]:
    """(no-points chance, [(chance, ((units, dice left), ...)), ...]) for rolling *n* dice."""
    merged: dict[Choices, float] = {}
    farkle = 0.0
    for roll, p in roll_outcomes(n):
        keeps = keep_options(roll)
        if not keeps:
            farkle += float(p)
            continue
        choices = tuple(sorted({(pts // 50, n - len(kept) or 9) for kept, pts in keeps.items()}))
        merged[choices] = merged.get(choices, 0.0) + float(p)
    return farkle, tuple((p, c) for c, p in merged.items())


def computer_outcomes(
    rules: GreedyRules, computer: Computer, person: int, mine: int, *, dice_by_dice: bool = False
) -> tuple[float, dict[int, float], dict[int, float]]:
    """(farkle, {units banked: chance}, {final score in units: chance}) of the computer's
    turn: a keep reaching the target wins with the most points, else its policy object
    decides. With *dice_by_dice*, on every roll of the dice by the policy's own ``choose``
    (slow); otherwise on the merged rolls by the policy's values in ``choose``'s order
    (value, then points, then dice left). Chances are carried forward by turn total."""
    goal = rules.target // 50
    need = goal - mine // 50
    near = computer.endgame and max(mine, person) >= rules.target - computer.horizon
    plan = endgame(rules, mine, person) if near else strategy()

    def worth(total: int, left: int) -> float:
        if isinstance(plan, WinPolicy):
            return plan.value(total, left)
        return plan.keep_value(total, left)

    farkle = 0.0
    banked: dict[int, float] = {}
    won: dict[int, float] = {}
    mass: dict[tuple[int, int], float] = {(0, 9): 1.0}
    for t in range(need):
        for n in range(1, 10):
            weight = mass.pop((t, n), 0.0)
            if not weight:
                continue
            total = t * 50
            if dice_by_dice:
                outcomes = []
                for roll, p in roll_outcomes(n):
                    options = keep_options(roll)
                    if not options:
                        farkle += weight * float(p)
                        continue
                    most = max(options.values()) // 50
                    if t + most >= need:
                        outcomes.append((float(p), (most, -1), False))
                        continue
                    kept, bank = plan.choose(options, total, n)
                    outcomes.append((float(p), (options[kept] // 50, n - len(kept) or 9), bank))
            else:
                no_points, merged = rolls(n)
                farkle += weight * no_points
                outcomes = []
                for p, choices in merged:
                    most = max(k for k, _ in choices)
                    if t + most >= need:
                        outcomes.append((p, (most, -1), False))
                        continue
                    k, m = max(choices, key=lambda o: (worth(total + 50 * o[0], o[1]), *o))
                    outcomes.append((p, (k, m), plan.banks(total + 50 * k, m)))
            for p, (k, m), bank in outcomes:
                w = weight * p
                if m < 0:
                    final = goal - need + t + k
                    won[final] = won.get(final, 0.0) + w
                elif bank:
                    banked[t + k] = banked.get(t + k, 0.0) + w
                else:
                    mass[t + k, m] = mass.get((t + k, m), 0.0) + w
    assert not mass
    return farkle, banked, won


def brute_force(
    rules: GreedyRules, computer: Computer, objective: tournament.Objective
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], float]]:
    """(P, Q) by pairs from the highest sum down; each pair's cycle ``Q = f Phi(Q) + R`` by
    the secant method, each person's turn a memoised recursion over the rolls."""
    goal = rules.target // 50
    start: dict[tuple[int, int], float] = {}
    after: dict[tuple[int, int], float] = {}

    def beyond(z: float, over: int, dice: int) -> float:
        if objective == "wins":
            return 1.0
        e, _ = tournament.continuation().at(np.array([(5000 - z) / 10 + 50 * over]))
        return z + 10 * float(e[dice][0])  # the continuation: checked on its own below

    def person_turn(a: int, b: int, z: float) -> float:
        @cache
        def after_keep(c: int, dice: int) -> float:
            if c >= goal:
                return beyond(z, c - goal, dice)
            return max(after[c, b], rolled(c, dice))

        def rolled(c: int, dice: int) -> float:
            farkle, outcomes = rolls(dice)
            return farkle * z + sum(
                p * max(after_keep(c + k, m) for k, m in ch) for p, ch in outcomes
            )

        return rolled(a, 9)

    for total in range(2 * goal - 2, -1, -1):
        for a in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            b = total - a
            farkle, banked, won = computer_outcomes(rules, computer, a * 50, b * 50)
            rest = sum(p * start[a, b + x] for x, p in banked.items() if x > 0)
            if objective == "points":
                rest += sum(p * -(1000 + 5 * 50 * (c - goal)) for c, p in won.items())

            def h(q: float, a: int = a, b: int = b, f: float = farkle, r: float = rest) -> float:
                return f * person_turn(a, b, q) + r

            x0, x1 = 0.0, h(0.0)
            f0, f1 = x1 - x0, h(x1) - x1
            while abs(f1) > 1e-12 * max(1.0, abs(x1)) and f1 != f0:
                x0, x1, f0 = x1, x1 - f1 * (x1 - x0) / (f1 - f0), f1
                f1 = h(x1) - x1
            after[a, b] = x1
            start[a, b] = person_turn(a, b, x1)
    return start, after


CASES: list[tuple[int, Computer]] = [
    (300, tournament.STRONG),
    (500, tournament.STRONG),
    (500, Computer("strong", horizon=250)),  # both of strong's policies
    (400, Computer("steady", endgame=False)),
]


@pytest.mark.parametrize(("target", "computer"), CASES)
def test_small_targets_match_an_independent_recursion(target: int, computer: Computer) -> None:
    rules = GreedyRules(target)
    tables = tournament.solve(rules, computer)
    goal = target // 50
    for objective, scale in (("points", 1e-9), ("wins", 1e-11)):
        start, after = brute_force(rules, computer, objective)  # type: ignore[arg-type]
        table = tables[objective]  # type: ignore[index]
        for a in range(goal):
            for b in range(goal):
                assert table.start[a, b] == pytest.approx(start[a, b], rel=scale, abs=scale)
                assert table.after[a, b] == pytest.approx(after[a, b], rel=scale, abs=scale)


@pytest.mark.parametrize("dice_by_dice", [False, True])
def test_computer_turns_match_the_rolls(dice_by_dice: bool) -> None:
    rules = GreedyRules(1000)
    check: Callable[[int, int], None]

    def check(person: int, mine: int) -> None:
        turn = tournament.computer_turn(rules, tournament.STRONG, person, mine)
        farkle, banked, won = computer_outcomes(
            rules, tournament.STRONG, person, mine, dice_by_dice=dice_by_dice
        )
        assert turn.farkle == pytest.approx(farkle, abs=1e-14)
        need = (rules.target - mine) // 50
        for x in range(need):
            assert turn.banked[x] == pytest.approx(banked.get(x, 0.0), abs=1e-14)
        for j, p in enumerate(turn.won):
            assert p == pytest.approx(won.get(need + mine // 50 + j, 0.0), abs=1e-14)
        assert turn.farkle + turn.banked.sum() + turn.won.sum() == pytest.approx(1.0, abs=1e-12)

    check(100, 850)
    check(950, 800)
    if not dice_by_dice:  # every roll of nine dice through choose() is slow: short turns only
        check(0, 0)
        check(850, 300)


def test_the_continuation_agrees_with_the_expected_points_strategy() -> None:
    # on whole multiples of 50 the continuation is the certified expected-points table
    plan, cont = strategy(), tournament.continuation()
    for points in (0, 50, 550, 2000, 5000):
        e, slope = cont.at(np.array([float(points)]))
        for n in range(1, 10):
            assert e[n][0] == pytest.approx(plan.keep_value(points, n), rel=1e-12)
            assert 0.0 <= slope[n][0] <= 1.0
    # one die at 550 banks (its threshold), so E = s; nine dice roll: E > s
    assert cont.at(np.array([550.0]))[0][1][0] == 550.0
    assert cont.at(np.array([550.0]))[0][9][0] > 550.0


def position(mine: int, other: int, *moves: str, target: int) -> GreedyState:
    """Seat 0 (the person) to move with *mine*, seat 1 (the computer) with *other*."""
    state = parlour.load("greedy", target=target).new_initial_state()
    assert isinstance(state, GreedyState)
    state.scores = [mine, other]
    return play(state, *moves)  # type: ignore[return-value]


def test_choice_values_pay_the_tournament_and_mark_the_best() -> None:
    # 950 of 1,000 and a roll with one 1: keeping it and banking wins at 1,050, 50 over the
    # target: 5,000 + 10 x 50 = 5,500 tournament points, and a win for sure
    state = position(950, 600, "roll 1 2 2 3 3 4 4 6 6", target=1000)
    values = tournament.choice_values(state, 0)
    bank = next(v for v in values if v.kept == (1,) and v.bank)
    assert bank.points == 5500.0 and bank.wins == 1.0
    roll = next(v for v in values if v.kept == (1,) and not v.bank)
    # rolling eight dice on past the target: a farkle (0.15%) hands the computer the turn,
    # any keep is worth more than banking now: the tournament rolls on, the win banks
    tables = tournament.tables(GreedyRules(1000))
    assert roll.points > bank.points and roll.wins < 1.0
    lost = 2520 / 6**8  # eight dice without a point: four pairs of 2, 3, 4 and 6
    assert roll.wins == pytest.approx(1.0 - lost * (1.0 - tables["wins"].after[19, 12]))
    assert values[0].best and values[0] == roll and sum(v.best for v in values) == 1
    with pytest.raises(ValueError, match="no roll"):
        tournament.choice_values(position(0, 0, target=1000), 0)


def test_the_tournament_player_takes_the_best_choice_and_finishes_games() -> None:
    state = position(950, 600, "roll 1 2 2 3 3 4 4 6 6", target=1000)
    best = tournament.choice_values(state, 0)[0]
    action = make_bot("tournament").choose(state, 0, random.Random(0))
    assert action == Keep(best.kept, bank=best.bank)
    game = parlour.load("greedy", target=1000)
    for index in range(3):
        bots = [make_bot("tournament"), make_bot("strong")][:: 1 if index % 2 else -1]
        final = play_game(game, bots, random.Random(index))
        assert final.is_terminal() and max(final.scores) >= 1000


def test_the_arena_measure_pays_each_seat_as_the_person() -> None:
    state = position(950, 600, "roll 1 2 2 3 3 4 4 6 6", "keep 1 bank", target=1000)
    assert tournament.tournament_measure(state, 0) == {
        "tournament": 5500.0,
        "tournament_sq": 5500.0**2,
    }
    assert tournament.tournament_measure(state, 1) == {
        "tournament": -1000.0 - 5 * 50,
        "tournament_sq": 1250.0**2,
    }


def test_the_default_targets_tables_ship_in_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament, "_TABLES", {})  # read from the package, not solved
    found = tournament.stored_tables(GreedyRules())
    assert found is not None
    points, wins = found["points"], found["wins"]
    assert points.start.shape == wins.start.shape == (200, 200)
    # against strong at 10,000 (solved on the shared machine, 538 s of CPU, 269 MB)
    assert points.person_first == pytest.approx(16_249.467379, abs=1e-4)
    assert points.computer_first == pytest.approx(8_810.573817, abs=1e-4)
    assert wins.person_first == pytest.approx(0.5936459, abs=1e-7)
    assert wins.computer_first == pytest.approx(0.4397253, abs=1e-7)


def test_a_moves_turn_without_slopes_has_the_solves_values_bit_for_bit() -> None:
    # TournamentTurn runs the induction without the slopes (half the work): the values and
    # the values of rolling on are the slope-carrying kernel's, so no decision changes
    from parlour.games.greedy import _tournament_kernel as kernel

    table = tournament.tables(GreedyRules())["points"]
    for person, computer in [(0, 0), (4_000, 9_500), (9_950, 200), (6_150, 6_100)]:
        turn = tournament.TournamentTurn(table, person, computer)
        z = np.array([turn.z])
        bound, dbound = tournament.past_target("points", z, tournament._extra(), 10)
        value, _, rolled, _ = kernel.compiled_person_table(
            person // 50, turn.z, turn.bank, bound[0], dbound[0], *tournament._person_flat(True)
        )
        assert np.array_equal(turn.value, value) and np.array_equal(turn.rolled, rolled)
        # past the target, the value of rolling on is kept per turn: the same figure again
        first = turn.roll_value(10_400, 3)
        assert turn.roll_value(10_400, 3) == first == turn._past_roll(8, 3)
