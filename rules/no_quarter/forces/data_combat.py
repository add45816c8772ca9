"""Strict parsers of the *No Quarter* combat tables (§16-§18), one per YAML file.

Companion of :mod:`.data_loaders`; each function takes a :class:`~wargym.rules.tables.Node` and
raises a :class:`~wargym.rules.errors.TableError` naming file, key path and row on bad data.
"""

from __future__ import annotations

from wargym.rules.no_quarter.forces.data_loaders import (
    as_enum,
    enum_map,
    faces_partition,
    frozen,
    key_enum,
)
from wargym.rules.no_quarter.forces.records import (
    ChargeOutcome,
    ChargeRules,
    CriticalKind,
    CriticalTable,
    DamageRow,
    InSightRules,
    MeleeCombatRules,
    MultipleMeleeRules,
    OutgunnedRules,
    PilotTestRules,
    RangedCombatRules,
    RangedRow,
    ReactionCell,
    ReactionRules,
)
from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Attribute,
    Faction,
    ItemType,
    Location,
    MeleeAttack,
    Race,
    ReactionResult,
    ReactionTest,
    Removal,
)
from wargym.rules.tables import Node

RANGED_CONDITIONS = (
    "shooter_fast_moving",
    "rush_shot",
    "target_in_cover",
    "target_prone",
    "target_fast_moving",
)
"""Circumstances named by the conditional rows of table 17.4."""

FACTION_ROWS = tuple(f for f in Faction if f is not Faction.ISS)
"""Factions with their own row on table 16.2 (the ISS reads the Star Army row, §9.3)."""


def load_in_sight(node: Node) -> InSightRules:
    """Table 16.1.3 In Sight (§16.1.3)."""
    node.keys_exactly(
        {"dice_per_rep", "tie_winner", "free_move_inches", "dice_modifiers", "bonus_successes"}
    )
    mods = node["dice_modifiers"]
    mods.keys_exactly({"enemy_concealed", "race", "attribute"})
    bonus = node["bonus_successes"]
    bonus_map = {key_enum(bonus, k, ItemType): child.as_int(0) for k, child in bonus.items()}
    if any(not item.is_ews for item in bonus_map):
        raise bonus.fail("only EWS items give In Sight bonus successes")
    return InSightRules(
        node["dice_per_rep"].as_int(1),
        node["tie_winner"].as_str(["moving", "non_moving"]),
        node["free_move_inches"].as_int(0),
        mods["enemy_concealed"].as_int(),
        frozen(enum_map(mods["race"], Race)),
        frozen(enum_map(mods["attribute"], Attribute)),
        frozen(bonus_map),
    )


def _cell(node: Node) -> ReactionCell:
    if isinstance(node.value, str):
        return ReactionCell(as_enum(node, ReactionResult))
    node.keys_exactly({"otherwise"}, {"outgunned", "in_range", "if_damaged", "rep_change"})

    def result(key: str) -> ReactionResult | None:
        child = node.get(key)
        return as_enum(child, ReactionResult) if child is not None else None

    otherwise = result("otherwise")
    assert otherwise is not None
    rep = node.get("rep_change")
    return ReactionCell(
        otherwise,
        result("outgunned"),
        result("in_range"),
        result("if_damaged"),
        rep.as_int(-1, 0) if rep is not None else 0,
    )


def load_reaction_tests(node: Node) -> ReactionRules:
    """Table 16.2 Reaction tests with modifiers and every faction's cells (§16.2)."""
    node.keys_exactly(
        {
            "dice",
            "rep_modifiers",
            "dice_modifiers",
            "fired_on_total_dice",
            "mech_down_radius_inches",
            "mech_down_requires_los",
            "severity_best_to_worst",
            "results",
        }
    )
    tests = {test.value for test in ReactionTest}
    rep = node["rep_modifiers"]
    rep.keys_exactly({"per_weapon_out_of_action", "twice_as_many_friendly_losses"})
    dice_mods = node["dice_modifiers"]
    dice_mods.keys_exactly(tests)
    in_cover: dict[str, int] = {}
    star_army_row: dict[str, int] = {}
    for test, child in dice_mods.items():
        child.keys_exactly(set(), {"in_cover", "star_army_row"})
        for key, target in (("in_cover", in_cover), ("star_army_row", star_army_row)):
            value = child.get(key)
            if value is not None:
                target[str(test)] = value.as_int()
    severity_node = node["severity_best_to_worst"]
    severity = tuple(as_enum(row, ReactionResult) for row in severity_node.rows())
    if {r.status for r in severity} != {r.status for r in ReactionResult} or len(severity) != 3:
        raise severity_node.fail("must rank carry_on, duck_back and leave_battlefield")
    results = node["results"]
    results.keys_exactly(tests)
    cells: dict[tuple[str, Faction, int], ReactionCell] = {}
    for test, test_node in results.items():
        test_node.keys_exactly({f.value for f in FACTION_ROWS})
        for faction, row in test_node.items():
            row.keys_exactly({"pass_2", "pass_1", "pass_0"})
            for passed in (2, 1, 0):
                cell_node = row[f"pass_{passed}"]
                cell = _cell(cell_node)
                if test != ReactionTest.FIRED_ON.value and (cell.outgunned or cell.in_range):
                    raise cell_node.fail("only Fired On cells depend on outgunned / in range")
                cells[(str(test), Faction(faction), passed)] = cell
    return ReactionRules(
        node["dice"].as_int(1),
        rep["per_weapon_out_of_action"].as_int(),
        rep["twice_as_many_friendly_losses"].as_int(),
        frozen(in_cover),
        frozen(star_army_row),
        frozen(enum_map(node["fired_on_total_dice"], Attribute)),
        node["mech_down_radius_inches"].as_int(1),
        node["mech_down_requires_los"].as_bool(),
        severity,
        frozen(cells),
    )


