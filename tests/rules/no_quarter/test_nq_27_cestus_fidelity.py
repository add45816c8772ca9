"""Cestus V fidelity (issue 15, item 19): starting Company, standalone force size, The Troll,
Mission 8 set-up (§27.3, §27.8, §19.3.1)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle.actions import ExitTable
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.game import legal_actions, rules_of
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.sections import exit_point, section_of
from wargym.rules.no_quarter.campaigns import campaign_events as cev
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import (
    CampaignGame,
    LaunchMission,
    SelectMech,
    start_campaign,
)
from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition, force_table
from wargym.rules.no_quarter.cestus.cestus_v_rolls import force_class_for, np_group_default
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.non_player.enemy import NpObjective, NpOptions
from wargym.rules.no_quarter.non_player.enemy_decide import _exit, _goal
from wargym.rules.no_quarter.non_player.np_flow import check_reinforcements
from wargym.rules.no_quarter.non_player.pef import pef_detected, place_pefs, spotters_of
from wargym.rules.no_quarter.sight_movement.perception import bodies


def test_27_3_company_rolled_per_team() -> None:
    definition = load_definition("cestus_v")
    rules = load_rules()
    table = force_table(campaign_definition().mission(1), "player")
    seen: set[tuple[int, ...]] = set()
    for seed in range(6):
        campaign, events = start_campaign(definition, RandomDice.from_seed(seed))
        rolled = [e for e in events if isinstance(e, cev.CompanyRolled)]
        assert len(rolled) == 1
        event = rolled[0]
        assert event.table == "27 mission 1 star_army_force" and len(event.classes) == 12
        for faces, split, cls in zip(event.faces, event.splits, event.classes, strict=True):
            assert force_class_for(table, sum(faces), split) == cls  # each Team's own 2d6
        classes = [rules.mech(m.design).mech_class for m in campaign.mechs]
        assert len(classes) == 36
        # three Mechs per Team, all of the Team's rolled Class (§27.3 ruling)
        assert classes == [c for c in event.classes for _ in range(3)]
        seen.add(event.classes)
        stars = [p for p in campaign.pilots if p.star]
        assert len(stars) == 1 and stars[0].rep == 5
        assert all(rules.mech(m.design).faction is Faction.STAR_ARMY for m in campaign.mechs)
    assert len(seen) > 1  # rolled, not a fixed cycle


def test_27_8_standalone_missions_3_to_10_field_the_whole_company() -> None:
    for n in range(3, 11):
        mission = campaign_definition().mission(n)
        sc = mission.scenario("gaea_prime")
        assert len(sc.player.mechs) == 36 == sc.force_limit  # "the whole Company" (N.0.2)
    battle = new_mission(
        campaign_definition().mission(3).scenario("gaea_prime"),
        np.random.default_rng(1),
        RandomDice.from_seed(1),
    )
    assert len(battle.mechs_of(Side.BLUE)) == 36


# The Troll's retest once per later player activation (2.0.6 ruling), at the activation's start
# and at the inch of a move where LOS to the bridge first exists: test_nq_27_m2_troll_per_inch.py.


def _as_set_up(scenario: Any, seed: int) -> Battle:
    """The battle as set up, before any rule plays (a copy taken by the prepare hook)."""
    opening: list[Battle] = []
    new_mission(
        scenario,
        np.random.default_rng(seed),
        RandomDice.from_seed(seed),
        prepare=lambda b: opening.append(copy.deepcopy(b)),
    )
    return opening[0]


def test_27_m8_opening_pefs_hidden_in_sections_1_4_5() -> None:
    mission = campaign_definition().mission(8)
    hidden_somewhere = False
    for seed in range(3):
        setup = _as_set_up(mission.scenario("gaea_prime"), seed)
        assert setup.np is not None
        pefs = setup.np["pefs"]
        bf = setup.battlefield
        spotters = spotters_of(setup, Side.BLUE)
        assert [section_of((p["pos"][0], p["pos"][1]), bf.width, bf.height) for p in pefs] == [
            1,
            4,
            5,
        ]
        for pef, n in zip(pefs, (1, 4, 5), strict=True):
            pos = (pef["pos"][0], pef["pos"][1])
            # 20.0 step 2 with the section fixed: the same spot the rolled placement would pick
            (want,) = place_pefs(bf, spotters, ScriptedDice([n]), count=1, bodies=bodies(setup))
            assert pos == want.pos
            if want.hidden:
                hidden_somewhere = True
                assert not pef_detected(bf, pos, spotters, bodies=bodies(setup))
    assert hidden_somewhere


def test_27_m8_hishen_head_for_and_leave_through_section_7() -> None:
    mission = campaign_definition().mission(8)
    state = np_group_default(mission)
    assert state.objective is NpObjective.BREAK_THROUGH and state.exit_sections == (7,)
    battle = next(  # a set-up whose play to the first decision already revealed a contact
        b
        for seed in range(40)
        for b in [
            new_mission(
                mission.scenario("gaea_prime"),
                np.random.default_rng(seed),
                RandomDice.from_seed(seed),
            )
        ]
        if b.mechs_of(Side.RED)
    )
    red = battle.mechs_of(Side.RED)[0]
    free = dataclasses.replace(state, target=None)
    for start in ((30.0, 30.0), (20.0, 8.0), (5.0, 20.0)):
        red.pos = start
        goal = _goal(battle, red, free, [], 6.0, [], NpOptions())
        assert goal is not None and goal[1] < 1.0 and goal[0] <= 12.0  # section 7's south edge
    exit_south = ExitTable(red.id, "south")
    red.pos = (18.0, 2.0)  # in reach of the south edge, but through section 8
    assert _exit(battle, [exit_south], red, free, [], 6.0) is None
    red.pos = (9.0, 2.0)  # through section 7: the Hishen objective (8.0.1)
    assert _exit(battle, [exit_south], red, free, [], 6.0) == exit_south


def _launched_with_reserve(seed: int) -> tuple[CampaignGame, RandomDice]:
    campaign, _ = start_campaign(load_definition("cestus_v"), RandomDice.from_seed(seed))
    game = CampaignGame(campaign, np.random.default_rng(seed))
    dice = RandomDice.from_seed(seed + 100)
    game.settle(dice)
    game.play(next(a for a in game.legal_actions() if isinstance(a, SelectMech)), dice)
    game.play(LaunchMission(), dice)  # one Mech sent: the rest of the Company stays off-table
    return game, dice


def test_23_8_4_company_reinforcements_keep_their_record_and_carry_damage() -> None:
    for seed in range(40):
        game, dice = _launched_with_reserve(seed)
        battle, campaign = game.battle, game.campaign
        if battle is None or battle.over or battle.mission is None:
            continue
        for entry in battle.mission["reserve"]:  # every off-table Mech carries old damage
            record = campaign.mech(entry["company"])
            record.armor = tuple(max(1, a - 1) for a in record.armor)
            pilot = campaign.pilot(entry["pilot"])
            pilot.star = True  # a Star off-table: the record, not the scenario, decides
        before = set(battle.mechs)
        check_reinforcements(Ctx(battle, RandomDice.from_seed(seed), rules_of(battle)), 6, 1)
        arrived = [b for b in battle.mission.get("reserve_used", {}) if int(b) not in before]
        if not arrived or battle.decision is None:
            continue
        game.play(legal_actions(battle)[0], dice)
        tracker = game.tracker
        assert tracker is not None
        for key in arrived:
            bid = int(key)
            cid = tracker.roster[bid]  # joined the roster: kills and losses count (§23.9)
            entry = battle.mission["reserve_used"][key]
            assert cid == entry["company"] and tracker.pilots[bid] == entry["pilot"]
            mech, record = battle.mech(bid), campaign.mech(cid)
            pilot = campaign.pilot(entry["pilot"])
            assert mech.pilot == pilot.as_pilot(campaign.player)  # race, attributes, Star
            full = mech.design.armor
            assert all(
                now <= kept for now, kept in zip(mech.armor, record.armor, strict=True)
            ) and any(now < f for now, f in zip(mech.armor, full, strict=True))
        return
    raise AssertionError("no Company reinforcement arrived in 40 seeds")


def test_27_m8_exit_point_refuses_an_unknown_edge() -> None:
    with pytest.raises(StateError, match="edge: 'up'"):
        exit_point((5.0, 5.0), "up", (7,))
    assert exit_point((30.0, 30.0), "south", (7,)) == (11.5, 0.5)  # inside section 7's segment
