"""Table-driven resolvers of melee: the charge test, melee rounds, location, damage (§18).

Pure functions over the loaded tables; the caller rolls the dice and passes faces or counts.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from wargym.rules.dice import passed_dice
from wargym.rules.no_quarter.battle.ranged_combat import DamageOutcome, resolve_damage_row
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.records import ChargeOutcome
from wargym.rules.no_quarter.forces.vocab import Aspect, Attribute, Location, MeleeAttack, Race

__all__ = [
    "ChargeOutcome",
    "charge_outcome",
    "charge_target_dice",
    "limb_damage",
    "melee_attack_order",
    "melee_damage",
    "melee_dice",
    "melee_hit_location",
    "melee_margin",
]


def charge_target_dice(rules: NoQuarterRules, *, target_in_cover: bool, aspect: Aspect) -> int:
    """The target's dice on the Charge into Melee test: 2, +1 cover, -1 flank, -2 rear (§18.2.1)."""
    table = rules.charge
    dice = table.dice_each + table.aspect[aspect]
    if target_in_cover:
        dice += table.in_cover
    return max(0, dice)


def charge_outcome(
    charger_passed: int, target_passed: int, *, rules: NoQuarterRules | None = None
) -> ChargeOutcome:
    """Compare passes on the Charge into Melee test (§18.2.1); the charger always closes."""
    results = (rules or load_rules()).charge.results
    if charger_passed > target_passed:
        return results["charger_passed_more"]
    if target_passed > charger_passed:
        return results["target_passed_more"]
    return results["same_number"]


def melee_dice(
    rules: NoQuarterRules,
    rep: int,
    *,
    race: Race,
    attributes: Iterable[Attribute],
    melee_weapon: bool,
    attacking_prone: bool,
    jump_attack: bool,
    leaving: bool,
) -> int:
    """Dice on the Melee Combat table: Rep d6 with table 18.3 modifiers, at least 0 (§18.3)."""
    table = rules.melee_combat
    dice = rep * table.dice_per_rep + table.race.get(race, 0)
    dice += sum(table.attribute.get(a, 0) for a in set(attributes))
    for applies, modifier in (
        (melee_weapon, table.one_hand_melee_weapon),
        (attacking_prone, table.attacking_prone_opponent),
        (jump_attack, table.jump_attack),
        (leaving, table.leaving_battlefield),
    ):
        if applies:
            dice += modifier
    return max(0, dice)


def melee_margin(attacker_successes: int, defender_successes: int) -> int:
    """Winner's margin of a melee round: > 0 attacker wins, < 0 defender, 0 refight (§18.3)."""
    return attacker_successes - defender_successes


def melee_hit_location(
    rules: NoQuarterRules, face: int, attack: MeleeAttack, *, jump_attack: bool = False
) -> Location:
    """Location struck by the round's winner, 1d6 in its attack's column (§18.3.1).

    A Jump Attack reads the "If Punching" column (§10.6.1).
    """
    column = rules.melee_combat.jump_attack_column if jump_attack else attack
    return rules.melee_hit_location[face][column]


def limb_damage(limb_armor: int, melee_weapon_wv: int = 0) -> int:
    """Damage of the attacking limb: its armor + min(weapon WV, armor) (ruling D34, §10.4.4)."""
    armor = max(0, limb_armor)
    return armor + min(melee_weapon_wv, armor)


def melee_damage(
    rules: NoQuarterRules,
    faces: tuple[int, int],
    margin: int,
    limb_damage: int,
    armor_before: int,
) -> DamageOutcome:
    """Roll 2d6 against the success margin and read table 18.3.2 (§18.3.2).

    Pass 2: limb damage, critical on doubles or armor <= 0; pass 1: 1 point, critical at <= 0
    (recommended ruling); pass 0: no effect, refight at once.
    """
    passed = passed_dice(faces, margin)
    row = rules.melee_damage[passed]
    return resolve_damage_row(row, faces, {"attacking_limb": limb_damage}, armor_before)


def melee_attack_order(attackers: Sequence[tuple[Hashable, int, int]]) -> list[Hashable]:
    """Order of several attackers ``(id, class, rep)``: lowest class number, then higher Rep.

    Ties keep the given order (owner's choice); Stars choose their own turn (§18.3.4).
    """
    ordered = sorted(attackers, key=lambda attacker: (attacker[1], -attacker[2]))
    return [attacker[0] for attacker in ordered]
