"""Masked-random steps per second of every wargym env, with ratios to two references.

Measures, in one process and interleaved round by round (these machines are noisy, so only the
ratios to references timed alongside mean much):

* every registered wargym Gymnasium id (``wargym.envs.GYM_ENVS``, made with ``gymnasium.make``
  and its defaults, wrappers included), stepping a uniformly random legal action read from
  ``obs["action_mask"]``;
* every wargym PettingZoo env (``wargym.envs.PETTINGZOO_ENVS``), AEC API, the same way;
* PettingZoo ``classic/connect_four_v3`` (AEC, masked random) and Gymnasium ``CartPole-v1``
  (random actions) as references.

A step is one ``env.step`` call (for AEC envs: one agent's move, dead-agent steps included);
resets are timed too. Each round gives every env ``--seconds`` of wall time; the table shows the
median over ``--rounds`` of steps per second and of the ratios taken within each round.

Run: ``python benchmarks/throughput.py [--seconds S] [--rounds R] [--json out.json] [--md out.md]``
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # connect_four imports pygame

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import wargym.envs  # noqa: E402  (registers the wargym ids)

CONNECT_FOUR = "connect_four_v3"
CARTPOLE = "CartPole-v1"
TARGETS: dict[str, float] = {
    "wargym/NoQuarter-Skirmish-v0": 2.0,
    "wargym/PentagonWar-Duel-v0": 3.0,
    "wargym/StarshipCombat-Duel-v0": 3.0,
}
"""Issue 9's targets: steps per second as a multiple of connect_four_v3's."""


@dataclass
class Runner:
    """One env under test: ``run(seconds)`` returns (steps, episodes, elapsed seconds)."""

    name: str
    api: str
    run: Callable[[float], tuple[int, int, float]]
    sps: list[float] = field(default_factory=list)
    episodes: int = 0
    steps: int = 0


def gym_runner(make: Callable[[], gymnasium.Env], masked: bool, seed: int) -> Callable[..., Any]:
    """Time ``env.step`` with random (masked: legal) actions, resetting at episode ends."""
    env = make()
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    n = int(env.action_space.n)  # type: ignore[attr-defined]

    def run(seconds: float) -> tuple[int, int, float]:
        nonlocal obs
        steps = episodes = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            if masked:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                action = int(rng.integers(n))
            obs, _, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                episodes += 1
                obs, _ = env.reset()
            if (steps & 15) == 0 and time.perf_counter() >= deadline:
                return steps, episodes, time.perf_counter() - start

    return run


def aec_runner(make: Callable[[], Any], seed: int) -> Callable[..., Any]:
    """Time AEC ``env.step`` with masked random actions, resetting when no agent is left."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run(seconds: float) -> tuple[int, int, float]:
        steps = episodes = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            if not env.agents:
                episodes += 1
                env.reset()
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if (steps & 15) == 0 and time.perf_counter() >= deadline:
                return steps, episodes, time.perf_counter() - start

    return run


def build_runners(seed: int, only: str | None) -> tuple[list[Runner], list[str]]:
    """Every wargym env plus the two references; also the references that could not load."""
    runners = []
    for env_id in sorted(wargym.envs.GYM_ENVS):

        def make(env_id: str = env_id) -> gymnasium.Env:
            return gymnasium.make(env_id)

        runners.append(Runner(env_id, "gymnasium", gym_runner(make, True, seed)))
    for name in sorted(wargym.envs.PETTINGZOO_ENVS):
        module = wargym.envs.pettingzoo_module(name)
        runners.append(Runner(name, "pettingzoo-aec", aec_runner(module.env, seed)))
    if only:
        runners = [r for r in runners if only in r.name]
    missing = []
    try:
        connect_four = importlib.import_module(f"pettingzoo.classic.{CONNECT_FOUR}")
    except ImportError as error:  # pygame missing: pip install -c constraints.txt pygame-ce
        missing.append(f"{CONNECT_FOUR}: {error}")
    else:
        runners.append(Runner(CONNECT_FOUR, "pettingzoo-aec", aec_runner(connect_four.env, seed)))

    def cartpole() -> gymnasium.Env:
        return gymnasium.make(CARTPOLE)

    runners.append(Runner(CARTPOLE, "gymnasium", gym_runner(cartpole, False, seed)))
    return runners, missing


