"""Strict parsers of the *No Quarter* YAML tables, one per file (§9-§18).

Every function takes a :class:`~wargym.rules.tables.Node` (so tests can feed broken YAML through
:func:`~wargym.rules.tables.parse_yaml`) and returns typed, immutable records. Unknown keys, wrong
types, incomplete roll coverage and dangling references raise a
:class:`~wargym.rules.errors.TableError` naming the file, the key path and the row.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, TypeVar

from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces.records import (
    SUCCESSION_SPEC,
    ActivationRules,
    AttributeEffect,
    CapacityRow,
    FactionRestriction,
    FormationRow,
    FreeCompanyMixing,
    LeaderRules,
    MiscItemProfile,
    MountingRules,
    RacialAttribute,
    WeaponProfile,
)
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    Faction,
    ItemType,
    Location,
    Race,
    Rank,
    ReactionResult,
    WeaponFamily,
)
from wargym.rules.tables import Band, BandTable, Node

E = TypeVar("E", bound=enum.Enum)
K = TypeVar("K")
V = TypeVar("V")

FACES = tuple(range(1, 7))
ARMOR_DOMAIN = (7, 36)
"""Total armor 7-36 (§10.2): the range the armor-keyed tables must tile exactly."""


def frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only view of ``mapping``."""
    return MappingProxyType(dict(mapping))


def as_enum(node: Node, enum_type: type[E]) -> E:
    """The node's string value as a member of ``enum_type``."""
    choices = [str(member.value) for member in enum_type]
    return enum_type(node.as_str(choices))


def key_enum(node: Node, key: object, enum_type: type[E]) -> E:
    """A mapping key of ``node`` as a member of ``enum_type``."""
    try:
        return enum_type(key)
    except ValueError:
        choices = sorted(str(member.value) for member in enum_type)
        raise node.fail(f"unknown key {key!r}; expected one of {choices}") from None


def enum_map(node: Node, enum_type: type[E]) -> dict[E, int]:
    """A ``{enum key: int}`` mapping."""
    return {key_enum(node, key, enum_type): child.as_int() for key, child in node.items()}


def faces_partition(node: Node, faces: Iterable[int] = FACES) -> dict[str, tuple[int, ...]]:
    """A ``{name: [faces]}`` possibility table covering every face exactly once (§5.3)."""
    result: dict[str, tuple[int, ...]] = {}
    seen: list[int] = []
    for key, child in node.items():
        result[str(key)] = child.as_ints(1, 6)
        seen.extend(result[str(key)])
    if sorted(seen) != sorted(faces):
        raise node.fail(f"faces must cover {list(faces)} exactly once, got {sorted(seen)}")
    return result


