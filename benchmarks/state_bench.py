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

import copy
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import _common
import numpy as np

from wargym.rules.dice import RandomDice

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
    from wargym.rules.no_quarter.battle import game
    from wargym.rules.no_quarter.forces import setup

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
    module, missing = _common.import_connect_four()
    if module is not None:
        env = module.env()
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(10):  # a board part-filled, as mid-game
            obs, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rows.append(
            Row(_common.CONNECT_FOUR, "reference", "board + agent dicts", [env.unwrapped], _c4_copy)
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

    def rate(row: Row) -> float:
        calls, elapsed = _time(row, seconds)
        row.calls += calls
        row.ops.append(calls / elapsed)
        return calls / elapsed

    def refs(name: str) -> dict[str, str]:
        row = by_name[name]
        found = {"numpy": NUMPY, "connect_four": _common.CONNECT_FOUR}
        if row.operation == "clone()":
            found["deepcopy"] = f"{row.system}/deepcopy"
        return found

    by_name = {row.name: row for row in rows}
    ratios = _common.ratios_by_round(
        _common.rates_by_round(rows, rounds, lambda r: r.name, rate), refs
    )
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
                "ratio_numpy_copy": _common.median_or_none(r.get("numpy", [])),
                "ratio_connect_four": _common.median_or_none(r.get("connect_four", [])),
                "speedup_vs_deepcopy": _common.median_or_none(r.get("deepcopy", [])),
                "target_ops_per_second": target,
                "target_met": None if target is None else ops >= target,
            }
        )
    return {
        "meta": _common.meta(
            {"seconds_per_round": seconds, "rounds": rounds, "seed": seed, "points": list(points)},
            ("wargym", "pettingzoo", "numpy"),
        ),
        "references": {"connect_four": _common.CONNECT_FOUR, "numpy": NUMPY},
        "missing_references": missing,
        "results": results,
    }


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (plus a line of run details)."""
    info = report["meta"]
    lines = [
        f"{_common.run_line(info)}, "
        f"{info['rounds']} round(s) of {info['seconds_per_round']} s per row, states after "
        f"{info['points']} random-legal decisions; medians.",
        "",
        "| state | operation | ops/s | JSON bytes | × deepcopy | × connect_four_v3 "
        "| × numpy copy | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    number = _common.number
    for row in report["results"]:
        target = row["target_ops_per_second"]
        cell = _common.verdict(target, row["target_met"], ",.0f", "/s")
        size = row["json_bytes"]
        lines.append(
            f"| {row['system']} | {row['operation']} | {row['ops_per_second']:,.0f} "
            f"| {'' if size is None else f'{size:,.0f}'} | {number(row['speedup_vs_deepcopy'], 1)} "
            f"| {number(row['ratio_connect_four'], 3)} | {number(row['ratio_numpy_copy'], 4)} "
            f"| {cell} |"
        )
    lines += _common.missing_lines(report["missing_references"])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, measure, print the table and write the requested files."""
    parser = _common.timing_parser(__doc__, 1.0, "row")
    parser.add_argument(
        "--points", default="20,60,120", help="decisions played before each snapshot state"
    )
    parser.add_argument("--only", help="measure only systems whose name contains this text")
    _common.add_output_args(parser)
    args = parser.parse_args(argv)
    points = tuple(int(p) for p in args.points.split(","))
    report = measure(args.seconds, args.rounds, args.seed, points, args.only)
    _common.emit(report, markdown(report), args)
    return report


if __name__ == "__main__":
    main()
