"""State copies and JSON round trips per second of every wargym engine, with references.

Measures, in one process and interleaved round by round (only the ratios to the references timed
alongside mean much on these shared machines):

* ``clone()`` of a *No Quarter* skirmish ``Battle``, a *Pentagon War* duel ``BattleState`` and
  a *Starship Combat* duel ``BattleState``;
* ``copy.deepcopy`` of the same states (what ``clone`` saves);
* JSON serialisation (``json.dumps(state.to_dict())``) and deserialisation
  (``cls.from_dict(json.loads(text))``) of the same states;
* references: the state of PettingZoo ``connect_four_v3`` (its board list and the four
  per-agent dicts, copied) and ``ndarray.copy()`` of a 6×7 int8 board.

The states are taken from seeded games played with uniformly random legal actions, at several
decision counts (``--points``); each timed loop cycles through them, so a figure is the mean
over game stages. Each round gives every row ``--seconds`` of wall time; the table shows the
median over ``--rounds`` of operations per second and of the ratios taken within each round.

Run: ``python benchmarks/state_bench.py [--seconds S] [--rounds R] [--json out.json] [--md out.md]``
"""

from __future__ import annotations

import argparse
import copy
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

import numpy as np  # noqa: E402

from wargym.rules.dice import RandomDice  # noqa: E402

CONNECT_FOUR = "connect_four_v3"
NUMPY = "numpy 6x7 int8 copy"
TARGETS: dict[str, float] = {"no_quarter/clone": 100_000.0}
"""Issue 9's targets, in operations per second."""


@dataclass
class Row:
    """One timed operation: ``op(state)`` over ``states`` (cycled)."""

    name: str
    system: str
    operation: str
    states: list[Any]
    op: Callable[[Any], Any]
    ops: list[float] = field(default_factory=list)
    calls: int = 0


def _random_play(
    points: tuple[int, ...],
    seed: int,
    new: Callable[[np.random.Generator, RandomDice], Any],
    step: Callable[[Any, np.random.Generator, RandomDice], bool],
    snapshot: Callable[[Any], Any],
) -> list[Any]:
    """Snapshots of seeded random-legal games after ``points`` decisions each.

    ``step`` plays one decision and returns False once the game is over; an ended game is
    restarted with the next seed, and its last state is kept if it ended before the point.
    """
    states = []
    for k, point in enumerate(points):
        rng = np.random.default_rng(seed + k)
        dice = RandomDice.from_seed(seed + 1000 + k)
        state = new(rng, dice)
        for _ in range(point):
            if not step(state, rng, dice):
                break
        states.append(snapshot(state))
    return states


def no_quarter_states(points: tuple[int, ...], seed: int) -> list[Any]:
    """No Quarter skirmishes (``setup.new_skirmish``) after ``points`` decisions."""
    from wargym.rules.no_quarter import game, setup

    def step(battle: Any, rng: np.random.Generator, dice: RandomDice) -> bool:
        options = game.legal_actions(battle)
        if battle.over or not options:
            return False
        game.play(battle, options[int(rng.integers(len(options)))], dice)
        return not battle.over

    return _random_play(points, seed, setup.new_skirmish, step, lambda b: b.clone())


def pentagon_war_states(points: tuple[int, ...], seed: int) -> list[Any]:
    """Pentagon War duels (``game.new_battle("duel")``) after ``points`` decisions."""
    from wargym.rules.pentagon_war import game

    def new(rng: np.random.Generator, dice: RandomDice) -> Any:
        return game.new_battle("duel", rng)[0]

    def step(state: Any, rng: np.random.Generator, dice: RandomDice) -> bool:
        decision = game.decider(state)
        if decision is None or game.is_over(state):
            return False
        options = list(decision.options)
        pick = options[int(rng.integers(len(options)))]
        game.play(state, pick, dice, side=decision.side, decision=decision)
        return not game.is_over(state)

    return _random_play(points, seed, new, step, lambda s: s.clone())


