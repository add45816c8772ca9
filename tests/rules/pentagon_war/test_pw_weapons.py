"""Weapon shot test vectors pw-fire-1..19 and the range modifier (digest §2.1-2.7, §5.3)."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.weapons import (
    global_impulse,
    missile_flight_impulses,
    radar_range,
    radar_rating,
    range_penalty,
    resolve_shot,
    turn_and_impulse,
)

RULES = load_rules()
LA, PR, EL, RA, AG = "laser", "proton_cannon", "electron_cannon", "radiation_gun", "acid_gum_gun"

FIRE = [  # id, weapon, dice, size class, range, ecm, roll, hit, damage, kill
    ("pw-fire-1", LA, (4, 5), 2, 6, 0, 7, True, 3, False),
    ("pw-fire-2", LA, (2, 3), 0, 0, 0, 5, True, 0, True),
    ("pw-fire-3", LA, (2, 3), 0, 1, 0, 4, False, 0, False),
    ("pw-fire-4", LA, (6, 6), 2, 0, 0, 14, True, 6, False),
    ("pw-fire-5", LA, (1, 1), 2, 40, 0, -3, False, 0, False),
    ("pw-fire-6", LA, (4, 5), 2, 6, 2, 5, True, 3, False),
    ("pw-fire-7", PR, (5, 4), 2, 10, 0, 6, True, 4, False),
    ("pw-fire-8", PR, (2, 1), 2, 10, 0, 0, False, 0, False),
    ("pw-fire-9", PR, (6, 6), 2, 70, 0, 6, True, 0, False),
    ("pw-fire-10", EL, (4, 3), 2, 3, 0, 6, True, 4, False),
    ("pw-fire-11", EL, (3, 3), 2, 3, 0, 5, False, 0, False),
    ("pw-fire-12", EL, (6, 6), 0, 32, 0, 6, False, 0, False),
    ("pw-fire-13", EL, (6, 6), 0, 31, 0, 6, True, 0, True),
    ("pw-fire-14", RA, (6, 6), 2, 20, 0, 8, True, 12, False),
    ("pw-fire-15", RA, (1, 2), 0, 0, 0, 3, True, 0, True),
    ("pw-fire-16", RA, (1, 2), 0, 3, 0, 0, False, 0, False),
    ("pw-fire-17", RA, (1, 1), 1, 129, 0, -6, False, 0, False),
    ("pw-fire-19", AG, (1, 3), 2, 2, 0, 4, False, 0, False),
]


@pytest.mark.parametrize(
    ("vid", "weapon", "faces", "size", "rng", "ecm", "roll", "hit", "damage", "kill"), FIRE
)
def test_pw_fire_vectors(
    vid: str,
    weapon: str,
    faces: tuple[int, int],
    size: int,
    rng: int,
    ecm: int,
    roll: int,
    hit: bool,
    damage: int,
    kill: bool,
) -> None:
    shot = resolve_shot(RULES, weapon, ScriptedDice(list(faces)), size, rng, ecm)
    assert (shot.modified_roll, shot.damage, shot.kill) == (roll, damage, kill), vid
    if weapon in (PR, EL, AG) and size > 0:
        assert shot.hit is hit, vid


def test_pw_fire_18_acid_gum_hit_two_points_per_impulse_for_four() -> None:
    shot = resolve_shot(RULES, AG, ScriptedDice([3, 3]), 2, 2)
    assert (shot.modified_roll, shot.hit, shot.packets) == (6, True, (2, 2, 2, 2))


def test_pw_r14_liquid_metal_gun_footnote_range_cannot_kill_size_0() -> None:
    lmg = "liquid_metal_gun"
    assert resolve_shot(RULES, lmg, ScriptedDice([6, 6]), 0, 16).kill
    assert not resolve_shot(RULES, lmg, ScriptedDice([6, 6]), 0, 17).kill
    hit = resolve_shot(RULES, lmg, ScriptedDice([4, 4]), 2, 2)
    assert (hit.modified_roll, hit.hit, hit.damage) == (8, True, 6)
    assert resolve_shot(RULES, PR, ScriptedDice([6, 6]), 0, 16).kill


PENALTY = {
    0: 0,
    1: 1,
    2: 2,
    3: 3,
    4: 3,
    5: 4,
    8: 4,
    9: 5,
    16: 5,
    17: 6,
    32: 6,
    33: 7,
    64: 7,
    65: 8,
    128: 8,
    129: 9,
    256: 9,
}


@pytest.mark.parametrize(("rng", "penalty"), sorted(PENALTY.items()))
def test_pw_2_1_universal_range_modifier(rng: int, penalty: int) -> None:
    assert range_penalty(RULES, rng) == penalty
    if rng:
        assert penalty == (rng - 1).bit_length() + 1


def test_pw_2_1_range_257_is_illegal() -> None:
    with pytest.raises(IllegalActionError):
        range_penalty(RULES, 257)


def test_pw_2_2_laser_closed_form_and_radiation_table() -> None:
    table = RULES.weapon_types[LA].roll_table
    assert table is not None
    for roll in range(-10, 20):
        assert table.lookup(roll) == min(6, max(0, (roll + 4) // 3))
    rad = RULES.weapon_types[RA].roll_table
    assert rad is not None
    assert [rad.lookup(r) for r in (-5, -4, -1, 0, 10, 11, 12, 13, 20)] == [
        0,
        1,
        4,
        4,
        14,
        16,
        18,
        20,
        20,
    ]


def test_pw_radar_1_rating_and_range_by_hits() -> None:
    track = RULES.designs["alpha_centaurian_fighter"].radar_track
    ratings = [radar_rating(track, hits) for hits in range(7)]
    assert ratings == [6, 6, 5, 3, 1, 0, 0]
    assert [radar_range(r) for r in ratings] == [64, 64, 32, 8, 2, 1, 1]


def test_pw_msl_1_missile_flight_and_rail_launch() -> None:
    assert missile_flight_impulses(10, 4) == 3
    assert turn_and_impulse(global_impulse(1, 11) + 3) == (2, 2)
    assert missile_flight_impulses(10, 8) == 2
    assert turn_and_impulse(11 + 2) == (2, 1)
    assert missile_flight_impulses(0, 4) == 1
