"""Cestus V (§27): mission data, tables, objectives, scenarios for both sides and the campaign."""

from __future__ import annotations

import copy
import dataclasses
from importlib import resources
from typing import Any

import numpy as np
import pytest
import yaml

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import RulesError, TableError
from wargym.rules.no_quarter.battle.game import legal_actions, play
from wargym.rules.no_quarter.battlefield.terrain import Body, path_problem
from wargym.rules.no_quarter.cestus.cestus_v import (
    CestusMission,
    CestusOptions,
    CestusProgress,
    aftermath_steps,
    bridgehead_counts,
    building_pef_excluded_sections,
    campaign_definition,
    campaign_end,
    cestus_evaluate,
    cestus_force,
    contact_enemies,
    counts_as_objective_exit,
    deployment_zones,
    force_class_for,
    force_size,
    force_table,
    is_forbidden_exit,
    may_withdraw,
    mission_for_scenario,
    np_group_default,
    on_bridge,
    pef_contact_deltas,
    pef_entry_points,
    player_exit_edges,
    recon_section,
    required_exits,
    roll_force_class,
    roll_starting_company,
    roll_troll,
    side_factions,
    starting_morale,
    troll_force,
    troll_position,
    village_checked,
)
from wargym.rules.no_quarter.cestus.cestus_v_data import (
    FOLDER,
    TrollPlacement,
    parse_campaign,
    parse_mission,
)
from wargym.rules.no_quarter.forces.vocab import Faction, Terrain
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.mission.missions import (
    AttackObjective,
    MissionProgress,
    MissionType,
    OutcomeStatus,
    SideTally,
)
from wargym.rules.no_quarter.mission.scenario import scenario_from_dict
from wargym.rules.no_quarter.non_player.enemy import NpObjective, NpPosture
from wargym.rules.no_quarter.non_player.pef import resolve_pef
from wargym.rules.tables import Node

CAMPAIGN = campaign_definition()
NUMBERS = tuple(range(1, 11))
SUCCESS, FAILURE, ONGOING = OutcomeStatus.SUCCESS, OutcomeStatus.FAILURE, OutcomeStatus.ONGOING


def m(n: int) -> CestusMission:
    return CAMPAIGN.mission(n)


def _raw(stem: str) -> dict[str, Any]:
    text = resources.files("wargym.configs").joinpath(f"{FOLDER}/{stem}.yaml").read_text()
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def tally(on_table: int = 6, fielded: int = 6, casualties: int = 0) -> SideTally:
    return SideTally(fielded, fielded, on_table, casualties, 0, 0)


def progress(n: int, **kw: Any) -> CestusProgress:
    kw.setdefault("player", tally())
    kw.setdefault("enemy", tally(on_table=3, fielded=3))
    kw.setdefault("pefs_on_table", 2)
    return CestusProgress(n, **kw)


# -- 27.2, 27.5, 27.6: the missions and their tables --------------------------------------------
def test_27_2_ten_missions_in_printed_order() -> None:
    names = [x.name for x in CAMPAIGN.missions]
    assert names == [
        "Trip Wire", "The Troll", "Breakthrough", "Knock Knock", "Breakout",
        "Fighting Withdrawal", "Stonewall", "Pick and Roll", "Lightning Strike", "Knockout Punch",
    ]  # fmt: skip
    assert [x.number for x in CAMPAIGN.missions] == list(NUMBERS)
    kinds = [x.kind.value for x in CAMPAIGN.missions]
    assert kinds == ["patrol"] + ["attack"] * 4 + ["defend"] * 2 + ["attack"] * 3
    assert not CAMPAIGN.use_next_mission_table and CAMPAIGN.last_mission == 10
    with pytest.raises(Exception, match="missions 1-10"):
        CAMPAIGN.mission(11)


def test_27_5_overview_days_weather_and_deployment() -> None:
    assert [x.night_on for x in CAMPAIGN.missions] == [()] * 4 + [(6,)] * 4 + [()] * 2
    assert [x.inclement_on for x in CAMPAIGN.missions] == [(1,)] * 4 + [(1, 2)] + [(1,)] * 5
    assert [x.deployment.kind for x in CAMPAIGN.missions] == ["enter_edge"] * 5 + ["set_up"] * 2 + [
        "enter_edge"
    ] * 3
    assert m(6).deployment.sections == (1, 2, 3) and m(6).home_edge == "north"
    assert [x.pef_placement.kind for x in CAMPAIGN.missions] == ["standard"] * 5 + [
        "enter_random",
        "enter_random",
        "fixed_sections",
        "standard",
        "standard",
    ]
    assert [x.default_formation for x in CAMPAIGN.missions] == ["squad", "platoon"] + [
        "company"
    ] * 8
    assert force_size(m(1), Faction.STAR_ARMY) == 6
    assert force_size(m(2), Faction.STAR_ARMY) == 18
    assert force_size(m(5), Faction.STAR_ARMY) == 36


