"""Keyword-argument checks of the No Quarter envs, with their documented bounds.

Every keyword of the skirmish, mission and head-to-head envs is checked before anything is
built: a wrong type or a value outside the range below raises
:class:`~wargym.envs.base.EnvArgumentError` naming the argument and the allowed range (an
unknown keyword stays Python's ``TypeError``). The bounds keep every env finite (a turn
limit, a non-empty mask at each decision) and its spaces small (docs/bad_input.md):

============================  ==============================================================
``mechs_per_side``            1..32 (both sides together fit the rules' 64 mechs)
``max_mechs``                 1..64 mech slots per side (skirmish: >= ``mechs_per_side``)
``stars``                     0..``mechs_per_side``
``max_turns``                 1..100 (also ``battle_options.max_turns``; the rules' limit)
``max_weapons``               1..32 weapon slots per mech
``max_buildings``             0..64 building slots
``cell``                      0.25..12 inches per observation cell
``battle_options``            ``base_radius`` 0.1..1.0; ``move_directions`` 1..64;
                              ``move_fractions`` 1..8 numbers in (0, 1]
``backend``                   ``"python"`` or ``"native"`` (generated skirmishes only)
observation                   at most :data:`~wargym.envs.base.MAX_OBSERVATION_SIZE` values
============================  ==============================================================
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from wargym.envs.base import (
    EnvArgumentError,
    check_choice,
    check_int,
    check_keys,
    check_number,
)
from wargym.rules.errors import short_repr
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battle.validity import MAX_DIRECTIONS, MAX_FRACTIONS, MAX_TURNS
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.setup import BACKENDS
from wargym.rules.no_quarter.forces.vocab import Faction

MAX_MECHS_PER_SIDE = 32
"""Largest ``mechs_per_side`` (two sides of 32 are the rules' 64 mechs a battle holds)."""
MAX_MECH_SLOTS = 64
"""Largest ``max_mechs`` (mech slots per side of the codec and the encoder)."""
MAX_WEAPONS = 32
"""Largest ``max_weapons`` (weapon slots per mech)."""
MAX_BUILDINGS = 64
"""Largest ``max_buildings`` (building slots)."""
CELL_RANGE = (0.25, 12.0)
"""Allowed ``cell`` (inches per observation cell): a 36" table is 144 x 144 .. 3 x 3 cells."""
BASE_RADIUS_RANGE = (0.1, 1.0)
"""Allowed ``battle_options.base_radius`` (inches; ruling D1 is 0.5): 32 bases still deploy."""
MAX_MOVE_DIRECTIONS = MAX_DIRECTIONS
"""Largest ``battle_options.move_directions`` (the battle validity's bound)."""
MAX_MOVE_FRACTIONS = MAX_FRACTIONS
"""Most ``battle_options.move_fractions`` (the battle validity's bound)."""

_INT_BOUNDS = {
    "mechs_per_side": (1, MAX_MECHS_PER_SIDE),
    "max_turns": (1, MAX_TURNS),
    "max_weapons": (1, MAX_WEAPONS),
    "max_buildings": (0, MAX_BUILDINGS),
}


def check_battle_values(where: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The ranges of the numeric ``BattleOptions`` fields in ``options`` (types checked first).

    Returns the options with ``move_fractions`` as a tuple of floats.

    Raises:
        EnvArgumentError: naming ``where.<field>`` and the allowed range.
    """
    out = dict(options)
    if "max_turns" in out:
        check_int(f"{where}.max_turns", out["max_turns"], 1, MAX_TURNS)
    if "base_radius" in out:
        check_number(f"{where}.base_radius", out["base_radius"], *BASE_RADIUS_RANGE)
    if "move_directions" in out:
        check_int(f"{where}.move_directions", out["move_directions"], 1, MAX_MOVE_DIRECTIONS)
    if "move_fractions" in out:
        out["move_fractions"] = check_fractions(f"{where}.move_fractions", out["move_fractions"])
    return out


def check_fractions(name: str, value: Any) -> tuple[float, ...]:
    """``value`` as 1..:data:`MAX_MOVE_FRACTIONS` finite numbers in (0, 1].

    Raises:
        EnvArgumentError: naming ``name`` (and the index of a bad entry).
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise EnvArgumentError(
            f"{name} must be a list of 1..{MAX_MOVE_FRACTIONS} numbers in (0, 1], "
            f"got {short_repr(value)}"
        )
    if not 1 <= len(value) <= MAX_MOVE_FRACTIONS:
        raise EnvArgumentError(
            f"{name} must hold 1..{MAX_MOVE_FRACTIONS} numbers, got {len(value)}"
        )
    fractions = tuple(check_number(f"{name}[{i}]", f) for i, f in enumerate(value))
    for i, fraction in enumerate(fractions):
        if not 0.0 < fraction <= 1.0:
            raise EnvArgumentError(f"{name}[{i}] must be in (0, 1], got {short_repr(fraction)}")
    return fractions


def check_battle_bounds(where: str, options: BattleOptions, turns: str) -> None:
    """:func:`check_battle_values` on a built ``BattleOptions`` (a mission's scenario).

    ``turns`` names the argument that set ``max_turns`` (``max_turns`` or ``turn_limit``).

    Raises:
        EnvArgumentError: naming ``where.<field>`` (or ``turns``) and the allowed range.
    """
    check_int(turns, options.max_turns, 1, MAX_TURNS)
    check_battle_values(
        where,
        {
            name: getattr(options, name)
            for name in ("base_radius", "move_directions", "move_fractions")
        },
    )


def _check_fields(name: str, value: Any, cls: type[Any], skip: tuple[str, ...] = ()) -> None:
    """Keys, types and ``Literal`` choices of an options dict against dataclass ``cls``."""
    hints = typing.get_type_hints(cls)
    fields = [f.name for f in dataclasses.fields(cls) if f.name not in skip]
    for key, item in check_keys(name, value, fields).items():
        hint, where = hints[key], f"{name}.{key}"
        if typing.get_origin(hint) is typing.Literal:
            check_choice(where, item, typing.get_args(hint))
        elif hint is bool and not isinstance(item, bool):
            raise EnvArgumentError(f"{where} must be true or false, got {short_repr(item)}")
        elif hint is int:
            check_int(where, item)
        elif hint is float:
            check_number(where, item)


def check_cell(value: Any) -> float:
    """``cell`` within :data:`CELL_RANGE`.

    Raises:
        EnvArgumentError: naming ``cell`` and the range.
    """
    cell = check_number("cell", value)
    low, high = CELL_RANGE
    if not low <= cell <= high or math.isnan(cell):
        raise EnvArgumentError(f"cell must be in [{low}, {high}], got {short_repr(value)}")
    return cell


def check_skirmish_config(
    config: Mapping[str, Any], terms: tuple[str, ...], *, skirmish: bool = True
) -> None:
    """Check the keyword arguments of a No Quarter env before it is built (bounds above).

    Unknown keywords are left to Python (``TypeError`` naming the keyword). ``skirmish``:
    the env sets up ``mechs_per_side`` mechs a side (default 3), so ``max_mechs`` must hold
    them (a mission's forces come from its scenario).

    Raises:
        EnvArgumentError: a known keyword with a wrong type or value (the message names it
            and the allowed range).
    """
    if "factions" in config:
        factions = config["factions"]
        if isinstance(factions, str) or not isinstance(factions, Sequence):
            raise EnvArgumentError(
                f"factions must be a pair of faction names, got {short_repr(factions)}"
            )
        if len(factions) != 2:
            raise EnvArgumentError(f"factions must name 2 factions, got {len(factions)}")
        for i, name in enumerate(factions):
            check_choice(f"factions[{i}]", name, [f.value for f in Faction])
    for key, (low, high) in _INT_BOUNDS.items():
        if key in config:
            check_int(key, config[key], low, high)
    per_side = int(config.get("mechs_per_side", 3))
    if "stars" in config:
        check_int("stars", config["stars"], 0, per_side)
    if config.get("max_mechs") is not None:
        slots = check_int("max_mechs", config["max_mechs"], 1, MAX_MECH_SLOTS)
        if skirmish and slots < per_side:
            raise EnvArgumentError(
                f"max_mechs must be >= mechs_per_side ({per_side}) and <= {MAX_MECH_SLOTS}, "
                f"got {slots}"
            )
    if "cell" in config:
        check_cell(config["cell"])
    if "backend" in config:
        check_choice("backend", config["backend"], ("auto", *BACKENDS))
    for key in ("action_features", "flatten", "mirror", "info_events"):
        if key in config and not isinstance(config[key], bool):
            raise EnvArgumentError(f"{key} must be true or false, got {short_repr(config[key])}")
    battle = config.get("battle_options")
    _check_fields("battle_options", battle, BattleOptions, ("rules",))
    if battle is not None:
        check_battle_values("battle_options", battle)
        directions = battle.get("move_directions", 16)
        if config.get("mirror", True) and directions % 2:
            raise EnvArgumentError(
                f"battle_options.move_directions must be even with mirror=True, got {directions}"
            )
    _check_fields("rules_options", config.get("rules_options"), RulesOptions)
    for term, weight in check_keys("reward_shaping", config.get("reward_shaping"), terms).items():
        check_number(f"reward_shaping.{term}", weight)


CAMPAIGN_BOUNDS = {
    "max_missions": (1, 100),
    "max_turns": (1, MAX_TURNS),
    "carry": (-5, 5),
    "max_mechs": (1, MAX_MECH_SLOTS),
    "max_weapons": (1, MAX_WEAPONS),
    "max_buildings": (0, MAX_BUILDINGS),
    "max_company": (1, 128),
    "max_spares": (0, 64),
}
"""Allowed ranges of the campaign env's integer keywords (``max_missions``/``max_turns``:
``None`` keeps the campaign's own)."""


def check_campaign_config(
    config: Mapping[str, Any], terms: tuple[str, ...], rules: type[Any]
) -> None:
    """Check the keyword arguments of the campaign env (``NoQuarter-CestusV-v1``).

    ``terms``: its reward-shaping terms; ``rules``: ``CampaignRulesOptions``.

    Raises:
        EnvArgumentError: a keyword with a wrong type or outside :data:`CAMPAIGN_BOUNDS` /
            :data:`CELL_RANGE` (the message names it and the range).
    """
    for key, (low, high) in CAMPAIGN_BOUNDS.items():
        optional = key in ("max_missions", "max_turns")
        if key in config and not (optional and config[key] is None):
            check_int(key, config[key], low, high)
    if "cell" in config:
        check_cell(config["cell"])
    if config.get("faction") is not None:
        check_choice("faction", config["faction"], [f.value for f in Faction])
    _check_fields("rules_options", config.get("rules_options"), rules)
    for term, weight in check_keys("reward_shaping", config.get("reward_shaping"), terms).items():
        check_number(f"reward_shaping.{term}", weight)
