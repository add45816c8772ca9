"""Seeded random inputs shared by the native agreement tests and benchmarks/native_los.py."""

from __future__ import annotations

import numpy as np

from wargym.rules.no_quarter.battlefield.battlefield_gen import generate_battlefield
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body, Feature
from wargym.rules.no_quarter.battlefield.terrain_tables import terrain_config
from wargym.rules.no_quarter.forces.vocab import Terrain

Point = tuple[float, float]


def coordinate(rng: np.random.Generator, low: float, high: float) -> float:
    """A coordinate: mostly uniform, sometimes on a half-inch grid (ties, boundaries)."""
    if rng.random() < 0.25:
        return float(np.round(rng.uniform(low, high) * 2.0) / 2.0)
    return float(rng.uniform(low, high))


def point(rng: np.random.Generator, size: float = 36.0) -> Point:
    return (coordinate(rng, 0.0, size), coordinate(rng, 0.0, size))


def random_features(rng: np.random.Generator, size: float = 36.0) -> list[Feature]:
    """Buildings, woods, hills with crests, deep water and rough, some of them well lit."""
    max_w, max_h = terrain_config().building_max_size
    out: list[Feature] = []
    kinds = [Terrain.BUILDING, Terrain.WOODS, Terrain.HILL, Terrain.DEEP_WATER, Terrain.ROUGH]
    for _ in range(int(rng.integers(0, 12))):
        kind = kinds[int(rng.integers(len(kinds)))]
        w_max, h_max = (max_w, max_h) if kind is Terrain.BUILDING else (14.0, 14.0)
        w = coordinate(rng, 0.5, w_max) or 0.5
        h = coordinate(rng, 0.5, h_max) or 0.5
        x0 = coordinate(rng, 0.0, size - w)
        y0 = coordinate(rng, 0.0, size - h)
        crest = None
        if kind is Terrain.HILL and rng.random() < 0.5:
            crest = (
                (float(rng.uniform(x0, x0 + w)), float(rng.uniform(y0, y0 + h))),
                (float(rng.uniform(x0, x0 + w)), float(rng.uniform(y0, y0 + h))),
            )
        lit = bool(rng.random() < 0.2)
        out.append(Feature(kind, x0, y0, x0 + w, y0 + h, crest=crest, well_lit=lit))
    return out


def battlefield(rng: np.random.Generator) -> Battlefield:
    """A generated or a hand-made random battlefield, by day or night, in any weather."""
    night = bool(rng.random() < 0.4)
    weather = bool(rng.random() < 0.4)
    if rng.random() < 0.5:
        bf = generate_battlefield(rng)
        return Battlefield(bf.width, bf.height, bf.features, night, weather)
    return Battlefield(36.0, 36.0, tuple(random_features(rng)), night, weather)


def bodies(rng: np.random.Generator, n: int, size: float = 36.0) -> list[Body]:
    return [Body(i, point(rng, size), float(rng.choice([0.5, 0.75, 1.0]))) for i in range(n)]


def near_feature_point(rng: np.random.Generator, bf: Battlefield) -> Point:
    """A point on, just inside or just outside a feature's edge or band (boundary cases)."""
    if not bf.features:
        return point(rng)
    f = bf.features[int(rng.integers(len(bf.features)))]
    offset = float(rng.choice([0.0, 1e-10, -1e-10, 0.5, 1.0, 1.0 + 1e-12, 2.0, -0.25]))
    x = float(rng.choice([f.x0 + offset, f.x1 - offset, rng.uniform(f.x0, f.x1)]))
    y = float(rng.choice([f.y0 + offset, f.y1 - offset, rng.uniform(f.y0, f.y1)]))
    return (x, y)
