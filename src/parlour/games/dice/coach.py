"""The dice games' coach, shared by Ten-Thousand and Greedy: each keep's win probability,
banking or rolling on, from a game's exact turn policy (:class:`~.solver.WinPolicy`).

After a roll the seat's choices are its legal keeps (``keep <dice> bank`` and ``keep <dice>
roll``); each is worth the chance of winning after it when the seat plays on by the policy:
banking *c* is worth the policy's ``u`` at *c*, rolling on the policy's
:meth:`~.solver.WinPolicy.roll_value`. ``quit`` is never a choice the coach judges.
"""

from __future__ import annotations

from parlour.engine.coach import Advice, ranked, win_figure
from parlour.games.dice.notation import Keep
from parlour.games.dice.solver import WinPolicy
from parlour.games.dice.state import DiceState


def keep_advice(state: DiceState, seat: int, policy: WinPolicy, note: str = "") -> Advice:
    """Every legal keep of *seat* (to decide after a roll in *state*) with its chance of
    winning under *policy* (the policy of *seat*'s position), best first. Raises
    ``ValueError`` when *seat* has no roll to choose from."""
    roll = state.roll
    if roll is None or state.is_terminal() or state.seat != seat:
        raise ValueError(f"seat {seat} has no dice to choose from")
    points = state.keep_points(roll, first_roll=state.rolls == 1)
    choices = []
    for action in state.legal_actions(seat):
        if not isinstance(action, Keep):
            continue
        after = state.turn_total + points[action.dice]
        left = len(roll) - len(action.dice) or state.n_dice
        # beyond(c) is the policy's u at c: the chance of winning after banking c
        value = policy.beyond(after) if action.bank else policy.roll_value(after, left)
        choices.append((str(action), (win_figure(value),)))
    return ranked(seat, choices, note)