EXPECTED_LISTS = {  # data_27_6_table_assignment: (pef, enemy, star army)
    1: ("P1", "B", "A"), 2: ("P1", "C", "A"), 3: ("P3", "C", "D"), 4: ("P1", "C'", "D"),
    5: ("P1", "E", "D"), 6: ("P6", "E", "F"), 7: ("P6", "E", "G"), 8: ("P1", "E", "H"),
    9: ("P6", "C", "H"), 10: ("P10", "C", "H"),
}  # fmt: skip
PEF_LISTS = {
    "P1": [-3, -2, -1, 1, 2, 3],
    "P3": [-1, -1, -2, 2, 2, -3],
    "P6": [1, -2, 2, 2, -3, 3],
    "P10": [-1, 1, -2, 2, 2, -3],
}


@pytest.mark.parametrize("n", NUMBERS)
def test_27_6_table_assignment_and_lists(n: int) -> None:
    mission = m(n)
    pef, enemy, star = EXPECTED_LISTS[n]
    assert (
        mission.pef_resolution.source_list,
        mission.enemy_force.source_list,
        mission.star_army_force.source_list,
    ) == (pef, enemy, star)
    assert [mission.pef_resolution.deltas[f] for f in range(1, 7)] == PEF_LISTS[pef]
    assert mission.pef_resolution.minimum_enemies == 1
    # signature check 4: every Enemy list has a Class 1, no Star Army list has one
    enemy_classes = {c for r in mission.enemy_force.rows.values() for _, _, c in r.bands}
    star_classes = {c for r in mission.star_army_force.rows.values() for _, _, c in r.bands}
    assert 1 in enemy_classes and 1 not in star_classes
    star_pattern = [mission.star_army_force.rows[t].bands[0][2] for t in (2, 4, 6, 10, 11, 12)]
    assert star_pattern == [3, 2, 3, 5, 3, 3]
    assert mission.enemy_force.rows[10].split is (n not in (5, 6, 7, 8))


def test_27_6_same_list_same_table() -> None:
    lists: dict[str, Any] = {}
    for mission in CAMPAIGN.missions:
        for t in (mission.enemy_force, mission.star_army_force):
            lists.setdefault(t.source_list, t.rows)
            assert lists[t.source_list] == t.rows, t.source_list
    assert lists["C'"][2].bands == ((1, 6, 2),) and lists["C"][2].bands == ((1, 6, 3),)


# -- derived vectors D11-D17 ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("vector", "n", "face", "triggering", "enemies"),
    [("D11", 1, 1, 3, 1), ("D12", 6, 6, 3, 6), ("D13", 10, 2, 3, 4)],
)
def test_27_d11_d13_pef_contact(
    vector: str, n: int, face: int, triggering: int, enemies: int
) -> None:
    assert contact_enemies(m(n), face, triggering) == enemies
    # the same through the engine's PEF resolution (20.3): two passes -> Contact!, then 1d6
    res = resolve_pef(
        ScriptedDice([1, 2, face]),
        triggering=triggering,
        last_pef=False,
        contact_so_far=False,
        contact_deltas=pef_contact_deltas(m(n)),
    )
    assert (res.result, res.contact_face, res.enemies) == ("contact", face, enemies)


def test_27_2_contact_face_out_of_range() -> None:
    with pytest.raises(RulesError):
        contact_enemies(m(1), 7, 3)


@pytest.mark.parametrize(
    ("vector", "n", "table", "dice", "mech_class"),
    [
        ("D14", 1, "np", [4, 6, 5], 2),
        ("D15", 1, "np", [4, 6, 4], 5),
        ("D16", 8, "player", [1, 2], 5),
        ("D17", 5, "np", [6, 6], 1),
    ],
)
def test_27_d14_d17_force_class(
    vector: str, n: int, table: str, dice: list[int], mech_class: int
) -> None:
    scripted = ScriptedDice(dice)
    roll = roll_force_class(force_table(m(n), table), scripted)  # type: ignore[arg-type]
    assert roll.mech_class == mech_class and roll.total == dice[0] + dice[1]
    assert scripted.remaining == 0  # the split die is rolled only on a split row


