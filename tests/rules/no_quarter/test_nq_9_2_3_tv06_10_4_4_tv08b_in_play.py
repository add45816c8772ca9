"""Worked examples tv06 (book 9.2.3) and tv08b (book 10.4.4) played through ``game.play``.

tv06: Star Billy Pink (Rep 5) takes a head hit; 2d6 (1, 2) vs Impact 3 passes 2 and the head
(armour 3) goes to 0: critical "head blown off, pilot dead"; Billy cheats death: removed
from the table alive at Rep 4. tv08b: the right arm (armour 3, a melee weapon on it) takes a
pass 2 vs Impact 3 (dice 2, 3): armour 0, critical, the arm is blown off and the melee weapon
with it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import AssignFire, Decision, DecisionKind, EndFire
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.records import MountedItem
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, ItemType, Location, Removal, Side


def _battle() -> Battle:
    """Blue: a Star Army class 3 (Star, Rep 5); red: a Zhuh-Zhuh class 3 with a Gun, Medium."""
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), stars=1, use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    battle = new_battle(forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0))
    star, shooter = battle.mechs[0], battle.mechs[1]
    star.pilot = dataclasses.replace(star.pilot, rep=5, star=True)
    star.rep = 5
    shooter.rep = 4
    star.pos, star.heading = (18.0, 10.0), 90.0
    shooter.pos, shooter.heading = (18.0, 20.0), 270.0
    return battle


def _gun_medium(battle: Battle) -> int:
    items = battle.mechs[1].design.items
    gun = next(i for i, it in enumerate(items) if it.item.value == "gun_medium")
    assert items[gun].impact == 3  # table 10.4: Gun, Medium, Impact 3
    return gun


def _fire(battle: Battle, faces: list[int]) -> list[Event]:
    gun = _gun_medium(battle)
    battle.frames = [fire_frame(1, "active")]
    battle.decision = Decision(Side.RED, DecisionKind.ASSIGN_FIRE, 1)
    dice = FallbackDice(faces, np.random.default_rng(4))
    events = game.play(battle, AssignFire(1, gun, 0), dice)
    events += game.play(battle, EndFire(1), dice)
    return events


def test_9_2_3_tv06_star_head_blown_off_cheats_death_at_rep_4() -> None:
    battle = _battle()
    star = battle.mechs[0]
    assert star.armor_at(Location.HEAD) == 3 and star.pilot.star
    # to hit: 6 (Rep 4 + 6 = 10 hits); location 1 + 2 = 3: head; damage 1, 2 vs Impact 3
    events = _fire(battle, [6, 1, 2, 1, 2])
    damage = next(e for e in events if isinstance(e, ev.DamageRolled))
    assert (damage.location, damage.faces, damage.versus) == (Location.HEAD, (1, 2), 3)
    assert (damage.passed, damage.armor_before, damage.armor_after) == (2, 3, 0)
    assert damage.critical
    critical = next(e for e in events if isinstance(e, ev.CriticalHit))
    assert critical.kind == "head_blown_off" and critical.location is Location.HEAD
    cheated = next(e for e in events if isinstance(e, ev.CheatedDeath))
    assert (cheated.mech, cheated.rep_after, cheated.via) == (0, 4, "star")
    assert star.removed is Removal.CHEATED_DEATH and star.rep == 4
    removed = next(e for e in events if isinstance(e, ev.MechRemoved))
    assert removed.reason is Removal.CHEATED_DEATH


def test_10_4_4_tv08b_arm_to_zero_is_blown_off_with_its_melee_weapon() -> None:
    battle = _battle()
    target = battle.mechs[0]
    claw = MountedItem(ItemType.MELEE_WEAPON, Location.ARM_R, 3, None, 1, 0, "claw (3 WV)")
    target.design = dataclasses.replace(target.design, items=(*target.design.items, claw))
    weapon = len(target.design.items) - 1
    assert target.armor_at(Location.ARM_R) == 3 and target.mech_class == 3
    # to hit 6; location 2 + 3 = 5: right arm; damage 2, 3 vs Impact 3: pass 2
    events = _fire(battle, [6, 2, 3, 2, 3])
    damage = next(e for e in events if isinstance(e, ev.DamageRolled))
    assert (damage.location, damage.faces, damage.passed) == (Location.ARM_R, (2, 3), 2)
    assert (damage.armor_before, damage.armor_after, damage.critical) == (3, 0, True)
    critical = next(e for e in events if isinstance(e, ev.CriticalHit))
    assert critical.kind == "arm_blown_off" and critical.location is Location.ARM_R
    assert weapon in critical.items_lost
    assert weapon in target.inoperable and Location.ARM_R in target.lost_limbs
