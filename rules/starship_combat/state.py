"""Battle state: plain, versioned, serialisable data (style guide §5.4) and derived values.

Derived values (current G, power steps, agility, DefDM, ...) are functions of a ship's counters
and its design's damage record (§2.4, TR-R4, TR-R11, TR-R15, TR-R16, TR-R17).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from wargym.rules.errors import StateError, short_repr
from wargym.rules.serial import from_jsonable, to_jsonable
from wargym.rules.starship_combat.damage_record import DamageRecord, build_damage_record
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.records import ShipDesign, WeaponMount
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.state_checks import MAX_NUMBER, bounded, counters, in_range, refer

STATE_VERSION = 1


@dataclass(frozen=True, slots=True)
class Options:
    """Named options; the defaults are the digest's rulings (D-1..D-15, TR-R5, TR-R7)."""

    batched: bool = True
    """D-2: batched to-hit and penetration (§2.1); False rolls per battery."""
    literal_bare_success: bool = False
    """D-3: a bare success gives 0 % as the literal source (default 10 %, TR-R7)."""
    sequential_thresholds: bool = False
    """D-4: destroyed counts after the inoperative boxes (sequential rows), not cumulative."""
    ecp_rounded_rows: bool = False
    """D-5 / TR-R12: destroyed = 2 x rounded rows (Liikargi maneuver 44) instead of 42."""
    sensors: bool = False
    """TR-R5 / §2.14: optional sensor rules with detection and fog of war."""
    remote_fire_guidance: bool = True
    """§2.18 / TR-R14: a sensorless ship fires on friendly data at DM -1."""
    boarding: bool = True
    """§2.17 / TR-R22: quick boarding orders."""
    black_globes: bool = True
    """TR-R24: black globes in play (flicker orders)."""
    fire_after_movement: bool = False
    """Plot fire after movement is resolved (two order phases) instead of TR-R3's single phase."""
    max_rounds: int = 0
    """Truncation round (TR-R25); 0 takes the table value (30)."""
    nuclear_missiles: bool | None = None
    """Override of the scenario flag turning conventional missiles nuclear (TR-R9)."""


@dataclass(slots=True)
class FireOrder:
    """Batteries of one weapon type ordered to fire at one target (TR-R3)."""

    weapon: str
    target: int
    batteries: int


@dataclass(slots=True)
class ShipOrders:
    """One ship's orders for the round, built decision by decision (TR-R3)."""

    heading: int | None = None
    accel_dir: int | None = None
    accel_mag: int | None = None
    flicker: int | None = None
    fire: list[FireOrder] = field(default_factory=list)
    weapons_done: list[str] = field(default_factory=list)
    board_done: bool = False
    board_target: int | None = None
    board_tenths: int | None = None
    """Tenths of the troops committed to the boarding (TR-R22); None until decided."""


@dataclass(slots=True)
class ShipState:
    """A ship or fighter squadron in play (§2.13 record counters, TR-R4 position)."""

    id: int
    side: int
    design: str
    craft: int
    pos: tuple[int, int]
    vel: tuple[int, int]
    heading: int
    gunnery: int
    tactics: int
    troop_quality: str
    armor: int
    weapons: dict[str, int]
    screens: dict[str, int]
    computer: int
    sensors: int
    crew: int
    frozen_watch: int
    fuel: int
    troops: int
    hull_dmg: int = 0
    maneuver_dmg: int = 0
    jump_dmg: int = 0
    power_dmg: int = 0
    leak: str = ""
    leak_turns: int = 0
    flicker: int = 0
    bridge_hit_round: int = -1
    destroyed: bool = False
    captured: bool = False
    disengaged: bool = False
    out: str = ""


PHASES = ("orders", "fire_orders")
"""Order phases of a round: orders (TR-R3) and, with ``fire_after_movement``, fire orders."""