def test_27_6_force_class_lookup_errors() -> None:
    with pytest.raises(RulesError, match="split"):
        force_class_for(m(1).enemy_force, 10)
    with pytest.raises(RulesError, match="2..12"):
        force_class_for(m(1).enemy_force, 13)
    assert force_class_for(m(1).enemy_force, 11) == 1


def test_27_2_cestus_force_replaces_np_enemy_mechs() -> None:
    # 4 Hishen: block of 3 (2d6 = 7 -> Class 3) with 3 Rep dice, block of 1 (11 -> Class 1)
    dice = ScriptedDice([3, 4, 1, 3, 6, 5, 6, 2])
    force = cestus_force(4, Faction.HISHEN, dice, m(1).enemy_force)
    assert [r.mech_class for r in force.rolls] == [3, 1]
    assert [r.mechs for r in force.rolls] == [3, 1]
    assert [x.design for x in force.mechs] == ["hishen_c3"] * 3 + ["hishen_c1"]
    assert [x.rep for x in force.mechs] == [3, 4, 4, 3]  # 9.4.2 Hishen row
    assert dice.remaining == 0


def test_27_1_tables_keep_their_roles() -> None:
    assert force_table(m(3), "np") is m(3).enemy_force
    assert force_table(m(3), "player") is m(3).star_army_force


# -- the Troll (Mission 2, 2.0.6) -------------------------------------------------------------
def test_27_m2_troll_table_and_placement() -> None:
    faces = [roll_troll(m(2), ScriptedDice([f])).placement for f in range(1, 7)]
    assert (
        faces
        == [TrollPlacement.ON_BRIDGE] * 2 + [TrollPlacement.ON_HILL] * 2 + [TrollPlacement.NONE] * 2
    )
    pos, heading = troll_position(m(2), TrollPlacement.ON_BRIDGE)
    assert pos == (27.0, 24.0) and heading == 270.0
    pos, heading = troll_position(m(2), TrollPlacement.ON_HILL)
    assert pos == (29.5, 31.0)  # crest end nearest the bridge, 0.5" on its side
    assert 180.0 < heading < 270.0  # facing the bridge (south-west)
    force = troll_force(m(2), Faction.HISHEN, ScriptedDice([6]))
    assert [(x.design, x.rep) for x in force.mechs] == [("hishen_c1", 4)]
    with pytest.raises(RulesError):
        roll_troll(m(3), ScriptedDice([1]))
    with pytest.raises(RulesError):
        troll_position(m(2), TrollPlacement.NONE)


# -- objectives (27.8; decisions 29-37) --------------------------------------------------------
def test_27_m1_recon_then_report_back() -> None:
    assert recon_section(m(1), (6.0, 31.0)) == 1
    assert recon_section(m(1), (18.0, 29.0)) is None  # 7" from the north edge
    assert player_exit_edges(m(1), 1) == ("south",)
    p = progress(1, recon=frozenset({1, 2}), reported_back=0)
    assert cestus_evaluate(m(1), p).status is ONGOING
    done = progress(1, recon=frozenset({1, 2, 3}), reported_back=1)
    outcome = cestus_evaluate(m(1), done)
    assert (outcome.status, outcome.over) == (SUCCESS, False)  # ends when no mech remains
    gone = progress(1, recon=frozenset({1, 2, 3}), reported_back=1, player=tally(on_table=0))
    assert cestus_evaluate(m(1), gone).status is SUCCESS
    lost = progress(1, recon=frozenset({1, 2, 3}), player=tally(on_table=0))
    assert cestus_evaluate(m(1), lost).status is FAILURE


