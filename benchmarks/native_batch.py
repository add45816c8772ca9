"""The native batched skirmish step against PettingZoo's connect_four_v3 (issue 16, item 7).

In one run, on one core (the process is single-threaded; torch's threads are set to 1):

* PettingZoo ``connect_four_v3`` (AEC, masked random; ``nq_batch.connect_four_runner``);
* ``SkirmishBatch(N, backend="native", opponent=...)`` for each of ``--sizes`` (default 64,
  256, 1024), the skirmish's defaults otherwise (3 a side, 20 turns), red the env's default
  ``"rules"`` opponent (the book's NP procedure, native since session 9; ``--opponent``), blue a
  uniformly random legal action per env (:func:`playable`: every column). Only ``batch.step``
  is timed (the SAME_STEP auto-resets inside it, and the glue's preparation of the next
  set-ups, included); choosing
  the actions is the agent's work and is not. A step is one env's step: a call over N envs counts N;
* the ratio of the two (target ≥ 30×), interleaved round by round; the Python batch
  (``backend="python"``, ``--python-size`` envs, the same opponent) for scale;
* the reset share of an episode's cost: the time of one start (``batch.reset`` of every env,
  which makes a set-up and the next one ahead, so it counts two set-ups: an upper bound)
  against the stepping time of one episode (its length: steps over episodes finished, from the
  size that finished the most episodes per env);
* the peak resident set (``VmHWM``) of a fresh child process that builds ``--memory-envs``
  (1,024) native batched skirmishes and steps them ``--memory-steps`` times (target ≤ 1 GB);
* MaskablePPO (sb3-contrib, when installed) end to end over ``BatchVecEnv(backend="native")``:
  steps/s, with the env's time (``step_wait`` and ``reset``) and the learner's apart.

Run: ``python benchmarks/native_batch.py [--seconds S] [--rounds R] [--sizes 64,256,1024]
[--opponent random] [--memory-envs 1024] [--ppo-steps 4096] [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from nq_batch import connect_four_runner, status_kb

TARGET = 30.0
RESET_TARGET = 0.10
MEMORY_TARGET_MB = 1024.0
MB = 2**20


def pick(
    masks: np.ndarray, rng: np.random.Generator, allowed: np.ndarray | None = None
) -> np.ndarray:
    """A uniformly random legal index per row (vectorised: the agent's part, not timed).

    ``allowed``: the columns to choose from when a row has one (the rest: any legal one).
    """
    legal = masks if allowed is None else masks & allowed
    legal = np.where(legal.any(axis=1, keepdims=True), legal, masks)
    scores = np.where(legal, rng.random(masks.shape, dtype=np.float32), -1.0)
    return np.argmax(scores, axis=1).astype(np.int64)


def playable(batch: Any) -> None:
    """Every column: the core plays building punches since session 9 (``strike_building``),
    so blue may choose any legal action (kept as a hook for a future unported rule)."""
    return None


def native_runner(
    n: int, seed: int, opponent: str
) -> tuple[Callable[[float], tuple[int, float, int]], Any]:
    """A timer of the native batch's steps (steps, seconds, episodes finished), and the batch."""
    from wargym.envs.no_quarter.batch import SkirmishBatch

    batch = SkirmishBatch(n, seed, backend="native", opponent=opponent)
    rng = np.random.default_rng(seed)
    allowed = playable(batch)

    def run(seconds: float) -> tuple[int, float, int]:
        steps = episodes = 0
        spent = 0.0
        while spent < seconds:
            actions = pick(batch.masks, rng, allowed)
            start = time.perf_counter()
            batch.step(actions)
            spent += time.perf_counter() - start
            steps += n
            episodes += int((batch.terminations | batch.truncations).sum())
        return steps, spent, episodes

    return run, batch


def reset_seconds(batch: Any, rounds: int = 3) -> float:
    """Seconds of one env's start (``batch.reset`` of all, per env; best of ``rounds``)."""
    best = float("inf")
    for r in range(rounds):
        start = time.perf_counter()
        batch.reset(1000 + r)
        best = min(best, time.perf_counter() - start)
    return best / batch.num_envs


def python_rate_of(n: int, seed: int, opponent: str, seconds: float) -> float | None:
    """Steps/s of the Python batch (``backend="python"``) of ``n`` envs, for scale."""
    if n <= 0:
        return None
    from wargym.envs.no_quarter.batch import SkirmishBatch

    batch = SkirmishBatch(n, seed, opponent=opponent)
    rng = np.random.default_rng(seed)
    allowed = playable(SkirmishBatch(1, 0, backend="native", opponent=opponent))
    steps, spent = 0, 0.0
    while spent < seconds:
        actions = pick(batch.masks, rng, allowed)
        start = time.perf_counter()
        batch.step(actions)
        spent += time.perf_counter() - start
        steps += n
    return steps / spent


def memory_child(n: int, steps: int, seed: int, opponent: str) -> None:
    """Build ``n`` native batched skirmishes, step them, print the resident sets (JSON)."""
    from wargym.envs.no_quarter.batch import SkirmishBatch

    imports = status_kb("VmRSS")
    start = time.perf_counter()
    batch = SkirmishBatch(n, seed, backend="native", opponent=opponent)
    built = time.perf_counter() - start
    rng = np.random.default_rng(seed)
    allowed = playable(batch)
    for _ in range(steps):
        batch.step(pick(batch.masks, rng, allowed))
    print(json.dumps({"rss_imports_kb": imports, "peak_kb": status_kb("VmHWM"), "build_s": built}))


def memory(n: int, steps: int, seed: int, opponent: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(n), "--memory-steps", str(steps),
         "--opponent", opponent, "--seed", str(seed)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    found: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def ppo(total: int, n: int, seed: int, opponent: str) -> dict[str, Any] | None:
    """MaskablePPO over the native BatchVecEnv: steps/s, env and learner seconds apart."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        return None
    from wargym.agents.sb3_vec import BatchVecEnv

    torch.set_num_threads(1)
    venv = BatchVecEnv(n, seed, backend="native", opponent=opponent)
    env_time = [0.0]
    for name in ("step_wait", "reset"):
        inner = getattr(venv, name)

        def timed(*args: Any, _inner: Any = inner, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return _inner(*args, **kwargs)
            finally:
                env_time[0] += time.perf_counter() - start

        setattr(venv, name, timed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=256, seed=seed, verbose=0)
    start = time.perf_counter()
    model.learn(total)
    wall = time.perf_counter() - start
    steps = model.num_timesteps
    return {
        "envs": n,
        "steps": steps,
        "wall_s": wall,
        "steps_per_s": steps / wall,
        "env_s": env_time[0],
        "learner_s": wall - env_time[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per runner/round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="64,256,1024")
    parser.add_argument("--opponent", default="rules", choices=("rules", "random", "scripted"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory-envs", type=int, default=1024)
    parser.add_argument("--memory-steps", type=int, default=50)
    parser.add_argument("--memory-child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--ppo-steps", type=int, default=4096, help="0: skip the PPO row")
    parser.add_argument("--ppo-envs", type=int, default=64)
    parser.add_argument("--python-size", type=int, default=16, help="0: skip the Python row")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.memory_child, args.memory_steps, args.seed, args.opponent)
        return
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sizes = [int(s) for s in args.sizes.split(",")]
    c4 = connect_four_runner(args.seed)
    runners = {n: native_runner(n, args.seed, args.opponent) for n in sizes}
    c4_rates: list[float] = []
    rates: dict[int, list[float]] = {n: [] for n in sizes}
    episodes: dict[int, list[tuple[int, float]]] = {n: [] for n in sizes}
    for _ in range(args.rounds):
        if c4 is not None:
            steps, spent = c4(args.seconds)
            c4_rates.append(steps / spent)
        for n, (run, _) in runners.items():
            steps, spent, done = run(args.seconds)
            rates[n].append(steps / spent)
            episodes[n].append((done, spent))
    c4_rate = float(np.median(c4_rates)) if c4_rates else None
    # An episode's length (steps over episodes finished) from the size that finished the most
    # episodes per env: a short run of a big batch finishes few and would overstate it.
    per_env = {n: sum(d for d, _ in episodes[n]) / n for n in sizes}
    best = max(sizes, key=lambda n: per_env[n])
    best_steps = sum(float(np.median(rates[best])) * s for _, s in episodes[best])
    steps_per_episode = best_steps / max(1, sum(d for d, _ in episodes[best]))
    python_rate = python_rate_of(args.python_size, args.seed, args.opponent, args.seconds)
    rows = []
    for n in sizes:
        rate = float(np.median(rates[n]))
        done = sum(d for d, _ in episodes[n])
        episode_s = steps_per_episode / rate
        reset_s = reset_seconds(runners[n][1])
        rows.append({
            "envs": n,
            "steps_per_s": rate,
            "ratio": None if c4_rate is None else rate / c4_rate,
            "episodes": done,
            "steps_per_episode": steps_per_episode,
            "reset_s": reset_s,
            "reset_share": reset_s / (episode_s + reset_s),
        })  # fmt: skip
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "opponent": args.opponent,
        "connect_four_steps_per_s": c4_rate,
        "python_batch_steps_per_s": python_rate,
        "python_batch_envs": args.python_size,
        "batch": rows,
        "memory": memory(args.memory_envs, args.memory_steps, args.seed, args.opponent),
        "ppo": ppo(args.ppo_steps, args.ppo_envs, args.seed, args.opponent)
        if args.ppo_steps
        else None,
    }
    print(f"connect_four_v3 masked random: {c4_rate or float('nan'):,.0f} steps/s")
    if python_rate is not None:
        print(f"Python batch N={args.python_size} (same opponent): {python_rate:,.0f} steps/s")
    for row in rows:
        print(
            f"native batch N={row['envs']:>5}: {row['steps_per_s']:>10,.0f} steps/s "
            f"({row['ratio'] or float('nan'):.1f}x connect four, target {TARGET:.0f}x); "
            f"reset share {100 * row['reset_share']:.1f}% (target <= {100 * RESET_TARGET:.0f}%, "
            f"{row['steps_per_episode']:.0f} steps an episode)"
        )
    mem = report["memory"]
    print(
        f"peak RSS of {args.memory_envs} native batched skirmishes: "
        f"{mem['peak_kb'] / 1024:,.0f} MB (after imports {mem['rss_imports_kb'] / 1024:,.0f} MB; "
        f"target <= {MEMORY_TARGET_MB:.0f} MB)"
    )
    if report["ppo"] is None:
        print("MaskablePPO: skipped (sb3-contrib or torch missing, or --ppo-steps 0)")
    else:
        p = report["ppo"]
        print(
            f"MaskablePPO over BatchVecEnv(native, {p['envs']} envs): {p['steps_per_s']:,.0f} "
            f"steps/s end to end ({p['steps']} steps, {p['wall_s']:.1f} s: env {p['env_s']:.1f} s, "
            f"learner {p['learner_s']:.1f} s)"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)


if __name__ == "__main__":
    main()
