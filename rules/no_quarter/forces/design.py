"""Mech design: class, capacity and speed from armor; custom designs; validation (§10).

:func:`build_design` computes class, capacity and speed from the armor (§10.1, §10.3, §10.7),
mounts the items and rejects an illegal design with one :class:`DesignError` that lists every
problem. :func:`validate_design` returns the problems as messages (the cross-check of the
pre-generated mechs, §10.8). :func:`load_mechs` reads ``mechs.yaml`` under the rules' options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces.data_loaders import as_enum
from wargym.rules.no_quarter.forces.records import CapacityRow, MechDesign, MountedItem
from wargym.rules.no_quarter.forces.vocab import Faction, ItemType, Location, WeaponFamily
from wargym.rules.tables import Node

if TYPE_CHECKING:
    from wargym.rules.no_quarter.forces.data import NoQuarterRules

ItemSpec = tuple[ItemType, Location] | tuple[ItemType, Location, int]
"""``(item, location)`` or, for a melee weapon, ``(item, location, wv)``."""


class DesignError(TableError):
    """An illegal mech design; the message lists every problem (§10)."""


@dataclass(frozen=True, slots=True)
class DesignProblem:
    """One broken design rule: a stable ``code`` and a readable message (§10)."""

    code: str
    message: str


def _lookup(rules: NoQuarterRules, total: int) -> CapacityRow:
    row: CapacityRow = rules.weight_capacity.lookup(total)
    return row


def _check_total(total: int) -> None:
    if not 7 <= total <= 36:
        raise DesignError(f"total armor {total} is outside 7-36 (§10.2)")


def class_for_armor(rules: NoQuarterRules, total_armor: int) -> int:
    """Class from total armor (§10.1)."""
    _check_total(total_armor)
    value: int = rules.mech_classes.lookup(total_armor)
    return value


def capacity_for_armor(rules: NoQuarterRules, total_armor: int) -> int:
    """Weight capacity from total armor (§10.3)."""
    _check_total(total_armor)
    return _lookup(rules, total_armor).capacity


def speed_for_armor(rules: NoQuarterRules, total_armor: int) -> int:
    """Speed in inches from total armor (§10.7)."""
    _check_total(total_armor)
    value: int = rules.speed.lookup(total_armor)
    return value


def mount(rules: NoQuarterRules, spec: ItemSpec, mech_class: int) -> MountedItem:
    """One mounted item with its table statistics (§10.4, §10.6)."""
    item, location = spec[0], spec[1]
    label = item.value
    if item is ItemType.MELEE_WEAPON:
        if len(spec) != 3:
            raise DesignError("a melee weapon needs its WV 1-5: (melee_weapon, location, wv)")
        wv = spec[2]
        return MountedItem(item, location, wv, None, 1, wv, label)
    if len(spec) != 2:
        raise DesignError(f"only the melee weapon takes a WV, not {item.value}")
    if item.is_misc:
        wv = rules.misc_items[item].wv_for_class(mech_class)
        return MountedItem(item, location, wv, None, 0, 0, label)
    profile = rules.weapons[item]
    assert profile.impact is not None
    return MountedItem(
        item, location, profile.wv, profile.range, profile.target, profile.impact, label
    )


def _item_problems(rules: NoQuarterRules, design: MechDesign) -> list[DesignProblem]:
    problems: list[DesignProblem] = []
    for index, mounted in enumerate(design.items):
        name = f"item {index} ({mounted.item.value} at {mounted.location.value})"
        if mounted.item is ItemType.MELEE_WEAPON:
            if not 1 <= mounted.wv <= 5 or mounted.impact != mounted.wv:
                problems.append(DesignProblem("item_stats", f"{name}: WV 1-5, Impact = WV"))
            if mounted.location not in rules.mounting.melee_weapon_locations:
                problems.append(
                    DesignProblem("melee_location", f"{name}: melee weapons go on arms")
                )
            continue
        if mounted.item.is_misc:
            expected = rules.misc_items[mounted.item].wv_for_class(design.mech_class)
            if mounted.wv != expected:
                code = "jump_jets_wv" if mounted.item is ItemType.JUMP_JETS else "item_stats"
                problems.append(DesignProblem(code, f"{name}: WV {mounted.wv}, table {expected}"))
            continue
        p = rules.weapons[mounted.item]
        actual = (mounted.wv, mounted.range, mounted.target, mounted.impact)
        if actual != (p.wv, p.range, p.target, p.impact):
            problems.append(
                DesignProblem(
                    "item_stats",
                    f"{name}: WV/range/target/impact {actual} differ from table 10.4 "
                    f"{(p.wv, p.range, p.target, p.impact)}",
                )
            )
    return problems


def _faction_problems(rules: NoQuarterRules, design: MechDesign) -> list[DesignProblem]:
    problems: list[DesignProblem] = []
    faction = design.faction
    restriction = rules.restrictions[faction]
    families = {f for m in design.items if m.is_weapon and (f := rules.weapons[m.item].family)}
    for family in sorted(f.value for f in families & rules.forbidden_families(faction)):
        message = f"{faction.value} may not mount {family} weapons (§10.8)"
        problems.append(DesignProblem("faction_family", message))
    if restriction.guns_or_beams_not_both and {WeaponFamily.GUN, WeaponFamily.BEAM} <= families:
        message = f"{faction.value} mounts guns or beams, never both (§10.8.1)"
        problems.append(DesignProblem("guns_and_beams", message))
    for mounted in design.items:
        if mounted.item.is_misc and faction not in rules.misc_items[mounted.item].allowed_factions:
            message = f"{mounted.item.value} is not allowed to {faction.value} (§10.6.2)"
            problems.append(DesignProblem("ews_faction", message))
    return problems


def design_problems(
    rules: NoQuarterRules, design: MechDesign, *, check_faction: bool = True
) -> list[DesignProblem]:
    """Every broken design rule of ``design`` (§10.1-§10.8), empty when legal."""
    problems: list[DesignProblem] = []
    add = problems.append
    minimum = rules.mounting.min_armor_per_location
    if len(design.armor) != len(Location):
        raise DesignError(f"{design.id}: armor needs {len(Location)} values, got {design.armor}")
    for location, armor in zip(Location, design.armor, strict=True):
        if armor < minimum:
            add(DesignProblem("armor_min", f"{location.value} armor {armor} below {minimum}"))
    total = design.total_armor
    if not 7 <= total <= 36:
        add(DesignProblem("total_armor", f"total armor {total} outside 7-36 (§10.2)"))
    else:
        derived = (
            class_for_armor(rules, total),
            speed_for_armor(rules, total),
            capacity_for_armor(rules, total),
        )
        for code, have, want in zip(
            ("mech_class", "speed", "capacity"),
            (design.mech_class, design.speed, design.capacity),
            derived,
            strict=True,
        ):
            if have != want:
                add(DesignProblem(code, f"{code} {have}, but armor {total} gives {want}"))
        if design.wv_used > design.capacity:
            add(
                DesignProblem("total_wv", f"total WV {design.wv_used} > capacity {design.capacity}")
            )
    factor = rules.mounting.per_location_max_wv_per_armor
    for location in Location:
        wv = sum(design.items[i].wv for i in design.items_at(location))
        limit = factor * design.armor_at(location)
        if wv > limit:
            add(
                DesignProblem(
                    "location_wv",
                    f"{location.value} mounts {wv} WV > {factor} x "
                    f"armor {design.armor_at(location)} = {limit} (§10.5)",
                )
            )
    ews = Counter(m.item for m in design.items if m.item.is_ews)
    if sum(ews.values()) > rules.mounting.max_ews_per_mech:
        add(
            DesignProblem(
                "ews_count",
                f"{sum(ews.values())} EWS mounted; at most "
                f"{rules.mounting.max_ews_per_mech} (§10.6.2)",
            )
        )
    problems.extend(_item_problems(rules, design))
    if check_faction:
        problems.extend(_faction_problems(rules, design))
    return problems


def validate_design(
    rules: NoQuarterRules, design: MechDesign, *, check_faction: bool = True
) -> list[str]:
    """Messages of every broken design rule of ``design``; empty when legal (§10)."""
    return [p.message for p in design_problems(rules, design, check_faction=check_faction)]


def check_design(
    rules: NoQuarterRules, design: MechDesign, *, check_faction: bool = True
) -> MechDesign:
    """Return ``design`` if legal, else raise one DesignError listing every problem (§10)."""
    problems = validate_design(rules, design, check_faction=check_faction)
    if problems:
        raise DesignError(f"mech {design.id!r} is illegal: " + "; ".join(problems))
    return design


def build_design(
    rules: NoQuarterRules,
    *,
    id: str,  # noqa: A002 - the record's field name
    name: str,
    faction: Faction,
    armor: Mapping[Location, int],
    items: Sequence[ItemSpec],
    check_faction: bool = True,
) -> MechDesign:
    """Design a mech: class, speed and capacity from its armor, then validate (§10.10)."""
    missing = [loc.value for loc in Location if loc not in armor]
    if missing:
        raise DesignError(f"mech {id!r}: armor missing for {missing}")
    values = tuple(armor[loc] for loc in Location)
    total = sum(values)
    _check_total(total)
    mech_class = class_for_armor(rules, total)
    mounted = tuple(mount(rules, spec, mech_class) for spec in items)
    ews = next((m.item for m in mounted if m.item.is_ews), None)
    design = MechDesign(
        id=id,
        name=name,
        faction=faction,
        mech_class=mech_class,
        speed=speed_for_armor(rules, total),
        armor=values,
        items=mounted,
        notes=(),
        capacity=capacity_for_armor(rules, total),
        ews_bonus=rules.misc_items[ews].in_sight_bonus_successes if ews else 0,
    )
    return check_design(rules, design, check_faction=check_faction)


# -- the pre-generated mechs (§10.8) -------------------------------------------------------

_MECH_KEYS = {"id", "name", "faction", "class", "speed", "armor", "items"}
_ITEM_KEYS = {"type", "count", "wv", "location"}
_STAT_KEYS = ("range", "target", "impact")


def _printed_selected(rules: NoQuarterRules, mech_id: str, item: ItemType, node: Node) -> bool:
    """Whether the options select the book's printed values of this line (§10.8.3, §10.8.5)."""
    if item is ItemType.GUN_MEDIUM:
        return rules.options.gun_medium_stats == "printed"
    if mech_id == "pdf_c4":
        return rules.options.pdf_c4_target == "printed"
    raise node.fail("no RulesOptions field selects these printed values")