def test_27_m2_bridgehead_counts_and_threshold() -> None:
    counts = bridgehead_counts(
        m(2),
        [(1, (27.0, 30.0)), (2, (30.0, 38.0 - 3.0)), (3, (10.0, 30.0)), (4, (27.0, 10.0))],
        enemies=[(27.0, 39.0 - 3.0), (2.0, 2.0)],
        pefs=[(5.0, 5.0)],
    )
    # (27,30) and (30,35) are on the far bank within 12" of the north end; (10,30) is 15" away
    assert (counts.player_at_objective, counts.enemy_near_objective) == (2, 1)
    assert counts.pefs_near_objective == 0
    held = dict(player=tally(on_table=5), enemy=tally(0, 3), pefs_on_table=1)
    p = progress(2, player_at_objective=3, **held)
    assert cestus_evaluate(m(2), p).status is ONGOING  # judged at the end of a turn
    assert cestus_evaluate(m(2), progress(2, player_at_objective=3, end_of_turn=True, **held)).over
    two = progress(2, player_at_objective=2, end_of_turn=True, **held)
    assert cestus_evaluate(m(2), two).status is ONGOING
    survivors = dict(player=tally(on_table=2), enemy=tally(0, 3), pefs_on_table=0)
    few = progress(2, player_at_objective=2, end_of_turn=True, **survivors)
    assert cestus_evaluate(m(2), few).status is SUCCESS  # all survivors if fewer than 3
    near = progress(2, player_at_objective=3, end_of_turn=True, enemy_near_objective=1, **held)
    assert cestus_evaluate(m(2), near).status is ONGOING
    anytime = CestusOptions(bridgehead_at_end_of_turn=False)
    assert cestus_evaluate(m(2), p, anytime).status is SUCCESS


@pytest.mark.parametrize("n", [3, 5, 9])
def test_27_exit_fraction_half_the_force(n: int) -> None:
    assert required_exits(m(n), 36) == 18 and required_exits(m(n), 5) == 3
    p17 = progress(n, objective_exits=17, player=tally(19, 36))
    assert cestus_evaluate(m(n), p17).status is ONGOING
    p18 = progress(n, objective_exits=18, player=tally(18, 36))
    outcome = cestus_evaluate(m(n), p18)
    assert (outcome.status, outcome.over) == (SUCCESS, True)  # decision 32
    later = cestus_evaluate(m(n), p18, CestusOptions(exit_ends_on_threshold=False))
    assert (later.status, later.over) == (SUCCESS, False)
    gone = progress(n, objective_exits=3, player=tally(0, 36))
    assert cestus_evaluate(m(n), gone).status is FAILURE


def test_27_exit_sections_and_edges() -> None:
    assert counts_as_objective_exit(m(3), (18.0, 36.0), "north", 1)
    assert not counts_as_objective_exit(m(3), (6.0, 36.0), "north", 1)
    assert player_exit_edges(m(3), 1) == ("north",)
    assert player_exit_edges(m(9), 1) == ("north", "east")
    assert counts_as_objective_exit(m(9), (36.0, 30.0), "east", 1)  # ruling: east edge counts
    assert not counts_as_objective_exit(m(9), (36.0, 20.0), "east", 1)
    assert player_exit_edges(m(2), 3) == () and player_exit_edges(m(10), 3) == ()


def test_27_m4_village_must_be_checked() -> None:
    used = {m(4).feature_indices("village_a")[0], m(4).feature_indices("village_c")[0], 99}
    assert village_checked(m(4), used) == {"village_a", "village_c"}
    clear = dict(enemy=tally(0, 6), pefs_on_table=0)
    part = progress(4, village_checked=frozenset({"village_a", "village_c"}), **clear)
    assert cestus_evaluate(m(4), part).status is ONGOING
    every = frozenset({"village_a", "village_b", "village_c", "village_d"})
    assert cestus_evaluate(m(4), progress(4, village_checked=every, **clear)).status is SUCCESS
    assert cestus_evaluate(m(4), progress(4, village_checked=every)).status is ONGOING


def test_27_m6_turn_5_withdrawal() -> None:
    assert not may_withdraw(m(6), 4) and may_withdraw(m(6), 5) and may_withdraw(m(3), 1)
    assert player_exit_edges(m(6), 4) == () and player_exit_edges(m(6), 5) == ("north",)
    assert not counts_as_objective_exit(m(6), (18.0, 36.0), "north", 4)
    assert counts_as_objective_exit(m(6), (18.0, 36.0), "north", 5)
    assert not counts_as_objective_exit(m(6), (18.0, 0.0), "south", 6)
    running = progress(6, objective_exits=18, player=tally(4, 36, 14), enemy=tally(0, 20, 14))
    assert cestus_evaluate(m(6), running).over is False  # ends only when no player mech remains
    assert cestus_evaluate(m(6), running).status is SUCCESS  # so far
    even = progress(6, objective_exits=18, player=tally(0, 36, 14), enemy=tally(2, 20, 14))
    assert cestus_evaluate(m(6), even).status is SUCCESS
    uneven = progress(6, objective_exits=18, player=tally(0, 36, 15), enemy=tally(2, 20, 14))
    assert cestus_evaluate(m(6), uneven).status is FAILURE
    few = progress(6, objective_exits=17, player=tally(0, 36, 1), enemy=tally(2, 20, 14))
    assert cestus_evaluate(m(6), few).status is FAILURE


