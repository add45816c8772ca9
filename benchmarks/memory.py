"""Peak resident memory of one wargym env process, and of 8 envs in SB3's SubprocVecEnv.

Every measurement runs in a fresh Python process (this script re-run with ``--child``), so
one env's peak does not hide another's:

* **one env**: for every registered Gymnasium id (``wargym.envs.GYM_ENVS``, made with
  ``gymnasium.make`` and its defaults), and ``CartPole-v1`` as the reference, the child imports
  numpy, Gymnasium and ``wargym.envs``, reads its resident set (``imports``), makes the env and
  plays ``--steps`` uniformly random legal steps (``obs["action_mask"]``; resets included;
  at most ``--max-seconds``), then reads its peak resident set (``VmHWM``);
* **SubprocVecEnv**: ``--vec-envs`` copies (default 8) of each ``--vec-ids`` env under
  ``SubprocVecEnv`` (SB3's default start method), stepped ``--vec-steps`` times with random
  legal actions (``sb3_contrib`` ``get_action_masks``); the figure is the parent's peak plus
  the sum of the workers' peaks, read from ``/proc/<pid>/status`` before they close. The
  forkserver process, which only forks the workers, is not counted. A sum of resident sets
  counts shared pages (the torch libraries every worker maps) once per process, so the
  proportional set size (``Pss`` of ``/proc/<pid>/smaps_rollup``) summed at the end is given
  too.

Peaks come from ``/proc/self/status`` ``VmHWM`` (Linux), else ``resource.getrusage``
``ru_maxrss``. MB here is 2**20 bytes.

Run: ``python benchmarks/memory.py [--steps N] [--vec-envs 8] [--json out.json] [--md out.md]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _common

REFERENCE = "CartPole-v1"
SKIRMISH = "wargym/NoQuarter-Skirmish-v1"
MB = 2**20


def status_kb(field: str, pid: int | str = "self") -> int | None:
    """A ``kB`` field of ``/proc/<pid>/status`` (``VmHWM``, ``VmRSS``), None off Linux."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def pss_mb(pid: int | str = "self") -> float | None:
    """Proportional set size now, in MB: shared pages split between the processes sharing them."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024 / MB
    except OSError:
        return None
    return None


def peak_mb(pid: int | str = "self") -> float:
    """Peak resident set of a process in MB (``VmHWM``; ``ru_maxrss`` for self otherwise)."""
    kb = status_kb("VmHWM", pid)
    if kb is None:
        if pid != "self":
            raise OSError(f"cannot read the peak resident set of process {pid}")
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux
    return kb * 1024 / MB


def rss_mb() -> float:
    """Current resident set of this process in MB (its peak where ``VmRSS`` is unreadable)."""
    kb = status_kb("VmRSS")
    return peak_mb() if kb is None else kb * 1024 / MB


def child_one(env_id: str, steps: int, max_seconds: float, seed: int) -> dict[str, Any]:
    """In a fresh process: make ``env_id``, play random legal steps, return the memory figures."""
    import gymnasium
    import numpy as np

    import wargym.envs  # noqa: F401 - registers the ids

    imports = rss_mb()
    env = gymnasium.make(env_id)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    masked = isinstance(obs, dict) and "action_mask" in obs
    n = int(env.action_space.n)  # type: ignore[attr-defined]
    done = episodes = 0
    deadline = time.perf_counter() + max_seconds
    while done < steps and time.perf_counter() < deadline:
        if masked:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = int(rng.integers(n))
        obs, _, terminated, truncated, _ = env.step(action)
        done += 1
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
    peak = peak_mb()
    env.close()
    return {
        "env": env_id,
        "steps": done,
        "episodes": episodes,
        "imports_rss_mb": imports,
        "peak_rss_mb": peak,
        "env_mb": peak - imports,
    }


def child_vec(env_id: str, n_envs: int, steps: int, seed: int) -> dict[str, Any]:
    """In a fresh process: ``n_envs`` copies in SubprocVecEnv, random legal steps, peaks."""
    import gymnasium
    import numpy as np
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    def thunk(rank: int) -> Any:
        def make() -> gymnasium.Env:
            import wargym.envs  # noqa: F401 - registers the ids

            env = gymnasium.make(env_id)
            env.reset(seed=seed + rank)
            return env

        return make

    venv = SubprocVecEnv([thunk(i) for i in range(n_envs)])
    rng = np.random.default_rng(seed)
    try:
        venv.seed(seed)
        venv.reset()
        for _ in range(steps):
            masks = get_action_masks(venv)
            venv.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
        pids = [p.pid for p in venv.processes]  # type: ignore[attr-defined]
        workers = [peak_mb(pid) for pid in pids]
        parent = peak_mb()
        pss = [pss_mb(pid) for pid in ["self", *pids]]
    finally:
        venv.close()
    return {
        "env": env_id,
        "n_envs": n_envs,
        "steps_per_env": steps,
        "parent_peak_rss_mb": parent,
        "worker_peak_rss_mb": workers,
        "total_peak_rss_mb": parent + sum(workers),
        "mean_worker_peak_rss_mb": sum(workers) / len(workers),
        "total_pss_mb": None if None in pss else sum(p for p in pss if p is not None),
    }


def _run_child(args: list[str], timeout: float) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", *args],
        capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(
    steps: int,
    max_seconds: float,
    vec_ids: list[str],
    vec_envs: int,
    vec_steps: int,
    seed: int,
    only: str | None = None,
) -> dict[str, Any]:
    """Run every child measurement; the JSON-ready report."""
    import wargym.envs

    ids = [i for i in wargym.envs.GYM_ENVS if not only or only in i]
    timeout = max_seconds + 120
    singles = []
    for env_id in [*ids, REFERENCE]:
        row = _run_child(["one", env_id, str(steps), str(max_seconds), str(seed)], timeout)
        singles.append(row)
        print(f"  {env_id}: peak {row['peak_rss_mb']:.0f} MB", file=sys.stderr)
    reference = singles[-1]["peak_rss_mb"]
    for row in singles:
        row["ratio_cartpole"] = row["peak_rss_mb"] / reference
    vecs = []
    for env_id in vec_ids if vec_envs > 0 else []:
        row = _run_child(
            ["vec", env_id, str(vec_envs), str(vec_steps), str(seed)], timeout + 60 * vec_envs
        )
        vecs.append(row)
        print(f"  {env_id} x{vec_envs}: {row['total_peak_rss_mb']:.0f} MB", file=sys.stderr)
    fields = {
        "steps": steps,
        "max_seconds": max_seconds,
        "vec_steps": vec_steps,
        "seed": seed,
        "peak_source": "VmHWM" if status_kb("VmHWM") is not None else "ru_maxrss",
    }
    return {
        "meta": _common.meta(
            fields, ("wargym", "gymnasium", "numpy", "stable_baselines3", "sb3_contrib")
        ),
        "references": {"single": REFERENCE},
        "single_env": singles,
        "subproc_vec_env": vecs,
    }


def markdown(report: dict[str, Any]) -> str:
    """The report as two Markdown tables (plus a line of run details)."""
    info = report["meta"]
    lines = [
        f"{_common.run_line(info)}; one fresh "
        f"process per row; up to {info['steps']} random legal steps per env; peaks from "
        f"{info['peak_source']}; MB = 2^20 bytes.",
        "",
        "| env | steps | RSS after imports, MB | peak RSS, MB | env's share, MB | × CartPole-v1 |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in report["single_env"]:
        lines.append(
            f"| {row['env']} | {row['steps']} | {row['imports_rss_mb']:.0f} "
            f"| {row['peak_rss_mb']:.0f} | {row['env_mb']:.0f} | {row['ratio_cartpole']:.2f} |"
        )
    if report["subproc_vec_env"]:
        lines += [
            "",
            "| env in SubprocVecEnv | copies | steps each | parent peak, MB "
            "| workers' peaks, MB (sum) | total, MB | PSS at the end, MB |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in report["subproc_vec_env"]:
            lines.append(
                f"| {row['env']} | {row['n_envs']} | {row['steps_per_env']} "
                f"| {row['parent_peak_rss_mb']:.0f} | {sum(row['worker_peak_rss_mb']):.0f} "
                f"| {row['total_peak_rss_mb']:.0f} | {_common.number(row['total_pss_mb'], 0)} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    """Parse arguments, measure, print the tables and write the requested files."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:  # one measurement, JSON on stdout
        kind, env_id, *rest = argv[1:]
        if kind == "one":
            result = child_one(env_id, int(rest[0]), float(rest[1]), int(rest[2]))
        else:
            result = child_vec(env_id, int(rest[0]), int(rest[1]), int(rest[2]))
        print(json.dumps(result))
        return None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="random steps per single env")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="time cap per env")
    parser.add_argument("--vec-ids", default=SKIRMISH, help="env ids for SubprocVecEnv (comma)")
    parser.add_argument("--vec-envs", type=int, default=8, help="SubprocVecEnv copies (0: skip)")
    parser.add_argument("--vec-steps", type=int, default=100, help="vector steps (each copy)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="single-env rows only for ids containing this text")
    _common.add_output_args(parser, "tables")
    args = parser.parse_args(argv)
    vec_ids = [i.strip() for i in args.vec_ids.split(",") if i.strip()]
    report = measure(
        args.steps, args.max_seconds, vec_ids, args.vec_envs, args.vec_steps, args.seed, args.only
    )
    _common.emit(report, markdown(report), args)
    return report


if __name__ == "__main__":
    main()
