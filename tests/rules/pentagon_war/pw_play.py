"""Shared helpers of the Pentagon War rules tests: a passive chooser and a play-until loop."""

from __future__ import annotations

from collections.abc import Callable

from wargym.rules.dice import ScriptedDice
from wargym.rules.events import Event
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.game import decider, is_over, play
from wargym.rules.pentagon_war.records import RuleSet
from wargym.rules.pentagon_war.state import BattleState

RULES = load_rules()
"""The packaged rule set."""
Chooser = Callable[[BattleState, Decision], Action]
"""A test's choice at each decision."""


def passive(state: BattleState, d: Decision) -> Action:
    """Keep facing, no thrust, no power, hold fire."""
    for wanted in (
        Action(ActionKind.CHOOSE, 0),
        Action(ActionKind.ROTATE, 0),
        Action(ActionKind.HOLD),
    ):
        if wanted in d.options:
            return wanted
    return d.options[0]


def run(
    state: BattleState,
    dice: ScriptedDice,
    chooser: Chooser,
    until: Callable[[BattleState], bool],
    rules: RuleSet = RULES,
) -> list[Event]:
    """Play ``chooser``'s choices until ``until(state)`` or the battle ends; the events."""
    events: list[Event] = []
    while not is_over(state) and not until(state):
        d = decider(state)
        assert d is not None
        events += play(state, chooser(state, d), dice, rules=rules)
    return events