def test_27_m7_stonewall() -> None:
    assert is_forbidden_exit(m(7), (18.0, 36.0), "north")
    assert is_forbidden_exit(m(7), (0.0, 30.0), "west")  # corner section 1's side edge
    assert not is_forbidden_exit(m(7), (0.0, 20.0), "west")
    assert not is_forbidden_exit(m(7), (18.0, 0.0), "south")
    broke = progress(7, enemy_forbidden_exits=1)
    assert (cestus_evaluate(m(7), broke).status, cestus_evaluate(m(7), broke).over) == (
        FAILURE,
        True,
    )
    assert cestus_evaluate(m(7), progress(7)).status is ONGOING
    clear = progress(7, enemy=tally(0, 9, 9), pefs_on_table=0)
    assert cestus_evaluate(m(7), clear).status is SUCCESS
    limited = cestus_evaluate(m(7), progress(7, turn=8), CestusOptions(turn_limit=8))
    assert (limited.status, limited.over) == (SUCCESS, True)


def test_27_m8_pick_and_roll() -> None:
    assert is_forbidden_exit(m(8), (5.0, 0.0), "south")
    assert is_forbidden_exit(m(8), (0.0, 6.0), "west")
    assert not is_forbidden_exit(m(8), (15.0, 0.0), "south")
    assert on_bridge(m(8), (27.0, 24.0)) and not on_bridge(m(8), (20.0, 24.0))
    player = [(1, (30.0, 30.0)), (2, (33.0, 33.0)), (3, (26.0, 32.0)), (4, (30.0, 26.0))]
    counts = bridgehead_counts(m(8), player, [], [], crossed={1, 2, 3, 4})
    assert counts.player_at_objective == 3  # (30, 26) is still in the river, south of y 27
    assert bridgehead_counts(m(8), player, [], [], crossed={1}).player_at_objective == 1
    clear = dict(enemy=tally(0, 9, 9), pefs_on_table=0)
    held = progress(8, player_at_objective=3, **clear)
    assert cestus_evaluate(m(8), held).status is SUCCESS
    short = progress(8, player_at_objective=1, **clear)
    assert cestus_evaluate(m(8), short).status is FAILURE  # the mission ends when clear
    going = cestus_evaluate(m(8), short, CestusOptions(clear_ends_mission=False))
    assert going.status is ONGOING
    slipped = progress(8, player_at_objective=3, enemy_forbidden_exits=1, **clear)
    assert cestus_evaluate(m(8), slipped).status is FAILURE


def test_27_m10_destroy_all() -> None:
    assert cestus_evaluate(m(10), progress(10, enemy=tally(1, 9, 8), pefs_on_table=0)).status is (
        ONGOING
    )
    assert cestus_evaluate(m(10), progress(10, enemy=tally(0, 9, 9), pefs_on_table=0)).status is (
        SUCCESS
    )
    assert cestus_evaluate(m(10), progress(10, player=tally(0, 36, 36))).status is FAILURE


def test_27_progress_from_generic_and_mismatch() -> None:
    generic = MissionProgress(MissionType.ATTACK, turn=3, player=tally(), pefs_on_table=1)
    p = CestusProgress.from_mission_progress(generic, 3, objective_exits=2)
    assert (p.turn, p.player, p.pefs_on_table, p.objective_exits) == (3, tally(), 1, 2)
    with pytest.raises(RulesError, match="mission 3"):
        cestus_evaluate(m(4), p)
    with pytest.raises(RulesError):
        CestusOptions(turn_limit=0)


# -- NP side and PEF placement (decisions 27, 37) ---------------------------------------------
def test_27_np_posture_objective_and_edges() -> None:
    assert np_group_default(m(1)).posture is NpPosture.PATROL
    m3 = np_group_default(m(3))
    assert (m3.posture, m3.own_edge, m3.exit_edge) == (NpPosture.DEFEND, "north", "south")
    m7 = np_group_default(m(7))
    assert (m7.posture, m7.objective, m7.own_edge, m7.exit_edge) == (
        NpPosture.ATTACK,
        NpObjective.BREAK_THROUGH,
        "south",
        "north",
    )
    m8 = np_group_default(m(8))
    assert (m8.objective, m8.exit_edge) == (NpObjective.BREAK_THROUGH, "south")
    with pytest.raises(RulesError, match="22.3.1"):
        np_group_default(m(6))
    assert np_group_default(m(6), AttackObjective.DESTROY).objective is NpObjective.DESTROY
    assert building_pef_excluded_sections(m(6)) == (1, 2, 3)
    assert building_pef_excluded_sections(m(4)) == ()


