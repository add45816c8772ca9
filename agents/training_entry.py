"""``python -m wargym.agents.training_entry <script> [flags]``: run a training/ script.

The training scripts (``training/*.py``: ``ppo_masked``, ``ppo_batch``, ``selfplay_ppo``,
``evaluate``, ``rllib_ppo``, ``ship_model``, ``calibrate_tiers``, ``advice_agreement``) are
CleanRL-style files that read top to bottom; they live in the source checkout, not in the
wheel. This entry finds them (``$WARGYM_TRAINING_DIR``, else ``./training``, else the checkout
this package was installed from in editable mode) and runs one as ``__main__`` with the
remaining arguments.
The evaluation harness itself is packaged (:mod:`wargym.agents.evaluation`).
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

from wargym.rules.errors import short_repr

SCRIPTS = (
    "ppo_masked",
    "ppo_batch",
    "selfplay_ppo",
    "evaluate",
    "rllib_ppo",
    "ship_model",
    "calibrate_tiers",
    "advice_agreement",
)
"""Script names accepted."""

PROG: str | None = None
"""``wargym train <script>`` while :func:`main` runs one (its help and errors say so)."""


def training_dir() -> Path | None:
    """The folder holding the training scripts, or None when none is found."""
    candidates = []
    if os.environ.get("WARGYM_TRAINING_DIR"):
        candidates.append(Path(os.environ["WARGYM_TRAINING_DIR"]))
    candidates.append(Path.cwd() / "training")
    here = Path(__file__).resolve()
    candidates.extend(parent / "training" for parent in here.parents)
    for folder in candidates:
        if (folder / "ppo_masked.py").is_file():
            return folder
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``training/<script>.py`` with the remaining arguments; returns an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(f"usage: wargym train {{{','.join(SCRIPTS)}}} [flags]\n\n{__doc__.strip()}")
        print("\nEach script's flags, with their defaults: wargym train SCRIPT --help")
        return 0
    if not args or args[0] not in SCRIPTS:
        problem = "no script given" if not args else f"unknown script {short_repr(args[0])}"
        print(f"wargym train: error: {problem}; one of {', '.join(SCRIPTS)}", file=sys.stderr)
        return 2
    name, rest = args[0], args[1:]
    folder = training_dir()
    if folder is None:
        print(
            "wargym train: error: training/ scripts not found: run from a wargym checkout or "
            "set WARGYM_TRAINING_DIR",
            file=sys.stderr,
        )
        return 2
    sys.path.insert(0, str(folder.parent))
    global PROG
    sys.argv = [str(folder / f"{name}.py"), *rest]
    # the script's name in its help and errors (`wargym evaluate` is `wargym train evaluate`)
    PROG = "wargym evaluate" if name == "evaluate" else f"wargym train {name}"
    try:
        runpy.run_path(str(folder / f"{name}.py"), run_name="__main__")
    finally:
        PROG = None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
