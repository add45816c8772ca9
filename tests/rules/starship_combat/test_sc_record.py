"""§2.12-§2.13: the Liikargi Heavy Escort damage record and the damage point tables."""

import pytest

from wargym.rules.starship_combat.damage_record import (
    build_damage_record,
    drive_track,
    hull_points,
    power_hp_key,
)
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.records import band_lookup

RULES = load_rules()
LIIKARGI = RULES.ships["liikargi_heavy_escort"]
REC = build_damage_record(LIIKARGI, RULES)


def test_2_13_liikargi_ucp_data_as_shipped() -> None:
    assert (LIIKARGI.displacement, LIIKARGI.armor, LIIKARGI.maneuver_g, LIIKARGI.jump) == (
        20000,
        70,
        2,
        3,
    )
    assert LIIKARGI.mt_inop_hp("power") == 1472 and LIIKARGI.ecp
    assert [(w.key, w.factor, w.batteries, w.bearing) for w in LIIKARGI.weapons] == [
        ("missile", 10, 10, 10),
        ("meson_gun", 9, 2, 2),
        ("fusion_gun", 9, 2, 2),
        ("repulsor", 9, 3, 3),
        ("sandcaster", 9, 3, 3),
    ]
    assert (LIIKARGI.computer_model, LIIKARGI.crew_persons, LIIKARGI.crew_segments) == (9, 268, 20)
    assert LIIKARGI.fuel_kl == 149399 and LIIKARGI.def_dm == 7


def test_2_13_tr_lk_armor_70_boxes_50_crossed_off() -> None:
    assert (REC.armor, REC.crossed_off_armor) == (70, 50)


def test_2_13_tr_lk_hull_inop_20_destroyed_50() -> None:
    assert (REC.hull_inop, REC.hull_destroyed) == (20, 50)


def test_2_13_tr_lk_man_11_per_gee_42_destroyed() -> None:
    m = REC.maneuver
    assert (m.base_per_unit, m.per_unit, m.inop_total, m.destroyed, m.alt_destroyed) == (
        7,
        11,
        22,
        42,
        44,
    )


def test_2_13_jump_11_per_parsec_33_inop_63_destroyed() -> None:
    assert REC.jump is not None
    assert (REC.jump.per_unit, REC.jump.inop_total, REC.jump.destroyed, REC.jump.alt_destroyed) == (
        11,
        33,
        63,
        66,
    )


def test_2_13_tr_lk_pp_981_gives_3_per_step_5_with_ecp() -> None:
    assert REC.power_hp_key == 981 == power_hp_key(1472, True, RULES)
    p = REC.power
    assert (p.base_per_unit, p.per_unit, p.inop_total, p.destroyed, p.alt_destroyed) == (
        3,
        5,
        50,
        90,
        100,
    )


def test_2_13_boxes_weapons_screens_computer_sensors_crew() -> None:
    assert dict(REC.weapons) == {
        "missile": 10,
        "meson_gun": 2,
        "fusion_gun": 2,
        "repulsor": 3,
        "sandcaster": 3,
    }
    assert dict(REC.screens) == {"meson_screen": 7, "nuclear_damper": 7}
    assert (REC.computer, REC.sensors, REC.crew, REC.frozen_watch) == (9, 15, 20, 10)


def test_2_13_tr_lk_fuel_47_days() -> None:
    f = REC.fuel
    assert (f.jump_units, f.jump_drive_kl, f.jump_fuel_kl, f.power_plant_fuel_kl) == (
        800,
        10800,
        54000,
        95399,
    )
    assert (f.kl_per_day, f.jump_fuel_days, f.power_plant_days, f.total_days) == (3180, 17, 30, 47)


@pytest.mark.parametrize(
    ("tons", "inop", "destroyed"),
    [
        (10, 1, 3),
        (50, 1, 3),
        (60, 5, 13),
        (99, 5, 13),
        (100, 10, 25),
        (950, 10, 25),
        (1000, 15, 38),
        (20000, 20, 50),
        (100000, 25, 63),
        (2000000, 30, 75),
    ],
)
def test_2_12_hull_table_rows(tons: int, inop: int, destroyed: int) -> None:
    assert hull_points(tons, RULES) == (inop, destroyed)
    assert destroyed == -(-5 * inop // 2)  # observation: destroyed = ceil(2.5 x inop)


@pytest.mark.parametrize(
    ("tons", "per_gee"), [(95, 1), (400, 3), (5000, 5), (20000, 7), (500000, 9), (1000000, 11)]
)
def test_2_12_maneuver_points_per_gee(tons: int, per_gee: int) -> None:
    assert band_lookup(RULES.maneuver_bands, tons) == per_gee


@pytest.mark.parametrize(
    ("hp", "per_step"),
    [(9, 1), (10, 2), (981, 3), (1000, 4), (99999, 5), (100000, 6), (1000000, 7)],
)
def test_2_12_power_points_per_step(hp: int, per_step: int) -> None:
    assert band_lookup(RULES.power_bands, hp) == per_step


def test_2_12_drive_without_ecp_doubles_for_destroyed() -> None:
    t = drive_track(5, 4, False, RULES)
    assert (t.per_unit, t.inop_total, t.destroyed) == (5, 20, 40)


def test_d15_project_designs_are_marked_and_have_records() -> None:
    for key, design in RULES.ships.items():
        assert design.source == ("src" if key == "liikargi_heavy_escort" else "project")
        rec = build_damage_record(design, RULES)
        assert rec.fuel.total_days >= design.power_duration_days


def test_loader_errors_name_file_key_and_row() -> None:
    from wargym.rules.errors import TableError
    from wargym.rules.starship_combat.data import _ship
    from wargym.rules.tables import parse_yaml

    node = parse_yaml("x: {name: X}", "rules/starship_combat/ships.yaml")["x"]
    with pytest.raises(TableError, match=r"ships.yaml: x: missing keys"):
        _ship("x", node, dict(RULES.ehex))
