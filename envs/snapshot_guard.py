"""Bounds and atomicity of env snapshot loading (issue 21; used by :mod:`.snapshot`).

* :func:`check_plain`: a snapshot is bounded JSON data (depth, size, string length, integer
  size, finite numbers), checked before anything reads it.
* :func:`check_int` / :func:`check_bool` / :func:`check_number`: typed, bounded fields.
* :func:`entropy_from` / :func:`check_bit_state`: the parts of a saved numpy generator that
  numpy would take too slowly (a seed-sequence pool of 10**8 words) or cast silently.
* :func:`all_or_nothing`: the env is put back exactly as it was when loading fails.

Every refusal is a :class:`~wargym.rules.errors.StateError` naming the field and quoting at
most a short part of the value.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping
from typing import Any

from wargym.rules.errors import StateError, short_repr

MAX_DEPTH = 64
"""Deepest nesting of objects and lists in a snapshot."""
MAX_NODES = 1_000_000
"""Most values (objects, lists, numbers, strings) in a snapshot (real ones hold a few
thousand)."""
MAX_STRING = 4096
"""Longest string (and object key) in a snapshot."""
MAX_INT_BITS = 256
"""Largest magnitude of an integer in a snapshot, in bits (generator states hold 128)."""
MAX_POOL_SIZE = 64
"""Largest ``SeedSequence`` pool size (numpy's default is 4; the pool costs time to mix)."""
MAX_SPAWN_DEPTH = 64
"""Longest ``SeedSequence`` spawn key, and most words of a list entropy."""


def check_plain(where: str, data: Any) -> None:
    """``data`` is bounded JSON data; StateError naming the first path that is not.

    Objects with string keys, lists, strings, finite numbers, bools and null (tuples count as
    lists), at most :data:`MAX_DEPTH` deep, :data:`MAX_NODES` values, strings and keys of
    :data:`MAX_STRING` characters and integers of :data:`MAX_INT_BITS` bits. Checked before
    anything reads a snapshot, so no later step meets NaN, ``10**400`` or a 100 MB string.
    """
    stack: list[tuple[str, Any, int]] = [(where, data, 0)]
    count = 0
    while stack:
        path, value, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise StateError(f"{where}: more than {MAX_NODES} values")
        if isinstance(value, (Mapping, list, tuple)):
            if depth >= MAX_DEPTH:
                raise StateError(f"{path}: nested more than {MAX_DEPTH} deep")
            if isinstance(value, Mapping):
                for key, item in value.items():
                    if not isinstance(key, str) or len(key) > MAX_STRING:
                        raise StateError(f"{path}: key {short_repr(key)} is not a short string")
                    stack.append((f"{path}.{key}", item, depth + 1))
            else:
                stack.extend((f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                raise StateError(
                    f"{path}: a string of {len(value)} characters (at most {MAX_STRING})"
                )
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if value.bit_length() > MAX_INT_BITS:
                raise StateError(f"{path}: an integer of {value.bit_length()} bits is too large")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise StateError(f"{path}: {value!r} is not a finite number")
        else:
            raise StateError(f"{path}: {type(value).__name__} is not JSON data")


def check_int(where: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int (``bool`` refused) in ``[low, high]``; StateError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{where}: expected an integer, got {short_repr(value)}")
    if low is not None and value < low:
        raise StateError(f"{where}: expected >= {low}, got {short_repr(value)}")
    if high is not None and value > high:
        raise StateError(f"{where}: expected <= {high}, got {short_repr(value)}")
    return value


def check_bool(where: str, value: Any) -> bool:
    """``value`` if it is a bool; StateError naming ``where``."""
    if not isinstance(value, bool):
        raise StateError(f"{where}: expected true or false, got {short_repr(value)}")
    return value


def check_number(where: str, value: Any) -> float:
    """``value`` as a finite float (``bool`` refused); StateError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StateError(f"{where}: expected a number, got {short_repr(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise StateError(f"{where}: expected a finite number, got {short_repr(value)}")
    return number


def entropy_from(where: str, value: Any) -> Any:
    """A saved ``SeedSequence`` entropy: null, an int or a short list of 128-bit ints >= 0."""
    if value is None:
        return None
    if isinstance(value, list):
        if not 0 < len(value) <= MAX_SPAWN_DEPTH:
            raise StateError(f"{where}: expected 1..{MAX_SPAWN_DEPTH} integers")
        return [check_int(f"{where}[{i}]", v, 0, 2**128 - 1) for i, v in enumerate(value)]
    return check_int(where, value, 0, 2**MAX_INT_BITS - 1)


def check_bit_state(where: str, state: Mapping[str, Any]) -> None:
    """The buffered-word fields numpy would cast silently: ``has_uint32`` 0/1, a 32-bit word."""
    if "has_uint32" in state:
        check_int(f"{where}.has_uint32", state["has_uint32"], 0, 1)
    if "uinteger" in state:
        check_int(f"{where}.uinteger", state["uinteger"], 0, 2**32 - 1)
    inner = state.get("state")
    if state["bit_generator"] in ("PCG64", "PCG64DXSM") and isinstance(inner, Mapping):
        for key in ("state", "inc"):
            if key in inner:
                check_int(f"{where}.state.{key}", inner[key], 0, 2**128 - 1)


@contextlib.contextmanager
def all_or_nothing(*objects: Any) -> Iterator[None]:
    """Put a parsed snapshot into ``objects`` (an env and what it mutates in place) atomically.

    Inside the block the loader assigns the parsed parts and computes what the env derives
    from them (observation, masks). On any exception every attribute of every object (with
    ``__dict__``) is rebound to the object it held before, and a dict, list or set it held gets
    its old contents back, so the env is exactly as it was. A :class:`StateError` is
    re-raised; any other exception (a state the checks let through that the env cannot use)
    becomes a ``StateError`` naming ``snapshot.state``.
    """
    saved = [(obj, {k: (v, _contents(v)) for k, v in vars(obj).items()}) for obj in objects
             if obj is not None and hasattr(obj, "__dict__")]  # fmt: skip
    try:
        yield
    except BaseException as error:
        for obj, attributes in saved:
            current = vars(obj)
            current.clear()
            for key, (value, contents) in attributes.items():
                current[key] = value
                _restore(value, contents)
        if isinstance(error, StateError) or not isinstance(error, Exception):
            raise
        raise StateError(
            f"snapshot.state: the state does not hold together ({type(error).__name__}: "
            f"{short_repr(str(error), 200)}); nothing was loaded"
        ) from error


def _contents(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (list, set)):
        return type(value)(value)
    return None


def _restore(value: Any, contents: Any) -> None:
    if contents is None:
        return
    if isinstance(value, dict):
        value.clear()
        value.update(contents)
    elif isinstance(value, list):
        value[:] = contents
    elif isinstance(value, set):
        value.clear()
        value.update(contents)


__all__ = [
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "MAX_NODES",
    "MAX_POOL_SIZE",
    "MAX_SPAWN_DEPTH",
    "MAX_STRING",
    "all_or_nothing",
    "check_bit_state",
    "check_bool",
    "check_int",
    "check_number",
    "check_plain",
    "entropy_from",
]
