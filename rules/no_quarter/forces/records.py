"""Immutable records of *No Quarter*: weapons, mounted items, mech designs, pilots (§9-§10).

Every record is a frozen dataclass built from the YAML tables by :mod:`.data_loaders` (or by
:func:`.design.build_design` for custom mechs). The typed rows of the other tables (§11-§18) are
defined here too, so that the loader and the resolvers share one vocabulary.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Attribute,
    Faction,
    ItemType,
    Location,
    MeleeAttack,
    Race,
    ReactionResult,
    Removal,
    WeaponFamily,
)


class CriticalKind(enum.Enum):
    """Cells of the Critical Hit table: location x (armor now <= 0 | >= 1) (§17.4.3)."""

    HEAD_BLOWN_OFF = "head_blown_off"
    """Head at 0 or less: pilot dead (Stars may Cheat Death, §9.2)."""
    PILOT_TEST_HEAD = "pilot_test_head"
    """Head still armored: take a Pilot Test (§17.4.3.1)."""
    ARM_BLOWN_OFF = "arm_blown_off"
    """Arm at 0 or less: the arm and everything on it is lost."""
    ARM_WEAPON_LOST = "arm_weapon_lost"
    """Arm still armored: one random weapon on that arm inoperable (ruling D24)."""
    CHEST_ROLL = "chest_roll"
    """Chest at 0 or less: roll 1d6 for the chest explosion (:func:`chest_explosion`)."""
    RANDOM_ITEM_LOST = "random_item_lost"
    """Chest or gut still armored: one random weapon or misc. item inoperable (ruling D24)."""
    GUT_INOPERABLE = "gut_inoperable"
    """Gut at 0 or less: mech inoperable, pilot bails out unhurt."""
    LEG_BLOWN_OFF = "leg_blown_off"
    """Leg at 0 or less: the mech falls, inoperable, pilot bails out."""
    LEG_SPEED_HALVED = "leg_speed_halved"
    """Leg still armored: speed halved (ruling D23); if not 0, take a Pilot Test."""


class ChargeOutcome(enum.Enum):
    """What the target of a charge may do, by comparing passes (§18.2.1)."""

    TARGET_HOLDS_FIRE = "no_fire"
    """The charger passed more: the target may not fire (Jump Attack allowed)."""
    TARGET_FIRES = "fire"
    """The target passed more: it fires a normal shot at the charger."""
    TARGET_RUSH_SHOT = "rush_shot"
    """Same number passed: the target fires a Rush Shot at the charger."""


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """A row of the Weapons table 10.4 (or, with ``family`` None, of table 10.6) (§10.4)."""

    item: ItemType
    family: WeaponFamily | None
    wv: int
    """Weight value; 0 for the melee weapon (chosen 1-5) and for jump jets (6 - class)."""
    range: int | None
    """Maximum range in inches; None for the melee weapon and misc items."""
    target: int
    """Shots per hit; each shot rolls its own Hit Location and Damage (§10.4)."""
    impact: int | None
    """Ranged Damage target number; None where it equals the chosen WV (melee) or for items."""


@dataclass(frozen=True, slots=True)
class MountedItem:
    """ONE physical weapon or item on a mech; a twin "(2)" line is two of these (ruling D21)."""

    item: ItemType
    location: Location
    wv: int
    range: int | None
    target: int
    impact: int
    label: str

    @property
    def is_weapon(self) -> bool:
        """A ranged or melee weapon (§10.4)."""
        return self.item.is_weapon

    @property
    def is_ranged_weapon(self) -> bool:
        """A weapon that fires (everything but the melee weapon, §10.4)."""
        return self.item.is_ranged_weapon

    @property
    def is_misc(self) -> bool:
        """Jump jets or an EWS (§10.6)."""
        return self.item.is_misc


@dataclass(frozen=True, slots=True)
class MechDesign:
    """A mech as designed: class, speed, armor per location and mounted items (§10.0)."""

    id: str
    name: str
    faction: Faction
    mech_class: int
    speed: int
    armor: tuple[int, ...]
    """Starting armor in ``list(Location)`` order."""
    items: tuple[MountedItem, ...]
    notes: tuple[str, ...]
    """Flags such as known cross-check failures kept for play (§10.8 cross-check report)."""
    capacity: int
    """Weight capacity from the total armor (§10.3)."""
    ews_bonus: int
    """In Sight bonus successes of its EWS: 0, 1 or 2 (§10.6.2)."""

    def armor_at(self, location: Location) -> int:
        """Starting armor of ``location`` (§10.2)."""
        return self.armor[list(Location).index(location)]

    @property
    def armor_by_location(self) -> dict[Location, int]:
        """Starting armor keyed by location."""
        return dict(zip(Location, self.armor, strict=True))

    @property
    def total_armor(self) -> int:
        """Total armor points, which fix class, capacity and speed (§10.1)."""
        return sum(self.armor)

    @property
    def wv_used(self) -> int:
        """Total WV of everything mounted (§10.3)."""
        return sum(item.wv for item in self.items)

    @property
    def weight_capacity(self) -> int:
        """Alias of :attr:`capacity` (§10.3)."""
        return self.capacity

    @property
    def has_jump_jets(self) -> bool:
        """Mounts jump jets (§10.6.1)."""
        return any(item.item is ItemType.JUMP_JETS for item in self.items)

    @property
    def ews(self) -> ItemType | None:
        """Its EWS type, if any (§10.6.2)."""
        return next((item.item for item in self.items if item.item.is_ews), None)

    @property
    def weapons(self) -> tuple[int, ...]:
        """Indices into :attr:`items` of its weapons (ranged and melee)."""
        return tuple(i for i, item in enumerate(self.items) if item.is_weapon)

    @property
    def ranged_weapons(self) -> tuple[int, ...]:
        """Indices into :attr:`items` of its ranged weapons."""
        return tuple(i for i, item in enumerate(self.items) if item.is_ranged_weapon)

    def items_at(self, location: Location) -> tuple[int, ...]:
        """Indices into :attr:`items` mounted at ``location``."""
        return tuple(i for i, item in enumerate(self.items) if item.location is location)


@dataclass(frozen=True, slots=True)
class Pilot:
    """A pilot: Star or Grunt, faction, race, Rep and random attributes (§9.0)."""

    name: str
    faction: Faction
    race: Race
    rep: int
    star: bool
    attributes: tuple[Attribute, ...]
    """Random attributes only; the racial attribute is implied by :attr:`race` (§9.6.3)."""

    def has(self, attribute: Attribute) -> bool:
        """Whether the pilot has the random ``attribute``."""
        return attribute in self.attributes


# -- typed rows of the other tables ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RacialAttribute:
    """A row of table 9.6.3: the racial attribute and its dice effects (§9.6.3)."""

    race: Race
    name: str
    random_attribute_rolls: int
    melee_combat_dice: int = 0
    in_sight_dice: int = 0


@dataclass(frozen=True, slots=True)
class FreeCompanyMixing:
    """§10.8.1: the 1d6 faces on which a Free Company mixes races, and how many (by face)."""

    mixed_faces: tuple[int, ...]
    race_count: tuple[int, ...]
    """Races of a mixed company, by die face - 1."""


@dataclass(frozen=True, slots=True)
class AttributeEffect:
    """Effects of one random attribute, as listed in table 9.6.4 (§9.6.4)."""

    attribute: Attribute
    pilot_test_rep: int = 0
    melee_combat_dice: int = 0
    activation_rep: int = 0
    only_when_group_size: int | None = None
    ranged_combat_rep: int = 0
    in_sight_dice: int = 0
    fired_on_dice_total: int | None = None
    hit_location_rolls: int = 1
    duck_back_becomes: ReactionResult | None = None
    fired_on_duck_back_becomes: ReactionResult | None = None
    never_outgunned: bool = False
    ranged_combat_ignores_fast_moving: bool = False
    cheating_death_uses: int = 0
    star_rerolls: bool = False
    rerolls_per_mission: int = 0
    ignores_first_pilot_test_rep_loss: bool = False
    choose_any: bool = False


@dataclass(frozen=True, slots=True)
class CapacityRow:
    """A row of the Weight Capacity table (§10.3)."""

    armor_min: int
    armor_max: int
    mech_class: int
    capacity: int
    star_army: str


@dataclass(frozen=True, slots=True)
class MiscItemProfile:
    """A row of the Miscellaneous Items table (§10.6)."""

    item: ItemType
    wv: int | None
    """Fixed WV, or None when it depends on the class (jump jets)."""
    wv_by_class: Mapping[int, int]
    in_sight_bonus_successes: int
    allowed_factions: frozenset[Faction]

    def wv_for_class(self, mech_class: int) -> int:
        """WV of this item on a mech of ``mech_class`` (§10.6.1)."""
        return self.wv if self.wv is not None else self.wv_by_class[mech_class]


@dataclass(frozen=True, slots=True)
class FactionRestriction:
    """Mounting limits of one faction (§10.8)."""

    faction: Faction
    forbidden_recommended: frozenset[WeaponFamily]
    forbidden_printed: frozenset[WeaponFamily]
    ews_2_allowed: bool
    guns_or_beams_not_both: bool = False
    guns_or_beams_roll: Mapping[WeaponFamily, tuple[int, ...]] | None = None


@dataclass(frozen=True, slots=True)
class FormationRow:
    """A row of the Mech Organization table (§11.0)."""

    squad_teams: int
    platoon_squads: int
    company_platoons: int


@dataclass(frozen=True, slots=True)
class ReactionCell:
    """A cell of table 16.2: read outgunned > in range > if damaged > otherwise (§16.2)."""

    otherwise: ReactionResult
    outgunned: ReactionResult | None = None
    in_range: ReactionResult | None = None
    if_damaged: ReactionResult | None = None
    rep_change: int = 0


@dataclass(frozen=True, slots=True)
class RangedRow:
    """A row of table 17.4: miss/hit, or the miss conditions of the 8 and 9 rows (§17.4)."""

    low: int | None
    high: int | None
    result: str | None
    """``"hit"`` or ``"miss"`` for unconditional rows; None for conditional rows."""
    shooter_missed_if: frozenset[str] = frozenset()
    target_missed_if: frozenset[str] = frozenset()
    target_index_at_least: int | None = None


@dataclass(frozen=True, slots=True)
class DamageRow:
    """A row of a damage table, by dice passed (§17.4.2, §18.3.2)."""

    passed: int
    armor_loss: str | int
    """An integer, or the named quantity ``"impact"`` / ``"attacking_limb"``."""
    critical_on_doubles: bool = False
    critical_on_armor_le_0: bool = False
    duck_back: bool = False
    refight: bool = False


@dataclass(frozen=True, slots=True)
class ChargeRules:
    """Table 18.2.1: target dice modifiers and outcomes (§18.2.1)."""

    dice_each: int
    stage_distance_inches: int
    in_cover: int
    aspect: Mapping[Aspect, int]
    results: Mapping[str, ChargeOutcome]


@dataclass(frozen=True, slots=True)
class MeleeCombatRules:
    """Table 18.3 dice modifiers (§18.3)."""

    dice_per_rep: int
    one_hand_melee_weapon: int
    attacking_prone_opponent: int
    jump_attack: int
    leaving_battlefield: int
    race: Mapping[Race, int]
    attribute: Mapping[Attribute, int]
    jump_attack_column: MeleeAttack


@dataclass(frozen=True, slots=True)
class CriticalTable:
    """Table 17.4.3 by location and the chest explosion roll (§17.4.3)."""

    armor_le_0: Mapping[Location, CriticalKind]
    armor_ge_1: Mapping[Location, CriticalKind]
    chest_roll: Mapping[int, Removal]


@dataclass(frozen=True, slots=True)
class MountingRules:
    """Mounting limits (§10.2, §10.5, §10.6.2)."""

    min_armor_per_location: int
    per_location_max_wv_per_armor: int
    melee_weapon_locations: frozenset[Location]
    max_ews_per_mech: int


SUCCESSION_SPEC = re.compile(
    r"highest_rep_pilot_in_team|highest_rep_team_leader_in_squad"
    r"|(?P<rank>squad_leader|platoon_leader)_(?P<n>[1-9])"
)
"""The successors ``leaders.yaml`` may list under ``succession`` (see ``leaders.py``)."""


@dataclass(frozen=True, slots=True)
class LeaderRules:
    """Leader ranks, succession, command radius and group cohesion (§12.0, §12.2, §13.2)."""

    ranks_low_to_high: tuple[str, ...]
    succession: Mapping[str, tuple[str, ...]]
    command_radius_inches: int
    command_radius_requires_los: bool
    cohesion_link_inches: int
    cohesion_link_requires_los: bool


@dataclass(frozen=True, slots=True)
class ActivationRules:
    """Activation roll and activation Rep modifiers (§14.0)."""

    dice_per_side: int
    reroll_on_tie: bool
    attribute_rep: Mapping[Attribute, int]
    only_when_group_size: Mapping[Attribute, int]


@dataclass(frozen=True, slots=True)
class InSightRules:
    """Table 16.1.3 In Sight (§16.1.3)."""

    dice_per_rep: int
    tie_winner: str
    free_move_inches: int
    enemy_concealed_dice: int
    race_dice: Mapping[Race, int]
    attribute_dice: Mapping[Attribute, int]
    bonus_successes: Mapping[ItemType, int]


@dataclass(frozen=True, slots=True)
class ReactionRules:
    """Table 16.2 Reaction tests: modifiers and result cells (§16.2)."""

    dice: int
    per_weapon_out_of_action_rep: int
    twice_as_many_friendly_losses_rep: int
    in_cover_dice: Mapping[str, int]
    """Keyed by test value; missing means no modifier."""
    star_army_row_dice: Mapping[str, int]
    fired_on_total_dice: Mapping[Attribute, int]
    mech_down_radius_inches: int
    mech_down_requires_los: bool
    severity: tuple[ReactionResult, ...]
    cells: Mapping[tuple[str, Faction, int], ReactionCell]
    """Keyed by (test value, faction row, passed)."""


@dataclass(frozen=True, slots=True)
class RangedCombatRules:
    """Table 17.4 Ranged combat (§17.4)."""

    rows: tuple[RangedRow, ...]
    rep_modifiers: Mapping[Attribute, int]
    crack_shot_ignores: frozenset[str]
    fast_moving_inches: int

    def row_for(self, total: int) -> RangedRow:
        """The row holding ``total`` (rows tile every integer)."""
        for row in self.rows:
            if (row.low is None or total >= row.low) and (row.high is None or total <= row.high):
                return row
        raise AssertionError("unreachable: ranged combat rows tile every total")


@dataclass(frozen=True, slots=True)
class PilotTestRules:
    """Pilot Test (§17.4.3.1)."""

    dice: int
    rep_modifiers: Mapping[Attribute, int]
    failed_rep_change: int


@dataclass(frozen=True, slots=True)
class OutgunnedRules:
    """Outgunned (§17.5)."""

    min_class_gap: int
    never_outgunned: frozenset[Attribute]
    outgunned_by: Mapping[int, frozenset[int]]


@dataclass(frozen=True, slots=True)
class MultipleMeleeRules:
    """Multiple mech melees (§18.3.4)."""

    max_attackers_per_target: int
    attack_order: tuple[str, ...]
    stars_choose_order: bool
