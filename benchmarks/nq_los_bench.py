"""Micro-benchmark: No Quarter sight() calls per second on a generated battlefield (not a test).

Run: .venv/bin/python benchmarks/nq_los_bench.py [seconds]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from wargym.rules.no_quarter.battlefield.terrain import (
    Body,
    deployment_points,
    duck_back_destination,
    generate_battlefield,
    move_candidates,
    sight,
)


def main(seconds: float = 2.0) -> None:
    rng = np.random.default_rng(2024)
    bf = generate_battlefield(rng)
    points = deployment_points(bf, "south", 6, rng) + deployment_points(bf, "north", 6, rng)
    bodies = [Body(i, p) for i, p in enumerate(points)]
    pairs = [(a, b) for a in bodies for b in bodies if a.id != b.id]
    print(bf.ascii(bodies))
    print(f"{len(bf.features)} features, {len(bodies)} bodies, {len(pairs)} observer/target pairs")

    calls = 0
    visible = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a, b in pairs:
            s = sight(bf, a.pos, b.pos, observer_id=a.id, target_id=b.id, bodies=bodies)
            visible += s.visible
        calls += len(pairs)
    elapsed = time.perf_counter() - start
    print(f"sight(): {calls / elapsed:,.0f} calls/s ({visible / calls:.0%} visible)")

    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds / 4:
        for body in bodies:
            move_candidates(bf, body.pos, allowance=10.0, mover_id=body.id, bodies=bodies)
            n += 1
    print(f"move_candidates(): {n / (time.perf_counter() - start):,.0f} calls/s")

    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds / 4:
        for body in bodies[:6]:
            cause = bodies[6]
            duck_back_destination(
                bf, body.pos, cause.pos, max_dist=6.0, speed=8.0, mover_id=body.id,
                cause_id=cause.id, bodies=bodies,
            )  # fmt: skip
            n += 1
    print(f"duck_back_destination(): {n / (time.perf_counter() - start):,.0f} calls/s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
