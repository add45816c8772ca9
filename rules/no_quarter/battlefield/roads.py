"""Movement cost along a segment, roads and bridges (§19.8, §19.7 rulings, ruling D5).

Every inch inside half-speed terrain (woods, rough, river, the 2" shore band of deep water)
costs 2" of allowance; penalties never stack. Roads (campaign ruling 19.8): a Mech is "on the
road" only when its centre stays on the road for its **whole move**; then the road's inches
cost 1" whatever lies around it. A move that leaves (or joins) the road pays the terrain's
penalty for all of it, road inches included. Bridges (ruling 19.7): a road across water is a
bridge and a Mech on it is not in the water, so the water's penalty never applies under a road
(nor deep water's 2"-per-turn limit). ``terrain.yaml`` ``road.speed``: ``whole_move`` (the
ruling) or ``per_inch`` (every inch on a road costs 1", the engine's former reading).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from wargym.rules.no_quarter.battlefield.terrain import Battlefield, terrain_config
from wargym.rules.no_quarter.sight_movement.geometry import Point, clip_segment_to_rect, distance

Span = tuple[float, float, float]
"""``(t0, t1, cost per inch)`` over a parameter interval of a segment."""

_TINY = 1e-9


def _road_spans(bf: Battlefield, a: Point, b: Point, length: float) -> list[tuple[float, float]]:
    spans = []
    for f in bf.index.roads:
        span = clip_segment_to_rect(a, b, f.x0, f.y0, f.x1, f.y1)
        if span is not None and (span[1] - span[0]) * length > _TINY:
            spans.append(span)
    return spans


def segment_on_road(bf: Battlefield, a: Point, b: Point) -> bool:
    """Whether every point of segment ``ab`` lies on a road (roads may join end to end)."""
    length = distance(a, b)
    if length <= 0.0:
        return bf.on_road(a)
    return _covers(_road_spans(bf, a, b, length), length)


def _covers(spans: list[tuple[float, float]], length: float) -> bool:
    covered = 0.0
    for t0, t1 in sorted(spans):
        if (t0 - covered) * length > 1e-6:
            return False
        covered = max(covered, t1)
    return (1.0 - covered) * length <= 1e-6


def path_on_road(bf: Battlefield, path: Sequence[Point], jump_segment: int | None = None) -> bool:
    """Whether the move's centre stays on a road for the whole path (ruling 19.8)."""
    return all(
        segment_on_road(bf, path[i], path[i + 1]) for i in range(len(path) - 1) if i != jump_segment
    )


def road_speed(bf: Battlefield, a: Point, b: Point) -> bool:
    """Whether the road lifts land penalties on a one-segment move ``ab`` (see the module)."""
    return terrain_config().road_per_inch or segment_on_road(bf, a, b)


def profile(bf: Battlefield, a: Point, b: Point, on_road: bool | None = None) -> list[Span]:
    """Cost per inch along segment ``ab`` as parameter spans covering ``[0, 1]`` (ruling D5).

    ``on_road``: whether this segment belongs to a move wholly on the road (None: judge the
    segment alone, :func:`road_speed`).
    """
    idx = bf.index
    if not idx.half_speed:
        return [(0.0, 1.0, 1.0)]
    length = distance(a, b)
    lox, hix = min(a[0], b[0]), max(a[0], b[0])
    loy, hiy = min(a[1], b[1]), max(a[1], b[1])
    water = {f.rect for f in (*idx.rivers, *idx.deep)}
    pens: list[tuple[float, float, float, bool]] = []
    for rect, rate in idx.half_speed:
        if rect[2] < lox or rect[0] > hix or rect[3] < loy or rect[1] > hiy:
            continue
        span = clip_segment_to_rect(a, b, *rect)
        if span is not None and (span[1] - span[0]) * length > _TINY:
            pens.append((span[0], span[1], rate, rect in water))
    if not pens:
        return [(0.0, 1.0, 1.0)]
    for core in idx.deep_core:
        span = clip_segment_to_rect(a, b, *core)
        if span is not None and (span[1] - span[0]) * length > _TINY:
            pens.append((span[0], span[1], math.inf, True))
    roads = _road_spans(bf, a, b, length)
    if on_road is None:
        on_road = terrain_config().road_per_inch or _covers(roads, length)
    speed = on_road
    cuts = sorted({0.0, 1.0, *(p[0] for p in pens), *(p[1] for p in pens)} | _ends(roads))
    out: list[Span] = []
    for p, q in zip(cuts, cuts[1:], strict=False):
        if q - p <= 0.0:
            continue
        m = (p + q) / 2.0
        under_road = any(r0 <= m <= r1 for r0, r1 in roads)
        rate = 1.0
        for t0, t1, pen, wet in pens:
            lifted = under_road and (wet or speed)  # a bridge always; land only on a road move
            if t0 <= m <= t1 and pen > rate and not lifted:
                rate = pen
        if out and out[-1][2] == rate:
            out[-1] = (out[-1][0], q, rate)
        else:
            out.append((p, q, rate))
    return out


def _ends(spans: list[tuple[float, float]]) -> set[float]:
    return {t for span in spans for t in span}


__all__ = ["Span", "path_on_road", "profile", "road_speed", "segment_on_road"]
