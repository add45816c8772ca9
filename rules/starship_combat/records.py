"""Vocabulary and immutable records of the starship combat engine (Alternate Starship Combat v2).

Ship designs follow the MegaTraveller UCP (§2.13); the rule tables mirror the digest's YAML
blocks. Everything here is frozen data built by :mod:`wargym.rules.starship_combat.data`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Difficulty(enum.Enum):
    """Task difficulty levels of the MT task system (TR-R1)."""

    SIMPLE = "simple"
    """Target 3+."""
    ROUTINE = "routine"
    """Target 7+."""
    DIFFICULT = "difficult"
    """Target 11+."""
    FORMIDABLE = "formidable"
    """Target 15+."""
    IMPOSSIBLE = "impossible"
    """Target 19+."""


DIFFICULTY_ORDER: tuple[Difficulty, ...] = tuple(Difficulty)
"""Difficulties from easiest to hardest: a level shift moves one step (TR-R1)."""


class SuccessLevel(enum.Enum):
    """Success levels by margin (TR-R1)."""

    EXTREME_SUCCESS = "extreme_success"
    """Margin 4 or more (exceptional success, §2.9)."""
    SUCCESS = "success"
    """Margin 0 to 3."""
    FAILURE = "failure"
    """Margin -1 to -3."""
    EXTREME_FAILURE = "extreme_failure"
    """Margin -4 or less."""


class WeaponKind(enum.Enum):
    """Weapon types of the UCP (TR-R8, TR-R9)."""

    MISSILE = "missile"
    """Conventional missile."""
    NUCLEAR_MISSILE = "nuclear_missile"
    """Nuclear missile: x4 damage, radiation."""
    ANTIMATTER_MISSILE = "antimatter_missile"
    """Antimatter missile: x5 damage, radiation."""
    LASER = "laser"
    """Beam or pulse laser."""
    PARTICLE_ACCELERATOR = "particle_accelerator"
    """Particle accelerator: radiation, energy weapon."""
    MESON_GUN = "meson_gun"
    """Meson gun: ignores armour, never damages the hull."""
    FUSION_GUN = "fusion_gun"
    """Fusion gun."""
    PLASMA_GUN = "plasma_gun"
    """Plasma gun."""
    REPULSOR = "repulsor"
    """Defensive battery against missiles."""
    SANDCASTER = "sandcaster"
    """Defensive battery against lasers."""


DEFENSIVE_WEAPONS = frozenset({WeaponKind.REPULSOR, WeaponKind.SANDCASTER})
"""Weapon kinds that defend and never fire at ships (TR-R8)."""
MISSILES = frozenset(
    {WeaponKind.MISSILE, WeaponKind.NUCLEAR_MISSILE, WeaponKind.ANTIMATTER_MISSILE}
)
"""Missile kinds; the scenario flag ``nuclear_missiles`` turns MISSILE nuclear (TR-R9)."""


class ScreenKind(enum.Enum):
    """Screens that take box hits (§2.4, TR-R11)."""

    MESON_SCREEN = "meson_screen"
    """Stops meson guns (TR-R8)."""
    NUCLEAR_DAMPER = "nuclear_damper"
    """Stops nuclear missiles (TR-R8)."""
    BLACK_GLOBE = "black_globe"
    """Absorbs its flicker percentage of each hit (§2.8)."""


class Warhead(enum.Enum):
    """Damage multiplier class (§2.3)."""

    CONVENTIONAL = "conventional"
    """x1."""
    NUCLEAR = "nuclear"
    """x4."""
    ANTIMATTER = "antimatter"
    """x5."""


class SizeClass(enum.Enum):
    """UCP object size (TR-R6)."""

    SMALL = "small"
    """DM -1 to be hit."""
    AVERAGE = "average"
    """DM 0."""
    LARGE = "large"
    """DM +1."""
    VERY_LARGE = "very_large"
    """DM +2."""


class EmLevel(enum.Enum):
    """UCP emission level (§2.14)."""

    FAINT = "faint"
    """Neutrino DM -1."""
    MODERATE = "moderate"
    """Neutrino DM 0."""
    STRONG = "strong"
    """Neutrino DM +1."""


class TableName(enum.Enum):
    """The three damage tables (§2.7)."""

    SURFACE = "surface"
    """Surface hits."""
    INTERIOR = "interior"
    """Interior hits (surface 11-12, meson guns)."""
    RADIATION = "radiation"
    """Radiation hits (25 % of DP, §2.5)."""


class HitResult(enum.Enum):
    """Results of the damage tables (§2.7)."""

    NO_EFFECT = "no_effect"
    """Nothing."""
    WEAPON = "weapon"
    """Weapon boxes."""
    FUEL = "fuel"
    """Fuel-day boxes."""
    MANEUVER = "maneuver"
    """Maneuver drive track."""
    INTERIOR = "interior"
    """Roll on the interior table (hull share)."""
    CRITICAL = "critical"
    """Roll on the critical table (TR-R13)."""
    SCREEN = "screen"
    """Screen boxes."""
    SENSOR = "sensor"
    """Sensor boxes."""
    COMPUTER = "computer"
    """Computer boxes."""
    POWER_PLANT = "power_plant"
    """Power plant track."""
    CREW = "crew"
    """Crew segments."""
    JUMP = "jump"
    """Jump drive track."""
    FUEL_LEAK = "fuel_leak"
    """Start a fuel leak (§2.11)."""


class Critical(enum.Enum):
    """Critical hit results (TR-R13, stands in for the MT table)."""

    BRIDGE_HIT = "bridge_hit_skip_next_round"
    """The ship may not fire or accelerate next round."""
    POWER_PLUS_3 = "power_plus_3_steps"
    """Power plant: three steps of damage."""
    COMPUTER_MINUS_3 = "computer_minus_3"
    """Computer loses three boxes."""
    MANEUVER_INOP = "maneuver_inoperative"
    """Maneuver drive counter set to its inoperative total."""
    CREW_1D = "crew_minus_1d_segments"
    """1D crew segments lost."""
    LOSE_WEAPON_TYPE = "lose_one_weapon_type"
    """Every box of one weapon type lost."""
    LOSE_SENSORS = "lose_all_sensors"
    """Every sensor box lost."""
    FUEL_LEAK_HULL = "fuel_leak_hull_inop_rate"
    """Fuel leak at the hull-inoperative rate."""
    JUMP_INOP = "jump_inoperative"
    """Jump drive counter set to its inoperative total."""
    LOSE_SCREEN_TYPE = "lose_one_screen_type"
    """Every box of one screen type lost."""
    VAPORIZED = "ship_vaporized"
    """The ship is destroyed."""


class TroopQuality(enum.Enum):
    """Troop quality for quick boarding (§2.17)."""

    RECRUIT = "recruit"
    """DM 0."""
    REGULAR = "regular"
    """DM +1."""
    VETERAN = "veteran"
    """DM +2."""
    ELITE = "elite"
    """DM +3."""


@dataclass(frozen=True, slots=True)
class WeaponMount:
    """One weapon type of a UCP: factor, batteries and bearing batteries (§2.13)."""

    key: str
    kind: WeaponKind
    factor: int
    batteries: int
    bearing: int
    spinal: bool = False


@dataclass(frozen=True, slots=True)
class ShipDesign:
    """MT UCP data of one design, as far as the combat rules use it (§2.13)."""

    key: str
    name: str
    source: str
    type_code: str
    tech_level: int
    cost_mcr: int
    configuration: str
    displacement: int
    tons_unloaded: int
    tons_loaded: int
    mt_hit_points: tuple[tuple[str, int, int], ...]
    power_type: str
    power_mw: int
    power_duration_days: int
    power_duration_reduced_days: int
    armor: int
    maneuver_g: int
    jump: int
    jump_units: int
    agility: int
    def_dm: int
    size: SizeClass
    em_level: EmLevel
    ecp: bool
    computer_model: int
    computer_fib: bool
    computer_count: int
    crew_persons: int
    crew_segments: int
    frozen_watch_segments: int
    troops: int
    fuel_kl: int
    cargo_kl: int
    sensors: tuple[tuple[str, int], ...]
    sensor_tasks: tuple[tuple[str, Difficulty], ...]
    weapons: tuple[WeaponMount, ...]
    screens: tuple[tuple[ScreenKind, int], ...]
    black_globe_max_pct: int

    def mt_inop_hp(self, part: str) -> int:
        """MT inoperative hit points of ``part`` (hull, power, jump, maneuver)."""
        for name, inop, _destroyed in self.mt_hit_points:
            if name == part:
                return inop
        raise KeyError(part)

    def sensor_task(self, name: str) -> Difficulty:
        """Difficulty of a UCP sensor task such as ``act_obj_scan``."""
        return dict(self.sensor_tasks)[name]

    def has_sensor(self, name: str) -> bool:
        """Whether the design carries the sensor type ``name`` (e.g. ``neutrino``)."""
        return dict(self.sensors).get(name, 0) > 0


@dataclass(frozen=True, slots=True)
class Band:
    """A row of a range-keyed table: ``low..high`` (``high`` None = open) gives ``value``."""

    low: int
    high: int | None
    value: int

    def holds(self, x: int) -> bool:
        """Whether ``x`` lies in the row."""
        return x >= self.low and (self.high is None or x <= self.high)


def band_lookup(bands: tuple[Band, ...], x: int) -> int:
    """The value of the row holding ``x``."""
    for band in bands:
        if band.holds(x):
            return band.value
    raise KeyError(f"no row holds {x}")


@dataclass(frozen=True, slots=True)
class HullBand:
    """A row of the hull damage point table (§2.12)."""

    low: int
    high: int | None
    inop: int
    destroyed: int


@dataclass(frozen=True, slots=True)
class WeaponProps:
    """Properties of a weapon kind (TR-R9) and the defences it must penetrate (TR-R8)."""

    kind: WeaponKind
    radiation: bool
    energy: bool
    warhead: Warhead
    meson: bool
    defences: tuple[tuple[str, str], ...]
    """(system, kind) pairs: system a WeaponKind or ScreenKind value; kind battery or screen."""


@dataclass(frozen=True, slots=True)
class BoardingLoss:
    """A row of the troop loss table (§2.17)."""

    attacker_pct: int
    defender_pct: int
    defender_crew_segments: int
    defender_crew_dice: int
