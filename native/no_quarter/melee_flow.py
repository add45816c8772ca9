"""Python glue for the native REACT, CHARGE, MELEE and CHARGES handlers (``_core.no_quarter.melee_flow``).

The core reads no YAML: :func:`melee_flow_tables` hands it what the fire handler's tables hold
(combat, leader and perception numbers, the battlefield's sight, cover and move tables, table
17.2.1's protected locations, the Mech Down radius, the flamer's Impact, the flame template,
Duck Back's 6", the aim offset; built as ``_core.no_quarter.fire.FireTables``) plus the
charge's stage distance (``rules.charge.stage_distance_inches``) and the most attackers per
target (``rules.multiple_melee.max_attackers_per_target``).

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
from wargym.native.no_quarter import sight_terrain
from wargym.native.no_quarter.combat_tables import combat_tables
from wargym.native.no_quarter.movement import move_terrain
from wargym.native.no_quarter.perception import cover_terrain, group_rules
from wargym.rules.no_quarter.battle import consequences
from wargym.rules.no_quarter.battlefield import buildings
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import (
    cover_config,
    sight_config,
    terrain_config,
)
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.vocab import ItemType

core: Any = _core.no_quarter.melee_flow
"""The compiled handlers (``wargym.native._core.no_quarter.melee_flow``)."""


def _locations(locations: Any) -> list[str]:
    return sorted(loc.value for loc in locations)


def _fire_tables(bf: Battlefield, rules: NoQuarterRules) -> Any:
    """``FireTables`` as helper I's ``wargym.native.no_quarter.fire.fire_tables`` builds them."""
    cover, terrain = cover_config(), terrain_config()
    idx = bf.index
    protection = (
        _locations(cover.partial_building),
        cover.blocked_side_arm,
        _locations(cover.hill_crest_band),
        _locations(cover.river),
        _locations(cover.deep_water_shore_band),
        float(sight_config().hill_crest_band),
        [tuple(float(v) for v in f.rect) for f in idx.rivers],
        [tuple(float(v) for v in f.rect) for f in idx.deep],
    )
    numbers = (
        rules.item_profile(ItemType.FLAMER).impact or 0,
        float(rules.reaction.mech_down_radius_inches),
        rules.reaction.mech_down_requires_los,
        float(consequences.DUCK_BACK_MAX),
        float(buildings.AIM_OFFSET),
        float(terrain.flame_strip_width),
        float(terrain.flame_circle_diameter),
    )
    return _core.no_quarter.fire.FireTables(
        combat_tables(rules),
        group_rules(rules),
        sight_terrain(bf),
        cover_terrain(bf),
        move_terrain(bf),
        protection,
        numbers,
    )


def melee_flow_tables(bf: Battlefield, rules: NoQuarterRules | None = None) -> Any:
    """The native tables of a battlefield under ``rules`` (default ``load_rules()``)."""
    rules = load_rules() if rules is None else rules
    return core.with_charge_numbers(
        _fire_tables(bf, rules),
        float(rules.charge.stage_distance_inches),
        rules.multiple_melee.max_attackers_per_target,
    )
