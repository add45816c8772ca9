"""Table-driven resolvers of the reaction system: In Sight, reaction tests, outgunned (§16, §17.5).

Pure functions: they read the loaded tables and the arguments, and roll nothing (the caller rolls
the group's dice once and passes the faces or the pass count, §16.2.1). Functions that take
``rules`` only as an optional keyword use the default rule set, whose tables they read do not
depend on :class:`~wargym.rules.no_quarter.forces.data.RulesOptions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    Faction,
    ItemType,
    Race,
    ReactionResult,
    ReactionTest,
)


def is_outgunned(
    tester_class: int,
    cause_class: int,
    *,
    nerves_of_steel: bool = False,
    rules: NoQuarterRules | None = None,
) -> bool:
    """Whether a cause at least two classes greater outguns the tester (§17.5)."""
    table = (rules or load_rules()).outgunned
    if nerves_of_steel:
        return False
    return cause_class in table.outgunned_by[tester_class]


def attributes_outgunned_immune(rules: NoQuarterRules, attributes: Iterable[Attribute]) -> bool:
    """Whether any attribute (Nerves of Steel) makes its pilot never outgunned (§17.5)."""
    return any(a in rules.outgunned.never_outgunned for a in attributes)


def in_sight_dice(
    rep: int,
    *,
    race: Race,
    attributes: Iterable[Attribute],
    enemy_concealed: bool,
    rules: NoQuarterRules | None = None,
) -> int:
    """Dice the leader rolls on the In Sight test: Rep d6 with table 16.1.3 modifiers (§16.1.3)."""
    table = (rules or load_rules()).in_sight
    dice = rep * table.dice_per_rep + table.race_dice.get(race, 0)
    dice += sum(table.attribute_dice.get(a, 0) for a in set(attributes))
    if enemy_concealed:
        dice += table.enemy_concealed_dice
    return max(0, dice)


def in_sight_bonus_successes(rules: NoQuarterRules, ews: ItemType | None) -> int:
    """Bonus successes of the leader's own functioning EWS (§16.1.3, §10.6.2)."""
    return rules.in_sight.bonus_successes.get(ews, 0) if ews is not None else 0


def moving_side_wins(
    moving_successes: int, nonmoving_successes: int, *, rules: NoQuarterRules | None = None
) -> bool:
    """The moving side wins only with strictly more successes; ties go to the other (§16.1.3)."""
    if moving_successes == nonmoving_successes:
        return (rules or load_rules()).in_sight.tie_winner == "moving"
    return moving_successes > nonmoving_successes


def reaction_dice(
    rules: NoQuarterRules,
    test: ReactionTest,
    faction: Faction,
    *,
    in_cover: bool,
    attributes: Iterable[Attribute],
) -> int:
    """Dice a mech reads on a reaction test: 2 plus table 16.2 dice modifiers (§16.2).

    Fired On: +1 in cover, +1 on the Star Army row (Star Army, ISS); Mech Down: +1 in cover.
    Wussy reads a fixed total (1 die) on Fired On.
    """
    table = rules.reaction
    if test is ReactionTest.FIRED_ON:
        totals = [
            table.fired_on_total_dice[a] for a in attributes if a in table.fired_on_total_dice
        ]
        if totals:
            return min(totals)
    dice = table.dice
    if in_cover:
        dice += table.in_cover_dice.get(test.value, 0)
    if faction.table_row is Faction.STAR_ARMY:
        dice += table.star_army_row_dice.get(test.value, 0)
    return max(0, dice)


def reaction_rep(
    rules: NoQuarterRules,
    rep: int,
    *,
    weapons_out_of_action: int,
    twice_as_many_friendly_losses: bool,
) -> int:
    """Rep a mech tests against: -1 per weapon out of action, -1 for heavy losses (§16.2)."""
    table = rules.reaction
    modified = rep + weapons_out_of_action * table.per_weapon_out_of_action_rep
    if twice_as_many_friendly_losses:
        modified += table.twice_as_many_friendly_losses_rep
    return modified