def starship_combat_states(points: tuple[int, ...], seed: int) -> list[Any]:
    """Starship Combat duels (``game.new_battle("duel")``) after ``points`` decisions."""
    from wargym.rules.starship_combat import game

    def new(rng: np.random.Generator, dice: RandomDice) -> Any:
        return game.new_battle("duel")

    def step(state: Any, rng: np.random.Generator, dice: RandomDice) -> bool:
        side = game.decider(state)
        if side is None or game.is_over(state):
            return False
        options = game.legal_actions(state, side)
        game.play(state, side, options[int(rng.integers(len(options)))], dice)
        return not game.is_over(state)

    return _random_play(points, seed, new, step, lambda s: s.clone())


SYSTEMS: dict[str, Callable[[tuple[int, ...], int], list[Any]]] = {
    "no_quarter": no_quarter_states,
    "pentagon_war": pentagon_war_states,
    "starship_combat": starship_combat_states,
}


def _to_json(state: Any) -> str:
    return json.dumps(state.to_dict())


def build_rows(points: tuple[int, ...], seed: int, only: str | None) -> tuple[list[Row], list[str]]:
    """Every timed row (engines, then references) and the references that could not load."""
    rows: list[Row] = []
    for system, make in SYSTEMS.items():
        if only and only not in system:
            continue
        states = make(points, seed)
        cls = type(states[0])
        texts = [_to_json(s) for s in states]
        for text in texts:  # the round trip must be exact
            if _to_json(cls.from_dict(json.loads(text))) != text:
                raise AssertionError(f"{system}: to_dict/from_dict round trip differs")

        def load(text: str, cls: Any = cls) -> Any:
            return cls.from_dict(json.loads(text))

        rows += [
            Row(f"{system}/clone", system, "clone()", states, lambda s: s.clone()),
            Row(f"{system}/deepcopy", system, "copy.deepcopy", states, copy.deepcopy),
            Row(f"{system}/to_json", system, "json.dumps(to_dict())", states, _to_json),
            Row(f"{system}/from_json", system, "from_dict(json.loads())", texts, load),
        ]
    missing = []
    try:
        module = importlib.import_module(f"pettingzoo.classic.{CONNECT_FOUR}")
    except ImportError as error:  # pygame missing: pip install -c constraints.txt pygame-ce
        missing.append(f"{CONNECT_FOUR}: {error}")
    else:
        env = module.env()
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(10):  # a board part-filled, as mid-game
            obs, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rows.append(
            Row(CONNECT_FOUR, "reference", "board + agent dicts", [env.unwrapped], _c4_copy)
        )
    board = np.zeros((6, 7), dtype=np.int8)
    rows.append(Row(NUMPY, "reference", "ndarray.copy()", [board], np.ndarray.copy))
    return rows, missing


def _c4_copy(raw: Any) -> tuple[Any, ...]:
    """What a search copies of connect_four_v3: the board and the per-agent dicts."""
    return (
        raw.board[:],
        dict(raw.rewards),
        dict(raw._cumulative_rewards),
        dict(raw.terminations),
        dict(raw.truncations),
        raw.agent_selection,
    )


def _time(row: Row, seconds: float) -> tuple[int, float]:
    """Calls of ``row.op`` in ``seconds`` (checked every 16 calls), cycling through its states."""
    states, op = row.states, row.op
    n = len(states)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(16):
            op(states[i % n])
        calls += 16
        if time.perf_counter() >= deadline:
            return calls, time.perf_counter() - start


