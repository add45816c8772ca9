"""Axial hex grid shared by the hex-map games (The Pentagon War, PW-R1).

Flat-topped hexes in axial coordinates ``(q, r)`` with cube ``s = -q - r``. The six directions
are indexed 0..5 **clockwise** starting from map "north" (up); The Pentagon War names them
A..F (PW-R1), and :data:`DIRECTION_NAMES` carries those letters, but nothing here depends on the
names, so other hex games can reuse the module with their own labels.

>>> origin = Hex(0, 0)
>>> origin.neighbour(0), origin.neighbour(2)
(Hex(q=0, r=-1), Hex(q=1, r=0))
>>> distance(Hex(0, 0), Hex(-2, -3))
5
>>> rotate_cw(Hex(0, -1))
Hex(q=1, r=-1)
>>> round(bearing_deg(Hex(0, 0), Hex(1, -2)), 6)
30.0
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

DIRECTION_NAMES = ("A", "B", "C", "D", "E", "F")
"""Letters of the six directions in index order, clockwise from north (PW-R1)."""

AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
)
"""Axial ``(dq, dr)`` of one step in each direction, clockwise from north (PW-R1)."""

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One hex in axial coordinates; ``s`` is the implied cube coordinate (PW-R1)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """Cube coordinate ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, factor: int) -> Hex:
        """This offset multiplied by an integer."""
        return Hex(self.q * factor, self.r * factor)

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex across hexside ``direction`` (0..5, clockwise from north)."""
        dq, dr = AXIAL_DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def length(self) -> int:
        """Hex distance from the origin."""
        return (abs(self.q) + abs(self.r) + abs(self.q + self.r)) // 2

    def as_tuple(self) -> tuple[int, int]:
        """``(q, r)``."""
        return (self.q, self.r)


def direction_vector(direction: int) -> Hex:
    """Unit offset of ``direction`` (0..5) as a :class:`Hex`."""
    dq, dr = AXIAL_DIRECTIONS[direction % 6]
    return Hex(dq, dr)


def direction_index(name: str) -> int:
    """Index 0..5 of a direction letter A..F (PW-R1)."""
    try:
        return DIRECTION_NAMES.index(name)
    except ValueError as error:
        raise ValueError(f"unknown hex direction {name!r}; expected one of A..F") from error


def distance(a: Hex, b: Hex) -> int:
    """Hex distance ``(|dq| + |dr| + |dq + dr|) / 2`` (PW-R1, PW-R6)."""
    return (a - b).length()


def neighbours(center: Hex) -> tuple[Hex, ...]:
    """The six adjacent hexes, clockwise from north."""
    return tuple(center.neighbour(d) for d in range(6))


def rotate_cw(offset: Hex, steps: int = 1) -> Hex:
    """Rotate an offset clockwise by ``steps`` hexsides: ``(q, r) -> (-r, q + r)`` (PW-R1)."""
    q, r = offset.q, offset.r
    for _ in range(steps % 6):
        q, r = -r, q + r
    return Hex(q, r)


def rotate_ccw(offset: Hex, steps: int = 1) -> Hex:
    """Rotate an offset counter-clockwise by ``steps`` hexsides: ``(q, r) -> (q + r, -q)``."""
    return rotate_cw(offset, -steps % 6)


def pixel(h: Hex) -> tuple[float, float]:
    """Centre of ``h`` as ``(x_east, y_north)`` for centre-to-corner size 1 (PW-R1)."""
    return 1.5 * h.q, -SQRT3 * (h.r + h.q / 2.0)


def bearing_deg(origin: Hex, target: Hex) -> float:
    """Bearing from ``origin`` to ``target`` in degrees clockwise from north, in [0, 360).

    Rounded to 1e-9 so that exact hex rays compare exactly (PW-R1). The bearing of a hex to
    itself is 0.
    """
    x, y = pixel(target - origin)
    if x == 0.0 and y == 0.0:
        return 0.0
    angle = math.degrees(math.atan2(x, y)) % 360.0
    angle = round(angle, 9)
    return 0.0 if angle >= 360.0 else angle


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from ``a`` to ``b`` inclusive (cube lerp with a nudge)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    result = []
    for i in range(n + 1):
        t = i / n
        q = a.q + (b.q - a.q) * t + 1e-6
        r = a.r + (b.r - a.r) * t + 1e-6
        result.append(cube_round(q, r))
    return result


def cube_round(q: float, r: float) -> Hex:
    """Round fractional axial coordinates to the nearest hex."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def disc(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex within ``radius`` of ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)
