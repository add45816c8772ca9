"""Strict loader of the Pentagon War YAML tables into a :class:`RuleSet` (style guide 5.5).

Every error is a :class:`~wargym.rules.errors.TableError` naming the file, key and row.
Custom ship designs go through :func:`parse_design`, which applies the same checks as the
packaged ones (categories, weapon types, arcs, armor rows, cross-references).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from wargym.rules.errors import TableError
from wargym.rules.hexgrid import DIRECTION_NAMES
from wargym.rules.pentagon_war.records import (
    Arc,
    Category,
    Placement,
    RangeBand,
    RuleSet,
    Scenario,
    ScreenType,
    ShipDesign,
    SystemSpec,
    SystemsRules,
    WeaponMode,
    WeaponType,
)
from wargym.rules.tables import Band, BandTable, Node, load_config, parse_yaml

BASE = "rules/pentagon_war/"
CATEGORY_NAMES = tuple(c.value for c in Category)
ARC_BASES = frozenset({"F", "RF", "R", "RR", "AFT", "LR", "L", "LF"})
"""The arc bases of PW-R7 (``arcs.yaml`` gives their centre bearings)."""
ALERT_STATUSES = frozenset({"0", "1", "2"})
"""The alert statuses of the turn-1 capacitor charge table (PW-R10), as ``keys_exactly`` keys."""
MOVEMENT_KEYS = frozenset(
    {
        "impulses_per_turn",
        "max_velocity_component",
        "impulse_chart",
        "thrust_components_by_facing",
        "max_thrust_points_per_impulse",
    }
)
"""Top-level keys of ``movement.yaml`` (PW-R4, PW-R5)."""


def _roll_table(node: Node, name: str, value_key: str, domain: tuple[int, int] | None) -> BandTable:
    low_key, high_key = ("roll_min", "roll_max") if domain is None else ("range_min", "range_max")
    bands = []
    for row in node.rows():
        row.keys_exactly({low_key, high_key, value_key})
        low = None if row[low_key].value is None else row[low_key].as_int()
        high = None if row[high_key].value is None else row[high_key].as_int()
        bands.append(Band(low, high, row[value_key].as_int()))
    try:
        return BandTable(name, tuple(bands), domain)
    except TableError as error:
        raise node.fail(str(error)) from error


def _range_table(node: Node) -> tuple[RangeBand, ...]:
    bands: list[RangeBand] = []
    for row in node.rows():
        row.keys_exactly({"range_min", "range_max", "damage"}, {"cannot_hit_size_class_0"})
        low = row["range_min"].as_int(0)
        high = None if row["range_max"].value is None else row["range_max"].as_int(low)
        expected = 0 if not bands else (bands[-1].range_max or 0) + 1
        if low != expected or (bands and bands[-1].range_max is None):
            raise row.fail(f"range bands must be contiguous from 0; expected {expected}")
        flag = row.get("cannot_hit_size_class_0")
        bands.append(
            RangeBand(low, high, row["damage"].as_int(0), flag.as_bool() if flag else False)
        )
    if not bands or bands[-1].range_max is not None:
        raise node.fail("the last range band must be open above (range_max: null)")
    return tuple(bands)


def parse_weapon_type(name: str, node: Node, capacitor_lines: set[str]) -> WeaponType:
    """Read one weapon type (Pentagon War, 'Weapons Tables'; PW-R14)."""
    common = {"category", "mode", "capacitor_line"}
    mode = WeaponMode(node["mode"].as_str([m.value for m in WeaponMode]))
    if mode is WeaponMode.ROLL_TABLE:
        node.keys_exactly(common | {"size_class_0_kill_at_least", "damage_by_roll"})
    elif mode is WeaponMode.HIT_THEN_RANGE_TABLE:
        node.keys_exactly(
            common | {"hit_number", "damage_by_range"}, {"deflectable_by_magnetic_beam"}
        )
    else:
        node.keys_exactly(
            common | {"hit_number", "damage_per_impulse", "impulses", "screened_packets"}
        )
    line_node = node["capacitor_line"]
    line = None if line_node.value is None else line_node.as_str(sorted(capacitor_lines))
    category = Category(node["category"].as_str(CATEGORY_NAMES))
    deflect = node.get("deflectable_by_magnetic_beam")
    return WeaponType(
        name=name,
        category=category,
        mode=mode,
        capacitor_line=line,
        hit_number=node["hit_number"].as_int(2, 12) if "hit_number" in node else None,
        size_class_0_kill_at_least=(
            node["size_class_0_kill_at_least"].as_int()
            if "size_class_0_kill_at_least" in node
            else None
        ),
        roll_table=(
            _roll_table(node["damage_by_roll"], name, "damage", None)
            if "damage_by_roll" in node
            else None
        ),
        range_table=_range_table(node["damage_by_range"]) if "damage_by_range" in node else (),
        damage_per_impulse=node["damage_per_impulse"].as_int(0) if "impulses" in node else 0,
        impulses=node["impulses"].as_int(1, 12) if "impulses" in node else 0,
        screened_packets=node["screened_packets"].as_int(0) if "impulses" in node else 0,
        deflectable_by_magnetic_beam=deflect.as_bool() if deflect else False,
    )


def parse_arc(token: str, bases: dict[str, int], half: int, max_width: int, node: Node) -> Arc:
    """Parse an arc token such as ``F2`` or ``LF+L`` into closed intervals (PW-R7)."""
    parts = []
    for part in token.split("+"):
        base = part.rstrip("0123456789")
        digits = part[len(base) :]
        if base not in bases:
            raise node.fail(
                f"arc {token!r}: unknown base {base!r}; expected one of {sorted(bases)}"
            )
        width = int(digits) if digits else 1
        if not 1 <= width <= max_width:
            raise node.fail(f"arc {token!r}: width {width} outside 1..{max_width}")
        parts.append((bases[base], half * width))
    return Arc(token, tuple(parts))


def parse_design(
    key: str, node: Node, weapon_types: dict[str, WeaponType], arcs: tuple[dict[str, int], int, int]
) -> ShipDesign:
    """Validate and read one SSD; custom designs use this too (PW-R13, PW-R20)."""
    node.keys_exactly(
        {
            "name",
            "crew",
            "size_class",
            "mass_class",
            "screens",
            "armor",
            "final_damage",
            "radar_track",
            "systems",
        },
        {"linkage", "host_berths"},
    )
    armor = node["armor"].as_ints(0, 99)
    if len(armor) != 6:
        raise node["armor"].fail(f"expected 6 armor rows (#1..#6), got {len(armor)}")
    track = node["radar_track"].as_ints(0, 8)
    if any(b > a for a, b in zip(track, track[1:], strict=False)):
        raise node["radar_track"].fail("radar track values must not increase left to right")
    systems: list[SystemSpec] = []
    for row in node["systems"].rows():
        row.keys_exactly({"name", "category", "boxes"}, {"weapon", "arc"})
        name = row["name"].as_str()
        if any(s.name == name for s in systems):
            raise row.fail(f"duplicate system name {name!r}")
        category = Category(row["category"].as_str(CATEGORY_NAMES))
        if category is Category.ANY_WEAPON:
            raise row.fail("any_weapon is a chart result, not a system category")
        weapon = row["weapon"].as_str(sorted(weapon_types)) if "weapon" in row else None
        arc = None
        if weapon is not None:
            if weapon_types[weapon].category is not category:
                raise row.fail(
                    f"weapon {weapon!r} belongs to category {weapon_types[weapon].category.value}"
                )
            if "arc" not in row:
                raise row.fail("a weapon needs an arc")
            arc = parse_arc(row["arc"].as_str(), *arcs, row["arc"])
        elif "arc" in row:
            raise row.fail("only weapons carry an arc")
        systems.append(SystemSpec(name, category, row["boxes"].as_int(1, 99), weapon, arc))
    screens = ScreenType(node["screens"].as_str([s.value for s in ScreenType]))
    if screens is not ScreenType.NONE and not any(s.category is Category.SCREEN for s in systems):
        raise node["screens"].fail("a ship with screens needs a system of category screen")
    partner: str | None = None
    blocked: tuple[str, ...] = ()
    linkage = node.get("linkage")
    if linkage is not None:
        linkage.keys_exactly({"partner", "blocked_arcs"})
        partner = linkage["partner"].as_str()
        blocked = linkage["blocked_arcs"].as_strs(sorted(arcs[0]))
    return ShipDesign(
        key=key,
        name=node["name"].as_str(),
        crew=node["crew"].as_str(["manned", "unmanned"]),
        size_class=node["size_class"].as_int(1, 9),
        mass_class=node["mass_class"].as_int(0, 9),
        screens=screens,
        armor=armor,
        final_damage=node["final_damage"].as_int(0, 99),
        radar_track=track,
        systems=tuple(systems),
        linkage_partner=partner,
        linkage_blocked_arcs=blocked,
        host_berths=node["host_berths"].as_int(0, 6) if "host_berths" in node else 0,
    )


def _systems(node: Node) -> SystemsRules:
    node.keys_exactly(
        {
            "capacitors",
            "screens",
            "radar",
            "missiles",
            "point_defense",
            "magnetic_beam_defense",
            "electronic_warfare",
        }
    )
    cap = node["capacitors"]
    cap.keys_exactly(
        {
            "alert_status_turn_1",
            "default_alert_status",
            "costs",
            "max_reinforce_screens",
            "power_lost_per_capacitor_box",
        }
    )
    cap["alert_status_turn_1"].keys_exactly(ALERT_STATUSES)
    alert = {
        int(k): v.as_str(["none", "ceil_half", "full"])
        for k, v in cap["alert_status_turn_1"].items()
    }
    costs = {str(k): v.as_int(0, 9) for k, v in cap["costs"].items()}
    scr, msl, pd = node["screens"], node["missiles"], node["point_defense"]
    mag, ew = node["magnetic_beam_defense"], node["electronic_warfare"]
    return SystemsRules(
        alert_status_turn_1=alert,
        default_alert_status=cap["default_alert_status"].as_int(0, 2),
        costs=costs,
        max_reinforce_screens=cap["max_reinforce_screens"].as_int(0, 6),
        power_lost_per_capacitor_box=cap["power_lost_per_capacitor_box"].as_int(0, 6),
        normal_screen=scr["normal_strength"].as_int(0, 9),
        directional_screen=scr["directional_strength"].as_int(0, 9),
        directional_other_rows=scr["directional_other_rows"].as_int(0, 9),
        default_radar_track=node["radar"]["default_track"].as_ints(0, 8),
        missile_max_range=msl["max_range"].as_int(1, 256),
        missile_speed=msl["speed_hexes_per_impulse"].as_int(1, 64),
        missile_rail_speed=msl["rail_speed_hexes_per_impulse"].as_int(1, 64),
        missile_damage=msl["damage"].as_int(0, 99),
        launches_per_launcher_per_turn=msl["launches_per_launcher_per_turn"].as_int(1, 6),
        point_defense_kill=pd["kill_roll_at_least"].as_int(2, 13),
        mag_deflect=mag["deflect_roll_at_least"].as_int(2, 13),
        mag_double_deflect=mag["double_deflect_roll_at_least"].as_int(2, 13),
        mag_double_boxes=mag["double_requires_intact_boxes"].as_int(1, 9),
        ecm_penalty=ew["ecm_penalty"].as_int(0, 12),
        invisibility_max_range=ew["radar_invisibility_max_target_range"].as_int(0, 256),
        invisibility_own_radar_cap=ew["radar_invisibility_own_radar_cap"].as_int(0, 256),
    )


def _placement(row: Node, n_ships: int) -> Placement:
    row.keys_exactly({"design", "at", "facing"}, {"velocity", "alert", "linked_to", "berth"})
    at = row["at"].as_ints()
    vel = row["velocity"].as_ints(-12, 12) if "velocity" in row else (0, 0)
    if len(at) != 2 or len(vel) != 2:
        raise row.fail("'at' and 'velocity' need two integers")
    linked = row["linked_to"].as_int(0, n_ships - 1) if "linked_to" in row else None
    return Placement(
        design=row["design"].as_str(),
        at=(at[0], at[1]),
        facing=DIRECTION_NAMES.index(row["facing"].as_str(DIRECTION_NAMES)),
        velocity=(vel[0], vel[1]),
        alert_status=row["alert"].as_int(0, 2) if "alert" in row else 2,
        linked_to=linked,
        berth=row["berth"].as_int(1, 6) if "berth" in row else None,
    )


def parse_scenario(key: str, node: Node, designs: dict[str, ShipDesign]) -> Scenario:
    """Read one scenario and check its designs and links exist (PW-R21)."""
    node.keys_exactly({"description", "sides"}, {"random_placement_radius", "options"})
    sides = []
    for side in node["sides"].rows():
        ships = tuple(_placement(row, len(side.sequence())) for row in side.rows())
        for row, placement in zip(side.rows(), ships, strict=True):
            if placement.design not in designs:
                raise row.fail(f"unknown design {placement.design!r}")
        sides.append(ships)
    if len(sides) != 2:
        raise node["sides"].fail("a scenario has exactly two sides")
    options: tuple[tuple[str, Any], ...] = ()
    if "options" in node:
        options = tuple((str(k), v.value) for k, v in node["options"].items())
    radius = node.get("random_placement_radius")
    return Scenario(
        key=key,
        description=node["description"].as_str(),
        sides=tuple(sides),
        random_placement_radius=radius.as_int(1, 60) if radius else None,
        options=options,
    )


def load_rules_from(nodes: dict[str, Node]) -> RuleSet:
    """Build a :class:`RuleSet` from parsed documents keyed by file stem."""
    wpn, chart_doc, mov, arcs_doc = (
        nodes["weapons"],
        nodes["damage_chart"],
        nodes["movement"],
        nodes["arcs"],
    )
    systems = _systems(nodes["systems"])
    wpn.keys_exactly({"universal_range_modifier", "max_fire_range", "weapon_types"})
    urm = _roll_table(
        wpn["universal_range_modifier"], "universal_range_modifier", "penalty", (0, 256)
    )
    lines = set(systems.costs)
    weapon_types = {
        str(k): parse_weapon_type(str(k), v, lines) for k, v in wpn["weapon_types"].items()
    }
    chart_doc.keys_exactly({"damage_allocation_chart", "weapon_categories", "armor_rows"})
    chart_doc["damage_allocation_chart"].keys_exactly({"rows", "max_accepted_rolls"})
    chart_doc["armor_rows"].keys_exactly({"count", "centre_bearing_deg"})
    chart: dict[tuple[int, int], Category] = {}
    rows = chart_doc["damage_allocation_chart"]["rows"]
    rows.keys_exactly({str(dark) for dark in range(1, 7)})
    for dark in range(1, 7):
        names = rows[dark].as_strs(CATEGORY_NAMES)
        if len(names) != 6:
            raise rows[dark].fail("a chart row has six columns")
        for light, name in enumerate(names, start=1):
            chart[(dark, light)] = Category(name)
    centres = chart_doc["armor_rows"]["centre_bearing_deg"].as_ints(0, 359)
    if len(centres) != chart_doc["armor_rows"]["count"].as_int(1, 12):
        raise chart_doc["armor_rows"].fail("centre_bearing_deg needs one bearing per row")
    arcs_doc.keys_exactly(
        {
            "bases_centre_deg",
            "half_width_deg_per_unit",
            "max_width",
            "union_separator",
            "same_hex_target_in_every_arc",
        }
    )
    arcs_doc["bases_centre_deg"].keys_exactly(ARC_BASES)
    bases = {str(k): v.as_int(0, 359) for k, v in arcs_doc["bases_centre_deg"].items()}
    arc_args = (
        bases,
        arcs_doc["half_width_deg_per_unit"].as_int(1, 180),
        arcs_doc["max_width"].as_int(1, 12),
    )
    mov.keys_exactly(MOVEMENT_KEYS)
    chart_rows = mov["impulse_chart"]
    impulses = mov["impulses_per_turn"].as_int(1, 48)
    chart_rows.keys_exactly({str(k) for k in range(1, impulses + 1)})
    table = tuple(chart_rows[k].as_ints(0, 48) for k in range(1, impulses + 1))
    facing_rows = mov["thrust_components_by_facing"]
    facing_rows.keys_exactly(set(DIRECTION_NAMES))
    for direction in DIRECTION_NAMES:
        facing_rows[direction].keys_exactly({"da", "dc"})
    thrust = tuple(
        (facing_rows[d]["da"].as_int(-1, 1), facing_rows[d]["dc"].as_int(-1, 1))
        for d in DIRECTION_NAMES
    )
    designs = {
        str(k): parse_design(str(k), v, weapon_types, arc_args) for k, v in nodes["ships"].items()
    }
    for key, design in designs.items():
        if design.linkage_partner is not None and design.linkage_partner not in designs:
            raise nodes["ships"][key]["linkage"].fail(f"unknown partner {design.linkage_partner!r}")
    scenarios = {str(k): parse_scenario(str(k), v, designs) for k, v in nodes["scenarios"].items()}
    return RuleSet(
        urm=urm,
        max_fire_range=wpn["max_fire_range"].as_int(1, 256),
        weapon_types=weapon_types,
        chart=chart,
        max_accepted_rolls=chart_doc["damage_allocation_chart"]["max_accepted_rolls"].as_int(1, 36),
        weapon_categories=frozenset(
            Category(n) for n in chart_doc["weapon_categories"].as_strs(CATEGORY_NAMES)
        ),
        armor_centres=centres,
        impulses_per_turn=impulses,
        max_velocity=mov["max_velocity_component"].as_int(1, 48),
        impulse_chart=table,
        thrust_by_facing=thrust,
        max_thrust_per_impulse=mov["max_thrust_points_per_impulse"].as_int(1, 6),
        arc_bases=bases,
        arc_half_width=arc_args[1],
        arc_max_width=arc_args[2],
        systems=systems,
        designs=designs,
        scenarios=scenarios,
    )


FILES = ("weapons", "damage_chart", "movement", "arcs", "systems", "ships", "scenarios")


@cache
def load_rules() -> RuleSet:
    """Load and validate every packaged Pentagon War table once."""
    return load_rules_from({name: load_config(f"{BASE}{name}.yaml") for name in FILES})


def design_from_yaml(text: str, key: str, rules: RuleSet | None = None) -> ShipDesign:
    """Validate a custom ship design given as YAML text (same checks as ``ships.yaml``)."""
    ruleset = rules or load_rules()
    node = parse_yaml(text, f"custom design {key}")
    arc_args = (ruleset.arc_bases, ruleset.arc_half_width, ruleset.arc_max_width)
    design = parse_design(key, node, ruleset.weapon_types, arc_args)
    if design.linkage_partner is not None and design.linkage_partner not in ruleset.designs:
        raise node["linkage"].fail(f"unknown partner {design.linkage_partner!r}")
    return design
