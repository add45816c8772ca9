"""Tuple adapter over the shared hex grid ``wargym.rules.hexgrid`` (TR-R2 = PW-R1).

Flat-topped axial hexes ``(q, r)``, directions A-F clockwise from map north:
A = (0, -1), B = (+1, -1), C = (+1, 0), D = (0, +1), E = (-1, +1), F = (-1, 0).
The engine state keeps plain ``(q, r)`` tuples (JSON friendly); this module converts.

>>> distance((0, 4), (0, -4))
8
>>> bearing_deg((0, 0), (1, -1))
60.0
"""

from __future__ import annotations

import math

from wargym.rules import hexgrid

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = hexgrid.AXIAL_DIRECTIONS
"""Axial steps of the directions A-F (index 0-5), clockwise from north (TR-R2)."""
DIRECTION_NAMES = "ABCDEF"


def add(a: Hex, b: Hex) -> Hex:
    """Component-wise sum."""
    return (a[0] + b[0], a[1] + b[1])


def scale(a: Hex, k: int) -> Hex:
    """``k`` times an axial vector."""
    return (a[0] * k, a[1] * k)


def length(v: Hex) -> int:
    """Hex length of an axial vector (TR-R2)."""
    q, r = v
    return (abs(q) + abs(r) + abs(q + r)) // 2


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: range 0 in the same hex, 1 when adjacent (TR-R2)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six adjacent hexes, in direction order."""
    return tuple(n.as_tuple() for n in hexgrid.neighbours(hexgrid.Hex(*h)))


def centre(h: Hex) -> tuple[float, float]:
    """Pixel centre ``(x_east, y_north)`` of a hex of unit size (shared grid)."""
    return hexgrid.pixel(hexgrid.Hex(*h))


def bearing_deg(a: Hex, b: Hex) -> float:
    """Map bearing from ``a`` to ``b``, clockwise from north (A = 0 degrees), in [0, 360).

    ``hexgrid.bearing_deg`` step by step on tuples (a hot path of fire legality).
    """
    dq, dr = b[0] - a[0], b[1] - a[1]
    x, y = 1.5 * dq, -hexgrid.SQRT3 * (dr + dq / 2.0)
    if x == 0.0 and y == 0.0:
        return 0.0
    angle = round(math.degrees(math.atan2(x, y)) % 360.0, 9)
    return 0.0 if angle >= 360.0 else angle


def line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Hexes on the straight line from ``a`` to ``b`` inclusive."""
    return tuple(h.as_tuple() for h in hexgrid.line(hexgrid.Hex(*a), hexgrid.Hex(*b)))
