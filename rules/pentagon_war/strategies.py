"""Fixed simple strategies and a seeded duel runner, to measure the scripted captain against.

A *player* is a function ``(state, decision, rng) -> Action`` that always returns one of
``decision.options``. The fixed strategies do one thing and otherwise stay passive (keep
facing, no thrust, no power, hold fire):

* ``passive``: nothing at all (it never fires);
* ``invisibility``: buys radar invisibility whenever it can (PW-R17);
* ``ecm``: buys ECM whenever it can (PW-R17);
* ``max_thrust``: thrusts whenever it can, along its facing (PW-R5);
* ``random``: masked-random orders, one legal option drawn uniformly per decision.

:func:`play_duel` plays one seeded battle and says how it ended (:class:`DuelResult`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision
from wargym.rules.pentagon_war.captain import captain_action
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.game import decider, is_over, new_battle, play
from wargym.rules.pentagon_war.records import Options, Scenario
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Termination

USES = ("turns", "ecm", "eccm", "invisibility", "reinforce", "mag_beam", "double_mag_beam")
Player = Callable[[BattleState, Decision, np.random.Generator], Action]

_PASSIVE = (Action(ActionKind.CHOOSE, 0), Action(ActionKind.ROTATE, 0), Action(ActionKind.HOLD))


def passive(state: BattleState, decision: Decision, rng: np.random.Generator) -> Action:
    """Keep facing, no thrust, no power, hold fire."""
    for wanted in _PASSIVE:
        if wanted in decision.options:
            return wanted
    return decision.options[0]


def _only(kind: DecisionKind) -> Player:
    def player(state: BattleState, decision: Decision, rng: np.random.Generator) -> Action:
        buy = Action(ActionKind.CHOOSE, 1)
        if decision.kind is kind and buy in decision.options:
            return buy
        return passive(state, decision, rng)

    player.__doc__ = f"Buy {kind.value} whenever legal, otherwise passive."
    return player


def random_orders(state: BattleState, decision: Decision, rng: np.random.Generator) -> Action:
    """One legal option drawn uniformly (masked-random orders)."""
    return decision.options[int(rng.integers(len(decision.options)))]


def captain(state: BattleState, decision: Decision, rng: np.random.Generator) -> Action:
    """The scripted captain (:func:`~wargym.rules.pentagon_war.captain.captain_action`)."""
    return captain_action(state, decision)


PLAYERS: dict[str, Player] = {
    "captain": captain,
    "random": random_orders,
    "passive": passive,
    "invisibility": _only(DecisionKind.INVISIBILITY),
    "ecm": _only(DecisionKind.ECM),
    "max_thrust": _only(DecisionKind.THRUST),
}
"""The players by name; ``passive`` is the "never fire" strategy."""


@dataclass(frozen=True)
class DuelResult:
    """How one battle ended: winner (None = draw) and the way it was decided."""

    winner: int | None
    ending: str
    """``destroyed``, ``out_of_control`` or ``left_map`` (how the loser was defeated; the
    first that applies to any ship of the losing side(s)), ``truncated`` or ``mutual``."""
    turns: int
    shots: tuple[tuple[int, ...], tuple[int, ...]]
    """Per side, the range of every shot its ships fired."""
    power: tuple[dict[str, int], dict[str, int]]
    """Per side, ship-turns with each power use: ``ecm``, ``eccm``, ``invisibility``,
    ``reinforce``, ``mag_beam``, ``double_mag_beam`` and ``turns`` (all allocations)."""


def play_duel(
    scenario: str | Scenario,
    seed: int,
    players: tuple[Player, Player],
    options: Options | None = None,
) -> DuelResult:
    """Play ``scenario`` with ``players[side]`` deciding for each side; seeded throughout."""
    from wargym.rules.pentagon_war.events import PowerAllocated, ShotFired

    rules = load_rules()
    rng = np.random.default_rng(seed)
    state, _ = new_battle(scenario, rng, options)
    dice = RandomDice(rng)
    shots: tuple[list[int], list[int]] = ([], [])
    uses: tuple[dict[str, int], dict[str, int]] = (dict.fromkeys(USES, 0), dict.fromkeys(USES, 0))
    while not is_over(state):
        decision = decider(state)
        assert decision is not None
        action = players[decision.side](state, decision, rng)
        for event in play(state, action, dice, side=decision.side, rules=rules, decision=decision):
            if isinstance(event, ShotFired):
                shots[state.ships[event.firer].side].append(event.range)
            elif isinstance(event, PowerAllocated):
                tally = uses[state.ships[event.ship].side]
                for name, used in (
                    ("turns", True),
                    ("ecm", event.ecm),
                    ("eccm", event.eccm),
                    ("invisibility", event.invisible),
                    ("reinforce", event.reinforce > 0),
                    ("mag_beam", event.mag_beam == 1),
                    ("double_mag_beam", event.mag_beam >= 2),
                ):
                    tally[name] += int(bool(used))
    result = state.outcome
    assert result is not None
    if result.termination is Termination.TRUNCATED:
        return DuelResult(None, "truncated", state.turn, (tuple(shots[0]), tuple(shots[1])), uses)
    losers = [0, 1] if result.winner is None else [1 - result.winner]
    ships = [s for s in state.ships if s.side in losers]
    if any(s.disengaged for s in ships) and not any(s.destroyed for s in ships):
        ending = "left_map"
    elif any(s.destroyed for s in ships):
        ending = "destroyed"
    elif any(not power.in_control(s, state.design_of(s)) for s in ships):
        ending = "out_of_control"
    else:
        ending = "left_map"
    if result.termination is Termination.MUTUAL:
        ending = f"mutual_{ending}"
    return DuelResult(result.winner, ending, state.turn, (tuple(shots[0]), tuple(shots[1])), uses)
