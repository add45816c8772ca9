"""Python glue for the native MECH and INSIGHT handlers (``flow_mech.py``, ``flow_move.py``).

The core reads no YAML: :func:`rules_tables` hands it the ``RulesTables`` of a battle (the
combat tables, the leader and perception tables, the battlefield's sight, cover and movement
tables, and the rule numbers the handlers read: In Sight's free move, the charge's stage
distance, the most attackers per target, the flamer's Impact, the Mech Down radius ...), each
taken from the reference's loaders and constants. ``core.run_unit`` runs one engine unit of the
top mech or insight frame, ``core.options`` gives its legal options.
"""

from __future__ import annotations

from typing import Any

from wargym.native import _core
from wargym.native.no_quarter import sight_terrain
from wargym.native.no_quarter.combat_tables import combat_tables
from wargym.native.no_quarter.movement import move_terrain
from wargym.native.no_quarter.perception import cover_terrain, group_rules
from wargym.rules.dice import successes
from wargym.rules.no_quarter.battle import consequences, flow_move
from wargym.rules.no_quarter.battlefield import buildings
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import terrain_config
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import ItemType
from wargym.rules.no_quarter.sight_movement import facing, perception

core: Any = _core.no_quarter.flow_mech
"""The compiled handlers (``wargym.native._core.no_quarter.flow_mech``)."""


def success_face() -> int:
    """The highest d6 face :func:`~wargym.rules.dice.successes` counts (§5.2), read off it."""
    return max(face for face in range(1, 7) if successes((face,)) == 1)


def rules_tables(bf: Battlefield, rules: NoQuarterRules, **overrides: Any) -> Any:
    """The native ``RulesTables`` of a battlefield under a rule set (``overrides``: for tests)."""
    cfg = terrain_config()
    values: dict[str, Any] = {
        "combat": combat_tables(rules),
        "groups": group_rules(rules),
        "sight": sight_terrain(bf),
        "cover": cover_terrain(bf),
        "move": move_terrain(bf),
        "flamer_impact": rules.item_profile(ItemType.FLAMER).impact or 0,
        "mech_down_radius_inches": float(rules.reaction.mech_down_radius_inches),
        "mech_down_requires_los": bool(rules.reaction.mech_down_requires_los),
        "duck_back_max": float(consequences.DUCK_BACK_MAX),
        "aim_offset": float(buildings.AIM_OFFSET),
        "flame_strip_width": float(cfg.flame_strip_width),
        "flame_circle_diameter": float(cfg.flame_circle_diameter),
        "headings": [float(h) for h in facing.HEADINGS],
        "in_sight_free_move_inches": float(rules.in_sight.free_move_inches),
        "in_sight_step": float(flow_move.STEP),
        "in_sight_charge_range": float(perception.IN_SIGHT_CHARGE_RANGE),
        "charge_stage_distance": float(rules.charge.stage_distance_inches),
        "max_attackers_per_target": int(rules.multiple_melee.max_attackers_per_target),
        "building_contact_slack": float(buildings.CONTACT_SLACK),
        "success_face": success_face(),
    }
    values.update(overrides)
    return core.RulesTables(**values)
