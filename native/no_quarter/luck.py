"""Native twins of :mod:`wargym.rules.no_quarter.battle.luck`'s pause reading.

The guard itself (``run_unit``, ``resume``) runs inside the native flow (``battle/luck.cpp``);
these read a native battle paused at a Lucky or Marksman decision. ``KILL_FRACTION`` and the
Marksman preference come from the reference (``luck.KILL_FRACTION``, ``load_rules``).

>>> from wargym.rules.no_quarter.battle.luck import KILL_FRACTION
>>> kill_fraction() == KILL_FRACTION
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from wargym.native import _core
from wargym.native.no_quarter.combat_tables import combat_tables
from wargym.rules.no_quarter.battle import luck
from wargym.rules.no_quarter.battle.actions import Action, action_from_dict
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Location

core: Any = cast(Any, _core).no_quarter.luck


def kill_fraction() -> float:
    """The automatic Lucky rule's ``luck.KILL_FRACTION``, as the core gets it."""
    return float(luck.KILL_FRACTION)


def pause_options(battle: Any) -> list[Action]:
    """Native :func:`~wargym.rules.no_quarter.battle.luck.pause_options` of the top frame."""
    return [action_from_dict(d) for d in core.pause_options(battle)]


def lucky_advice(battle: Any) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.luck.lucky_advice`."""
    return cast(bool, core.lucky_advice(battle, kill_fraction()))


def marksman_advice(battle: Any, rules: NoQuarterRules) -> Location:
    """Native :func:`~wargym.rules.no_quarter.battle.luck.marksman_advice`."""
    return Location(core.marksman_advice(battle, combat_tables(rules)))


def choice_in_roll(battle: Any, options: Sequence[Action], rules: NoQuarterRules) -> Action:
    """Native :func:`~wargym.rules.no_quarter.battle.luck.choice_in_roll`.

    ``rules``: the battle's ``load_rules(options.rules)``.
    """
    data = core.choice_in_roll(battle, combat_tables(rules), kill_fraction(), list(options))
    return action_from_dict(data)
