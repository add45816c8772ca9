"""Plane geometry of the No Quarter table: points, headings, arcs and aspect (§6, rulings D1-D4).

The table is a continuous plane measured in inches (ruling D1): a :data:`Point` is ``(x, y)``
with ``x`` growing to the right (east) and ``y`` growing up (north). Headings are degrees,
``0`` = +x (east), counter-clockwise positive, normalised to ``[0, 360)``.

Everything here is plain float math on tuples: these helpers sit on the hot path of line of
sight and movement.

>>> heading_to((0.0, 0.0), (0.0, 5.0))
90.0
>>> angle_between(350.0, 10.0)
20.0
>>> in_arc((0.0, 0.0), 0.0, (0.0, 3.0))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from wargym.rules.no_quarter.forces.vocab import Aspect

Point = tuple[float, float]
"""A position on the table in inches: ``(x, y)``."""

EPS = 1e-9
"""Tolerance for float comparisons of lengths and angles."""

_COS_90 = math.cos(math.radians(90.0))
"""The cosine of the default arc half-angle, as :func:`in_arc` would compute it."""
_FLANK_BEARING = 45.0
_REAR_BEARING = 90.0


def distance(a: Point, b: Point) -> float:
    """Centre-to-centre distance in inches (ruling D1)."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def normalize(deg: float) -> float:
    """A heading in ``[0, 360)`` (§6.2)."""
    value = math.fmod(deg, 360.0)
    if value < 0.0:
        value += 360.0
    if value >= 360.0:  # -1e-17 + 360.0 rounds to 360.0
        value = 0.0
    return value


def heading_to(a: Point, b: Point) -> float:
    """Heading from ``a`` towards ``b`` in degrees; ``0.0`` when the points coincide (§6.2)."""
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    if dx == 0.0 and dy == 0.0:
        return 0.0
    return normalize(math.degrees(math.atan2(dy, dx)))


def angle_between(h1: float, h2: float) -> float:
    """Smallest absolute difference of two headings, in ``[0, 180]`` (§6.2)."""
    diff = abs(math.fmod(h1 - h2, 360.0))
    return 360.0 - diff if diff > 180.0 else diff


def unit(deg: float) -> Point:
    """The unit vector of a heading."""
    rad = math.radians(deg)
    return (math.cos(rad), math.sin(rad))


def in_arc(origin: Point, facing: float, point: Point, half_angle: float = 90.0) -> bool:
    """Whether ``point`` lies in the arc of ``facing`` seen from ``origin`` (ruling D3).

    The boundary counts as inside, and a point on ``origin`` is inside. The test uses a dot
    product against the cosine of ``half_angle`` (no trigonometry on the point), with a small
    tolerance so that points exactly on the boundary are inside.
    """
    dx = point[0] - origin[0]
    dy = point[1] - origin[1]
    length = math.hypot(dx, dy)
    if length <= EPS:
        return True
    if half_angle >= 180.0:
        return True
    rad = math.radians(facing)
    cos_angle = (dx * math.cos(rad) + dy * math.sin(rad)) / length
    cos_half = _COS_90 if half_angle == 90.0 else math.cos(math.radians(half_angle))
    return cos_angle >= cos_half - 1e-12


def _bearing(target_pos: Point, target_heading: float, attacker: Point) -> float:
    """Angle between the target's leg heading and the direction to the attacker (ruling D4)."""
    if distance(target_pos, attacker) <= EPS:
        return 0.0
    return angle_between(target_heading, heading_to(target_pos, attacker))


def aspect(
    target_pos: Point, target_heading: float, attacker_start: Point, attacker_end: Point
) -> Aspect:
    """Front, flank or rear of an attack on a target (§6.2, ruling D4).

    Rear: the bearing exceeds 90 degrees at both the start and the end of the attacker's
    movement (a stationary attacker passes the same point twice). Flank: not rear and the
    bearing at the end exceeds 45 degrees. Otherwise front. Bearings exactly on 90 or 45
    degrees count towards the front, as the arc boundary does (ruling D3).
    """
    end = _bearing(target_pos, target_heading, attacker_end)
    if end > _REAR_BEARING + EPS:
        start = _bearing(target_pos, target_heading, attacker_start)
        if start > _REAR_BEARING + EPS:
            return Aspect.REAR
    if end > _FLANK_BEARING + EPS:
        return Aspect.FLANK
    return Aspect.FRONT


