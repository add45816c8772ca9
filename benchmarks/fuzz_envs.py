"""Fuzz every wargym environment and report steps, exceptions and invariant violations.

Targets are every Gymnasium id registered under ``wargym/`` by ``import wargym.envs`` and every
PettingZoo env of ``wargym.envs.PETTINGZOO_ENVS``, through both its AEC (``env()``) and its
Parallel (``parallel_env()``) API; ids registered later (the campaign env) join by themselves,
with their default configuration. The core lives in :mod:`wargym.envs.fuzzing` (targets,
configuration choices, action kinds, invariants), shared with the CI test
``tests/test_fuzz_envs_short.py``.

Why two drivers. The CI test draws configurations (``Target.strategy()``) and action streams
(``st.randoms()`` behind :class:`~wargym.envs.fuzzing.RandomChooser`) with hypothesis, so a
failure can shrink to a short stream. But hypothesis records every draw and replays whole
streams while it shrinks: a million env steps through that machinery would spend much of its
time there, hit its per-example limits, and a failure found late would take hours to shrink.
This script runs the bulk with plain seeded numpy streams (:class:`~wargym.envs.fuzzing.
NumpyChooser`): the same draws, the same checks, no shrinking. Every finding still comes with
a reproducer (target, configuration, reset seed, actions since that reset), and the whole run
is reproducible from ``--seed``.

The ``--steps`` budget (default 1,000,000) is split evenly over the targets; each target runs
fresh env instances (a new configuration every 200-2,000 steps) until its share is spent.
Now and then (``FuzzSettings.snapshot_chance``) a run loads a snapshot of its env with one
field mutated (:mod:`wargym.envs.fuzzing_snapshots`): it must be refused with a ``StateError``
naming the field and the env unchanged, or load and step. Exceptions (anything but the
documented refusals) must be 0; the exit status is 1 when any
exception or invariant violation was seen. Slow envs (the No Quarter missions, about 50-150
steps per second) dominate the wall time: on 2 cores a full run takes hours; ``--workers``
runs targets in parallel processes.

Run::

    .venv/bin/python benchmarks/fuzz_envs.py --steps 20000 --json fuzz.json
    .venv/bin/python benchmarks/fuzz_envs.py --only StarshipCombat --steps 5000
    .venv/bin/python benchmarks/fuzz_envs.py --workers 2            # the full million
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from wargym.envs.fuzzing import FuzzStats, fuzz_target, targets


def _progress(stats: FuzzStats, share: int, every: float, last: list[float]) -> None:
    now = time.perf_counter()
    if now - last[0] < every and stats.steps < share:
        return
    last[0] = now
    rate = stats.steps / max(stats.seconds, 1e-9)
    print(
        f"  {stats.target}: {stats.steps}/{share} steps, {rate:.0f}/s, "
        f"{len(stats.errors)} exceptions, {sum(stats.violations.values())} violations",
        flush=True,
    )


def fuzz_one(name: str, share: int, seed: int, every: float) -> dict[str, Any]:
    """Fuzz the target called ``name`` for ``share`` steps; returns its stats as JSON data."""
    warnings.simplefilter("ignore")  # e.g. numpy's deprecation of int(array([3]))
    (target,) = [t for t in targets() if t.name == name]
    last = [time.perf_counter()]
    stats = fuzz_target(target, share, seed, progress=lambda s: _progress(s, share, every, last))
    return stats.to_dict()


def table(results: list[dict[str, Any]]) -> str:
    """The summary as a Markdown table."""
    lines = [
        "| target | steps | steps/s | resets | episodes | configs | rejected | exceptions "
        "| violations |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        found = ", ".join(f"{k} x{v}" for k, v in r["violations"].items()) or "0"
        lines.append(
            f"| {r['target']} | {r['steps']} | {r['steps'] / max(r['seconds'], 1e-9):.0f} "
            f"| {r['resets']} | {r['episodes']} | {r['runs']} | {r['configs_rejected']} "
            f"| {len(r['errors'])} | {found} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--steps",
        type=int,
        default=1_000_000,
        help="total over all targets (at least; each gets an equal share)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=None, help="targets whose name contains this")
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--workers", type=int, default=1, help="processes (one target each)")
    parser.add_argument("--progress", type=float, default=30.0, help="seconds between lines")
    args = parser.parse_args(argv)
    chosen = [t.name for t in targets(args.only)]
    if not chosen:
        parser.error(f"no target matches {args.only!r}")
    share = max(1, -(-args.steps // len(chosen)))  # rounded up: at least --steps in all
    print(f"{len(chosen)} targets, {share} steps each, seed {args.seed}", flush=True)
    jobs = [(name, share, args.seed + 1000 * i, args.progress) for i, name in enumerate(chosen)]
    start = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(fuzz_one, *zip(*jobs, strict=True)))
    else:
        results = [fuzz_one(*job) for job in jobs]
    wall = time.perf_counter() - start
    print(table(results))
    steps = sum(r["steps"] for r in results)
    errors = sum(len(r["errors"]) for r in results)
    violations = sum(sum(r["violations"].values()) for r in results)
    print(f"\n{steps} steps in {wall:.0f} s: {errors} exceptions, {violations} violations")
    for r in results:
        for name, example in r["examples"].items():
            print(f"- {r['target']}: {name}: {example['config']} seed {example['reset_seed']}")
        for error in r["errors"][:3]:
            print(f"- {r['target']}: EXCEPTION {error['error']}: {error['config']}")
    if args.json:
        data = {"steps": args.steps, "seed": args.seed, "only": args.only, "wall_s": wall,
                "targets": results}  # fmt: skip
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, default=repr)
    return 1 if errors or violations else 0


if __name__ == "__main__":
    sys.exit(main())
