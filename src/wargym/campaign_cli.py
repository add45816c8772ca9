r"""Play a No Quarter campaign from the command line: start, continue, inspect, save (§23, §24).

Usage::

    python -m wargym.campaign_cli start --campaign generic --save run.json \
        [--faction star_army] [--player scripted|random|human] [--enemy scripted] \
        [--seed 1] [--missions N] [--carry 0] [--force]
    python -m wargym.campaign_cli continue --save run.json [--player ...] [--missions N]
    python -m wargym.campaign_cli inspect --save run.json [--json]
    python -m wargym.campaign_cli save --save run.json --to copy.json

Controllers of the player side:

* ``scripted``: keeps the pilots as they are, sends the highest-Rep pilots up to the force
  limit, chooses the Destroy objective, keeps its groups (§13.1), takes the first legal
  option that fires, otherwise the move that ends nearest an enemy Mech (or the far edge),
  otherwise the first option (so a higher leader takes in every group offered, §12.2);
* ``random``: a uniformly random legal option (seeded);
* ``human``: the legal options numbered on stdout, the choice read from stdin (``q`` or the
  end of input saves and quits; anything but an ASCII number in range asks again; Ctrl-C
  quits without saving, so the save keeps the state after the last finished mission).

The enemy side of every mission is the rules' NP AI (§22.4), so ``--enemy`` accepts only
``scripted``. The game is saved atomically after every mission and at the end of a session.
``start`` refuses a save file that exists (``--force`` overwrites it). ``start`` and
``continue`` hold the save's lock (:func:`~.saves.save_lock`) for the
whole session: a second session on the same save waits :data:`SESSION_WAIT` seconds, then
refuses, so two sessions never play from the same state and no mission is lost. Bad arguments
and bad files exit with status 2 and one line on stderr (docs/bad_input.md).
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TextIO

import numpy as np
from tyro.conf import EnumChoicesFromValues, subcommand

from wargym import cli_args
from wargym.cli_args import checked
from wargym.rules.dice import RandomDice
from wargym.rules.errors import RulesError, short_repr
from wargym.rules.no_quarter.battle.actions import (
    AssignFire,
    ChooseObjective,
    ExitTable,
    FireAtBuilding,
    FireFirst,
    KeepGroups,
    Move,
)
from wargym.rules.no_quarter.campaigns.campaign import Campaign, load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import (
    AnyAction,
    CampaignGame,
    EndAssignment,
    LaunchMission,
    SelectMech,
)
from wargym.rules.no_quarter.campaigns.saves import load_game, save_game, save_lock
from wargym.rules.no_quarter.forces.vocab import Faction, Side

Controller = Callable[[CampaignGame, list[AnyAction]], AnyAction | None]
"""Picks one of the legal options; None asks to save and stop."""

SESSION_WAIT = 3.0
"""Seconds ``start`` / ``continue`` wait for another session that holds the save's lock."""
MAX_CARRY = 1
"""Largest ``--carry``: the largest carry-over of the campaign rules (§23.3.1: a win, +1)."""


class CliError(Exception):
    """A bad argument found after parsing (an existing save, a folder); exit status 2."""


class EndOfInputError(Exception):
    """The human player's input ended at the prompt; the game is saved as it stands."""


def _choice(line: str, count: int) -> int | None:
    """The option number ``line`` names in ASCII digits, or None ('²'.isdigit() is true)."""
    text = line.strip()
    if not (text.isascii() and text.isdecimal()) or len(text) > 9:
        return None
    number = int(text)
    return number if number < count else None


def scripted(game: CampaignGame, options: list[AnyAction]) -> AnyAction:
    """The documented simple policy of the player side (see the module docstring)."""
    c = game.campaign
    if any(isinstance(o, EndAssignment) for o in options):
        return next(o for o in options if isinstance(o, EndAssignment))
    picks = [o for o in options if isinstance(o, SelectMech)]
    if picks:
        return max(picks, key=lambda o: (c.pilot(c.mech(o.mech).pilot or 0).rep, -o.mech))
    for kind in (KeepGroups, LaunchMission, ChooseObjective, AssignFire, FireAtBuilding, FireFirst):
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


def _read_line(stdin: TextIO) -> str:
    """One line of input; bytes that are not UTF-8 become U+FFFD (asked again, not a crash)."""
    raw = getattr(stdin, "buffer", None)
    if raw is not None:  # a real stream: decode ourselves, so bad bytes lose no later line
        data: bytes = raw.readline()
        return data.decode("utf-8", errors="replace")
    try:
        return stdin.readline()
    except UnicodeDecodeError:
        return "?"


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
            line = _read_line(stdin)
            if not line:
                stdout.write("\n")
                raise EndOfInputError
            if line.strip().lower() == "q":
                return None
            number = _choice(line, len(options))
            if number is not None:
                return options[number]
            stdout.write(f"enter one of the numbers 0..{len(options) - 1}, or q\n")

    return pick


