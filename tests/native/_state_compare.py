"""Comparing state documents exactly: the native and reference ``to_dict`` outputs."""

from __future__ import annotations

from typing import Any


def same(a: Any, b: Any, where: str = "battle") -> str | None:
    """Where ``a`` and ``b`` differ, types included (True != 1, 1 != 1.0); None if nowhere."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} {a!r} against {type(b).__name__} {b!r}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{where}: keys {list(a)} against {list(b)}"
        for k in a:
            diff = same(a[k], b[k], f"{where}.{k}")
            if diff:
                return diff
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items against {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            diff = same(x, y, f"{where}[{i}]")
            if diff:
                return diff
        return None
    if isinstance(a, float) and (a != b or str(a) != str(b)):
        return f"{where}: {a!r} against {b!r}"
    return None if a == b else f"{where}: {a!r} against {b!r}"
