"""Armour never goes below 0 (§17.4.2, §17.4.3, §18.3.2; docs/no_quarter.md, "Armour at 0").

The digest reads a location "reduced to 0 or less" on the Critical Hit table's left column
(§17.4.3): every cell there blows the location off or removes the mech, so damage beyond the
remaining armour has no further consequence. The stored armour is clamped at 0; the
``DamageRolled`` event keeps the raw loss (``damage``) beside the armour after. Before the
clamp a blown-off arm kept e.g. -4, a state the engine's own validity check (and the opponent
server) refused.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice, ScriptedDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.melee import melee_damage
from wargym.rules.no_quarter.battle.ranged_combat import ranged_damage
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battle.validity import check_battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Location, Side

RULES = load_rules()


def _duel() -> Battle:
    """A Star Army class 3 (PPG, Impact 5) facing a Zhuh-Zhuh class 5 (arm armour 1)."""
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c5",), use_attributes=False),
    ]
    battle = new_battle(forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0))
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.0, 20.0), 270.0
    return battle


def _pick(battle: Battle, text: str) -> game.Action:
    return next(a for a in game.legal_actions(battle) if str(a) == text)


def test_17_4_2_ppg_overkill_on_an_arm_stores_0_and_records_the_raw_loss() -> None:
    battle = _duel()
    game.advance(battle, ScriptedDice([5, 4]))  # blue activates first
    for text in (
        "activate the group of mech 0",
        "mech 0 fires before acting",
        "mech 0 fires weapon 0 at mech 1",
    ):
        game.play(battle, _pick(battle, text), ScriptedDice([]))
    # to-hit 6 (Rep 5 + 6 = 11 hits), location 1+3 = left arm, damage 1+2 vs Impact 5: pass 2
    dice = FallbackDice([6, 1, 3, 1, 2], np.random.default_rng(7))
    log = game.play(battle, _pick(battle, "mech 0 holds its remaining weapons"), dice)
    damage = next(e for e in log if isinstance(e, ev.DamageRolled))
    assert (damage.location, damage.passed, damage.critical) == (Location.ARM_L, 2, True)
    assert (damage.armor_before, damage.damage, damage.armor_after) == (1, 5, 0)
    critical = next(e for e in log if isinstance(e, ev.CriticalHit))
    assert critical.kind == "arm_blown_off"  # the excess still reads the "<= 0" column
    target = battle.mechs[1]
    assert target.armor_at(Location.ARM_L) == 0 and Location.ARM_L in target.lost_limbs
    check_battle(battle)  # the engine's own state is valid
    assert Battle.from_dict(battle.to_dict()).to_dict() == battle.to_dict()


def test_17_4_2_damage_table_clamps_the_armour_after_at_0() -> None:
    outcome = ranged_damage(RULES, (1, 2), 5, 1)
    assert (outcome.passed, outcome.armor_loss, outcome.armor_after) == (2, 5, 0)
    assert outcome.critical
    assert ranged_damage(RULES, (1, 1), 1, 0).armor_after == 0  # pass 2 at 0 stays 0


def test_18_3_2_melee_overkill_clamps_at_0_and_still_criticals() -> None:
    outcome = melee_damage(RULES, (1, 2), 3, 6, 2)  # pass 2: limb damage 6 on armour 2
    assert (outcome.passed, outcome.armor_loss, outcome.armor_after) == (2, 6, 0)
    assert outcome.critical  # reaching 0 gives a critical in melee too (recommended ruling)