def load_ranged_combat(node: Node) -> RangedCombatRules:
    """Table 17.4 Ranged combat; rows must tile every total (§17.4)."""
    node.keys_exactly({"rep_modifiers", "crack_shot_ignores", "fast_moving_inches", "rows"})
    rows: list[RangedRow] = []
    for row in node["rows"].rows():
        if "result" in row:
            row.keys_exactly({"result"}, {"total_max", "total_min"})
            low = row["total_min"].as_int() if "total_min" in row else None
            high = row["total_max"].as_int() if "total_max" in row else None
            if low is None and high is None:
                raise row.fail("give total_min or total_max")
            rows.append(RangedRow(low, high, row["result"].as_str(["hit", "miss"])))
            continue
        row.keys_exactly(
            {"total", "shooter_missed_if", "target_missed_if"},
            {"target_missed_if_target_index_at_least"},
        )
        total = row["total"].as_int()
        index = row.get("target_missed_if_target_index_at_least")
        rows.append(
            RangedRow(
                total,
                total,
                None,
                frozenset(row["shooter_missed_if"].as_strs(RANGED_CONDITIONS)),
                frozenset(row["target_missed_if"].as_strs(RANGED_CONDITIONS)),
                index.as_int(2) if index is not None else None,
            )
        )
    rows_node = node["rows"]
    if not rows or rows[0].low is not None or rows[-1].high is not None:
        raise rows_node.fail("first row must be open below (total_max), last open above")
    for below, above in zip(rows, rows[1:], strict=False):
        if below.high is None or above.low != below.high + 1:
            raise rows_node.fail(f"gap or overlap between totals {below.high} and {above.low}")
    return RangedCombatRules(
        tuple(rows),
        frozen(enum_map(node["rep_modifiers"], Attribute)),
        frozenset(node["crack_shot_ignores"].as_strs(RANGED_CONDITIONS)),
        node["fast_moving_inches"].as_int(1),
    )


def load_hit_location(node: Node) -> tuple[dict[int, Location], tuple[Location, ...]]:
    """Table 17.4.1 (2d6, every sum 2..12) and the Marksman preference (§17.4.1)."""
    node.keys_exactly({"dice", "rolls", "marksman_preference"})
    node["dice"].as_int(2, 2)
    rolls = node["rolls"]
    rolls.keys_exactly({str(total) for total in range(2, 13)})
    table = {int(k): as_enum(child, Location) for k, child in rolls.items()}
    pref_node = node["marksman_preference"]
    preference = tuple(as_enum(row, Location) for row in pref_node.rows())
    if sorted(p.value for p in preference) != sorted(loc.value for loc in Location):
        raise pref_node.fail("must rank every location exactly once")
    return table, preference


def load_damage(node: Node, loss_names: tuple[str, ...], versus: str) -> dict[int, DamageRow]:
    """A damage table by dice passed 0..2 (§17.4.2 with ``impact``, §18.3.2 with ``margin``)."""
    node.keys_exactly({"dice", "versus", "rows"})
    node["dice"].as_int(2, 2)
    node["versus"].as_str([versus])
    rows = node["rows"]
    rows.keys_exactly({"pass_2", "pass_1", "pass_0"})
    result: dict[int, DamageRow] = {}
    for passed in (2, 1, 0):
        row = rows[f"pass_{passed}"]
        row.keys_exactly({"armor_loss"}, {"critical_if", "duck_back", "refight"})
        loss_node = row["armor_loss"]
        loss: str | int = (
            loss_node.as_str(loss_names)
            if isinstance(loss_node.value, str)
            else loss_node.as_int(0)
        )
        crit_node = row.get("critical_if")
        crit = set(crit_node.as_strs(["doubles", "armor_le_0"])) if crit_node else set()
        duck, refight = row.get("duck_back"), row.get("refight")
        result[passed] = DamageRow(
            passed,
            loss,
            "doubles" in crit,
            "armor_le_0" in crit,
            duck.as_bool() if duck else False,
            refight.as_bool() if refight else False,
        )
    return result


