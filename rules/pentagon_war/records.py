"""Vocabulary and immutable records of *The Pentagon War* (weapons, ship displays, scenarios).

Everything here is built from the YAML under ``configs/rules/pentagon_war`` by
:mod:`wargym.rules.pentagon_war.data`; nothing is mutable. The evolving battle lives in
:mod:`wargym.rules.pentagon_war.state`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

from wargym.rules.tables import BandTable


class Category(enum.Enum):
    """Results of the damage allocation chart, i.e. system categories (PW-R13)."""

    FORWARD_HULL = "forward_hull"
    """Fwd Hull boxes: absorb damage only."""
    AFT_HULL = "aft_hull"
    """Aft Hull boxes: absorb damage only."""
    CARGO = "cargo"
    """Cargo holds: absorb damage only."""
    ENGINE = "engine"
    """Engines: thrust rating floor(intact / mass class) (PW-R5)."""
    POINT_DEFENSE = "point_defense"
    """Point defence: engages arriving missiles (PW-R15); a weapon category."""
    LASER = "laser"
    """Any laser (PW-R13)."""
    CAPACITOR = "capacitor"
    """Capacitors: one charge per intact box (PW-R11)."""
    RADAR = "radar"
    """Radar track boxes (PW-R12)."""
    MISSILE = "missile"
    """Missile launchers (PW-R15)."""
    GUN = "gun"
    """Any system whose name ends in "Gun": radiation, liquid metal, acid gum (PW-R13)."""
    MAIN_CONTROL = "main_control"
    """Main Ctrl: in control while any control box is intact (PW-R12)."""
    AUXILIARY_CONTROL = "auxiliary_control"
    """Aux Ctrl: the second control system (PW-R12)."""
    MAGNETIC_BEAM = "magnetic_beam"
    """Mag beams: liquid-metal-gun deflection (PW-R16)."""
    DRONE = "drone"
    """Drones: absorb damage only in the core game (PW-R18)."""
    SCREEN = "screen"
    """Screens, normal or directional (PW-R10)."""
    REPAIR = "repair"
    """Repair systems: absorb damage; optional repair rule (PW-R18)."""
    ELECTRON_CANNON = "electron_cannon"
    """Any electron cannon."""
    PROTON_CANNON = "proton_cannon"
    """Any proton cannon."""
    FUEL_TANK = "fuel_tank"
    """Fuel tanks: absorb damage; optional fuel rule (PW-R18)."""
    ANY_WEAPON = "any_weapon"
    """Chart result only: one box of any weapon category (PW-R13)."""


class WeaponMode(enum.Enum):
    """How a weapon's roll becomes damage (Pentagon War, 'Weapons Tables')."""

    ROLL_TABLE = "roll_table"
    """Damage read from the modified roll (lasers, radiation guns)."""
    HIT_THEN_RANGE_TABLE = "hit_then_range_table"
    """Hit on the hit number, damage read from the range (cannons, liquid metal gun)."""
    HIT_THEN_DOT = "hit_then_dot"
    """Hit on the hit number, then damage over several impulses (acid gum)."""


class ScreenType(enum.Enum):
    """Kind of screens a ship carries (PW-R10)."""

    NONE = "none"
    """No screens."""
    NORMAL = "normal"
    """Strength 1 on all six rows."""
    DIRECTIONAL = "directional"
    """Strength 2 on one designated row, 0 elsewhere."""


@dataclass(frozen=True, slots=True)
class RangeBand:
    """One column of a damage-by-range table (Pentagon War, 'Weapons Tables')."""

    range_min: int
    range_max: int | None
    damage: int
    cannot_hit_size_class_0: bool = False


@dataclass(frozen=True, slots=True)
class WeaponType:
    """A weapon type with its tables and capacitor line (Pentagon War, 'Weapons Tables')."""

    name: str
    category: Category
    mode: WeaponMode
    capacitor_line: str | None
    hit_number: int | None = None
    size_class_0_kill_at_least: int | None = None
    roll_table: BandTable | None = None
    range_table: tuple[RangeBand, ...] = ()
    damage_per_impulse: int = 0
    impulses: int = 0
    screened_packets: int = 0
    deflectable_by_magnetic_beam: bool = False

    def range_band(self, rng: int) -> RangeBand:
        """The range column holding ``rng``."""
        for band in self.range_table:
            if rng >= band.range_min and (band.range_max is None or rng <= band.range_max):
                return band
        raise ValueError(f"{self.name}: no range band holds {rng}")


@dataclass(frozen=True, slots=True)
class Arc:
    """A firing arc token such as ``F2`` or ``LF+L``: closed intervals (centre, half) (PW-R7)."""

    token: str
    parts: tuple[tuple[int, int], ...]
    """``(centre_deg, half_width_deg)`` for each ``+``-joined part."""


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """One SSD system row: name, chart category, boxes, and for weapons type and arc (PW-R13)."""

    name: str
    category: Category
    boxes: int
    weapon: str | None = None
    arc: Arc | None = None


_WEAPONS: dict[str, tuple[tuple[SystemSpec, ...], tuple[SystemSpec, ...]]] = {}
"""Memo of each design's weapon tuple (keyed by design key, checked by identity)."""