def controller(name: str, seed: int | None) -> Controller:
    """The player-side controller called ``name``."""
    if name == "scripted":
        return scripted
    if name == "random":
        return random_controller(seed)
    if name == "human":
        return human(sys.stdin, sys.stdout)
    raise CliError(f"unknown controller {name!r}; use scripted, random or human")


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
    """Play until the campaign ends, ``missions`` more missions end, or the human quits.

    The game is saved after every mission and at the end; :class:`EndOfInputError` from the
    controller saves the game as it stands at the prompt and propagates.
    """
    dice = RandomDice.from_seed(seed)
    target = game.campaign.played + missions if missions > 0 else None
    while game.decider() is not None:
        if target is not None and game.campaign.played >= target and game.stage != "battle":
            break
        options = game.legal_actions()
        try:
            action = pick(game, options)
        except EndOfInputError:
            save_game(path, game)
            raise
        if action is None:
            break
        before = game.campaign.played
        game.play(action, dice)
        if game.campaign.played != before:
            save_game(path, game)
    save_game(path, game)
    return game.campaign.over


non_negative_int = cli_args.int_in(0)
"""An argparse type: an integer >= 0 (a bad value exits with status 2)."""


@dataclass
class _Session:
    save: Annotated[str, checked(cli_args.path, "PATH")]
    """The save file (JSON), written atomically after every mission."""
    player: Literal["scripted", "random", "human"] = "scripted"
    """Controller of the player side: scripted (a fixed, sensible procedure), random (a seeded
    uniformly random legal option) or human (numbered options on stdout, the choice on stdin;
    q or the end of input saves and quits)."""
    enemy: str = "scripted"
    """The enemy side: scripted only, the rules' NP AI (§22.4)."""
    seed: Annotated[int | None, checked(cli_args.seed, "SEED")] = None
    """Seed of the dice and of the random controller, 0..2**63-1 (None: fresh entropy)."""
    missions: Annotated[int, checked(non_negative_int, "N")] = 0
    """Stop after this many more missions (0: play to the end of the campaign)."""


@dataclass
class Start(_Session):
    """Start a new campaign and play it."""

    campaign: Annotated[str, checked(cli_args.path, "NAME")] = "generic"
    """Campaign definition: a shipped one by name (generic, cestus_v) or a .yaml file."""
    faction: Annotated[Faction | None, EnumChoicesFromValues] = None
    """The player's faction (None: the campaign's own)."""
    carry: Annotated[int, checked(cli_args.int_in(0, MAX_CARRY), "N")] = 0
    """Carry-over points to start with (§23.3.1), 0..1."""
    force: bool = False
    """Overwrite an existing save file."""

    command = "start"


@dataclass
class Continue(_Session):
    """Continue a saved campaign."""

    command = "continue"


@dataclass
class Inspect:
    """Print a save's campaign state."""

    save: Annotated[str, checked(cli_args.path, "PATH")]
    """The save file to read."""
    json: bool = False
    """Print the campaign block as JSON instead of words."""

    command = "inspect"


@dataclass
class Save:
    """Copy a save to another file (validated, written atomically)."""

    save: Annotated[str, checked(cli_args.path, "PATH")]
    """The save file to read."""
    to: Annotated[str, checked(cli_args.path, "PATH")]
    """The file to write."""

    command = "save"


Command = (
    Annotated[Start, subcommand("start")]
    | Annotated[Continue, subcommand("continue")]
    | Annotated[Inspect, subcommand("inspect")]
    | Annotated[Save, subcommand("save")]
)
"""The subcommands (tyro)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2: bad arguments or a bad file, no traceback)."""
    args: Any = cli_args.tyro_cli(
        Command,  # type: ignore[arg-type]
        argv,
        prog="wargym campaign",
        description=(__doc__ or "").split("\n")[0],
    )
    if args.command in ("start", "continue") and args.enemy != "scripted":
        print(
            f"wargym campaign: error: --enemy {short_repr(args.enemy)}: the enemy of a mission "
            "is the rules' NP AI (§22.4): use --enemy scripted",
            file=sys.stderr,
        )
        return 2
    where = cli_args.shown(args.save)
    try:
        if args.command in ("start", "continue"):
            with save_lock(args.save, wait=SESSION_WAIT):  # one session per save
                return _play(args)
        return _dispatch(args)
    except EndOfInputError:
        print(
            f"end of input at the prompt: the game is saved at this decision in {where}",
            file=sys.stderr,
        )
        return 0
    except KeyboardInterrupt:
        print(
            f"interrupted: {where} keeps the state after the last finished mission",
            file=sys.stderr,
        )
        return 130
    except (RulesError, CliError, OSError) as error:
        print(f"error: {cli_args.one_line(str(error))}", file=sys.stderr)
        return 2


def _play(args: Any) -> int:
    if args.command == "start":
        target, where = Path(args.save), cli_args.shown(args.save)
        if target.is_dir():
            raise CliError(f"--save {where}: is a folder, not a save file")
        if os.path.lexists(target) and not args.force:
            raise CliError(
                f"--save {where}: already exists; `campaign continue` plays on, "
                "--force overwrites it"
            )
        definition = load_definition(args.campaign)
        faction = None if args.faction is None else Faction(args.faction)
        rng = np.random.default_rng(args.seed)
        game = CampaignGame.start(
            definition, RandomDice.from_seed(args.seed), rng, faction=faction, carry=args.carry
        )
        save_game(args.save, game)
    else:
        game = load_game(args.save)
    seed = None if args.seed is None else args.seed + game.campaign.played + 1
    run(game, controller(args.player, seed), args.save, seed, args.missions)
    print(describe(game.campaign))
    return 0


def _dispatch(args: Any) -> int:
    if args.command == "inspect":
        game = load_game(args.save)
        text: Any = game.to_dict()["campaign"] if args.json else describe(game.campaign)
        print(json.dumps(text, indent=1) if args.json else text)
        return 0
    save_game(args.to, load_game(args.save))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
