"""Reading, checking and writing replay files for :mod:`wargym.replay` (untrusted input).

A replay file is data from anywhere: :func:`load` reads it strictly (UTF-8, JSON without
``NaN`` / ``Infinity`` / infinite numbers, bounded nesting); the checks below give a
:class:`ReplayError` naming the field (``frames[1].units[0].q``) and quoting at most ~80
characters of the value; :func:`write_atomic` writes a page next to its target and renames
it over, so a failure leaves the target as it was.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from wargym.rules.errors import short_repr


class ReplayError(ValueError):
    """The replay file cannot be read or played (the message names the file or field)."""


MAX_BYTES = 256 * 2**20
"""Largest replay file read (a replay of a long game is a few MB)."""
MAX_COORD = 100_000
"""Largest hex coordinate (``q``, ``r``) a replay may hold."""


def check_objects(value: Any, where: str) -> list[dict[str, Any]]:
    """``value`` if it is a list of objects; ``where`` names it in the error."""
    if not isinstance(value, list):
        raise ReplayError(f"{where}: must be a list, not {short_repr(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise ReplayError(f"{where}[{i}]: must be an object, not {short_repr(item)}")
    return value


def check_events(value: Any, where: str) -> list[dict[str, Any]]:
    """A copy of an event list (``where.events``), each event an object."""
    return list(check_objects(value, f"{where}.events" if where else "events"))


def check_outcome(value: Any) -> dict[str, Any] | None:
    """An outcome: an object or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ReplayError(f"outcome: must be an object or null, not {short_repr(value)}")
    return value


def short_text(value: Any, limit: int = 80) -> str:
    """A short label for a value of the replay (strings as they are, at most ``limit`` long)."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[: limit - 3] + "..."
    return short_repr(value, limit)


def check_number(value: Any, where: str, bound: float = float("inf")) -> float:
    """A finite number of at most ``bound`` in size (``bool`` is no number here)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or abs(value) > bound
    ):
        limit = "" if bound == float("inf") else f" of at most {bound:g} in size"
        raise ReplayError(f"{where}: must be a finite number{limit}, not {short_repr(value)}")
    return value


def check_label(value: Any, where: str, optional: bool = False) -> Any:
    """An id or label: a string or an integer (``None`` too when ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ReplayError(f"{where}: must be a string or an integer, not {short_repr(value)}")
    return value


def load(path: str | Path) -> Any:
    """The JSON object of a replay file.

    Raises:
        ReplayError: the file cannot be read (missing, a folder, unreadable), is not UTF-8,
            not JSON, holds ``NaN`` / ``Infinity`` / a number too large, or nests too deeply.
    """
    source = Path(path)
    try:
        if source.is_dir():
            raise ReplayError(f"cannot read {source}: it is a directory")
        size = source.stat().st_size
        if size > MAX_BYTES:
            limit = f"{MAX_BYTES // 2**20} MiB"
            raise ReplayError(f"cannot read {source}: {size} bytes, more than the {limit} allowed")
        text = source.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ReplayError(f"cannot read {source}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        where = f"{exc.reason} at byte {exc.start}"
        raise ReplayError(f"cannot read {source}: not UTF-8 text ({where})") from exc
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"cannot read {source}: broken JSON: {exc}") from exc
    except RecursionError as exc:
        raise ReplayError(f"cannot read {source}: JSON nested too deeply") from exc
    except ValueError as exc:  # a number too large, NaN, Infinity
        raise ReplayError(f"cannot read {source}: bad JSON number: {short_text(str(exc))}") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a replay may hold")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{short_text(text)} is too large")
    return value


def refuse_same_file(source: Path, out: Path) -> None:
    """Refuse an output that is the input: the same path, a symlink or a hard link to it."""
    same = False
    with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: a symlink loop
        same = source.resolve() == out.resolve()
    with contextlib.suppress(OSError):
        same = same or (out.exists() and source.exists() and os.path.samefile(source, out))
    if same:
        raise ReplayError(f"--html {out} is the input replay {source}; choose another output")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, fsync, rename it over ``path``."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ReplayError(f"cannot write {path}: it is a directory")
    temp = None
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except OSError as exc:
        if temp is not None:
            Path(temp).unlink(missing_ok=True)
        raise ReplayError(f"cannot write {path}: {exc.strerror or exc}") from exc
