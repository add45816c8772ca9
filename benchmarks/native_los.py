"""Micro-benchmark: native vs reference No Quarter line of sight, timed in the same run.

Run: .venv/bin/python benchmarks/native_los.py [--seconds 2] [--rounds 3]

Both engines answer the same seeded sight lines on generated battlefields with 12 bases (as
benchmarks/nq_los_bench.py sets them up). Three native figures:

* ``native tuple``: ``wargym.native._core.no_quarter.sight`` (returns the Sight fields);
* ``native Sight``: ``wargym.native.no_quarter.sight`` (builds the reference's Sight object);
* ``native batched``: ``sight_many`` over all of a battlefield's lines in one call (GIL released);
* the reference ``wargym.rules.no_quarter.sight_movement.sight.sight``, whose per-battlefield
  memo of terrain lines is kept warm by the repeated pairs ("repeat") or defeated by fresh
  pairs ("fresh").

Every native answer is checked against the reference's before timing starts.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable

import numpy as np

from wargym.native import no_quarter as native
from wargym.rules.no_quarter.battlefield.battlefield_gen import (
    deployment_points,
    generate_battlefield,
)
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.sight_movement.sight import sight


def workload(seed: int, battlefields: int) -> list[tuple[Battlefield, list[Body], list[tuple]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(battlefields):
        bf = generate_battlefield(rng)
        points = deployment_points(bf, "south", 6, rng) + deployment_points(bf, "north", 6, rng)
        bodies = [Body(i, p) for i, p in enumerate(points)]
        fresh = [
            (tuple(rng.uniform(0, 36, 2)), tuple(rng.uniform(0, 36, 2)), -1, -1)
            for _ in range(2000)
        ]
        pairs = [(a.pos, b.pos, a.id, b.id) for a in bodies for b in bodies if a.id != b.id]
        out.append((bf, bodies, pairs + fresh))
    return out


def rate(fn: Callable[[], int], seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        calls += fn()
    return calls / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    work = workload(2024, 4)
    prepared = []
    for bf, bodies, lines in work:
        terrain = native.sight_terrain(bf)
        packed = native.native_bodies(bodies)
        for o, t, oid, tid in lines:
            a = sight(bf, o, t, observer_id=oid, target_id=tid, bodies=bodies, base_radius=0.5)
            b = native.sight(
                terrain, o, t, observer_id=oid, target_id=tid, bodies=packed, base_radius=0.5
            )
            assert dataclasses.astuple(a) == dataclasses.astuple(b), (o, t, a, b)
        prepared.append((bf, bodies, terrain, packed, lines[:132], lines[132:]))
    core = native.core

    def python_repeat() -> int:
        n = 0
        for bf, bodies, _, _, rep, _ in prepared:
            for o, t, oid, tid in rep:
                sight(bf, o, t, observer_id=oid, target_id=tid, bodies=bodies, base_radius=0.5)
            n += len(rep)
        return n

    def python_fresh() -> int:
        n = 0
        for bf, bodies, _, _, _, fresh in prepared:
            bf.index.memo.clear()
            for o, t, oid, tid in fresh[:500]:
                sight(bf, o, t, observer_id=oid, target_id=tid, bodies=bodies, base_radius=0.5)
            n += 500
        return n

    def native_tuple() -> int:
        n = 0
        for _, _, terrain, packed, rep, fresh in prepared:
            for o, t, oid, tid in rep:
                core.sight(terrain, o, t, 0.5, oid, tid, packed, False)
            for o, t, oid, tid in fresh[:500]:
                core.sight(terrain, o, t, 0.5, oid, tid, packed, False)
            n += len(rep) + 500
        return n

    batches = []
    for _, _, terrain, packed, rep, fresh in prepared:
        rows = rep + fresh
        lines = np.array([(*o, *t) for o, t, _, _ in rows], dtype=np.float64)
        ids = np.array([(oid, tid) for _, _, oid, tid in rows], dtype=np.int64)
        batches.append((terrain, packed, lines, ids))

    def native_batched() -> int:
        n = 0
        for terrain, packed, lines, ids in batches:
            core.sight_many(terrain, lines, ids, 0.5, packed, False)
            n += len(lines)
        return n

    def native_sight() -> int:
        n = 0
        for _, _, terrain, packed, rep, _ in prepared:
            for o, t, oid, tid in rep:
                native.sight(
                    terrain, o, t, observer_id=oid, target_id=tid, bodies=packed, base_radius=0.5
                )
            n += len(rep)
        return n

    runs: dict[str, list[float]] = {
        "python repeat": [], "python fresh": [], "native tuple": [], "native Sight": [],
        "native batched": [],
    }  # fmt: skip
    for _ in range(args.rounds):
        runs["python repeat"].append(rate(python_repeat, args.seconds))
        runs["python fresh"].append(rate(python_fresh, args.seconds))
        runs["native tuple"].append(rate(native_tuple, args.seconds))
        runs["native Sight"].append(rate(native_sight, args.seconds))
        runs["native batched"].append(rate(native_batched, args.seconds))
    med = {k: statistics.median(v) for k, v in runs.items()}
    checked = sum(len(p[4]) + len(p[5]) for p in prepared)
    for (terrain, packed, lines, ids), p in zip(batches, prepared, strict=True):
        many = core.sight_many(terrain, lines, ids, 0.5, packed, False)
        one = [core.sight(terrain, o, t, 0.5, a, b, packed, False) for o, t, a, b in p[4] + p[5]]
        assert [float(r[5]) for r in many] == [s[5] for s in one]
    print(f"{checked:,} lines checked equal; {args.rounds} rounds x {args.seconds} s, medians:")
    for name, value in med.items():
        print(f"  {name:14s} {value:12,.0f} calls/s")
    print(f"  native tuple / python fresh:  {med['native tuple'] / med['python fresh']:6.1f}x")
    print(f"  native tuple / python repeat: {med['native tuple'] / med['python repeat']:6.1f}x")
    print(f"  native Sight / python repeat: {med['native Sight'] / med['python repeat']:6.1f}x")
    print(f"  native batched / python fresh: {med['native batched'] / med['python fresh']:6.1f}x")


if __name__ == "__main__":
    main()
