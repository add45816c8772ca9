"""The *No Quarter* rule set: every table loaded, validated and cross-checked (§9-§18).

:func:`load_rules` reads ``configs/rules/no_quarter/*.yaml`` (the terrain, line-of-sight and
cover files belong to the geometry module) into one immutable :class:`NoQuarterRules`, cached
per :class:`RulesOptions`. Options select the digest's alternative readings; the defaults are
its recommended rulings.

>>> rules = load_rules()
>>> rules.mech("hishen_c3").mech_class, rules.formation_size(Faction.ZHUH_ZHUH, "squad")
(3, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces import data_combat as combat
from wargym.rules.no_quarter.forces import data_loaders as loaders
from wargym.rules.no_quarter.forces.records import (
    ActivationRules,
    AttributeEffect,
    ChargeRules,
    CriticalTable,
    DamageRow,
    FactionRestriction,
    FormationRow,
    FreeCompanyMixing,
    InSightRules,
    LeaderRules,
    MechDesign,
    MeleeCombatRules,
    MiscItemProfile,
    MountingRules,
    MultipleMeleeRules,
    OutgunnedRules,
    PilotTestRules,
    RacialAttribute,
    RangedCombatRules,
    ReactionRules,
    WeaponProfile,
)
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    Faction,
    ItemType,
    Location,
    MeleeAttack,
    Race,
    WeaponFamily,
)
from wargym.rules.tables import BandTable, Node, load_config

CONFIG_DIR = "rules/no_quarter"
Formation = Literal["team", "squad", "platoon", "company"]


@dataclass(frozen=True, slots=True)
class RulesOptions:
    """Alternative readings of the rulebook; every default is the digest's recommended ruling."""

    zhuh_zhuh_restriction: Literal["recommended", "printed"] = "recommended"
    """§10.8 [open] Zhuh-Zhuh restriction: "recommended" forbids Beams and PPGs (matches the
    Zhuh-Zhuh list); "printed" forbids Guns and PPGs as the text says, so every pre-generated
    Zhuh-Zhuh mech then fails the check (kept for play, flagged in its notes)."""
    gun_medium_stats: Literal["table", "printed"] = "table"
    """§10.8.5 [open] Gun, Medium: "table" uses table 10.4 (Range 24, Impact 3); "printed" uses
    the Zhuh-Zhuh list's values (zhuh_zhuh_c3: Range 18 / Impact 2; zhuh_zhuh_c4: Impact 2)."""
    strict_mounting: bool = False
    """§10.8.4 [open] star_army_c2 (7 WV on an arm with armor 3, over the §10.5 limit). False:
    kept as printed and flagged in its notes. True: rejected (``mech("star_army_c2")`` raises)
    and replaced by ``star_army_c2_strict``, which moves the Beam, Light to the chest (ruling
    D36 ``strict_mounting``). Each id is offered under exactly one setting."""
    pdf_c4_target: Literal["table", "printed"] = "table"
    """§10.8.3 [reconstructed] pdf_c4 left-arm Beam, Medium: "table" Target 1 (the printed 2
    is a misprint); "printed" restores Target 2 (the mech then fails the check, flagged)."""
    free_company_races: Literal["company", "per_pilot"] = "company"
    """§10.8.1/§9.6.3 [open] A Free Company force's races: "company" rolls the company's race
    and mixing roll once per force (E25); "per_pilot" rolls every pilot's race on its own."""