def _die_list(node: Node, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
    values = node.as_ints(low, high)
    if len(values) != 6:
        raise node.fail(f"expected 6 values (die faces 1..6), got {len(values)}")
    return values


# -- §9 pilots ----------------------------------------------------------------------------


def load_pilot_rep(node: Node) -> tuple[dict[str, tuple[int, ...]], int]:
    """Table 9.4.2: rows keyed by faction or ``xeog``, and the Star Rep (§9.4)."""
    node.keys_exactly({"dice", "star_rep", "rows"})
    node["dice"].as_int(1, 1)
    rows_node = node["rows"]
    expected = {faction.value for faction in Faction} | {Race.XEOG.value}
    rows_node.keys_exactly(expected)
    rows = {str(key): _die_list(child, 1) for key, child in rows_node.items()}
    return rows, node["star_rep"].as_int(1)


def load_personal_weapons(node: Node) -> dict[str, dict[str, tuple[int, ...]]]:
    """Table 9.5: personal weapon by 1d6 for the two pilot rows (§9.5)."""
    node.keys_exactly({"non_star_army_grunt", "star_army"})
    return {str(key): faces_partition(child) for key, child in node.items()}


def load_races(
    node: Node,
) -> tuple[
    dict[Race, RacialAttribute], dict[Faction, Race | None], tuple[Race, ...], FreeCompanyMixing
]:
    """Table 9.6.3 racial attributes, faction races, the Free Company race and mixing rolls."""
    node.keys_exactly({"races", "faction_race", "free_company_race_roll", "free_company_mixing"})
    races_node = node["races"]
    races_node.keys_exactly({race.value for race in Race})
    races: dict[Race, RacialAttribute] = {}
    for key, row in races_node.items():
        row.keys_exactly({"name", "random_attribute_rolls"}, {"melee_combat_dice", "in_sight_dice"})
        race = Race(key)
        melee, sight = row.get("melee_combat_dice"), row.get("in_sight_dice")
        races[race] = RacialAttribute(
            race,
            row["name"].as_str(),
            row["random_attribute_rolls"].as_int(1, 2),
            melee.as_int() if melee else 0,
            sight.as_int() if sight else 0,
        )
    faction_node = node["faction_race"]
    faction_node.keys_exactly({faction.value for faction in Faction})
    faction_race: dict[Faction, Race | None] = {}
    for key, child in faction_node.items():
        value = child.as_str([race.value for race in Race] + ["rolled"])
        faction_race[Faction(key)] = None if value == "rolled" else Race(value)
    roll_node = node["free_company_race_roll"]
    split = faces_partition(roll_node)
    by_face = {
        face: key_enum(roll_node, key, Race) for key, faces in split.items() for face in faces
    }
    fc_races = tuple(by_face[face] for face in FACES)
    mixing = node["free_company_mixing"]
    mixing.keys_exactly({"mixed_faces", "race_count"})
    counts = _die_list(mixing["race_count"], 1, len(set(fc_races)))
    mixed = mixing["mixed_faces"].as_ints(1, 6)
    return races, faction_race, fc_races, FreeCompanyMixing(mixed, counts)


_EFFECT_INTS = (
    "pilot_test_rep",
    "melee_combat_dice",
    "activation_rep",
    "ranged_combat_rep",
    "in_sight_dice",
    "cheating_death_uses",
    "rerolls_per_mission",
)
_EFFECT_BOOLS = (
    "never_outgunned",
    "ranged_combat_ignores_fast_moving",
    "star_rerolls",
    "ignores_first_pilot_test_rep_loss",
    "choose_any",
)
_EFFECT_OPTIONAL_INTS = ("only_when_group_size", "fired_on_dice_total", "hit_location_rolls")
_EFFECT_RESULTS = ("duck_back_becomes", "fired_on_duck_back_becomes")


def _attribute_effect(attribute: Attribute, node: Node) -> AttributeEffect:
    node.keys_exactly(
        set(), {*_EFFECT_INTS, *_EFFECT_BOOLS, *_EFFECT_OPTIONAL_INTS, *_EFFECT_RESULTS}
    )
    kwargs: dict[str, Any] = {}
    for key, child in node.items():
        if key in _EFFECT_BOOLS:
            kwargs[key] = child.as_bool()
        elif key in _EFFECT_RESULTS:
            kwargs[key] = as_enum(child, ReactionResult)
        else:
            kwargs[key] = child.as_int()
    return replace(AttributeEffect(attribute), **kwargs)


def load_random_attributes(
    node: Node,
) -> tuple[
    tuple[tuple[Attribute, ...], ...], dict[Attribute, AttributeEffect], tuple[Attribute, ...]
]:
    """Table 9.6.4: attribute by (first d6, second d6), effects and the D35 preference (§9.6.4)."""
    node.keys_exactly({"subtable_by_first_d6", "subtables", "effects", "preference"})
    sub_node = node["subtables"]
    subtables = {
        str(key): tuple(as_enum(row, Attribute) for row in child.rows())
        for key, child in sub_node.items()
    }
    for key, attrs in subtables.items():
        if len(attrs) != 6:
            raise sub_node[key].fail(f"expected 6 attributes (die faces 1..6), got {len(attrs)}")
    listed = [attr for attrs in subtables.values() for attr in attrs]
    if sorted(a.value for a in listed) != sorted(a.value for a in Attribute):
        raise sub_node.fail("sub-tables must list every attribute exactly once")
    first_node = node["subtable_by_first_d6"]
    first = first_node.as_strs(sorted(subtables))
    if len(first) != 6:
        raise first_node.fail(f"expected 6 sub-table names (die faces 1..6), got {len(first)}")
    effects_node = node["effects"]
    effects_node.keys_exactly({attr.value for attr in Attribute})
    effects = {
        Attribute(key): _attribute_effect(Attribute(key), child)
        for key, child in effects_node.items()
    }
    pref_node = node["preference"]
    preference = tuple(as_enum(row, Attribute) for row in pref_node.rows())
    expected = {attr for attr in Attribute if attr is not Attribute.CHOICE}
    if len(set(preference)) != len(preference) or set(preference) != expected:
        raise pref_node.fail("must rank every attribute except choice exactly once")
    return tuple(subtables[name] for name in first), effects, preference


# -- §10 mechs ----------------------------------------------------------------------------


def _armor_rows(node: Node, required: set[str]) -> list[tuple[int, int, Node]]:
    rows = []
    for row in node.rows():
        row.keys_exactly({"armor_min", "armor_max", *required}, {"star_army"})
        low, high = row["armor_min"].as_int(1), row["armor_max"].as_int(1)
        if high < low:
            raise row.fail(f"armor_max {high} below armor_min {low}")
        rows.append((low, high, row))
    return sorted(rows, key=lambda item: item[0])


def _armor_band(node: Node, name: str, bands: list[Band]) -> BandTable:
    try:
        return BandTable(name, tuple(bands), ARMOR_DOMAIN)
    except TableError as error:
        raise node.fail(str(error)) from error


def load_mech_classes(node: Node) -> BandTable:
    """Table 10.1: class by total armor, tiling 7-36 (§10.1)."""
    bands = [
        Band(lo, hi, row["class"].as_int(1, 5)) for lo, hi, row in _armor_rows(node, {"class"})
    ]
    return _armor_band(node, "mech_classes", bands)


def load_weight_capacity(node: Node) -> BandTable:
    """Table 10.3: capacity rows by total armor, tiling 7-36 (§10.3)."""
    bands = []
    for lo, hi, row in _armor_rows(node, {"class", "capacity", "star_army"}):
        value = CapacityRow(
            lo, hi, row["class"].as_int(1, 5), row["capacity"].as_int(1), row["star_army"].as_str()
        )
        bands.append(Band(lo, hi, value))
    return _armor_band(node, "weight_capacity", bands)


def load_speed(node: Node) -> BandTable:
    """Table 10.7: speed by total armor, tiling 7-36 (§10.7)."""
    bands = [Band(lo, hi, row["speed"].as_int(1)) for lo, hi, row in _armor_rows(node, {"speed"})]
    return _armor_band(node, "speed", bands)


def load_weapons(node: Node) -> dict[ItemType, WeaponProfile]:
    """Table 10.4: every weapon type (§10.4)."""
    node.keys_exactly({item.value for item in ItemType if item.is_weapon})
    weapons: dict[ItemType, WeaponProfile] = {}
    for key, row in node.items():
        row.keys_exactly({"family", "wv", "range", "target", "impact"})
        item = ItemType(key)
        family = as_enum(row["family"], WeaponFamily)
        if item is ItemType.MELEE_WEAPON:
            if row["wv"].as_ints(1) != (1, 2, 3, 4, 5) or row["range"].value is not None:
                raise row.fail("the melee weapon has wv [1..5] and range null (§10.4.4)")
            row["impact"].as_str(["equals_wv"])
            weapons[item] = WeaponProfile(item, family, 0, None, row["target"].as_int(1), None)
            continue
        weapons[item] = WeaponProfile(
            item,
            family,
            row["wv"].as_int(1),
            row["range"].as_int(1),
            row["target"].as_int(1),
            row["impact"].as_int(1),
        )
    return weapons


def load_misc_items(node: Node) -> dict[ItemType, MiscItemProfile]:
    """Table 10.6: jump jets and EWS (§10.6)."""
    node.keys_exactly({item.value for item in ItemType if item.is_misc})
    items: dict[ItemType, MiscItemProfile] = {}
    for key, row in node.items():
        row.keys_exactly({"in_sight_bonus_successes", "allowed_factions"}, {"wv", "wv_by_class"})
        if ("wv" in row) == ("wv_by_class" in row):
            raise row.fail("give exactly one of wv and wv_by_class")
        by_class: dict[int, int] = {}
        if "wv_by_class" in row:
            by_class_node = row["wv_by_class"]
            by_class_node.keys_exactly({"1", "2", "3", "4", "5"})
            by_class = {int(k): child.as_int(1) for k, child in by_class_node.items()}
        wv_node = row.get("wv")
        items[ItemType(key)] = MiscItemProfile(
            ItemType(key),
            wv_node.as_int(1) if wv_node else None,
            frozen(by_class),
            row["in_sight_bonus_successes"].as_int(0),
            frozenset(as_enum(f, Faction) for f in row["allowed_factions"].rows()),
        )
    return items


def load_mounting(node: Node) -> MountingRules:
    """Mounting limits (§10.2, §10.5)."""
    node.keys_exactly(
        {
            "min_armor_per_location",
            "per_location_max_wv_per_armor",
            "melee_weapon_locations",
            "max_ews_per_mech",
        }
    )
    return MountingRules(
        node["min_armor_per_location"].as_int(1),
        node["per_location_max_wv_per_armor"].as_int(1),
        frozenset(as_enum(row, Location) for row in node["melee_weapon_locations"].rows()),
        node["max_ews_per_mech"].as_int(0),
    )


def _families(node: Node) -> frozenset[WeaponFamily]:
    return frozenset(as_enum(row, WeaponFamily) for row in node.rows())


def load_faction_restrictions(node: Node) -> dict[Faction, FactionRestriction]:
    """Faction mounting restrictions, both Zhuh-Zhuh readings (§10.8)."""
    node.keys_exactly({faction.value for faction in Faction})
    result: dict[Faction, FactionRestriction] = {}
    for key, row in node.items():
        faction = Faction(key)
        optional = {"guns_or_beams_not_both", "guns_or_beams_roll"}
        if "forbidden_families" in row:
            row.keys_exactly({"forbidden_families", "ews_2_allowed"}, optional)
            recommended = printed = _families(row["forbidden_families"])
        else:
            row.keys_exactly(
                {"forbidden_families_recommended", "forbidden_families_printed", "ews_2_allowed"},
                optional,
            )
            recommended = _families(row["forbidden_families_recommended"])
            printed = _families(row["forbidden_families_printed"])
        both = row.get("guns_or_beams_not_both")
        roll_node = row.get("guns_or_beams_roll")
        roll = None
        if roll_node is not None:
            split = faces_partition(roll_node)
            roll = {key_enum(roll_node, k, WeaponFamily): v for k, v in split.items()}
        result[faction] = FactionRestriction(
            faction,
            recommended,
            printed,
            row["ews_2_allowed"].as_bool(),
            both.as_bool() if both else False,
            frozen(roll) if roll else None,
        )
    return result


# -- §11-§14 organisation ----------------------------------------------------------------


def load_organization(node: Node) -> tuple[int, dict[Faction, FormationRow]]:
    """Table 11.0: team size and formation sizes per faction (§11.0)."""
    node.keys_exactly({"team_size_mechs", "rows"})
    rows_node = node["rows"]
    rows_node.keys_exactly({faction.value for faction in Faction})
    rows: dict[Faction, FormationRow] = {}
    for key, row in rows_node.items():
        row.keys_exactly({"squad_teams", "platoon_squads", "company_platoons"})
        rows[Faction(key)] = FormationRow(
            row["squad_teams"].as_int(1),
            row["platoon_squads"].as_int(1),
            row["company_platoons"].as_int(1),
        )
    return node["team_size_mechs"].as_int(1), rows


def load_leaders(node: Node) -> LeaderRules:
    """Leaders, command radius and cohesion (§12.0, §12.2, §13.2)."""
    node.keys_exactly(
        {
            "ranks_low_to_high",
            "succession",
            "command_radius_inches",
            "command_radius_requires_los",
            "cohesion_link_inches",
            "cohesion_link_requires_los",
        }
    )
    ranks = node["ranks_low_to_high"].as_strs([rank.value for rank in Rank])
    if list(ranks) != [rank.value for rank in Rank]:
        raise node["ranks_low_to_high"].fail("must list every rank, lowest first")
    succession_node = node["succession"]
    succession_node.keys_exactly(set(ranks))
    for _, child in succession_node.items():
        for spec in child.as_strs():
            if SUCCESSION_SPEC.fullmatch(spec) is None:
                raise child.fail(
                    f"unknown successor {spec[:80]!r}; use highest_rep_pilot_in_team, "
                    "highest_rep_team_leader_in_squad, squad_leader_<n> or platoon_leader_<n>"
                )
    return LeaderRules(
        ranks,
        frozen({str(k): child.as_strs() for k, child in succession_node.items()}),
        node["command_radius_inches"].as_int(1),
        node["command_radius_requires_los"].as_bool(),
        node["cohesion_link_inches"].as_int(1),
        node["cohesion_link_requires_los"].as_bool(),
    )


def load_activation(node: Node) -> ActivationRules:
    """Activation roll and activation Rep modifiers (§14.0)."""
    node.keys_exactly({"dice_per_side", "reroll_on_tie", "attribute_modifiers"})
    rep: dict[Attribute, int] = {}
    group: dict[Attribute, int] = {}
    mods = node["attribute_modifiers"]
    for key, row in mods.items():
        attribute = key_enum(mods, key, Attribute)
        row.keys_exactly({"rep"}, {"only_when_group_size"})
        rep[attribute] = row["rep"].as_int()
        size = row.get("only_when_group_size")
        if size is not None:
            group[attribute] = size.as_int(1)
    return ActivationRules(
        node["dice_per_side"].as_int(1), node["reroll_on_tie"].as_bool(), frozen(rep), frozen(group)
    )
