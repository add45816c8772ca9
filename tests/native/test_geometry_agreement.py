"""The native No Quarter geometry gives the reference's doubles bit for bit (seeded inputs)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _random_inputs import coordinate, point  # noqa: E402

from wargym.native import _core  # noqa: E402
from wargym.rules.no_quarter.sight_movement import geometry  # noqa: E402

N = 4000
native = _core.no_quarter


def heading(rng: np.random.Generator) -> float:
    choice = rng.random()
    if choice < 0.2:
        return float(rng.choice([0.0, 45.0, 90.0, 135.0, 180.0, 270.0, 360.0, -90.0]))
    return float(rng.uniform(-720.0, 720.0))


def small(rng: np.random.Generator) -> float:
    return float(rng.choice([0.0, 1e-10, 1e-9, 2e-9, 0.25, 0.5, 1.0])) * float(rng.choice([1, -1]))


def near(rng: np.random.Generator, p: tuple[float, float]) -> tuple[float, float]:
    """A point close to ``p`` (coincident, within EPS, or a little away)."""
    return (p[0] + small(rng), p[1] + small(rng))


def case(rng: np.random.Generator, name: str) -> tuple[Any, ...]:
    a = point(rng)
    b = point(rng) if rng.random() < 0.8 else near(rng, a)
    c, d = point(rng), point(rng)
    x0, y0 = coordinate(rng, 0.0, 30.0), coordinate(rng, 0.0, 30.0)
    x1, y1 = x0 + coordinate(rng, 0.0, 8.0), y0 + coordinate(rng, 0.0, 8.0)
    if name in ("hypot",):
        return (float(rng.normal(0, 10.0 ** rng.integers(-5, 5))), float(rng.normal(0, 20)))
    if name in ("distance", "heading_to"):
        return (a, b)
    if name in ("normalize", "unit"):
        return (heading(rng),)
    if name == "angle_between":
        return (heading(rng), heading(rng))
    if name == "in_arc":
        return (a, heading(rng), b, float(rng.choice([90.0, 45.0, 180.0, 200.0, 10.0])))
    if name == "aspect":
        return (a, heading(rng), b, near(rng, b) if rng.random() < 0.5 else c)
    if name == "step_toward":
        return (a, b, float(rng.uniform(-2.0, 20.0)))
    if name == "path_length":
        return ([point(rng) for _ in range(int(rng.integers(0, 6)))],)
    if name == "point_along":
        return ([point(rng) for _ in range(int(rng.integers(1, 6)))], float(rng.uniform(-2, 60)))
    if name == "point_segment_distance":
        return (c, a, b)
    if name == "segment_hits_circle":
        return (a, b, c, float(rng.choice([0.5, 1.0, 3.0])))
    if name == "segments_intersect":
        if rng.random() < 0.3:  # collinear and touching cases
            return (a, b, b, (2 * b[0] - a[0], 2 * b[1] - a[1]))
        return (a, b, c, d)
    if name in ("clip_segment_to_rect", "point_rect_distance", "segment_rect_distance"):
        rect = (x0, y0, x1, y1)
        if name == "point_rect_distance":
            return (a, *rect)
        return (a, b, *rect)
    raise AssertionError(name)


NAMES = [
    "hypot", "distance", "normalize", "heading_to", "angle_between", "unit", "in_arc", "aspect",
    "step_toward", "path_length", "point_along", "point_segment_distance",
    "segment_hits_circle", "segments_intersect", "clip_segment_to_rect",
    "point_rect_distance", "segment_rect_distance",
]  # fmt: skip


def reference(name: str) -> Callable[..., Any]:
    return math.hypot if name == "hypot" else getattr(geometry, name)


def same(x: Any, y: Any) -> bool:
    """Exact equality, including the sign of zero and tuple/None shapes."""
    if isinstance(x, float) and isinstance(y, float):
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
    return type(x) is type(y) and x == y


@pytest.mark.parametrize("name", NAMES)
def test_native_geometry_matches_the_reference_exactly(name: str) -> None:
    rng = np.random.default_rng(NAMES.index(name) + 1600)
    ref, got = reference(name), getattr(native, name)
    for i in range(N):
        args = case(rng, name)
        expected, actual = ref(*args), got(*args)
        assert same(expected, actual), (
            f"{name}{args} (case {i}): python {expected!r}, C++ {actual!r}"
        )


def test_the_tolerances_are_the_reference_ones() -> None:
    assert native.EPS == geometry.EPS
    assert native.FLANK_BEARING == geometry._FLANK_BEARING
    assert native.REAR_BEARING == geometry._REAR_BEARING
