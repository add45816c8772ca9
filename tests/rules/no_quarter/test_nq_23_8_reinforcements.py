"""Reinforcements: the total-7 trigger, faction tables, unit sizes, entry points (§23.8)."""

from __future__ import annotations

import pytest
import yaml

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.mission.reinforcements import (
    ReinforcementOptions,
    arrival_positions,
    parse_reinforcements,
    reinforcement_check,
    reinforcement_entry,
    reinforcement_force,
    reinforcement_side,
    reinforcement_size,
)
from wargym.rules.tables import load_config, parse_yaml


# -- trigger and check (§23.8.1, §23.8.3) ----------------------------------------------------
def test_23_8_3_only_total_seven_and_higher_die_side() -> None:
    assert reinforcement_side(6, 1) is Side.BLUE  # D18
    assert reinforcement_side(2, 5) is Side.RED  # D19
    assert reinforcement_side(3, 4) is Side.RED  # D20
    assert reinforcement_side(5, 3) is None  # D21: total 8
    assert reinforcement_side(5, 4) is None  # B9: total 9


def test_23_8_1_d18_star_army_pass_1_adds_three() -> None:
    check = reinforcement_check(7, ScriptedDice([3, 5, 4, 4]), 4, Faction.STAR_ARMY)
    assert (check.triggered, check.passes, check.score, check.unit) == (True, 1, 11, "one_team")
    assert check.faces == (3, 5) and check.table_faces == (4, 4)


def test_23_8_1_d19_hishen_pass_1_none() -> None:
    check = reinforcement_check(7, ScriptedDice([3, 5, 4, 4]), 4, Faction.HISHEN)
    assert (check.passes, check.score, check.unit) == (1, 11, "none")


def test_23_8_1_d20_hishen_pass_2_platoon() -> None:
    check = reinforcement_check(7, ScriptedDice([1, 2, 1, 1]), 4, Faction.HISHEN)
    assert (check.passes, check.score, check.unit) == (2, 2, "one_platoon")


def test_23_8_1_d21_no_check_without_seven() -> None:
    dice = ScriptedDice([1, 2, 1, 1])
    check = reinforcement_check(8, dice, 4, Faction.STAR_ARMY)
    assert not check.triggered and check.unit == "none" and dice.remaining == 4


def test_23_8_1_pass_0_rolls_no_table() -> None:
    dice = ScriptedDice([5, 6])
    check = reinforcement_check(7, dice, 4, Faction.PDF)
    assert (check.passes, check.table_faces, check.unit) == (0, (), "none")


def test_23_8_1_top_row_open_and_options() -> None:
    # pass 1 with 6 + 6 + 3 = 15 reads the 12+ row
    check = reinforcement_check(7, ScriptedDice([1, 6, 6, 6]), 3, Faction.ZHUH_ZHUH)
    assert (check.score, check.unit) == (15, "none")
    # ISS reads the Star Army table
    iss = reinforcement_check(7, ScriptedDice([1, 1, 5, 5]), 5, Faction.ISS)
    assert iss.unit == "one_team"
    swap = ReinforcementOptions(swap_free_company_hishen=True)
    fc = reinforcement_check(7, ScriptedDice([1, 1, 1, 2]), 3, Faction.FREE_COMPANY, swap)
    assert fc.unit == "rest_of_platoon"  # the Hishen list: 3 -> rest of platoon
    plain = reinforcement_check(7, ScriptedDice([1, 1, 1, 2]), 3, Faction.FREE_COMPANY)
    assert plain.unit == "one_platoon"
    # ruling 0.1: CM 6+ always passes; the "6 always fails" reading is an option
    assert reinforcement_check(7, ScriptedDice([6, 6, 4, 4]), 6, Faction.PDF).passes == 2
    strict = ReinforcementOptions(six_always_fails=True)
    assert reinforcement_check(7, ScriptedDice([6, 6]), 6, Faction.PDF, strict).passes == 0


# -- sizes (§23.8.2) -------------------------------------------------------------------------
def test_23_8_2_b8_zhuh_zhuh_squad_is_six() -> None:
    size = reinforcement_size(
        "one_squad", Faction.ZHUH_ZHUH, deployed_in_platoon=0, partial_squad=False
    )
    assert size.mechs == 6


