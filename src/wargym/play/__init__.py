"""``wargym play``: a person plays a No Quarter battle or mission, or a space duel, in the terminal.

Usage::

    wargym play skirmish [--opponent shipped|rules|tactician] [--side blue|red] [--seed N]
        [--mechs 3] [--turns 12] [--save FILE]
    wargym play patrol|attack|defend [--scenario NAME] ...
    wargym play cestus-v --mission N ...
    wargym play starship|pentagon [--scenario duel] [--side blue|red] ...
    wargym play --load FILE [--save FILE]

The board is drawn with colour; the legal options of each decision (the engine's own list,
reactions and other choices of the human's side included) are numbered in plain words; the
events since the human's last decision are told in words. At the prompt: a number plays
that option, ``u`` undoes the last decision, ``s`` saves (``s FILE`` to another file),
``sq`` saves and quits, ``q`` quits. See docs/play.md. Bad arguments exit with status 2 and
one line on stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import re
import sys
from collections.abc import Sequence
from typing import Annotated, Literal, get_args

import tyro

GameName = Literal["skirmish", "patrol", "attack", "defend", "cestus-v", "starship", "pentagon"]


@dataclasses.dataclass
class PlayArgs:
    """Play a battle, mission or space duel against an opponent in the terminal."""

    game: Annotated[
        GameName | None,
        tyro.conf.Positional,
        tyro.conf.arg(metavar="{" + ",".join(get_args(GameName)) + "}"),
    ] = None
    """The game: a No Quarter skirmish, a generic mission, a Cestus V mission, or a space duel
    (omit it with --load)."""
    opponent: Literal["shipped", "rules", "tactician"] = "shipped"
    """Who plays the other side: the shipped learned policy, the book's non-player AI or the
    tactician (space duels: the scripted captain; missions: the engine's non-player side)."""
    side: Literal["blue", "red"] = "blue"
    """The side you command (missions: blue)."""
    seed: int = 1
    """Seed of the set-up, the dice and the opponent (0..2**63-1)."""
    mission: int = 1
    """Cestus V mission number (1..10)."""
    mechs: int = 3
    """Mechs a side in a skirmish (1..6)."""
    turns: int | None = None
    """Turn limit (1..50; a skirmish: 12 unless given; a space duel: its scenario's own)."""
    scenario: str | None = None
    """Another scenario of the game (patrol/attack/defend, starship, pentagon)."""
    load: str | None = None
    """Continue the game saved in this file."""
    save: str | None = None
    """Save file for the s command (default: the --load file, else wargym-play.json)."""


def _parse(argv: Sequence[str]) -> PlayArgs:
    """Parse of ``argv``; a refusal becomes one line on stderr (SystemExit 2)."""
    buffer = io.StringIO()
    old = os.environ.get("COLUMNS")
    if not {"-h", "--help"} & set(argv):
        os.environ["COLUMNS"] = "100000"  # tyro's error box as long lines, joined below
    try:
        with contextlib.redirect_stderr(buffer):
            return tyro.cli(
                PlayArgs, args=list(argv), description=_description(), prog="wargym play"
            )
    except SystemExit as exc:
        if exc.code not in (0, None):
            print(f"wargym play: error: {_one_line(buffer.getvalue(), argv)}", file=sys.stderr)
        raise
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def _description() -> str:
    return "Play a No Quarter battle or mission, or a space duel, against an opponent."


def _one_line(boxed: str, argv: Sequence[str]) -> str:
    """Tyro's error box as one line: its title and message, long values cut."""
    from wargym.cli_args import one_line
    from wargym.rules.errors import short_repr

    kept: list[str] = []
    if "─" not in boxed:  # rich's ASCII form (the terminal is not UTF-8): title, rule, message
        from wargym.cli_args import box_to_line

        boxed = box_to_line(boxed)
    for raw in boxed.splitlines():
        line = raw.strip().strip("│╭╮╰╯").strip()
        if line.startswith("─") or "For full helptext" in line:
            if kept:
                break
            continue
        line = line.strip("─ ").strip()
        if line:
            kept.append(line)
    text = " ".join(kept) or "bad arguments (see wargym play --help)"
    for arg in argv:
        if len(arg) > 80 and arg in text:
            text = text.replace(arg, short_repr(arg, 80))
    text = re.sub(r"\s+", " ", text).replace("'None', ", "").replace(", 'None'", "")
    return one_line(text, 300)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; the exit status (2: bad arguments or a bad save file, one line)."""
    from wargym.rules.errors import RulesError

    from .games import Settings
    from .session import PlayError, Session, check_save_path, load
    from .ui import play

    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse(args_list)
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) or exc.code is None else 2
    try:
        if args.save is not None:
            check_save_path(args.save)
        if args.load is not None:
            if args.game is not None:
                raise PlayError("give a game or --load FILE, not both")
            print("rebuilding the saved game from its decisions ...", flush=True)
            session = load(args.load)
        else:
            if args.game is None:
                raise PlayError("name a game (skirmish, patrol, attack, defend, cestus-v, "
                                "starship, pentagon) or --load FILE")  # fmt: skip
            session = Session(Settings(
                game=args.game, opponent=args.opponent, side=args.side, seed=args.seed,
                mission=args.mission, mechs=args.mechs, turns=args.turns, scenario=args.scenario,
            ))  # fmt: skip
    except (PlayError, RulesError, OSError) as exc:
        from wargym.cli_args import one_line

        said = str(exc) if isinstance(exc, PlayError) else f"{type(exc).__name__}: {exc}"
        print(f"wargym play: error: {one_line(said, 300)}", file=sys.stderr)
        return 2
    save_path = args.save or args.load or "wargym-play.json"
    try:
        return play(session, save_path, loaded=args.load is not None)
    except KeyboardInterrupt:
        print("\ninterrupted: quitting without saving", file=sys.stderr)
        return 130


__all__ = ["PlayArgs", "main"]
