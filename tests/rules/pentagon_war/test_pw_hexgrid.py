"""Hex grid conventions (PW-R1) and arcs/armor rows test vectors (digest §5.6)."""

from __future__ import annotations

import pytest

from wargym.rules.hexgrid import (
    AXIAL_DIRECTIONS,
    Hex,
    bearing_deg,
    direction_index,
    disc,
    distance,
    line,
    neighbours,
    rotate_ccw,
    rotate_cw,
)
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.weapons import armor_row_struck, in_arc, relative_bearing

RULES = load_rules()
TOKENS = ["F", "F2", "F3", "RF", "R", "R3", "L", "L3", "LF", "LF+L", "RF+R"]


def test_pw_r1_directions_clockwise_from_north() -> None:
    assert AXIAL_DIRECTIONS == ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
    assert [bearing_deg(Hex(0, 0), Hex(*d)) for d in AXIAL_DIRECTIONS] == [
        0.0,
        60.0,
        120.0,
        180.0,
        240.0,
        300.0,
    ]
    assert direction_index("C") == 2
    with pytest.raises(ValueError):
        direction_index("G")


def test_pw_r1_distance_rotation_neighbours_line_disc() -> None:
    assert distance(Hex(0, 0), Hex(2, -4)) == 4
    assert rotate_cw(Hex(1, 0)) == Hex(0, 1)
    assert rotate_ccw(rotate_cw(Hex(3, -1))) == Hex(3, -1)
    assert rotate_cw(Hex(2, -1), 6) == Hex(2, -1)
    assert len(set(neighbours(Hex(5, 5)))) == 6
    path = line(Hex(0, 0), Hex(3, -3))
    assert path[0] == Hex(0, 0) and path[-1] == Hex(3, -3) and len(path) == 4
    assert all(distance(a, b) == 1 for a, b in zip(path, path[1:], strict=False))
    assert len(list(disc(Hex(0, 0), 2))) == 19


ARCS = [
    ((0, -3), 0.0, ["F", "F2", "F3", "LF", "RF", "L3", "R3", "LF+L", "RF+R"]),
    ((1, -2), 30.0, ["F", "F2", "F3", "RF", "R3", "RF+R"]),
    ((2, -3), 40.893, ["F2", "F3", "RF", "R3", "RF+R"]),
    ((3, -3), 60.0, ["F2", "F3", "RF", "R", "R3", "RF+R"]),
    ((2, -1), 90.0, ["F3", "R", "R3", "RF+R"]),
    ((1, 1), 150.0, ["R3"]),
    ((0, 3), 180.0, ["L3", "R3"]),
    ((-2, 1), 270.0, ["F3", "L", "L3", "LF+L"]),
    ((-1, -1), 330.0, ["F", "F2", "F3", "LF", "L3", "LF+L"]),
]


@pytest.mark.parametrize(("target", "bearing", "inside"), ARCS)
def test_pw_r7_arc_membership_vectors(
    target: tuple[int, int], bearing: float, inside: list[str]
) -> None:
    from wargym.rules.pentagon_war.data import parse_arc
    from wargym.rules.tables import Node

    theta = relative_bearing(Hex(0, 0), 0, Hex(*target))
    assert theta == pytest.approx(bearing, abs=1e-3)
    node = Node({}, "test")
    got = [
        tok
        for tok in TOKENS
        if in_arc(parse_arc(tok, RULES.arc_bases, RULES.arc_half_width, 6, node), theta)
    ]
    assert sorted(got) == sorted(inside)


def test_pw_r7_facing_c_target_at_3_0_is_dead_ahead_and_same_hex_in_every_arc() -> None:
    assert relative_bearing(Hex(0, 0), 2, Hex(3, 0)) == 0.0
    arc = RULES.designs["zelta_dee"].system("f2_laser").arc
    assert arc is not None and in_arc(arc, 180.0, same_hex=True)


ROWS = [
    ((0, -3), 1),
    ((1, -2), 1),
    ((2, -1), 2),
    ((3, -1), 3),
    ((1, 1), 3),
    ((0, 4), 4),
    ((-1, 2), 5),
    ((-2, 1), 6),
    ((-3, 1), 6),
    ((-1, -1), 1),
]


@pytest.mark.parametrize(("firer", "row"), ROWS)
def test_pw_r9_armor_row_struck_vectors(firer: tuple[int, int], row: int) -> None:
    assert armor_row_struck(RULES, Hex(0, 0), 0, Hex(*firer), [10] * 6) == row


def test_pw_r9_armor_row_facing_c_and_range_0() -> None:
    assert armor_row_struck(RULES, Hex(0, 0), 2, Hex(3, 0), [10] * 6) == 1
    assert armor_row_struck(RULES, Hex(0, 0), 2, Hex(-3, 0), [10] * 6) == 4
    assert armor_row_struck(RULES, Hex(0, 0), 0, Hex(0, 0), [10, 4, 9, 4, 10, 10]) == 2
