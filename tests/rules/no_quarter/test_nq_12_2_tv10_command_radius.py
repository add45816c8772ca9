"""Worked example tv10 (book 12.2): a Team in its Platoon Leader's command radius (8" + LOS).

The Team within 8" and LOS of its Rep 4 Platoon Leader activates with him (``BattleOptions(
command_groups="command_radius")``, E11); played as Teams (the default, D30) the same Team
activates on its own Rep 5 Team Leader, on a die of 5 that the Platoon Leader cannot use.
These are the automatic alternatives; the default choice (``command_groups="choose"``) and
the splits are in ``test_nq_13_1_group_orders.py`` (E19).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import ActivateGroup, DecisionKind
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Side, Terrain


def _platoon(mode: str, field: Battlefield | None = None) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * 9, use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        field or Battlefield(),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        BattleOptions(command_groups=mode, group_splits="off"),  # type: ignore[arg-type]
    )
    for mech in battle.mechs.values():
        mech.rep = 5 if mech.id == 3 else 4
        mech.pilot = dataclasses.replace(mech.pilot, rep=mech.rep)
    blue = [m for m in battle.mechs.values() if m.side is Side.BLUE]
    for i, mech in enumerate(blue):  # Team columns: team 2 at 6" (in radius), team 3 at 20"
        mech.pos = ((4.0, 10.0, 24.0)[i // 3], 4.0 + 2.0 * (i % 3))
    battle.mechs[9].pos = (18.0, 34.0)
    assert battle.mechs[0].rank is Rank.PLATOON_LEADER
    assert battle.mechs[3].rank is Rank.TEAM_LEADER
    return battle


def _start(battle: Battle, blue: int, red: int) -> list[ev.GroupsFormed]:
    events = game.advance(battle, FallbackDice([blue, red], np.random.default_rng(1)))
    rolled = next(e for e in events if isinstance(e, ev.ActivationRolled))
    assert (rolled.blue, rolled.red) == (blue, red)
    return [e for e in events if isinstance(e, ev.GroupsFormed) and e.side is Side.BLUE]


def test_12_2_tv10_team_in_radius_activates_with_its_rep_4_platoon_leader() -> None:
    battle = _platoon("command_radius")
    formed = _start(battle, 4, 3)
    assert formed and (0, 1, 2, 3, 4, 5) in formed[-1].groups  # team 2 joined the leader
    assert (6, 7, 8) in formed[-1].groups  # team 3: 20" away, on its own
    assert battle.decision is not None and battle.decision.kind is DecisionKind.ACTIVATE_GROUP
    legal = game.legal_actions(battle)
    assert ActivateGroup(0) in legal and ActivateGroup(3) not in legal
    events = game.play(battle, ActivateGroup(0), FallbackDice([], np.random.default_rng(2)))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert activated.leader == 0 and {3, 4, 5} <= set(activated.members)
    assert (activated.activation_rep, activated.die) == (4, 4)


def test_12_2_tv10_a_rep_4_leader_cannot_take_the_team_on_a_5() -> None:
    battle = _platoon("command_radius")
    _start(battle, 5, 4)
    legal = game.legal_actions(battle) if battle.decision is not None else []
    assert ActivateGroup(0) not in legal and ActivateGroup(3) not in legal


def test_12_2_tv10_played_as_teams_the_team_activates_on_its_rep_5_team_leader() -> None:
    battle = _platoon("teams")
    formed = _start(battle, 5, 4)
    assert (3, 4, 5) in formed[-1].groups and (0, 1, 2) in formed[-1].groups
    assert battle.decision is not None and battle.decision.side is Side.BLUE
    legal = game.legal_actions(battle)
    assert ActivateGroup(3) in legal and ActivateGroup(0) not in legal
    events = game.play(battle, ActivateGroup(3), FallbackDice([], np.random.default_rng(2)))
    activated = next(e for e in events if isinstance(e, ev.GroupActivated))
    assert activated.leader == 3 and set(activated.members) == {3, 4, 5}
    assert (activated.activation_rep, activated.die) == (5, 5)


def test_12_2_tv10_the_radius_needs_line_of_sight() -> None:
    walls = (
        Feature(Terrain.BUILDING, 6.0, 0.5, 8.0, 6.0, building_armor=3),
        Feature(Terrain.BUILDING, 6.0, 6.0, 8.0, 11.5, building_armor=3),
    )
    battle = _platoon("command_radius", Battlefield(features=walls))
    formed = _start(battle, 4, 3)
    assert (3, 4, 5) in formed[-1].groups  # 6" away but out of sight: not in the radius
