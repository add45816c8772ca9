"""Small checks shared by the space engines' ``BattleState.from_dict`` validations (issue 21).

``from_jsonable`` checks a state's JSON structure (fields, types); these check what it cannot:
numbers within bounds (no ``10**400`` reaches arithmetic), values in the rules' ranges, and
references (ship ids, design and system names) that resolve. Every refusal is a
:class:`~wargym.rules.errors.StateError` naming the field, quoting at most a short value.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from wargym.rules.errors import StateError, short_repr

MAX_NUMBER = 10**6
"""Largest magnitude of any number in a space battle state (counters, positions, turns)."""
MAX_ITEMS = 10_000
"""Most items of any list or object in a space battle state."""


def bounded(where: str, data: Any) -> None:
    """Every number in ``data`` finite and within ``MAX_NUMBER``; lists within ``MAX_ITEMS``."""
    stack = [(where, data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                raise StateError(f"{path}: more than {MAX_ITEMS} entries")
            stack.extend((f"{path}.{k}", v) for k, v in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                raise StateError(f"{path}: more than {MAX_ITEMS} items")
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
        elif (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and not (math.isfinite(value) and abs(value) <= MAX_NUMBER)
        ):
            raise StateError(f"{path}: {short_repr(value)} is outside +-{MAX_NUMBER}")


def in_range(where: str, value: int | None, low: int, high: int, none: bool = False) -> None:
    """``low <= value <= high`` (``None`` allowed when ``none``)."""
    if value is None and none:
        return
    if value is None or not low <= value <= high:
        raise StateError(f"{where}: {short_repr(value)} is outside {low}..{high}")


def refer(where: str, value: Any, known: Collection[Any], what: str) -> None:
    """``value`` is one of ``known`` (a ``what``: "ship id", "system", ...)."""
    if value not in known:
        raise StateError(f"{where}: {short_repr(value)} is not a {what} of this battle")


def counters(where: str, values: Mapping[str, int], limits: Mapping[str, int], what: str) -> None:
    """Every key of ``values`` is one of ``limits`` and its value is within ``0..limit``."""
    for key, value in values.items():
        refer(f"{where}.{key}", key, limits, what)
        in_range(f"{where}.{key}", value, 0, limits[key])


__all__ = ["MAX_ITEMS", "MAX_NUMBER", "bounded", "counters", "in_range", "refer"]
