"""Strict loader of the starship combat YAML tables into a :class:`RuleSet` (digest §1-§2.18).

Unknown keys, wrong types, out-of-range values, gaps in band tables and dangling references
(a scenario naming a missing ship, a table result that is not a known result) are rejected with
a :class:`~wargym.rules.errors.TableError` naming the file, the key path and the row.
"""

from __future__ import annotations

from functools import cache

from wargym.rules.starship_combat.records import (
    Band,
    BoardingLoss,
    Critical,
    Difficulty,
    EmLevel,
    HitResult,
    HullBand,
    ScreenKind,
    ShipDesign,
    SizeClass,
    SuccessLevel,
    TableName,
    TroopQuality,
    Warhead,
    WeaponKind,
    WeaponMount,
    WeaponProps,
)
from wargym.rules.starship_combat.ruleset import (
    ACTIVE_SHIFT_CONDITIONS,
    DENSITOMETER_SHIFT_CONDITIONS,
    HULL_INOP_EFFECTS,
    Deployment,
    RuleSet,
    Scenario,
)
from wargym.rules.tables import Node, load_config

BASE = "rules/starship_combat/"
DIRECTIONS = ("A", "B", "C", "D", "E", "F")
TOP_KEYS = {
    BASE + "core.yaml": {
        "ehex_values", "difficulty_targets", "success_levels", "batch", "penetration_ratio_dm",
        "ratio_dm_applies_vs_screens", "damage_multiplier", "exceptional_margin",
        "exceptional_extra_dp", "exceptional_armor_loss", "armor_penetration", "to_hit",
        "penetration", "weapon_properties", "movement", "max_rounds",
    },
    BASE + "damage_record.yaml": {
        "hull_points", "maneuver_points_per_gee", "jump_points_per_parsec",
        "power_plant_points_per_10pct", "drive_destroyed_multiplier", "ecp_multiplier_tenths",
        "power_plant_steps", "armor_form_boxes", "crew_form_boxes", "fuel",
    },
    BASE + "damage_tables.yaml": {
        "damage_tables", "roll_clamp", "damage_table_dms", "box_hits_by_ucp",
        "exceptional_extra_box", "radiation_share_pct", "spinal", "hull_share",
        "power_loss_effects", "hull_inoperative_effects", "fuel_leak", "critical_table",
        "armor_loss_per_critical", "black_globe",
    },
    BASE + "boarding.yaml": {
        "difficulty", "difficulty_if_no_defending_troops", "crew_as_troops_pct",
        "default_tactics", "default_quality", "troop_quality", "ratio_dm_defender_side",
        "boarding_losses", "pc_survival", "pc_survival_mirror", "explosion",
    },
    BASE + "sensors.yaml": {
        "adjacent_level_shift", "active_level_shift_plus_1", "neutrino_dm", "densitometer_dm",
        "densitometer_level_shift_plus_1", "detection_range_dm", "detection_beyond_range_dm",
    },
}  # fmt: skip
"""Top-level keys of each table file; anything else is rejected."""
SENSOR_TYPES = ("active_ems", "passive_ems", "ems_jammer", "densitometer", "neutrino")
SENSOR_TASKS = (
    "act_obj_scan",
    "act_obj_pin",
    "pas_obj_scan",
    "pas_obj_pin",
    "pas_eng_scan",
    "pas_eng_pin",
)


def _choices(enum_type: type[Difficulty] | type[SizeClass] | type[EmLevel]) -> list[str]:
    return [member.value for member in enum_type]


def _bands(node: Node, low_key: str, high_key: str, value_key: str) -> tuple[Band, ...]:
    bands: list[Band] = []
    for row in node.rows():
        row.keys_exactly({low_key, high_key, value_key})
        low = row[low_key].as_int(0)
        high = None if row[high_key].value is None else row[high_key].as_int(low)
        if bands and bands[-1].high is not None and low != bands[-1].high + 1:
            raise row.fail(f"gap or overlap: row starts at {low}, previous ends {bands[-1].high}")
        bands.append(Band(low, high, row[value_key].as_int()))
    if not bands or bands[-1].high is not None:
        raise node.fail("the last row must be open above (null)")
    return tuple(bands)


