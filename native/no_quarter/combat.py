"""The native combat resolvers with the reference's signatures (§15-§18, issue 16).

Each function mirrors its namesake in ``battle/ranged_combat.py``, ``reaction.py``, ``melee.py``
or ``flow.py`` (``roll_index``) and reads the tables of the rule set it is given through
:func:`~.combat_tables.combat_tables` (the core holds no number of the books). The
functions take the reference's arguments and return the reference's types
(:class:`~wargym.rules.no_quarter.battle.ranged_combat.DamageOutcome`,
:class:`~wargym.rules.no_quarter.battle.reaction.ReactionOutcome`), so a caller swaps modules.

>>> from wargym.rules.no_quarter.forces.data import load_rules
>>> from wargym.rules.no_quarter.forces.vocab import Location
>>> rules = load_rules()
>>> hit_location(rules, (3, 4)) is Location.CHEST
True
>>> ranged_damage(rules, (2, 2), 3, 4).critical
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, cast

from wargym.native import _core
from wargym.native.no_quarter.combat_tables import combat_tables
from wargym.rules.no_quarter.battle.ranged_combat import DamageOutcome
from wargym.rules.no_quarter.battle.reaction import ReactionOutcome
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.records import ChargeOutcome, CriticalKind, DamageRow
from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Attribute,
    Faction,
    ItemType,
    Location,
    MeleeAttack,
    Race,
    ReactionResult,
    ReactionTest,
    Removal,
)

core: Any = _core.no_quarter.combat
"""The compiled resolvers (``wargym.native._core.no_quarter.combat``)."""


def _damage_outcome(values: tuple[int, int, int, bool, bool, bool]) -> DamageOutcome:
    return DamageOutcome(*values)


# -- ranged_combat.py ---------------------------------------------------------------------------
def ranged_rep(
    rep: int, attributes: Iterable[Attribute], *, rules: NoQuarterRules | None = None
) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.ranged_rep`."""
    return cast("int", core.ranged_rep(combat_tables(rules), rep, _attrs(attributes)))


def to_hit(rules: NoQuarterRules, total: int, **conditions: Any) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.to_hit` (same keywords)."""
    return cast("bool", core.to_hit(combat_tables(rules), total, **conditions))


def hit_location(rules: NoQuarterRules, faces: tuple[int, int]) -> Location:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.hit_location`."""
    return cast("Location", core.hit_location(combat_tables(rules), faces))


def better_location(a: Location, b: Location, *, rules: NoQuarterRules | None = None) -> Location:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.better_location`."""
    return cast("Location", core.better_location(combat_tables(rules), a, b))


def marksman_location(
    rules: NoQuarterRules, first: tuple[int, int], second: tuple[int, int]
) -> Location:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.marksman_location`."""
    return cast("Location", core.marksman_location(combat_tables(rules), first, second))


def resolve_damage_row(
    row: DamageRow, faces: tuple[int, int], amounts: dict[str, int], armor_before: int
) -> DamageOutcome:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.resolve_damage_row`."""
    return _damage_outcome(core.resolve_damage_row(row, faces, amounts, armor_before))


def ranged_damage(
    rules: NoQuarterRules, faces: tuple[int, int], impact: int, armor_before: int
) -> DamageOutcome:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.ranged_damage`."""
    return _damage_outcome(core.ranged_damage(combat_tables(rules), faces, impact, armor_before))


def critical_kind(rules: NoQuarterRules, location: Location, armor_now: int) -> CriticalKind:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.critical_kind`."""
    return cast("CriticalKind", core.critical_kind(combat_tables(rules), location, armor_now))


def chest_explosion(rules: NoQuarterRules, face: int) -> Removal:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.chest_explosion`."""
    return cast("Removal", core.chest_explosion(combat_tables(rules), face))


def halved_speed(speed: int) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.halved_speed`."""
    return cast("int", core.halved_speed(speed))


