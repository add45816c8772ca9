"""Buildings under fire and in melee, flame templates, command radius, shared charge rolls.

§19.4.2 (with the digest's ruling), §10.4.2 / D27, §12.2 (tv10), §18.2.1 (tv14).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    AttackBuilding,
    Decision,
    DecisionKind,
    FireAtBuilding,
)
from wargym.rules.no_quarter.battle.flow import Ctx, insight_frame
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.flow_melee import charge_frame
from wargym.rules.no_quarter.battle.flow_move import walk
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Location, MeleeAttack, Side, Terrain
from wargym.rules.no_quarter.sight_movement.perception import form_groups

WALL = Feature(Terrain.BUILDING, 16.0, 15.0, 20.0, 17.0, building_armor=3)


def _battle(
    blue: list[str],
    red: list[str],
    *,
    field: Battlefield | None = None,
    options: BattleOptions | None = None,
    rep: int = 4,
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, tuple(blue), use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, tuple(red), use_attributes=False),
    ]
    battle = new_battle(
        forces, field or Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0), options
    )
    for mech in battle.mechs.values():
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _ctx(battle: Battle, faces: list[int]) -> Ctx:
    return Ctx(battle, FallbackDice(faces, np.random.default_rng(9)), load_rules())


def test_19_4_2_active_fire_can_target_a_building_and_destroy_it() -> None:
    battle = _battle(["star_army_c3"], ["hishen_c3"], field=Battlefield(features=(WALL,)))
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (30.0, 30.0), 270.0
    frame = fire_frame(0, "active")
    battle.frames = [frame]
    battle.decision = None
    from wargym.rules.no_quarter.battle import flow_fire

    options = flow_fire.fire_options(battle, load_rules(), frame)
    assert FireAtBuilding(0, 0, 0) in options
    ctx = _ctx(battle, [6, 1, 1])  # total 10 hits; 1+1 vs Impact 5: pass 2, armour 3 - 5
    flow_fire.fire_act(ctx, frame, FireAtBuilding(0, 0, 0))
    flow_fire.resolve_firing(ctx, frame)
    damaged = next(e for e in ctx.log if isinstance(e, ev.BuildingDamaged))
    # the armour is stored clamped at 0 ("at 0 or less": destroyed); the raw loss is recorded
    assert (damaged.armor_before, damaged.armor_after, damaged.passed) == (3, 0, 2)
    assert damaged.damage == 5
    assert battle.building_armor[0] == 0
    assert any(isinstance(e, ev.BuildingDestroyed) for e in ctx.log)
    assert battle.battlefield.features[0].kind is Terrain.ROUGH  # rubble
    restored = Battle.from_dict(battle.to_dict())
    assert restored.battlefield.features[0].kind is Terrain.ROUGH


def test_19_4_2_a_mech_in_contact_punches_a_building() -> None:
    battle = _battle(["star_army_c3"], ["hishen_c3"], field=Battlefield(features=(WALL,)))
    mech = battle.mechs[0]
    mech.pos, mech.heading = (18.0, 14.5), 90.0  # base touching the south wall
    battle.mechs[1].pos = (30.0, 30.0)
    battle.frames = [
        {"kind": "mech", "mech": 0, "stage": "action", "spent": 0.0, "moved": False, "fired": False}
    ]
    battle.decision = Decision(Side.BLUE, DecisionKind.MECH_ACTION, 0)
    options = game.legal_actions(battle)
    punch = AttackBuilding(0, 0, MeleeAttack.PUNCH, Location.ARM_R)
    assert punch in options
    # Rep 4: four dice 1,1,4,4 -> 2 successes; damage 1+2 vs 2 -> pass 2 -> arm armour 3
    events = game.play(battle, punch, FallbackDice([1, 1, 4, 4, 1, 2], np.random.default_rng(1)))
    damaged = next(e for e in events if isinstance(e, ev.BuildingDamaged))
    assert damaged.melee and damaged.versus == 2 and damaged.passed == 2
    assert (damaged.armor_before, damaged.armor_after) == (3, 0)
    assert any(isinstance(e, ev.BuildingDestroyed) for e in events)


def test_10_4_2_moving_through_a_flame_rolls_damage_against_impact_3() -> None:
    battle = _battle(["star_army_c3"], ["hishen_c3"])
    mech = battle.mechs[0]
    mech.pos, mech.heading = (10.0, 15.0), 0.0
    battle.mechs[1].pos, battle.mechs[1].heading = (30.0, 34.0), 180.0
    battle.flames = [((15.0, 5.0), (15.0, 25.0))]
    ctx = _ctx(battle, [3, 4, 1, 2])  # location 7 = chest; 1+2 vs Impact 3 -> pass 2
    walk(ctx, mech, (20.0, 15.0), 0.0, "voluntary", in_sight=False)
    crossed = [e for e in ctx.log if isinstance(e, ev.FlameCrossed)]
    assert len(crossed) == 1
    damage = next(e for e in ctx.log if isinstance(e, ev.DamageRolled))
    assert (damage.location, damage.versus, damage.passed) == (Location.CHEST, 3, 2)
    assert battle.mechs[0].armor_at(Location.CHEST) == 5 - 3


def test_10_4_2_d27_a_move_paused_inside_a_flame_rolls_for_it_once() -> None:
    battle = _battle(["star_army_c3"], ["hishen_c3"])
    mech = battle.mechs[0]
    mech.pos, mech.heading = (10.0, 15.0), 0.0
    battle.mechs[1].pos, battle.mechs[1].heading = (30.0, 34.0), 180.0
    battle.flames = [((15.0, 5.0), (15.0, 25.0))]
    ctx = _ctx(battle, [3, 4, 6, 6, 3, 4, 6, 6])  # chest, 6+6 vs Impact 3: pass 0
    walk(ctx, mech, (15.0, 15.0), 0.0, "voluntary", in_sight=False)  # paused in the strip
    walk(ctx, mech, (20.0, 15.0), 0.0, "voluntary", in_sight=False, goes_on=True)
    assert len([e for e in ctx.log if isinstance(e, ev.FlameCrossed)]) == 1  # once per move
    walk(ctx, mech, (15.0, 15.0), 180.0, "voluntary", in_sight=False)  # a new move: again
    assert len([e for e in ctx.log if isinstance(e, ev.FlameCrossed)]) == 2


def test_12_2_team_in_command_radius_activates_with_its_platoon_leader() -> None:
    """tv10: with command merging the Team joins the leader's group; by default it does not."""
    ids = ["star_army_c3"] * 9  # three Teams; mech 0 is the Platoon Leader (§12.0)
    for mode, expected in (
        ("command_radius", [[0, 1, 2, 3, 4, 5], [6, 7, 8]]),
        ("teams", [[0, 1, 2], [3, 4, 5], [6, 7, 8]]),
    ):
        battle = _battle(ids, ["hishen_c3"], options=BattleOptions(command_groups=mode))
        for i, mech in enumerate(m for m in battle.mechs.values() if m.side is Side.BLUE):
            mech.pos = (4.0 + 6.0 * (i // 3), 4.0 + 3.0 * (i % 3))  # Team columns 6" apart
        # Team 2's leader stands 6" from the Platoon Leader (in radius), Team 3's 12" (not)
        assert form_groups(battle, Side.BLUE) == expected


def test_18_2_1_target_charged_twice_rolls_once() -> None:
    """tv14: two Hishen charge one mech in the same In Sight; its roll is compared with each."""
    battle = _battle(["star_army_c4"], ["hishen_c3", "hishen_c3"])
    target, first, second = battle.mechs[0], battle.mechs[1], battle.mechs[2]
    target.pos, target.heading = (18.0, 10.0), 90.0
    first.pos, first.heading = (16.0, 15.0), 270.0
    second.pos, second.heading = (20.0, 15.0), 270.0
    frame = insight_frame(1, Side.RED, [0])
    frame["stage"] = "act"
    battle.frames = [frame, charge_frame(2, 0), charge_frame(1, 0)]
    battle.decision = None
    ctx = _ctx(battle, [])
    game._run(ctx)
    log = list(ctx.log)
    dice = FallbackDice([], np.random.default_rng(3))
    while (
        battle.decision is not None
        and not battle.over
        and not any(isinstance(e, ev.ChargeTested) and e.charger == 2 for e in log)
    ):
        log.extend(game.play(battle, game.legal_actions(battle)[0], dice))
    tests = [e for e in log if isinstance(e, ev.ChargeTested)]
    assert len(tests) >= 2
    assert not tests[0].reused_target_roll and tests[1].reused_target_roll
    assert tests[0].target_faces == tests[1].target_faces