def _ratio_table(node: Node) -> dict[str, int]:
    keys = ("4:1", "3:1", "2:1", "1:1", "1:2", "1:3", "1:4")
    node.keys_exactly(set(keys))
    return {key: node[key].as_int(-3, 3) for key in keys}


def _difficulty(node: Node) -> Difficulty:
    return Difficulty(node.as_str(_choices(Difficulty)))


def _ucp(node: Node, ehex: dict[str, int]) -> int:
    text = node.as_str()
    if text.isdigit() and len(text) == 1:
        return int(text)
    if text not in ehex:
        raise node.fail(f"{text!r} is not an eHex digit")
    return ehex[text]


def _ship(key: str, node: Node, ehex: dict[str, int]) -> ShipDesign:
    node.keys_exactly(
        {
            "name", "source", "type", "tech_level", "cost_mcr", "configuration",
            "displacement_tons", "tons", "mt_hit_points", "power", "armor", "maneuver_g",
            "jump", "jump_units", "agility", "def_dm", "object_size", "em_level",
            "electronic_circuit_protection", "computer", "crew", "troops", "fuel_kl",
            "cargo_kl", "sensors", "sensor_tasks", "weapons", "screens", "black_globe_max_pct",
        }
    )  # fmt: skip
    tons, mt_hp, power = node["tons"], node["mt_hit_points"], node["power"]
    tons.keys_exactly({"unloaded", "loaded"})
    mt_hp.keys_exactly({"hull", "power", "jump", "maneuver"})
    power.keys_exactly({"type", "mw", "duration_days", "duration_reduced_days"})
    hit_points = []
    for part, pair in mt_hp.items():
        inop, destroyed = pair.as_ints(0)
        hit_points.append((str(part), inop, destroyed))
    computer, crew = node["computer"], node["crew"]
    computer.keys_exactly({"model", "fib", "count"})
    crew.keys_exactly({"persons", "segments", "frozen_watch_segments"})
    sensors = node["sensors"]
    sensors.keys_exactly(set(), set(SENSOR_TYPES))
    tasks = node["sensor_tasks"]
    tasks.keys_exactly(set(SENSOR_TASKS))
    weapons = []
    for wkey, wnode in node["weapons"].items():
        wnode.keys_exactly({"kind", "factor", "batteries", "bearing"}, {"spinal"})
        kind = WeaponKind(wnode["kind"].as_str([k.value for k in WeaponKind]))
        batteries = wnode["batteries"].as_int(1)
        spinal = wnode["spinal"].as_bool() if "spinal" in wnode else False
        if spinal and batteries != 1:
            raise wnode.fail("a spinal mount is a single battery")
        weapons.append(
            WeaponMount(
                str(wkey), kind, _ucp(wnode["factor"], ehex), batteries,
                wnode["bearing"].as_int(0, batteries), spinal,
            )
        )  # fmt: skip
    screens: list[tuple[ScreenKind, int]] = []
    for skey, snode in node["screens"].items():
        if str(skey) not in {"meson_screen", "nuclear_damper"}:
            raise snode.fail("screens are meson_screen or nuclear_damper")
        screens.append((ScreenKind(str(skey)), snode.as_int(1, 27)))
    return ShipDesign(
        key=key,
        name=node["name"].as_str(),
        source=node["source"].as_str(["src", "project"]),
        type_code=node["type"].as_str(),
        tech_level=node["tech_level"].as_int(0, 33),
        cost_mcr=node["cost_mcr"].as_int(0),
        configuration=node["configuration"].as_str(),
        displacement=node["displacement_tons"].as_int(1),
        tons_unloaded=tons["unloaded"].as_int(0),
        tons_loaded=tons["loaded"].as_int(0),
        mt_hit_points=tuple(hit_points),
        power_type=power["type"].as_str(),
        power_mw=power["mw"].as_int(0),
        power_duration_days=power["duration_days"].as_int(1),
        power_duration_reduced_days=power["duration_reduced_days"].as_int(1),
        armor=node["armor"].as_int(0, 120),
        maneuver_g=node["maneuver_g"].as_int(0, 12),
        jump=node["jump"].as_int(0, 9),
        jump_units=node["jump_units"].as_int(0),
        agility=node["agility"].as_int(0, 12),
        def_dm=node["def_dm"].as_int(0),
        size=SizeClass(node["object_size"].as_str(_choices(SizeClass))),
        em_level=EmLevel(node["em_level"].as_str(_choices(EmLevel))),
        ecp=node["electronic_circuit_protection"].as_bool(),
        computer_model=computer["model"].as_int(0, 9),
        computer_fib=computer["fib"].as_bool(),
        computer_count=computer["count"].as_int(1),
        crew_persons=crew["persons"].as_int(1),
        crew_segments=crew["segments"].as_int(1, 334),
        frozen_watch_segments=crew["frozen_watch_segments"].as_int(0),
        troops=node["troops"].as_int(0),
        fuel_kl=node["fuel_kl"].as_int(1),
        cargo_kl=node["cargo_kl"].as_int(0),
        sensors=tuple((str(k), v.as_int(0)) for k, v in sensors.items()),
        sensor_tasks=tuple((str(k), _difficulty(v)) for k, v in tasks.items()),
        weapons=tuple(weapons),
        screens=tuple(screens),
        black_globe_max_pct=node["black_globe_max_pct"].as_int(0, 100),
    )