@pytest.mark.parametrize(
    ("unit", "faction", "deployed", "partial", "now", "mechs"),
    [
        ("one_team", Faction.PDF, 0, False, "one_team", 3),
        ("one_platoon", Faction.PDF, 0, False, "one_platoon", 12),
        ("one_platoon", Faction.HISHEN, 0, False, "one_platoon", 18),
        ("rest_of_platoon", Faction.HISHEN, 5, True, "rest_of_platoon", 13),
        ("rest_of_platoon", Faction.PDF, 11, True, "rest_of_platoon", 3),  # minimum 3
        ("rest_of_platoon", Faction.PDF, 0, False, "one_squad", 6),  # nothing to complete
        ("rest_of_platoon", Faction.PDF, 12, False, "one_squad", 6),  # platoon complete
        ("rest_of_squad", Faction.STAR_ARMY, 3, True, "rest_of_squad", 3),
        ("rest_of_squad", Faction.STAR_ARMY, 0, False, "one_team", 3),
        ("none", Faction.STAR_ARMY, 0, False, "none", 0),
    ],
)
def test_23_8_2_unit_sizes_and_step_down(
    unit: str, faction: Faction, deployed: int, partial: bool, now: str, mechs: int
) -> None:
    size = reinforcement_size(
        unit,  # type: ignore[arg-type]
        faction,
        deployed_in_platoon=deployed,
        partial_squad=partial,
    )
    assert (size.rolled, size.unit, size.mechs) == (unit, now, mechs)


def test_23_8_4_arrivals_use_the_np_enemy_mechs_table() -> None:
    size = reinforcement_size(
        "one_team", Faction.STAR_ARMY, deployed_in_platoon=0, partial_squad=False
    )
    dice = ScriptedDice([2, 4, 5, 6])  # class die 2 + CM 5 + 1 (attack) = 8 -> Class 2
    force = reinforcement_force(size, Faction.STAR_ARMY, dice, campaign_morale=5, mission="attack")
    assert [m.design for m in force.mechs] == ["star_army_c2"] * 3
    assert force.rolls[0].score == 8 and dice.remaining == 0
    # the record: the Class die, and per mech which roll made it and its Rep die
    assert force.rolls[0].dice == (2,)
    assert [(m.block, m.pilot_faces) for m in force.mechs] == [(0, (4,)), (0, (5,)), (0, (6,))]


# -- entry (§23.8.5) -------------------------------------------------------------------------
def test_23_8_5_d22_behind_left() -> None:
    entry = reinforcement_entry(ScriptedDice([2, 4]), home_edge="south")
    assert (entry.edge, entry.point, entry.offset_face) == ("south", (5.0, 0.0), 4)
    assert entry.heading == 90.0


def test_23_8_5_d23_right_edge_from_home_corner() -> None:
    entry = reinforcement_entry(ScriptedDice([6, 3]), home_edge="south")
    assert (entry.edge, entry.point) == ("east", (36.0, 9.0))
    assert entry.heading == 180.0


def test_23_8_5_np_side_sees_left_and_right_from_the_north() -> None:
    left = reinforcement_entry(ScriptedDice([1, 3]), home_edge="north")
    assert (left.edge, left.point) == ("east", (36.0, 27.0))
    right = reinforcement_entry(ScriptedDice([5, 1]), home_edge="north")
    assert (right.edge, right.point) == ("north", (8.0, 36.0))
    centre = reinforcement_entry(ScriptedDice([4]), home_edge="north")
    assert (centre.point, centre.offset_face, centre.heading) == ((18.0, 36.0), None, 270.0)


def test_23_8_5_arrival_block_touches_edge_two_inches_apart() -> None:
    entry = reinforcement_entry(ScriptedDice([3]), home_edge="south")
    assert arrival_positions(entry, 3) == ((16.0, 0.5), (18.0, 0.5), (20.0, 0.5))
    corner = reinforcement_entry(ScriptedDice([6, 6]), home_edge="north")
    spots = arrival_positions(corner, 5)
    assert corner.edge == "west" and all(x == 0.5 for x, _ in spots)
    ys = sorted(y for _, y in spots)
    assert ys == [20.0, 22.0, 24.0, 26.0, 28.0]  # centred on 36 - 12 = 24
    big = arrival_positions(entry, 20)
    assert len(set(big)) == 20 and max(y for _, y in big) == 2.5  # a second row


def test_23_8_tables_loader_names_file_and_key() -> None:
    data = load_config("rules/no_quarter/reinforcements.yaml").value
    data["faction_tables"]["pdf"][7] = "two_squads"
    with pytest.raises(TableError, match=r"reinforcements.yaml: faction_tables.pdf.7"):
        parse_reinforcements(parse_yaml(yaml.safe_dump(data), "reinforcements.yaml"))
    data = load_config("rules/no_quarter/reinforcements.yaml").value
    del data["table_of"]["iss"]
    with pytest.raises(TableError, match="every faction"):
        parse_reinforcements(parse_yaml(yaml.safe_dump(data), "reinforcements.yaml"))