def measure(
    seconds: float, rounds: int, seed: int, points: tuple[int, ...], only: str | None = None
) -> dict[str, Any]:
    """Run the benchmark and return its JSON-ready report."""
    rows, missing = build_rows(points, seed, only)
    for row in rows:  # warm-up: first-call caches, lazy imports
        _time(row, min(0.1, seconds))
    ratios: dict[str, dict[str, list[float]]] = {r.name: {} for r in rows}
    for _ in range(rounds):
        this_round = {}
        for row in rows:
            calls, elapsed = _time(row, seconds)
            row.calls += calls
            row.ops.append(calls / elapsed)
            this_round[row.name] = calls / elapsed
        for row in rows:
            mine = this_round[row.name]
            refs = {"numpy": NUMPY, "connect_four": CONNECT_FOUR}
            if row.operation == "clone()":
                refs["deepcopy"] = f"{row.system}/deepcopy"
            for key, ref in refs.items():
                if ref in this_round:
                    ratios[row.name].setdefault(key, []).append(mine / this_round[ref])
    results = []
    for row in rows:
        r = ratios[row.name]
        ops = statistics.median(row.ops)
        target = TARGETS.get(row.name)
        results.append(
            {
                "name": row.name,
                "system": row.system,
                "operation": row.operation,
                "states": len(row.states),
                "ops_per_second": ops,
                "ops_per_second_rounds": row.ops,
                "calls": row.calls,
                "json_bytes": (
                    statistics.mean(len(t) for t in row.states)
                    if row.name.endswith("from_json")
                    else None
                ),  # fmt: skip
                "ratio_numpy_copy": statistics.median(r["numpy"]) if "numpy" in r else None,
                "ratio_connect_four": (
                    statistics.median(r["connect_four"]) if "connect_four" in r else None
                ),
                "speedup_vs_deepcopy": (
                    statistics.median(r["deepcopy"]) if "deepcopy" in r else None
                ),
                "target_ops_per_second": target,
                "target_met": None if target is None else ops >= target,
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
            "points": list(points),
            "versions": {p: _version(p) for p in ("wargym", "pettingzoo", "numpy")},
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        },
        "references": {"connect_four": CONNECT_FOUR, "numpy": NUMPY},
        "missing_references": missing,
        "results": results,
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _fmt(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (plus a line of run details)."""
    meta = report["meta"]
    lines = [
        f"Run {meta['date']}, Python {meta['python']}, {meta['cpu_count']} CPUs, "
        f"{meta['rounds']} round(s) of {meta['seconds_per_round']} s per row, states after "
        f"{meta['points']} random-legal decisions; medians.",
        "",
        "| state | operation | ops/s | JSON bytes | × deepcopy | × connect_four_v3 "
        "| × numpy copy | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in report["results"]:
        target = row["target_ops_per_second"]
        verdict = (
            "" if target is None
            else f"≥ {target:,.0f}/s ({'met' if row['target_met'] else 'not met'})"
        )  # fmt: skip
        size = row["json_bytes"]
        lines.append(
            f"| {row['system']} | {row['operation']} | {row['ops_per_second']:,.0f} "
            f"| {'' if size is None else f'{size:,.0f}'} | {_fmt(row['speedup_vs_deepcopy'], 1)} "
            f"| {_fmt(row['ratio_connect_four'], 3)} | {_fmt(row['ratio_numpy_copy'], 4)} "
            f"| {verdict} |"
        )
    for line in report["missing_references"]:
        lines.append(f"\nReference not measured: {line}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, measure, print the table and write the requested files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time per row per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians are reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--points", default="20,60,120", help="decisions played before each snapshot state"
    )
    parser.add_argument("--only", help="measure only systems whose name contains this text")
    parser.add_argument("--json", type=Path, help="write the report as JSON here")
    parser.add_argument("--md", type=Path, help="write the Markdown table here")
    args = parser.parse_args(argv)
    points = tuple(int(p) for p in args.points.split(","))
    report = measure(args.seconds, args.rounds, args.seed, points, args.only)
    table = markdown(report)
    print(table, end="")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.md:
        args.md.write_text(table)
    return report


if __name__ == "__main__":
    main()
