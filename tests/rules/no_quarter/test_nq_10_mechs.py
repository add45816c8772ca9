"""Mech design (§10): class/capacity/speed, custom designs, the pre-generated mechs' cross-check."""

from __future__ import annotations

import dataclasses

import pytest

from wargym.rules.errors import TableError
from wargym.rules.no_quarter.forces.data import RulesOptions, load_rules
from wargym.rules.no_quarter.forces.design import (
    DesignError,
    build_design,
    capacity_for_armor,
    class_for_armor,
    speed_for_armor,
    validate_design,
)
from wargym.rules.no_quarter.forces.records import MechDesign
from wargym.rules.no_quarter.forces.vocab import Faction, ItemType, Location

RULES = load_rules()
L = Location
PRINTED = RulesOptions(
    zhuh_zhuh_restriction="printed", gun_medium_stats="printed", pdf_c4_target="printed"
)
ALL_IDS = {
    f"{f}_c{c}"
    for f in ("free_company", "hishen", "pdf", "star_army", "zhuh_zhuh")
    for c in range(1, 6)
}


def armor(h: int, al: int, ar: int, c: int, g: int, ll: int, lr: int) -> dict[Location, int]:
    return dict(zip(Location, (h, al, ar, c, g, ll, lr), strict=True))


@pytest.mark.parametrize(
    ("total", "mech_class", "capacity", "speed"),
    [(34, 1, 17, 4), (18, 4, 9, 12), (25, 2, 13, 8), (7, 5, 4, 16), (36, 1, 18, 4)],
    ids=["tv25a", "tv25b", "tv25c", "min", "max"],
)
def test_10_3_10_7_tv25_class_capacity_speed(
    total: int, mech_class: int, capacity: int, speed: int
) -> None:
    assert class_for_armor(RULES, total) == mech_class
    assert capacity_for_armor(RULES, total) == capacity
    assert speed_for_armor(RULES, total) == speed


@pytest.mark.parametrize("total", [6, 37])
def test_10_2_total_armor_outside_7_36_is_rejected(total: int) -> None:
    with pytest.raises(DesignError, match="outside 7-36"):
        class_for_armor(RULES, total)


def failures(options: RulesOptions) -> set[str]:
    rules = load_rules(options)
    return {m.id for m in rules.mechs.values() if validate_design(rules, m)}


def test_10_8_cross_check_as_printed() -> None:
    """18 of 25 pass as printed; pdf_c4, star_army_c2 and the Zhuh-Zhuh five fail."""
    failed = failures(PRINTED)
    assert failed == {"pdf_c4", "star_army_c2"} | {f"zhuh_zhuh_c{c}" for c in range(1, 6)}
    assert len(ALL_IDS - failed) == 18


def test_10_8_cross_check_reconstructed_only_star_army_c2_fails() -> None:
    assert failures(RulesOptions()) == {"star_army_c2"}
    assert set(RULES.mechs) == ALL_IDS


def test_10_8_cross_check_messages_match_the_report() -> None:
    printed = load_rules(PRINTED)
    zz3 = validate_design(printed, printed.mech("zhuh_zhuh_c3"))
    assert any("may not mount gun" in p for p in zz3)
    assert any("(3, 18, 1, 2)" in p and "(3, 24, 1, 3)" in p for p in zz3)
    assert any("(2, 24, 2, 2)" in p for p in validate_design(printed, printed.mech("pdf_c4")))
    c2 = validate_design(RULES, RULES.mech("star_army_c2"))
    assert c2 == ["arm_r mounts 7 WV > 2 x armor 3 = 6 (§10.5)"]
    assert RULES.mech("star_army_c2").notes == ("cross-check [location_wv]: " + c2[0],)
    assert printed.mech("zhuh_zhuh_c5").notes and not RULES.mech("zhuh_zhuh_c5").notes


def test_10_8_printed_gun_medium_and_pdf_c4_values_are_selectable() -> None:
    printed = load_rules(PRINTED)
    gun = RULES.mech("zhuh_zhuh_c3").items[2]
    assert (gun.item, gun.range, gun.impact) == (ItemType.GUN_MEDIUM, 24, 3)
    gun = printed.mech("zhuh_zhuh_c3").items[2]
    assert (gun.range, gun.impact) == (18, 2)
    assert printed.mech("zhuh_zhuh_c4").items[1].impact == 2
    assert RULES.mech("pdf_c4").items[1].target == 1
    assert printed.mech("pdf_c4").items[1].target == 2


def test_10_8_4_strict_mounting_rejects_star_army_c2_and_offers_the_strict_variant() -> None:
    strict = load_rules(RulesOptions(strict_mounting=True))
    with pytest.raises(TableError, match="strict_mounting"):
        strict.mech("star_army_c2")
    variant = strict.mech("star_army_c2_strict")
    assert validate_design(strict, variant) == []
    assert variant.items[1].item is ItemType.BEAM_LIGHT and variant.items[1].location is L.CHEST
    assert [m.id for m in strict.mechs_of(Faction.STAR_ARMY)][1] == "star_army_c2_strict"
    with pytest.raises(TableError, match="only with strict_mounting"):
        RULES.mech("star_army_c2_strict")


