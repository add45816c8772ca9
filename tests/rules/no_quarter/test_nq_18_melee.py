"""Melee (§18): tv08a, tv15-tv17, tv19, tv26, the charge test and melee dice."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice, passed_dice, successes
from wargym.rules.no_quarter.battle.melee import (
    ChargeOutcome,
    charge_outcome,
    charge_target_dice,
    limb_damage,
    melee_attack_order,
    melee_damage,
    melee_dice,
    melee_hit_location,
    melee_margin,
)
from wargym.rules.no_quarter.battle.ranged_combat import CriticalKind, DamageOutcome, critical_kind
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Aspect, Attribute, Location, MeleeAttack, Race

RULES = load_rules()


def dice_for(rep: int, race: Race = Race.BASIC, *attrs: Attribute, **kw: bool) -> int:
    flags = {
        "melee_weapon": False,
        "attacking_prone": False,
        "jump_attack": False,
        "leaving": False,
    } | kw
    return melee_dice(RULES, rep, race=race, attributes=attrs, **flags)


def test_10_4_4_tv08a_arm_3_with_wv_3_melee_weapon_deals_6() -> None:
    assert limb_damage(3, 3) == 6


def test_10_4_4_d34_melee_weapon_bonus_at_most_doubles_the_arm() -> None:
    assert limb_damage(2, 5) == 4
    assert limb_damage(4) == 4
    assert limb_damage(0, 3) == 0


def test_18_3_tv15_three_successes_against_one_wins_by_two() -> None:
    attacker = successes(ScriptedDice([1, 2, 3, 5, 6]).roll(5))
    defender = successes(ScriptedDice([2, 4, 5, 6]).roll(4))
    assert melee_margin(attacker, defender) == 2
    assert melee_margin(1, 1) == 0 and melee_margin(0, 2) == -2


@pytest.mark.parametrize(
    ("face", "attack", "location"),
    [
        (4, MeleeAttack.PUNCH, Location.ARM_R),
        (4, MeleeAttack.KICK, Location.LEG_R),
        (1, MeleeAttack.PUNCH, Location.HEAD),
        (1, MeleeAttack.KICK, Location.CHEST),
        (3, MeleeAttack.KICK, Location.LEG_L),
        (6, MeleeAttack.PUNCH, Location.CHEST),
    ],
    ids=["tv16a", "tv16b", "1p", "1k", "3k", "6p"],
)
def test_18_3_1_tv16_melee_hit_location(face: int, attack: MeleeAttack, location: Location) -> None:
    assert melee_hit_location(RULES, face, attack) is location


def test_10_6_1_jump_attack_reads_the_punch_column() -> None:
    assert melee_hit_location(RULES, 1, MeleeAttack.KICK, jump_attack=True) is Location.HEAD


def test_18_3_2_tv17_doubles_pass_2_deal_limb_damage_and_a_critical() -> None:
    damage = melee_damage(RULES, (1, 1), 2, limb_damage(4), 5)
    assert damage == DamageOutcome(2, 4, 1, True, False, False)
    # §18.3.3: the struck right arm still has armor -> one weapon on that arm is lost
    assert critical_kind(RULES, Location.ARM_R, damage.armor_after) is CriticalKind.ARM_WEAPON_LOST


def test_18_3_2_tv26_margin_1_doubles_kick_with_leg_armor_3() -> None:
    assert melee_damage(RULES, (1, 1), 1, 3, 4) == DamageOutcome(2, 3, 1, True, False, False)


@pytest.mark.parametrize(
    ("faces", "margin", "limb", "before", "expected"),
    [
        ((1, 3), 2, 4, 5, DamageOutcome(1, 1, 4, False, False, False)),
        ((1, 3), 2, 4, 1, DamageOutcome(1, 1, 0, True, False, False)),
        ((3, 4), 2, 4, 5, DamageOutcome(0, 0, 5, False, False, True)),
        ((1, 2), 3, 3, 3, DamageOutcome(2, 3, 0, True, False, False)),
        ((1, 2), 3, 2, 5, DamageOutcome(2, 2, 3, False, False, False)),
    ],
    ids=["pass1", "pass1_to_0", "pass0_refight", "pass2_to_0", "pass2_plain"],
)
def test_18_3_2_melee_damage_rows(
    faces: tuple[int, int], margin: int, limb: int, before: int, expected: DamageOutcome
) -> None:
    assert melee_damage(RULES, faces, margin, limb, before) == expected


def test_18_3_4_tv19_class_3_attacks_before_class_4() -> None:
    attackers = [("hishen_c4_mech", 4, 4), ("hishen_c3_mech", 3, 4)]
    assert melee_attack_order(attackers) == ["hishen_c3_mech", "hishen_c4_mech"]
    assert melee_attack_order([("a", 2, 3), ("b", 2, 5), ("c", 1, 3)]) == ["c", "b", "a"]


@pytest.mark.parametrize(
    ("cover", "aspect", "dice"),
    [
        (False, Aspect.FRONT, 2),
        (True, Aspect.FRONT, 3),
        (False, Aspect.FLANK, 1),
        (False, Aspect.REAR, 0),
        (True, Aspect.REAR, 1),
    ],
)
def test_18_2_1_charge_target_dice(cover: bool, aspect: Aspect, dice: int) -> None:
    assert charge_target_dice(RULES, target_in_cover=cover, aspect=aspect) == dice


def test_18_2_1_charge_outcomes() -> None:
    charger = passed_dice(ScriptedDice([1, 2]).roll(2), 4)
    target = passed_dice(ScriptedDice([3, 6]).roll(2), 4)
    assert charge_outcome(charger, target) is ChargeOutcome.TARGET_HOLDS_FIRE
    assert charge_outcome(0, 1) is ChargeOutcome.TARGET_FIRES
    assert charge_outcome(1, 1) is ChargeOutcome.TARGET_RUSH_SHOT
    assert ChargeOutcome.TARGET_RUSH_SHOT.value == "rush_shot"


def test_18_3_melee_dice_modifiers() -> None:
    assert dice_for(4) == 4
    assert dice_for(4, Race.HISHEN) == 3
    assert dice_for(4, Race.ZHUH_ZHUH) == 6
    assert dice_for(4, Race.BASIC, Attribute.BRAWLER, melee_weapon=True) == 6
    assert dice_for(4, Race.BASIC, Attribute.WEAKLING, attacking_prone=True) == 5
    assert dice_for(4, Race.BASIC, jump_attack=True) == 6
    assert dice_for(3, Race.HISHEN, Attribute.WEAKLING, leaving=True) == 0
