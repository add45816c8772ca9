"""Micro-benchmark: one mech's Move options, native against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_movement.py [--games 4] [--per-side 3] [--rounds 3]

Decision points come from seeded random skirmishes (``--per-side`` mechs a side); at each, every
mech in play gets a standing mech frame (walks, reverses and, with jump jets, jumps). Rows:

* reference, cold: ``game._distinct(flow_mech._moves(...))`` with the battlefield's terrain memo
  and the geometry cache cleared first (a position seen for the first time);
* reference, warm: the same with the memo kept (``_terrain_candidates`` hits, as when the same
  position is asked again);
* native: ``movement.move_options(native_battle, frame, terrain)``: the binding reads the frame
  and the native Battle, works out the planning bases, the options and the de-duplication.

Every native list is checked equal to the reference's before timing. Times are the thread's
CPU time per call (median over rounds: it does not depend on the other jobs of a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native import no_quarter as native
from wargym.native.no_quarter import movement
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import flow_mech, game
from wargym.rules.no_quarter.battle.actions import Move
from wargym.rules.no_quarter.forces.setup import new_skirmish


def points(games: int, per_side: int, seed: int) -> list[tuple[Any, Any, Any, dict[str, Any]]]:
    out = []
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, mechs_per_side=per_side)
        for step in range(60):
            if battle.over:
                break
            if step % 6 == 0:
                b = battle.clone()
                nb = native.battle_from_dict(b.to_dict())
                for mech in b.mechs.values():
                    if mech.removed is None:
                        out.append((b, nb, mech, flow_mech.mech_frame(mech.id)))
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
    return out


def per_call(run: Callable[[], None], calls: int, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.thread_time()
        run()
        times.append((time.thread_time() - start) / calls)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--per-side", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pts = points(args.games, args.per_side, args.seed)
    terrains = [movement.move_terrain(b.battlefield) for b, _, _, _ in pts]
    options = 0
    for (b, nb, mech, frame), t in zip(pts, terrains, strict=True):
        want = [
            (o.mech, o.to, o.reverse, o.jump)
            for o in game._distinct(flow_mech._moves(b, mech, frame))
            if isinstance(o, Move)
        ]
        assert movement.move_options(nb, frame, t) == want
        options += len(want)

    def cold() -> None:
        for b, _, mech, frame in pts:
            b.battlefield.index.memo.clear()
            b.geometry_cache = None
            game._distinct(flow_mech._moves(b, mech, frame))

    def warm() -> None:
        for b, _, mech, frame in pts:
            game._distinct(flow_mech._moves(b, mech, frame))

    def core() -> None:
        for (_, nb, _, frame), t in zip(pts, terrains, strict=True):
            movement.move_options(nb, frame, t)

    n = len(pts)
    rows = [
        ("reference, cold", per_call(cold, n, args.rounds)),
        ("reference, warm", per_call(warm, n, args.rounds)),
        ("native", per_call(core, n, args.rounds)),
    ]
    native_time = rows[-1][1]
    print(f"{n} mech frames, {options / n:.0f} Move options each on average")
    for label, seconds in rows:
        print(f"{label:18s} {seconds * 1e6:9.1f} us a call   {seconds / native_time:6.1f}x native")


if __name__ == "__main__":
    main()