def step_toward(a: Point, b: Point, dist: float) -> Point:
    """The point ``dist`` inches from ``a`` towards ``b``; ``a`` itself if they coincide."""
    length = distance(a, b)
    if length <= EPS:
        return a
    f = dist / length
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def path_length(path: Sequence[Point]) -> float:
    """Total length of a polyline in inches (ruling D5)."""
    total = 0.0
    for i in range(len(path) - 1):
        total += distance(path[i], path[i + 1])
    return total


def point_along(path: Sequence[Point], dist: float) -> Point:
    """The point ``dist`` inches along a polyline, clamped to its ends (ruling D5)."""
    if not path:
        raise ValueError("point_along needs at least one point")
    if dist <= 0.0:
        return path[0]
    remaining = dist
    for i in range(len(path) - 1):
        seg = distance(path[i], path[i + 1])
        if remaining <= seg:
            return step_toward(path[i], path[i + 1], remaining)
        remaining -= seg
    return path[-1]


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``ab``."""
    ax, ay = a
    dx = b[0] - ax
    dy = b[1] - ay
    len2 = dx * dx + dy * dy
    if len2 <= 0.0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = ((p[0] - ax) * dx + (p[1] - ay) * dy) / len2
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def segment_hits_circle(a: Point, b: Point, centre: Point, radius: float) -> bool:
    """Whether the segment ``ab`` passes strictly inside a circle (ruling D11).

    A segment that only grazes the circle (closest distance equal to ``radius``) does not hit:
    a sight line tangent to a base is not blocked, and bases in contact do not overlap.
    """
    return point_segment_distance(centre, a, b) < radius - EPS


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments ``ab`` and ``cd`` share a point (used for hill crests)."""
    d1 = _cross(c, d, a)
    d2 = _cross(c, d, b)
    d3 = _cross(a, b, c)
    d4 = _cross(a, b, d)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return True
    return (
        (abs(d1) <= EPS and _on_segment(c, d, a))
        or (abs(d2) <= EPS and _on_segment(c, d, b))
        or (abs(d3) <= EPS and _on_segment(a, b, c))
        or (abs(d4) <= EPS and _on_segment(a, b, d))
    )


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    return (
        min(a[0], b[0]) - EPS <= p[0] <= max(a[0], b[0]) + EPS
        and min(a[1], b[1]) - EPS <= p[1] <= max(a[1], b[1]) + EPS
    )


def clip_segment_to_rect(
    a: Point, b: Point, x0: float, y0: float, x1: float, y1: float
) -> tuple[float, float] | None:
    """Parameter interval ``(t0, t1)`` of segment ``ab`` inside a closed rectangle, or None.

    Liang-Barsky clipping: ``a + t * (b - a)`` for ``t`` in the interval lies in the rectangle.
    """
    t0 = 0.0
    t1 = 1.0
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0.0:
            if q < 0.0:
                return None
        else:
            r = q / p
            if p < 0.0:
                if r > t1:
                    return None
                if r > t0:
                    t0 = r
            else:
                if r < t0:
                    return None
                if r < t1:
                    t1 = r
    return (t0, t1)


def point_rect_distance(p: Point, x0: float, y0: float, x1: float, y1: float) -> float:
    """Distance from ``p`` to a closed rectangle (0 inside)."""
    dx = x0 - p[0] if p[0] < x0 else (p[0] - x1 if p[0] > x1 else 0.0)
    dy = y0 - p[1] if p[1] < y0 else (p[1] - y1 if p[1] > y1 else 0.0)
    return math.hypot(dx, dy)


def segment_rect_distance(a: Point, b: Point, x0: float, y0: float, x1: float, y1: float) -> float:
    """Distance from segment ``ab`` to a closed rectangle (0 when they meet)."""
    if clip_segment_to_rect(a, b, x0, y0, x1, y1) is not None:
        return 0.0
    best = min(point_rect_distance(a, x0, y0, x1, y1), point_rect_distance(b, x0, y0, x1, y1))
    for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        best = min(best, point_segment_distance(corner, a, b))
    return best


@lru_cache(maxsize=32)
def lattice_offsets(max_dist: float, step: float) -> tuple[tuple[float, float, float], ...]:
    """Offsets ``(dx, dy, length)`` of a square lattice inside a disc, nearest first."""
    n = int(max_dist / step) + 1
    pts = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            dx, dy = i * step, j * step
            length = math.hypot(dx, dy)
            if length <= max_dist + EPS:
                pts.append((round(length, 9), math.atan2(dy, dx), dx, dy))
    pts.sort()
    return tuple((dx, dy, length) for length, _, dx, dy in pts)
