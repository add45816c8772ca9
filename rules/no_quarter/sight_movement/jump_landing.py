"""Where an involuntary jump lands (§10.6.1, rulings D9, D10, D28).

A mech with operable jump jets may jump in any move, Duck Back and Leave the Battlefield
included (§10.6.1: "at any point of any move"). The jumped segment ignores obstacles (every
building and woods edge is within 3 mech heights, D28) and terrain penalties, costs its length
and must land on a legal spot: on the table (or, for a leaving mech, beyond its exit edge), not
overlapping a building or another base, and not in deep water beyond the shore band further
than the 2" a turn there allows (§19.7.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body, terrain_config
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    distance,
    point_rect_distance,
)

LANDING_STEP = 0.25
"""Inches by which a jump that cannot land is shortened, tried until it lands (as choice E5)."""


def beyond_edge(bf: Battlefield, p: Point, edge: str | None) -> bool:
    """Whether the centre ``p`` has crossed ``edge`` (None: no edge is open)."""
    if edge == "north":
        return p[1] > bf.height
    if edge == "south":
        return p[1] < 0.0
    if edge == "east":
        return p[0] > bf.width
    if edge == "west":
        return p[0] < 0.0
    return False


def landing_ok(
    bf: Battlefield,
    p: Point,
    length: float,
    others: Sequence[Body],
    radius: float,
    open_edge: str | None = None,
) -> bool:
    """Whether a jump of ``length`` may land at ``p`` (ruling D28); past ``open_edge`` it exits."""
    if beyond_edge(bf, p, open_edge):
        return True
    if not bf.is_on_table(p, radius):
        return False
    if any(point_rect_distance(p, *r) < radius - EPS for r in bf.index.building_rects):
        return False
    if any(distance(p, b.pos) < radius + b.radius - EPS for b in others):
        return False
    deep = terrain_config().deep_water_inches_per_turn
    return not (bf.index.deep_core and bf.in_deep_water(p) and length > deep + EPS)


def furthest_landing(
    bf: Battlefield,
    start: Point,
    u: Point,
    max_s: float,
    others: Sequence[Body],
    radius: float,
    open_edge: str | None = None,
) -> float:
    """Longest jump (at most ``max_s``) along unit ``u`` from ``start`` that lands legally.

    Tried from ``max_s`` back in :data:`LANDING_STEP` steps; 0.0 when none lands.
    """
    s = max_s
    while s > EPS:
        p = (start[0] + u[0] * s, start[1] + u[1] * s)
        if landing_ok(bf, p, s, others, radius, open_edge):
            return s
        s -= LANDING_STEP
    return 0.0
