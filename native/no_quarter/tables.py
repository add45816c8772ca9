"""The native rule tables, complete: what every ported handler reads (forces/data.hpp RulesTables).

One builder for the whole flow: :func:`rules_tables` starts from the fire handler's tables
(:func:`~wargym.native.no_quarter.fire.fire_tables`: combat, groups, sight, cover, movement,
protection and the consequences' numbers), then sets the charge's numbers (``melee_flow``) and
the mech and In Sight numbers (``flow_mech``). Every number comes from the reference's loaders
and module constants; none is written here or in C++.
"""

from __future__ import annotations

from typing import Any

from wargym.native import _core
from wargym.native.no_quarter.fire import fire_tables
from wargym.rules.dice import successes
from wargym.rules.no_quarter.battle import flow_move
from wargym.rules.no_quarter.battlefield import buildings
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import cover_config, terrain_config
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.no_quarter.sight_movement import facing, perception


def success_face() -> int:
    """The highest d6 face :func:`~wargym.rules.dice.successes` counts (§5.2), read off it."""
    return max(face for face in range(1, 7) if successes((face,)) == 1)


def terrain_numbers() -> tuple[float, list[float], list[bool], list[bool], list[bool]]:
    """What ``Battlefield.index`` and ``sight._rects`` read, per Terrain kind (vocabulary order).

    ``terrain_config()``'s shore band and cost per inch (a building's is never read: 1.0 stands
    in for its 1/0), and table 17.2's concealing and cover kinds (``cover_config()``).
    """
    terrain, cover = terrain_config(), cover_config()
    concealing = cover.concealing()
    kinds = list(Terrain)
    return (
        float(terrain.deep_water_shore_band),
        [1.0 if k is Terrain.BUILDING else float(terrain.cost_per_inch(k)) for k in kinds],
        [k in concealing for k in kinds],
        [k in cover.inside_moving and "cover" in cover.inside_moving[k] for k in kinds],
        [k in cover.inside_stationary and "cover" in cover.inside_stationary[k] for k in kinds],
    )


def rules_tables(bf: Battlefield, rules: NoQuarterRules | None = None, battle: Any = None) -> Any:
    """Every table the native flow reads, for a battlefield under ``rules`` (default rules).

    ``battle``: a native battle whose battlefield the core builds the terrain tables for now
    (else it builds them at each call: the Python-built ones of ``bf`` are not read).
    """
    rules = load_rules() if rules is None else rules
    tables = _core.no_quarter.melee_flow.with_charge_numbers(
        fire_tables(bf, rules),
        float(rules.charge.stage_distance_inches),
        rules.multiple_melee.max_attackers_per_target,
        success_face(),
    )
    tables = _core.no_quarter.flow_mech.with_mech_numbers(
        tables,
        [float(h) for h in facing.HEADINGS],
        float(rules.in_sight.free_move_inches),
        float(flow_move.STEP),
        float(perception.IN_SIGHT_CHARGE_RANGE),
        float(buildings.CONTACT_SLACK),
    )
    return _core.no_quarter.fire.with_terrain(tables, terrain_numbers(), battle)
