"""Flame templates crossed by a move (§10.4.2, ruling D27).

Every move rolls for the flame areas its path enters: voluntary moves, reverses, jumps,
charges, free In Sight moves, Duck Back and Leave the Battlefield moves (``consequences``).
"""

from __future__ import annotations

from collections.abc import Sequence

from wargym.rules.no_quarter.battlefield.terrain import terrain_config
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    clip_segment_to_rect,
    distance,
    point_segment_distance,
)


def flame_area_hits(
    path: Sequence[Point],
    flames: Sequence[tuple[Point, Point]],
    *,
    base_radius: float = 0.5,
    mover_radius: float = 0.0,
) -> list[int]:
    """Indices of the flame areas a moving mech's path enters (§10.4.2, ruling D27).

    Each flame is ``(shooter position, aimed point)``: a strip as wide as the flamer's template
    from the shooter's base edge (``base_radius`` from its centre) to the aimed point, plus a
    circle centred on the aimed point. The mech's centre path is tested (``mover_radius`` > 0
    tests the whole base); touching counts; a path that does not move enters nothing.
    """
    cfg = terrain_config()
    half_w = cfg.flame_strip_width / 2.0 + mover_radius
    circle = cfg.flame_circle_diameter / 2.0 + mover_radius
    segs = [(path[i], path[i + 1]) for i in range(len(path) - 1) if path[i] != path[i + 1]]
    hits: list[int] = []
    for k, (shooter, aim) in enumerate(flames):
        total = distance(shooter, aim)
        hit = any(point_segment_distance(aim, a, b) <= circle + EPS for a, b in segs)
        if not hit and total > base_radius:
            ux, uy = (aim[0] - shooter[0]) / total, (aim[1] - shooter[1]) / total
            sx, sy = shooter[0] + ux * base_radius, shooter[1] + uy * base_radius
            length = total - base_radius
            for a, b in segs:
                la = ((a[0] - sx) * ux + (a[1] - sy) * uy, -(a[0] - sx) * uy + (a[1] - sy) * ux)
                lb = ((b[0] - sx) * ux + (b[1] - sy) * uy, -(b[0] - sx) * uy + (b[1] - sy) * ux)
                if clip_segment_to_rect(la, lb, 0.0, -half_w, length, half_w) is not None:
                    hit = True
                    break
        if hit:
            hits.append(k)
    return hits


def flames_at(
    point: Point, flames: Sequence[tuple[Point, Point]], *, base_radius: float = 0.5
) -> list[int]:
    """Indices of the flame areas that hold ``point`` (the mech's centre), borders included.

    A move that goes on from a point inside a flame area (after an In Sight pause) does not
    enter that area again: it rolls once per flame area per move (D27).
    """
    cfg = terrain_config()
    half_w, circle = cfg.flame_strip_width / 2.0, cfg.flame_circle_diameter / 2.0
    found: list[int] = []
    for k, (shooter, aim) in enumerate(flames):
        total = distance(shooter, aim)
        inside = distance(point, aim) <= circle + EPS
        if not inside and total > base_radius:
            ux, uy = (aim[0] - shooter[0]) / total, (aim[1] - shooter[1]) / total
            sx, sy = shooter[0] + ux * base_radius, shooter[1] + uy * base_radius
            along = (point[0] - sx) * ux + (point[1] - sy) * uy
            across = -(point[0] - sx) * uy + (point[1] - sy) * ux
            inside = -EPS <= along <= total - base_radius + EPS and abs(across) <= half_w + EPS
        if inside:
            found.append(k)
    return found
