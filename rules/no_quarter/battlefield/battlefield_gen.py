"""Simple seeded battlefields and deployment positions for tests and training (§19, ruling D1).

This is not the campaign's 19.2-19.3.1 terrain generator; it scatters a few features so that
two forces can deploy along the south and north edges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.terrain import EDGES, Battlefield, Feature
from wargym.rules.no_quarter.battlefield.terrain_tables import TerrainConfig, terrain_config
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.no_quarter.sight_movement.geometry import Point, point_rect_distance

_KINDS = (Terrain.BUILDING, Terrain.WOODS, Terrain.HILL, Terrain.ROUGH, Terrain.BUILDING)
_STRIPS = (Terrain.ROAD, Terrain.RIVER, Terrain.DEEP_WATER)


def generate_battlefield(
    rng: np.random.Generator,
    *,
    width: float = 36.0,
    height: float = 36.0,
    n_features: int | None = None,
    night: bool = False,
    inclement_weather: bool = False,
) -> Battlefield:
    """A simple seeded scatter of terrain for tests and training (§19, not the 19.3 tables).

    Buildings (at most 19.4.1 size, random construction armour), woods, hills with crests and
    rough patches stay out of the 6" deployment strips along the south and north edges; at
    most one road (a 2" north-south strip), one river (an east-west strip) and one lake.
    Buildings never overlap other features (roads included) and keep 1" apart from them;
    a lake overlaps nothing.
    """
    cfg = terrain_config()
    n = int(rng.integers(6, 11)) if n_features is None else n_features
    if n < 0:
        raise StateError(f"n_features: {n} is negative")
    strip = min(6.0, height / 4.0)
    features: list[Feature] = []
    armors = sorted(cfg.building_armor.values())
    extras = [k for k in _STRIPS if rng.random() < 0.4]
    kinds = [
        *extras[:n],
        *(_KINDS[int(rng.integers(len(_KINDS)))] for _ in range(n - len(extras[:n]))),
    ]
    for kind in kinds:
        for _ in range(40):
            feature = _random_feature(rng, kind, width, height, strip, cfg, armors)
            if feature is not None and _fits(feature, features):
                features.append(feature)
                break
    return Battlefield(width, height, tuple(features), night, inclement_weather)


def _random_feature(
    rng: np.random.Generator,
    kind: Terrain,
    width: float,
    height: float,
    strip: float,
    cfg: TerrainConfig,
    armors: list[int],
) -> Feature | None:
    def r(lo: float, hi: float) -> float:
        return round(float(rng.uniform(lo, hi)), 1)

    band_lo, band_hi = strip, height - strip
    if kind is Terrain.ROAD:
        x = r(4.0, width - 4.0 - cfg.road_width)
        return Feature(kind, x, 0.0, x + cfg.road_width, height)
    if kind is Terrain.RIVER:
        w = r(1.5, 3.0)
        y = r(band_lo + 4.0, max(band_lo + 4.0, band_hi - 4.0 - w))
        return Feature(kind, 0.0, y, width, min(y + w, band_hi))
    if kind is Terrain.BUILDING:
        w = r(2.0, cfg.building_max_size[0])
        h = r(2.0, cfg.building_max_size[1])
    elif kind is Terrain.HILL:
        w, h = r(6.0, 12.0), r(3.0, 6.0)
        if rng.random() < 0.5:
            w, h = h, w
    elif kind is Terrain.DEEP_WATER:
        w, h = r(6.0, 9.0), r(6.0, 9.0)
    else:
        w, h = r(3.0, 9.0), r(3.0, 8.0)
    if w >= width or h >= band_hi - band_lo:
        return None
    x = r(0.0, width - w)
    y = r(band_lo, band_hi - h)
    armor = armors[int(rng.integers(len(armors)))] if kind is Terrain.BUILDING else 0
    return Feature(kind, x, y, min(x + w, width), min(y + h, band_hi), armor)


def _fits(new: Feature, placed: Sequence[Feature]) -> bool:
    for old in placed:
        kinds = (new.kind, old.kind)
        gap = 1.0 if Terrain.BUILDING in kinds else 0.0
        if new.kind is not old.kind and gap == 0.0 and Terrain.DEEP_WATER not in kinds:
            continue  # woods on a hill, a road through woods: allowed; lakes stand alone
        if (
            new.x0 < old.x1 + gap
            and old.x0 < new.x1 + gap
            and new.y0 < old.y1 + gap
            and old.y0 < new.y1 + gap
        ):
            return False
    return True


def deployment_points(
    bf: Battlefield,
    edge: str,
    n: int,
    rng: np.random.Generator,
    *,
    radius: float = 0.5,
    depth: float = 6.0,
) -> list[Point]:
    """``n`` legal, non-overlapping base positions within ``depth`` of an edge (ruling D1, D5).

    Positions keep the whole base on the table, clear of buildings and of each other, and out
    of deep water beyond the shore band. Raises StateError when ``n`` do not fit.
    """
    if edge not in EDGES:
        raise StateError(f"edge: {edge!r} is not one of {list(EDGES)}")
    lo, hi = radius, max(radius, depth)
    points: list[Point] = []

    def legal(p: Point) -> bool:
        if not bf.is_on_table(p, radius) or bf.in_deep_water(p):
            return False
        if any(point_rect_distance(p, *b.rect) < radius for b in bf.index.buildings):
            return False
        return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * radius for q in points)

    def place(a: float, b: float) -> Point:
        if edge == "south":
            return (a, b)
        if edge == "north":
            return (a, bf.height - b)
        if edge == "west":
            return (b, a)
        return (bf.width - b, a)

    along = bf.width if edge in ("north", "south") else bf.height
    for _ in range(200 * max(n, 1)):
        if len(points) >= n:
            break
        p = place(
            round(float(rng.uniform(radius, along - radius)), 2),
            round(float(rng.uniform(lo, hi)), 2),
        )
        if legal(p):
            points.append(p)
    steps = np.arange(radius, along - radius + 1e-9, 2 * radius)
    for b in np.arange(lo, hi + 1e-9, 2 * radius):
        for a in steps:
            if len(points) >= n:
                return points
            p = place(float(a), float(b))
            if legal(p):
                points.append(p)
    if len(points) < n:
        raise StateError(f"only {len(points)} of {n} bases fit within {depth} of the {edge} edge")
    return points
