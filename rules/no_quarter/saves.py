"""Campaign saves that never lose data: atomic writes, strict loads (§23; issue 4 "Saves").

A save is one JSON object ``{"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": ...}``
whose ``game`` is :meth:`CampaignGame.to_dict` output (the campaign, any mission in progress as
``Battle.to_dict()``, the deployment generator's state).

* :func:`write_json_atomic` writes a temporary file in the same folder, flushes and fsyncs it,
  renames it over the target with ``os.replace`` and fsyncs the folder: a crash or a kill at any
  moment leaves either the old or the new file, never a mixture. Stale temporary files of a
  killed writer (``.<name>.*.tmp``) are removed by the next save.
* :func:`load_game` checks the size limit, the encoding, the JSON syntax, the format and version
  and then the whole schema (``CampaignGame.from_dict``); every failure raises
  :class:`~wargym.rules.errors.StateError` naming the problem, and no file is ever touched.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from wargym.rules.errors import RulesError, StateError
from wargym.rules.no_quarter.campaign_play import CampaignGame

SAVE_FORMAT = "wargym.no_quarter.campaign"
SAVE_VERSION = 1
"""Version of the save envelope; the campaign and battle inside carry their own versions."""
MAX_SAVE_BYTES = 64 * 1024 * 1024
"""Larger files are refused before they are read."""
TEMP_SUFFIX = ".tmp"
DEFAULT_MODE = 0o644
"""Permissions of a new save (an existing save keeps its own)."""


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def stale_temp_files(path: str | Path) -> list[Path]:
    """Temporary files a killed writer of ``path`` left behind."""
    target = Path(path)
    prefix = _temp_prefix(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.iterdir() if p.name.startswith(prefix) and p.name.endswith(TEMP_SUFFIX)
    )


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (temp file, fsync, replace, fsync folder).

    Raises StateError for data that is not plain JSON (NaN included) and for a failed write
    (missing or read-only folder, disk full, I/O error); the old file stays as it was.
    """
    target = Path(path)
    try:
        text = json.dumps(data, separators=(",", ":"), allow_nan=False)  # key order matters
    except (TypeError, ValueError) as error:
        raise StateError(f"{target}: cannot write the save: {error}") from error
    folder = target.parent if str(target.parent) else Path(".")
    try:
        for stale in stale_temp_files(target):
            stale.unlink(missing_ok=True)
        fd, temp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=TEMP_SUFFIX, dir=folder)
    except OSError as error:  # a missing or read-only folder: the old save is untouched
        raise StateError(f"{target}: cannot write the save: {error}") from error
    try:
        mode = target.stat().st_mode & 0o777 if target.exists() else DEFAULT_MODE
        os.chmod(temp, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as error:  # disk full, I/O error: the old save stays as it was
        Path(temp).unlink(missing_ok=True)
        raise StateError(f"{target}: cannot write the save: {error}") from error
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_json(path: str | Path, max_bytes: int = MAX_SAVE_BYTES) -> Any:
    """Read a JSON file strictly: size limit, UTF-8, syntax, no NaN/Infinity (read only)."""
    source = Path(path)
    try:
        size = source.stat().st_size
        if not source.is_file():
            raise StateError(f"{source}: not a regular file")
        if size > max_bytes:
            raise StateError(f"{source}: {size} bytes exceeds the save limit of {max_bytes}")
        with source.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as error:
        raise StateError(f"{source}: cannot read the save: {error}") from error
    if len(raw) > max_bytes:
        raise StateError(f"{source}: exceeds the save limit of {max_bytes} bytes")
    if not raw.strip():
        raise StateError(f"{source}: the save is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise StateError(f"{source}: not UTF-8 text at byte {error.start}") from error
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise StateError(
            f"{source}: broken JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from error
    except (ValueError, RecursionError) as error:
        raise StateError(f"{source}: invalid JSON: {error}") from error


def envelope(game: CampaignGame) -> dict[str, Any]:
    """The save's JSON object for ``game``."""
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game.to_dict()}


def game_from_envelope(data: Any, source: str = "<save>") -> CampaignGame:
    """Check the envelope and rebuild the game; StateError names the problem."""
    if not isinstance(data, dict):
        raise StateError(f"{source}: a save must be a JSON object, got {type(data).__name__}")
    keys = {"format", "version", "game"}
    if set(data) != keys:
        extra, missing = sorted(set(data) - keys), sorted(keys - set(data))
        raise StateError(f"{source}: unknown keys {extra} / missing keys {missing}")
    if data["format"] != SAVE_FORMAT:
        raise StateError(f"{source}: format {data['format']!r}, expected {SAVE_FORMAT!r}")
    version = data["version"]
    if version != SAVE_VERSION or isinstance(version, bool):
        raise StateError(f"{source}: save version {version!r}; this engine reads {SAVE_VERSION}")
    try:
        return CampaignGame.from_dict(data["game"])
    except StateError as error:
        raise StateError(f"{source}: {error}") from error
    except (RulesError, TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise StateError(f"{source}: invalid save: {type(error).__name__}: {error}") from error
    except (RecursionError, OverflowError) as error:
        raise StateError(f"{source}: invalid save: {type(error).__name__}") from error


def save_game(path: str | Path, game: CampaignGame) -> None:
    """Save ``game`` atomically; the data is checked to load back before anything is written."""
    data = envelope(game)
    if not _finite(data):
        raise StateError(f"{path}: the game holds a non-finite number")
    game_from_envelope(json.loads(json.dumps(data)), str(path))
    write_json_atomic(path, data)


def load_game(path: str | Path, max_bytes: int = MAX_SAVE_BYTES) -> CampaignGame:
    """Load a save strictly (read only); every failure raises StateError naming it."""
    return game_from_envelope(read_json(path, max_bytes), str(path))


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


__all__ = [
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "envelope",
    "game_from_envelope",
    "load_game",
    "read_json",
    "save_game",
    "stale_temp_files",
    "write_json_atomic",
]