@dataclass(frozen=True, slots=True)
class ShipDesign:
    """A ship system display (SSD) (Pentagon War, 'Sample SSDs'; PW-R20)."""

    key: str
    name: str
    crew: str
    size_class: int
    mass_class: int
    screens: ScreenType
    armor: tuple[int, ...]
    final_damage: int
    radar_track: tuple[int, ...]
    systems: tuple[SystemSpec, ...]
    linkage_partner: str | None = None
    linkage_blocked_arcs: tuple[str, ...] = ()
    host_berths: int = 0

    def system(self, name: str) -> SystemSpec:
        """The system called ``name``."""
        for spec in self.systems:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.key} has no system {name!r}")

    @property
    def weapons(self) -> tuple[SystemSpec, ...]:
        """Direct-fire weapon systems in SSD order (the fire order of PW-R2)."""
        cached = _WEAPONS.get(self.key)
        if cached is None or cached[0] is not self.systems:
            cached = (self.systems, tuple(s for s in self.systems if s.weapon is not None))
            _WEAPONS[self.key] = cached
        return cached[1]

    @property
    def launchers(self) -> tuple[SystemSpec, ...]:
        """Missile systems (each box a launcher, PW-R15)."""
        return tuple(spec for spec in self.systems if spec.category is Category.MISSILE)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where and how one ship starts a scenario (PW-R21)."""

    design: str
    at: tuple[int, int]
    facing: int
    velocity: tuple[int, int] = (0, 0)
    alert_status: int = 2
    linked_to: int | None = None
    berth: int | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    """A battle set-up selectable by keyword (PW-R21)."""

    key: str
    description: str
    sides: tuple[tuple[Placement, ...], ...]
    random_placement_radius: int | None = None
    options: tuple[tuple[str, bool | int | str], ...] = ()


OppositeSignOrder = Literal["a_then_c", "c_then_a"]
BoxChoice = Literal["random", "ssd_order"]
AcidGumStart = Literal["hit_impulse", "next_impulse"]


@dataclass(frozen=True, slots=True)
class Options:
    """Rulings that have documented alternatives; defaults are the digest's recommendations."""

    max_turns: int = 20
    """Truncation after this many turns (PW-R21, tunable)."""
    map_radius: int | None = 60
    """Radius of the map disc; a ship leaving it is disengaged (PW-R21); None = unbounded."""
    opposite_sign_order: OppositeSignOrder = "a_then_c"
    """Order of the two steps when components move with opposite signs (PW-R3, D-7)."""
    omnidirectional_thrust: bool = False
    """Thrust along any of the six directions instead of the facing (D-9 curriculum flag)."""
    box_choice: BoxChoice = "random"
    """Which box a shared chart category loses: uniform random (PW-R13) or SSD order (D-10)."""
    acid_gum_start: AcidGumStart = "hit_impulse"
    """First acid gum packet on the impulse of the hit [INT, §2.5] or on the next impulse."""
    linkage: bool = False
    """Optional linkage rule (PW-R19): scenario links hold and link/unlink orders are given."""
    repair: bool = False
    """Optional repair rule (PW-R18)."""
    fuel: bool = False
    """Optional fuel rule: no thrust without an intact Fuel Tank box (PW-R18)."""
    missile_magazine: int | None = None
    """Missiles per launcher for the scenario; None = unlimited (PW-R15)."""


@dataclass(frozen=True, slots=True)
class SystemsRules:
    """Capacitor, screen, radar, missile and EW constants (PW-R10..R17, tunable)."""

    alert_status_turn_1: dict[int, str]
    default_alert_status: int
    costs: dict[str, int]
    max_reinforce_screens: int
    power_lost_per_capacitor_box: int
    normal_screen: int
    directional_screen: int
    directional_other_rows: int
    default_radar_track: tuple[int, ...]
    missile_max_range: int
    missile_speed: int
    missile_rail_speed: int
    missile_damage: int
    launches_per_launcher_per_turn: int
    point_defense_kill: int
    mag_deflect: int
    mag_double_deflect: int
    mag_double_boxes: int
    ecm_penalty: int
    invisibility_max_range: int
    invisibility_own_radar_cap: int


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every table of the game, loaded and validated once (see ``data.load_rules``)."""

    urm: BandTable
    max_fire_range: int
    weapon_types: dict[str, WeaponType]
    chart: dict[tuple[int, int], Category]
    max_accepted_rolls: int
    weapon_categories: frozenset[Category]
    armor_centres: tuple[int, ...]
    impulses_per_turn: int
    max_velocity: int
    impulse_chart: tuple[tuple[int, ...], ...]
    thrust_by_facing: tuple[tuple[int, int], ...]
    max_thrust_per_impulse: int
    """Thrust points one order may record along the facing (PW-R5: 1)."""
    arc_bases: dict[str, int]
    arc_half_width: int
    arc_max_width: int
    systems: SystemsRules
    designs: dict[str, ShipDesign]
    scenarios: dict[str, Scenario] = field(default_factory=dict)