def test_10_8_unknown_mech_error_names_the_known_ids() -> None:
    with pytest.raises(TableError, match=r"unknown mech 'hishen_c9'.*'hishen_c1'"):
        RULES.mech("hishen_c9")


def test_10_8_4_iss_fields_the_star_army_mechs() -> None:
    mechs = RULES.mechs_of(Faction.ISS)
    assert [m.id for m in mechs] == [f"star_army_c{c}" for c in range(1, 6)]
    assert len(RULES.mechs_of(Faction.HISHEN)) == 5


def test_10_4_d21_twin_mount_is_two_weapons_with_single_stats() -> None:
    mech = RULES.mech("free_company_c1")
    arm_r = [mech.items[i] for i in mech.items_at(L.ARM_R)]
    assert [(m.item, m.wv, m.label) for m in arm_r] == [
        (ItemType.BEAM_HEAVY, 3, "Beam, Heavy (2)"),
        (ItemType.BEAM_HEAVY, 3, "Beam, Heavy (2)"),
    ]
    assert len(mech.items) == 7 and mech.weapons == (0, 1, 2, 3, 4, 5)
    assert mech.wv_used == mech.capacity == 17
    assert (mech.ews, mech.ews_bonus, mech.has_jump_jets) == (ItemType.EWS_1, 1, False)


def test_10_records_of_a_pregenerated_mech() -> None:
    mech = RULES.mech("pdf_c3")
    assert (mech.mech_class, mech.speed, mech.total_armor, mech.capacity) == (3, 10, 22, 11)
    assert mech.armor_at(L.CHEST) == 5 and mech.armor_by_location[L.HEAD] == 3
    assert mech.has_jump_jets and mech.ews_bonus == 2
    assert mech.ranged_weapons == (0, 1)


# -- custom designs -----------------------------------------------------------------------


def test_10_10_build_a_legal_custom_mech() -> None:
    mech = build_design(
        RULES,
        id="brawler",
        name="Brawler",
        faction=Faction.HISHEN,
        armor=armor(3, 4, 4, 4, 3, 3, 3),
        items=[
            (ItemType.BEAM_HEAVY, L.CHEST),
            (ItemType.MELEE_WEAPON, L.ARM_R, 4),
            (ItemType.JUMP_JETS, L.GUT),
            (ItemType.EWS_1, L.HEAD),
        ],
    )
    assert (mech.mech_class, mech.speed, mech.capacity, mech.wv_used) == (3, 10, 12, 11)
    melee = mech.items[1]
    assert (melee.wv, melee.range, melee.target, melee.impact) == (4, None, 1, 4)
    assert mech.items[2].wv == 3  # jump jets 6 - class
    assert mech.ews_bonus == 1 and mech.notes == ()


@pytest.mark.parametrize(
    ("faction", "armor_values", "items", "message"),
    [
        (Faction.HISHEN, (0, 4, 4, 4, 4, 3, 3), [], "head armor 0 below 1"),
        (
            Faction.HISHEN,
            (2, 2, 2, 2, 2, 2, 2),
            [
                (ItemType.BEAM_HEAVY, L.ARM_L),
                (ItemType.BEAM_HEAVY, L.ARM_R),
                (ItemType.BEAM_MEDIUM, L.CHEST),
            ],
            "total WV 8 > capacity 7",
        ),
        (
            Faction.HISHEN,
            (2, 1, 2, 3, 3, 2, 2),
            [(ItemType.BEAM_HEAVY, L.ARM_L)],
            "arm_l mounts 3 WV > 2 x armor 1 = 2",
        ),
        (
            Faction.HISHEN,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.MELEE_WEAPON, L.CHEST, 2)],
            "melee weapons go on arms",
        ),
        (
            Faction.PDF,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.EWS_1, L.HEAD), (ItemType.EWS_2, L.CHEST)],
            "2 EWS mounted; at most 1",
        ),
        (
            Faction.HISHEN,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.EWS_2, L.HEAD)],
            "ews_2 is not allowed to hishen",
        ),
        (
            Faction.PDF,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.GUN_AUTO, L.CHEST)],
            "pdf may not mount gun weapons",
        ),
        (
            Faction.ZHUH_ZHUH,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.BEAM_LIGHT, L.CHEST)],
            "zhuh_zhuh may not mount beam weapons",
        ),
        (
            Faction.FREE_COMPANY,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.BEAM_LIGHT, L.CHEST), (ItemType.GUN_AUTO, L.GUT)],
            "guns or beams, never both",
        ),
        (
            Faction.FREE_COMPANY,
            (3, 3, 3, 3, 3, 3, 3),
            [(ItemType.PPG, L.CHEST)],
            "free_company may not mount ppg weapons",
        ),
    ],
    ids=[
        "armor_min",
        "total_wv",
        "location_wv",
        "melee_location",
        "ews_count",
        "ews_faction",
        "pdf_guns",
        "zhuh_zhuh_beams",
        "guns_and_beams",
        "free_company_ppg",
    ],
)
def test_10_build_design_rejects(
    faction: Faction, armor_values: tuple[int, ...], items: list, message: str
) -> None:
    with pytest.raises(DesignError, match=message.replace("(", r"\(")):
        build_design(
            RULES, id="x", name="x", faction=faction, armor=armor(*armor_values), items=items
        )


