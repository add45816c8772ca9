"""Batched No Quarter skirmish steps per second per core, and the peak memory of 1,024 of them.

Issue 16, item 7 and its speed bars ("the batched skirmish, steps per second per core: ≥ 30×
connect_four_v3"; "peak RSS of 1,024 batched skirmishes: measured, ≤ 1 GB"). In one process,
interleaved round by round (only ratios to a reference timed alongside mean much on these
shared machines):

* ``SkirmishBatch`` (envs/no_quarter/batch.py, the Python backend) of ``--sizes`` envs
  (default 1, 64, 256), the skirmish's defaults, each step a uniformly random legal action per
  env read from ``batch.masks``; auto-resets inside the step are timed. A step is one env's
  step: a batch call of N envs counts N;
* one skirmish through ``gymnasium.make`` (for scale: what the batch adds or saves per step);
* PettingZoo ``connect_four_v3`` (AEC, masked random, as ``throughput.py`` times it).

The process runs on one core (it is single-threaded; ``torch`` is not imported), so steps/s
is steps/s per core. The memory figure comes from a fresh child process (this script with
``--memory-child``) that builds ``--memory-envs`` batched skirmishes (default 1,024), steps
the batch ``--memory-steps`` times and reads its peak resident set (``VmHWM``); the child's
resident set after its imports is given too. MB is 2**20 bytes.

Run: ``python benchmarks/nq_batch.py [--seconds S] [--rounds R] [--sizes 1,64,256]
[--memory-envs 1024] [--json out.json] [--md out.md]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import _common
import numpy as np

TARGET = 30.0
"""Issue 16's bar: batched skirmish steps per second per core as a multiple of connect four's."""
MEMORY_TARGET_MB = 1024.0
MB = 2**20


def batch_runner(n: int, seed: int) -> tuple[Callable[[float], tuple[int, float]], float]:
    """A timer of ``SkirmishBatch(n)`` with masked random actions, and its build+reset time."""
    from wargym.envs.no_quarter.batch import SkirmishBatch

    start = time.perf_counter()
    batch = SkirmishBatch(n, seed)
    built = time.perf_counter() - start
    rng = np.random.default_rng(seed)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks])
            batch.step(actions)
            steps += n
            if time.perf_counter() >= deadline:
                return steps, time.perf_counter() - start

    return run, built


def single_runner(seed: int) -> Callable[[float], tuple[int, float]]:
    """A timer of one skirmish through ``gymnasium.make`` (wrappers included), for scale."""
    import gymnasium

    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal obs
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            obs, _, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            steps += 1
            if terminated or truncated:
                obs, _ = env.reset()
            if time.perf_counter() >= deadline:
                return steps, time.perf_counter() - start

    return run


def connect_four_runner(seed: int) -> Callable[[float], tuple[int, float]] | None:
    """A timer of connect_four_v3 (AEC, masked random), None when PettingZoo's lacks it."""
    module, _ = _common.import_connect_four()
    if module is None:
        return None
    env = module.env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            if not env.agents:
                env.reset()
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if (steps & 15) == 0 and time.perf_counter() >= deadline:
                return steps, time.perf_counter() - start

    return run


def status_kb(field: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (None off Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def memory_child(n: int, steps: int, seed: int) -> None:
    """Build ``n`` batched skirmishes, step them, print the resident sets (JSON)."""
    import wargym.envs  # noqa: F401
    from wargym.envs.no_quarter.batch import SkirmishBatch

    imports = status_kb("VmRSS")
    start = time.perf_counter()
    batch = SkirmishBatch(n, seed)
    built = time.perf_counter() - start
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(steps):
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks]))
    stepped = time.perf_counter() - start
    arrays = sum(
        a.nbytes
        for a in (batch.obs, batch.masks, batch.final_obs, batch.final_masks, batch.rewards)
    )
    print(
        json.dumps(
            {
                "envs": n,
                "steps": steps,
                "imports_mb": None if imports is None else imports / 1024,
                "peak_mb": (status_kb("VmHWM") or 0) / 1024,
                "arrays_mb": arrays / MB,
                "build_reset_s": built,
                "step_s": stepped,
            }
        )
    )


