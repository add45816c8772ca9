"""Pilot generation and pilot-derived numbers: race, Rep, attributes, activation Rep (§9, §14).

Every die is rolled through an injected :class:`~wargym.rules.dice.Dice`. Automated choices
("keep the better", Choice, a Star's chosen second attribute) follow the fixed preference order
of ruling D35 (``random_attributes.yaml: preference``).
"""

from __future__ import annotations

from collections.abc import Collection

from wargym.rules.dice import Dice
from wargym.rules.no_quarter.data import NoQuarterRules, activation_rep
from wargym.rules.no_quarter.records import Pilot
from wargym.rules.no_quarter.vocab import Attribute, Faction, Race

__all__ = [
    "activation_rep",
    "best_choice",
    "may_activate",
    "new_pilot",
    "preference_rank",
    "roll_attributes",
    "roll_personal_weapon",
    "roll_race",
    "roll_rep",
]


def roll_rep(rules: NoQuarterRules, faction: Faction, race: Race, dice: Dice) -> int:
    """Roll a Grunt's Rep on table 9.4.2; Xeog pilots read the Xeog row (§9.4.2).

    Stars do not roll: they start at ``rules.star_rep`` (see :func:`new_pilot`).
    """
    (face,) = dice.roll(1)
    row = Race.XEOG.value if race is Race.XEOG else faction.value
    return rules.pilot_rep[row][face - 1]


def roll_race(rules: NoQuarterRules, faction: Faction, dice: Dice) -> Race:
    """The pilot's race: fixed by faction, or rolled 1d6 for a Free Company (§9.6.3, §10.8.1).

    Rolls no die unless the faction's race is rolled. A mixed Free Company rolls per pilot
    (the digest's recommended ruling for §9.6.3).
    """
    fixed = rules.faction_race[faction]
    if fixed is not None:
        return fixed
    (face,) = dice.roll(1)
    return rules.free_company_race_roll[face - 1]


def roll_personal_weapon(rules: NoQuarterRules, faction: Faction, dice: Dice) -> str:
    """The pilot's personal weapon, rolled 1d6 (§9.5); Star Army and ISS read the Star Army row."""
    row = "star_army" if faction.table_row is Faction.STAR_ARMY else "non_star_army_grunt"
    (face,) = dice.roll(1)
    return next(name for name, faces in rules.personal_weapons[row].items() if face in faces)


def preference_rank(rules: NoQuarterRules, attribute: Attribute) -> int:
    """Rank of ``attribute`` in the D35 preference (0 = best); Choice ranks above all (§9.6.4)."""
    if rules.effect(attribute).choose_any:
        return -1
    return rules.attribute_preference.index(attribute)


def best_choice(
    rules: NoQuarterRules, *, exclude: Collection[Attribute] = (), star: bool = False
) -> Attribute:
    """The best attribute by the D35 preference not in ``exclude`` (Stars skip re-rolled ones)."""
    for attribute in rules.attribute_preference:
        if attribute in exclude or (star and rules.effect(attribute).star_rerolls):
            continue
        return attribute
    raise ValueError("no attribute left to choose")


def _roll_one(rules: NoQuarterRules, dice: Dice, star: bool) -> Attribute:
    while True:
        first, second = dice.roll(2)
        attribute = rules.attribute_table[first - 1][second - 1]
        if not (star and rules.effect(attribute).star_rerolls):
            return attribute


def roll_attributes(
    rules: NoQuarterRules, race: Race, dice: Dice, *, star: bool
) -> tuple[Attribute, ...]:
    """Random attributes: one rolled for a Grunt; a Star rolls one and chooses one (§9.6.1-2).

    Each roll is 2d6 (sub-table, then row). A Basic pilot rolls twice and keeps the better
    (§9.6.3); Choice becomes the best attribute not held; a Star re-rolls Hard as Nails.
    """
    rolls = rules.racial[race].random_attribute_rolls
    candidates = [_roll_one(rules, dice, star) for _ in range(rolls)]
    first = min(candidates, key=lambda attribute: preference_rank(rules, attribute))
    if rules.effect(first).choose_any:
        first = best_choice(rules, star=star)
    if not star:
        return (first,)
    return first, best_choice(rules, exclude={first}, star=True)


def new_pilot(
    rules: NoQuarterRules,
    faction: Faction,
    dice: Dice,
    *,
    star: bool = False,
    use_attributes: bool = True,
    name: str = "",
    race: Race | None = None,
) -> Pilot:
    """Generate a pilot (§9): race (unless given), Rep (Stars: ``star_rep``), attributes.

    Dice are rolled in that order. ``use_attributes=False`` plays the "vanilla" game (§9.6).
    """
    fixed = rules.faction_race[faction]
    if race is not None and fixed is not None and race is not fixed:
        raise ValueError(f"{faction.value} pilots are {fixed.value}, not {race.value} (§9.6.3)")
    if race is not None and fixed is None and race not in rules.free_company_race_roll:
        raise ValueError(f"a {faction.value} pilot cannot be {race.value} (§10.8.1)")
    race = race if race is not None else roll_race(rules, faction, dice)
    rep = rules.star_rep if star else roll_rep(rules, faction, race, dice)
    attributes = roll_attributes(rules, race, dice, star=star) if use_attributes else ()
    return Pilot(name=name, faction=faction, race=race, rep=rep, star=star, attributes=attributes)


def may_activate(leader_activation_rep: int, side_die: int) -> bool:
    """A group may activate when its leader's activation Rep >= its side's die (§14.0)."""
    return leader_activation_rep >= side_die
