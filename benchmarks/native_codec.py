"""Micro-benchmark: the native action codec and actions against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_codec.py [--games 6] [--rounds 3]

Decision points come from seeded random skirmishes (tests/native/_action_samples.py's set-ups).
Rows, per call, in microseconds of the thread's CPU time (the best of ``--rounds``; on a shared
machine CPU time does not depend on the other jobs):

* ``mask``: the reference ``ActionCodec.mask`` with its table cache cleared, against the native
  ``NativeCodec.mask`` (which converts the legal list from Python objects on each call);
* ``encode`` of every legal option;
* ``decode`` of every 7th index at the points with a mech decision (native: ``decode_many``);
* the action dict round trip ``action_from_dict(action_to_dict(a))``.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "native"))

from _action_samples import skirmish_points  # noqa: E402

from wargym.envs.no_quarter.codec import ActionCodec  # noqa: E402
from wargym.native import no_quarter as nnq  # noqa: E402
from wargym.native.no_quarter import actions as native_actions  # noqa: E402
from wargym.native.no_quarter.codec import NativeCodec  # noqa: E402
from wargym.rules.no_quarter.battle import actions, game  # noqa: E402


def best(call: Callable[[], int], rounds: int) -> float:
    """The best CPU time per call, in microseconds."""
    out = float("inf")
    for _ in range(rounds):
        start = time.thread_time()
        n = call()
        out = min(out, (time.thread_time() - start) / n * 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    points: list[tuple[Any, Any, list[Any]]] = []
    for _label, battle, legal in itertools.islice(skirmish_points(args.games), 0, None, 3):
        points.append((battle.clone(), nnq.battle_from_dict(battle.to_dict()), legal))
    for battle, _nb, _legal in points:
        game.legal_actions(battle)  # the clone's options cache, as a live battle has it
    ref = ActionCodec(6, 8, 12)
    nat = NativeCodec(ref)
    mech_points = [
        p for p in points if p[0].decision is not None and p[0].decision.mech is not None
    ]
    indices = list(range(1, ref.n, 7))

    def ref_mask() -> int:
        for battle, _nb, _legal in points:
            ref._cache = None
            ref.mask(battle)
        return len(points)

    def nat_mask() -> int:
        for _battle, nb, legal in points:
            nat.mask(nb, legal)
        return len(points)

    def ref_encode() -> int:
        return sum(1 for battle, _nb, legal in points for a in legal if ref.encode(a, battle) >= 0)

    def nat_encode() -> int:
        return sum(1 for _battle, nb, legal in points for a in legal if nat.encode(a, nb) >= 0)

    def ref_decode() -> int:
        k = 0
        for battle, _nb, _legal in mech_points:
            for i in indices:
                with contextlib.suppress(ValueError):
                    ref.decode(i, battle)
                k += 1
        return k

    def nat_decode() -> int:
        for _battle, nb, legal in mech_points:
            nat.decode_many(indices, nb, legal)
        return len(mech_points) * len(indices)

    every = [a for _b, _nb, legal in points for a in legal]

    def ref_dicts() -> int:
        for a in every:
            actions.action_from_dict(actions.action_to_dict(a))
        return len(every)

    def nat_dicts() -> int:
        for a in every:
            native_actions.action_from_dict(native_actions.action_to_dict(a))
        return len(every)

    print(f"{len(points)} decision points, {len(every)} legal options, codec n = {ref.n}")
    print(f"{'call':<12}{'reference us':>14}{'native us':>12}{'speed-up':>10}")
    rows = [("mask", ref_mask, nat_mask), ("encode", ref_encode, nat_encode),
            ("decode", ref_decode, nat_decode), ("dict trip", ref_dicts, nat_dicts)]  # fmt: skip
    for name, r, n in rows:
        a, b = best(r, args.rounds), best(n, args.rounds)
        print(f"{name:<12}{a:>14.1f}{b:>12.1f}{a / b:>9.1f}x")


if __name__ == "__main__":
    main()
