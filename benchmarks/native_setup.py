"""Micro-benchmark: the native skirmish set-up against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_setup.py [--seconds 1] [--rounds 3] [--per-side 3]

Rows (each builds a fresh skirmish from a fresh ``default_rng(seed)``, seeds cycling):

* ``reference set-up``: what ``new_skirmish_logged`` does before ``advance`` (the battlefield,
  the mech picks, ``new_battle_logged`` with its ``load_rules``), Python ``RandomDice``;
* ``reference new_skirmish_logged``: the same and the play to the first decision (a reset);
* ``native set-up``: ``native.no_quarter.setup.new_skirmish_setup`` (the state dict in and
  out of the rng, native ``RandomDice``), and the core call alone (state dict made once);
* ``native set-up + to_dict``: with the battle written as the reference's document.

Before timing, the native battle, events and rng state are checked equal to the reference's
on scripted dice. Operations per second of wall time and of the thread's CPU time (medians over
rounds; on a shared machine the CPU figure is the one that does not depend on other jobs), and
the CPU-time ratio to the reference set-up.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import setup as native_setup
from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import generate_battlefield
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle_logged, new_skirmish_logged
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.serial import to_jsonable


def reference_setup(rng: np.random.Generator, dice: Any, per_side: int) -> tuple[Any, Any]:
    options = BattleOptions()
    rules = load_rules(options.rules)
    field = generate_battlefield(rng)
    forces = []
    for side, faction in ((Side.BLUE, Faction.STAR_ARMY), (Side.RED, Faction.HISHEN)):
        pool = [d.id for d in rules.mechs_of(faction)]
        picks = tuple(str(pool[int(i)]) for i in rng.integers(0, len(pool), size=per_side))
        forces.append(ForceSpec(side, faction, picks))
    return new_battle_logged(forces, field, rng, dice, options)


def check(per_side: int) -> None:
    for seed in range(20):
        faces = [int(f) for f in np.random.default_rng(seed + 99).integers(1, 7, 300)]
        rng = np.random.default_rng(seed)
        battle, events = reference_setup(rng, ScriptedDice(list(faces)), per_side)
        native_rng = np.random.default_rng(seed)
        got, got_events = native_setup.new_skirmish_setup(
            native_rng, _core.ScriptedDice(faces), mechs_per_side=per_side
        )
        assert got.to_dict() == battle.to_dict()
        assert got_events == [e.to_dict() for e in events]
        assert native_rng.bit_generator.state == rng.bit_generator.state


def measure(fn: Callable[[int], object], seconds: float) -> tuple[float, float]:
    """(wall ops/s, CPU ops/s) of ``fn(i)`` for i = 0, 1, ... over ``seconds``."""
    n = 0
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - wall0 < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - wall0), n / max(time.thread_time() - cpu0, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--per-side", type=int, default=3)
    args = parser.parse_args()
    n = args.per_side
    check(n)
    tables = native_setup.setup_tables()
    options = to_jsonable(BattleOptions())
    states = [np.random.default_rng(s).bit_generator.state for s in range(64)]
    native_dice = _core.RandomDice(1)
    rows: dict[str, Callable[[int], object]] = {
        "reference set-up": lambda i: reference_setup(
            np.random.default_rng(i % 64), RandomDice.from_seed(i), n
        ),
        "reference new_skirmish_logged": lambda i: new_skirmish_logged(
            np.random.default_rng(i % 64), RandomDice.from_seed(i), mechs_per_side=n
        ),
        "native set-up": lambda i: native_setup.new_skirmish_setup(
            np.random.default_rng(i % 64), native_dice, mechs_per_side=n
        ),
        "native set-up (core call)": lambda i: native_setup.core.new_skirmish_setup(
            tables, states[i % 64], native_dice, "star_army", "hishen", n, 0, options, 128
        ),
        "native set-up + to_dict": lambda i: native_setup.new_skirmish_setup(
            np.random.default_rng(i % 64), native_dice, mechs_per_side=n
        )[0].to_dict(),
    }
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for _ in range(args.rounds):
        for name, fn in rows.items():
            results[name].append(measure(fn, args.seconds))
    base = statistics.median(cpu for _, cpu in results["reference set-up"])
    print(f"skirmish set-up, {n} mechs a side ({args.rounds} rounds of {args.seconds} s)")
    print(f"{'row':34} {'wall/s':>10} {'cpu/s':>10} {'cpu x':>7}")
    for name, values in results.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"{name:34} {wall:10.0f} {cpu:10.0f} {cpu / base:7.1f}")


if __name__ == "__main__":
    main()
