"""Ten-Thousand's coach (``GameSpec.coach``): each keep's chance of winning, banking or
rolling on (``docs/rules/ten-thousand.md#the-coach``).

- Two players, before the last turns: exact, from the solved two-player table
  (:func:`~.optimal.optimal_turn`, the policy the ``optimal`` level plays).
- The last turns: exact for two players, the chance of passing the leader (a tie for the
  lead half) by the points-still-needed table, as the computer players play them.
- Three to six players: the two-player figures against the leading opponent (an
  approximation, as the ``optimal`` level plays; the advice says so).
- One player (practice), or rules whose table is not stored (the default rules' ships;
  ``parlour solve ten-thousand --optimal`` caches others): no advice.
"""

from __future__ import annotations

from parlour.engine.coach import Advice, ranked, win_figure
from parlour.engine.state import State
from parlour.games.dice.coach import keep_advice
from parlour.games.dice.notation import Keep
from parlour.games.dice.solver import UNIT
from parlour.games.ten_thousand.solver import TIE_SHARE, TenThousandRules, need_table
from parlour.games.ten_thousand.state import TenThousandState

APPROXIMATE = "three or more players: figures against the leader only (an approximation)"


def advise(state: State, seat: int) -> Advice | None:
    """The advice for *seat*, to choose dice in *state* (see the module docstring);
    ``None`` in a practice game or without a stored table. Raises ``ValueError`` when
    *seat* has no roll to choose from."""
    from parlour.games.ten_thousand.optimal import optimal_turn, stored_table

    if not isinstance(state, TenThousandState):
        raise TypeError(f"not a Ten-Thousand state: {state.game.spec.name}")
    if state.roll is None or state.is_terminal() or state.seat != seat:
        raise ValueError(f"seat {seat} has no dice to choose from")
    others = [s for i, s in enumerate(state.scores) if i != seat]
    if not others:
        return None
    rules = TenThousandRules.of(state.game.options)
    if stored_table(rules) is None:
        return None
    note = APPROXIMATE if len(others) > 1 else ""
    mine, leader = state.scores[seat], max(others)
    if state.last_turns():
        return last_turn_advice(state, seat, rules, mine, leader, note)
    return keep_advice(state, seat, optimal_turn(rules, mine, leader), note)


def last_turn_advice(
    state: TenThousandState, seat: int, rules: TenThousandRules, mine: int, leader: int, note: str
) -> Advice:
    """Each keep's chance of passing *leader* (points) this last turn, a tie half (the rules'
    tie; none for a player below the entry score who would tie the leader at 0)."""
    assert state.roll is not None
    need = leader - mine + UNIT
    tie_ok = mine > 0 or leader - mine >= rules.entry
    if mine == 0:
        need = max(need, rules.entry)
    table = need_table(rules, TIE_SHARE if tie_ok else 0.0)
    points = state.keep_points(state.roll, first_roll=state.rolls == 1)
    later = table.later
    choices = []
    for action in state.legal_actions(seat):
        if not isinstance(action, Keep):
            continue
        after = state.turn_total + points[action.dice]
        left = len(state.roll) - len(action.dice) or state.n_dice
        still = need - after
        if action.bank:
            value = 1.0 if still <= 0 else table.tie if still <= UNIT else 0.0
        elif still <= 0:  # already past: rolling on only risks a farkle
            value = 1.0 - later[left].farkle
        else:
            value = table.chance(still, left)
        choices.append((str(action), (win_figure(value),)))
    return ranked(seat, choices, note)