def measure(seconds: float, rounds: int, seed: int, only: str | None = None) -> dict[str, Any]:
    """Run the benchmark and return its JSON-ready report."""
    runners, missing = build_runners(seed, only)
    for runner in runners:  # warm-up: first-call caches, lazy imports
        runner.run(min(0.2, seconds))
    ratios: dict[str, dict[str, list[float]]] = {r.name: {"c4": [], "cp": []} for r in runners}
    for _ in range(rounds):
        this_round = {}
        for runner in runners:
            steps, episodes, elapsed = runner.run(seconds)
            runner.steps += steps
            runner.episodes += episodes
            runner.sps.append(steps / elapsed)
            this_round[runner.name] = steps / elapsed
        for runner in runners:
            if CONNECT_FOUR in this_round:
                ratios[runner.name]["c4"].append(this_round[runner.name] / this_round[CONNECT_FOUR])
            ratios[runner.name]["cp"].append(this_round[runner.name] / this_round[CARTPOLE])
    results = []
    for runner in runners:
        c4 = ratios[runner.name]["c4"]
        ratio_c4 = statistics.median(c4) if c4 else None
        target = TARGETS.get(runner.name)
        results.append(
            {
                "env": runner.name,
                "api": runner.api,
                "steps_per_second": statistics.median(runner.sps),
                "steps_per_second_rounds": runner.sps,
                "steps": runner.steps,
                "episodes": runner.episodes,
                "ratio_connect_four": ratio_c4,
                "ratio_cartpole": statistics.median(ratios[runner.name]["cp"]),
                "target_ratio_connect_four": target,
                "target_met": None if target is None or ratio_c4 is None else ratio_c4 >= target,
            }
        )
    return {
        "meta": {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "seconds_per_round": seconds,
            "rounds": rounds,
            "seed": seed,
            "versions": {p: _version(p) for p in ("wargym", "gymnasium", "pettingzoo", "numpy")},
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        },
        "references": {"connect_four": CONNECT_FOUR, "cartpole": CARTPOLE},
        "missing_references": missing,
        "results": results,
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (plus a line of run details)."""
    meta = report["meta"]
    lines = [
        f"Run {meta['date']}, Python {meta['python']}, {meta['cpu_count']} CPUs, "
        f"{meta['rounds']} round(s) of {meta['seconds_per_round']} s per env; medians.",
        "",
        "| env | API | steps/s | episodes | × connect_four_v3 | × CartPole-v1 | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in report["results"]:
        c4 = row["ratio_connect_four"]
        target = row["target_ratio_connect_four"]
        verdict = (
            "" if target is None else f"≥ {target:g}× ({'met' if row['target_met'] else 'not met'})"
        )
        lines.append(
            f"| {row['env']} | {row['api']} | {row['steps_per_second']:,.0f} | {row['episodes']} "
            f"| {'n/a' if c4 is None else f'{c4:.3f}'} | {row['ratio_cartpole']:.4f} | {verdict} |"
        )
    for line in report["missing_references"]:
        lines.append(f"\nReference not measured: {line}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, measure, print the table and write the requested files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per env per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians are reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="measure only envs whose name contains this text")
    parser.add_argument("--json", type=Path, help="write the report as JSON here")
    parser.add_argument("--md", type=Path, help="write the Markdown table here")
    args = parser.parse_args(argv)
    report = measure(args.seconds, args.rounds, args.seed, args.only)
    table = markdown(report)
    print(table, end="")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.md:
        args.md.write_text(table)
    return report


if __name__ == "__main__":
    main()
