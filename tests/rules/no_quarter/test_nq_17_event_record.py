"""The event record holds every die and the inputs the rules read (docs/events.md).

§19.4.2 building melee: melee and damage dice apart, the limb; §17.4.3 the die that picked a
random critical item and the items it chose among; §16.2 whether the tester counted as in
cover (the cover die) and how many dice it rolled; §15.2.4 where each firing begins and ends.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice, ScriptedDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import AttackBuilding, Decision, DecisionKind
from wargym.rules.no_quarter.battle.consequences import critical_hit
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.flow_fire import fire_frame, resolve_firing
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import (
    Faction,
    Location,
    MeleeAttack,
    Removal,
    Side,
    Terrain,
)

WALL = Feature(Terrain.BUILDING, 16.0, 15.0, 20.0, 17.0, building_armor=3)


def _battle(field: Battlefield | None = None, rep: int = 4) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    battle = new_battle(
        forces, field or Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0)
    )
    for mech in battle.mechs.values():
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _round_trip(event: Event) -> None:
    assert NO_QUARTER_EVENTS.from_dict(event.to_dict()) == event


def test_19_4_2_building_punch_records_melee_and_damage_dice_apart_and_the_limb() -> None:
    battle = _battle(Battlefield(features=(WALL,)))
    mech = battle.mechs[0]
    mech.pos, mech.heading = (18.0, 14.5), 90.0  # base touching the south wall
    battle.mechs[1].pos = (30.0, 30.0)
    battle.frames = [
        {"kind": "mech", "mech": 0, "stage": "action", "spent": 0.0, "moved": False, "fired": False}
    ]
    battle.decision = Decision(Side.BLUE, DecisionKind.MECH_ACTION, 0)
    punch = AttackBuilding(0, 0, MeleeAttack.PUNCH, Location.ARM_R)
    # Rep 4: four melee dice 1,1,4,4 -> 2 successes; damage 1+2 vs 2 -> pass 2
    events = game.play(battle, punch, FallbackDice([1, 1, 4, 4, 1, 2], np.random.default_rng(1)))
    damaged = next(e for e in events if isinstance(e, ev.BuildingDamaged))
    assert damaged.melee_faces == (1, 1, 4, 4) and damaged.damage_faces == (1, 2)
    assert damaged.faces == (1, 1, 4, 4, 1, 2)  # the old field, kept
    assert (damaged.limb, damaged.attack, damaged.versus) == (Location.ARM_R, MeleeAttack.PUNCH, 2)
    assert damaged.weapon_value == 0
    _round_trip(damaged)


def test_19_4_2_a_building_punch_without_success_rolls_no_damage_dice() -> None:
    battle = _battle(Battlefield(features=(WALL,)))
    mech = battle.mechs[0]
    mech.pos, mech.heading = (18.0, 14.5), 90.0
    battle.mechs[1].pos = (30.0, 30.0)
    battle.frames = [
        {"kind": "mech", "mech": 0, "stage": "action", "spent": 0.0, "moved": False, "fired": False}
    ]
    battle.decision = Decision(Side.BLUE, DecisionKind.MECH_ACTION, 0)
    kick = AttackBuilding(0, 0, MeleeAttack.KICK, Location.LEG_L)
    events = game.play(battle, kick, FallbackDice([5, 5, 6, 6], np.random.default_rng(1)))
    damaged = next(e for e in events if isinstance(e, ev.BuildingDamaged))
    assert damaged.melee_faces == (5, 5, 6, 6) and damaged.damage_faces == ()
    assert (damaged.limb, damaged.attack, damaged.passed) == (Location.LEG_L, MeleeAttack.KICK, 0)


def test_17_4_3_random_item_critical_records_its_die_and_the_items_it_chose_from() -> None:
    battle = _battle()
    mech = battle.mechs[0]
    assert mech.armor_at(Location.CHEST) >= 1  # chest with armour: a random item is lost
    ctx = Ctx(battle, ScriptedDice([6, 2]), load_rules())
    critical_hit(ctx, mech, Location.CHEST)
    hit = next(e for e in ctx.log if isinstance(e, ev.CriticalHit))
    assert hit.kind == "random_item_lost" and hit.armor == mech.armor_at(Location.CHEST)
    items = len(mech.design.items)
    assert hit.candidates == tuple(range(items))
    # one d6 with re-rolls for up to six items: a 6 is re-rolled when there are fewer
    expected_faces = (6, 2) if items < 6 else (6,)
    assert hit.faces == expected_faces
    assert hit.items_lost == (hit.candidates[hit.faces[-1] - 1],)
    _round_trip(hit)


def test_17_4_3_arm_weapon_critical_chooses_among_that_arms_weapons() -> None:
    battle = _battle()
    mech = battle.mechs[0]
    arm = next(
        loc
        for loc in (Location.ARM_R, Location.ARM_L)
        if any(i.location is loc and i.is_weapon for i in mech.design.items)
    )
    ctx = Ctx(battle, FallbackDice([1], np.random.default_rng(3)), load_rules())
    critical_hit(ctx, mech, arm)
    hit = next(e for e in ctx.log if isinstance(e, ev.CriticalHit))
    weapons = tuple(
        i for i, it in enumerate(mech.design.items) if it.location is arm and it.is_weapon
    )
    assert hit.kind == "arm_weapon_lost" and hit.candidates == weapons
    assert hit.items_lost[0] in weapons


def _fire(battle: Battle, faces: list[int]) -> list[Event]:
    ppg = next(i for i, it in enumerate(battle.mechs[0].design.items) if it.item.value == "ppg")
    frame = fire_frame(0, "active")
    frame["assigned"] = [[ppg, 1]]
    battle.frames = [frame]
    ctx = Ctx(battle, FallbackDice(faces, np.random.default_rng(2)), load_rules())
    resolve_firing(ctx, frame)
    game._run(ctx)
    return ctx.log


def test_15_2_4_firing_started_and_ended_bracket_the_shots() -> None:
    battle = _battle()
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.0, 20.0), 270.0
    log = _fire(battle, [1, 1, 5])  # a miss, Fired On (1, 5): Rush Shot back
    starts = [i for i, e in enumerate(log) if isinstance(e, ev.FiringStarted)]
    ends = [i for i, e in enumerate(log) if isinstance(e, ev.FiringEnded)]
    assert len(starts) == len(ends) >= 2  # blue's fire, then red's Rush Shot
    first, last = log[starts[0]], log[ends[0]]
    assert isinstance(first, ev.FiringStarted) and isinstance(last, ev.FiringEnded)
    assert (first.shooter, first.mode, first.cause) == (0, "active", None)
    shots = [e for e in log[starts[0] : ends[0]] if isinstance(e, ev.ShotFired)]
    assert last.shots == len(shots) == len(first.weapons) == 1
    assert all(e.shooter == 0 for e in shots)
    back = log[starts[1]]
    assert isinstance(back, ev.FiringStarted)
    assert (back.shooter, back.mode, back.cause) == (1, "reaction", 0)
    # nothing fires outside a bracket
    inside = {i for s, e in zip(starts, ends, strict=True) for i in range(s, e)}
    assert all(i in inside for i, e in enumerate(log) if isinstance(e, ev.ShotFired))


def test_16_2_reaction_test_records_cover_and_dice_open_table() -> None:
    battle = _battle()
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.0, 20.0), 270.0
    log = _fire(battle, [1, 1, 5])
    test = next(e for e in log if isinstance(e, ev.ReactionTaken))
    assert test.in_cover is False and test.dice == len(test.faces) == 2
    shot = next(e for e in log if isinstance(e, ev.ShotFired))
    assert shot.target_in_cover is False
    _round_trip(test)


def test_16_2_reaction_test_in_cover_rolls_the_cover_die_and_says_so() -> None:
    # a building hides one side of the target from the shooter: in cover (D12a)
    wall = Feature(Terrain.BUILDING, 17.0, 15.0, 18.7, 17.0, building_armor=3)
    battle = _battle(Battlefield(features=(wall,)))
    battle.mechs[0].pos, battle.mechs[0].heading = (18.8, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.8, 22.0), 270.0
    log = _fire(battle, [1, 1, 5, 6])
    shot = next(e for e in log if isinstance(e, ev.ShotFired))
    assert shot.target_in_cover is True
    test = next(e for e in log if isinstance(e, ev.ReactionTaken))
    assert test.in_cover is True and test.dice == len(test.faces) == 3  # Fired On +1 in cover


def test_15_2_4_no_bracket_when_nothing_fires() -> None:
    battle = _battle()
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.0, 20.0), 270.0
    frame = fire_frame(0, "active")  # nothing assigned
    battle.frames = [frame]
    ctx = Ctx(battle, FallbackDice([], np.random.default_rng(2)), load_rules())
    resolve_firing(ctx, frame)
    assert not any(isinstance(e, ev.FiringStarted | ev.FiringEnded) for e in ctx.log)
    battle.mechs[0].removed = Removal.DESTROYED  # a removed shooter's pending fire
    frame = fire_frame(0, "reaction", cause=1)
    frame["assigned"] = [[0, 1]]
    battle.frames = [frame]
    resolve_firing(ctx, frame)
    assert not any(isinstance(e, ev.FiringStarted | ev.FiringEnded) for e in ctx.log)
