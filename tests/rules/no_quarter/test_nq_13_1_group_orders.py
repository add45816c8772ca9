"""Voluntary group orders (§13.1, §12.2, ruling D30, E19), played through ``game.play``.

At the start of its activation phase the side that activates may have each higher leader take
in the groups of his formation within his command radius (``lead_teams``), then split mechs
off its groups one at a time (``split_group``). ``command_groups="teams"`` /
``"command_radius"`` and ``group_splits="off"`` keep the automatic groups.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    ActivateGroup,
    DecisionKind,
    KeepGroups,
    LeadDone,
    LeadTeam,
    SplitOff,
    action_from_dict,
    action_to_dict,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battle.validity import check_battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Side, Terrain


def _battle(blue: int, options: BattleOptions, field: Battlefield | None = None) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * blue, use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",), use_attributes=False),
    ]
    battle = new_battle(
        forces, field or Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0), options
    )
    for mech in battle.mechs.values():
        mech.rep = 4
        mech.pilot = dataclasses.replace(mech.pilot, rep=4)
    battle.mechs[blue].pos = (18.0, 34.0)  # the red mech, far off and out of every radius
    return battle


def _rep(battle: Battle, mech: int, rep: int) -> None:
    battle.mechs[mech].rep = rep
    battle.mechs[mech].pilot = dataclasses.replace(battle.mechs[mech].pilot, rep=rep)


def _platoon(options: BattleOptions | None = None, field: Battlefield | None = None) -> Battle:
    """tv10's Platoon: Rep 4 Platoon Leader 0; Team 3-5 (Rep 5 leader) 6" away; Team 6-8 far."""
    battle = _battle(9, options or BattleOptions(), field)
    _rep(battle, 3, 5)
    blue = [m for m in battle.mechs.values() if m.side is Side.BLUE]
    for i, mech in enumerate(blue):
        mech.pos = ((4.0, 10.0, 24.0)[i // 3], 4.0 + 2.0 * (i % 3))
    assert battle.mechs[0].rank is Rank.PLATOON_LEADER
    assert battle.mechs[6].rank is Rank.SQUAD_LEADER
    return battle


def _chain(options: BattleOptions | None = None) -> Battle:
    """One Team in a chain 0 - 1 - 2, 7" apart (0 and 2 are 14" apart); Team Leader 0 Rep 3."""
    battle = _battle(3, options or BattleOptions())
    for mech, y in zip((0, 1, 2), (4.0, 11.0, 18.0), strict=True):
        battle.mechs[mech].pos = (4.0, y)
    _rep(battle, 0, 3)
    assert battle.mechs[0].rank is Rank.TEAM_LEADER
    return battle


def _start(battle: Battle, blue: int, red: int) -> list[object]:
    events = game.advance(battle, ScriptedDice([blue, red]))
    rolled = next(e for e in events if isinstance(e, ev.ActivationRolled))
    assert rolled.first is Side.BLUE
    return events


def _kind(battle: Battle) -> DecisionKind:
    decision = game.decider(battle)
    assert decision is not None
    return decision.kind


def test_12_2_the_platoon_leader_chooses_to_take_the_team_in_his_radius() -> None:
    battle = _platoon()
    _start(battle, 4, 3)
    decision = game.decider(battle)
    assert decision is not None and decision.side is Side.BLUE
    assert (decision.kind, decision.mech) == (DecisionKind.LEAD_TEAMS, 0)
    # Team 3-5 is 6" away and in sight; Team 6-8 (20" away) is not offered
    assert game.legal_actions(battle) == [LeadTeam(0, 3), LeadDone(0)]
    events = game.play(battle, LeadTeam(0, 3), ScriptedDice([]))
    joined = next(e for e in events if isinstance(e, ev.TeamJoined))
    assert (joined.leader, joined.joined, joined.members) == (0, (3, 4, 5), (0, 1, 2, 3, 4, 5))
    assert all(battle.group_of[i] == 0 for i in range(6))
    assert _kind(battle) is DecisionKind.SPLIT_GROUP  # nothing else in his radius: he is done
    game.play(battle, KeepGroups(), ScriptedDice([]))
    legal = game.legal_actions(battle)
    assert ActivateGroup(0) in legal and ActivateGroup(3) not in legal
    events = game.play(battle, ActivateGroup(0), ScriptedDice([]))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert set(activated.members) == {0, 1, 2, 3, 4, 5}
    assert (activated.activation_rep, activated.die) == (4, 4)


def test_12_2_the_leader_may_let_the_team_activate_on_its_own_rep_5_leader() -> None:
    battle = _platoon()
    _start(battle, 5, 4)
    assert _kind(battle) is DecisionKind.LEAD_TEAMS
    game.play(battle, LeadDone(0), ScriptedDice([]))
    game.play(battle, KeepGroups(), ScriptedDice([]))
    legal = game.legal_actions(battle)
    assert ActivateGroup(3) in legal and ActivateGroup(0) not in legal
    events = game.play(battle, ActivateGroup(3), ScriptedDice([]))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert set(activated.members) == {3, 4, 5} and activated.activation_rep == 5


def test_12_2_no_choice_without_a_team_in_the_radius_or_out_of_sight() -> None:
    walls = (
        Feature(Terrain.BUILDING, 6.0, 0.5, 8.0, 6.0, building_armor=3),
        Feature(Terrain.BUILDING, 6.0, 6.0, 8.0, 11.5, building_armor=3),
    )
    battle = _platoon(field=Battlefield(features=walls))
    _start(battle, 4, 3)
    assert _kind(battle) is DecisionKind.SPLIT_GROUP  # 6" away but out of sight: no lead_teams


def test_12_2_automatic_alternatives_keep_the_old_groups() -> None:
    merged = _platoon(BattleOptions(command_groups="command_radius", group_splits="off"))
    _start(merged, 4, 3)
    assert _kind(merged) is DecisionKind.ACTIVATE_GROUP
    assert ActivateGroup(3) not in game.legal_actions(merged)  # joined the leader unasked
    teams = _platoon(BattleOptions(command_groups="teams", group_splits="off"))
    _start(teams, 5, 4)
    assert _kind(teams) is DecisionKind.ACTIVATE_GROUP
    assert ActivateGroup(3) in game.legal_actions(teams)


def test_13_1_a_split_off_mech_activates_alone_when_its_leader_cannot() -> None:
    battle = _chain(BattleOptions(command_groups="teams"))
    _start(battle, 4, 3)
    assert _kind(battle) is DecisionKind.SPLIT_GROUP
    assert game.legal_actions(battle) == [SplitOff(0), SplitOff(1), SplitOff(2), KeepGroups()]
    events = game.play(battle, SplitOff(1), ScriptedDice([]))
    split = next(e for e in events if isinstance(e, ev.MechSplitOff))
    # 1 was the link: 0 and 2 (14" apart) fall apart too (§13.2)
    assert (split.mech, split.groups, split.leaders) == (1, ((0,), (2,), (1,)), (0, 2, 1))
    assert _kind(battle) is DecisionKind.ACTIVATE_GROUP  # no group of two left: no more asks
    legal = game.legal_actions(battle)
    assert ActivateGroup(1) in legal and ActivateGroup(2) in legal
    assert ActivateGroup(0) not in legal  # the Rep 3 Team Leader cannot use a 4
    events = game.play(battle, ActivateGroup(1), ScriptedDice([]))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert activated.members == (1,) and activated.activation_rep == 4


def test_13_1_the_rest_of_a_group_stays_together_while_linked() -> None:
    battle = _chain(BattleOptions(command_groups="teams"))
    _start(battle, 4, 3)
    events = game.play(battle, SplitOff(0), ScriptedDice([]))
    split = next(e for e in events if isinstance(e, ev.MechSplitOff))
    assert split.groups == ((1, 2), (0,)) and split.leaders == (1, 0)
    assert _kind(battle) is DecisionKind.SPLIT_GROUP
    assert game.legal_actions(battle) == [SplitOff(1), SplitOff(2), KeepGroups()]
    game.play(battle, KeepGroups(), ScriptedDice([]))
    legal = game.legal_actions(battle)
    assert ActivateGroup(1) in legal and ActivateGroup(0) not in legal
    events = game.play(battle, ActivateGroup(1), ScriptedDice([]))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert set(activated.members) == {1, 2}


def test_13_1_kept_groups_and_the_off_option_activate_as_before() -> None:
    kept = _chain(BattleOptions(command_groups="teams"))
    _start(kept, 3, 2)
    game.play(kept, KeepGroups(), ScriptedDice([]))
    assert game.legal_actions(kept)[0] == ActivateGroup(0)
    off = _chain(BattleOptions(command_groups="teams", group_splits="off"))
    _start(off, 3, 2)
    assert _kind(off) is DecisionKind.ACTIVATE_GROUP


def test_13_1_no_split_decision_when_every_group_is_one_mech() -> None:
    battle = _chain()
    for mech, y in zip((0, 1, 2), (4.0, 14.0, 24.0), strict=True):
        battle.mechs[mech].pos = (4.0, y)  # 10" apart: three groups of one
    _start(battle, 3, 2)
    assert _kind(battle) is DecisionKind.ACTIVATE_GROUP


def test_13_1_group_orders_round_trip_and_actions_serialise() -> None:
    battle = _platoon()
    _start(battle, 4, 3)
    again = Battle.from_dict(battle.to_dict())
    assert again.decision == battle.decision
    assert game.legal_actions(again) == game.legal_actions(battle)
    check_battle(again)
    game.play(battle, LeadTeam(0, 3), ScriptedDice([]))
    again = Battle.from_dict(battle.to_dict())
    assert game.legal_actions(again) == game.legal_actions(battle)
    for action in (LeadTeam(0, 3), LeadDone(0), SplitOff(2), KeepGroups()):
        assert action_from_dict(action_to_dict(action)) == action


def test_13_1_a_saved_lead_decision_must_name_the_asking_leader() -> None:
    battle = _platoon()
    _start(battle, 4, 3)
    data = battle.to_dict()
    phase = data["frames"][-1]
    assert (phase["kind"], phase["asking"]) == ("phase", 0)
    phase["asking"] = 3
    with pytest.raises(StateError, match="asking"):
        Battle.from_dict(data)
    assert battle.frames[-1].get("asking") == 0  # the battle itself is untouched


def test_12_2_a_group_order_not_offered_is_refused_and_changes_nothing() -> None:
    battle = _platoon()
    _start(battle, 4, 3)
    before = battle.to_dict()
    for action in (LeadTeam(0, 6), LeadDone(3), LeadTeam(3, 0), SplitOff(1), KeepGroups()):
        with pytest.raises(IllegalActionError, match="lead_teams decision of blue"):
            game.play(battle, action, ScriptedDice([]))
        assert battle.to_dict() == before
