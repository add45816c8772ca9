"""Micro-benchmark: the native observation encoder against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_encoding.py [--seconds 1] [--rounds 3] [--per-side 3]

States come from seeded random skirmishes (``--per-side`` mechs a side), taken after every
decision of ``--games`` games; each timed loop cycles through them with the deciding side as
the viewer and the enemies in sight precomputed (as the env passes them). Rows, per layout:

* ``ObservationEncoder.encode``: the reference (``static_planes`` and its reach discs cached,
  as in an env);
* ``encode_into``: the native encoder writing into one preallocated float32 buffer;
* with ``action_features``: the codec's table of the decision is built once per state outside
  the timed loop; the native row includes the glue's conversion of that table.

Every native array is checked equal to the reference's before timing starts. The table shows
calls per second of the thread's CPU time (medians over rounds; the figure that does not
depend on other jobs on a shared machine) and the ratio to the reference row.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.envs.no_quarter.codec import ActionCodec
from wargym.envs.no_quarter.encoding import ObservationEncoder, visible_enemies
from wargym.native import no_quarter as native
from wargym.native.no_quarter.encoding import NativeObservationEncoder
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish


def states(games: int, per_side: int) -> list[tuple[Battle, Any]]:
    """(reference battle, native battle) after every decision, deciding side known."""
    out = []
    for g in range(games):
        rng, dice = np.random.default_rng(g), RandomDice.from_seed(g)
        battle = new_skirmish(rng, dice, mechs_per_side=per_side)
        while not battle.over and len(out) < 200 * (g + 1):
            if battle.decision is not None:
                out.append((battle.clone(), native.battle_from_dict(battle.to_dict())))
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
    return out


def rate(call: Callable[[int], None], n: int, seconds: float, rounds: int) -> float:
    """Median calls per CPU second."""
    found = []
    for _ in range(rounds):
        count, start = 0, time.thread_time()
        while time.thread_time() - start < seconds:
            call(count % n)
            count += 1
        found.append(count / (time.thread_time() - start))
    return statistics.median(found)


def measure(label: str, kwargs: dict[str, Any], pairs: list[tuple[Battle, Any]],
            args: argparse.Namespace) -> None:  # fmt: skip
    """One row: the reference and the native encoder on the same states."""
    viewers = [b.decision.side for b, _ in pairs if b.decision is not None]
    seen = [visible_enemies(b, v) for (b, _), v in zip(pairs, viewers, strict=True)]
    features = label == "action features"
    codec = ActionCodec(args.per_side, 8, 12, pairs[0][0].options)
    tables = [codec.table(b) for b, _ in pairs] if features else [None] * len(pairs)
    holder: dict[str, Any] = {}
    extra = {"action_table": lambda b, v: holder["table"], "n_actions": codec.n}
    reference = ObservationEncoder(args.per_side, **kwargs, **(extra if features else {}))
    encoder = NativeObservationEncoder(reference)
    out = np.empty(encoder.size, np.float32)

    def python(i: int) -> None:
        holder["table"] = tables[i]
        reference.encode(pairs[i][0], viewers[i], seen[i])

    def core(i: int) -> None:
        encoder.encode_into(pairs[i][1], viewers[i], seen[i], out, actions=tables[i])

    for i in range(len(pairs)):
        holder["table"] = tables[i]
        want = reference.encode(pairs[i][0], viewers[i], seen[i])
        core(i)
        assert np.array_equal(want, out), f"{label}: state {i} differs"
    slow = rate(python, len(pairs), args.seconds, args.rounds)
    fast = rate(core, len(pairs), args.seconds, args.rounds)
    print(f"  {label:16s} python {slow:9.0f}/s  native {fast:9.0f}/s  {fast / slow:5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--per-side", type=int, default=3)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    pairs = states(args.games, args.per_side)
    print(f"{len(pairs)} states, {args.per_side} mechs a side; calls per CPU second")
    for label, kwargs in (("cell 1", {}), ("cell 0.5", {"cell": 0.5}), ("action features", {})):
        measure(label, kwargs, pairs, args)


if __name__ == "__main__":
    main()
