"""Every No Quarter table loads and validates; broken data fails naming file, key and row."""

from __future__ import annotations

import pytest

from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces import data_combat as combat
from wargym.rules.no_quarter.forces import data_loaders as loaders
from wargym.rules.no_quarter.forces.data import (
    CONFIG_DIR,
    TABLE_FILES,
    RulesOptions,
    load_rules,
    parse_rules,
)
from wargym.rules.no_quarter.forces.vocab import Faction, ItemType, Location, MeleeAttack
from wargym.rules.tables import Node, load_config, parse_yaml, read_config_text


def files() -> dict[str, Node]:
    return {name: load_config(f"{CONFIG_DIR}/{name}.yaml") for name in TABLE_FILES}


def broken(name: str, old: str, new: str) -> dict[str, Node]:
    """All tables, with ``old`` replaced by ``new`` in file ``name``."""
    text = read_config_text(f"{CONFIG_DIR}/{name}.yaml")
    assert old in text, f"fixture text {old!r} not in {name}.yaml"
    result = files()
    result[name] = parse_yaml(text.replace(old, new, 1), f"{CONFIG_DIR}/{name}.yaml")
    return result


@pytest.mark.parametrize("name", TABLE_FILES)
def test_tables_every_file_cites_its_section_and_parses(name: str) -> None:
    text = read_config_text(f"{CONFIG_DIR}/{name}.yaml")
    assert text.startswith("# Source: 5150 No Quarter §")
    assert load_config(f"{CONFIG_DIR}/{name}.yaml").value


@pytest.mark.parametrize(
    "options",
    [
        RulesOptions(),
        RulesOptions(zhuh_zhuh_restriction="printed"),
        RulesOptions(gun_medium_stats="printed"),
        RulesOptions(strict_mounting=True),
        RulesOptions(pdf_c4_target="printed"),
    ],
)
def test_tables_the_rule_set_loads_under_every_option(options: RulesOptions) -> None:
    rules = load_rules(options)
    assert rules.options == options
    assert len(rules.mechs) == 25
    assert load_rules(options) is rules  # cached


def test_tables_loaded_values() -> None:
    rules = load_rules()
    assert rules.weapons[ItemType.ROCKET_LAUNCHER_3].target == 3
    assert rules.weapons[ItemType.MELEE_WEAPON].wv == 0
    assert rules.misc_items[ItemType.JUMP_JETS].wv_for_class(4) == 2
    assert rules.item_profile(ItemType.EWS_2).wv == 2
    assert rules.item_profile(ItemType.EWS_2).family is None
    assert rules.hit_location[12] is Location.LEG_R
    assert rules.melee_hit_location[2][MeleeAttack.KICK] is Location.LEG_L
    assert rules.pilot_rep["xeog"] == (4, 4, 4, 5, 5, 5)
    assert rules.leaders.command_radius_inches == 8
    assert rules.reaction.mech_down_radius_inches == 4
    assert rules.charge.stage_distance_inches == 3
    assert rules.multiple_melee.max_attackers_per_target == 3
    assert rules.outgunned.outgunned_by[5] == frozenset({1, 2, 3})
    assert rules.forbidden_families(Faction.ZHUH_ZHUH) != load_rules(
        RulesOptions(zhuh_zhuh_restriction="printed")
    ).forbidden_families(Faction.ZHUH_ZHUH)


def fails(nodes: dict[str, Node], *parts: str) -> None:
    with pytest.raises(TableError) as error:
        parse_rules(nodes)
    for part in parts:
        assert part in str(error.value), str(error.value)


def test_tables_unknown_key_names_file_and_key() -> None:
    fails(
        broken("weapons", "impact: 4}", "impact: 4, colour: red}"),
        "rules/no_quarter/weapons.yaml: beam_heavy: unknown keys ['colour']",
    )


def test_tables_wrong_type_names_the_key() -> None:
    fails(
        broken("weapons", "gun_heavy: {family: gun, wv: 4", "gun_heavy: {family: gun, wv: four"),
        "weapons.yaml: gun_heavy.wv: expected an integer, got 'four'",
    )


def test_tables_2d6_table_must_cover_2_to_12() -> None:
    fails(
        broken("hit_location", "  12: leg_r\n", ""), "hit_location.yaml: rolls: missing keys ['12']"
    )


def test_tables_armor_bands_must_tile_7_to_36() -> None:
    fails(
        broken("speed", "armor_min: 25, armor_max: 28", "armor_min: 26, armor_max: 28"),
        "speed.yaml",
        "gap or overlap",
    )