def pilot_test_rep(
    rep: int, attributes: Iterable[Attribute], *, rules: NoQuarterRules | None = None
) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.pilot_test_rep`."""
    return cast("int", core.pilot_test_rep(combat_tables(rules), rep, _attrs(attributes)))


def pilot_test_passed(
    rules: NoQuarterRules, face: int, rep: int, attributes: Iterable[Attribute]
) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.ranged_combat.pilot_test_passed`."""
    return cast("bool", core.pilot_test_passed(combat_tables(rules), face, rep, _attrs(attributes)))


def _attrs(attributes: Iterable[Attribute]) -> Any:
    """Lists, tuples and sets cross as they are; any other iterable as a tuple."""
    if isinstance(attributes, (list, tuple, set, frozenset)):
        return attributes
    return tuple(attributes)


# -- reaction.py --------------------------------------------------------------------------------
def is_outgunned(
    tester_class: int,
    cause_class: int,
    *,
    nerves_of_steel: bool = False,
    rules: NoQuarterRules | None = None,
) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.is_outgunned`."""
    return cast(
        "bool", core.is_outgunned(combat_tables(rules), tester_class, cause_class, nerves_of_steel)
    )


def attributes_outgunned_immune(rules: NoQuarterRules, attributes: Iterable[Attribute]) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.attributes_outgunned_immune`."""
    return cast("bool", core.attributes_outgunned_immune(combat_tables(rules), _attrs(attributes)))


def in_sight_dice(
    rep: int,
    *,
    race: Race,
    attributes: Iterable[Attribute],
    enemy_concealed: bool,
    rules: NoQuarterRules | None = None,
) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.in_sight_dice`."""
    tables = combat_tables(rules)
    return cast("int", core.in_sight_dice(tables, rep, race, _attrs(attributes), enemy_concealed))


def in_sight_bonus_successes(rules: NoQuarterRules, ews: ItemType | None) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.in_sight_bonus_successes`."""
    return cast("int", core.in_sight_bonus_successes(combat_tables(rules), ews))


def moving_side_wins(
    moving_successes: int, nonmoving_successes: int, *, rules: NoQuarterRules | None = None
) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.moving_side_wins`."""
    tables = combat_tables(rules)
    return cast("bool", core.moving_side_wins(tables, moving_successes, nonmoving_successes))


def reaction_dice(
    rules: NoQuarterRules,
    test: ReactionTest,
    faction: Faction,
    *,
    in_cover: bool,
    attributes: Iterable[Attribute],
) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.reaction_dice`."""
    tables = combat_tables(rules)
    return cast("int", core.reaction_dice(tables, test, faction, in_cover, _attrs(attributes)))


def reaction_rep(
    rules: NoQuarterRules,
    rep: int,
    *,
    weapons_out_of_action: int,
    twice_as_many_friendly_losses: bool,
) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.reaction_rep`."""
    tables = combat_tables(rules)
    return cast(
        "int", core.reaction_rep(tables, rep, weapons_out_of_action, twice_as_many_friendly_losses)
    )


def twice_as_many_friendly_losses(friendly_losses: int, enemy_losses: int) -> bool:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.twice_as_many_friendly_losses`."""
    return cast("bool", core.twice_as_many_friendly_losses(friendly_losses, enemy_losses))


def read_pooled_dice(pool: Sequence[int], n: int) -> tuple[int, ...]:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.read_pooled_dice`."""
    return cast(
        "tuple[int, ...]",
        core.read_pooled_dice(pool if isinstance(pool, (list, tuple)) else list(pool), n),
    )


def reaction_result(
    rules: NoQuarterRules,
    test: ReactionTest,
    faction: Faction,
    passed: int,
    *,
    outgunned: bool = False,
    in_range: bool = False,
    damaged: bool = False,
    attributes: Iterable[Attribute] = (),
) -> ReactionOutcome:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.reaction_result`."""
    result, rep_change = core.reaction_result(
        combat_tables(rules), test, faction, passed, outgunned, in_range, damaged,
        _attrs(attributes),
    )  # fmt: skip
    return ReactionOutcome(result, rep_change)


