"""Glue for the native REACT, CHARGE, MELEE and CHARGES handlers (``_core.no_quarter.melee_flow``).

The core reads no YAML: :func:`melee_flow_tables` hands it what the fire handler's tables hold
(combat, leader and perception numbers, the battlefield's sight, cover and move tables, table
17.2.1's protected locations, the Mech Down radius, the flamer's Impact, the flame template,
Duck Back's 6", the aim offset: ``wargym.native.no_quarter.fire.fire_tables``) plus the
charge's stage distance (``rules.charge.stage_distance_inches``) and the most attackers per
target (``rules.multiple_melee.max_attackers_per_target``) and the highest face a melee die
scores a success with (read off ``wargym.rules.dice.successes``).

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
>>> type(melee_flow_tables(battle.battlefield)).__name__
'FireTables'
"""

from __future__ import annotations

from typing import Any

from wargym.native import _core
from wargym.native.no_quarter.tables import rules_tables
from wargym.rules.dice import successes
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.data import NoQuarterRules

core: Any = _core.no_quarter.melee_flow
"""The compiled handlers (``wargym.native._core.no_quarter.melee_flow``)."""


def melee_flow_tables(bf: Battlefield, rules: NoQuarterRules | None = None) -> Any:
    """The native tables of a battlefield under ``rules`` (:func:`.tables.rules_tables`)."""
    return rules_tables(bf, rules)


def success_face() -> int:
    """The highest d6 face :func:`~wargym.rules.dice.successes` counts (§5.2), read off it."""
    return max(face for face in range(1, 7) if successes((face,)) == 1)