def test_tables_d6_possibility_must_cover_every_face() -> None:
    fails(
        broken("personal_weapons", "submachine_gun: [5, 6]", "submachine_gun: [5]"),
        "personal_weapons.yaml: non_star_army_grunt: faces must cover",
    )


def test_tables_pilot_rep_rows_need_six_faces() -> None:
    fails(
        broken("pilot_rep", "hishen: [3, 3, 4, 4, 4, 4]", "hishen: [3, 3, 4, 4, 4]"),
        "pilot_rep.yaml: rows.hishen: expected 6 values",
    )


def test_tables_ranged_rows_must_tile_totals() -> None:
    fails(
        broken("ranged_combat", "total_min: 10", "total_min: 11"),
        "ranged_combat.yaml: rows: gap or overlap between totals 9 and 11",
    )


def test_tables_reaction_cell_must_be_a_result() -> None:
    fails(
        broken("reaction_tests", "pass_0: leave_battlefield", "pass_0: panic"),
        "reaction_tests.yaml: results.fired_on.free_company.pass_0: 'panic' is not one of",
    )


def test_tables_outgunned_table_must_agree_with_the_rule() -> None:
    fails(broken("outgunned", "4: [1, 2]", "4: [1]"), "outgunned.yaml: outgunned_by.4: disagrees")


def test_tables_subtables_list_every_attribute() -> None:
    fails(
        broken("random_attributes", "[agile, brawler,", "[agile, agile,"),
        "random_attributes.yaml: subtables: sub-tables must list every attribute",
    )


def test_tables_cross_check_between_files() -> None:
    fails(
        broken("in_sight", "quick_reflexes: 1", "quick_reflexes: 2"),
        "in_sight.yaml attribute vs random_attributes.yaml effects",
    )
    fails(
        broken("melee_combat", "zhuh_zhuh: 2", "zhuh_zhuh: 3"),
        "melee_combat.yaml race vs racial_attributes.yaml",
    )
    fails(
        broken("weight_capacity", "armor_max: 24, class: 3", "armor_max: 24, class: 2"),
        "weight_capacity.yaml: armor 23 class 2 disagrees",
    )


def test_tables_mech_with_unknown_item_names_the_row() -> None:
    fails(
        broken(
            "mechs",
            "{type: ppg, count: 1, wv: 6, location: arm_r",
            "{type: laser, count: 1, wv: 6, location: arm_r",
        ),
        "mechs.yaml: mechs[5].items[0].type: 'laser' is not one of",
    )


def test_tables_mech_failing_the_design_check_names_the_row() -> None:
    fails(
        broken(
            "mechs",
            "armor: {head: 4, arm_l: 3, arm_r: 3, chest: 8",
            "armor: {head: 1, arm_l: 3, arm_r: 3, chest: 8",
        ),
        "mechs.yaml: mechs[0]: mech 'free_company_c1' fails the design check",
        "speed 4, but armor 31 gives 6",
    )


def test_tables_mech_stats_must_match_the_weapon_table() -> None:
    fails(
        broken(
            "mechs",
            "location: arm_r, range: 18, target: 1, impact: 4}",
            "location: arm_r, range: 24, target: 1, impact: 4}",
        ),
        "mechs.yaml: mechs[3].items[0]: range 24 differs from the table",
    )


def test_tables_twin_wv_must_be_twice_the_single() -> None:
    fails(
        broken("mechs", 'label: "Beam, Heavy (2)", wv: 6', 'label: "Beam, Heavy (2)", wv: 5'),
        "mechs.yaml: mechs[0].items[0]: printed WV 5 != 2 x table WV 3",
    )


def test_tables_stale_accepted_problem_is_an_error() -> None:
    fails(
        broken(
            "mechs",
            "accepted_problems: [location_wv]",
            "accepted_problems: [location_wv, total_wv]",
        ),
        "mechs.yaml: mechs[16].accepted_problems: problems ['total_wv'] do not occur",
    )


def test_tables_loader_functions_take_nodes() -> None:
    node = parse_yaml("- {class: 1, armor_min: 7, armor_max: 36, size: big}", "mech_classes.yaml")
    with pytest.raises(TableError, match=r"mech_classes.yaml: \[0\]: unknown keys \['size'\]"):
        loaders.load_mech_classes(node)
    node = parse_yaml("dice: 2\nversus: impact\nrows: {pass_2: {armor_loss: lots}}", "x.yaml")
    with pytest.raises(TableError, match="x.yaml: rows: missing keys"):
        combat.load_damage(node, ("impact",), "impact")
    good = parse_yaml("- {class: 3, armor_min: 7, armor_max: 36}", "mech_classes.yaml")
    assert loaders.load_mech_classes(good).lookup(20) == 3
