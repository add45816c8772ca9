"""Strength of the Starship Combat scripted captain (issue 19), measured, not asserted.

Usage: ``python benchmarks/space_captains_sc.py [--games N] [--seed S] [--json OUT]``.

Every match plays ``--games`` battles, seeds ``S, S+1, ...`` (the default 50_000 lies outside
the seeds used while tuning the captain, 0-999), the two players swapping sides each game.
Reported per match: wins of each player, draws, and how each battle ended:

* ``captain`` against masked-random orders (a uniform choice among the legal options, the
  env's action mask) and against fixed simple strategies (see ``STRATEGIES``);
* captain mirror duels, with the share of decided battles that ended by destruction, loss of
  control (crew, computer, power, weapons, sensors: TR-R25) or capture rather than by a ship
  leaving the map;
* captain against captain in every shipped scenario (the scenario balance in the docs).
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.starship_combat import captain, game, hexmap
from wargym.rules.starship_combat.actions import (
    Accelerate,
    Action,
    Board,
    DecisionKind,
    Fire,
    HoldFire,
    SetFlicker,
    SetHeading,
)
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.state import BattleState, Options

Policy = Callable[[BattleState, int, np.random.Generator], Action]


def _decision(state: BattleState, side: int) -> Any:
    d = game.decision(state, side)
    assert d is not None
    return d


def _nearest(state: BattleState, side: int, ship_id: int) -> Any:
    ship = state.ship(ship_id)
    enemies = [s for s in state.ships if s.side != side and not s.out]
    if not enemies:
        return None
    return min(enemies, key=lambda e: (hexmap.distance(ship.pos, e.pos), e.id))


def _toward(state: BattleState, d: Any, away: bool = False) -> Action:
    """Heading or maximum thrust toward (or away from) the nearest enemy."""
    ship = state.ship(d.ship)
    enemy = _nearest(state, ship.side, ship.id)
    if enemy is None or enemy.pos == ship.pos:
        return d.options[0]
    want = (hexmap.bearing_deg(ship.pos, enemy.pos) / 60.0 + (3 if away else 0)) % 6

    def off(direction: int) -> float:
        diff = abs(direction - want) % 6
        return min(diff, 6 - diff)

    if d.kind is DecisionKind.HEADING:
        return min(d.options, key=lambda a: off(a.direction))
    return min(d.options, key=lambda a: (-a.magnitude, off(a.direction)))


def _fire_all(d: Any) -> Action:
    fires = [a for a in d.options if isinstance(a, Fire)]
    return max(fires, key=lambda a: (a.batteries, -a.target)) if fires else d.options[0]


def _common(d: Any) -> Action:
    """Black globe at maximum, no boarding, all other choices by the caller."""
    if d.kind is DecisionKind.FLICKER:
        return max(d.options, key=lambda a: a.pct if isinstance(a, SetFlicker) else -1)
    if d.kind is DecisionKind.BOARD:
        return Board(None)
    return d.options[0]


def policy_captain(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """The scripted captain (``rules/starship_combat/captain.py``)."""
    return captain.choose(state, side)


def policy_random(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Masked random: a uniform choice among the legal options (the env's action mask)."""
    options = _decision(state, side).options
    return options[int(rng.integers(len(options)))]


