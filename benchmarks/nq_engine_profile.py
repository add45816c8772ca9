"""No Quarter engine speed: decisions per second of random-legal play, and a profile (not a test).

Plays seeded skirmishes (``new_skirmish``) and missions (``new_mission``) with decisions drawn
uniformly from ``legal_actions`` and reports decisions per second, plus calls per second of the
hot geometry functions (``sight``, ``move_candidates``) measured on the same kind of table.
All rates are per second of CPU time (``time.process_time``), which the load of other jobs on
the shared build machines disturbs far less than wall-clock time.

Run::

    .venv/bin/python benchmarks/nq_engine_profile.py                    # timings
    .venv/bin/python benchmarks/nq_engine_profile.py --profile skirmish # cProfile, top 30
    .venv/bin/python benchmarks/nq_engine_profile.py --profile mission
    .venv/bin/python benchmarks/nq_engine_profile.py --games 20 --rounds 3
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle.game import legal_actions, play
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Body,
    deployment_points,
    generate_battlefield,
    move_candidates,
    sight,
)
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission

MISSION = "patrol_star_army_vs_hishen"
MAX_DECISIONS = 2000


def _play(battle: Battle, dice: RandomDice, chooser: np.random.Generator) -> int:
    n = 0
    while n < MAX_DECISIONS and not battle.over:
        options = legal_actions(battle)
        if not options:
            break
        play(battle, options[int(chooser.integers(len(options)))], dice)
        n += 1
    return n


def skirmishes(games: int, first_seed: int = 0) -> int:
    """Play ``games`` seeded skirmishes; return the decisions taken."""
    total = 0
    for seed in range(first_seed, first_seed + games):
        dice = RandomDice.from_seed(1000 + seed)
        battle = new_skirmish(np.random.default_rng(seed), dice)
        total += _play(battle, dice, np.random.default_rng(2000 + seed))
    return total


def missions(games: int, first_seed: int = 0) -> int:
    """Play ``games`` seeded patrol missions; return the decisions taken."""
    total = 0
    for seed in range(first_seed, first_seed + games):
        dice = RandomDice.from_seed(3000 + seed)
        battle = new_mission(MISSION, np.random.default_rng(seed), dice)
        total += _play(battle, dice, np.random.default_rng(4000 + seed))
    return total


def _rate(fn: Callable[[int], int], games: int) -> tuple[float, int]:
    start = time.process_time()  # CPU time: the build machines are shared and noisy
    n = fn(games)
    return n / (time.process_time() - start), n


def _forget(bf: Battlefield) -> None:
    """Empty the battlefield's terrain memo (absent before the optimisation)."""
    memo = getattr(bf.index, "memo", None)
    if memo is not None:
        memo.clear()


def geometry_rates(seconds: float) -> tuple[float, float, float]:
    """Calls per second on a generated 12-mech table, CPU time.

    ``sight()`` on fresh positions (terrain memo emptied before every pass), ``sight()`` again
    on positions seen before, and ``move_candidates()`` on fresh positions.
    """
    rng = np.random.default_rng(2024)
    bf = generate_battlefield(rng)
    points = deployment_points(bf, "south", 6, rng) + deployment_points(bf, "north", 6, rng)
    bodies = [Body(i, p) for i, p in enumerate(points)]
    pairs = [(a, b) for a in bodies for b in bodies if a.id != b.id]
    rates = []
    for warm in (False, True):
        calls = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            if not warm:
                _forget(bf)
            for a, b in pairs:
                sight(bf, a.pos, b.pos, observer_id=a.id, target_id=b.id, bodies=bodies)
            calls += len(pairs)
        rates.append(calls / (time.process_time() - start))
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _forget(bf)
        for body in bodies:
            move_candidates(bf, body.pos, allowance=10.0, mover_id=body.id, bodies=bodies)
        calls += len(bodies)
    return rates[0], rates[1], calls / (time.process_time() - start)


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per round and kind")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", choices=("skirmish", "mission"))
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    if args.profile:
        fn = skirmishes if args.profile == "skirmish" else missions
        prof = cProfile.Profile()
        prof.enable()
        n = fn(args.games)
        prof.disable()
        print(f"{n} decisions")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)
        return
    skirmishes(1, first_seed=999)  # warm up: load the rule tables and scenarios
    missions(1, first_seed=999)
    for r in range(args.rounds):
        s_rate, s_n = _rate(skirmishes, args.games)
        m_rate, m_n = _rate(missions, args.games)
        cold, warm, move_rate = geometry_rates(1.0)
        print(
            f"round {r + 1}: skirmish {s_rate:,.0f} decisions/s ({s_n}), "
            f"mission {m_rate:,.0f} decisions/s ({m_n}), sight() {cold:,.0f}/s fresh, "
            f"{warm:,.0f}/s repeated, move_candidates() {move_rate:,.0f}/s"
        )


if __name__ == "__main__":
    main()