def test_10_build_design_lists_every_problem_at_once() -> None:
    with pytest.raises(DesignError) as error:
        build_design(
            RULES,
            id="bad",
            name="bad",
            faction=Faction.PDF,
            armor=armor(1, 1, 1, 1, 1, 1, 1),
            items=[(ItemType.GUN_HEAVY, L.HEAD), (ItemType.MELEE_WEAPON, L.LEG_L, 1)],
        )
    text = str(error.value)
    for part in (
        "total WV 5 > capacity 4",
        "head mounts 4 WV",
        "melee weapons go on arms",
        "pdf may not mount gun",
    ):
        assert part in text


def test_10_8_zhuh_zhuh_printed_reading_forbids_guns_not_beams() -> None:
    printed = load_rules(RulesOptions(zhuh_zhuh_restriction="printed"))
    build_design(
        printed,
        id="z",
        name="z",
        faction=Faction.ZHUH_ZHUH,
        armor=armor(3, 3, 3, 3, 3, 3, 3),
        items=[(ItemType.BEAM_LIGHT, L.CHEST)],
    )
    with pytest.raises(DesignError, match="may not mount gun"):
        build_design(
            printed,
            id="z",
            name="z",
            faction=Faction.ZHUH_ZHUH,
            armor=armor(3, 3, 3, 3, 3, 3, 3),
            items=[(ItemType.GUN_AUTO, L.CHEST)],
        )


def test_10_faction_checks_can_be_skipped() -> None:
    mech = build_design(
        RULES,
        id="x",
        name="x",
        faction=Faction.PDF,
        check_faction=False,
        armor=armor(3, 3, 3, 3, 3, 3, 3),
        items=[(ItemType.GUN_AUTO, L.CHEST)],
    )
    assert mech.items[0].item is ItemType.GUN_AUTO


def test_10_6_1_wrong_jump_jet_weight_is_flagged() -> None:
    mech = RULES.mech("pdf_c3")
    heavy = dataclasses.replace(mech.items[2], wv=2)
    broken = dataclasses.replace(mech, items=(*mech.items[:2], heavy, mech.items[3]))
    assert validate_design(RULES, broken) == [
        "item 2 (jump_jets at chest): WV 2, table 3",
    ]


def test_10_1_wrong_class_and_speed_are_flagged() -> None:
    mech: MechDesign = dataclasses.replace(RULES.mech("hishen_c5"), mech_class=4, speed=14)
    problems = validate_design(RULES, mech)
    assert "mech_class 4, but armor 12 gives 5" in problems
    assert "speed 14, but armor 12 gives 16" in problems


def test_10_4_4_melee_weapon_needs_its_wv() -> None:
    with pytest.raises(DesignError, match="needs its WV"):
        build_design(
            RULES,
            id="x",
            name="x",
            faction=Faction.PDF,
            armor=armor(3, 3, 3, 3, 3, 3, 3),
            items=[(ItemType.MELEE_WEAPON, L.ARM_L)],
        )
    with pytest.raises(DesignError, match="WV 1-5"):
        build_design(
            RULES,
            id="x",
            name="x",
            faction=Faction.PDF,
            armor=armor(3, 3, 3, 3, 3, 3, 3),
            items=[(ItemType.MELEE_WEAPON, L.ARM_L, 6)],
        )


def test_11_0_tv09_zhuh_zhuh_squad_is_six_mechs() -> None:
    assert RULES.formation_size(Faction.ZHUH_ZHUH, "squad") == 6
    assert RULES.formation_size(Faction.FREE_COMPANY, "platoon") == 12
    assert RULES.formation_size(Faction.HISHEN, "platoon") == 18
    assert RULES.formation_size(Faction.ISS, "company") == 36
    assert RULES.formation_size(Faction.PDF, "company") == 24


@pytest.mark.parametrize("mech_id", sorted(ALL_IDS - {"star_army_c2"}))
def test_10_10_every_legal_pregenerated_mech_rebuilds_identically(mech_id: str) -> None:
    mech = RULES.mech(mech_id)
    rebuilt = build_design(
        RULES,
        id=mech.id,
        name=mech.name,
        faction=mech.faction,
        armor=mech.armor_by_location,
        items=[(m.item, m.location) for m in mech.items],
    )

    def stats(design: MechDesign) -> list[tuple[object, ...]]:
        return [(m.item, m.location, m.wv, m.range, m.target, m.impact) for m in design.items]

    assert stats(rebuilt) == stats(mech)
    assert (rebuilt.mech_class, rebuilt.speed, rebuilt.capacity, rebuilt.ews_bonus) == (
        mech.mech_class,
        mech.speed,
        mech.capacity,
        mech.ews_bonus,
    )
