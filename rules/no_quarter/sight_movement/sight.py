"""Line of sight, cover, concealment and protected locations (§16.1.1, §17.1-17.2.1, D11-D13).

:func:`sight` is the engine's hot path: it is called for every observer/target pair many times
per turn, so it works on plain floats, rejects features by bounding box before any exact test,
and never allocates more than the result.

Ruling D11 (three lines): from the observer's centre to the target's centre and to the two
points of the target's base perpendicular to that line. A line is blocked by

* a building rectangle it crosses (touching a corner does not block);
* the base of any mech other than the observer and the target (grazing does not block);
* a hill crest it crosses, unless the observer or the target stands within 1" of that crest
  (campaign ruling 19.6);
* woods (campaign ruling 19.10): when both centres are inside the same wood, only the 12"/6"
  limit applies; otherwise the line is blocked by a wood that holds neither centre, and by the
  interior beyond the 1" edge band of a wood that holds one of them (a mech in the band looks
  out through its own band; the line may leave it obliquely).

Deep water beyond the 2" shore band hides a mech completely (it neither sees nor is seen), and
the night / weather / woods limits apply to a viewer without a functioning EWS; at night a
target in a well-lit feature is seen normally (19.11: this lifts the night limit only).
LOS exists when at least one line is clear. Arcs are not checked here (the engine does).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Body,
    _Index,
    cover_config,
    sight_config,
)
from wargym.rules.no_quarter.forces.vocab import Location, Terrain
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    angle_between,
    heading_to,
    point_segment_distance,
    segments_intersect,
)

_BUILDING = 1
_MECH = 2
_OTHER = 4


@dataclass(frozen=True, slots=True)
class Sight:
    """The outcome of the three-line LOS test between an observer and a target (ruling D11)."""

    visible: bool
    """At least one of the three lines is clear (and no limit or submersion applies)."""
    clear_lines: int
    """Lines with no blocker, 0-3."""
    building_blocked_lines: int
    """Lines crossing a building (a line may also count as mech-blocked)."""
    mech_blocked_lines: int
    """Lines crossing another mech's base."""
    blocked_side: Literal["left", "right"] | None
    """Side of the target, as it would stand facing the observer, whose line is blocked while
    the other side line is clear; None when both or neither side line is blocked."""
    distance: float
    """Centre-to-centre distance in inches."""
    bearing_to_observer: float = 0.0
    """Heading from the target to the observer, used to turn ``blocked_side`` into an arm."""


def _hidden(d: float, bearing: float) -> Sight:
    return Sight(False, 0, 0, 0, None, d, bearing)