@dataclass
class BattleState:
    """The whole battle: ships, round, orders being plotted, detection and result (TR-R3)."""

    scenario: str
    options: Options
    ships: list[ShipState]
    round: int = 1
    phase: str = "orders"
    """One of :data:`PHASES`."""
    orders: dict[int, ShipOrders] = field(default_factory=dict)
    detected: dict[int, list[int]] = field(default_factory=dict)
    nuke_hexes: list[tuple[int, int]] = field(default_factory=list)
    over: bool = False
    winner: int | None = None
    end_reason: str = ""
    nuclear_missiles: bool = False

    def __post_init__(self) -> None:
        self._memo: dict[int, Any] = {}

    def touch(self) -> None:
        """Forget cached decisions; call after writing to the state outside the engine."""
        self._memo.clear()

    def clone(self) -> BattleState:
        """A deep, independent copy (for search and what-if); caches are not shared."""
        twin = copy.copy(self)
        twin._memo = {}
        twin.ships = [_clone_ship(s) for s in self.ships]
        twin.orders = {k: _clone_orders(o) for k, o in self.orders.items()}
        twin.detected = {k: list(v) for k, v in self.detected.items()}
        twin.nuke_hexes = list(self.nuke_hexes)
        return twin

    def to_dict(self) -> dict[str, Any]:
        """Stable JSON data, versioned: ``{"version": 1, ...}``."""
        data: dict[str, Any] = to_jsonable(self)
        return {"version": STATE_VERSION, **data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleState:
        """Rebuild a state from :meth:`to_dict` output; rejects other versions.

        Raises:
            StateError: another version, a malformed field or an unknown ``phase`` (named).
        """
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise StateError(f"expected a version {STATE_VERSION} state")
        body = {k: v for k, v in data.items() if k != "version"}
        bounded("state", body)
        state = from_jsonable(cls, body, "state")
        assert isinstance(state, BattleState)
        if state.phase not in PHASES:
            raise StateError(f"state.phase: {short_repr(state.phase)} is not one of {list(PHASES)}")
        check_state(state)
        return state

    def ship(self, ship_id: int) -> ShipState:
        """The ship with id ``ship_id``."""
        return self.ships[ship_id]

    def side_ships(self, side: int) -> list[ShipState]:
        """Ships of ``side`` in id order."""
        return [s for s in self.ships if s.side == side]


def check_state(state: BattleState) -> None:
    """Raise StateError naming the first field of ``state`` outside the rules (issue 21).

    Ships of packaged designs with counters within their damage record, references (ship ids
    of orders, fire targets, detections; weapon and screen names) that resolve, a round within
    bounds. Numbers are bounded before (:func:`~wargym.rules.state_checks.bounded`).
    """
    rules = load_rules()
    refer("state.scenario", state.scenario, rules.scenarios, "scenario")
    deployed = [
        (side, d) for side, ds in enumerate(rules.scenarios[state.scenario].sides) for d in ds
    ]
    if len(state.ships) != len(deployed):
        raise StateError(
            f"state.ships: {len(state.ships)} ships; the scenario deploys {len(deployed)}"
        )
    ids = range(len(state.ships))
    for i, (ship, (side, dep)) in enumerate(zip(state.ships, deployed, strict=True)):
        where = f"state.ships[{i}]"
        in_range(f"{where}.id", ship.id, i, i)
        in_range(f"{where}.side", ship.side, side, side)
        refer(f"{where}.design", ship.design, (dep.design,), "design deployed here")
        in_range(f"{where}.craft", ship.craft, 0, dep.craft)
        rec = record_of(ship.design)
        counters(f"{where}.weapons", ship.weapons, dict(rec.weapons), "weapon")
        counters(f"{where}.screens", ship.screens, dict(rec.screens), "screen")
        in_range(f"{where}.heading", ship.heading, 0, 5)
        for name in ("armor", "computer", "sensors", "crew", "frozen_watch", "troops", "fuel",
                     "hull_dmg", "maneuver_dmg", "jump_dmg", "power_dmg", "leak_turns",
                     "flicker"):  # fmt: skip
            in_range(f"{where}.{name}", getattr(ship, name), 0, MAX_NUMBER)
    in_range("state.round", state.round, 1, MAX_NUMBER)
    for ship_id, orders in state.orders.items():
        where = f"state.orders.{ship_id}"
        refer(where, ship_id, ids, "ship id")
        in_range(f"{where}.heading", orders.heading, 0, 5, none=True)
        in_range(f"{where}.accel_dir", orders.accel_dir, 0, 5, none=True)
        in_range(f"{where}.accel_mag", orders.accel_mag, 0, 100, none=True)
        in_range(f"{where}.board_target", orders.board_target, 0, len(ids) - 1, none=True)
        in_range(f"{where}.board_tenths", orders.board_tenths, 1, 10, none=True)
        weapons = dict(record_of(state.ships[ship_id].design).weapons)
        for k, name in enumerate(orders.weapons_done):
            refer(f"{where}.weapons_done[{k}]", name, weapons, "weapon")
        for k, fire in enumerate(orders.fire):
            refer(f"{where}.fire[{k}].weapon", fire.weapon, weapons, "weapon")
            refer(f"{where}.fire[{k}].target", fire.target, ids, "ship id")
            in_range(f"{where}.fire[{k}].batteries", fire.batteries, 0, MAX_NUMBER)
    for side, seen in state.detected.items():
        refer(f"state.detected.{side}", side, (0, 1), "side")
        for k, ship_id in enumerate(seen):
            refer(f"state.detected.{side}[{k}]", ship_id, ids, "ship id")
    in_range("state.winner", state.winner, 0, 1, none=True)


_SHIP_FIELDS = tuple(f.name for f in fields(ShipState))
_SHIP_DICTS = ("weapons", "screens")
"""The mutable fields of a ship (dicts of int counters); every other field is immutable."""
_STATE_FIELDS = frozenset(f.name for f in fields(BattleState))
assert {
    "scenario", "options", "ships", "round", "phase", "orders", "detected", "nuke_hexes",
    "over", "winner", "end_reason", "nuclear_missiles",
} == _STATE_FIELDS, "BattleState.clone copies these fields by hand: update it"  # fmt: skip


def _clone_ship(ship: ShipState) -> ShipState:
    """An independent copy of ``ship`` (what ``copy.deepcopy`` gives, without its overhead)."""
    twin = object.__new__(ShipState)
    for name in _SHIP_FIELDS:
        value = getattr(ship, name)
        if name in _SHIP_DICTS:
            value = dict(value)
        elif type(value) not in _IMMUTABLE and not _int_tuple(value):
            value = copy.deepcopy(value)
        object.__setattr__(twin, name, value)
    return twin


_IMMUTABLE = frozenset({int, str, bool, float, type(None)})


def _int_tuple(value: object) -> bool:
    return type(value) is tuple and all(type(x) is int for x in value)


def _clone_orders(orders: ShipOrders) -> ShipOrders:
    """An independent copy of one ship's orders."""
    return ShipOrders(
        orders.heading,
        orders.accel_dir,
        orders.accel_mag,
        orders.flicker,
        [FireOrder(f.weapon, f.target, f.batteries) for f in orders.fire],
        list(orders.weapons_done),
        orders.board_done,
        orders.board_target,
        orders.board_tenths,
    )


@cache
def record_of(design: str) -> DamageRecord:
    """Cached damage record of a design (§2.13)."""
    rules = load_rules()
    return build_damage_record(rules.ships[design], rules)


def design_of(ship: ShipState) -> ShipDesign:
    """The ship's design."""
    return load_rules().ships[ship.design]


@cache
def _mounts(design: str) -> dict[str, WeaponMount]:
    return {m.key: m for m in load_rules().ships[design].weapons}


def mount(ship: ShipState, key: str) -> WeaponMount:
    """The design's weapon mount ``key``."""
    return _mounts(ship.design)[key]


def destroyed_at(inop: int, destroyed: int, options: Options) -> int:
    """Destroyed threshold: cumulative (TR-R11) or after the inop boxes (D-4 option)."""
    return inop + destroyed if options.sequential_thresholds else destroyed


_DRIVE_TRACKS = frozenset({"maneuver", "jump", "power"})


def drive_destroyed(ship: ShipState, track: str, options: Options) -> int:
    """Destroyed value of a drive track (TR-R12; D-5 option uses the rounded rows)."""
    rec = record_of(ship.design)
    if track not in _DRIVE_TRACKS:
        raise KeyError(track)
    t = getattr(rec, track)
    if t is None:
        return 0
    value = t.alt_destroyed if options.ecp_rounded_rows else t.destroyed
    return destroyed_at(t.inop_total, value, options)


def hull_limits(ship: ShipState, options: Options) -> tuple[int, int]:
    """Hull (inop, destroyed) thresholds; pooled over the craft for a squadron (§2.15)."""
    rec = record_of(ship.design)
    n = max(1, ship.craft)
    inop, dest = rec.hull_inop * n, rec.hull_destroyed * n
    return inop, destroyed_at(inop, dest, options)


def hull_inop(ship: ShipState, options: Options) -> bool:
    """Whether the hull (or the squadron pool) is inoperative (§2.10, TR-R11)."""
    return ship.hull_dmg >= hull_limits(ship, options)[0]


def limited_heading(ship: ShipState, rules: RuleSet, options: Options) -> bool:
    """Whether heading changes are limited to one hexside a round (§2.10, TR-R18)."""
    inop = hull_inop(ship, options) and ship.craft == 0
    return inop and rules.hull_inop_has("heading_change_limited")


def power_steps(ship: ShipState, rules: RuleSet, options: Options) -> int:
    """Tens of percent of power lost; 10 if destroyed or out of fuel (TR-R11, TR-R16, TR-R17)."""
    rec = record_of(ship.design)
    if ship.power_dmg >= drive_destroyed(ship, "power", options) or ship.fuel <= 0:
        return rules.power_steps
    return min(rules.power_steps, ship.power_dmg // rec.power.per_unit)


def current_g(ship: ShipState, rules: RuleSet, options: Options) -> int:
    """Current maneuver G (TR-R4)."""
    rec = record_of(ship.design)
    if ship.maneuver_dmg >= drive_destroyed(ship, "maneuver", options):
        return 0
    g = max(0, design_of(ship).maneuver_g - ship.maneuver_dmg // rec.maneuver.per_unit)
    if hull_inop(ship, options) and rules.hull_inop_has("max_g_1"):
        g = min(g, 1)
    if power_steps(ship, rules, options) >= rules.power_screens_off:
        g = 0
    return g


def agility(ship: ShipState, rules: RuleSet, options: Options) -> int:
    """Current agility: -2 per power step, 0 with the hull inoperative (§2.4, TR-R15)."""
    if hull_inop(ship, options) and ship.craft == 0 and rules.hull_inop_has("agility_zero"):
        return 0
    base = design_of(ship).agility
    return max(0, base + rules.agility_per_power_step * power_steps(ship, rules, options))


def def_dm(ship: ShipState, rules: RuleSet, options: Options) -> int:
    """Current DefDM = UCP DefDM - agility lost (TR-R15)."""
    design = design_of(ship)
    return design.def_dm - (design.agility - agility(ship, rules, options))


def operational_craft(ship: ShipState, options: Options) -> int:
    """Fighters' worth of firepower of a squadron (TR-R21); 0 once inoperative."""
    inop, _dest = hull_limits(ship, options)
    if ship.hull_dmg >= inop:
        return 0
    return -(-ship.craft * (inop - ship.hull_dmg) // inop)


def battery_count(ship: ShipState, key: str, options: Options) -> int:
    """Batteries of weapon type ``key`` now (single-battery types: 1 while any box is left)."""
    m = mount(ship, key)
    if ship.craft:
        return operational_craft(ship, options) * m.batteries
    boxes = ship.weapons.get(key, 0)
    return (1 if boxes > 0 else 0) if m.batteries == 1 else boxes


def weapon_factor(ship: ShipState, key: str) -> int:
    """Current UCP factor: single-battery types lose factor with their boxes (§2.4)."""
    m = mount(ship, key)
    if ship.craft or m.batteries > 1:
        return m.factor
    return ship.weapons.get(key, 0)


def bearing_count(ship: ShipState, key: str, options: Options) -> int:
    """Bearing batteries now: the UCP Bear, at most the batteries left (TR-R20)."""
    m = mount(ship, key)
    bear = m.bearing * max(1, operational_craft(ship, options)) if ship.craft else m.bearing
    return min(bear, battery_count(ship, key, options))
