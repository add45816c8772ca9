"""The ``wargym`` command line.

``wargym demo`` (:mod:`wargym.demo`): the shipped learned opponent plays a Cestus V mission
against the rules' AI, prints the outcome and the policy's evaluation table, and writes a
replay. The other subcommands are delegated to their modules (see ``wargym --help``).

Bad arguments exit with status 2 and one line on stderr (argparse's message, or the typed
error -- ``RulesError``, ``OSError`` or a wargym ``ValueError`` -- of a bad file or value);
no traceback (docs/bad_input.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence


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
        "play": ("wargym.play", []),  # a person plays an opponent in the terminal
    }
    if args_list[:1] and args_list[0] in delegated:
        import importlib

        name, prefix = delegated[args_list[0]]
        return _guarded(
            args_list[0], lambda: importlib.import_module(name).main([*prefix, *args_list[1:]])
        )
    parser = argparse.ArgumentParser(prog="wargym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="the shipped learned opponent plays a Cestus V mission against the rules' AI"
    )
    from wargym.demo import add_arguments

    add_arguments(demo)
    for name, text in (
        ("campaign", "start, continue, inspect or save a campaign"),
        ("export-onnx", "export a trained policy to ONNX with its sidecar"),
        ("serve", "run the opponent server"),
        ("replay", "turn a replay into a self-contained HTML viewer"),
        ("train", "train a policy (MaskablePPO, self-play)"),
        ("evaluate", "evaluate agents over seeded games"),
        ("play", "play a battle, mission or space duel against an opponent in the terminal"),
    ):
        sub.add_parser(name, help=f"{text} (see: wargym {name} --help)")
    args = parser.parse_args(args_list)
    if args.command == "demo":
        from wargym.demo import run

        return _guarded("demo", lambda: run(args))
    return 2


def _is_bad_input(error: BaseException) -> bool:
    """A typed error of wargym about its input (docs/bad_input.md), or a file that failed."""
    from wargym.rules.errors import RulesError

    if isinstance(error, (RulesError, OSError)):
        return True
    return isinstance(error, ValueError) and type(error).__module__.startswith("wargym.")


def _guarded(command: str, run: Callable[[], int]) -> int:
    """``run()``; a bad-input error becomes one line on stderr and exit status 2."""
    try:
        return run()
    except Exception as error:
        if not _is_bad_input(error):
            raise
        from wargym.cli_args import one_line

        message = one_line(f"{type(error).__name__}: {error}")  # one line, never a huge echo
        print(f"wargym {command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
