"""Capacitors, the capacitor record, control, screens and radar of a ship (PW-R10..R12, R17).

The capacitor record of the current turn is ``ShipState.power``: line 1
``capacitors_available`` and one entry per use line (2..12); line 13, the total discharged, is
:func:`total_discharged` and may never exceed line 1 (PW-R11).
"""

from __future__ import annotations

from wargym.rules.errors import IllegalActionError
from wargym.rules.pentagon_war.records import Category, RuleSet, ScreenType, ShipDesign, SystemSpec
from wargym.rules.pentagon_war.state import ShipState
from wargym.rules.pentagon_war.weapons import radar_range, radar_rating

AVAILABLE = "capacitors_available"
POWER_LOST = "power_lost_to_damage"
RECORD_LINES = (
    AVAILABLE,
    "radar_invisibility",
    "ecm",
    "eccm",
    "double_magnetic_beam",
    "fire_mag_beam_at_lmgb",
    "rail_launch_missile",
    "reinforce_screens",
    "fire_laser",
    "fire_proton_cannon",
    "fire_electron_cannon",
    POWER_LOST,
)
"""Lines 1..12 of the capacitor record (§2.9.1)."""


_NAMES: dict[str, tuple[tuple[SystemSpec, ...], dict[str, tuple[str, ...]]]] = {}
"""Per design key: its systems tuple and the system names per category name (a lookup cache)."""


def category_names(design: ShipDesign, category: Category) -> tuple[str, ...]:
    """Names of the design's systems of ``category``, in SSD order (cached per design)."""
    cached = _NAMES.get(design.key)
    if cached is None or cached[0] is not design.systems:
        table: dict[str, list[str]] = {}
        for spec in design.systems:
            table.setdefault(spec.category._name_, []).append(spec.name)
        cached = (design.systems, {k: tuple(v) for k, v in table.items()})
        _NAMES[design.key] = cached
    # keyed by the member name: Enum.__hash__ is a Python-level call, str hashing is not
    return cached[1].get(category._name_, ())


def intact_in(ship: ShipState, design: ShipDesign, category: Category) -> int:
    """Intact boxes of every system of ``category``."""
    intact = ship.intact
    return sum([intact[name] for name in category_names(design, category)])


def capacity(ship: ShipState, design: ShipDesign) -> int:
    """Capacitor capacity: one charge per intact Capacitor box (PW-R11)."""
    return intact_in(ship, design, Category.CAPACITOR)


def turn_charges(rules: RuleSet, cap: int, turn: int, alert_status: int) -> int:
    """Line 1 at the start of a turn: full recharge, turn 1 set by the alert status (PW-R11)."""
    if turn > 1:
        return cap
    rule = rules.systems.alert_status_turn_1[alert_status]
    if rule == "none":
        return 0
    if rule == "ceil_half":
        return -(-cap // 2)
    return cap


def new_record(charges: int) -> dict[str, int]:
    """A blank capacitor record column for a turn with ``charges`` available (§2.9.1)."""
    record = dict.fromkeys(RECORD_LINES, 0)
    record[AVAILABLE] = charges
    return record


def total_discharged(record: dict[str, int]) -> int:
    """Line 13: the sum of lines 2..12 (§2.9.1)."""
    return sum(value for line, value in record.items() if line != AVAILABLE)


def cost(rules: RuleSet, line: str, count: int = 1) -> int:
    """Charges for ``count`` uses of a capacitor line (PW-R11)."""
    return rules.systems.costs[line] * count


def spend(ship: ShipState, rules: RuleSet, line: str, count: int = 1) -> int:
    """Record ``count`` uses of ``line`` and pay for them; illegal if charges run short (PW-R11)."""
    charges = cost(rules, line, count)
    if charges > ship.charges:
        raise IllegalActionError(
            f"ship {ship.id}: {line} needs {charges} charges, {ship.charges} left (PW-R11)"
        )
    ship.charges -= charges
    ship.power[line] = ship.power.get(line, 0) + charges
    return charges


def lose_power(ship: ShipState, rules: RuleSet) -> int:
    """A Capacitor box destroyed: lose unspent charge, line 12 (PW-R11)."""
    lost = min(ship.charges, rules.systems.power_lost_per_capacitor_box)
    ship.charges -= lost
    ship.power[POWER_LOST] = ship.power.get(POWER_LOST, 0) + lost
    return lost


def in_control(ship: ShipState, design: ShipDesign) -> bool:
    """In control while any Main Ctrl or Aux Ctrl box is intact (PW-R12)."""
    names = _CONTROL.get(design.key)
    if names is None or names[0] is not design.systems:
        found = category_names(design, Category.MAIN_CONTROL)
        names = _CONTROL[design.key] = (
            design.systems,
            found + category_names(design, Category.AUXILIARY_CONTROL),
        )
    intact = ship.intact
    return sum([intact[name] for name in names[1]]) > 0


_CONTROL: dict[str, tuple[tuple[SystemSpec, ...], tuple[str, ...]]] = {}
"""Per design key: its systems tuple and the names of its Main and Aux Ctrl systems."""


def ship_radar_rating(ship: ShipState, design: ShipDesign) -> int:
    """Radar rating from the track and the boxes destroyed (PW-R12)."""
    return radar_rating(design.radar_track, ship.radar_destroyed)


def ship_radar_range(ship: ShipState, design: ShipDesign, rules: RuleSet) -> int:
    """Maximum fire range ``2 ** rating``, capped at 4 while radar-invisible (PW-R12, R17)."""
    reach = radar_range(ship_radar_rating(ship, design))
    if ship.invisible:
        reach = min(reach, rules.systems.invisibility_own_radar_cap)
    return reach


def screen_strength(ship: ShipState, design: ShipDesign, rules: RuleSet, row: int) -> int:
    """Screen strength on armor row ``row`` (1..6), with reinforcement (PW-R10)."""
    if design.screens is ScreenType.NONE or intact_in(ship, design, Category.SCREEN) == 0:
        return 0
    if design.screens is ScreenType.NORMAL:
        return rules.systems.normal_screen + ship.reinforce
    if row == ship.screen_row:
        return rules.systems.directional_screen + ship.reinforce
    return rules.systems.directional_other_rows


def thrust_points(ship: ShipState, design: ShipDesign) -> int:
    """Thrust rating per turn: floor(intact Engine boxes / mass class) (PW-R5)."""
    return intact_in(ship, design, Category.ENGINE) // max(1, design.mass_class)
