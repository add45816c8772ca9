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

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import _common
import gymnasium
import numpy as np

import wargym.envs  # (registers the wargym ids)

CARTPOLE = "CartPole-v1"
TARGETS: dict[str, float] = {
    "wargym/NoQuarter-Skirmish-v1": 3.0,
    "wargym/NoQuarter-Skirmish-v1 [native]": 3.0,
    "wargym/NoQuarter-Skirmish-v1 [python]": 2.0,
    "wargym/PentagonWar-Duel-v0": 3.0,
    "wargym/StarshipCombat-Duel-v0": 3.0,
}
"""Issue 9's targets: steps per second as a multiple of connect_four_v3's."""
NATIVE_IDS = ("wargym/NoQuarter-Skirmish-v1",)
"""Ids also measured with ``backend="native"`` and ``"python"`` (rows ``<id> [native]``,
``<id> [python]``; the plain row is the default, ``"auto"``: native; issue 16's target 3×)."""


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
        if env_id in NATIVE_IDS:  # the default is "auto" (native here); both named rows too

            def make_native(env_id: str = env_id) -> gymnasium.Env:
                return gymnasium.make(env_id, backend="native")

            def make_python(env_id: str = env_id) -> gymnasium.Env:
                return gymnasium.make(env_id, backend="python")

            runners.append(
                Runner(f"{env_id} [native]", "gymnasium", gym_runner(make_native, True, seed))
            )
            runners.append(
                Runner(f"{env_id} [python]", "gymnasium", gym_runner(make_python, True, seed))
            )
    for name in sorted(wargym.envs.PETTINGZOO_ENVS):
        module = wargym.envs.pettingzoo_module(name)
        runners.append(Runner(name, "pettingzoo-aec", aec_runner(module.env, seed)))
    if only:
        runners = [r for r in runners if only in r.name]
    connect_four, missing = _common.import_connect_four()
    if connect_four is not None:
        runners.append(
            Runner(_common.CONNECT_FOUR, "pettingzoo-aec", aec_runner(connect_four.env, seed))
        )

    def cartpole() -> gymnasium.Env:
        return gymnasium.make(CARTPOLE)

    runners.append(Runner(CARTPOLE, "gymnasium", gym_runner(cartpole, False, seed)))
    return runners, missing


def measure(seconds: float, rounds: int, seed: int, only: str | None = None) -> dict[str, Any]:
    """Run the benchmark and return its JSON-ready report."""
    runners, missing = build_runners(seed, only)
    for runner in runners:  # warm-up: first-call caches, lazy imports
        runner.run(min(0.2, seconds))

    def rate(runner: Runner) -> float:
        steps, episodes, elapsed = runner.run(seconds)
        runner.steps += steps
        runner.episodes += episodes
        runner.sps.append(steps / elapsed)
        return steps / elapsed

    per_round = _common.rates_by_round(runners, rounds, lambda r: r.name, rate)
    ratios = _common.ratios_by_round(
        per_round, lambda _: {"c4": _common.CONNECT_FOUR, "cp": CARTPOLE}
    )
    results = []
    for runner in runners:
        ratio_c4 = _common.median_or_none(ratios[runner.name].get("c4", []))
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
        "meta": _common.meta(
            {"seconds_per_round": seconds, "rounds": rounds, "seed": seed},
            ("wargym", "gymnasium", "pettingzoo", "numpy"),
        ),
        "references": {"connect_four": _common.CONNECT_FOUR, "cartpole": CARTPOLE},
        "missing_references": missing,
        "results": results,
    }


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (plus a line of run details)."""
    info = report["meta"]
    lines = [
        f"{_common.run_line(info)}, "
        f"{info['rounds']} round(s) of {info['seconds_per_round']} s per env; medians.",
        "",
        "| env | API | steps/s | episodes | × connect_four_v3 | × CartPole-v1 | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    number = _common.number
    for row in report["results"]:
        target = row["target_ratio_connect_four"]
        cell = _common.verdict(target, row["target_met"], "g", "×")
        lines.append(
            f"| {row['env']} | {row['api']} | {row['steps_per_second']:,.0f} | {row['episodes']} "
            f"| {number(row['ratio_connect_four'], 3)} | {row['ratio_cartpole']:.4f} | {cell} |"
        )
    lines += _common.missing_lines(report["missing_references"])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, measure, print the table and write the requested files."""
    parser = _common.timing_parser(__doc__, 2.0, "env")
    parser.add_argument("--only", help="measure only envs whose name contains this text")
    _common.add_output_args(parser)
    args = parser.parse_args(argv)
    report = measure(args.seconds, args.rounds, args.seed, args.only)
    _common.emit(report, markdown(report), args)
    return report


if __name__ == "__main__":
    main()