@dataclass(frozen=True, eq=False)
class NoQuarterRules:
    """Every *No Quarter* table as typed, read-only records, plus the pre-generated mechs."""

    options: RulesOptions
    pilot_rep: Mapping[str, tuple[int, ...]]
    """Table 9.4.2 rows by faction value or ``"xeog"``; index = die face - 1."""
    star_rep: int
    personal_weapons: Mapping[str, Mapping[str, tuple[int, ...]]]
    racial: Mapping[Race, RacialAttribute]
    faction_race: Mapping[Faction, Race | None]
    """None: the race is rolled (Free Company)."""
    free_company_race_roll: tuple[Race, ...]
    free_company_mixing: FreeCompanyMixing
    """§10.8.1 mixing roll and race count (``racial_attributes.yaml``)."""
    attribute_table: tuple[tuple[Attribute, ...], ...]
    """Table 9.6.4 by first die face - 1, then second die face - 1."""
    attribute_effects: Mapping[Attribute, AttributeEffect]
    attribute_preference: tuple[Attribute, ...]
    """Ruling D35, best first (Choice excluded)."""
    mech_classes: BandTable
    weight_capacity: BandTable
    speed: BandTable
    weapons: Mapping[ItemType, WeaponProfile]
    misc_items: Mapping[ItemType, MiscItemProfile]
    mounting: MountingRules
    restrictions: Mapping[Faction, FactionRestriction]
    team_size: int
    organization: Mapping[Faction, FormationRow]
    leaders: LeaderRules
    activation: ActivationRules
    in_sight: InSightRules
    reaction: ReactionRules
    ranged_combat: RangedCombatRules
    hit_location: Mapping[int, Location]
    marksman_preference: tuple[Location, ...]
    ranged_damage: Mapping[int, DamageRow]
    critical_hits: CriticalTable
    pilot_test: PilotTestRules
    outgunned: OutgunnedRules
    charge: ChargeRules
    melee_combat: MeleeCombatRules
    melee_hit_location: Mapping[int, Mapping[MeleeAttack, Location]]
    melee_damage: Mapping[int, DamageRow]
    multiple_melee: MultipleMeleeRules
    mechs: Mapping[str, MechDesign] = field(default_factory=dict)
    rejected_mechs: Mapping[str, str] = field(default_factory=dict)
    """Ids not offered under these options, with the reason."""

    def mech(self, mech_id: str) -> MechDesign:
        """The pre-generated mech ``mech_id``; a TableError names unknown ids (§10.8)."""
        if mech_id in self.mechs:
            return self.mechs[mech_id]
        if mech_id in self.rejected_mechs:
            raise TableError(f"mech {mech_id!r} is not offered: {self.rejected_mechs[mech_id]}")
        raise TableError(f"unknown mech {mech_id!r}; known: {sorted(self.mechs)}")

    def mechs_of(self, faction: Faction) -> tuple[MechDesign, ...]:
        """Pre-generated mechs of ``faction`` by class; the ISS fields the Star Army's (§10.8.4)."""
        row = faction.table_row
        return tuple(
            sorted((m for m in self.mechs.values() if m.faction is row), key=lambda m: m.mech_class)
        )

    def forbidden_families(self, faction: Faction) -> frozenset[WeaponFamily]:
        """Weapon families ``faction`` may not mount under the options (§10.8)."""
        restriction = self.restrictions[faction]
        if self.options.zhuh_zhuh_restriction == "printed":
            return restriction.forbidden_printed
        return restriction.forbidden_recommended

    def formation_size(self, faction: Faction, formation: Formation) -> int:
        """Number of mechs in a team, squad, platoon or company of ``faction`` (§11.0)."""
        row = self.organization[faction]
        sizes = {"team": self.team_size}
        sizes["squad"] = sizes["team"] * row.squad_teams
        sizes["platoon"] = sizes["squad"] * row.platoon_squads
        sizes["company"] = sizes["platoon"] * row.company_platoons
        return sizes[formation]

    def item_profile(self, item: ItemType) -> WeaponProfile:
        """The table row of ``item`` as a profile; misc items have family None (§10.4, §10.6)."""
        if item in self.weapons:
            return self.weapons[item]
        misc = self.misc_items[item]
        return WeaponProfile(item, None, misc.wv or 0, None, 0, None)

    def effect(self, attribute: Attribute) -> AttributeEffect:
        """Effects of a random attribute (§9.6.4)."""
        return self.attribute_effects[attribute]


def _file(name: str) -> Node:
    return load_config(f"{CONFIG_DIR}/{name}.yaml")


def _agree(what: str, table: Mapping[Any, int], derived: Mapping[Any, int]) -> None:
    nonzero = {k: v for k, v in derived.items() if v}
    if dict(table) != nonzero:
        raise TableError(f"{what}: {dict(table)} disagrees with {nonzero}")


