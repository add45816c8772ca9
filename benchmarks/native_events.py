"""Micro-benchmark: the native No Quarter events against the Python reference, same run.

Run: .venv/bin/python benchmarks/native_events.py [--games 6] [--rounds 3]

The events are those of seeded random skirmishes (``Battle.apply`` wrapped to collect them, in
order). Rows, per event (every event of the games in turn):

* ``to_dict``: the reference ``Event.to_dict()`` and the native one (built straight into
  Python objects from the C++ struct);
* ``from_dict``: the reference registry's ``NO_QUARTER_EVENTS.from_dict`` and the native
  ``Event.from_dict``;
* ``apply``: every event of one game applied in order to a clone of its first state, by the
  reference ``Battle.apply`` and by the native ``apply`` (through the binding: one Python call
  an event, so the row measures the call as much as the C++).

Every native document is checked equal to the reference's before timing starts. The table shows
events per second of the thread's CPU time (medians over rounds; on a shared machine the figure
that does not depend on the other jobs) and the ratio to the reference row.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.native import no_quarter as native
from wargym.native.no_quarter import events as native_events
from wargym.rules.dice import RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish


def games(count: int, seed: int) -> list[tuple[dict[str, Any], list[Event]]]:
    """(first state, events in order) of ``count`` random 3-a-side skirmishes."""
    out: list[tuple[dict[str, Any], list[Event]]] = []
    original = Battle.apply
    log: list[Event] = []

    def wrapped(self: Battle, event: Event) -> None:
        log.append(event)
        original(self, event)

    Battle.apply = wrapped  # type: ignore[method-assign]
    try:
        for g in range(count):
            rng = np.random.default_rng(seed + g)
            dice = RandomDice.from_seed(seed + g)
            battle = new_skirmish(rng, dice, mechs_per_side=3)
            first, log = battle.to_dict(), []
            for _ in range(250):
                if battle.over:
                    break
                legal = game.legal_actions(battle)
                game.play(battle, legal[int(rng.integers(len(legal)))], dice)
            out.append((first, log))
    finally:
        Battle.apply = original  # type: ignore[method-assign]
    return out


def rate(run: Callable[[], int], rounds: int) -> float:
    """Median events per CPU second of ``run`` (which returns how many events it did)."""
    rates = []
    for _ in range(rounds):
        start = time.thread_time()
        done = run()
        rates.append(done / max(time.thread_time() - start, 1e-9))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    played = games(args.games, args.seed)
    events = [e for _, log in played for e in log]
    docs = [e.to_dict() for e in events]
    natives = [native_events.event_from_dict(d) for d in docs]
    assert all(n.to_dict() == d for n, d in zip(natives, docs, strict=True))

    first, log = played[0]
    reference_base = Battle.from_dict(first, check=False)
    native_base = native.battle_from_dict(first, check=False)
    native_log = [native_events.native_event(e) for e in log]

    def reference_apply() -> int:
        battle = reference_base.clone()
        for event in log:
            battle.apply(event)
        return len(log)

    def native_apply() -> int:
        battle = native_base.clone()
        apply = native_events.core.apply
        for event in native_log:
            apply(battle, event)
        return len(native_log)

    rows = [
        ("to_dict", lambda: len([e.to_dict() for e in events]),
         lambda: len([n.to_dict() for n in natives])),
        ("from_dict", lambda: len([NO_QUARTER_EVENTS.from_dict(d) for d in docs]),
         lambda: len([native_events.core.Event.from_dict(d) for d in docs])),
        ("apply", reference_apply, native_apply),
    ]  # fmt: skip
    print(f"{len(events)} events of {args.games} games; events per CPU second (median of "
          f"{args.rounds})")  # fmt: skip
    print(f"{'row':<10} {'reference':>12} {'native':>12} {'ratio':>7}")
    for name, reference, core in rows:
        r, n = rate(reference, args.rounds), rate(core, args.rounds)
        print(f"{name:<10} {r:>12,.0f} {n:>12,.0f} {n / r:>6.1f}x")


if __name__ == "__main__":
    main()