def duck_back_becomes(
    rules: NoQuarterRules, attributes: Iterable[Attribute]
) -> ReactionResult | None:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.duck_back_becomes`."""
    return cast(
        "ReactionResult | None", core.duck_back_becomes(combat_tables(rules), _attrs(attributes))
    )


def worst_result(
    results: Sequence[ReactionResult], *, rules: NoQuarterRules | None = None
) -> ReactionResult:
    """Native :func:`~wargym.rules.no_quarter.battle.reaction.worst_result`."""
    listed = results if isinstance(results, (list, tuple)) else list(results)
    return cast("ReactionResult", core.worst_result(combat_tables(rules), listed))


# -- melee.py -----------------------------------------------------------------------------------
def charge_target_dice(rules: NoQuarterRules, *, target_in_cover: bool, aspect: Aspect) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.charge_target_dice`."""
    return cast("int", core.charge_target_dice(combat_tables(rules), target_in_cover, aspect))


def charge_outcome(
    charger_passed: int, target_passed: int, *, rules: NoQuarterRules | None = None
) -> ChargeOutcome:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.charge_outcome`."""
    return cast(
        "ChargeOutcome", core.charge_outcome(combat_tables(rules), charger_passed, target_passed)
    )


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
    """Native :func:`~wargym.rules.no_quarter.battle.melee.melee_dice`."""
    return cast("int", core.melee_dice(
        combat_tables(rules), rep, race, _attrs(attributes), melee_weapon, attacking_prone,
        jump_attack, leaving,
    ))  # fmt: skip


def melee_margin(attacker_successes: int, defender_successes: int) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.melee_margin`."""
    return cast("int", core.melee_margin(attacker_successes, defender_successes))


def melee_hit_location(
    rules: NoQuarterRules, face: int, attack: MeleeAttack, *, jump_attack: bool = False
) -> Location:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.melee_hit_location`."""
    return cast(
        "Location", core.melee_hit_location(combat_tables(rules), face, attack, jump_attack)
    )


def limb_damage(limb_armor: int, melee_weapon_wv: int = 0) -> int:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.limb_damage`."""
    return cast("int", core.limb_damage(limb_armor, melee_weapon_wv))


def melee_damage(
    rules: NoQuarterRules,
    faces: tuple[int, int],
    margin: int,
    limb_damage: int,
    armor_before: int,
) -> DamageOutcome:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.melee_damage`."""
    tables = combat_tables(rules)
    return _damage_outcome(core.melee_damage(tables, faces, margin, limb_damage, armor_before))


def melee_attack_order(attackers: Sequence[tuple[Hashable, int, int]]) -> list[Hashable]:
    """Native :func:`~wargym.rules.no_quarter.battle.melee.melee_attack_order`."""
    return cast(
        "list[Hashable]",
        core.melee_attack_order(
            attackers if isinstance(attackers, (list, tuple)) else list(attackers)
        ),
    )


# -- flow.py ------------------------------------------------------------------------------------
def roll_index(dice: Any, count: int) -> tuple[int, tuple[int, ...]]:
    """Native :func:`~wargym.rules.no_quarter.battle.flow.roll_index` on native dice.

    ``dice`` is a ``_core.RandomDice`` or ``_core.ScriptedDice``; a count above
    ``ROLL_INDEX_MAX_COUNT`` (36) is refused, where the reference never stops rolling.
    """
    return cast("tuple[int, tuple[int, ...]]", core.roll_index(dice, count))


ROLL_INDEX_MAX_COUNT: int = core.combat_vocabulary()["ROLL_INDEX_MAX_COUNT"]
"""The most items :func:`roll_index` picks among (ruling D24's 2d6 reading covers 36)."""