def test_27_pef_placement_rules() -> None:
    dice = ScriptedDice([1, 4, 6])
    assert pef_entry_points(m(6), dice) == (
        (1, 7, (6.0, 0.0)),
        (4, 8, (18.0, 0.0)),
        (6, 9, (30.0, 0.0)),
    )
    assert [s for _, s, _ in pef_entry_points(m(8), ScriptedDice([]))] == [1, 4, 5]
    assert pef_entry_points(m(3), ScriptedDice([])) == ()


# -- the campaign (27.3, 27.5, 27.7) -----------------------------------------------------------
def test_27_5_starting_morale_and_sides() -> None:
    assert starting_morale(Faction.HISHEN) == 4
    assert starting_morale(Faction.STAR_ARMY) == 4
    assert starting_morale(Faction.ISS) == 5
    assert side_factions("gaea_prime") == (Faction.STAR_ARMY, Faction.HISHEN)
    assert side_factions("hishen", Faction.ISS) == (Faction.HISHEN, Faction.ISS)
    with pytest.raises(RulesError):
        side_factions("zhuh_zhuh")
    with pytest.raises(RulesError):
        side_factions("gaea_prime", Faction.PDF)
    with pytest.raises(RulesError):
        starting_morale(Faction.PDF)
    assert CAMPAIGN.status == {"gaea_prime": "contests", "hishen": "contests"}


def test_27_7_no_repairs_after_mission_8() -> None:
    after8 = aftermath_steps(8)
    assert (after8.recovery, after8.rep_increase, after8.rep_decrease) == (True, True, True)
    assert not (after8.replacement_pilots or after8.repairs or after8.replacement_mechs)
    assert all(getattr(aftermath_steps(7), f) for f in aftermath_steps(7).__dataclass_fields__)
    assert m(8).special.no_repairs_or_replacements_after and m(9).special.carry_over_damage
    assert CAMPAIGN.unavailable_countdown_continues


def test_27_5_end_of_the_campaign() -> None:
    def end(p: int, e: int, played: int, company: int = 20) -> Any:
        return campaign_end(player_cm=p, enemy_cm=e, missions_played=played, company_mechs=company)

    assert end(3, 0, 4).result == "win"
    assert end(0, 2, 4).result == "loss"
    assert end(3, 2, 4, company=0).result == "loss"
    assert end(3, 2, 9) is None
    assert end(5, 3, 10).result == "win"
    assert end(2, 3, 10).result == "loss"
    assert end(3, 3, 10).result == "draw"


def test_27_3_starting_company_classes() -> None:
    dice = ScriptedDice([1, 1, 2, 2, 5, 5, 6, 6] + [3, 3] * 8)
    classes = roll_starting_company(dice)
    assert classes[:4] == (3, 2, 5, 3) and len(classes) == 12 and dice.remaining == 0
    assert CAMPAIGN.company_teams == 12 and CAMPAIGN.star_rep == 5


# -- maps and deployment (27.4) ----------------------------------------------------------------
@pytest.mark.parametrize("n", NUMBERS)
def test_27_4_fixed_battlefield_is_legal(n: int) -> None:
    mission = m(n)
    bf = mission.battlefield()
    assert (bf.width, bf.height) == (36.0, 36.0) and bf.features == mission.features()
    for f in bf.features:
        assert 0 <= f.x0 < f.x1 <= 36 and 0 <= f.y0 < f.y1 <= 36
        if f.kind is Terrain.BUILDING:
            assert f.x1 - f.x0 <= 6 and f.y1 - f.y0 <= 6 and f.building_armor == 3
    armour = mission.special.building_armor
    assert armour in (None, 3)
    if any(f.kind is Terrain.BUILDING for f in bf.features):
        assert armour == 3