def policy_stand_and_fire(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Face the nearest enemy, never thrust, fire every battery at it."""
    d = _decision(state, side)
    if d.kind is DecisionKind.HEADING:
        return _toward(state, d)
    if d.kind is DecisionKind.ACCEL:
        return Accelerate(0, 0)
    if d.kind is DecisionKind.FIRE:
        return _fire_all(d)
    return _common(d)


def policy_max_thrust(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Always maximum thrust toward the nearest enemy; fire every battery."""
    d = _decision(state, side)
    if d.kind in (DecisionKind.HEADING, DecisionKind.ACCEL):
        return _toward(state, d)
    if d.kind is DecisionKind.FIRE:
        return _fire_all(d)
    return _common(d)


def policy_flee(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Maximum thrust away from the nearest enemy; fire every battery."""
    d = _decision(state, side)
    if d.kind in (DecisionKind.HEADING, DecisionKind.ACCEL):
        return _toward(state, d, away=True)
    if d.kind is DecisionKind.FIRE:
        return _fire_all(d)
    return _common(d)


def policy_never_fire(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """The captain's movement, but never fires and never boards."""
    d = _decision(state, side)
    if d.kind is DecisionKind.FIRE:
        return HoldFire()
    if d.kind is DecisionKind.BOARD:
        return Board(None)
    return captain.choose(state, side)


def policy_one_battery(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """The captain, but one battery per order (the old batching exploit; now one order)."""
    d = _decision(state, side)
    if d.kind is DecisionKind.FIRE:
        fires = [a for a in d.options if isinstance(a, Fire) and a.batteries == 1]
        return fires[0] if fires else d.options[0]
    return captain.choose(state, side)


def policy_captain_no_board(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """The captain without boarding (an ablation: does boarding pay?)."""
    d = _decision(state, side)
    if d.kind is DecisionKind.BOARD:
        return Board(None)
    return captain.choose(state, side)


def policy_first(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Always the first legal option (heading A, no thrust, hold fire, no boarding)."""
    return _decision(state, side).options[0]


def policy_last(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Always the last legal option (heading F, most thrust toward F, most batteries)."""
    return _decision(state, side).options[-1]


def policy_heading_thrust(state: BattleState, side: int, rng: np.random.Generator) -> Action:
    """Keep the starting heading and thrust at maximum along it; fire every battery."""
    d = _decision(state, side)
    ship = state.ship(d.ship)
    if d.kind is DecisionKind.HEADING:
        return SetHeading(ship.heading) if SetHeading(ship.heading) in d.options else d.options[0]
    if d.kind is DecisionKind.ACCEL:
        along = [a for a in d.options if a.direction == ship.heading]
        return max(along or d.options, key=lambda a: a.magnitude)
    if d.kind is DecisionKind.FIRE:
        return _fire_all(d)
    return _common(d)


STRATEGIES: dict[str, Policy] = {
    "stand_and_fire": policy_stand_and_fire,
    "max_thrust": policy_max_thrust,
    "heading_thrust": policy_heading_thrust,
    "flee": policy_flee,
    "never_fire": policy_never_fire,
    "one_battery": policy_one_battery,
    "first_option": policy_first,
    "last_option": policy_last,
    "captain_no_board": policy_captain_no_board,
}
"""The fixed simple strategies the captain is measured against."""


def end_kind(state: BattleState) -> str:
    """How a finished battle ended: draw kinds, or the losers' reasons (TR-R25)."""
    if state.end_reason == "max_rounds":
        return "truncated"
    reasons = sorted({s.out for s in state.ships if s.out and (
        state.winner is None or s.side != state.winner)})  # fmt: skip
    kind = "map" if reasons and all(r == "disengaged" for r in reasons) else (
        "capture" if "captured" in reasons else "destruction" if "destroyed" in reasons
        else "control")  # fmt: skip
    return ("mutual_" if state.winner is None else "") + kind


def play(scenario: str, a: Policy, b: Policy, seed: int, options: Options) -> tuple[int, str]:
    """One battle, ``a`` on side ``seed % 2``: (+1 a won, -1 b won, 0 draw, end kind)."""
    rng = np.random.default_rng(seed)
    state = game.new_battle(scenario, options)
    dice = RandomDice(np.random.default_rng(seed + 1_000_003))
    seat_a = seed % 2
    while not game.is_over(state):
        side = game.decider(state)
        assert side is not None
        policy = a if side == seat_a else b
        game.play(state, side, policy(state, side, rng), dice)
    result = 0 if state.winner is None else (1 if state.winner == seat_a else -1)
    return result, end_kind(state)


def match(scenario: str, a: Policy, b: Policy, games: int, seed: int,
          options: Options | None = None) -> dict[str, Any]:  # fmt: skip
    """``games`` battles of ``a`` against ``b``, sides alternating."""
    opts = options or Options()
    wins = losses = draws = 0
    ends: collections.Counter[str] = collections.Counter()
    for i in range(games):
        result, kind = play(scenario, a, b, seed + i, opts)
        wins += result == 1
        losses += result == -1
        draws += result == 0
        ends[kind] += 1
    decided = sum(v for k, v in ends.items() if not k.startswith("mutual_map") and k != "map"
                  and k != "truncated")  # fmt: skip
    by_fight = sum(v for k, v in ends.items() if k in ("destruction", "control", "capture",
                   "mutual_destruction", "mutual_control", "mutual_capture"))  # fmt: skip
    ended = sum(v for k, v in ends.items() if k != "truncated")
    return {
        "games": games, "a_wins": wins, "b_wins": losses, "draws": draws,
        "a_win_pct": round(100.0 * wins / games, 1),
        "b_win_pct": round(100.0 * losses / games, 1), "ends": dict(sorted(ends.items())),
        "ended_by_fight_pct": round(100.0 * by_fight / ended, 1) if ended else None,
        "decided": decided,
    }  # fmt: skip


def duel_matches(report: dict[str, Any], games: int, seed: int) -> None:
    """The duel rows: captain against random and each strategy, mirror with and without fog."""
    rows = [("captain v random", policy_random)] + [
        (f"captain v {name}", p) for name, p in STRATEGIES.items()]  # fmt: skip
    for label, opponent in rows:
        r = match("duel", policy_captain, opponent, games, seed)
        report["duel"][label] = r
        print(f"{label:32s} captain {r['a_win_pct']:5.1f}%  other {r['b_win_pct']:5.1f}%  "
              f"draws {r['draws']:3d}  ends {r['ends']}", flush=True)  # fmt: skip
    r = match("duel", policy_captain, policy_captain, games, seed)
    report["mirror"] = r
    print(f"{'captain mirror (duel)':32s} side wins {r['a_wins']}/{r['b_wins']} draws "
          f"{r['draws']}; by destruction/control/capture {r['ended_by_fight_pct']}% of ended; "
          f"ends {r['ends']}", flush=True)  # fmt: skip
    r = match("duel", policy_captain, policy_captain, games, seed, Options(sensors=True))
    report["mirror_sensors"] = r
    print(f"{'captain mirror (duel, sensors)':32s} ends {r['ends']}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="battles per match")
    parser.add_argument("--seed", type=int, default=50_000, help="first seed")
    parser.add_argument("--json", help="write the report as JSON here")
    parser.add_argument("--scenarios", action="store_true", help="also every scenario, c v c")
    parser.add_argument(
        "--uplift",
        action="store_true",
        help="every scenario: captain or stand_and_fire on each side",
    )
    parser.add_argument("--skip-duel", action="store_true", help="skip the duel matches")
    args = parser.parse_args()
    start = time.perf_counter()
    report: dict[str, Any] = {"games": args.games, "seed": args.seed, "duel": {}}
    if not args.skip_duel:
        duel_matches(report, args.games, args.seed)
    if args.scenarios:
        report["scenarios"] = {}
        for name in sorted(load_rules().scenarios):
            r = scenario_balance(name, args.games, args.seed)
            report["scenarios"][name] = r
            print(f"scenario {name:14s} side 0 {r['side0_win_pct']:5.1f}%  side 1 "
                  f"{r['side1_win_pct']:5.1f}%  draws {r['draws']}  ends {r['ends']}",
                  flush=True)  # fmt: skip
    if args.uplift:
        report["uplift"] = {}
        stand = policy_stand_and_fire
        pairs = (("captain v stand", policy_captain, stand), ("stand v captain", stand,
                 policy_captain), ("stand v stand", stand, stand))  # fmt: skip
        for name in sorted(load_rules().scenarios):
            for label, p0, p1 in pairs:
                r = scenario_balance(name, args.games, args.seed, p0, p1)
                report["uplift"][f"{name}: {label}"] = r
                print(f"{name:14s} {label:16s} side 0 {r['side0_win_pct']:5.1f}%  side 1 "
                      f"{r['side1_win_pct']:5.1f}%  draws {r['draws']}", flush=True)  # fmt: skip
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(f"{report['seconds']} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)


def scenario_balance(
    scenario: str, games: int, seed: int, p0: Policy = policy_captain,
    p1: Policy = policy_captain,
) -> dict[str, Any]:  # fmt: skip
    """``p0`` on side 0 against ``p1`` on side 1 (default captain v captain): side wins."""
    wins = [0, 0]
    ends: collections.Counter[str] = collections.Counter()
    for i in range(games):
        rng = np.random.default_rng(seed + i)
        state = game.new_battle(scenario)
        dice = RandomDice(np.random.default_rng(seed + i + 1_000_003))
        while not game.is_over(state):
            side = game.decider(state)
            assert side is not None
            game.play(state, side, (p0 if side == 0 else p1)(state, side, rng), dice)
        if state.winner is not None:
            wins[state.winner] += 1
        ends[end_kind(state)] += 1
    return {"games": games, "side0_wins": wins[0], "side1_wins": wins[1],
            "draws": games - sum(wins), "side0_win_pct": round(100.0 * wins[0] / games, 1),
            "side1_win_pct": round(100.0 * wins[1] / games, 1),
            "ends": dict(sorted(ends.items()))}  # fmt: skip


if __name__ == "__main__":
    main()
