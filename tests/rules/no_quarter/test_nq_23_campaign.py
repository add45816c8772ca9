"""Campaign rules (§23.3-§23.9, §24): digest vectors B6, B7, D24-D27, D31-D39 and the loop."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.no_quarter.campaigns import campaign_events as cev
from wargym.rules.no_quarter.campaigns import campaign_rules as cr
from wargym.rules.no_quarter.campaigns.campaign import (
    CampaignDefinition,
    MechState,
    MissionSlot,
    PilotState,
    load_definition,
    validate,
)
from wargym.rules.no_quarter.campaigns.campaign_aftermath import MechReport, aftermath
from wargym.rules.no_quarter.campaigns.campaign_play import (
    AssignPilot,
    CampaignGame,
    EndAssignment,
    LaunchMission,
    SelectMech,
    force_limit,
    start_campaign,
)
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Removal
from wargym.rules.no_quarter.mission.missions import MissionType, PlanetStatus

SA, HI, PDF = Faction.STAR_ARMY, Faction.HISHEN, Faction.PDF


# -- 23.3 / 23.4 ---------------------------------------------------------------------------------
def test_23_3_starting_campaign_morale_table_and_carry_over() -> None:
    values = {f: cr.starting_morale(f) for f in Faction}
    assert values == {
        Faction.FREE_COMPANY: 3, HI: 4, Faction.ISS: 5, PDF: 3, SA: 4, Faction.ZHUH_ZHUH: 4,
    }  # fmt: skip
    assert cr.starting_morale(SA, cr.carry_over("win")) == 5
    assert cr.starting_morale(SA, cr.carry_over("loss")) == 3
    assert cr.carry_over("draw") == 0


def test_23_4_b6_higher_total_contests() -> None:
    roll = cr.roll_control(SA, HI, 4, 4, ScriptedDice([3, 5]))
    assert (roll.player_total, roll.enemy_total) == (7, 9)
    assert roll.controls == "player"  # the Hishen contest, the Star Army controls


def test_23_4_d39_pdf_always_control() -> None:
    roll = cr.roll_control(PDF, HI, 3, 4, ScriptedDice([6, 1]))
    assert (roll.player_total, roll.enemy_total) == (9, 5)
    assert roll.controls == "player"
    roll = cr.roll_control(HI, PDF, 4, 3, ScriptedDice([1, 6]))
    assert roll.controls == "enemy"


def test_23_4_ties_are_rerolled() -> None:
    roll = cr.roll_control(SA, HI, 4, 4, ScriptedDice([3, 3, 5, 2]))
    assert roll.rerolls == ((3, 3),)
    assert roll.controls == "enemy"  # 9 against 6: the player contests


# -- 23.5 ----------------------------------------------------------------------------------------
def test_23_5_b7_book_example_three_passes_against_one() -> None:
    change = cr.change_morale(3, 4, False, ScriptedDice([2, 5, 1, 3, 4]))
    assert (change.player_passes, change.enemy_passes) == (1, 3)
    assert (change.player_after, change.enemy_after) == (2, 5)


def test_23_5_d24_one_more_pass_costs_the_loser_one() -> None:
    change = cr.change_morale(4, 4, True, ScriptedDice([1, 2, 6, 3, 5]))
    assert (change.player_passes, change.enemy_passes) == (2, 1)
    assert (change.player_after, change.enemy_after) == (4, 3)


def test_23_5_d25_six_always_fails_and_equal_passes_change_nothing() -> None:
    change = cr.change_morale(7, 2, False, ScriptedDice([6, 6, 5, 6, 4]))
    assert (change.player_passes, change.enemy_passes) == (0, 0)
    assert (change.player_after, change.enemy_after) == (7, 2)


def test_23_5_option_pass_cap_reads_three_passes_as_two() -> None:
    capped = cr.CampaignRulesOptions(morale_pass_cap=True)
    change = cr.change_morale(3, 4, False, ScriptedDice([2, 5, 1, 3, 4]), capped)
    assert (change.player_passes, change.enemy_passes) == (1, 2)
    assert (change.player_after, change.enemy_after) == (2, 4)


def test_23_3_1_end_conditions() -> None:
    assert cr.campaign_end(3, 0, False) == "win"
    assert cr.campaign_end(0, 2, False) == "loss"
    assert cr.campaign_end(0, 0, False) == "draw"
    assert cr.campaign_end(3, 3, True) == "loss"
    assert cr.campaign_end(3, 3, False) is None
    assert cr.compare_final(5, 4) == "win" and cr.compare_final(4, 4) == "draw"


# -- 23.6 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("last", "success", "expected"),
    [
        ("patrol", True, "attack"),  # D26
        ("patrol", False, "defend"),
        ("attack", True, "attack"),
        ("attack", False, "patrol"),
        ("defend", True, "patrol"),
        ("defend", False, "defend"),  # D27
    ],
)
def test_23_6_next_mission(last: str, success: bool, expected: str) -> None:
    assert cr.next_mission(MissionType(last), success) is MissionType(expected)


# -- 23.9 ----------------------------------------------------------------------------------------
def test_23_9_1_d31_extra_dice_and_cap() -> None:
    rec = cr.recover_pilot(0, 4, controls=True, success=True, left=True,
                           dice=ScriptedDice([1, 2, 6, 6]))  # fmt: skip
    assert rec.passes == 2 and rec.rep_restored and rec.outcome == "returns"


def test_23_9_1_pass_one_and_zero() -> None:
    one = cr.recover_pilot(0, 3, controls=False, success=False, left=True,
                           dice=ScriptedDice([3, 4]))  # fmt: skip
    assert (one.passes, one.rep_restored, one.outcome) == (1, True, "returns_failed")
    zero = cr.recover_pilot(0, 3, controls=False, success=True, left=True,
                            dice=ScriptedDice([4, 5, 6]))  # fmt: skip
    assert (zero.passes, zero.rep_restored, zero.outcome) == (0, False, "lost")
    hurt = cr.recover_pilot(0, 3, controls=False, success=False, left=False,
                            dice=ScriptedDice([4, 5]))  # fmt: skip
    assert hurt.outcome == "stays" and not hurt.rep_restored


@pytest.mark.parametrize(
    ("personal", "rep", "face", "after"),
    [("success", 4, 5, 5), ("success", 6, 6, 7), ("failure", 2, 1, 2), ("failure", 4, 1, 3),
     ("success", 4, 4, 4), ("failure", 4, 2, 4)],
)  # fmt: skip
def test_23_9_2_d35_d38_rep_change(personal: str, rep: int, face: int, after: int) -> None:
    check = cr.change_rep(0, rep, personal, ScriptedDice([face]))  # type: ignore[arg-type]
    assert check.rep_after == after


def test_23_9_2_neither_rolls_nothing() -> None:
    dice = ScriptedDice([])
    assert cr.change_rep(0, 4, "neither", dice).rep_after == 4


def test_23_9_2_threshold_size_and_literal() -> None:
    assert cr.personal_result([1], 5, False, False) == "success"  # size 5 >= size 1
    assert cr.personal_result([1], 5, False, False, "literal") == "neither"  # 1 < 5
    assert cr.personal_result([5], 1, False, False) == "neither"  # size 1 < size 5
    assert cr.personal_result([3, 3], 2, False, False) == "success"  # 3 + 3 >= 4
    assert cr.personal_result([1], 5, True, False) == "failure"
    assert cr.personal_result([], 3, False, True) == "failure"
    assert cr.personal_result([], 3, False, False) == "neither"


def test_23_9_4_replacement_pilot_and_six_option() -> None:
    assert cr.roll_replacement_pilot(0, 4, ScriptedDice([4])) == (True, (4,))
    assert cr.roll_replacement_pilot(0, 4, ScriptedDice([5])) == (False, (5,))
    assert cr.roll_replacement_pilot(0, 7, ScriptedDice([6]))[0]  # printed: a 6 passes CM 7
    strict = cr.CampaignRulesOptions(six_always_fails="all_morale_rolls")
    assert not cr.roll_replacement_pilot(0, 7, ScriptedDice([6]), strict)[0]


def test_23_9_5_d32_d33_repair_sub_roll_against_class() -> None:
    d32 = cr.repair_mech(0, 4, 3, controls=False, dice=ScriptedDice([2, 5, 3]))
    assert (d32.passes, d32.class_face, d32.unavailable) == (1, 3, 0)
    d33 = cr.repair_mech(0, 4, 2, controls=False, dice=ScriptedDice([2, 5, 3, 5]))
    assert (d33.passes, d33.class_face, d33.half_face, d33.unavailable) == (1, 3, 5, 3)
    both = cr.repair_mech(0, 4, 2, controls=True, dice=ScriptedDice([6, 5, 1, 2]))
    assert (both.faces, both.passes, both.class_face, both.unavailable) == ((6, 5, 1), 1, 2, 0)
    zero = cr.repair_mech(0, 2, 3, controls=False, dice=ScriptedDice([3, 4, 1]))
    assert (zero.passes, zero.half_face, zero.unavailable) == (0, 1, 1)


def test_23_9_5_recovering_mechs() -> None:
    assert cr.mech_recoverable(False, False, False)
    assert not cr.mech_recoverable(True, False, True)  # Chest explosion (ruling)
    assert not cr.mech_recoverable(False, True, False)  # pilot left, objective failed
    assert cr.mech_recoverable(False, True, True)


def test_23_9_6_d34_replacements() -> None:
    d34 = cr.replace_mechs(7, [3, 4], ScriptedDice([6, 6]))
    assert (d34.passes, d34.replaced) == (0, ())
    every = cr.replace_mechs(4, [3, 4], ScriptedDice([1, 4]))
    assert every.replaced == (3, 4)
    one = cr.replace_mechs(4, [3, 4, 9], ScriptedDice([1, 5, 5, 3]))  # 5 re-rolled, 3 -> third
    assert (one.passes, one.pick_faces, one.replaced) == (1, (5, 3), (9,))


# -- the aftermath in order (§23.9, §24 steps 13-17) ---------------------------------------------
def _campaign() -> tuple[CampaignDefinition, object]:
    definition = dataclasses.replace(load_definition("generic"), use_attributes=False)
    campaign, _ = start_campaign(definition, RandomDice.from_seed(1))
    for pilot, rep in zip(campaign.pilots, (5, 4, 4, 4, 4, 4, 4, 4, 4), strict=True):
        pilot.rep = rep
    campaign.player_cm, campaign.player_status = 3, PlanetStatus.CONTESTS
    return definition, campaign


def _report(mech: int, rep: int, **kw: object) -> MechReport:
    design = load_rules().mech(["star_army_c3", "star_army_c4", "star_army_c4"][mech])
    base = dict(injury=0, removed=None, left=False, exploded=False, kills=(),
                armor=design.armor, speed=design.speed, inoperable=(), lost_limbs=())  # fmt: skip
    base.update(kw)
    return MechReport(mech, mech, rep, **base)  # type: ignore[arg-type]


def _reports() -> list[MechReport]:
    c4 = load_rules().mech("star_army_c4").armor
    return [
        _report(0, 5, removed=Removal.DESTROYED),  # head blown off: pilot dead, Mech recovered
        _report(1, 4, injury=1, left=True),  # left a failed mission: Mech lost
        _report(2, 4, kills=(3,), armor=(c4[0] - 1, *c4[1:])),  # a kill, some damage
    ]


def test_23_9_aftermath_full_order() -> None:
    _, c = _campaign()
    rep_table = load_rules().pilot_rep["star_army"]
    dice = ScriptedDice([1, 5, 1, 6, 2, 3, 1, 2, 4, 5, 3, 1, 1, 6])
    out = aftermath(c, _reports(), False, dice, True)  # type: ignore[arg-type]
    assert dice.remaining == 0
    kinds = [type(e).__name__ for e in out]
    assert kinds == [
        "MechRecovered",
        "MechRecovered",
        "PilotRecovered",
        "RepChecked",
        "RepChecked",
        "ReplacementPilotRolled",
        "CompanyPilotCreated",
        "MechRepaired",
        "MechRepaired",
        "MechsReplaced",
        "CompanyPilotCreated",
    ]  # fmt: skip  (each new pilot's rolls follow his roll or replacement, §9, E25)
    p0, p1, p2 = (c.pilot(i) for i in range(3))  # type: ignore[attr-defined]
    assert p0.state is PilotState.DEAD and p0.mech is None
    assert (p1.rep, p1.state, p1.mech) == (3, PilotState.ACTIVE, None)  # restored 4, then -1
    assert (p2.rep, p2.kills) == (5, 1)  # success: 6 always gives +1
    m0, m1, m2 = (c.mech(i) for i in range(3))  # type: ignore[attr-defined]
    assert m0.state is MechState.READY and m0.pilot is not None
    assert c.pilot(m0.pilot).rep == rep_table[2]  # type: ignore[attr-defined]
    assert m1.state is MechState.REPLACED
    assert (m2.state, m2.unavailable) == (MechState.REPAIRING, 2)
    assert not m2.damaged()
    new = c.mech(out[-2].new_mechs[0])  # type: ignore[attr-defined, union-attr]
    assert new.design == "star_army_c4" and c.pilot(new.pilot).rep == rep_table[5]  # type: ignore
    validate(c)  # type: ignore[arg-type]


def test_27_7_no_repairs_after_mission_8_option() -> None:
    _, c = _campaign()
    dice = ScriptedDice([1, 5, 1, 6])
    out = aftermath(c, _reports(), False, dice, False)  # type: ignore[arg-type]
    assert isinstance(out[-1], cev.AftermathSkipped) and dice.remaining == 0
    assert c.mech(0).state is MechState.DISABLED and c.mech(0).pilot is None  # type: ignore
    assert c.mech(1).state is MechState.LOST  # type: ignore[attr-defined]
    assert c.mech(2).damaged() and c.mech(2).state is MechState.READY  # type: ignore


# -- the loop ------------------------------------------------------------------------------------
def _short(definition: CampaignDefinition, turns: int = 3, **kw: object) -> CampaignDefinition:
    slots = tuple(dataclasses.replace(s, turn_limit=turns) for s in definition.missions)
    return dataclasses.replace(definition, missions=slots, **kw)  # type: ignore[arg-type]


def _play(game: CampaignGame, seed: int, limit: int = 5000) -> list[int]:
    from wargym.campaign_cli import scripted

    dice, played, seen = RandomDice.from_seed(seed), [], game.campaign.played
    for _ in range(limit):
        if game.decider() is None:
            break
        game.play(scripted(game, game.legal_actions()), dice)
        if game.campaign.played != seen:
            seen = game.campaign.played
            played.append(seen)
            c = game.campaign
            validate(c)
            assert len(c.history) == seen and c.history[-1].number == seen
            assert c.history[-1].player_cm[1] == c.player_cm or c.over
            assert c.month == seen // 2 + 1
            assert c.player_cm >= 0 and c.enemy_cm >= 0
    return played


def test_24_generic_campaign_scripted_reaches_its_end() -> None:
    definition = _short(load_definition("generic"), max_missions=3)
    game = CampaignGame.start(definition, RandomDice.from_seed(11), np.random.default_rng(11))
    assert game.campaign.history == [] and game.decider() is not None
    played = _play(game, 12)
    c = game.campaign
    assert c.over and c.result in ("win", "loss", "draw")
    assert played == list(range(1, len(played) + 1)) and len(played) <= 3
    assert c.history[0].kind == "patrol"  # the first mission is a Patrol (§22.1)
    for before, after in zip(c.history, c.history[1:], strict=False):
        expected = cr.next_mission(MissionType(before.kind), before.status == "success")
        assert after.kind == expected.value
    names = [e["type"] for e in c.events]
    assert names[0] == "CampaignStarted" and names[-1] == "CampaignEnded"
    assert names.count("MissionFinished") == len(played) == names.count("MoraleChanged")
    assert c.carry_over == cr.carry_over(c.result)  # type: ignore[arg-type]


def test_27_5_fixed_order_final_compare_and_no_repairs_slot() -> None:
    base = load_definition("generic")
    slots = (
        MissionSlot("one", "patrol_star_army_vs_hishen", 2),
        MissionSlot("two", "defend_star_army_vs_hishen", 2, repairs_after=False),
        MissionSlot("three", "attack_hishen_vs_star_army", 2),
    )
    definition = dataclasses.replace(base, missions=slots, sequence="fixed", final_compare=True,
                                     max_missions=None, status="both_contest",
                                     starting_morale={SA: 9, HI: 9})  # fmt: skip
    game = CampaignGame.start(definition, RandomDice.from_seed(3), np.random.default_rng(3))
    assert game.campaign.player_status is PlanetStatus.CONTESTS
    assert game.campaign.enemy_status is PlanetStatus.CONTESTS
    assert _play(game, 4) == [1, 2, 3]
    c = game.campaign
    assert [r.name for r in c.history] == ["one", "two", "three"]
    assert c.result == cr.compare_final(c.player_cm, c.enemy_cm)
    skipped = [e for e in c.events if e["type"] == "AftermathSkipped"]
    assert [e["number"] for e in skipped] == [2]


def test_23_2_force_selection_decisions_and_limit() -> None:
    definition = _short(load_definition("generic"))
    game = CampaignGame.start(definition, RandomDice.from_seed(5), np.random.default_rng(5))
    dice = RandomDice.from_seed(6)
    if game.stage == "assign":
        game.play(EndAssignment(), dice)
    assert game.stage == "select"
    assert LaunchMission() not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.play(LaunchMission(), dice)
    limit = force_limit(game.campaign, game.slot)
    assert limit == 6  # a Patrol takes a Squad (§22.1.2)
    for _ in range(limit):
        game.play(next(a for a in game.legal_actions() if isinstance(a, SelectMech)), dice)
    assert game.legal_actions() == [LaunchMission()]
    events = game.play(LaunchMission(), dice)
    launched = next(e for e in events if isinstance(e, cev.MissionLaunched))
    assert len(launched.mechs) == limit and game.stage in ("battle", "assign", "select")
    battle = game.battle
    if battle is not None:  # the Company's pilots and Reps are in the battle's Mechs
        for bid, pid in game.tracker.pilots.items():  # type: ignore[union-attr]
            assert battle.mech(bid).pilot.name == game.campaign.pilot(pid).name


def test_23_9_4_spare_pilot_may_replace_a_lower_rep_pilot() -> None:
    definition = _short(load_definition("generic"))
    campaign, _ = start_campaign(definition, RandomDice.from_seed(2))
    game = CampaignGame(campaign, np.random.default_rng(0))
    low = campaign.mechs[1]
    campaign.pilot(low.pilot).rep = 3  # type: ignore[arg-type]
    spare = dataclasses.replace(campaign.pilot(0), id=99, mech=None, rep=4, name="spare")
    campaign.pilots.append(spare)
    options = game.legal_actions()
    assert AssignPilot(99, low.id) in options
    assert all(campaign.pilot(campaign.mech(o.mech).pilot).rep < 4  # type: ignore[arg-type]
               for o in options if isinstance(o, AssignPilot))  # fmt: skip
    game.play(AssignPilot(99, low.id), RandomDice.from_seed(0))
    assert low.pilot == 99 and any(p.mech is None and p.rep == 3 for p in campaign.pilots)
    validate(campaign)


def test_27_1_playable_as_the_other_side() -> None:
    base = load_definition("generic")
    definition = dataclasses.replace(
        base, playable=(SA, HI), company={**base.company, HI: ("hishen_c3", "hishen_c4")}
    )
    campaign, _ = start_campaign(definition, RandomDice.from_seed(3), faction=HI)
    assert (campaign.player, campaign.enemy) == (HI, SA)
    assert [m.design for m in campaign.mechs] == ["hishen_c3", "hishen_c4"]
    with pytest.raises(IllegalActionError):
        start_campaign(base, RandomDice.from_seed(3), faction=HI)


def test_23_2_a_launched_mission_returns_its_set_up_events_and_the_play_to_the_first_decision() -> (
    None
):
    definition = _short(load_definition("generic"))
    game = CampaignGame.start(definition, RandomDice.from_seed(5), np.random.default_rng(5))
    dice = RandomDice.from_seed(6)
    if game.stage == "assign":
        game.play(EndAssignment(), dice)
    for _ in range(force_limit(game.campaign, game.slot)):
        game.play(next(a for a in game.legal_actions() if isinstance(a, SelectMech)), dice)
    events = game.play(LaunchMission(), dice)
    assert game.launched is not None
    start, setup, ahead = game.launched
    kinds = [type(e).__name__ for e in events]
    assert "PefPlaced" in kinds  # §20.0: the section rolls of the PEFs
    assert kinds.index("MissionLaunched") < kinds.index("PefPlaced") < kinds.index("TurnStarted")
    assert [e for e in events if not isinstance(e, cev.CAMPAIGN_EVENT_CLASSES)][
        : len(setup) + len(ahead)
    ] == setup + ahead
    assert start.turn == 0 or start.decision is None  # set up, no rule played yet
    assert all(e["type"] in {c.__name__ for c in cev.CAMPAIGN_EVENT_CLASSES} for e in
               game.campaign.events)  # fmt: skip  # the campaign's own log keeps its own events
