"""CPU time of a fixed No Quarter skirmish workload: steps per CPU-second (issues 5, 9).

The throughput benchmark times wall clock over whatever episodes fit in a time slice, so two
versions of the package play different games and the machine's load leaks into the figure.
This one plays the same work every time: ``--seeds`` skirmishes (``reset(seed=k)``), each
``--steps`` masked-random steps drawn from ``numpy.random.default_rng(k)`` (a finished battle
is reset with seed ``k + 100``), and divides by ``time.process_time``. Compare two versions by
alternating runs, for instance with the old package first on ``PYTHONPATH``; ``--block`` plays
the tabletop's ``unseen_bases="block"`` instead of the envs' fog default (engine choice E5).

Run: ``python benchmarks/nq_env_cpu.py [--seeds 6] [--steps 250] [--block] [--json out.json]``
"""

from __future__ import annotations

import time
from typing import Any

import _common
import gymnasium
import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)

ENV_ID = "wargym/NoQuarter-Skirmish-v1"


def measure(seeds: int, steps: int, block: bool) -> dict[str, Any]:
    """Play the workload once; returns the step count, CPU seconds and steps per CPU-second."""
    kwargs: dict[str, Any] = {"battle_options": {"unseen_bases": "block"}} if block else {}
    env = gymnasium.make(ENV_ID, **kwargs)
    done_steps = 0
    start = time.process_time()
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        for _ in range(steps):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done_steps += 1
            if terminated or truncated:
                obs, _ = env.reset(seed=seed + 100)
    cpu = time.process_time() - start
    return {
        "meta": _common.meta(
            {"seeds": seeds, "steps": steps, "unseen_bases": "block" if block else "bump"},
            ("wargym", "gymnasium", "numpy"),
        ),
        "steps": done_steps,
        "cpu_seconds": cpu,
        "steps_per_cpu_second": done_steps / cpu if cpu > 0 else None,
    }


def markdown(report: dict[str, Any]) -> str:
    """One table row of the result."""
    info = report["meta"]
    rate = report["steps_per_cpu_second"]
    return (
        f"{_common.run_line(info)}\n\n"
        "| env | unseen_bases | steps | CPU s | steps per CPU-second |\n"
        "| --- | --- | ---: | ---: | ---: |\n"
        f"| {ENV_ID} | {info['unseen_bases']} | {report['steps']} | "
        f"{report['cpu_seconds']:.2f} | {0.0 if rate is None else rate:,.0f} |\n"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, play the workload, print the table and write the requested files."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=6, help="skirmishes (reset seeds 0..N-1)")
    parser.add_argument("--steps", type=int, default=250, help="steps per skirmish seed")
    parser.add_argument("--block", action="store_true", help='play unseen_bases="block"')
    _common.add_output_args(parser)
    args = parser.parse_args(argv)
    report = measure(args.seeds, args.steps, args.block)
    _common.emit(report, markdown(report), args)
    return report


if __name__ == "__main__":
    main()