class _Line:
    """What a sight line owes to the terrain alone, plus the results built from it.

    Distance, bearing, submerged, same wood, target in a well-lit area, the three lines' terrain
    flags, the side-line ends and the bounding box; ``code`` and ``last`` keep the last
    :class:`Sight` built and its final line flags (a Sight is immutable, so it can be shared).
    """

    __slots__ = (
        "bearing", "bx0", "bx1", "by0", "by1", "code", "d", "f0", "f1", "f2", "hidden", "last",
        "left", "lit", "right", "same_wood", "submerged",
    )  # fmt: skip

    def __init__(self, bf: Battlefield, observer: Point, target: Point, base_radius: float):
        idx = bf.index
        ox, oy = observer
        tx, ty = target
        dx = tx - ox
        dy = ty - oy
        d = math.hypot(dx, dy)
        self.d = d
        self.bearing = heading_to(target, observer)
        self.submerged = bool(idx.deep_core) and (
            bf.in_deep_water(observer) or bf.in_deep_water(target)
        )
        same_wood = False
        for x0, y0, x1, y1 in idx.wood_rects:
            if x0 <= ox <= x1 and y0 <= oy <= y1 and x0 <= tx <= x1 and y0 <= ty <= y1:
                same_wood = True
                break
        self.same_wood = same_wood
        self.lit = bool(idx.well_lit) and any(f.contains(target) for f in idx.well_lit)
        self.hidden: Sight | None = None
        self.code = -1
        self.last: Sight | None = None
        self.f0 = self.f1 = self.f2 = 0
        self.left = self.right = target
        self.bx0 = self.bx1 = ox
        self.by0 = self.by1 = oy
        if not self.submerged and d > EPS:
            self._lines(idx, observer, target, base_radius)

    def _lines(self, idx: _Index, observer: Point, target: Point, base_radius: float) -> None:
        """The three lines' terrain blockers (ruling D11, campaign rulings 19.6, 19.10)."""
        ox, oy = observer
        tx, ty = target
        dx = tx - ox
        dy = ty - oy
        d = self.d
        # Left of the target as it faces the observer: the facing (-dx, -dy) turned +90 degrees.
        lx = dy / d * base_radius
        ly = -dx / d * base_radius
        left = self.left = (tx + lx, ty + ly)
        right = self.right = (tx - lx, ty - ly)
        bx0 = self.bx0 = min(ox, tx - abs(lx))
        bx1 = self.bx1 = max(ox, tx + abs(lx))
        by0 = self.by0 = min(oy, ty - abs(ly))
        by1 = self.by1 = max(oy, ty + abs(ly))
        ends: tuple[Point, Point, Point] = (target, left, right)
        flags = [0, 0, 0]

        for x0, y0, x1, y1 in idx.building_rects:
            if x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1:
                continue
            for i in range(3):
                if not flags[i] & _BUILDING:
                    ex, ey = ends[i]
                    if _crosses_rect(ox, oy, ex, ey, x0, y0, x1, y1):
                        flags[i] |= _BUILDING

        if idx.hills:
            band = sight_config().hill_crest_band
            for h in idx.hills:
                crest = h.crest
                if crest is None or h.x1 < bx0 or h.x0 > bx1 or h.y1 < by0 or h.y0 > by1:
                    continue
                a, b = crest
                if (
                    point_segment_distance(observer, a, b) <= band + EPS
                    or point_segment_distance(target, a, b) <= band + EPS
                ):
                    continue
                for i in range(3):
                    if segments_intersect(observer, ends[i], a, b):
                        flags[i] |= _OTHER

        if idx.wood_rects:
            band = sight_config().woods_edge_band
            for x0, y0, x1, y1 in idx.wood_rects:
                if x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1:
                    continue
                obs_in = x0 <= ox <= x1 and y0 <= oy <= y1
                tgt_in = x0 <= tx <= x1 and y0 <= ty <= y1
                if obs_in and tgt_in:
                    continue  # same wood: only the distance limit applies
                if obs_in or tgt_in:
                    cx0, cy0, cx1, cy1 = (x0 + band, y0 + band, x1 - band, y1 - band)
                    if cx0 >= cx1 or cy0 >= cy1:
                        continue  # a wood no deeper than its band: all of it is edge band
                else:
                    cx0, cy0, cx1, cy1 = x0, y0, x1, y1
                for i in range(3):
                    ex, ey = ends[i]
                    if _crosses_rect(ox, oy, ex, ey, cx0, cy0, cx1, cy1):
                        flags[i] |= _OTHER
        self.f0, self.f1, self.f2 = flags

    def hidden_sight(self) -> Sight:
        """The no-LOS result at this distance and bearing."""
        found = self.hidden
        if found is None:
            found = self.hidden = _hidden(self.d, self.bearing)
        return found

    def result(self, f0: int, f1: int, f2: int) -> Sight:
        """The Sight for the final line flags (terrain and bases)."""
        code = f0 | f1 << 3 | f2 << 6
        found = self.last
        if found is None or code != self.code:
            clear = (not f0) + (not f1) + (not f2)
            side: Literal["left", "right"] | None = None
            if clear and clear < 3:
                if f1 and not f2:
                    side = "left"
                elif f2 and not f1:
                    side = "right"
            found = self.last = Sight(
                clear > 0,
                clear,
                (f0 & _BUILDING) + (f1 & _BUILDING) + (f2 & _BUILDING),
                ((f0 & _MECH) + (f1 & _MECH) + (f2 & _MECH)) // _MECH,
                side,
                self.d,
                self.bearing,
            )
            self.code = code
        return found


