r"""Play a No Quarter campaign from the command line: start, continue, inspect, save (§23, §24).

Usage::

    python -m wargym.campaign_cli start --campaign generic --save run.json \
        [--faction star_army] [--player scripted|random|human] [--enemy scripted] \
        [--seed 1] [--missions N] [--carry 0]
    python -m wargym.campaign_cli continue --save run.json [--player ...] [--missions N]
    python -m wargym.campaign_cli inspect --save run.json [--json]
    python -m wargym.campaign_cli save --save run.json --to copy.json

Controllers of the player side:

* ``scripted``: keeps the pilots as they are, sends the highest-Rep pilots up to the force
  limit, chooses the Destroy objective, takes the first legal option that fires, otherwise
  the move that ends nearest an enemy Mech (or the far edge), otherwise the first option;
* ``random``: a uniformly random legal option (seeded);
* ``human``: the legal options numbered on stdout, the choice read from stdin (``q`` saves
  and quits).

The enemy side of every mission is the rules' NP AI (§22.4), so ``--enemy`` accepts only
``scripted``. The game is saved atomically after every mission and at the end of a session.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.actions import (
    AssignFire,
    ChooseObjective,
    ExitTable,
    FireAtBuilding,
    FireFirst,
    Move,
)
from wargym.rules.no_quarter.campaign import Campaign, load_definition
from wargym.rules.no_quarter.campaign_play import (
    AnyAction,
    CampaignGame,
    EndAssignment,
    LaunchMission,
    SelectMech,
)
from wargym.rules.no_quarter.saves import load_game, save_game
from wargym.rules.no_quarter.vocab import Faction, Side

Controller = Callable[[CampaignGame, list[AnyAction]], AnyAction | None]
"""Picks one of the legal options; None asks to save and stop."""


def scripted(game: CampaignGame, options: list[AnyAction]) -> AnyAction:
    """The documented simple policy of the player side (see the module docstring)."""
    c = game.campaign
    if any(isinstance(o, EndAssignment) for o in options):
        return next(o for o in options if isinstance(o, EndAssignment))
    picks = [o for o in options if isinstance(o, SelectMech)]
    if picks:
        return max(picks, key=lambda o: (c.pilot(c.mech(o.mech).pilot or 0).rep, -o.mech))
    for kind in (LaunchMission, ChooseObjective, AssignFire, FireAtBuilding, FireFirst):
        found = [o for o in options if isinstance(o, kind)]
        if found:
            if kind is ChooseObjective:
                return next(o for o in found if getattr(o, "objective", "") == "destroy")
            return found[0]
    battle = game.battle
    exits = [o for o in options if isinstance(o, ExitTable)]
    if exits and battle is not None and battle.mission and len(battle.mission["recon"]) >= 3:
        return exits[0]
    moves = [o for o in options if isinstance(o, Move) and not o.reverse]
    if moves and battle is not None:
        enemies = [m.pos for m in battle.mechs_of(Side.RED)]

        def gap(move: Move) -> float:
            if not enemies:
                return battle.battlefield.height - move.to[1]
            return min(math.dist(move.to, e) for e in enemies)

        return min(moves, key=gap)
    return options[0]


def random_controller(seed: int | None) -> Controller:
    """A uniformly random legal option."""
    rng = np.random.default_rng(seed)

    def pick(game: CampaignGame, options: list[AnyAction]) -> AnyAction:
        return options[int(rng.integers(len(options)))]

    return pick


def human(stdin: TextIO, stdout: TextIO) -> Controller:
    """Numbered options on ``stdout``, the choice from ``stdin``; ``q`` stops."""

    def pick(game: CampaignGame, options: list[AnyAction]) -> AnyAction | None:
        decision = game.decider()
        stdout.write(f"\n{decision}\n")
        for i, option in enumerate(options):
            stdout.write(f"  {i}: {option}\n")
        while True:
            stdout.write("choice (q saves and quits)> ")
            stdout.flush()
            line = stdin.readline()
            if not line or line.strip().lower() == "q":
                return None
            if line.strip().isdigit() and int(line) < len(options):
                return options[int(line)]
            stdout.write("enter one of the numbers above\n")

    return pick


def controller(name: str, seed: int | None) -> Controller:
    """The player-side controller called ``name``."""
    if name == "scripted":
        return scripted
    if name == "random":
        return random_controller(seed)
    if name == "human":
        return human(sys.stdin, sys.stdout)
    raise SystemExit(f"unknown controller {name!r}; use scripted, random or human")


def describe(c: Campaign) -> str:
    """A readable summary of the campaign state."""
    lines = [
        f"campaign {c.definition.name}: {c.player.value} vs {c.enemy.value}",
        f"month {c.month}, missions played {c.played}, next mission {c.next_mission}",
        f"Campaign Morale: player {c.player_cm} ({c.player_status.value}), "
        f"enemy {c.enemy_cm} ({c.enemy_status.value})",
    ]
    if c.over:
        lines.append(f"OVER: {c.result} ({c.end_reason}); next campaign CM {c.carry_over:+d}")
    lines.append("mechs:")
    for m in c.mechs:
        pilot = "-" if m.pilot is None else f"pilot {m.pilot} Rep {c.pilot(m.pilot).rep}"
        extra = f" for {m.unavailable}" if m.unavailable else ""
        lines.append(f"  {m.id}: {m.design} {m.state.value}{extra}, {pilot}")
    spares = c.spare_pilots()
    lines.append("spare pilots: " + (", ".join(f"{p.id} (Rep {p.rep})" for p in spares) or "-"))
    for r in c.history:
        lines.append(
            f"  mission {r.number} {r.name}: {r.status} ({r.reason}); CM {r.player_cm} / "
            f"{r.enemy_cm}; lost mechs {list(r.mechs_lost)}, dead {list(r.pilots_dead)}"
        )
    return "\n".join(lines)


def run(game: CampaignGame, pick: Controller, path: str, seed: int | None, missions: int) -> bool:
    """Play until the campaign ends, ``missions`` more missions end, or the human quits."""
    dice = RandomDice.from_seed(seed)
    target = game.campaign.played + missions if missions > 0 else None
    while game.decider() is not None:
        if target is not None and game.campaign.played >= target and game.stage != "battle":
            break
        options = game.legal_actions()
        action = pick(game, options)
        if action is None:
            break
        before = game.campaign.played
        game.play(action, dice)
        if game.campaign.played != before:
            save_game(path, game)
    save_game(path, game)
    return game.campaign.over


def non_negative_int(text: str) -> int:
    """An argparse type: an integer >= 0 (argparse turns the ValueError into exit code 2)."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2: bad arguments or a bad file, no traceback)."""
    parser = argparse.ArgumentParser(prog="wargym.campaign_cli", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("start", "continue"):
        p = sub.add_parser(name)
        p.add_argument("--save", required=True)
        p.add_argument("--player", default="scripted", choices=("scripted", "random", "human"))
        p.add_argument(
            "--enemy", default="scripted", help="scripted only: the rules' NP AI (§22.4)"
        )
        p.add_argument("--seed", type=int, default=None)
        p.add_argument(
            "--missions", type=non_negative_int, default=0, help="stop after N missions (0: all)"
        )
        if name == "start":
            p.add_argument("--campaign", default="generic")
            p.add_argument("--faction", default=None, choices=[f.value for f in Faction])
            p.add_argument("--carry", type=non_negative_int, default=0)
    p = sub.add_parser("inspect")
    p.add_argument("--save", required=True)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("save")
    p.add_argument("--save", required=True)
    p.add_argument("--to", required=True)
    args = parser.parse_args(argv)
    if args.command in ("start", "continue") and args.enemy != "scripted":
        parser.error(
            f"--enemy {args.enemy}: the enemy of a mission is the rules' NP AI (§22.4): "
            "use --enemy scripted"
        )
    try:
        return _dispatch(args)
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "start":
        definition = load_definition(args.campaign)
        faction = None if args.faction is None else Faction(args.faction)
        rng = np.random.default_rng(args.seed)
        game = CampaignGame.start(
            definition, RandomDice.from_seed(args.seed), rng, faction=faction, carry=args.carry
        )
        save_game(args.save, game)
    elif args.command == "continue":
        game = load_game(args.save)
    elif args.command == "inspect":
        game = load_game(args.save)
        text: Any = game.to_dict()["campaign"] if args.json else describe(game.campaign)
        print(json.dumps(text, indent=1) if args.json else text)
        return 0
    else:
        save_game(args.to, load_game(args.save))
        return 0
    seed = None if args.seed is None else args.seed + game.campaign.played + 1
    run(game, controller(args.player, seed), args.save, seed, args.missions)
    print(describe(game.campaign))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