def _deployment(node: Node, ships: dict[str, ShipDesign], gunnery: int, tactics: int) -> Deployment:
    optional = {"gunnery", "tactics", "troop_quality"}
    if "squadron" in node:
        node.keys_exactly({"squadron", "craft", "at", "heading"}, optional)
        design, craft = node["squadron"].as_str(sorted(ships)), node["craft"].as_int(8, 10)
        if ships[design].displacement >= 100:
            raise node.fail(f"{design} is not a fighter (under 100 tons, TR-R19)")
    else:
        node.keys_exactly({"ship", "at", "heading"}, optional)
        design, craft = node["ship"].as_str(sorted(ships)), 0
    q, r = node["at"].as_ints()
    quality = (
        TroopQuality(node["troop_quality"].as_str([t.value for t in TroopQuality]))
        if "troop_quality" in node
        else TroopQuality.REGULAR
    )
    return Deployment(
        design, craft, (q, r), DIRECTIONS.index(node["heading"].as_str(DIRECTIONS)),
        node["gunnery"].as_int(0, 6) if "gunnery" in node else gunnery,
        node["tactics"].as_int(0, 6) if "tactics" in node else tactics, quality,
    )  # fmt: skip


def _scenario(key: str, node: Node, ships: dict[str, ShipDesign], g: int, t: int) -> Scenario:
    node.keys_exactly({"description", "nuclear_missiles", "sides", "terrain"})
    sides = tuple(
        tuple(_deployment(entry, ships, g, t) for entry in side.rows())
        for side in node["sides"].rows()
    )
    if len(sides) != 2 or not all(sides):
        raise node["sides"].fail("a scenario has exactly two non-empty sides")
    terrain = node["terrain"]
    terrain.keys_exactly({"gas_giants", "planets", "belts"})

    def hexes(name: str) -> tuple[tuple[int, int], ...]:
        out = []
        for row in terrain[name].rows():
            q, r = row.as_ints()
            out.append((q, r))
        return tuple(out)

    return Scenario(
        key, node["description"].as_str(), node["nuclear_missiles"].as_bool(), sides,
        hexes("gas_giants"), hexes("planets"), hexes("belts"),
    )  # fmt: skip


