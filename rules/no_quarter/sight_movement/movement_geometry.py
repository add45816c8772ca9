"""Movement on the continuous table: costs, legal paths, Duck Back, leaving, flames (§15.2, D5-D10).

Costs (ruling D5, Appendix A, campaign rulings 19.7, 19.8, 19.12; ``roads.py``): every inch moved
inside half-speed terrain (woods, rough, river, the 2" shore band of deep water) costs 2" of
allowance; penalties never stack; a move wholly on a road costs 1" per inch whatever lies around
it (a move that leaves the road pays the terrain for all of it); a bridge is never water. A
jumped segment costs its length (ruling D28).

Deep water beyond the shore band (19.7.1) allows at most 2" of movement in the turn. The cost
functions return ``math.inf`` for any segment that enters it; the engine then applies the rule
with :func:`enters_deep_water` and :func:`deep_water_allowance`: such a move is legal iff its
path length is at most ``deep_water_allowance(allowance)``. :func:`move_candidates` does this
itself.

Bases (ruling D1) are circles; bases in contact (centre distance equal to the sum of radii) do
not overlap, and a base may slide along a building wall.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.roads import path_on_road
from wargym.rules.no_quarter.battlefield.roads import profile as _profile
from wargym.rules.no_quarter.battlefield.terrain import EDGES, Battlefield, Body, terrain_config
from wargym.rules.no_quarter.sight_movement.flames import flame_area_hits as flame_area_hits
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    distance,
    heading_to,
    lattice_offsets,
    point_rect_distance,
    point_segment_distance,
    segment_rect_distance,
    unit,
)
from wargym.rules.no_quarter.sight_movement.jump_landing import beyond_edge as _beyond
from wargym.rules.no_quarter.sight_movement.jump_landing import furthest_landing, landing_ok
from wargym.rules.no_quarter.sight_movement.sight import _inside, in_cover, sight
from wargym.rules.no_quarter.sight_movement.sight import _rects as _sight_rects

_NORMALS: dict[str, Point] = {
    "north": (0.0, 1.0),
    "south": (0.0, -1.0),
    "east": (1.0, 0.0),
    "west": (-1.0, 0.0),
}


def move_cost(
    bf: Battlefield, a: Point, b: Point, *, jumping: bool = False, on_road: bool | None = None
) -> float:
    """Allowance spent moving straight from ``a`` to ``b`` (§15.2.1, rulings D5, D28).

    Half-speed terrain costs 2" per inch unless the whole move is on a road (``roads.py``,
    ``on_road``: None judges this segment alone); a jump costs its length; ``math.inf``
    when the segment enters deep water beyond the shore band (see the module docstring).
    """
    length = distance(a, b)
    if jumping or length <= 0.0:
        return length
    return sum((q - p) * length * rate for p, q, rate in _profile(bf, a, b, on_road))


def path_cost(bf: Battlefield, path: Sequence[Point], *, jump_segment: int | None = None) -> float:
    """Allowance spent along a polyline; segment ``jump_segment`` is jumped (rulings D5, D28)."""
    road = terrain_config().road_per_inch or path_on_road(bf, path, jump_segment)
    return sum(
        move_cost(bf, path[i], path[i + 1], jumping=i == jump_segment, on_road=road)
        for i in range(len(path) - 1)
    )


def enters_deep_water(
    bf: Battlefield, path: Sequence[Point], *, jump_segment: int | None = None
) -> bool:
    """Whether the path moves through or ends in deep water beyond the shore band (§19.7.1)."""
    if not bf.index.deep_core:
        return False
    if path and bf.in_deep_water(path[-1]):
        return True
    for i in range(len(path) - 1):
        if i != jump_segment and any(
            rate == math.inf for _, _, rate in _profile(bf, path[i], path[i + 1])
        ):
            return True
    return False


def deep_water_allowance(allowance: float) -> float:
    """Most inches a mech may move in a turn that enters deep water (§19.7.1: 2")."""
    return min(allowance, terrain_config().deep_water_inches_per_turn)


def _affordable(bf: Battlefield, a: Point, u: Point, max_s: float, budget: float) -> float:
    """Furthest distance along unit ``u`` from ``a`` (at most ``max_s``) costing <= ``budget``."""
    if max_s <= 0.0 or budget <= 0.0:
        return 0.0
    b = (a[0] + u[0] * max_s, a[1] + u[1] * max_s)
    spent = 0.0
    reach = 0.0
    for p, q, rate in _profile(bf, a, b):
        seg = (q - p) * max_s
        cost = seg * rate
        if spent + cost <= budget + EPS:
            spent += cost
            reach = q * max_s
            continue
        if rate != math.inf:
            reach = p * max_s + (budget - spent) / rate
        break
    if reach < max_s and bf.index.deep_core:
        deep = min(max_s, deep_water_allowance(budget))
        if deep > reach and enters_deep_water(bf, [a, (a[0] + u[0] * deep, a[1] + u[1] * deep)]):
            reach = deep
    return min(reach, max_s)


def path_problem(
    bf: Battlefield,
    path: Sequence[Point],
    *,
    mover_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
    jump_segment: int | None = None,
    allow_off_table: bool = False,
) -> str | None:
    """Why a base may not follow ``path``, or None when it may (§15.2, rulings D5, D28).

    The base may not pass through buildings or other bases (except along the jumped segment),
    may not end (or land from a jump) overlapping them, and must stay wholly on the table unless
    ``allow_off_table`` (Leave the Battlefield, ruling D10). Terrain costs are not checked here.
    """
    if not path:
        return "empty path"
    n_seg = len(path) - 1
    if jump_segment is not None and not 0 <= jump_segment < n_seg:
        return f"no segment {jump_segment} to jump"
    if not allow_off_table:
        for p in path:
            if not bf.is_on_table(p, radius):
                return f"leaves the table at ({p[0]:.2f}, {p[1]:.2f})"
    others = [b for b in bodies if b.id != mover_id]
    end = path[-1]
    landing = path[jump_segment + 1] if jump_segment is not None else None
    for where, spot in (("at the end", end), ("on landing", landing)):
        if spot is None:
            continue
        for f in bf.index.buildings:
            if point_rect_distance(spot, f.x0, f.y0, f.x1, f.y1) < radius - EPS:
                return f"overlaps building at ({f.x0:g}, {f.y0:g}) {where}"
        for b in others:
            if distance(spot, b.pos) < radius + b.radius - EPS:
                return f"overlaps mech {b.id} {where}"
    for i in range(n_seg):
        if i == jump_segment:
            continue
        a, c = path[i], path[i + 1]
        lox, hix = min(a[0], c[0]) - radius, max(a[0], c[0]) + radius
        loy, hiy = min(a[1], c[1]) - radius, max(a[1], c[1]) + radius
        for f in bf.index.buildings:
            if f.x1 < lox or f.x0 > hix or f.y1 < loy or f.y0 > hiy:
                continue
            if segment_rect_distance(a, c, f.x0, f.y0, f.x1, f.y1) < radius - EPS:
                return f"passes through building at ({f.x0:g}, {f.y0:g})"
        for b in others:
            reach = radius + b.radius
            if (
                b.pos[0] + reach < lox
                or b.pos[0] - reach > hix
                or b.pos[1] + reach < loy
                or b.pos[1] - reach > hiy
            ):
                continue
            if point_segment_distance(b.pos, a, c) < reach - EPS:
                return f"passes through mech {b.id}"
    return None


def _straight_ok(
    bf: Battlefield, a: Point, c: Point, others: Sequence[Body], radius: float
) -> bool:
    """Whether a base sweeps from ``a`` to ``c`` clear of buildings and other bases."""
    for f in bf.index.buildings:
        if segment_rect_distance(a, c, f.x0, f.y0, f.x1, f.y1) < radius - EPS:
            return False
    return all(point_segment_distance(b.pos, a, c) >= radius + b.radius - EPS for b in others)


def _straight_ok_near(
    a: Point,
    c: Point,
    rects: Sequence[tuple[float, float, float, float]],
    others: Sequence[Body],
    radius: float,
) -> bool:
    """:func:`_straight_ok` over pre-selected building rectangles and bases."""
    for r in rects:
        if segment_rect_distance(a, c, *r) < radius - EPS:
            return False
    return all(point_segment_distance(b.pos, a, c) >= radius + b.radius - EPS for b in others)


def _furthest_clear(
    bf: Battlefield,
    a: Point,
    u: Point,
    max_s: float,
    others: Sequence[Body],
    radius: float,
    open_edge: str | None = None,
) -> float:
    """Largest ``s <= max_s`` whose sweep from ``a`` along ``u`` stays legal (bisection).

    The centre keeps ``radius`` from every table edge except ``open_edge`` (or stays no closer
    to it than it already was), so a base never runs off the side of the table.
    """
    if max_s <= EPS:
        return 0.0
    lo_x = min(a[0], radius) if open_edge != "west" else -math.inf
    hi_x = max(a[0], bf.width - radius) if open_edge != "east" else math.inf
    lo_y = min(a[1], radius) if open_edge != "south" else -math.inf
    hi_y = max(a[1], bf.height - radius) if open_edge != "north" else math.inf
    limit = max_s
    for comp, lo, hi in ((0, lo_x, hi_x), (1, lo_y, hi_y)):
        if u[comp] > EPS:
            limit = min(limit, (hi - a[comp]) / u[comp])
        elif u[comp] < -EPS:
            limit = min(limit, (lo - a[comp]) / u[comp])
    limit = max(0.0, limit)

    def ok(s: float) -> bool:
        return _straight_ok(bf, a, (a[0] + u[0] * s, a[1] + u[1] * s), others, radius)

    if ok(limit):
        return limit
    lo, hi = 0.0, limit
    if not ok(0.0):
        return 0.0
    for _ in range(30):
        mid = (lo + hi) / 2.0
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return max(0.0, lo - 1e-6)


def move_candidates(
    bf: Battlefield,
    pos: Point,
    *,
    allowance: float,
    mover_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
    directions: int = 16,
    fractions: Sequence[float] = (0.25, 0.5, 0.75, 1.0),
) -> list[Point]:
    """Legal straight-line destinations within ``allowance`` (§15.2.1, ruling D5).

    For each of ``directions`` evenly spaced headings (0 = east, counter-clockwise) and each
    fraction of the allowance, the step is shortened to the furthest affordable point when
    terrain makes it too expensive; steps that hit an obstacle, overlap a base at the end or
    leave the table are dropped. Deduplicated, in heading-then-fraction order.
    """
    out: list[Point] = []
    if allowance <= EPS or directions <= 0:
        return out
    # What :func:`path_problem` decides from the terrain alone (table edges, buildings) first,
    # then the bases.
    terrain_ok = _terrain_candidates(bf, pos, allowance, radius, directions, fractions)
    if not terrain_ok:
        return out
    px, py = pos
    # a base further than this from the start cannot touch the base on any candidate's sweep
    near = [
        (b.pos[0], b.pos[1], radius + b.radius)
        for b in bodies
        if b.id != mover_id and distance(pos, b.pos) <= allowance + radius + b.radius + 1e-6
    ]
    if not near:
        return list(terrain_ok)
    for dest in terrain_ok:
        dx, dy = dest
        lox, hix = min(px, dx) - radius, max(px, dx) + radius
        loy, hiy = min(py, dy) - radius, max(py, dy) + radius
        for bx, by, reach in near:
            if math.hypot(dx - bx, dy - by) < reach - EPS:
                break  # overlaps the base at the end
            if bx + reach < lox or bx - reach > hix or by + reach < loy or by - reach > hiy:
                continue
            if point_segment_distance((bx, by), pos, dest) < reach - EPS:
                break  # sweeps through the base
        else:
            out.append(dest)
    return out


def _terrain_candidates(
    bf: Battlefield,
    pos: Point,
    allowance: float,
    radius: float,
    directions: int,
    fractions: Sequence[float],
) -> tuple[Point, ...]:
    """:func:`move_candidates` ignoring the bases, memoised per battlefield (terrain only).

    Not memoised for a point with a zero coordinate (``-0.0 == 0.0`` as a key).
    """
    key = ("moves", pos, allowance, radius, directions, tuple(fractions))
    found: tuple[Point, ...] | None = bf.index.memo.get(key) if pos[0] and pos[1] else None
    if found is None:
        found = _terrain_candidates_of(bf, pos, allowance, radius, directions, fractions)
        if pos[0] and pos[1]:
            bf.index.memo.put(key, found)
    return found


def _terrain_candidates_of(
    bf: Battlefield, pos: Point, allowance: float, radius: float, directions: int, fractions: Any
) -> tuple[Point, ...]:
    out: list[Point] = []
    seen: set[tuple[int, int]] = set()
    if not bf.is_on_table(pos, radius):
        return ()
    px, py = pos
    lo = radius - 1e-9
    hi_x = bf.width - radius + 1e-9
    hi_y = bf.height - radius + 1e-9
    # a building further than this from the start cannot touch any candidate's sweep
    buildings = [
        r
        for r in bf.index.building_rects
        if point_rect_distance(pos, *r) <= allowance + radius + 1e-6
    ]
    for k in range(directions):
        u = unit(360.0 * k / directions)
        reach = _affordable(bf, pos, u, allowance, allowance)
        for frac in fractions:
            s = min(allowance * frac, reach)
            if s <= EPS:
                continue
            dest = (px + u[0] * s, py + u[1] * s)
            key = (round(dest[0] * 1e6), round(dest[1] * 1e6))
            if key in seen:
                continue
            seen.add(key)
            dx, dy = dest
            if not (lo <= dx <= hi_x and lo <= dy <= hi_y):
                continue  # bf.is_on_table(dest, radius), inlined
            lox, hix = min(px, dx) - radius, max(px, dx) + radius
            loy, hiy = min(py, dy) - radius, max(py, dy) + radius
            for x0, y0, x1, y1 in buildings:
                if point_rect_distance(dest, x0, y0, x1, y1) < radius - EPS:
                    break  # overlaps the building at the end
                if x1 < lox or x0 > hix or y1 < loy or y0 > hiy:
                    continue
                if segment_rect_distance(pos, dest, x0, y0, x1, y1) < radius - EPS:
                    break  # passes through it
            else:
                out.append(dest)
    return tuple(out)


def duck_back_destination(bf: Battlefield, pos: Point, cause: Point, **options: Any) -> Point:
    """Where a Duck Back takes the mech (§15.2.4.1, D9): :func:`duck_back_move`'s point."""
    return duck_back_move(bf, pos, cause, **options)[0]


def duck_back_move(
    bf: Battlefield,
    pos: Point,
    cause: Point,
    *,
    max_dist: float,
    speed: float,
    mover_id: int,
    cause_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
    cause_has_ews: bool = False,
    moved_this_turn: bool = False,
    step: float = 0.5,
    jump_jets: bool = False,
) -> tuple[Point, bool]:
    """Where a Duck Back result takes the mech, and whether it jumps there (§15.2.4.1, D9, D28).

    Candidates lie on a ``step`` lattice around ``pos`` within ``max_dist`` (the caller passes
    min(6", current Speed)); a candidate qualifies when a straight move there is legal and costs
    at most ``max_dist``, and there the mech is out of the cause's sight, or in cover against it
    (a mech that moves is "moving" for woods cover, D7/D12), or concealed. The nearest
    qualifying candidate wins; ties go to the one farther from the cause. The current position
    qualifies at distance 0 (a mech already hidden stays). With none, the mech moves up to
    ``speed`` straight away from the cause, stopping at obstacles and 0.5" (its base) from the
    edge. The caller turns it to face away from the cause.

    With ``jump_jets`` (operable jump jets, §10.6.1, D28) a candidate also qualifies when a
    straight jump reaches it: the jump ignores buildings, bases and terrain, costs its length
    and lands on a legal spot (``jump_landing``). The nearest candidate still wins, and a jump
    is made only when no walk reaches it. With no candidate, the straight run away from the
    cause jumps over the obstacle that stops it when that carries it further.
    """
    others = [b for b in bodies if b.id != mover_id]
    # Buildings and bases further than this from ``pos`` cannot touch a candidate or its sweep.
    span = float(max_dist) + radius + 1e-6
    near_rects = [r for r in bf.index.building_rects if point_rect_distance(pos, *r) <= span]
    near = [b for b in others if distance(pos, b.pos) <= span + b.radius]
    concealing = _sight_rects(bf, "concealing")
    cover_moving = _sight_rects(bf, "cover_moving")
    cover_still = _sight_rects(bf, "cover_stationary")
    best: Point | None = None
    best_len = math.inf
    best_away = -math.inf
    best_jump = False
    for dx, dy, length in lattice_offsets(float(max_dist), float(step)):
        if length > best_len + EPS:
            break
        c = (pos[0] + dx, pos[1] + dy)
        if not bf.is_on_table(c, radius):
            continue
        if any(point_rect_distance(c, *r) < radius - EPS for r in near_rects) or any(
            distance(c, b.pos) < radius + b.radius - EPS for b in near
        ):
            continue
        # The tests are pure and all must pass, so their order is free: the sight test,
        # which rejects most candidates in the open, comes before the path tests.
        moved = moved_this_turn or length > 0.0
        # concealed, or inside terrain that gives cover: in_cover holds whatever the lines
        if not _inside(concealing, c) and not _inside(cover_moving if moved else cover_still, c):
            s = sight(
                bf, cause, c, observer_id=cause_id, target_id=mover_id, bodies=bodies,
                observer_has_ews=cause_has_ews, base_radius=radius,
            )  # fmt: skip
            if s.visible and not in_cover(bf, s, c, target_moved=moved):
                continue
        walks = length <= 0.0 or _walkable(bf, pos, c, length, near_rects, near, radius, max_dist)
        if not walks and not (jump_jets and landing_ok(bf, c, length, near, radius)):
            continue
        away = distance(c, cause)
        if best is None or away > best_away + EPS:
            best, best_len, best_away, best_jump = c, length, away, not walks
    if best is not None:
        return best, best_jump
    u = unit(heading_to(cause, pos))
    reach = _affordable(bf, pos, u, speed, speed)
    run = _furthest_clear(bf, pos, u, reach, others, radius)
    leap = furthest_landing(bf, pos, u, speed, others, radius) if jump_jets else 0.0
    if leap > run + EPS:
        return (pos[0] + u[0] * leap, pos[1] + u[1] * leap), True
    return (pos[0] + u[0] * run, pos[1] + u[1] * run), False


def _walkable(
    bf: Battlefield,
    pos: Point,
    c: Point,
    length: float,
    near_rects: Sequence[tuple[float, float, float, float]],
    near: Sequence[Body],
    radius: float,
    max_dist: float,
) -> bool:
    """Whether a straight walk from ``pos`` to ``c`` is clear and costs at most ``max_dist``."""
    if not _straight_ok_near(pos, c, near_rects, near, radius):
        return False
    cost = move_cost(bf, pos, c)
    return cost <= max_dist + EPS or (
        cost == math.inf and length <= deep_water_allowance(max_dist) + EPS
    )


def nearest_edge_away(
    bf: Battlefield, pos: Point, enemy: Point | None, home_edge: str | None = None
) -> str:
    """The edge a Leave the Battlefield mech heads for (§15.2.4.2, ruling D10).

    The side's own edge when the mission names one; otherwise the nearest edge whose outward
    normal has a non-negative dot product with (mech - nearest enemy); ties in
    north, south, east, west order.
    """
    if home_edge is not None:
        if home_edge not in EDGES:
            raise StateError(f"home_edge: {home_edge!r} is not one of {list(EDGES)}")
        return home_edge
    gaps = {"north": bf.height - pos[1], "south": pos[1], "east": bf.width - pos[0], "west": pos[0]}
    best = ""
    best_gap = math.inf
    for edge in EDGES:
        n = _NORMALS[edge]
        if enemy is not None and n[0] * (pos[0] - enemy[0]) + n[1] * (pos[1] - enemy[1]) < -EPS:
            continue
        if gaps[edge] < best_gap - EPS:
            best, best_gap = edge, gaps[edge]
    return best


def move_toward_edge(
    bf: Battlefield,
    pos: Point,
    edge: str,
    dist: float,
    *,
    mover_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
) -> tuple[Point, bool]:
    """:func:`leave_move_to` on foot: ``(position, exited)``."""
    end, exited, _ = leave_move_to(
        bf, pos, edge, dist, mover_id=mover_id, bodies=bodies, radius=radius
    )
    return end, exited


def leave_move_to(
    bf: Battlefield,
    pos: Point,
    edge: str,
    dist: float,
    *,
    mover_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
    jump_jets: bool = False,
) -> tuple[Point, bool, bool]:
    """Move a leaving mech up to ``dist`` of allowance towards ``edge`` (§15.2.4.2, D10).

    Tries the straight heading first, then headings deflected by 20, 40, 60 and 80 degrees
    (left before right); takes the first that carries the centre over the edge, else the one
    that gains most ground towards it; when none gains ground (flat against a wide building)
    the mech stays put. Terrain costs apply. Returns ``(position, exited, jumped)``; ``exited``
    is True once the centre has crossed the edge (the mech leaves play).

    With ``jump_jets`` (§10.6.1, D28) each heading is also tried as one straight jump of up to
    ``dist`` (obstacles and terrain ignored, landing on a legal spot or beyond the edge); the
    jump is taken on a heading where it carries the mech further than walking.
    """
    if edge not in EDGES:
        raise StateError(f"edge: {edge!r} is not one of {list(EDGES)}")
    if _beyond(bf, pos, edge):
        return pos, True, False
    others = [b for b in bodies if b.id != mover_id]
    base = heading_to((0.0, 0.0), _NORMALS[edge])
    best, best_jump = pos, False
    best_gain = EPS
    for off in (0.0, 20.0, -20.0, 40.0, -40.0, 60.0, -60.0, 80.0, -80.0):
        u = unit(base + off)
        reach = _affordable(bf, pos, u, dist, dist)
        s = _furthest_clear(bf, pos, u, reach, others, radius, open_edge=edge)
        leap = furthest_landing(bf, pos, u, dist, others, radius, edge) if jump_jets else 0.0
        jumped = bool(leap > s + EPS)  # plain bool: positions may be numpy floats
        s = leap if jumped else s
        end = (pos[0] + u[0] * s, pos[1] + u[1] * s)
        if _beyond(bf, end, edge):
            return end, True, jumped
        gain = s * math.cos(math.radians(off))
        if gain > best_gain + EPS:
            best, best_gain, best_jump = end, gain, jumped
    return best, False, best_jump