def twice_as_many_friendly_losses(friendly_losses: int, enemy_losses: int) -> bool:
    """Whether "twice more friends" were lost: friendly >= 1 and >= 2 x enemy losses (§16.2).

    The digest's recommended reading of the [open] modifier; losses count mechs destroyed,
    inoperable or leaving the battlefield this mission (ruling D22).
    """
    return friendly_losses >= 1 and friendly_losses >= 2 * enemy_losses


def read_pooled_dice(pool: Sequence[int], n: int) -> tuple[int, ...]:
    """The first ``n`` dice of the group's shared pool (ruling D16, §16.2.1); n <= 0 reads none."""
    if n > len(pool):
        raise ValueError(f"the pool holds {len(pool)} dice; a mech cannot read {n}")
    return tuple(pool[: max(0, n)])


@dataclass(frozen=True, slots=True)
class ReactionOutcome:
    """A mech's reading of a reaction test: its result and lasting Rep change (§16.2)."""

    result: ReactionResult
    rep_change: int
    """0, or -1 for the Takes Damage "Rep -1" cells."""


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
    """Read table 16.2 for the mech's faction row and apply Coward and Nerves of Steel (§16.2).

    Cells are read outgunned > in range (and able to fire) > if damaged > otherwise. Coward turns
    a Fired On Duck Back into Leave the Battlefield; Nerves of Steel turns every Duck Back into
    Carry On and wins over Coward (the digest's recommended ruling, §9.6).
    """
    if not 0 <= passed <= 2:
        raise ValueError(f"a reaction test passes 0, 1 or 2 dice, not {passed}")
    cell = rules.reaction.cells[(test.value, faction.table_row, passed)]
    result = cell.otherwise
    if outgunned and cell.outgunned is not None:
        result = cell.outgunned
    elif in_range and cell.in_range is not None:
        result = cell.in_range
    elif damaged and cell.if_damaged is not None:
        result = cell.if_damaged
    if result is ReactionResult.DUCK_BACK:
        effects = [rules.effect(a) for a in set(attributes)]
        nerves = duck_back_becomes(rules, attributes)
        coward = next(
            (e.fired_on_duck_back_becomes for e in effects if e.fired_on_duck_back_becomes), None
        )
        if nerves is not None:
            result = nerves
        elif coward is not None and test is ReactionTest.FIRED_ON:
            result = coward
    return ReactionOutcome(result, cell.rep_change)


def duck_back_becomes(
    rules: NoQuarterRules, attributes: Iterable[Attribute]
) -> ReactionResult | None:
    """What an attribute turns every Duck Back into, whatever its source (§9.6.4 ruling).

    Nerves of Steel: Carry On, for reaction results, ranged pass 0 and In Sight Duck Back alike.
    """
    effects = [rules.effect(a) for a in sorted(set(attributes), key=lambda a: a.value)]
    return next((e.duck_back_becomes for e in effects if e.duck_back_becomes), None)


def worst_result(
    results: Sequence[ReactionResult], *, rules: NoQuarterRules | None = None
) -> ReactionResult:
    """The worst of several results read from one roll (§16.2.2).

    Severity: Carry On (Fire and Rush Shot included) < Duck Back < Leave the Battlefield. If
    the worst is carry-on level, Fire is returned when any cause ordered Fire, else Rush Shot
    when any ordered a Rush Shot; the caller fires at each cause by its own result.
    """
    if not results:
        raise ValueError("worst_result needs at least one result")
    order = [r.status for r in (rules or load_rules()).reaction.severity]
    worst = max(results, key=lambda r: order.index(r.status))
    if worst.status is not ReactionResult.CARRY_ON.status:
        return worst
    for shot in (ReactionResult.FIRE, ReactionResult.RUSH_SHOT):
        if shot in results:
            return shot
    return ReactionResult.CARRY_ON