def test_27_4_named_features() -> None:
    for n in (2, 8):
        river, bridge = m(n).feature("river").rect, m(n).feature("bridge").rect
        assert river[3] - river[1] == 6 and m(n).special.river_width_in == 6
        assert bridge[1] < river[1] and bridge[3] > river[3] and 24 <= bridge[3] <= 36
    assert m(9).feature("river").rect[3] - m(9).feature("river").rect[1] == 3
    assert m(9).feature("crest_hill").features[0].crest == ((25.5, 28.0), (34.5, 28.0))
    village = [m(4).feature(name) for name in m(4).objective.village]
    assert len(village) == 4 and all(v.sections == (2,) for v in village)


@pytest.mark.parametrize("n", NUMBERS)
def test_27_8_deployment_zones_are_usable(n: int) -> None:
    mission = m(n)
    bf = mission.battlefield()
    zones = deployment_zones(mission)
    expected = (1, 2, 3) if mission.deployment.kind == "set_up" else (7, 8, 9)
    assert len(zones) == 3 and mission.deployment.sections == expected
    placed: list[Body] = []
    for x0, y0, x1, y1 in zones:
        for i in range(int(x1 - x0)):
            p = (x0 + 0.5 + i, (y0 + y1) / 2.0)
            if path_problem(bf, [p, p], mover_id=-9, bodies=placed, radius=0.5) is None:
                placed.append(Body(-1 - len(placed), p))
    assert len(placed) >= 18


# -- scenarios for both sides ------------------------------------------------------------------
@pytest.mark.parametrize("n", NUMBERS)
def test_27_1_scenario_for_both_sides(n: int) -> None:
    mission = m(n)
    gaea, hishen = mission.scenario("gaea_prime"), mission.scenario("hishen")
    assert (gaea.player.faction, gaea.enemy.faction) == (Faction.STAR_ARMY, Faction.HISHEN)
    assert (hishen.player.faction, hishen.enemy.faction) == (Faction.HISHEN, Faction.STAR_ARMY)
    for sc in (gaea, hishen):
        assert sc.kind == mission.kind.value and sc.np_status.value == "contests"
        assert sc.features == mission.features()
        assert sc.conditions.night_on == mission.night_on
        assert sc.conditions.inclement_on == mission.inclement_on
        assert (sc.player.campaign_morale, sc.enemy.campaign_morale) == (4, 4)
        assert sc.attack_objective is mission.generic_objective
        assert scenario_from_dict(sc.to_dict()) == dataclasses.replace(sc, source="<dict>")
        assert len(sc.player.mechs) == force_size(mission, sc.player.faction)  # N.0.2 size
    assert mission_for_scenario(gaea.name) is mission
    assert mission_for_scenario(hishen.name) is mission
    iss = mission.scenario("gaea_prime", faction=Faction.ISS)
    assert iss.player.campaign_morale == 5
    if n == 7:
        assert gaea.np_objective is AttackObjective.BREAK_THROUGH
    if n == 6:
        assert gaea.np_objective is None  # rolled on 22.3.1 'contests'


def test_27_scenario_default_force_reaches_a_decision() -> None:
    battle = new_mission(m(2).scenario("hishen"), np.random.default_rng(3), RandomDice.from_seed(4))
    assert len(battle.mechs_of(battle.mechs[0].side)) == 18 and battle.decision is not None
    assert mission_for_scenario("skirmish") is None


def test_27_scenario_force_choice_and_engine_limit() -> None:
    sc = m(2).scenario("gaea_prime", mechs=["star_army_c5"] * 3, reps=[5, 4, 4], turn_limit=6)
    assert sc.player.mechs == ("star_army_c5",) * 3 and sc.player.reps == (5, 4, 4)
    assert sc.turn_limit == 6 and sc.player.stars == 1
    limit = force_size(m(5), Faction.STAR_ARMY)  # the book's formation: the whole Company
    assert m(5).scenario("gaea_prime", mechs=["star_army_c3"] * limit).force_limit == limit
    with pytest.raises(TableError, match="exceed"):
        m(5).scenario("gaea_prime", mechs=["star_army_c3"] * (limit + 1))
    with pytest.raises(TableError, match="hishen"):
        m(5).scenario("gaea_prime", mechs=["hishen_c3"])