def _entry_items(
    rules: NoQuarterRules, mech_id: str, mech_class: int, node: Node
) -> tuple[list[MountedItem], bool]:
    items: list[MountedItem] = []
    printed_used = False
    for row in node.rows():
        item = as_enum(row["type"], ItemType)
        stats = set(_STAT_KEYS) if item.is_ranged_weapon else set()
        row.keys_exactly(_ITEM_KEYS | stats, {"label", "printed"})
        count, wv = row["count"].as_int(1, 2), row["wv"].as_int(1)
        location = as_enum(row["location"], Location)
        label_node = row.get("label")
        label = label_node.as_str() if label_node else item.value
        spec: ItemSpec = (
            (item, location, wv // count)
            if not item.is_ranged_weapon and not item.is_misc
            else (item, location)
        )
        single = mount(rules, spec, mech_class)
        if single.wv * count != wv:
            raise row.fail(f"printed WV {wv} != {count} x table WV {single.wv}")
        for key in sorted(stats):
            if row[key].as_int(1) != getattr(single, key):
                raise row.fail(f"{key} {row[key].value} differs from the table; use printed:")
        printed = row.get("printed")
        overrides: dict[str, int] = {}
        if printed is not None:
            printed.keys_exactly(set(), stats)
            if _printed_selected(rules, mech_id, item, printed):
                overrides = {str(k): child.as_int(1) for k, child in printed.items()}
                printed_used = True
        single = MountedItem(
            item,
            location,
            single.wv,
            overrides.get("range", single.range),
            overrides.get("target", single.target),
            overrides.get("impact", single.impact),
            label,
        )
        items.extend([single] * count)
    return items, printed_used


def _load_entry(rules: NoQuarterRules, row: Node, optional: set[str]) -> tuple[MechDesign, Node]:
    row.keys_exactly(_MECH_KEYS, optional)
    mech_id = row["id"].as_str()
    faction = as_enum(row["faction"], Faction)
    armor_node = row["armor"]
    armor_node.keys_exactly({loc.value for loc in Location})
    armor = tuple(armor_node[loc.value].as_int(0) for loc in Location)
    mech_class = row["class"].as_int(1, 5)
    items, printed_used = _entry_items(rules, mech_id, mech_class, row["items"])
    total = sum(armor)
    ews = next((m.item for m in items if m.item.is_ews), None)
    design = MechDesign(
        id=mech_id,
        name=row["name"].as_str(),
        faction=faction,
        mech_class=mech_class,
        speed=row["speed"].as_int(1),
        armor=armor,
        items=tuple(items),
        notes=(),
        capacity=capacity_for_armor(rules, total) if 7 <= total <= 36 else 0,
        ews_bonus=rules.misc_items[ews].in_sight_bonus_successes if ews else 0,
    )
    accepted = set()
    accepted_node = row.get("accepted_problems")
    if accepted_node is not None:
        accepted = set(accepted_node.as_strs())
    if printed_used:
        accepted.add("item_stats")
    if rules.options.zhuh_zhuh_restriction == "printed" and faction is Faction.ZHUH_ZHUH:
        accepted.add("faction_family")
    problems = design_problems(rules, design)
    unexpected = [p.message for p in problems if p.code not in accepted]
    if unexpected:
        raise row.fail(f"mech {mech_id!r} fails the design check: {'; '.join(unexpected)}")
    if accepted_node is not None:
        stale = set(accepted_node.as_strs()) - {p.code for p in problems}
        if stale:
            raise accepted_node.fail(f"problems {sorted(stale)} do not occur")
    notes = tuple(f"cross-check [{p.code}]: {p.message}" for p in problems)
    return replace(design, notes=notes), row


def load_mechs(rules: NoQuarterRules, node: Node) -> tuple[dict[str, MechDesign], dict[str, str]]:
    """Read ``mechs.yaml``: the pre-generated mechs offered under the options (§10.8).

    Returns the offered designs and the ids withheld with the reason (``strict_mounting``).
    Known cross-check failures are kept and recorded in each design's ``notes``; any other
    failure raises a TableError naming the row.
    """
    node.keys_exactly({"mechs", "strict_variants"})
    strict = rules.options.strict_mounting
    mechs: dict[str, MechDesign] = {}
    rejected: dict[str, str] = {}

    def add(design: MechDesign, row: Node) -> None:
        if design.id in mechs or design.id in rejected:
            raise row.fail(f"duplicate mech id {design.id!r}")
        mechs[design.id] = design

    for row in node["mechs"].rows():
        design, row = _load_entry(rules, row, {"accepted_problems"})
        if strict and design.notes and "accepted_problems" in row:
            rejected[design.id] = "rejected by strict_mounting: " + "; ".join(design.notes)
        else:
            add(design, row)
    for row in node["strict_variants"].rows():
        design, row = _load_entry(rules, row, {"replaces"})
        replaces = row["replaces"].as_str()
        if replaces not in mechs and replaces not in rejected:
            raise row["replaces"].fail(f"unknown mech {replaces!r}")
        if strict:
            add(design, row)
        else:
            rejected[design.id] = f"offered only with strict_mounting=True (replaces {replaces})"
    return mechs, rejected