def sight(
    bf: Battlefield,
    observer: Point,
    target: Point,
    *,
    observer_id: int = -1,
    target_id: int = -1,
    bodies: Sequence[Body] = (),
    observer_has_ews: bool = False,
    base_radius: float = 0.5,
) -> Sight:
    """Three-line line of sight from ``observer`` to ``target`` (§16.1.1, §17.1, ruling D11).

    ``bodies`` are the bases on the table; the ones with ``observer_id`` or ``target_id`` are
    ignored. ``base_radius`` is the target's base radius (ruling D1).
    """
    # The terrain part of a line is memoised per battlefield. Points with a zero coordinate
    # are not memoised: -0.0 == 0.0 as a key, but the bearing could differ in sign of zero.
    memo = bf.index.memo
    key = ("sight", observer, target, base_radius)
    line: _Line | None = memo.get(key)
    if line is None:
        line = _Line(bf, observer, target, base_radius)
        if observer[0] and observer[1] and target[0] and target[1]:
            if len(memo) >= memo.LIMIT:
                memo.clear()
            memo[key] = line
    if line.submerged:
        return line.hidden_sight()
    d = line.d
    if not observer_has_ews and (bf.night or bf.inclement_weather or line.same_wood):
        cfg = sight_config()
        limit = math.inf
        lit = bf.night and line.lit
        if bf.night and not lit:
            limit = cfg.night
        if bf.inclement_weather and not (lit and cfg.well_lit_lifts_weather):
            limit = min(limit, cfg.weather_night if bf.night else cfg.weather_day)
        if line.same_wood:
            limit = min(limit, cfg.inside_woods_night if bf.night else cfg.inside_woods_day)
        if d > limit + EPS:
            return line.hidden_sight()
    if d <= EPS:
        return line.result(0, 0, 0)

    f0, f1, f2 = line.f0, line.f1, line.f2
    if bodies:
        ox, oy = observer
        tx, ty = target
        bx0, by0, bx1, by1 = line.bx0, line.by0, line.bx1, line.by1
        for body in bodies:
            bid = body.id
            if bid in (observer_id, target_id):
                continue
            cx, cy = body.pos
            r = body.radius
            if cx + r < bx0 or cx - r > bx1 or cy + r < by0 or cy - r > by1:
                continue
            # the side lines never stray more than base_radius from the centre line
            gap = _gap(cx, cy, ox, oy, tx, ty)
            if gap >= r + base_radius:
                continue
            if gap < r - EPS:
                f0 |= _MECH
            lx, ly = line.left
            if _gap(cx, cy, ox, oy, lx, ly) < r - EPS:
                f1 |= _MECH
            rx, ry = line.right
            if _gap(cx, cy, ox, oy, rx, ry) < r - EPS:
                f2 |= _MECH
    return line.result(f0, f1, f2)


