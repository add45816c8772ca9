"""Glue of the native skirmish set-up: the reference's tables to the core, the rng back.

The core's ``new_skirmish_setup`` mirrors :func:`~.forces.setup.new_skirmish_logged` up to its
call of ``advance``: the generated battlefield, the random picks of pre-generated mechs,
deployment, Teams and ranks, a Free Company's races and every pilot (§9-§12). The battle comes
back as it stands before ``advance`` (a native ``Battle``), with the set-up events as the
reference's ``to_dict()`` data.

The core reads no YAML: :func:`setup_tables` hands it the mech designs, the pools
(``rules.mechs_of``), the formation rows, the pilot tables of ``load_rules`` and the terrain
table of ``terrain_config()``, and :mod:`~.forces.setup`'s own constants (``HOME_EDGES``,
``FACING``, ``leaders.RED_TEAMS``). The numpy ``Generator`` crosses as
``rng.bit_generator.state`` and is set to the core's state afterwards, so the caller's rng goes
on exactly as it would after the reference's set-up.

>>> import numpy as np
>>> from wargym.native import _core
>>> rng = np.random.default_rng(0)
>>> battle, events = new_skirmish_setup(rng, _core.ScriptedDice([3] * 60))
>>> len(battle.mech_ids), events[0]["type"]
(6, 'PilotCreated')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import NativeBattle
from wargym.rules.no_quarter.battle import validity
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battlefield.terrain_tables import TerrainConfig, terrain_config
from wargym.rules.no_quarter.forces import leaders, setup
from wargym.rules.no_quarter.forces.data import NoQuarterRules, RulesOptions, load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Race, Side
from wargym.rules.serial import to_jsonable

core: Any = _core.no_quarter

MAX_MECHS_PER_SIDE = validity.MAX_MECHS // 2
"""Most mechs a side may field in the native set-up (half of :data:`~.validity.MAX_MECHS`)."""

_CACHE: dict[RulesOptions, Any] = {}
_OPTIONS: dict[BattleOptions, dict[str, Any]] = {}


def setup_tables_data(
    rules: NoQuarterRules, terrain: TerrainConfig | None = None
) -> dict[str, Any]:
    """The plain data of ``_core.no_quarter.SetupTables``: every table the set-up reads."""
    cfg = terrain_config() if terrain is None else terrain
    effects = rules.attribute_effects
    return {
        "faction_race": {
            f.value: (None if rules.faction_race[f] is None else rules.faction_race[f].value)  # type: ignore[union-attr]
            for f in Faction
        },
        "pilot_rep": {row: list(values) for row, values in rules.pilot_rep.items()},
        "star_rep": rules.star_rep,
        "free_company_race_roll": [r.value for r in rules.free_company_race_roll],
        "mixed_faces": list(rules.free_company_mixing.mixed_faces),
        "race_count": list(rules.free_company_mixing.race_count),
        "attribute_table": [[a.value for a in row] for row in rules.attribute_table],
        "star_rerolls": [a.value for a, e in effects.items() if e.star_rerolls],
        "choose_any": [a.value for a, e in effects.items() if e.choose_any],
        "preference": [a.value for a in rules.attribute_preference],
        "random_attribute_rolls": {r.value: rules.racial[r].random_attribute_rolls for r in Race},
        "free_company_races": rules.options.free_company_races,
        "building_armors": sorted(cfg.building_armor.values()),
        "building_max_w": float(cfg.building_max_size[0]),
        "building_max_h": float(cfg.building_max_size[1]),
        "road_width": float(cfg.road_width),
        "deep_water_shore_band": float(cfg.deep_water_shore_band),
        "pools": {f.value: [to_jsonable(d) for d in rules.mechs_of(f)] for f in Faction},
        "formation": {
            f.value: [
                leaders.formation_row(rules, f).squad_teams,
                leaders.formation_row(rules, f).platoon_squads,
            ]
            for f in Faction
        },
        "team_size": rules.team_size,
        "red_teams": leaders.RED_TEAMS,
        "home_edges": {s.value: setup.HOME_EDGES[s] for s in Side},
        "facing": {s.value: float(setup.FACING[s]) for s in Side},
    }


def setup_tables(rules: NoQuarterRules | None = None, terrain: TerrainConfig | None = None) -> Any:
    """The core's ``SetupTables``; those of ``load_rules(options)`` are made once per options."""
    if rules is not None or terrain is not None:
        return core.SetupTables(setup_tables_data(rules or load_rules(), terrain))
    options = RulesOptions()
    if options not in _CACHE:
        _CACHE[options] = core.SetupTables(setup_tables_data(load_rules(options)))
    return _CACHE[options]


def _tables_for(options: BattleOptions) -> Any:
    if options.rules not in _CACHE:
        _CACHE[options.rules] = core.SetupTables(setup_tables_data(load_rules(options.rules)))
    return _CACHE[options.rules]


def _options_data(options: BattleOptions) -> dict[str, Any]:
    """``to_jsonable(options)``, made once per options (the core only reads it)."""
    try:
        data = _OPTIONS.get(options)
    except TypeError:  # a field holds a list: not hashable, converted every time
        converted: dict[str, Any] = to_jsonable(options)
        return converted
    if data is None:
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        data = _OPTIONS[options] = to_jsonable(options)
    return data


def _faction(value: Any, name: str) -> str:
    if isinstance(value, Faction):
        return value.value
    if isinstance(value, str):
        return value  # the core refuses a name that is not a Faction's
    raise NativeTypeError(name, f"{name}: expected a Faction, got {value!r:.80}")


def new_skirmish_setup(
    rng: np.random.Generator,
    dice: Any,
    *,
    blue: Faction | str = Faction.STAR_ARMY,
    red: Faction | str = Faction.HISHEN,
    mechs_per_side: int = 3,
    stars: int = 0,
    options: BattleOptions | None = None,
    tables: Any = None,
) -> tuple[NativeBattle, list[dict[str, Any]]]:
    """:func:`~.forces.setup.new_skirmish_logged` up to ``advance``, in the core.

    ``dice``: a native ``RandomDice`` or ``ScriptedDice``. Returns the native battle before
    its first decision and the set-up events (``FreeCompanyRaces`` / ``PilotCreated`` as
    ``to_dict()`` data); ``rng`` is left where the reference's set-up leaves it. Bad input
    raises :class:`~wargym.native.errors.NativeTypeError` / ``NativeArgumentError`` naming
    the argument, and leaves ``rng`` unchanged.
    """
    if not isinstance(rng, np.random.Generator):
        raise NativeTypeError("rng", f"rng: expected a numpy Generator, got {rng!r:.80}")
    if not isinstance(rng.bit_generator, np.random.PCG64):
        kind = type(rng.bit_generator).__name__
        raise NativeArgumentError("rng", f"rng: the core mirrors PCG64, not {kind}")
    options = BattleOptions() if options is None else options
    if not isinstance(options, BattleOptions):
        raise NativeTypeError("options", f"options: expected BattleOptions, got {options!r:.80}")
    battle, events, state = core.new_skirmish_setup(
        _tables_for(options) if tables is None else tables,
        rng.bit_generator.state,
        dice,
        _faction(blue, "blue"),
        _faction(red, "red"),
        mechs_per_side,
        stars,
        _options_data(options),
        MAX_MECHS_PER_SIDE,
    )
    rng.bit_generator.state = state
    return battle, events
