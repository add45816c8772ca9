"""Generic missions as data and the evaluation of their objectives (§22.0-22.3)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction, Removal, Side, Status
from wargym.rules.no_quarter.mission.missions import (
    AttackObjective,
    Deployment,
    MissionOptions,
    MissionProgress,
    MissionType,
    OutcomeStatus,
    PlanetStatus,
    SideTally,
    deployment_zone,
    evaluate_mission,
    is_casualty,
    mission_spec,
    np_objective_for_roll,
    player_force_limit,
    recon_section_at,
    record_exit,
    record_recon,
    required_exits,
    roll_np_objective,
    tally_side,
)

ONGOING, SUCCESS, FAILURE = OutcomeStatus.ONGOING, OutcomeStatus.SUCCESS, OutcomeStatus.FAILURE
DESTROY, BREAK = AttackObjective.DESTROY, AttackObjective.BREAK_THROUGH


# -- 22.0 mission data ------------------------------------------------------------------------
def test_22_0_mission_table() -> None:
    patrol, attack, defend = (mission_spec(m) for m in MissionType)
    assert (patrol.deployment, patrol.deploy_sections, patrol.np_posture) == (
        Deployment.ENTER_EDGE,
        (7, 8, 9),
        "patrol",
    )
    assert (patrol.night_on, patrol.inclement_on, patrol.player_force_max) == ((), (1,), "squad")
    assert patrol.np_tables == ("22.1.6", "22.2.6")
    assert (attack.deployment, attack.np_posture, attack.night_on) == (
        Deployment.ENTER_EDGE,
        "defend",
        (6,),
    )
    assert (attack.player_force_max, attack.np_tables) == ("platoon", ("22.2.6",))
    assert (defend.deployment, defend.np_posture, defend.np_tables) == (
        Deployment.SET_UP,
        "attack",
        ("22.3.6", "22.3.7"),
    )
    assert defend.inclement_on == (1,) and defend.player_force_max == "platoon"


def test_22_force_limits_by_faction() -> None:
    assert player_force_limit("patrol", Faction.STAR_ARMY) == 6
    assert player_force_limit("attack", Faction.STAR_ARMY) == 18
    assert player_force_limit("attack", Faction.ISS) == 18
    assert player_force_limit("defend", Faction.PDF) == 12
    assert player_force_limit("defend", Faction.HISHEN) == 18


def test_22_0_ruling_28_deployment_zones() -> None:
    assert deployment_zone("patrol") == ((0, 0, 12, 1), (12, 0, 24, 1), (24, 0, 36, 1))
    assert deployment_zone("defend") == ((0, 0, 12, 12), (12, 0, 24, 12), (24, 0, 36, 12))


# -- 22.3.1 NP objective ----------------------------------------------------------------------
def test_22_3_1_derived_d29_d30_and_whole_table() -> None:
    assert np_objective_for_roll(PlanetStatus.CONTESTS, 2) is DESTROY  # D29
    assert np_objective_for_roll(PlanetStatus.CONTROLS, 5) is BREAK  # D30
    limits = {PlanetStatus.CONTROLS: 4, PlanetStatus.CONTESTS: 2, PlanetStatus.NO_CAMPAIGN: 3}
    for status, last_destroy in limits.items():
        for face in range(1, 7):
            want = DESTROY if face <= last_destroy else BREAK
            assert np_objective_for_roll(status, face) is want
    dice = ScriptedDice([4])
    assert roll_np_objective(dice, PlanetStatus.NO_CAMPAIGN) == (BREAK, 4)
    with pytest.raises(RulesError):
        np_objective_for_roll(PlanetStatus.CONTESTS, 0)


# -- 22.0 rulings: ratios and casualties --------------------------------------------------------
def test_22_0_ruling_29_three_quarters_rounded_up() -> None:
    assert [required_exits(n) for n in (1, 2, 3, 4, 5, 6, 12)] == [1, 2, 3, 3, 4, 5, 9]
    assert required_exits(0) == 1  # at least one mech must exit
    assert required_exits(6, "down") == 4


def test_22_0_ruling_29_casualties() -> None:
    assert is_casualty(Removal.DESTROYED, Status.CARRY_ON)
    assert is_casualty(Removal.INOPERABLE, Status.CARRY_ON)
    assert is_casualty(Removal.CHEATED_DEATH, Status.CARRY_ON)
    assert is_casualty(Removal.LEFT_TABLE, Status.LEAVE_BATTLEFIELD)
    assert not is_casualty(Removal.LEFT_TABLE, Status.CARRY_ON)  # a voluntary exit
    assert not is_casualty(None, Status.LEAVE_BATTLEFIELD)


def test_22_0_tally_side_from_battle_mechs() -> None:
    battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(1))
    blue = sorted(m.id for m in battle.mechs.values() if m.side is Side.BLUE)
    battle.mechs[blue[0]].removed = Removal.DESTROYED
    battle.mechs[blue[1]].removed = Removal.LEFT_TABLE  # voluntary, north
    tally = tally_side(battle.mechs.values(), Side.BLUE, {blue[1]: "north"})
    assert tally == SideTally(3, 3, 1, 1, 1, 0)
    battle.mechs[blue[1]].status = Status.LEAVE_BATTLEFIELD
    tally = tally_side(battle.mechs.values(), Side.BLUE, {blue[1]: "north"})
    assert (tally.casualties, tally.exited_north) == (2, 0)


# -- 22.1 Patrol ------------------------------------------------------------------------------
def _patrol(n: int = 6) -> MissionProgress:
    return MissionProgress(MissionType.PATROL, player=SideTally(n, n, n))


def test_22_1_1_recon_needs_6_inches_of_the_north_edge_in_each_far_section() -> None:
    assert recon_section_at((6, 30)) == 1 and recon_section_at((18, 35)) == 2
    assert recon_section_at((6, 29.9)) is None  # 6.1" from the edge
    assert recon_section_at((30, 20)) is None
    p = _patrol()
    for pos in ((6, 31), (6, 29), (18, 33)):
        p = record_recon(p, pos)
    assert p.recon == frozenset({1, 2})


def test_22_1_1_patrol_success_only_after_recon_and_a_report_south() -> None:
    p = _patrol(2)
    p = record_exit(p, player=True, edge="south", leaving_battlefield=False)  # too early
    assert p.reported_back == 0 and evaluate_mission(p).status is ONGOING
    for pos in ((2, 34), (20, 34), (30, 31)):
        p = record_recon(p, pos)
    assert evaluate_mission(p).status is ONGOING
    fled = record_exit(p, player=True, edge="south", leaving_battlefield=True)
    assert fled.reported_back == 0 and fled.player.casualties == 1
    assert evaluate_mission(fled) == evaluate_mission(fled)  # pure
    assert evaluate_mission(fled).status is FAILURE  # nobody left to report
    done = record_exit(p, player=True, edge="south", leaving_battlefield=False)
    out = evaluate_mission(done)
    assert (out.status, out.over) == (SUCCESS, True)  # last mech left: mission over
    still = replace(done, player=replace(done.player, on_table=1))
    assert (evaluate_mission(still).status, evaluate_mission(still).over) == (SUCCESS, False)
    assert evaluate_mission(still, MissionOptions(patrol_ends_on_success=True)).over


def test_22_1_patrol_turn_limit_option() -> None:
    p = replace(_patrol(), turn=8)
    assert evaluate_mission(p).status is ONGOING  # no limit in the book
    out = evaluate_mission(p, MissionOptions(turn_limit=8))
    assert (out.status, out.over) == (FAILURE, True)


# -- 22.2 Attack ------------------------------------------------------------------------------
def _attack(objective: AttackObjective, **kw: object) -> MissionProgress:
    base = MissionProgress(
        MissionType.ATTACK,
        player=SideTally(6, 6, 6),
        enemy=SideTally(3, 3, 3),
        pefs_on_table=2,
        attack_objective=objective,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def test_22_2_1_destroy() -> None:
    p = _attack(DESTROY)
    assert evaluate_mission(p).status is ONGOING
    assert evaluate_mission(replace(p, enemy=SideTally(3, 3, 0, 3))).status is ONGOING  # PEFs
    won = replace(p, enemy=SideTally(3, 3, 0, 3), pefs_on_table=0)
    assert (evaluate_mission(won).status, evaluate_mission(won).over) == (SUCCESS, True)
    lost = replace(p, player=SideTally(6, 6, 0, 6))
    assert evaluate_mission(lost).status is FAILURE
    with pytest.raises(RulesError):
        evaluate_mission(replace(p, attack_objective=None))


def test_22_2_1_break_through_needs_three_quarters_and_more_casualties_inflicted() -> None:
    # 6 started, 2 reinforcements arrived: 8 fielded -> 6 must exit north.
    player = SideTally(6, 8, 3, 0, 5)
    p = _attack(BREAK, player=player, enemy=SideTally(3, 3, 2, 1))
    assert evaluate_mission(p).status is ONGOING  # 5 exits < 6
    p6 = record_exit(p, player=True, edge="north", leaving_battlefield=False)
    assert p6.player.exited_north == 6
    out = evaluate_mission(p6)
    assert (out.status, out.over) == (SUCCESS, True)
    assert evaluate_mission(p, MissionOptions(ratio_denominator="started")).status is SUCCESS
    assert not evaluate_mission(p6, MissionOptions(exit_ends_on_threshold=False)).over
    even = replace(p6, player=replace(p6.player, casualties=1))  # 1 inflicted vs 1 received
    assert evaluate_mission(even).status is ONGOING
    gone = replace(even, player=replace(even.player, on_table=0))
    assert evaluate_mission(gone).status is FAILURE


# -- 22.3 Defend ------------------------------------------------------------------------------
def _defend(objective: AttackObjective, **kw: object) -> MissionProgress:
    base = MissionProgress(
        MissionType.DEFEND,
        player=SideTally(6, 6, 6),
        enemy=SideTally(4, 4, 4),
        pefs_on_table=1,
        np_objective=objective,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def test_22_3_1_np_break_through_fails_the_player() -> None:
    # 4 NP mechs revealed -> 3 must exit south; NP inflicted 2, received 1.
    p = _defend(BREAK, player=SideTally(6, 6, 4, 2), enemy=SideTally(4, 4, 0, 1, 0, 3))
    out = evaluate_mission(p)
    assert (out.status, out.over, out.reason) == (FAILURE, True, "the enemy broke through")
    equal = replace(p, player=SideTally(6, 6, 5, 1))
    assert evaluate_mission(equal).status is ONGOING  # casualties not more: PEF still there
    assert evaluate_mission(replace(equal, pefs_on_table=0)).status is SUCCESS


def test_22_3_1_destroy_and_end_rulings() -> None:
    p = _defend(DESTROY)
    assert evaluate_mission(p).status is ONGOING
    assert evaluate_mission(replace(p, player=SideTally(6, 6, 0, 6))).status is FAILURE
    cleared = replace(p, enemy=SideTally(4, 4, 0, 4), pefs_on_table=0)
    assert evaluate_mission(cleared).status is SUCCESS
    late = evaluate_mission(replace(p, turn=10), MissionOptions(turn_limit=10))
    assert (late.status, late.over) == (SUCCESS, True)  # the NP failed in time
    with pytest.raises(RulesError):
        evaluate_mission(replace(p, np_objective=None))
    with pytest.raises(RulesError):
        MissionOptions(turn_limit=0)