@pytest.mark.parametrize("n", NUMBERS)
@pytest.mark.parametrize("side", ["gaea_prime", "hishen"])
def test_27_8_every_mission_plays_as_either_side(n: int, side: str) -> None:
    mission = m(n)
    factions = side_factions(side)
    ids = [f"{factions[0].value}_c{c}" for c in (3, 4, 2, 5, 3, 4)]
    sc = mission.scenario(side, mechs=ids)
    dice = RandomDice.from_seed(100 + n)
    battle = new_mission(sc, np.random.default_rng(n), dice)
    assert battle.mission is not None and battle.mission["kind"] == mission.kind.value
    assert battle.decision is not None or battle.over
    chooser = np.random.default_rng(7 + n)
    for _ in range(6):
        if battle.over:
            break
        options = legal_actions(battle)
        play(battle, options[int(chooser.integers(len(options)))], dice)


# -- strict loading ----------------------------------------------------------------------------
def test_27_every_file_cites_a_source() -> None:
    folder = resources.files("wargym.configs").joinpath(FOLDER)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml"))
    assert len(names) == 11
    for name in names:
        assert folder.joinpath(name).read_text().startswith("# Source: 5150 No Quarter §27")


def _bad(stem: str, change: Any) -> str:
    data = copy.deepcopy(_raw(stem))
    change(data)
    with pytest.raises(TableError) as info:
        parse_mission(Node(data, f"{stem}.yaml"), stem)
    return str(info.value)


def test_27_loader_rejects_bad_files_naming_file_and_key() -> None:
    stem = "mission_04_knock_knock"
    msg = _bad(stem, lambda d: d.update(extra=1))
    assert msg.startswith(f"{stem}.yaml") and "unknown keys ['extra']" in msg
    msg = _bad(stem, lambda d: d["enemy_force"]["rows"].pop(7))
    assert "enemy_force.rows" in msg and "2-12" in msg
    msg = _bad(stem, lambda d: d["enemy_force"]["rows"][10]["split"][1]["d6"].__setitem__(0, 4))
    assert "enemy_force.rows.10.split" in msg
    msg = _bad(stem, lambda d: d["objective"]["village"].append("chapel"))
    assert "objective.village" in msg and "chapel" in msg
    msg = _bad(stem, lambda d: d["map"][1].update(rect=[10, 25, 17, 29]))
    assert "map[1]" in msg and "6.0 x 6.0" in msg
    msg = _bad(stem, lambda d: d["map"][5].update(rect=[30, 25, 38, 33], sections=[3]))
    assert "off the table" in msg
    msg = _bad(stem, lambda d: d["map"][5].update(sections=[9]))
    assert "map[5].sections" in msg
    msg = _bad(stem, lambda d: d["pef_resolution"]["rows"].pop(6))
    assert "pef_resolution.rows" in msg
    msg = _bad(stem, lambda d: d["map"][1].update(armor=4))
    assert "armour is not 3" in msg
    msg = _bad(stem, lambda d: d.update(generic_objective="none"))
    assert "generic_objective" in msg
    msg = _bad(stem, lambda d: d["force"].update(default="battalion"))
    assert "force.default" in msg
    msg = _bad("mission_02_the_troll", lambda d: d["map"][0].update(width=5))
    assert "map[0].width" in msg
    msg = _bad("mission_02_the_troll", lambda d: d["special"]["troll"].update(hill="woods_1"))
    assert "special.troll.hill" in msg
    msg = _bad("mission_02_the_troll", lambda d: d["map"][2]["polyline"].append([30, 40]))
    assert "axis-aligned" in msg


def test_27_campaign_loader_checks_order() -> None:
    text = resources.files("wargym.configs").joinpath(f"{FOLDER}/campaign.yaml").read_text()
    data = yaml.safe_load(text)
    data["missions"][0], data["missions"][1] = data["missions"][1], data["missions"][0]
    with pytest.raises(TableError, match=r"missions\[0\]"):
        parse_campaign(Node(data, "campaign.yaml"))
    data = yaml.safe_load(text)
    data["starting_campaign_morale"].pop("iss")
    with pytest.raises(TableError, match="iss"):
        parse_campaign(Node(data, "campaign.yaml"))


def test_27_6_cestus_force_records_every_die_per_mech() -> None:
    # Mission 1's Enemy Force row 10 is split: 2d6 = 4+6, then the split 1d6 (5 -> Class 2)
    dice = ScriptedDice([4, 6, 5, 3, 2])
    force = cestus_force(2, Faction.HISHEN, dice, m(1).enemy_force)
    assert force.rolls[0].dice == (4, 6, 5)
    assert force.rolls[0].mech_class == 2
    assert [(x.block, x.pilot_faces) for x in force.mechs] == [(0, (3,)), (0, (2,))]
    assert dice.remaining == 0
