"""The native three-line LOS agrees with rules/no_quarter/sight_movement/sight.py on random inputs.

Every field of :class:`~.sight.Sight` must be equal (floats bit for
bit): random battlefields (generated and hand-made: buildings, woods, hills with crests, deep
water, well-lit features; day, night, inclement weather), random bases, observers and targets
on and off features, with and without EWS, several base radii.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _random_inputs import battlefield, bodies, near_feature_point, point  # noqa: E402

from wargym.native import no_quarter as native  # noqa: E402
from wargym.rules.no_quarter.battlefield.terrain_tables import sight_config  # noqa: E402
from wargym.rules.no_quarter.sight_movement import sight as reference  # noqa: E402

BATTLEFIELDS = 120
PAIRS = 60  # per battlefield: 7,200 sight lines


def agree(seed: int, battlefields: int, pairs: int) -> int:
    """Compare both engines; returns how many lines were visible (to show both outcomes ran)."""
    rng = np.random.default_rng(seed)
    visible = 0
    for b in range(battlefields):
        bf = battlefield(rng)
        terrain = native.sight_terrain(bf)
        bases = bodies(rng, int(rng.integers(0, 10)))
        packed = native.native_bodies(bases)
        for i in range(pairs):
            observer = near_feature_point(rng, bf) if rng.random() < 0.4 else point(rng)
            target = near_feature_point(rng, bf) if rng.random() < 0.4 else point(rng)
            if rng.random() < 0.03:
                target = observer
            ids = [-1, *(body.id for body in bases)]
            observer_id = int(rng.choice(ids))
            target_id = int(rng.choice(ids))
            ews = bool(rng.random() < 0.3)
            radius = float(rng.choice([0.5, 0.75, 1.0]))
            expected = reference.sight(
                bf, observer, target, observer_id=observer_id, target_id=target_id,
                bodies=bases, observer_has_ews=ews, base_radius=radius,
            )  # fmt: skip
            got = native.sight(
                terrain, observer, target, observer_id=observer_id, target_id=target_id,
                bodies=packed, observer_has_ews=ews, base_radius=radius,
            )  # fmt: skip
            assert dataclasses.astuple(got) == dataclasses.astuple(expected), (
                f"seed {seed}, battlefield {b}, line {i}: {observer} -> {target} "
                f"(ids {observer_id}/{target_id}, ews {ews}, radius {radius}, "
                f"night {bf.night}, weather {bf.inclement_weather}):\n"
                f"python {expected}\nC++    {got}"
            )
            visible += expected.visible
    return visible


def test_native_sight_matches_the_reference_on_random_lines() -> None:
    visible = agree(1616, BATTLEFIELDS, PAIRS)
    assert 0 < visible < BATTLEFIELDS * PAIRS


def test_the_native_sight_reads_the_bands_and_limits_it_is_handed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Change the YAML's numbers (as a new table would): both engines follow, none is built in."""
    changed = dataclasses.replace(
        sight_config(), night=5.0, inside_woods_day=3.0, inside_woods_night=2.0,
        weather_day=7.0, weather_night=4.0, woods_edge_band=2.5, hill_crest_band=2.0,
        well_lit_lifts_weather=not sight_config().well_lit_lifts_weather,
    )  # fmt: skip
    monkeypatch.setattr(reference, "sight_config", lambda: changed)
    original = native.sight_terrain
    monkeypatch.setattr(native, "sight_terrain", lambda bf: original(bf, changed))
    agree(1617, 40, 50)


def test_the_batched_sight_gives_the_single_call_answers() -> None:
    rng = np.random.default_rng(1618)
    sides = {-1: None, 0: "left", 1: "right"}
    for _ in range(20):
        bf = battlefield(rng)
        terrain = native.sight_terrain(bf)
        bases = bodies(rng, int(rng.integers(0, 10)))
        packed = native.native_bodies(bases)
        rows = [(*point(rng), *point(rng)) for _ in range(100)]
        ids = rng.integers(-1, len(bases), size=(100, 2))
        got = native.core.sight_many(terrain, np.array(rows), ids, 0.75, packed, True)
        assert got.shape == (100, 7)
        for row, (x0, y0, x1, y1), (oid, tid) in zip(got, rows, ids, strict=True):
            expected = reference.sight(
                bf, (x0, y0), (x1, y1), observer_id=int(oid), target_id=int(tid), bodies=bases,
                observer_has_ews=True, base_radius=0.75,
            )  # fmt: skip
            assert (
                bool(row[0]), int(row[1]), int(row[2]), int(row[3]), sides[int(row[4])],
                float(row[5]), float(row[6]),
            ) == dataclasses.astuple(expected)  # fmt: skip