def measure_memory(n: int, steps: int, seed: int) -> dict[str, Any]:
    """Run :func:`memory_child` in a fresh process; its JSON line."""
    out = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(n), "--memory-steps", str(steps)]
        + ["--seed", str(seed)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def measure(args: Any) -> dict[str, Any]:
    """Interleaved rounds of every batch size and connect four; the memory child after."""
    import wargym.envs  # noqa: F401

    sizes = [int(s) for s in args.sizes.split(",")]
    runners: dict[str, Callable[[float], tuple[int, float]]] = {}
    builds: dict[str, float] = {}
    # Seeds far apart: runners never play the same battle (the engine's per-battlefield
    # memos would make the second one to play it look faster).
    for k, n in enumerate(sizes):
        seed = args.seed + 100_000 * (k + 1)
        runners[f"batch N={n}"], builds[f"batch N={n}"] = batch_runner(n, seed)
    runners["gymnasium.make (one env)"] = single_runner(args.seed)
    c4 = connect_four_runner(args.seed)
    if c4 is not None:
        runners[_common.CONNECT_FOUR] = c4
    for run in runners.values():  # warm-up
        run(min(0.5, args.seconds))
    per_round: list[dict[str, float]] = []
    for _ in range(args.rounds):
        this_round = {}
        for name, run in runners.items():
            steps, elapsed = run(args.seconds)
            this_round[name] = steps / elapsed
        per_round.append(this_round)
    rows = []
    for name in runners:
        rates = [r[name] for r in per_round]
        ratios = [r[name] / r[_common.CONNECT_FOUR] for r in per_round if c4 is not None]
        ratio = _common.median_or_none(ratios)
        rows.append(
            {
                "env": name,
                "steps_per_s": _common.median_or_none(rates),
                "ratio_connect_four": ratio,
                "build_reset_s": builds.get(name),
                "target_met": None
                if ratio is None or not name.startswith("batch")
                else ratio >= TARGET,
            }
        )
    memory = measure_memory(args.memory_envs, args.memory_steps, args.seed)
    fields = {"seconds": args.seconds, "rounds": args.rounds, "sizes": sizes}
    return {
        "meta": _common.meta(fields, ["numpy", "gymnasium", "pettingzoo"]),
        "rows": rows,
        "memory": memory,
    }


def table(report: dict[str, Any]) -> str:
    """The Markdown table of a report."""
    meta = report["meta"]
    lines = [
        f"{_common.run_line(meta)}; command `{meta['command']}`.\n",
        "| what | steps/s (per core) | × connect_four_v3 | build + reset (s) | target |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for row in report["rows"]:
        target = (
            ""
            if not row["env"].startswith("batch")
            else _common.verdict(TARGET, row["target_met"], ".0f", "×")
        )
        build = row["build_reset_s"]
        lines.append(
            f"| {row['env']} | {_common.number(row['steps_per_s'], 0)} | "
            f"{_common.number(row['ratio_connect_four'], 3)} | "
            f"{'' if build is None else f'{build:.2f}'} | {target} |"
        )
    mem = report["memory"]
    met = mem["peak_mb"] <= MEMORY_TARGET_MB
    lines.append(
        f"\nPeak RSS of {mem['envs']:,} batched skirmishes (fresh process, {mem['steps']} batch "
        f"steps): **{mem['peak_mb']:.0f} MB** (after imports {mem['imports_mb']:.0f} MB; the "
        f"batch's arrays {mem['arrays_mb']:.0f} MB; built and reset in "
        f"{mem['build_reset_s']:.1f} s) — ≤ 1,024 MB ({'met' if met else 'not met'}).\n"
    )
    return "\n".join(lines)


def main() -> None:
    """Command line (module docstring)."""
    parser = _common.timing_parser(__doc__ or "", 3.0, "batch size")
    parser.add_argument("--sizes", default="1,64,256", help="batch sizes, comma-separated")
    parser.add_argument("--memory-envs", type=int, default=1024)
    parser.add_argument("--memory-steps", type=int, default=3)
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)  # internal
    _common.add_output_args(parser)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.memory_child, args.memory_steps, args.seed)
        return
    report = measure(args)
    _common.emit(report, table(report), args)


if __name__ == "__main__":
    main()
