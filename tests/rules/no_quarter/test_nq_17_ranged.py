"""Ranged combat (§17.4): tv06, tv08b, tv20-tv22, criticals and the Pilot Test."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.no_quarter.battle.ranged_combat import (
    CriticalKind,
    DamageOutcome,
    better_location,
    chest_explosion,
    critical_kind,
    halved_speed,
    hit_location,
    marksman_location,
    pilot_test_passed,
    pilot_test_rep,
    ranged_damage,
    ranged_rep,
    to_hit,
)
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Attribute, Location, Removal

RULES = load_rules()
L = Location


def shot(rep: int, face: int, attributes: tuple[Attribute, ...] = (), **kw: object) -> bool:
    (rolled,) = ScriptedDice([face]).roll(1)
    return to_hit(RULES, ranged_rep(rep, attributes) + rolled, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rep", "face", "attributes", "kw", "hit"),
    [
        (4, 4, (), {"target_in_cover": True}, False),
        (4, 5, (), {"target_in_cover": True}, False),
        (4, 5, (), {"target_index": 2}, True),
        (4, 5, (), {"target_index": 3}, False),
        (5, 5, (), {"rush_shot": True}, True),
        (4, 4, (), {"rush_shot": True}, False),
        (
            4,
            4,
            (Attribute.CRACK_SHOT,),
            {"shooter_fast_moving": True, "target_fast_moving": True, "crack_shot": True},
            True,
        ),
        (4, 6, (Attribute.NEAR_SIGHTED,), {"target_prone": True}, True),
        (4, 4, (), {"target_prone": True}, False),
    ],
    ids=[f"tv20{c}" for c in "abcdefghi"],
)
def test_17_4_tv20_ranged_combat(
    rep: int, face: int, attributes: tuple[Attribute, ...], kw: dict, hit: bool
) -> None:
    assert shot(rep, face, attributes, **kw) is hit


def test_17_4_rows_at_the_edges() -> None:
    assert not to_hit(RULES, 7)
    assert to_hit(RULES, 8) and to_hit(RULES, 9)
    assert not to_hit(RULES, 8, target_index=2)
    assert to_hit(RULES, 10, rush_shot=True, target_in_cover=True, target_index=5)
    assert not to_hit(RULES, 9, shooter_fast_moving=True)
    assert to_hit(RULES, 9, target_fast_moving=True, target_prone=True)
    assert not to_hit(RULES, 8, shooter_fast_moving=True, crack_shot=False)
    assert not to_hit(RULES, 8, rush_shot=True, crack_shot=True)  # Crack Shot ignores only speed
    assert ranged_rep(3, (Attribute.NEAR_SIGHTED, Attribute.BRAWLER)) == 2


@pytest.mark.parametrize(
    ("faces", "location"),
    [
        ((3, 4), L.CHEST),
        ((6, 6), L.LEG_R),
        ((1, 3), L.ARM_L),
        ((1, 1), L.HEAD),
        ((4, 4), L.GUT),
        ((5, 5), L.LEG_L),
        ((2, 3), L.ARM_R),
    ],
    ids=["tv22a", "tv22b", "tv22c", "2", "8", "10", "5"],
)
def test_17_4_1_tv22_hit_location(faces: tuple[int, int], location: Location) -> None:
    assert hit_location(RULES, faces) is location


def test_9_6_4_marksman_keeps_the_better_location() -> None:
    assert better_location(L.LEG_L, L.HEAD) is L.HEAD
    assert better_location(L.CHEST, L.ARM_R) is L.CHEST
    assert marksman_location(RULES, (5, 5), (1, 1)) is L.HEAD


@pytest.mark.parametrize(
    ("faces", "impact", "before", "expected"),
    [
        ((2, 2), 2, 5, DamageOutcome(2, 2, 3, True, False)),
        ((1, 6), 4, 3, DamageOutcome(1, 1, 2, False, False)),
        ((1, 1), 1, 1, DamageOutcome(2, 1, 0, True, False)),
        ((3, 4), 2, 4, DamageOutcome(0, 0, 4, False, True)),
        ((1, 2), 3, 3, DamageOutcome(2, 3, 0, True, False)),
        ((2, 3), 3, 3, DamageOutcome(2, 3, 0, True, False)),
        ((5, 5), 2, 4, DamageOutcome(0, 0, 4, False, True)),
        ((1, 5), 2, 1, DamageOutcome(1, 1, 0, True, False)),
        ((1, 2), 4, 6, DamageOutcome(2, 4, 2, False, False)),
    ],
    ids=[
        "tv21a",
        "tv21b",
        "tv21c",
        "tv21d",
        "tv06",
        "tv08b",
        "failed_doubles",
        "pass1_to_0",
        "no_critical",
    ],
)
def test_17_4_2_ranged_damage(
    faces: tuple[int, int], impact: int, before: int, expected: DamageOutcome
) -> None:
    assert ranged_damage(RULES, faces, impact, before) == expected


def test_9_2_3_tv06_head_to_zero_blows_the_head_off() -> None:
    damage = ranged_damage(RULES, (1, 2), 3, 3)
    assert damage.critical
    assert critical_kind(RULES, L.HEAD, damage.armor_after) is CriticalKind.HEAD_BLOWN_OFF


def test_10_4_4_tv08b_arm_to_zero_is_blown_off() -> None:
    damage = ranged_damage(RULES, (2, 3), 3, 3)
    assert critical_kind(RULES, L.ARM_R, damage.armor_after) is CriticalKind.ARM_BLOWN_OFF


@pytest.mark.parametrize(
    ("location", "armor", "kind"),
    [
        (L.HEAD, 1, CriticalKind.PILOT_TEST_HEAD),
        (L.ARM_L, 2, CriticalKind.ARM_WEAPON_LOST),
        (L.CHEST, 0, CriticalKind.CHEST_ROLL),
        (L.CHEST, 3, CriticalKind.RANDOM_ITEM_LOST),
        (L.GUT, -1, CriticalKind.GUT_INOPERABLE),
        (L.GUT, 1, CriticalKind.RANDOM_ITEM_LOST),
        (L.LEG_L, 0, CriticalKind.LEG_BLOWN_OFF),
        (L.LEG_R, 2, CriticalKind.LEG_SPEED_HALVED),
    ],
)
def test_17_4_3_critical_table(location: Location, armor: int, kind: CriticalKind) -> None:
    assert critical_kind(RULES, location, armor) is kind


@pytest.mark.parametrize(
    ("face", "removal"),
    [
        (1, Removal.DESTROYED),
        (4, Removal.DESTROYED),
        (5, Removal.INOPERABLE),
        (6, Removal.INOPERABLE),
    ],
)
def test_17_4_3_chest_explosion(face: int, removal: Removal) -> None:
    assert chest_explosion(RULES, face) is removal


def test_17_4_3_d23_speed_halves_rounding_down() -> None:
    speeds = [16]
    while speeds[-1]:
        speeds.append(halved_speed(speeds[-1]))
    assert speeds == [16, 8, 4, 2, 1, 0]
    assert halved_speed(10) == 5 and halved_speed(14) == 7


def test_17_4_3_1_pilot_test() -> None:
    assert pilot_test_passed(RULES, 4, 4, ())
    assert not pilot_test_passed(RULES, 5, 4, ())
    assert pilot_test_passed(RULES, 5, 4, (Attribute.AGILE,))
    assert not pilot_test_passed(RULES, 4, 4, (Attribute.SLOW,))
    assert pilot_test_rep(4, (Attribute.AGILE, Attribute.SLOW)) == 4
