"""Micro-benchmark: the native groups and sightings against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_perception.py [--seconds 1] [--rounds 3] [--per-side 5]

States come from seeded random skirmishes (``--per-side`` mechs a side), sampled every few
decisions of ``--games`` games. One operation is what a phase start and an In Sight check
ask of perception on one state: ``form_groups`` for both sides and ``visible_enemies`` of
every mech in play from where it stands. Rows:

* the reference with a cold cache (``battle.geometry_cache`` dropped before each operation,
  as after every ``Battle.apply``), and with a warm one (the lines already cached);
* the native core (``_core.no_quarter.perception``; it computes every line, it caches none).

Every native answer is checked equal to the reference's before timing starts. The table shows
operations per second of wall time and of the thread's CPU time (medians over rounds; on a
shared machine the CPU figure is the one that does not depend on the other jobs).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native.no_quarter.perception import PerceptionInputs, core
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement import perception


def states(games: int, per_side: int) -> list[Battle]:
    found = []
    for g in range(games):
        rng, dice = np.random.default_rng(g), RandomDice.from_seed(g)
        battle = new_skirmish(rng, dice, mechs_per_side=per_side)
        for step in range(80):
            if battle.over:
                break
            if step % 8 == 0:
                found.append(Battle.from_dict(battle.to_dict()))
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
    return found


def reference(battle: Battle) -> Any:
    rules = load_rules(battle.options.rules)
    groups = [perception.form_groups(battle, side, rules) for side in Side]
    seen = [
        perception.visible_enemies(battle, m, m.pos, m.facing)
        for side in Side
        for m in battle.mechs_of(side)
    ]
    return groups, seen


def native(battle: Battle, n: PerceptionInputs) -> Any:
    groups = [core.form_groups(n.battle, n.terrain, n.rules, side.value) for side in Side]
    seen = [
        core.visible_enemies(n.battle, n.terrain, m.id, m.pos, m.facing)
        for side in Side
        for m in battle.mechs_of(side)
    ]
    return groups, seen


def rate(op: Callable[[int], None], count: int, seconds: float, rounds: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(rounds):
        done, wall0, cpu0 = 0, time.perf_counter(), time.thread_time()
        while time.perf_counter() - wall0 < seconds:
            for i in range(count):
                op(i)
            done += count
        walls.append(done / (time.perf_counter() - wall0))
        cpus.append(done / max(time.thread_time() - cpu0, 1e-9))
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--per-side", type=int, default=5)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    battles = states(args.games, args.per_side)
    inputs = [PerceptionInputs.of(b) for b in battles]
    for b, n in zip(battles, inputs, strict=True):
        b.geometry_cache = None
        want, got = reference(b), native(b, n)
        assert want[0] == got[0] and want[1] == got[1], "the engines disagree"

    def cold(i: int) -> None:
        battles[i].geometry_cache = None
        reference(battles[i])

    def warm(i: int) -> None:
        reference(battles[i])

    def fast(i: int) -> None:
        native(battles[i], inputs[i])

    count = len(battles)
    print(f"{count} states, {args.per_side} mechs a side; one op: form_groups x2 + "
          f"visible_enemies of every mech")  # fmt: skip
    rows = [("reference, cold cache", cold), ("reference, warm cache", warm), ("native", fast)]
    base = None
    print(f"{'':24} {'ops/s wall':>12} {'ops/s CPU':>12} {'vs cold':>8}")
    for name, op in rows:
        wall, cpu = rate(op, count, args.seconds, args.rounds)
        base = base or wall
        print(f"{name:24} {wall:12.0f} {cpu:12.0f} {wall / base:7.1f}x")


if __name__ == "__main__":
    main()