def _gap(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """:func:`~.geometry.point_segment_distance` on plain floats."""
    dx = bx - ax
    dy = by - ay
    len2 = dx * dx + dy * dy
    if len2 <= 0.0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / len2
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _crosses(a: Point, b: Point, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether segment ``ab`` runs through the rectangle for more than a touching point."""
    return _crosses_rect(a[0], a[1], b[0], b[1], x0, y0, x1, y1)


def _crosses_rect(
    ax: float, ay: float, bx: float, by: float, x0: float, y0: float, x1: float, y1: float
) -> bool:
    """:func:`_crosses` on plain floats.

    Liang-Barsky clipping exactly as :func:`~.geometry.clip_segment_to_rect`
    does it (same operations in the same order, so the same floats), unrolled on plain floats
    because every line of sight runs it per building and body: 346 ns a call against 743 ns
    through ``clip_segment_to_rect`` (measured on 20,000 random segments and rectangles;
    ``tests/rules/no_quarter`` compares the two).
    """
    t0 = 0.0
    t1 = 1.0
    dx = bx - ax
    dy = by - ay
    p = -dx
    q = ax - x0
    if p == 0.0:
        if q < 0.0:
            return False
    else:
        r = q / p
        if p < 0.0:
            if r > t1:
                return False
            if r > t0:
                t0 = r
        else:
            if r < t0:
                return False
            if r < t1:
                t1 = r
    p = dx
    q = x1 - ax
    if p == 0.0:
        if q < 0.0:
            return False
    else:
        r = q / p
        if p < 0.0:
            if r > t1:
                return False
            if r > t0:
                t0 = r
        else:
            if r < t0:
                return False
            if r < t1:
                t1 = r
    p = -dy
    q = ay - y0
    if p == 0.0:
        if q < 0.0:
            return False
    else:
        r = q / p
        if p < 0.0:
            if r > t1:
                return False
            if r > t0:
                t0 = r
        else:
            if r < t0:
                return False
            if r < t1:
                t1 = r
    p = dy
    q = y1 - ay
    if p == 0.0:
        if q < 0.0:
            return False
    else:
        r = q / p
        if p < 0.0:
            if r > t1:
                return False
            if r > t0:
                t0 = r
        else:
            if r < t0:
                return False
            if r < t1:
                t1 = r
    return (t1 - t0) * math.hypot(dx, dy) > 1e-7


@cache
def _concealing() -> frozenset[Terrain]:
    return cover_config().concealing()


def _rects(bf: Battlefield, what: str) -> tuple[tuple[float, float, float, float], ...]:
    """Rectangles of the features that conceal, or give cover (memoised per battlefield).

    ``what`` is ``"concealing"``, ``"cover_moving"`` (cover for a mech that moved) or
    ``"cover_stationary"``.
    """
    key = ("rects", what)
    memo = bf.index.memo
    found: tuple[tuple[float, float, float, float], ...] | None = memo.get(key)
    if found is None:
        if what == "concealing":
            kinds = _concealing()
            found = tuple(f.rect for f in bf.features if f.kind in kinds)
        else:
            cfg = cover_config()
            table = cfg.inside_moving if what == "cover_moving" else cfg.inside_stationary
            found = tuple(
                f.rect for f in bf.features if f.kind in table and "cover" in table[f.kind]
            )
        memo.put(key, found)
    return found


def _inside(rects: tuple[tuple[float, float, float, float], ...], pos: Point) -> bool:
    x, y = pos
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in rects)


def concealing_rects(bf: Battlefield) -> tuple[tuple[float, float, float, float], ...]:
    """``(x0, y0, x1, y1)`` of the features that conceal a mech inside them (D12, memoised)."""
    return _rects(bf, "concealing")


def is_concealed(bf: Battlefield, pos: Point) -> bool:
    """Whether a mech at ``pos`` is concealed: inside woods or rough, moving or not (D12)."""
    return _inside(_rects(bf, "concealing"), pos)


def in_cover(bf: Battlefield, s: Sight, target: Point, *, target_moved: bool) -> bool:
    """Whether the target is in cover against the observer of ``s`` (§17.2, ruling D12).

    (a) LOS exists but at least one line is blocked by a building or a mech (partial
    obscuration, "behind buildings / behind mechs"); or (b) the target stands inside terrain
    that gives cover for its movement this turn (inside woods and stationary, table 17.2).
    """
    cfg = cover_config()
    if s.visible and (
        (cfg.behind_building_cover and s.building_blocked_lines > 0)
        or (cfg.behind_mech_cover and s.mech_blocked_lines > 0)
    ):
        return True
    return _inside(_rects(bf, "cover_moving" if target_moved else "cover_stationary"), target)


def blocked_arm(target_heading: float, bearing_to_observer: float, side: str) -> Location:
    """The arm on the blocked side of a partly obscured target (§17.2.1, ruling D13).

    ``side`` is seen from the target as if it faced the observer; the arm is the one whose
    side of the target's own body (from its leg heading) points that way. A target standing
    exactly side-on has no nearer arm; then the arm turned away from the observer is taken.
    """
    blocked = bearing_to_observer + (90.0 if side == "left" else -90.0)
    own_left = target_heading + 90.0
    dot = math.cos(math.radians(angle_between(blocked, own_left)))
    if dot > 1e-9:
        return Location.ARM_L
    if dot < -1e-9:
        return Location.ARM_R
    away = math.cos(math.radians(angle_between(own_left, bearing_to_observer)))
    return Location.ARM_L if away < 0.0 else Location.ARM_R


def protected_locations(
    bf: Battlefield, s: Sight, target: Point, target_heading: float
) -> frozenset[Location]:
    """Locations a hit cannot damage on this target from this observer (§17.2.1, ruling D13).

    Partial obscuration by a building protects gut, both legs and the arm on the blocked side
    (see :func:`blocked_arm`; no arm when ``s.blocked_side`` is None). Within 1" of a hill crest,
    in a river, or in the 2" shore band of deep water: gut and both legs. A mech on a road
    (a bridge, campaign ruling 19.7) is not in the water.
    """
    cfg = cover_config()
    out: set[Location] = set()
    if s.visible and s.building_blocked_lines > 0:
        out |= cfg.partial_building
        if cfg.blocked_side_arm and s.blocked_side is not None:
            out.add(blocked_arm(target_heading, s.bearing_to_observer, s.blocked_side))
    idx = bf.index
    if idx.hills:
        band = sight_config().hill_crest_band
        for h in idx.hills:
            if h.crest is not None and point_segment_distance(target, *h.crest) <= band + EPS:
                out |= cfg.hill_crest_band
                break
    if (idx.rivers or idx.deep) and not bf.on_road(target):
        if any(f.contains(target) for f in idx.rivers):
            out |= cfg.river
        if any(f.contains(target) for f in idx.deep) and not bf.in_deep_water(target):
            out |= cfg.deep_water_shore_band
    return frozenset(out)
