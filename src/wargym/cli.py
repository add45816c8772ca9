"""The ``wargym`` command line.

``wargym demo`` (:mod:`wargym.demo`): the shipped learned opponent plays a Cestus V mission
against the rules' AI, prints the outcome and the policy's evaluation table, and writes a
replay. The other subcommands are delegated to their modules (see ``wargym --help``).

Bad arguments exit with status 2 and one line on stderr (the option parser's message, or the
typed error -- ``RulesError``, ``OSError`` or a wargym ``ValueError`` -- of a bad file or value);
no traceback (docs/bad_input.md).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

COMMANDS: dict[str, tuple[str, list[str], str]] = {
    "demo": (
        "wargym.demo",
        [],
        "the shipped learned opponent plays a Cestus V mission against the rules' AI",
    ),
    "campaign": ("wargym.campaign_cli", [], "start, continue, inspect or save a campaign"),
    "export-onnx": ("wargym.export_onnx", [], "export a trained policy to ONNX with its sidecar"),
    "serve": ("wargym.server.__main__", [], "run the opponent server (HTTP or --stdio)"),
    "replay": ("wargym.replay", [], "turn a replay into a self-contained HTML viewer"),
    "train": (
        "wargym.agents.training_entry",
        [],
        "train a policy: ppo_masked, selfplay_ppo, rllib_ppo, ... (training/)",
    ),
    "evaluate": (
        "wargym.agents.training_entry",
        ["evaluate"],
        "evaluate agents over seeded games (Wilson intervals, Elo)",
    ),
    "play": (
        "wargym.play",
        [],
        "play a battle, mission or space duel against an opponent in the terminal",
    ),
}
"""Subcommand -> (module whose ``main(argv)`` runs it, arguments put first, one-line help)."""


def usage() -> str:
    """``wargym --help``: the commands, one line each."""
    width = max(len(name) for name in COMMANDS)
    lines = [
        "usage: wargym {" + ",".join(COMMANDS) + "} ...",
        "",
        (__doc__ or "").strip().split("\n\n")[0].replace("``", ""),
        "",
        "commands:",
        *(f"  {name:<{width}}  {text}" for name, (_, _, text) in COMMANDS.items()),
        "",
        "Each command's options, with their defaults: wargym COMMAND --help",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wargym`` command."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] in (["-h"], ["--help"]):
        print(usage())
        return 0
    if not args_list or args_list[0] not in COMMANDS:
        from wargym.cli_args import shown

        problem = (
            "no command given" if not args_list else f"unknown command {shown(args_list[0])[:80]!r}"
        )
        print(f"wargym: error: {problem}; one of {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    command, rest = args_list[0], args_list[1:]
    name, prefix, _ = COMMANDS[command]
    return _guarded(command, lambda: importlib.import_module(name).main([*prefix, *rest]))


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
