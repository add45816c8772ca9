"""Python glue for the native perception, leaders, pilots and group-order mirrors.

The core reads no YAML: :func:`group_rules` hands it the leader tables (``leaders.yaml``,
``organization.yaml``), the activation modifiers (``activation.yaml``), the fast-moving
distance (``ranged_combat.yaml``) and :data:`~.perception.TWISTS`; :func:`cover_terrain`
hands it a battlefield's cover and concealment rectangles with table 17.2's "behind" rows.
Every function of ``core`` (``_core.no_quarter.perception``) takes the native battle of
:func:`~wargym.native.no_quarter.battle_from_dict`, mechs by id and sides by name.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> from wargym.rules.no_quarter.sight_movement import perception
>>> from wargym.rules.no_quarter.forces.vocab import Side
>>> battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
>>> inputs = PerceptionInputs.of(battle)
>>> core.form_groups(inputs.battle, inputs.terrain, inputs.rules, "blue") == (
...     perception.form_groups(battle, Side.BLUE))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict, sight_terrain
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import CoverConfig, cover_config
from wargym.rules.no_quarter.forces.data import NoQuarterRules, RulesOptions, load_rules
from wargym.rules.no_quarter.forces.leaders import RED_TEAMS
from wargym.rules.no_quarter.forces.records import SUCCESSION_SPEC
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Rank
from wargym.rules.no_quarter.sight_movement.perception import TWISTS

core: Any = _core.no_quarter.perception
"""The compiled mirrors (``wargym.native._core.no_quarter.perception``)."""


def _succession_spec(spec: str) -> tuple[str, int, str]:
    """``(kind, n, text)`` of one ``leaders.yaml`` successor, as ``leaders._candidate`` reads it."""
    match = SUCCESSION_SPEC.fullmatch(spec)
    if match is None:
        return ("unknown", 0, spec)
    if match["rank"] is None:
        return (spec, 0, spec)
    return (match["rank"], int(match["n"]), spec)


def group_rules(rules: NoQuarterRules) -> Any:
    """The native ``GroupRules`` of a rule set: every number the mirrors read from it."""
    leaders, activation = rules.leaders, rules.activation
    rows = [rules.organization.get(faction) for faction in Faction]
    return core.GroupRules(
        organization=[
            None if row is None else (row.squad_teams, row.platoon_squads, row.company_platoons)
            for row in rows
        ],
        red_teams=RED_TEAMS,
        command_radius_inches=float(leaders.command_radius_inches),
        command_radius_requires_los=leaders.command_radius_requires_los,
        cohesion_link_inches=float(leaders.cohesion_link_inches),
        cohesion_link_requires_los=leaders.cohesion_link_requires_los,
        succession=[
            [_succession_spec(spec) for spec in leaders.succession.get(rank.value, ())]
            for rank in Rank
        ],
        attribute_rep=[activation.attribute_rep.get(a, 0) for a in Attribute],
        only_when_group_size=[activation.only_when_group_size.get(a) for a in Attribute],
        fast_moving_inches=float(rules.ranged_combat.fast_moving_inches),
        twists=list(TWISTS),
    )


DEFAULT_OPTIONS = RulesOptions()


@cache
def rules_for(options: RulesOptions = DEFAULT_OPTIONS) -> Any:
    """:func:`group_rules` of ``load_rules(options)``, built once per options."""
    return group_rules(load_rules(options))


def _rects(rects: Any) -> np.ndarray:
    return np.array(list(rects), dtype=np.float64).reshape(-1, 4)


def cover_terrain(bf: Battlefield, config: CoverConfig | None = None) -> Any:
    """The native ``CoverTerrain`` of a battlefield under table 17.2 (``cover.yaml``).

    The rectangles are those ``sight.in_cover`` and ``sight.is_concealed`` read: features
    that conceal whether a mech moved or not, and those that give cover to a mech that moved
    or stood still.
    """
    cfg = cover_config() if config is None else config
    concealing = cfg.concealing()
    return core.CoverTerrain(
        concealing=_rects(f.rect for f in bf.features if f.kind in concealing),
        cover_moving=_rects(
            f.rect
            for f in bf.features
            if f.kind in cfg.inside_moving and "cover" in cfg.inside_moving[f.kind]
        ),
        cover_stationary=_rects(
            f.rect
            for f in bf.features
            if f.kind in cfg.inside_stationary and "cover" in cfg.inside_stationary[f.kind]
        ),
        behind_building_cover=cfg.behind_building_cover,
        behind_mech_cover=cfg.behind_mech_cover,
    )


@dataclass(frozen=True)
class PerceptionInputs:
    """What the native mirrors take for one reference battle: its native twin and tables."""

    battle: Any
    """The native battle (``battle_from_dict(battle.to_dict())``)."""
    terrain: Any
    """The ``SightTerrain`` of its battlefield."""
    cover: Any
    """Its ``CoverTerrain``."""
    rules: Any
    """The ``GroupRules`` of its rules options (or of ``rules`` given to :meth:`of`)."""

    @classmethod
    def of(cls, battle: Battle, rules: NoQuarterRules | None = None) -> PerceptionInputs:
        """The inputs of a reference battle (``rules``: else its options' tables)."""
        return cls(
            battle=battle_from_dict(battle.to_dict()),
            terrain=sight_terrain(battle.battlefield),
            cover=cover_terrain(battle.battlefield),
            rules=rules_for(battle.options.rules) if rules is None else group_rules(rules),
        )


__all__ = ["PerceptionInputs", "core", "cover_terrain", "group_rules", "rules_for"]
