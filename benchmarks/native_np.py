"""Micro-benchmark: the native NP procedure's np_decide against the reference's, same run.

Run: .venv/bin/python benchmarks/native_np.py [--games 4] [--per-side 3] [--seconds 1] [--rounds 3]

Red's decisions come from seeded random skirmishes (red played by the reference's NP, blue
at random). Each timed loop replays every game's red decisions in order, with one context and
one generator per game as an env keeps them:

* ``reference``: ``enemy_decide.np_decide(battle, options, context, RandomDice(rng))`` on the
  reference battle (its perception cache and the battlefield's sight memo cleared first, as a
  state met once has them);
* ``native core``: ``_core.no_quarter.enemy.np_decide`` on the native battle with a native
  ``NpContext`` and ``NumpyDice`` (what a native env keeps);
* ``native glue``: ``wargym.native.no_quarter.enemy.np_decide`` with the reference's
  ``NpContext`` and the generator (its native twin reused, the rolls added converted back).

Every native answer is checked equal to the reference's before timing. Decisions per second
of wall time and of the thread's CPU time (medians over rounds).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import enemy as native_enemy
from wargym.native.no_quarter.game import game_tables
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player.enemy import NpContext
from wargym.rules.no_quarter.non_player.enemy_decide import np_decide


def decisions(games: int, per_side: int, seed: int) -> list[tuple[Any, ...]]:
    """(document, options, context dict, rng state, native battle, tables) per red decision."""
    out = []
    for g in range(games):
        battle = new_skirmish(
            np.random.default_rng(seed + g), RandomDice.from_seed(seed + g), mechs_per_side=per_side
        )
        dice, blue, red = (
            RandomDice.from_seed(seed + g + 1),
            np.random.default_rng(g),
            np.random.default_rng(g + 1),
        )
        context = NpContext()
        tables, field = game_tables(battle), battle.to_dict()["battlefield"]
        for _ in range(300):
            if battle.over or battle.decision is None:
                break
            options = game.legal_actions(battle)
            if battle.decision.side is Side.RED:
                document = battle.to_dict()
                if document["battlefield"] != field:  # the tables hold the terrain
                    tables, field = game_tables(battle), document["battlefield"]
                out.append((document, options, context.to_dict(), red.bit_generator.state,
                            battle_from_dict(document), tables))  # fmt: skip
                action = np_decide(battle, options, context, RandomDice(red))
            else:
                action = options[int(blue.integers(len(options)))]
            game.play(battle, action, dice)
    return out


def timed(run: Callable[[], int], seconds: float, rounds: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(rounds):
        count, wall0, cpu0 = 0, time.perf_counter(), time.thread_time()
        while time.perf_counter() - wall0 < seconds:
            count += run()
        walls.append(count / (time.perf_counter() - wall0))
        cpus.append(count / max(time.thread_time() - cpu0, 1e-9))
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--per-side", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cases = decisions(args.games, args.per_side, args.seed)
    np_tables = native_enemy.np_tables()
    battles = [Battle.from_dict(c[0]) for c in cases]

    # Each loop replays the games' red decisions in order with one context and one
    # generator per game, as an env keeps them (the context and the generator state before a
    # decision are those the previous one left).
    firsts = {i for i, c in enumerate(cases) if not c[2]["rolls"] and not c[2]["groups"]}

    def reference() -> int:
        context, rng = NpContext(), np.random.default_rng()
        for i, (battle, (_, options, _, state, *_rest)) in enumerate(
            zip(battles, cases, strict=True)
        ):
            if i in firsts:
                context = NpContext()
                rng.bit_generator.state = state
            battle.geometry_cache = None  # fresh: no line memoised from an earlier round
            battle.battlefield.index.memo.clear()
            np_decide(battle, options, context, RandomDice(rng))
        return len(cases)

    def core() -> int:
        held, dice = _core.no_quarter.enemy.NpContext(), None
        for i, (_, options, _, state, native, tables) in enumerate(cases):
            if i in firsts:
                held, dice = _core.no_quarter.enemy.NpContext(), _core.NumpyDice(state)
            native_enemy.core.np_decide(native, tables, np_tables, options, held, dice)
        return len(cases)

    def glue() -> int:
        context, rng = NpContext(), np.random.default_rng()
        for i, (_, options, _, state, native, tables) in enumerate(cases):
            if i in firsts:
                context = NpContext()
                rng.bit_generator.state = state
            native_enemy.np_decide(native, tables, options, context, rng)
        return len(cases)

    for (_, options, data, state, native, tables), battle in zip(cases, battles, strict=True):
        a, b = np.random.default_rng(), np.random.default_rng()
        a.bit_generator.state = b.bit_generator.state = state
        want = np_decide(battle, options, NpContext.from_dict(data), RandomDice(a))
        got, _ = native_enemy.np_decide(native, tables, options, NpContext.from_dict(data), b)
        assert got == want and a.bit_generator.state == b.bit_generator.state, (got, want)
    print(f"{len(cases)} red decisions of {args.games} games, {args.per_side} mechs a side")
    base = None
    for name, run in (("reference", reference), ("native core", core), ("native glue", glue)):
        wall, cpu = timed(run, args.seconds, args.rounds)
        base = base or wall
        print(f"{name:12s} {wall:10.0f} decisions/s wall  {cpu:10.0f} /s CPU  x{wall / base:6.1f}")


if __name__ == "__main__":
    main()
