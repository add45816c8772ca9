"""Typed glue for the native No Quarter actions (``native/no_quarter/battle/actions.hpp``).

The core reads the reference's action objects and dicts (:mod:`~.battle.actions`) into its own
structs and writes them back; these wrappers give the calls their types.

>>> from wargym.rules.no_quarter.battle.actions import Move
>>> action_to_dict(Move(1, (2.0, 3.5)))
{'type': 'Move', 'mech': 1, 'to': [2.0, 3.5], 'reverse': False, 'jump': False}
>>> action_from_dict({"type": "Stay", "mech": 2, "heading": 90})
Stay(mech=2, heading=90.0)
"""

from __future__ import annotations

from typing import Any

from wargym.native import _core
from wargym.rules.no_quarter.battle.actions import Action

core: Any = _core.no_quarter


def action_to_dict(action: Action) -> dict[str, Any]:
    """:func:`~.actions.action_to_dict` through the core (NativeTypeError: not an action)."""
    data: dict[str, Any] = core.action_to_dict(action)
    return data


def action_from_dict(data: Any) -> Action:
    """:func:`~.actions.action_from_dict` through the core.

    A bad field raises NativeTypeError/NativeArgumentError naming it (``action.to[1]``).
    """
    action: Action = core.action_from_dict(data)
    return action
