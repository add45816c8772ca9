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

from wargym.rules.no_quarter.geometry import (
    EPS,
    Point,
    angle_between,
    clip_segment_to_rect,
    heading_to,
    point_segment_distance,
    segments_intersect,
)
from wargym.rules.no_quarter.terrain import (
    Battlefield,
    Body,
    cover_config,
    sight_config,
)
from wargym.rules.no_quarter.vocab import Location, Terrain

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
    idx = bf.index
    ox, oy = observer
    tx, ty = target
    dx = tx - ox
    dy = ty - oy
    d = math.hypot(dx, dy)
    bearing = heading_to(target, observer)
    if idx.deep_core and (bf.in_deep_water(observer) or bf.in_deep_water(target)):
        return _hidden(d, bearing)
    same_wood = False
    for w in idx.woods:
        if w.x0 <= ox <= w.x1 and w.y0 <= oy <= w.y1 and w.x0 <= tx <= w.x1 and w.y0 <= ty <= w.y1:
            same_wood = True
            break
    if not observer_has_ews and (bf.night or bf.inclement_weather or same_wood):
        cfg = sight_config()
        limit = math.inf
        lit = bf.night and any(f.contains(target) for f in idx.well_lit)
        if bf.night and not lit:
            limit = cfg.night
        if bf.inclement_weather and not (lit and cfg.well_lit_lifts_weather):
            limit = min(limit, cfg.weather_night if bf.night else cfg.weather_day)
        if same_wood:
            limit = min(limit, cfg.inside_woods_night if bf.night else cfg.inside_woods_day)
        if d > limit + EPS:
            return _hidden(d, bearing)
    if d <= EPS:
        return Sight(True, 3, 0, 0, None, d, bearing)

    # Left of the target as it faces the observer: the facing (-dx, -dy) turned +90 degrees.
    lx = dy / d * base_radius
    ly = -dx / d * base_radius
    ends: tuple[Point, Point, Point] = ((tx, ty), (tx + lx, ty + ly), (tx - lx, ty - ly))
    bx0 = min(ox, tx - abs(lx))
    bx1 = max(ox, tx + abs(lx))
    by0 = min(oy, ty - abs(ly))
    by1 = max(oy, ty + abs(ly))
    flags = [0, 0, 0]

    for f in idx.buildings:
        if f.x1 < bx0 or f.x0 > bx1 or f.y1 < by0 or f.y0 > by1:
            continue
        for i in range(3):
            if not flags[i] & _BUILDING and _crosses(observer, ends[i], f.x0, f.y0, f.x1, f.y1):
                flags[i] |= _BUILDING

    for body in bodies:
        if body.id == observer_id or body.id == target_id:
            continue
        cx, cy = body.pos
        r = body.radius
        if cx + r < bx0 or cx - r > bx1 or cy + r < by0 or cy - r > by1:
            continue
        # the side lines never stray more than base_radius from the centre line
        gap = point_segment_distance(body.pos, observer, target)
        if gap >= r + base_radius:
            continue
        if gap < r - EPS:
            flags[0] |= _MECH
        for i in (1, 2):
            if point_segment_distance(body.pos, observer, ends[i]) < r - EPS:
                flags[i] |= _MECH

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

    if idx.woods:
        band = sight_config().woods_edge_band
        for w in idx.woods:
            if w.x1 < bx0 or w.x0 > bx1 or w.y1 < by0 or w.y0 > by1:
                continue
            obs_in = w.x0 <= ox <= w.x1 and w.y0 <= oy <= w.y1
            tgt_in = w.x0 <= tx <= w.x1 and w.y0 <= ty <= w.y1
            if obs_in and tgt_in:
                continue  # same wood: only the distance limit applies
            if obs_in or tgt_in:
                core = (w.x0 + band, w.y0 + band, w.x1 - band, w.y1 - band)
                if core[0] >= core[2] or core[1] >= core[3]:
                    continue  # a wood no deeper than its band: all of it is edge band
                for i in range(3):
                    if _crosses(observer, ends[i], *core):
                        flags[i] |= _OTHER
            else:
                for i in range(3):
                    if _crosses(observer, ends[i], w.x0, w.y0, w.x1, w.y1):
                        flags[i] |= _OTHER

    f0, f1, f2 = flags
    clear = (not f0) + (not f1) + (not f2)
    side: Literal["left", "right"] | None = None
    if clear and clear < 3:
        if f1 and not f2:
            side = "left"
        elif f2 and not f1:
            side = "right"
    return Sight(
        clear > 0,
        clear,
        (f0 & _BUILDING) + (f1 & _BUILDING) + (f2 & _BUILDING),
        ((f0 & _MECH) + (f1 & _MECH) + (f2 & _MECH)) // _MECH,
        side,
        d,
        bearing,
    )


def _crosses(a: Point, b: Point, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether segment ``ab`` runs through the rectangle for more than a touching point."""
    span = clip_segment_to_rect(a, b, x0, y0, x1, y1)
    if span is None:
        return False
    return (span[1] - span[0]) * math.hypot(b[0] - a[0], b[1] - a[1]) > 1e-7


@cache
def _concealing() -> frozenset[Terrain]:
    return cover_config().concealing()


def is_concealed(bf: Battlefield, pos: Point) -> bool:
    """Whether a mech at ``pos`` is concealed: inside woods or rough, moving or not (D12)."""
    kinds = _concealing()
    return any(f.kind in kinds and f.contains(pos) for f in bf.features)


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
    table = cfg.inside_moving if target_moved else cfg.inside_stationary
    return any(
        f.kind in table and "cover" in table[f.kind] and f.contains(target) for f in bf.features
    )


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