@cache
def load_rules() -> RuleSet:
    """Load and validate every starship combat table (digest §1-§2.18, TR-R1..TR-R27)."""
    core = load_config(BASE + "core.yaml")
    rec = load_config(BASE + "damage_record.yaml")
    dmg = load_config(BASE + "damage_tables.yaml")
    brd = load_config(BASE + "boarding.yaml")
    sen = load_config(BASE + "sensors.yaml")
    for doc in (core, rec, dmg, brd, sen):
        doc.keys_exactly(set(doc.mapping()) & TOP_KEYS[doc.source], set())
        unknown = sorted(set(map(str, doc.mapping())) - TOP_KEYS[doc.source])
        if unknown:
            raise doc.fail(f"unknown keys {unknown}")
    ehex = {str(k): v.as_int(10, 33) for k, v in core["ehex_values"].items()}
    targets = {Difficulty(k): v.as_int() for k, v in core["difficulty_targets"].items()}
    if set(targets) != set(Difficulty):
        raise core["difficulty_targets"].fail("every difficulty needs a target")
    levels = []
    for name, row in core["success_levels"].items():
        row.keys_exactly({"margin_min", "margin_max"})
        low, high = row["margin_min"].value, row["margin_max"].value
        levels.append((SuccessLevel(name), low, high))
    batch = core["batch"]
    batch.keys_exactly(
        {"tenths_per_margin_point", "max_tenths", "bare_success_tenths", "natural_12_tenths"}
    )
    props = {}
    defences = core["penetration"]["defences"]
    for name, row in core["weapon_properties"].items():
        row.keys_exactly({"radiation", "energy", "warhead"}, {"meson"})
        kind = WeaponKind(name)
        pairs = []
        for d in defences[name].rows():
            d.keys_exactly({"system", "kind"})
            pairs.append((d["system"].as_str(), d["kind"].as_str(["battery", "screen"])))
        props[kind] = WeaponProps(
            kind, row["radiation"].as_bool(), row["energy"].as_bool(),
            Warhead(row["warhead"].as_str([w.value for w in Warhead])),
            row["meson"].as_bool() if "meson" in row else False, tuple(pairs),
        )  # fmt: skip
    to_hit, arm, mov = core["to_hit"], core["armor_penetration"], core["movement"]
    tables = {}
    dmg["damage_tables"].keys_exactly({t.value for t in TableName})
    for tname, tnode in dmg["damage_tables"].items():
        tnode.keys_exactly({str(roll) for roll in range(1, 14)})
        rows = {int(k): HitResult(v.as_str([h.value for h in HitResult])) for k, v in tnode.items()}
        if sorted(rows) != list(range(1, 14)):
            raise tnode.fail("a damage table covers exactly 1..13")
        tables[TableName(tname)] = rows
    dms, spinal, share, power = (
        dmg["damage_table_dms"],
        dmg["spinal"],
        dmg["hull_share"],
        dmg["power_loss_effects"],
    )
    leak = dmg["fuel_leak"]

    def leak_row(node: Node) -> tuple[int, int, int, int]:
        node.keys_exactly({"dice", "days_per_turn", "turns_dice", "turns_plus"})
        return (node["dice"].as_int(0), node["days_per_turn"].as_int(0),
                node["turns_dice"].as_int(0), node["turns_plus"].as_int(0))  # fmt: skip

    crit = {int(k): Critical(v.as_str([c.value for c in Critical])) for k, v in
            dmg["critical_table"].items()}  # fmt: skip
    if sorted(crit) != list(range(2, 13)):
        raise dmg["critical_table"].fail("the critical table covers exactly 2..12")
    quality_dm = {TroopQuality(k): v["dm"].as_int(0, 6) for k, v in brd["troop_quality"].items()}
    quality_d6 = {TroopQuality(k): v["d6"].as_ints(1, 6) for k, v in brd["troop_quality"].items()}
    if sorted(f for faces in quality_d6.values() for f in faces) != [1, 2, 3, 4, 5, 6]:
        raise brd["troop_quality"].fail("the quality d6 ranges must cover 1..6 once")
    losses = {}
    for name, row in brd["boarding_losses"].items():
        row.keys_exactly(
            {"attacker_pct", "defender_pct", "defender_crew_segments", "defender_crew_dice"}
        )
        losses[SuccessLevel(name)] = BoardingLoss(
            row["attacker_pct"].as_int(0, 100), row["defender_pct"].as_int(0, 100),
            row["defender_crew_segments"].as_int(0), row["defender_crew_dice"].as_int(0),
        )  # fmt: skip
    survival = {
        SuccessLevel(k): (_difficulty(v["difficulty"]), v["hazard"].as_strs())
        for k, v in brd["pc_survival"].items()
    }
    mirror = {
        SuccessLevel(k): SuccessLevel(v.as_str()) for k, v in brd["pc_survival_mirror"].items()
    }
    explosion = brd["explosion"]
    ships = {str(k): _ship(str(k), v, ehex) for k, v in load_config(BASE + "ships.yaml").items()}
    gunnery = to_hit["default_gunnery_skill"].as_int(0)
    tactics = brd["default_tactics"].as_int(0)
    scenarios = {
        str(k): _scenario(str(k), v, ships, gunnery, tactics)
        for k, v in load_config(BASE + "scenarios.yaml").items()
    }
    hull_bands = []
    for row in rec["hull_points"].rows():
        row.keys_exactly({"disp_min", "disp_max", "inop", "destroyed"})
        high = None if row["disp_max"].value is None else row["disp_max"].as_int()
        hull_bands.append(
            HullBand(row["disp_min"].as_int(0), high, row["inop"].as_int(1),
                     row["destroyed"].as_int(1))
        )  # fmt: skip
    fuel = rec["fuel"]
    return RuleSet(
        ehex=ehex,
        difficulty_targets=targets,
        success_levels=tuple(levels),
        tenths_per_margin=batch["tenths_per_margin_point"].as_int(1, 10),
        max_tenths=batch["max_tenths"].as_int(1),
        bare_success_tenths=batch["bare_success_tenths"].as_int(0),
        natural_12_tenths=batch["natural_12_tenths"].as_int(0),
        ratio_dm_table=_ratio_table(core["penetration_ratio_dm"]),
        ratio_dm_vs_screens=core["ratio_dm_applies_vs_screens"].as_bool(),
        damage_multiplier={Warhead(k): v.as_int(1) for k, v in core["damage_multiplier"].items()},
        exceptional_margin=core["exceptional_margin"].as_int(1),
        exceptional_extra_dp=core["exceptional_extra_dp"].as_int(0),
        exceptional_armor_loss=core["exceptional_armor_loss"].as_int(0),
        armor_pen_difficulty=_difficulty(arm["difficulty"]),
        weapon_dm_divisor=arm["weapon_dm_divisor"].as_int(1),
        armor_pivot=arm["armor_pivot"].as_int(0),
        armor_dm_step=arm["armor_dm_step"].as_int(1),
        to_hit_difficulty=_difficulty(to_hit["difficulty"]),
        range_dm=_range_bands(to_hit["range_dm"]),
        max_range=to_hit["max_range"].as_int(0),
        size_dm={SizeClass(k): v.as_int() for k, v in to_hit["size_dm"].items()},
        default_gunnery=gunnery,
        remote_guidance_dm=to_hit["remote_guidance_dm"].as_int(),
        penetration_difficulty=_difficulty(core["penetration"]["difficulty"]),
        weapon_props=props,
        max_velocity=mov["max_velocity"].as_int(1),
        map_radius=mov["map_radius"].as_int(1),
        max_rounds=core["max_rounds"].as_int(1),
        hull_bands=tuple(hull_bands),
        maneuver_bands=_bands(rec["maneuver_points_per_gee"], "disp_min", "disp_max", "per_unit"),
        jump_bands=_bands(rec["jump_points_per_parsec"], "disp_min", "disp_max", "per_unit"),
        power_bands=_bands(rec["power_plant_points_per_10pct"], "hp_min", "hp_max", "per_unit"),
        drive_destroyed_multiplier=rec["drive_destroyed_multiplier"].as_int(1),
        ecp_tenths=rec["ecp_multiplier_tenths"].as_int(10),
        power_steps=rec["power_plant_steps"].as_int(1),
        armor_form_boxes=rec["armor_form_boxes"].as_int(1),
        crew_form_boxes=rec["crew_form_boxes"].as_int(1),
        jump_drive_kl_per_unit_tenths=fuel["jump_drive_kl_per_unit_tenths"].as_int(1),
        jump_fuel_per_drive_kl=fuel["jump_fuel_per_drive_kl"].as_int(1),
        tables=tables,
        roll_clamp=(dmg["roll_clamp"].as_ints()[0], dmg["roll_clamp"].as_ints()[1]),
        dm_ucp_1_4=dms["ucp_1_4"].as_int(),
        dm_ucp_5_9=dms["ucp_5_9"].as_int(),
        dm_ucp_10_plus=dms["ucp_10_plus"].as_int(),
        dm_nuclear_or_spinal=dms["nuclear_antimatter_or_spinal"].as_int(),
        dm_black_globe=dms["active_black_globe"].as_int(),
        box_bands=_bands(dmg["box_hits_by_ucp"], "ucp_min", "ucp_max", "boxes"),
        exceptional_extra_box=dmg["exceptional_extra_box"].as_int(0),
        radiation_share_pct=dmg["radiation_share_pct"].as_int(0, 100),
        spinal_extra_above=spinal["extra_roll_above"].as_int(0),
        spinal_armor_pivot=spinal["armor_pivot"].as_int(0),
        spinal_armor_per_roll=spinal["armor_per_lost_roll"].as_int(1),
        hull_share_divisor=share["divisor"].as_int(1),
        dp1_hull_on_d6=share["dp1_hull_on_d6"].as_int(1, 6),
        dp2_hull_on_d6=share["dp2_hull_on_d6"].as_int(1, 6),
        agility_per_power_step=power["agility_per_step"].as_int(),
        power_no_spinal=power["spinal_cannot_fire"].as_int(1, 10),
        power_xor=power["maneuver_xor_energy_weapons"].as_int(1, 10),
        power_screens_off=power["screens_off_except_sandcasters"].as_int(1, 10),
        power_no_weapons=power["no_weapons_fire"].as_int(1, 10),
        power_life_support=power["life_support_fails"].as_int(1, 10),
        hull_inop_effects=frozenset(dmg["hull_inoperative_effects"].as_strs(HULL_INOP_EFFECTS)),
        leak_normal=leak_row(leak["normal"]),
        leak_hull=leak_row(leak["hull_inop"]),
        critical_table=crit,
        armor_loss_per_critical=dmg["armor_loss_per_critical"].as_int(0),
        globe_armor_per_10pct=dmg["black_globe"]["armor_per_10pct"].as_int(0),
        flicker_step_pct=dmg["black_globe"]["flicker_step_pct"].as_int(1, 100),
        boarding_difficulty=_difficulty(brd["difficulty"]),
        boarding_no_troops_difficulty=_difficulty(brd["difficulty_if_no_defending_troops"]),
        crew_as_troops_pct=brd["crew_as_troops_pct"].as_int(0, 100),
        default_tactics=tactics,
        default_quality=TroopQuality(brd["default_quality"].as_str()),
        quality_dm=quality_dm,
        quality_d6=quality_d6,
        boarding_ratio_dm_def=_ratio_table(brd["ratio_dm_defender_side"]),
        boarding_losses=losses,
        pc_survival=survival,
        pc_mirror=mirror,
        explosion_same_hex_divisor=explosion["same_hex_divisor"].as_int(1),
        explosion_adjacent_divisor=explosion["adjacent_divisor"].as_int(1),
        explosion_min_ucp=explosion["min_ucp"].as_int(0),
        sensor_adjacent_shift=sen["adjacent_level_shift"].as_int(-2, 2),
        active_shift_conditions=frozenset(
            sen["active_level_shift_plus_1"].as_strs(ACTIVE_SHIFT_CONDITIONS)
        ),
        densitometer_shift_conditions=frozenset(
            sen["densitometer_level_shift_plus_1"].as_strs(DENSITOMETER_SHIFT_CONDITIONS)
        ),
        neutrino_dm={EmLevel(k): v.as_int() for k, v in sen["neutrino_dm"].items()},
        densitometer_dm={SizeClass(k): v.as_int() for k, v in sen["densitometer_dm"].items()},
        detection_range_dm=sen["detection_range_dm"].as_bool(),
        detection_beyond_range_dm=sen["detection_beyond_range_dm"].as_int(-12, 0),
        ships=ships,
        scenarios=scenarios,
    )


def _range_bands(node: Node) -> tuple[Band, ...]:
    bands: list[Band] = []
    for row in node.rows():
        row.keys_exactly({"range_min", "range_max", "dm"})
        low, high = row["range_min"].as_int(0), row["range_max"].as_int(0)
        if bands and low != (bands[-1].high or 0) + 1:
            raise row.fail("range rows must be contiguous")
        bands.append(Band(low, high, row["dm"].as_int()))
    return tuple(bands)
