"""Report and command-line pieces shared by the benchmark scripts (a plain module).

The scripts run as ``python benchmarks/<name>.py``, which puts this folder first on ``sys.path``;
they import this module as ``_common``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

CONNECT_FOUR = "connect_four_v3"
T = TypeVar("T")


def version(package: str) -> str | None:
    """The installed version of ``package``, None when it is not installed."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def meta(fields: dict[str, Any], packages: Iterable[str]) -> dict[str, Any]:
    """A report's ``meta``: date and machine, then ``fields``, package versions and the command."""
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        **fields,
        "versions": {p: version(p) for p in packages},
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }


def run_line(meta: dict[str, Any]) -> str:
    """The start of a table's run-details line: date, Python and CPU count."""
    return f"Run {meta['date']}, Python {meta['python']}, {meta['cpu_count']} CPUs"


def verdict(target: float | None, met: bool | None, spec: str, unit: str) -> str:
    """A table's target cell: empty without a target, else ``≥ <target><unit> (met|not met)``."""
    if target is None:
        return ""
    return f"≥ {target:{spec}}{unit} ({'met' if met else 'not met'})"


def median_or_none(values: Sequence[float]) -> float | None:
    """The median of ``values``, None when there are none."""
    return statistics.median(values) if values else None


def number(value: float | None, digits: int) -> str:
    """``value`` with ``digits`` decimals, ``n/a`` for None."""
    return "n/a" if value is None else f"{value:.{digits}f}"


def rates_by_round(
    items: Sequence[T], rounds: int, name: Callable[[T], str], rate: Callable[[T], float]
) -> list[dict[str, float]]:
    """``rounds`` rounds, each timing every item once in turn: per round, name -> rate."""
    return [{name(item): rate(item) for item in items} for _ in range(rounds)]


def ratios_by_round(
    per_round: list[dict[str, float]], refs: Callable[[str], dict[str, str]]
) -> dict[str, dict[str, list[float]]]:
    """Per name and reference key, the rate over the reference's rate in each round it ran."""
    ratios: dict[str, dict[str, list[float]]] = {}
    for this_round in per_round:
        for name, mine in this_round.items():
            mine_ratios = ratios.setdefault(name, {})
            for key, ref in refs(name).items():
                if ref in this_round:
                    mine_ratios.setdefault(key, []).append(mine / this_round[ref])
    return ratios


def import_connect_four() -> tuple[ModuleType | None, list[str]]:
    """PettingZoo's ``connect_four_v3`` module, or None and the reason it could not load."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # connect_four imports pygame
    try:
        return importlib.import_module(f"pettingzoo.classic.{CONNECT_FOUR}"), []
    except ImportError as error:  # pygame missing: pip install -c constraints.txt pygame-ce
        return None, [f"{CONNECT_FOUR}: {error}"]


def missing_lines(missing: list[str]) -> list[str]:
    """Table lines naming the references that could not be measured."""
    return [f"\nReference not measured: {line}" for line in missing]


def timing_parser(doc: str, seconds: float, per: str) -> argparse.ArgumentParser:
    """A parser titled by ``doc``'s first line, with ``--seconds``, ``--rounds`` and ``--seed``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=seconds, help=f"wall time per {per} per round"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians are reported")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def add_output_args(parser: argparse.ArgumentParser, tables: str = "table") -> None:
    """The ``--json`` and ``--md`` output options every benchmark takes."""
    parser.add_argument("--json", type=Path, help="write the report as JSON here")
    parser.add_argument("--md", type=Path, help=f"write the Markdown {tables} here")


def emit(report: dict[str, Any], table: str, args: argparse.Namespace) -> None:
    """Print ``table``; write the report (``--json``) and the table (``--md``) where asked."""
    print(table, end="")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.md:
        args.md.write_text(table)
