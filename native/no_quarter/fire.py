"""Python glue for the native FIRE handler and consequences (``_core.no_quarter.fire``, issue 16).

The core reads no YAML: :func:`fire_tables` hands it, for one battlefield and rule set, the
combat tables (:func:`~.combat_tables.combat_tables`), the leader and perception numbers
(:func:`~.perception.group_rules`), the battlefield's sight, cover and move tables, table
17.2.1's protected locations (``cover.yaml``), the Mech Down radius (``reaction_tests.yaml``),
the flamer's Impact, the flame template (``terrain.yaml``), Duck Back's 6" and the aim offset of
fire at buildings.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
>>> type(fire_tables(battle.battlefield)).__name__
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

core: Any = _core.no_quarter.fire
"""The compiled handler (``wargym.native._core.no_quarter.fire``)."""


def _locations(locations: Any) -> list[str]:
    return sorted(loc.value for loc in locations)


def fire_tables(bf: Battlefield, rules: NoQuarterRules | None = None) -> Any:
    """The native ``FireTables`` of a battlefield under ``rules`` (default ``load_rules()``)."""
    rules = load_rules() if rules is None else rules
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
    return core.FireTables(
        combat_tables(rules),
        group_rules(rules),
        sight_terrain(bf),
        cover_terrain(bf),
        move_terrain(bf),
        protection,
        numbers,
    )
