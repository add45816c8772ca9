"""Outcome distribution of seeded No Quarter missions with a random-legal player.

Usage: ``python benchmarks/nq_mission_outcomes.py [--games N] [--turns T] [--json OUT]``.
Reports, per shipped mission scenario, how often the player succeeded or failed and why.
This is a report, not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import time

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.mission.scenario import load_scenario, scenario_names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="missions per scenario")
    parser.add_argument("--turns", type=int, default=8, help="turn limit of each mission")
    parser.add_argument("--json", help="write the table as JSON here")
    args = parser.parse_args()
    table: dict[str, dict[str, int]] = {}
    start = time.perf_counter()
    decisions = 0
    for name in scenario_names():
        sc = load_scenario(name)
        if sc.mission is None:
            continue
        sc = dataclasses.replace(sc, turn_limit=args.turns)
        counts: collections.Counter[str] = collections.Counter()
        for seed in range(args.games):
            rng = np.random.default_rng(seed)
            dice = RandomDice.from_seed(10_000 + seed)
            battle = new_mission(sc, rng, dice)
            while not battle.over:
                options = game.legal_actions(battle)
                game.play(battle, options[int(rng.integers(len(options)))], dice)
                decisions += 1
            counts[battle.end_reason] += 1
        table[name] = dict(counts)
    elapsed = time.perf_counter() - start
    print("| scenario | outcome | games |\n|---|---|---:|")
    for name, counts in table.items():
        for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"| {name} | {reason} | {n} |")
    print(f"\n{decisions} decisions in {elapsed:.1f} s ({decisions / elapsed:.0f}/s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(
                {"turns": args.turns, "games": args.games, "outcomes": table}, handle, indent=1
            )


if __name__ == "__main__":
    main()
