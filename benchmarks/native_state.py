"""Micro-benchmark: the native No Quarter battle state against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_state.py [--seconds 1] [--rounds 3] [--per-side 3]

States come from seeded random skirmishes (``--per-side`` mechs a side), taken after every
decision of ``--games`` games; each timed loop cycles through them. Rows:

* ``clone()``: the reference ``Battle.clone`` and the native ``Battle.clone`` (a C++ struct
  copy; the records and plain-JSON parts are shared by reference counts);
* round trip ``to_dict`` + ``from_dict``: the reference ``Battle.from_dict(b.to_dict())``
  (with its ``check_battle``; ``check=False`` as a second row) and the native
  ``battle_from_dict(b.to_dict())`` (with its mirrored checks, and ``check=False``);
* the native halves apart (``to_dict`` only, ``from_dict`` only), with a floor for
  ``to_dict``: ``pickle.loads`` of the same document builds the same Python objects from a
  binary format; and the JSON text round trip
  (``json.dumps`` of the native ``to_dict`` and ``json.loads`` before the native
  ``from_dict``) for a caller that holds text.

Every native document is checked equal to the reference's before timing starts. The table
shows operations per second of wall time and per second of the thread's CPU time (medians over
rounds; on a shared machine the CPU-time figure is the one that does not depend on the other
jobs), and the wall-time ratio to the reference row.
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native import no_quarter as native
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish

TARGETS = {"clone": 1_000_000.0, "round trip": 20_000.0}
"""Issue 16's targets, in operations per second."""


def states(games: int, per_side: int, seed: int) -> list[Battle]:
    out = []
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, mechs_per_side=per_side, stars=g % 2)
        for _ in range(120):
            out.append(battle.clone())
            if battle.over:
                break
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
    return out


def rate(op: Callable[[Any], Any], items: list[Any], seconds: float) -> tuple[float, float]:
    """Operations per second of wall time and per second of this thread's CPU time."""
    n, start, cpu = 0, time.perf_counter(), time.thread_time()
    deadline = start + seconds
    while True:
        for item in items:
            op(item)
        n += len(items)
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start), n / max(time.thread_time() - cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per row and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the median is shown)")
    parser.add_argument("--games", type=int, default=4, help="games the states come from")
    parser.add_argument("--per-side", type=int, default=3, help="mechs a side (1-5)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    args = parser.parse_args()

    ref = states(args.games, args.per_side, args.seed)
    docs = [b.to_dict() for b in ref]
    nat = [native.battle_from_dict(d) for d in docs]
    texts = [json.dumps(d) for d in docs]
    pickles = [pickle.dumps(d, protocol=5) for d in docs]
    for d, n in zip(docs, nat, strict=True):
        assert n.to_dict() == d and n.clone().to_dict() == d
    limits, core = native.LIMITS, native.core

    rows: list[tuple[str, str, Callable[[Any], Any], list[Any]]] = [
        ("clone", "Python Battle.clone()", lambda b: b.clone(), ref),
        ("clone", "native Battle.clone()", lambda b: b.clone(), nat),
        ("round trip", "Python from_dict(to_dict()) (check_battle)",
         lambda b: Battle.from_dict(b.to_dict()), ref),
        ("round trip", "Python from_dict(to_dict(), check=False)",
         lambda b: Battle.from_dict(b.to_dict(), check=False), ref),
        ("round trip", "native from_dict(to_dict()) (mirrored checks)",
         lambda b: core.Battle.from_dict(b.to_dict(), limits, True), nat),
        ("round trip", "native from_dict(to_dict(), check=False)",
         lambda b: core.Battle.from_dict(b.to_dict(), limits, False), nat),
        ("half", "native to_dict()", lambda b: b.to_dict(), nat),
        ("half", "floor: pickle.loads of the document (the same Python objects)",
         pickle.loads, pickles),
        ("half", "native from_dict(dict) (mirrored checks)",
         lambda d: core.Battle.from_dict(d, limits, True), docs),
        ("text", "native from_dict(json.loads(json.dumps(to_dict())))",
         lambda b: core.Battle.from_dict(json.loads(json.dumps(b.to_dict())), limits, True), nat),
        ("text", "json.loads + native from_dict (text in)",
         lambda t: core.Battle.from_dict(json.loads(t), limits, True), texts),
    ]  # fmt: skip
    figures: dict[str, list[float]] = {name: [] for _, name, _, _ in rows}
    cpu_figures: dict[str, list[float]] = {name: [] for _, name, _, _ in rows}
    for _ in range(args.rounds):
        for _, name, op, items in rows:
            wall, cpu = rate(op, items, args.seconds)
            figures[name].append(wall)
            cpu_figures[name].append(cpu)
    median = {name: statistics.median(v) for name, v in figures.items()}
    per_cpu = {name: statistics.median(v) for name, v in cpu_figures.items()}
    mechs = statistics.mean(len(d["mechs"]) for d in docs)
    size = statistics.mean(len(t) for t in texts)
    print(f"{len(docs)} states of {args.games} games, {args.per_side} mechs a side "
          f"({mechs:.1f} mechs, {size:,.0f} bytes of JSON on average); "
          f"median of {args.rounds} rounds of {args.seconds:g} s")  # fmt: skip
    print("| what | ops/s (wall) | ops per CPU-s | × Python | target (per CPU-s) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    base = {"clone": median["Python Battle.clone()"],
            "round trip": median["Python from_dict(to_dict()) (check_battle)"]}  # fmt: skip
    for group, name, _, _ in rows:
        ref_rate = base.get(group, base["round trip"])
        target = TARGETS.get(group)
        mark = "" if target is None or name.startswith("Python") else (
            f"{target:,.0f} {'met' if per_cpu[name] >= target else 'MISSED'}")  # fmt: skip
        print(f"| {name} | {median[name]:,.0f} | {per_cpu[name]:,.0f} | "
              f"{median[name] / ref_rate:.1f} | {mark} |")  # fmt: skip


if __name__ == "__main__":
    main()
