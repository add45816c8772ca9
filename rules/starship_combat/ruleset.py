"""The immutable rule set of Alternate Starship Combat v2, as loaded from ``configs/``.

One :class:`RuleSet` holds every table of the digest (§1-§2.18) and the project rulings
(TR-R1..TR-R27) that are numbers; :func:`wargym.rules.starship_combat.data.load_rules` builds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wargym.rules.starship_combat.records import (
    Band,
    BoardingLoss,
    Critical,
    Difficulty,
    EmLevel,
    HitResult,
    HullBand,
    ShipDesign,
    SizeClass,
    SuccessLevel,
    TableName,
    TroopQuality,
    Warhead,
    WeaponKind,
    WeaponProps,
)

HULL_INOP_EFFECTS = (
    "max_g_1", "hull_breached", "agility_zero", "no_atmosphere_entry", "no_spinal",
    "heading_change_limited", "no_recovery", "no_rapid_launch", "fuel_leak_hull_inop", "no_jump",
    "plus_one_damage_except_hull",
)  # fmt: skip
"""The §2.10 hull-inoperative effects a table may list."""
HULL_INOP_MODELLED = (
    "max_g_1", "agility_zero", "no_spinal", "heading_change_limited", "fuel_leak_hull_inop",
    "plus_one_damage_except_hull",
)  # fmt: skip
"""The effects that change a space battle; the others (breach, atmosphere, recovery, rapid
launch, jump) have nothing to act on in one and are accepted without effect."""
ACTIVE_SHIFT_CONDITIONS = ("target_in_gas_giant", "through_nuclear_explosion_hex", "target_jamming")
"""Conditions an active-sensor shift list may name (§2.14)."""
DENSITOMETER_SHIFT_CONDITIONS = ("through_planet_or_moon_size_5_plus", "through_planetoid_belt")
"""Conditions a densitometer shift list may name (§2.14)."""


@dataclass(frozen=True, slots=True)
class Deployment:
    """One ship or squadron of a scenario side (TR-R26)."""

    design: str
    craft: int
    """0 for a ship; 8-10 for a fighter squadron of ``design`` (§2.15)."""
    at: tuple[int, int]
    heading: int
    gunnery: int
    tactics: int
    troop_quality: TroopQuality


@dataclass(frozen=True, slots=True)
class Scenario:
    """A battle set-up selectable by keyword (TR-R26)."""

    key: str
    description: str
    nuclear_missiles: bool
    sides: tuple[tuple[Deployment, ...], ...]
    gas_giants: tuple[tuple[int, int], ...]
    planets: tuple[tuple[int, int], ...]
    belts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every table and tunable number the engine uses (digest §1-§2.18, TR-R1..TR-R27)."""

    ehex: Mapping[str, int]
    difficulty_targets: Mapping[Difficulty, int]
    success_levels: tuple[tuple[SuccessLevel, int | None, int | None], ...]
    tenths_per_margin: int
    max_tenths: int
    bare_success_tenths: int
    natural_12_tenths: int
    ratio_dm_table: Mapping[str, int]
    ratio_dm_vs_screens: bool
    damage_multiplier: Mapping[Warhead, int]
    exceptional_margin: int
    exceptional_extra_dp: int
    exceptional_armor_loss: int
    armor_pen_difficulty: Difficulty
    weapon_dm_divisor: int
    armor_pivot: int
    armor_dm_step: int
    to_hit_difficulty: Difficulty
    range_dm: tuple[Band, ...]
    max_range: int
    size_dm: Mapping[SizeClass, int]
    default_gunnery: int
    remote_guidance_dm: int
    penetration_difficulty: Difficulty
    weapon_props: Mapping[WeaponKind, WeaponProps]
    max_velocity: int
    map_radius: int
    max_rounds: int
    hull_bands: tuple[HullBand, ...]
    maneuver_bands: tuple[Band, ...]
    jump_bands: tuple[Band, ...]
    power_bands: tuple[Band, ...]
    drive_destroyed_multiplier: int
    ecp_tenths: int
    power_steps: int
    armor_form_boxes: int
    crew_form_boxes: int
    jump_drive_kl_per_unit_tenths: int
    jump_fuel_per_drive_kl: int
    tables: Mapping[TableName, Mapping[int, HitResult]]
    roll_clamp: tuple[int, int]
    dm_ucp_1_4: int
    dm_ucp_5_9: int
    dm_ucp_10_plus: int
    dm_nuclear_or_spinal: int
    dm_black_globe: int
    box_bands: tuple[Band, ...]
    exceptional_extra_box: int
    radiation_share_pct: int
    spinal_extra_above: int
    spinal_armor_pivot: int
    spinal_armor_per_roll: int
    hull_share_divisor: int
    dp1_hull_on_d6: int
    dp2_hull_on_d6: int
    agility_per_power_step: int
    power_no_spinal: int
    power_xor: int
    power_screens_off: int
    power_no_weapons: int
    power_life_support: int
    hull_inop_effects: frozenset[str]
    """The §2.10 effects in play; the engine models those in ``HULL_INOP_MODELLED``."""
    leak_normal: tuple[int, int, int, int]
    """(2D dice per turn, fixed days per turn, turn dice, turn plus) for a normal leak."""
    leak_hull: tuple[int, int, int, int]
    """The same for a leak with the hull inoperative."""
    critical_table: Mapping[int, Critical]
    armor_loss_per_critical: int
    globe_armor_per_10pct: int
    flicker_step_pct: int
    boarding_difficulty: Difficulty
    boarding_no_troops_difficulty: Difficulty
    crew_as_troops_pct: int
    default_tactics: int
    default_quality: TroopQuality
    quality_dm: Mapping[TroopQuality, int]
    quality_d6: Mapping[TroopQuality, tuple[int, ...]]
    boarding_ratio_dm_def: Mapping[str, int]
    boarding_losses: Mapping[SuccessLevel, BoardingLoss]
    pc_survival: Mapping[SuccessLevel, tuple[Difficulty, tuple[str, ...]]]
    pc_mirror: Mapping[SuccessLevel, SuccessLevel]
    explosion_same_hex_divisor: int
    explosion_adjacent_divisor: int
    explosion_min_ucp: int
    sensor_adjacent_shift: int
    active_shift_conditions: frozenset[str]
    """Conditions that make an active-sensor detection one level harder (§2.14)."""
    densitometer_shift_conditions: frozenset[str]
    """Conditions that make a densitometer detection one level harder (§2.14)."""
    neutrino_dm: Mapping[EmLevel, int]
    densitometer_dm: Mapping[SizeClass, int]
    detection_range_dm: bool
    detection_beyond_range_dm: int
    """Detection DM beyond the to-hit maximum range (TR-R5 option)."""
    ships: Mapping[str, ShipDesign]
    scenarios: Mapping[str, Scenario]

    def hull_inop_has(self, effect: str) -> bool:
        """Whether hull-inoperative effect ``effect`` is in play (§2.10)."""
        return effect in self.hull_inop_effects

    def target(self, difficulty: Difficulty) -> int:
        """Target number of ``difficulty`` (TR-R1)."""
        return self.difficulty_targets[difficulty]

    def success_level(self, margin: int) -> SuccessLevel:
        """Success level of a margin (TR-R1)."""
        for level, low, high in self.success_levels:
            if (low is None or margin >= low) and (high is None or margin <= high):
                return level
        raise KeyError(margin)
