"""Table-driven resolvers of ranged combat: to-hit, location, damage, criticals (§17.4).

Pure functions over the loaded tables; the caller rolls the dice and passes the faces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wargym.rules.dice import passed_dice
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.records import CriticalKind, DamageRow
from wargym.rules.no_quarter.forces.vocab import Attribute, Location, Removal

__all__ = [
    "CriticalKind",
    "DamageOutcome",
    "better_location",
    "chest_explosion",
    "critical_kind",
    "halved_speed",
    "hit_location",
    "marksman_location",
    "pilot_test_passed",
    "pilot_test_rep",
    "ranged_damage",
    "ranged_rep",
    "resolve_damage_row",
    "to_hit",
]


def ranged_rep(
    rep: int, attributes: Iterable[Attribute], *, rules: NoQuarterRules | None = None
) -> int:
    """The shooter's Rep on table 17.4: Near Sighted -1 (§17.4, §9.6.4)."""
    modifiers = (rules or load_rules()).ranged_combat.rep_modifiers
    return rep + sum(modifiers.get(a, 0) for a in set(attributes))


def to_hit(
    rules: NoQuarterRules,
    total: int,
    *,
    shooter_fast_moving: bool = False,
    rush_shot: bool = False,
    target_in_cover: bool = False,
    target_prone: bool = False,
    target_fast_moving: bool = False,
    target_index: int = 1,
    crack_shot: bool = False,
) -> bool:
    """Read table 17.4 for ``total`` = 1d6 + Rep; True on a hit (§17.4).

    ``target_index`` is the target's number among the shooter's targets this firing (17.3,
    ruling D14); Crack Shot ignores both Fast Moving conditions.
    """
    table = rules.ranged_combat
    row = table.row_for(total)
    if row.result is not None:
        return row.result == "hit"
    present = {
        "shooter_fast_moving": shooter_fast_moving,
        "rush_shot": rush_shot,
        "target_in_cover": target_in_cover,
        "target_prone": target_prone,
        "target_fast_moving": target_fast_moving,
    }
    if crack_shot:
        for condition in table.crack_shot_ignores:
            present[condition] = False
    if any(present[c] for c in row.shooter_missed_if | row.target_missed_if):
        return False
    return row.target_index_at_least is None or target_index < row.target_index_at_least


def hit_location(rules: NoQuarterRules, faces: tuple[int, int]) -> Location:
    """Location hit by one shot: 2d6 added on table 17.4.1 (§17.4.1)."""
    return rules.hit_location[sum(faces)]


def better_location(a: Location, b: Location, *, rules: NoQuarterRules | None = None) -> Location:
    """The better of two locations for a Marksman choosing automatically (§9.6.4).

    Implementation ruling: the fixed order of ``hit_location.yaml: marksman_preference``
    (head > chest > gut > right arm > left arm > right leg > left leg): the head and body
    criticals end a mech, arms carry the weapons.
    """
    order = (rules or load_rules()).marksman_preference
    return a if order.index(a) <= order.index(b) else b


def marksman_location(
    rules: NoQuarterRules, first: tuple[int, int], second: tuple[int, int]
) -> Location:
    """A Marksman's location from two 2d6 rolls, keeping the better (§9.6.4)."""
    return better_location(hit_location(rules, first), hit_location(rules, second), rules=rules)


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """One damage roll read on table 17.4.2 or 18.3.2 (§17.4.2, §18.3.2)."""

    passed: int
    armor_loss: int
    """Armour points the row removes (raw: may exceed the armour left)."""
    armor_after: int
    """Armour left, clamped at 0 (the excess is not stored)."""
    critical: bool
    """At most one critical per damaging hit."""
    duck_back: bool
    """Ranged pass 0: the target Ducks Back and takes no test."""
    refight: bool = False
    """Melee pass 0: fight another round at once."""


def resolve_damage_row(
    row: DamageRow, faces: tuple[int, int], amounts: dict[str, int], armor_before: int
) -> DamageOutcome:
    """Apply one row of a damage table (§17.4.2, §18.3.2); ``amounts`` names the losses.

    ``armor_loss`` is the raw loss of the row; ``armor_after`` is clamped at 0: a location
    reduced to 0 or less reads the "<= 0" column of the Critical Hit table, whose every cell
    blows the location off or removes the mech, so the excess has no other effect.
    """
    loss = row.armor_loss if isinstance(row.armor_loss, int) else amounts[row.armor_loss]
    reduced = armor_before - loss
    after = max(0, reduced)  # stored clamped at 0: "0 or less" reads the same (§17.4.3)
    doubles = faces[0] == faces[1]
    critical = loss > 0 and (
        (row.critical_on_doubles and doubles) or (row.critical_on_armor_le_0 and reduced <= 0)
    )
    return DamageOutcome(row.passed, loss, after, critical, row.duck_back, row.refight)


def ranged_damage(
    rules: NoQuarterRules, faces: tuple[int, int], impact: int, armor_before: int
) -> DamageOutcome:
    """Roll 2d6 against Impact and read table 17.4.2 (§17.4.2)."""
    passed = passed_dice(faces, impact)
    row = rules.ranged_damage[passed]
    return resolve_damage_row(row, faces, {"impact": impact}, armor_before)


def critical_kind(rules: NoQuarterRules, location: Location, armor_now: int) -> CriticalKind:
    """The Critical Hit cell for ``location`` by its armor now (<= 0 or >= 1) (§17.4.3)."""
    table = rules.critical_hits
    return table.armor_le_0[location] if armor_now <= 0 else table.armor_ge_1[location]


def chest_explosion(rules: NoQuarterRules, face: int) -> Removal:
    """Chest at 0 or less, 1d6: DESTROYED (pilot dead) or INOPERABLE (bails out) (§17.4.3)."""
    return rules.critical_hits.chest_roll[face]


def halved_speed(speed: int) -> int:
    """Speed after a Leg critical with armor left: halved, rounded down (ruling D23, §17.4.3)."""
    return speed // 2


def pilot_test_rep(
    rep: int, attributes: Iterable[Attribute], *, rules: NoQuarterRules | None = None
) -> int:
    """Rep for the Pilot Test: Agile +1, Slow -1 (§17.4.3.1)."""
    modifiers = (rules or load_rules()).pilot_test.rep_modifiers
    return rep + sum(modifiers.get(a, 0) for a in set(attributes))


def pilot_test_passed(
    rules: NoQuarterRules, face: int, rep: int, attributes: Iterable[Attribute]
) -> bool:
    """Pilot Test, 1d6 vs modified Rep: True stays standing, False knocked down (§17.4.3.1)."""
    return passed_dice((face,), pilot_test_rep(rep, attributes, rules=rules)) >= 1
