"""Decisions per second of whole random skirmishes: the native game API against the reference.

Both engines start from the same reference set-up documents and play uniformly random legal
actions (the same generator seed), each with its own dice; a game stops when it ends or after
``--decisions``. The native side goes through wargym.native.no_quarter.game (a Python call per
decision: legal_actions, then play; no events built), the reference through
rules.no_quarter.battle.game. CPU time (time.process_time).

    python benchmarks/native_game.py --games 40
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import tyro

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import game as native_game
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish


@dataclasses.dataclass
class Args:
    """Whole random skirmishes, native against reference."""

    games: int = 40
    """Games per engine."""
    per_side: int = 3
    """Mechs a side."""
    decisions: int = 400
    """Decisions per game at most."""


def documents(args: Args) -> list[dict[str, object]]:
    out = []
    for g in range(args.games):
        rng, dice = np.random.default_rng(g), RandomDice.from_seed(g)
        out.append(new_skirmish(rng, dice, mechs_per_side=args.per_side).to_dict())
    return out


def reference(docs: list[dict[str, object]], args: Args) -> tuple[int, float]:
    decisions, start = 0, time.process_time()
    for g, doc in enumerate(docs):
        battle, rng, dice = Battle.from_dict(doc), np.random.default_rng(g), RandomDice.from_seed(g)
        for _ in range(args.decisions):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
            decisions += 1
    return decisions, time.process_time() - start


def native(docs: list[dict[str, object]], args: Args) -> tuple[int, float]:
    prepared = [
        (battle_from_dict(doc), native_game.game_tables(Battle.from_dict(doc))) for doc in docs
    ]
    decisions, start = 0, time.process_time()
    for g, (battle, tables) in enumerate(prepared):
        rng, dice = np.random.default_rng(g), _core.RandomDice(g)
        for _ in range(args.decisions):
            if battle.over:
                break
            legal = native_game.legal_actions(battle, tables)
            native_game.play(battle, tables, legal[int(rng.integers(len(legal)))], dice)
            decisions += 1
    return decisions, time.process_time() - start


def main() -> None:
    args = tyro.cli(Args)
    docs = documents(args)
    ref_n, ref_s = reference(docs, args)
    nat_n, nat_s = native(docs, args)
    print(f"reference: {ref_n} decisions in {ref_s:.2f} s CPU = {ref_n / ref_s:,.0f}/s")
    print(f"native:    {nat_n} decisions in {nat_s:.2f} s CPU = {nat_n / nat_s:,.0f}/s")
    print(f"ratio: {(nat_n / nat_s) / (ref_n / ref_s):.1f}x")


if __name__ == "__main__":
    main()