def _cross_check(rules: NoQuarterRules) -> None:
    """Cross-reference the tables that restate the same facts (§9.6, §10, §16-§18)."""
    effects = rules.attribute_effects

    def by_attr(get: Callable[[AttributeEffect], int]) -> dict[Any, int]:
        return {attr: get(effect) for attr, effect in effects.items()}

    src = "random_attributes.yaml effects"
    _agree(
        f"in_sight.yaml attribute vs {src}",
        rules.in_sight.attribute_dice,
        by_attr(lambda e: e.in_sight_dice),
    )
    _agree(
        "in_sight.yaml race vs racial_attributes.yaml",
        rules.in_sight.race_dice,
        {r: a.in_sight_dice for r, a in rules.racial.items()},
    )
    _agree(
        f"melee_combat.yaml attribute vs {src}",
        rules.melee_combat.attribute,
        by_attr(lambda e: e.melee_combat_dice),
    )
    _agree(
        "melee_combat.yaml race vs racial_attributes.yaml",
        rules.melee_combat.race,
        {r: a.melee_combat_dice for r, a in rules.racial.items()},
    )
    _agree(
        f"pilot_test.yaml rep_modifiers vs {src}",
        rules.pilot_test.rep_modifiers,
        by_attr(lambda e: e.pilot_test_rep),
    )
    _agree(
        f"ranged_combat.yaml rep_modifiers vs {src}",
        rules.ranged_combat.rep_modifiers,
        by_attr(lambda e: e.ranged_combat_rep),
    )
    _agree(
        f"activation.yaml vs {src}",
        rules.activation.attribute_rep,
        by_attr(lambda e: e.activation_rep),
    )
    _agree(
        f"activation.yaml group size vs {src}",
        rules.activation.only_when_group_size,
        by_attr(lambda e: e.only_when_group_size or 0),
    )
    _agree(
        f"reaction_tests.yaml fired_on_total_dice vs {src}",
        rules.reaction.fired_on_total_dice,
        by_attr(lambda e: e.fired_on_dice_total or 0),
    )
    _agree(
        f"outgunned.yaml never_outgunned vs {src}",
        {a: 1 for a in rules.outgunned.never_outgunned},
        by_attr(lambda e: e.never_outgunned),
    )
    _agree(
        "in_sight.yaml bonus_successes vs misc_items.yaml",
        rules.in_sight.bonus_successes,
        {i: m.in_sight_bonus_successes for i, m in rules.misc_items.items()},
    )
    ews2 = rules.misc_items[ItemType.EWS_2].allowed_factions
    _agree(
        "misc_items.yaml ews_2 allowed_factions vs faction_restrictions.yaml",
        {f: 1 for f in ews2},
        {f: r.ews_2_allowed for f, r in rules.restrictions.items()},
    )
    for total in range(loaders.ARMOR_DOMAIN[0], loaders.ARMOR_DOMAIN[1] + 1):
        row = rules.weight_capacity.lookup(total)
        if row.mech_class != rules.mech_classes.lookup(total):
            raise TableError(
                f"weight_capacity.yaml: armor {total} class {row.mech_class} disagrees with "
                f"mech_classes.yaml class {rules.mech_classes.lookup(total)}"
            )