def load_critical_hits(node: Node) -> CriticalTable:
    """Table 17.4.3 Critical hit by location, and the chest explosion roll (§17.4.3)."""
    node.keys_exactly({"locations", "chest_roll"})
    locs = node["locations"]
    locs.keys_exactly({loc.value for loc in Location})
    le0: dict[Location, CriticalKind] = {}
    ge1: dict[Location, CriticalKind] = {}
    for key, row in locs.items():
        row.keys_exactly({"armor_le_0", "armor_ge_1"})
        le0[Location(key)] = as_enum(row["armor_le_0"], CriticalKind)
        ge1[Location(key)] = as_enum(row["armor_ge_1"], CriticalKind)
    roll_node = node["chest_roll"]
    split = faces_partition(roll_node)
    chest = {face: key_enum(roll_node, k, Removal) for k, faces in split.items() for face in faces}
    return CriticalTable(frozen(le0), frozen(ge1), frozen(chest))


def load_pilot_test(node: Node) -> PilotTestRules:
    """Pilot Test (§17.4.3.1)."""
    node.keys_exactly({"dice", "rep_modifiers", "failed_rep_change"})
    return PilotTestRules(
        node["dice"].as_int(1, 1),
        frozen(enum_map(node["rep_modifiers"], Attribute)),
        node["failed_rep_change"].as_int(-5, 0),
    )


def load_outgunned(node: Node) -> OutgunnedRules:
    """Outgunned (§17.5); the class table must agree with the class-gap rule."""
    node.keys_exactly({"min_class_gap", "never_outgunned", "outgunned_by"})
    gap = node["min_class_gap"].as_int(1)
    by_node = node["outgunned_by"]
    by_node.keys_exactly({str(c) for c in range(1, 6)})
    by_class: dict[int, frozenset[int]] = {}
    for key, child in by_node.items():
        tester = int(key)
        causes = frozenset(child.as_ints(1, 5))
        if causes != frozenset(c for c in range(1, 6) if c <= tester - gap):
            raise child.fail(f"disagrees with the rule cause_class <= {tester} - {gap}")
        by_class[tester] = causes
    return OutgunnedRules(
        gap,
        frozenset(as_enum(row, Attribute) for row in node["never_outgunned"].rows()),
        frozen(by_class),
    )


def load_charge(node: Node) -> ChargeRules:
    """Table 18.2.1 Charge into Melee (§18.2.1)."""
    node.keys_exactly({"dice_each", "stage_distance_inches", "target_dice_modifiers", "results"})
    mods = node["target_dice_modifiers"]
    mods.keys_exactly({"in_cover", "aspect"})
    aspect = mods["aspect"]
    aspect.keys_exactly({a.value for a in Aspect})
    results = node["results"]
    results.keys_exactly({"charger_passed_more", "target_passed_more", "same_number"})
    return ChargeRules(
        node["dice_each"].as_int(1),
        node["stage_distance_inches"].as_int(0),
        mods["in_cover"].as_int(),
        frozen(enum_map(aspect, Aspect)),
        frozen({str(k): as_enum(child, ChargeOutcome) for k, child in results.items()}),
    )


def load_melee_combat(node: Node) -> MeleeCombatRules:
    """Table 18.3 Melee combat dice modifiers (§18.3)."""
    node.keys_exactly({"dice_per_rep", "modifiers", "race", "attribute", "jump_attack_column"})
    mods = node["modifiers"]
    mods.keys_exactly(
        {"one_hand_melee_weapon", "attacking_prone_opponent", "jump_attack", "leaving_battlefield"}
    )
    return MeleeCombatRules(
        node["dice_per_rep"].as_int(1),
        mods["one_hand_melee_weapon"].as_int(),
        mods["attacking_prone_opponent"].as_int(),
        mods["jump_attack"].as_int(),
        mods["leaving_battlefield"].as_int(),
        frozen(enum_map(node["race"], Race)),
        frozen(enum_map(node["attribute"], Attribute)),
        as_enum(node["jump_attack_column"], MeleeAttack),
    )


def load_melee_hit_location(node: Node) -> dict[int, dict[MeleeAttack, Location]]:
    """Table 18.3.1 (1d6 as rolled; punch and kick columns) (§18.3.1)."""
    node.keys_exactly({str(face) for face in range(1, 7)})
    table: dict[int, dict[MeleeAttack, Location]] = {}
    for key, row in node.items():
        row.keys_exactly({attack.value for attack in MeleeAttack})
        table[int(key)] = {MeleeAttack(k): as_enum(child, Location) for k, child in row.items()}
    return table


def load_multiple_melee(node: Node) -> MultipleMeleeRules:
    """Multiple mech melees (§18.3.4)."""
    node.keys_exactly({"max_attackers_per_target", "attack_order", "stars_choose_order"})
    return MultipleMeleeRules(
        node["max_attackers_per_target"].as_int(1),
        node["attack_order"].as_strs(["lowest_class_number_first", "highest_rep_first"]),
        node["stars_choose_order"].as_bool(),
    )
