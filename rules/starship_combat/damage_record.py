"""Generation of a ship's damage record from its UCP (§2.12, §2.13, TR-R12, TR-R27).

>>> from wargym.rules.starship_combat.data import load_rules
>>> rules = load_rules()
>>> record = build_damage_record(rules.ships["liikargi_heavy_escort"], rules)
>>> record.hull_inop, record.hull_destroyed, record.maneuver.per_unit, record.maneuver.destroyed
(20, 50, 11, 42)
>>> record.power.per_unit, record.fuel.total_days
(5, 47)
"""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.starship_combat.records import ShipDesign, band_lookup
from wargym.rules.starship_combat.ruleset import RuleSet


def ceil_div(a: int, b: int) -> int:
    """Integer ceiling of ``a / b`` for ``b > 0`` ("round up", TR-R27)."""
    return -(-a // b)


def round_half_up_div(a: int, b: int) -> int:
    """Nearest integer of ``a / b`` for non-negative values (fuel conversions, TR-R27)."""
    return (2 * a + b) // (2 * b)


@dataclass(frozen=True, slots=True)
class DriveTrack:
    """A DP track counted per unit (gee, parsec, 10 % of power) (§2.12, TR-R12)."""

    base_per_unit: int
    per_unit: int
    units: int
    inop_total: int
    destroyed: int
    alt_destroyed: int
    """The alternative reading of TR-R12: 2 x the rounded rows (Liikargi maneuver 44)."""


@dataclass(frozen=True, slots=True)
class FuelRecord:
    """The fuel-day boxes and their arithmetic (§2.13 fuel, TR-R27 nearest rounding)."""

    jump_units: int
    jump_drive_kl: int
    jump_fuel_kl: int
    power_plant_fuel_kl: int
    kl_per_day: int
    jump_fuel_days: int
    power_plant_days: int
    total_days: int


@dataclass(frozen=True, slots=True)
class DamageRecord:
    """The filled-out damage record of one design (§2.13)."""

    armor: int
    crossed_off_armor: int
    hull_inop: int
    hull_destroyed: int
    maneuver: DriveTrack
    jump: DriveTrack | None
    power: DriveTrack
    power_hp_key: int
    """MT inop hit points used to key the power table (divided by 1.5 with ECP)."""
    weapons: tuple[tuple[str, int], ...]
    """Boxes per weapon type: batteries, or the UCP for a single-battery type."""
    screens: tuple[tuple[str, int], ...]
    computer: int
    sensors: int
    crew: int
    frozen_watch: int
    fuel: FuelRecord


def _band_row(bands_low_high: list[tuple[int, int | None]], x: int) -> int:
    for index, (low, high) in enumerate(bands_low_high):
        if x >= low and (high is None or x <= high):
            return index
    raise KeyError(x)


def hull_points(displacement: int, rules: RuleSet) -> tuple[int, int]:
    """Hull (inop, destroyed) by displacement (§2.12 hull table, TR-R27 rows)."""
    rows = [(b.low, b.high) for b in rules.hull_bands]
    band = rules.hull_bands[_band_row(rows, displacement)]
    return band.inop, band.destroyed


def drive_track(base_per_unit: int, units: int, ecp: bool, rules: RuleSet) -> DriveTrack:
    """Per-unit and destroyed values of a drive track with optional ECP (§2.12, TR-R12)."""
    mult = rules.drive_destroyed_multiplier
    if ecp:
        per_unit = ceil_div(base_per_unit * rules.ecp_tenths, 10)
        destroyed = ceil_div(mult * base_per_unit * units * rules.ecp_tenths, 10)
    else:
        per_unit = base_per_unit
        destroyed = mult * base_per_unit * units
    return DriveTrack(
        base_per_unit, per_unit, units, per_unit * units, destroyed, mult * per_unit * units
    )


def power_hp_key(mt_inop_hp: int, ecp: bool, rules: RuleSet) -> int:
    """MT power inop hit points used as the table key: / 1.5 (floored) with ECP (§2.12)."""
    return (mt_inop_hp * 10) // rules.ecp_tenths if ecp else mt_inop_hp


def fuel_record(design: ShipDesign, rules: RuleSet) -> FuelRecord:
    """Fuel days including jump fuel converted to power-plant days (§2.13, TR-R27)."""
    drive_kl = design.jump_units * rules.jump_drive_kl_per_unit_tenths // 10
    jump_fuel = drive_kl * rules.jump_fuel_per_drive_kl
    pp_fuel = design.fuel_kl - jump_fuel
    if pp_fuel <= 0:
        raise ValueError(f"{design.key}: fuel {design.fuel_kl} kl does not exceed jump fuel")
    per_day = max(1, round_half_up_div(pp_fuel, design.power_duration_days))
    jump_days = round_half_up_div(jump_fuel, per_day)
    return FuelRecord(
        design.jump_units, drive_kl, jump_fuel, pp_fuel, per_day, jump_days,
        design.power_duration_days, design.power_duration_days + jump_days,
    )  # fmt: skip


def weapon_boxes(batteries: int, factor: int) -> int:
    """Boxes of a weapon type: one per battery, or one per UCP level if single (§2.12)."""
    return factor if batteries == 1 else batteries


def build_damage_record(design: ShipDesign, rules: RuleSet) -> DamageRecord:
    """Fill out the damage record of ``design`` exactly as the source's procedure (§2.13)."""
    inop, destroyed = hull_points(design.displacement, rules)
    man_base = band_lookup(rules.maneuver_bands, design.displacement)
    maneuver = drive_track(man_base, design.maneuver_g, design.ecp, rules)
    jump = None
    if design.jump > 0:
        jump_base = band_lookup(rules.jump_bands, design.displacement)
        jump = drive_track(jump_base, design.jump, design.ecp, rules)
    key = power_hp_key(design.mt_inop_hp("power"), design.ecp, rules)
    power = drive_track(band_lookup(rules.power_bands, key), rules.power_steps, design.ecp, rules)
    weapons = tuple((w.key, weapon_boxes(w.batteries, w.factor)) for w in design.weapons)
    screens = tuple((kind.value, factor) for kind, factor in design.screens)
    if design.black_globe_max_pct:
        screens += (("black_globe", design.black_globe_max_pct // rules.flicker_step_pct),)
    return DamageRecord(
        armor=design.armor,
        crossed_off_armor=rules.armor_form_boxes - design.armor,
        hull_inop=inop,
        hull_destroyed=destroyed,
        maneuver=maneuver,
        jump=jump,
        power=power,
        power_hp_key=key,
        weapons=weapons,
        screens=screens,
        computer=design.computer_model,
        sensors=sum(count for _name, count in design.sensors),
        crew=min(design.crew_segments, rules.crew_form_boxes),
        frozen_watch=design.frozen_watch_segments,
        fuel=fuel_record(design, rules),
    )
