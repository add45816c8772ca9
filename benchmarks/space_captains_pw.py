"""How strong the Pentagon War scripted captain is (issue 19 item 2) and scenario balance (item 3).

Usage::

    .venv/bin/python benchmarks/space_captains_pw.py [--games 200] [--first-seed 100000]
        [--scenario duel] [--balance] [--json OUT]

Duels: the captain against masked-random orders and against each fixed simple strategy of
``wargym.rules.pentagon_war.strategies`` (invisibility only, ECM only, always maximum thrust,
never fire), half the games in each seat, and captain against captain (mirror). Seeds run from
``--first-seed`` (the captain was tuned on seeds below 100,000; the default measures on seeds it
never saw). ``--balance`` plays captain against captain on every shipped scenario.
This is a report, not a test: the thresholds are printed with the figures, nothing is asserted.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from typing import Any

from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.strategies import PLAYERS, play_duel

OPPONENTS = ("random", "invisibility", "ecm", "max_thrust", "passive")
TARGETS = {"random": ("captain_win", 0.90)}
"""Captain win share wanted against masked-random orders; every fixed strategy: ≤ 20 % wins."""


def duel_row(scenario: str, opponent: str, games: int, first_seed: int) -> dict[str, Any]:
    """Captain against ``opponent``: the captain sits on side ``seed % 2``."""
    counts: collections.Counter[str] = collections.Counter()
    endings: collections.Counter[str] = collections.Counter()
    shots: list[int] = []
    uses: collections.Counter[str] = collections.Counter()
    for k in range(games):
        seed = first_seed + k
        seat = k % 2
        players = [PLAYERS[opponent], PLAYERS[opponent]]
        players[seat] = PLAYERS["captain"]
        result = play_duel(scenario, seed, (players[0], players[1]))
        shots += result.shots[seat]
        uses.update(result.power[seat])
        endings[result.ending] += 1
        if result.winner is None:
            counts["draw"] += 1
        else:
            counts["captain_win" if result.winner == seat else "opponent_win"] += 1
    far = sum(r >= 9 for r in shots) / len(shots) if shots else 0.0
    return {
        "opponent": opponent,
        "games": games,
        **{k: counts[k] for k in ("captain_win", "opponent_win", "draw")},
        "endings": dict(endings),
        "shots": len(shots),
        "share_of_shots_at_9_or_more": round(far, 3),
        "captain_power_uses": dict(uses),
    }


def mirror_row(scenario: str, games: int, first_seed: int) -> dict[str, Any]:
    """Captain against captain: wins per side and how decided games ended."""
    counts: collections.Counter[str] = collections.Counter()
    endings: collections.Counter[str] = collections.Counter()
    uses: collections.Counter[str] = collections.Counter()
    for k in range(games):
        result = play_duel(scenario, first_seed + k, (PLAYERS["captain"], PLAYERS["captain"]))
        counts[str(result.winner)] += 1
        endings[result.ending] += 1
        uses.update(result.power[0])
        uses.update(result.power[1])
    decided = counts["0"] + counts["1"]
    by_fight = sum(endings[e] for e in ("destroyed", "out_of_control"))
    return {
        "scenario": scenario,
        "games": games,
        "side_0_wins": counts["0"],
        "side_1_wins": counts["1"],
        "draws": counts["None"],
        "side_0_share_of_decided": round(counts["0"] / decided, 3) if decided else None,
        "endings": dict(endings),
        "decided_by_fight": round(by_fight / decided, 3) if decided else None,
        "power_uses": dict(uses),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="duels per row")
    parser.add_argument("--first-seed", type=int, default=100_000, help="first seed")
    parser.add_argument("--scenario", default="duel", help="scenario of the duels")
    parser.add_argument("--balance", action="store_true", help="mirror every shipped scenario")
    parser.add_argument("--only", nargs="*", default=None, help="opponents to play (default all)")
    parser.add_argument("--json", help="write the report as JSON here")
    args = parser.parse_args()
    start = time.perf_counter()
    report: dict[str, Any] = {"scenario": args.scenario, "first_seed": args.first_seed}
    rows = []
    for opponent in args.only if args.only is not None else OPPONENTS:
        row = duel_row(args.scenario, opponent, args.games, args.first_seed)
        rows.append(row)
        print(
            f"captain vs {opponent:13s} {row['captain_win']:4d}-{row['opponent_win']:4d}"
            f"-{row['draw']:4d} (win-loss-draw of {row['games']}); endings {row['endings']};"
            f" shots at 9+ hexes {row['share_of_shots_at_9_or_more']:.0%};"
            f" power (ship-turns) {row['captain_power_uses']}",
            flush=True,
        )
    report["duels"] = rows
    scenarios = list(load_rules().scenarios) if args.balance else [args.scenario]
    mirrors = []
    for name in scenarios:
        row = mirror_row(name, args.games, args.first_seed)
        mirrors.append(row)
        print(
            f"mirror {name:9s} side 0 {row['side_0_wins']:4d} side 1 {row['side_1_wins']:4d}"
            f" draws {row['draws']:4d}; side 0 share of decided {row['side_0_share_of_decided']};"
            f" decided by destruction or loss of control {row['decided_by_fight']};"
            f" endings {row['endings']}; power (ship-turns) {row['power_uses']}",
            flush=True,
        )
    report["mirrors"] = mirrors
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(f"{report['seconds']} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
