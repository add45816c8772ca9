"""The ``wargym`` command line: ``wargym demo`` plays a full No Quarter battle.

Until a learned opponent ships, the demo pits two sides choosing uniformly among the legal
options against each other, prints the outcome and a summary of the event log, and can
write the whole log as JSON.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any


def _demo(args: argparse.Namespace) -> int:
    import numpy as np

    from wargym.rules.dice import RandomDice
    from wargym.rules.no_quarter import game
    from wargym.rules.no_quarter.setup import new_skirmish
    from wargym.rules.no_quarter.state import BattleOptions
    from wargym.rules.no_quarter.vocab import Faction

    rng = np.random.default_rng(args.seed)
    setup_rng, dice_rng, choice_rng = rng.spawn(3)
    dice = RandomDice(dice_rng)
    battle = new_skirmish(
        setup_rng,
        dice,
        blue=Faction(args.blue),
        red=Faction(args.red),
        mechs_per_side=args.mechs,
        stars=1,
        options=BattleOptions(max_turns=args.max_turns),
    )
    print(f"No Quarter skirmish, seed {args.seed}: {args.blue} (blue) vs {args.red} (red)")
    for mech in battle.mechs.values():
        pilot = mech.pilot
        star = " Star" if pilot.star else ""
        attrs = ", ".join(a.value for a in pilot.attributes) or "none"
        print(
            f"  {mech.side.value:4} #{mech.id} {mech.design.id:14} Rep {mech.rep}{star} "
            f"({attrs}) at ({mech.pos[0]:.1f}, {mech.pos[1]:.1f})"
        )
    print(battle.battlefield.ascii(), end="\n\n")
    start = battle.to_dict()
    log: list[Any] = []
    decisions = 0
    while not battle.over:
        options = game.legal_actions(battle)
        action = options[int(choice_rng.integers(len(options)))]
        log.extend(e.to_dict() for e in game.play(battle, action, dice))
        decisions += 1
    counts = collections.Counter(entry["type"] for entry in log)
    winner = battle.winner.value if battle.winner else "nobody (draw)"
    print(
        f"Outcome: {winner} wins ({battle.end_reason}) after {battle.turn} turns, "
        f"{decisions} decisions, {len(log)} events."
    )
    print("Event log summary:")
    for name, count in counts.most_common():
        print(f"  {name:16} {count}")
    for side in ("blue", "red"):
        left = [m for m in battle.mechs.values() if m.side.value == side and m.removed is None]
        gone = [
            f"#{m.id} {m.removed.value}"
            for m in battle.mechs.values()
            if m.side.value == side and m.removed is not None
        ]
        print(f"  {side}: {len(left)} on the table; lost: {', '.join(gone) or 'none'}")
    if args.log:
        _write_atomic(args.log, json.dumps({"seed": args.seed, "events": log}, indent=1))
        print(f"Event log written to {args.log}")
    if args.html:
        from wargym.replay import write_html

        path = write_html({"start": start, "events": log, "seed": args.seed}, args.html)
        print(f"Replay viewer written to {path} (open it in a browser)")
    return 0


def _write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file, fsync and rename."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".wargym-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wargym`` command."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    delegated = {
        "campaign": ("wargym.campaign_cli", []),  # start|continue|inspect|save a campaign
        "export-onnx": ("wargym.export_onnx", []),  # CHECKPOINT OUT.onnx (+ sidecar JSON)
        "serve": ("wargym.server.__main__", []),  # the opponent server (HTTP or --stdio)
        "replay": ("wargym.replay", []),  # FILE.json --html OUT.html
        "train": ("wargym.agents.training_entry", []),  # ppo_masked|selfplay_ppo|rllib_ppo ...
        "evaluate": ("wargym.agents.training_entry", ["evaluate"]),  # Wilson intervals, Elo
    }
    if args_list[:1] and args_list[0] in delegated:
        import importlib

        name, prefix = delegated[args_list[0]]
        result: int = importlib.import_module(name).main([*prefix, *args_list[1:]])
        return result
    parser = argparse.ArgumentParser(prog="wargym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a full No Quarter battle and summarise it")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--blue", default="star_army")
    demo.add_argument("--red", default="hishen")
    demo.add_argument("--mechs", type=int, default=3, help="mechs per side")
    demo.add_argument("--max-turns", type=int, default=20)
    demo.add_argument("--log", help="write the event log as JSON to this file")
    demo.add_argument(
        "--html",
        default="wargym-demo-replay.html",
        help="write a self-contained HTML replay here ('' to skip)",
    )
    for name, text in (
        ("campaign", "start, continue, inspect or save a campaign"),
        ("export-onnx", "export a trained policy to ONNX with its sidecar"),
        ("serve", "run the opponent server"),
        ("replay", "turn a replay into a self-contained HTML viewer"),
        ("train", "train a policy (MaskablePPO, self-play)"),
        ("evaluate", "evaluate agents over seeded games"),
    ):
        sub.add_parser(name, help=f"{text} (see: wargym {name} --help)")
    args = parser.parse_args(args_list)
    if args.command == "demo":
        return _demo(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
