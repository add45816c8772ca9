"""Campaign saves that never lose data: atomic writes, strict loads (§23; issue 4 "Saves").

A save is one JSON object ``{"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": ...}``
whose ``game`` is :meth:`CampaignGame.to_dict` output (the campaign, any mission in progress as
``Battle.to_dict()``, the deployment generator's state).

* :func:`write_json_atomic` writes a temporary file in the same folder, flushes and fsyncs it,
  renames it over the target with ``os.replace`` and fsyncs the folder: a crash or a kill at any
  moment leaves either the old or the new file, never a mixture. Temporary names are unique
  (``.<name>.XXXXXXXX.tmp``, :func:`tempfile.mkstemp`).
* Every write holds :func:`save_lock`: an exclusive ``fcntl.flock`` on the sidecar
  ``.<name>.lock``, so two processes saving the same file take turns (a writer waits up to
  :data:`LOCK_WAIT` seconds, then raises :class:`SaveBusyError` naming the holder's pid). The
  lock file is removed when the lock is released. Only the lock holder sweeps temporary files,
  so a temp found then is provably a dead writer's (every writer creates its temp under the
  lock) and is removed; files that do not match the unique-name pattern are never touched.
* :func:`load_game` checks the size limit, the encoding, the JSON syntax, the format and version
  and then the whole schema (``CampaignGame.from_dict``); every failure raises
  :class:`~wargym.rules.errors.StateError` naming the problem, and no file is ever touched.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wargym.rules.errors import RulesError, StateError, short_repr
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame

SAVE_FORMAT = "wargym.no_quarter.campaign"
SAVE_VERSION = 1
"""Version of the save envelope; the campaign and battle inside carry their own versions."""
MAX_SAVE_BYTES = 64 * 1024 * 1024
"""Larger files are refused before they are read."""
TEMP_SUFFIX = ".tmp"
LOCK_SUFFIX = ".lock"
DEFAULT_MODE = 0o644
"""Permissions of a new save (an existing save keeps its own)."""
LOCK_WAIT = 10.0
"""Seconds a save waits for another process that holds the same save's lock."""
_TEMP_NAME = re.compile(r"[a-z0-9_]{8}")
"""The random part of a :func:`tempfile.mkstemp` name."""


class SaveBusyError(StateError):
    """Another process holds the lock of a save (it is saving it, or playing from it)."""


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


PATH_SHOWN = 300
"""Longest path quoted whole in a message (paths are the user's own; only absurd ones are cut)."""


def _where(path: str | Path) -> str:
    text = str(path)
    return text if len(text) <= PATH_SHOWN else short_repr(text, PATH_SHOWN)


def lock_path(path: str | Path) -> Path:
    """The sidecar lock file of the save ``path``: ``.<name>.lock`` in the same folder."""
    target = Path(path)
    return target.parent / f".{target.name}{LOCK_SUFFIX}"


def stale_temp_files(path: str | Path) -> list[Path]:
    """Temporary files of writers of ``path`` (``.<name>.XXXXXXXX.tmp``).

    Whoever holds :func:`save_lock` of ``path`` sees only those of dead writers.
    """
    target = Path(path)
    prefix = _temp_prefix(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if p.name.startswith(prefix)
        and p.name.endswith(TEMP_SUFFIX)
        and _TEMP_NAME.fullmatch(p.name[len(prefix) : -len(TEMP_SUFFIX)])
    )


_HELD = threading.local()
"""The locks this thread holds: lock file path -> depth (a holder may save again)."""


@contextlib.contextmanager
def save_lock(path: str | Path, wait: float | None = None) -> Iterator[None]:
    """Hold the exclusive lock of the save ``path`` (re-entrant within one thread).

    Waits up to ``wait`` seconds (default :data:`LOCK_WAIT`) for another holder, then raises
    :class:`SaveBusyError` naming the save and the holder's pid; a lock file that cannot be
    created (missing or read-only folder) raises :class:`StateError`.
    """
    lock = lock_path(path)
    key = os.path.join(os.path.realpath(lock.parent), lock.name)
    held: dict[str, int] = _HELD.__dict__.setdefault("locks", {})
    if held.get(key):
        held[key] += 1
        try:
            yield
        finally:
            held[key] -= 1
        return
    fd = _acquire(path, lock, LOCK_WAIT if wait is None else wait)
    held[key] = 1
    try:
        yield
    finally:
        del held[key]
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still locked: a waiter then sees a stale inode and retries
        os.close(fd)


def _acquire(path: str | Path, lock: Path, wait: float) -> int:
    deadline = time.monotonic() + max(wait, 0.0)
    pause = 0.002
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        except OSError as error:
            raise StateError(f"{_where(path)}: cannot write the save: {error}") from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise SaveBusyError(
                    f"{_where(path)}: the save is in use by another process"
                    f"{_holder(lock)}; try again when it has finished"
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
            continue
        except OSError as error:  # a file system without flock
            os.close(fd)
            raise StateError(f"{_where(path)}: cannot lock the save: {error}") from error
        try:
            mine = os.fstat(fd)
            same = os.path.samestat(mine, os.stat(lock, follow_symlinks=False))
        except OSError:
            same = False
        if not same:  # the holder removed it as we waited: lock the new one
            os.close(fd)
            continue
        if stat.S_ISREG(mine.st_mode) and mine.st_nlink == 1:  # never rewrite a linked file
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        return fd


def _holder(lock: Path) -> str:
    try:
        text = lock.read_text(encoding="ascii", errors="replace")[:20].strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdecimal() else ""


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
    if target.is_dir():
        raise StateError(f"{_where(target)}: is a folder, not a save file")
    with save_lock(target):
        _write_locked(target, text)


def _write_locked(target: Path, text: str) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        for stale in stale_temp_files(target):  # under the lock: dead writers' temps only
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
    "LOCK_WAIT",
    "SaveBusyError",
    "envelope",
    "game_from_envelope",
    "load_game",
    "lock_path",
    "read_json",
    "save_game",
    "save_lock",
    "stale_temp_files",
    "write_json_atomic",
]