def parse_rules(
    files: Mapping[str, Node], options: RulesOptions = RulesOptions()
) -> NoQuarterRules:
    """Build a rule set from parsed YAML nodes keyed by file stem (tests feed broken ones)."""
    from wargym.rules.no_quarter.forces.design import load_mechs

    pilot_rep, star_rep = loaders.load_pilot_rep(files["pilot_rep"])
    racial, faction_race, fc_roll, fc_mixing = loaders.load_races(files["racial_attributes"])
    table, effects, preference = loaders.load_random_attributes(files["random_attributes"])
    team_size, organization = loaders.load_organization(files["organization"])
    hit_location, marksman = combat.load_hit_location(files["hit_location"])
    rules = NoQuarterRules(
        options=options,
        pilot_rep=loaders.frozen(pilot_rep),
        star_rep=star_rep,
        personal_weapons=loaders.frozen(loaders.load_personal_weapons(files["personal_weapons"])),
        racial=loaders.frozen(racial),
        faction_race=loaders.frozen(faction_race),
        free_company_race_roll=fc_roll,
        free_company_mixing=fc_mixing,
        attribute_table=table,
        attribute_effects=loaders.frozen(effects),
        attribute_preference=preference,
        mech_classes=loaders.load_mech_classes(files["mech_classes"]),
        weight_capacity=loaders.load_weight_capacity(files["weight_capacity"]),
        speed=loaders.load_speed(files["speed"]),
        weapons=loaders.frozen(loaders.load_weapons(files["weapons"])),
        misc_items=loaders.frozen(loaders.load_misc_items(files["misc_items"])),
        mounting=loaders.load_mounting(files["mounting"]),
        restrictions=loaders.frozen(
            loaders.load_faction_restrictions(files["faction_restrictions"])
        ),
        team_size=team_size,
        organization=loaders.frozen(organization),
        leaders=loaders.load_leaders(files["leaders"]),
        activation=loaders.load_activation(files["activation"]),
        in_sight=combat.load_in_sight(files["in_sight"]),
        reaction=combat.load_reaction_tests(files["reaction_tests"]),
        ranged_combat=combat.load_ranged_combat(files["ranged_combat"]),
        hit_location=loaders.frozen(hit_location),
        marksman_preference=marksman,
        ranged_damage=loaders.frozen(
            combat.load_damage(files["ranged_damage"], ("impact",), "impact")
        ),
        critical_hits=combat.load_critical_hits(files["critical_hits"]),
        pilot_test=combat.load_pilot_test(files["pilot_test"]),
        outgunned=combat.load_outgunned(files["outgunned"]),
        charge=combat.load_charge(files["charge_into_melee"]),
        melee_combat=combat.load_melee_combat(files["melee_combat"]),
        melee_hit_location=loaders.frozen(
            {
                k: loaders.frozen(v)
                for k, v in combat.load_melee_hit_location(files["melee_hit_location"]).items()
            }
        ),
        melee_damage=loaders.frozen(
            combat.load_damage(files["melee_damage"], ("attacking_limb",), "margin")
        ),
        multiple_melee=combat.load_multiple_melee(files["multiple_melee"]),
    )
    _cross_check(rules)
    mechs, rejected = load_mechs(rules, files["mechs"])
    return replace(rules, mechs=loaders.frozen(mechs), rejected_mechs=loaders.frozen(rejected))


def activation_rep(
    rep: int,
    attributes: Iterable[Attribute],
    group_size: int,
    *,
    rules: NoQuarterRules | None = None,
) -> int:
    """A group leader's activation Rep: Dumbass -1, Initiative +1 in a group of one (§14.0)."""
    table = (rules or load_rules()).activation
    total = rep
    for attribute in set(attributes):
        only = table.only_when_group_size.get(attribute)
        if only is None or only == group_size:
            total += table.attribute_rep.get(attribute, 0)
    return total


TABLE_FILES = (
    "pilot_rep",
    "personal_weapons",
    "racial_attributes",
    "random_attributes",
    "mech_classes",
    "weight_capacity",
    "speed",
    "weapons",
    "misc_items",
    "mounting",
    "faction_restrictions",
    "mechs",
    "organization",
    "leaders",
    "activation",
    "in_sight",
    "reaction_tests",
    "ranged_combat",
    "hit_location",
    "ranged_damage",
    "critical_hits",
    "pilot_test",
    "outgunned",
    "charge_into_melee",
    "melee_combat",
    "melee_hit_location",
    "melee_damage",
    "multiple_melee",
)
"""Stems of every YAML file this module owns under ``configs/rules/no_quarter``."""


@cache
def load_rules(options: RulesOptions = RulesOptions()) -> NoQuarterRules:
    """Load and validate every *No Quarter* table and pre-generated mech (cached per options)."""
    return parse_rules({name: _file(name) for name in TABLE_FILES}, options)
