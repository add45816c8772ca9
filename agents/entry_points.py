"""Named entry points: the only objects a data file (sidecar, model card, preset) may name.

Env keyword arguments such as ``battle_factory`` and ``advisor`` take an object (a factory).
Files that travel (an exported policy's ``.onnx.json``, a checkpoint's ``.json`` model card,
a YAML training preset) cannot hold objects, so they hold a *name* from :data:`ENTRY_POINTS`
(``"mirror_skirmish"``, ``"tactical_advisor"``), and :func:`resolve_entry_point` turns it into
the object. A name is looked up in this fixed table, whose targets are constants in this
file; nothing a file says is ever imported or called (an ``"os:abort"`` or a module in the
working folder is refused with :class:`EntryPointError`, not imported).

Files written before the names existed spell the package's own objects as import paths
(``"wargym.agents.envspecs:mirror_skirmish"``); :data:`LEGACY_NAMES` maps exactly those
strings onto their names. A caller's own factories are passed explicitly (``allow``, a
``{name: object}`` mapping). This module needs only the standard library until a name is
resolved, so the sidecar checker (:mod:`wargym.export_onnx`) can use it without numpy.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from wargym.rules.errors import short_repr

CALLABLE_KEYS = ("battle_factory", "advisor")
"""Env keyword arguments whose values name an entry point."""

ENTRY_POINTS: dict[str, dict[str, tuple[str, str]]] = {
    "battle_factory": {"mirror_skirmish": ("wargym.agents.envspecs", "mirror_skirmish")},
    "advisor": {"tactical_advisor": ("wargym.agents.advisor", "TacticalAdvisor")},
}
"""``{env keyword: {name: (module, attribute)}}``: every object a file may name, per keyword."""

LEGACY_NAMES: dict[str, str] = {
    "wargym.agents.envspecs:mirror_skirmish": "mirror_skirmish",
    "wargym.agents.advisor:TacticalAdvisor": "tactical_advisor",
}
"""Import paths of the package's own objects, as files before the names spelled them."""

Allow = Mapping[str, Any]
"""A caller's own entry points, ``{name: object}`` (names in files pick from these too)."""


class EntryPointError(ValueError):
    """A file or argument names no entry point; ``key`` is the keyword (e.g. ``advisor``)."""

    def __init__(self, key: str, value: Any, message: str) -> None:
        super().__init__(f"{key} {short_repr(value)}: {message}")
        self.key = key
        self.value = value


def known_names(key: str, allow: Allow | None = None) -> list[str]:
    """The names ``key`` accepts: the registry's and the caller's ``allow``."""
    return sorted({*ENTRY_POINTS.get(key, {}), *(allow or {})})


def canonical_name(key: str, value: Any, allow: Allow | None = None) -> str:
    """The registered name ``value`` stands for (a name, or a legacy import path).

    Raises:
        EntryPointError: ``value`` is not a string, or names nothing registered for ``key``.
    """
    if not isinstance(value, str):
        raise EntryPointError(key, value, f"expected a name, got {type(value).__name__}")
    if allow is not None and value in allow:
        return value
    name = LEGACY_NAMES.get(value, value)
    if name in ENTRY_POINTS.get(key, {}):
        return name
    raise EntryPointError(
        key,
        value,
        f"not a registered entry point (known: {known_names(key, allow)}); "
        "files name entry points, never import paths",
    )


def resolve_entry_point(key: str, value: Any, allow: Allow | None = None) -> Any:
    """The object ``value`` names for keyword ``key`` (non-strings pass through unchanged).

    Raises:
        EntryPointError: a string that names no registered (or allowed) entry point.
    """
    if not isinstance(value, str):
        return value
    name = canonical_name(key, value, allow)
    if allow is not None and name in allow:
        return allow[name]
    module, attr = ENTRY_POINTS[key][name]  # constants of this file, never the file's text
    return getattr(importlib.import_module(module), attr)


def entry_point_name(key: str, value: Any, allow: Allow | None = None) -> str:
    """The name a file should record for ``value`` (an object, a name or a legacy path).

    Raises:
        EntryPointError: the object is neither registered nor in ``allow``.
    """
    if isinstance(value, str):
        return canonical_name(key, value, allow)
    for name, obj in (allow or {}).items():
        if obj is value:
            return name
    for name in ENTRY_POINTS.get(key, {}):
        if resolve_entry_point(key, name) is value:
            return name
    raise EntryPointError(key, value, "is not a registered entry point; pass allow={name: obj}")


def resolve_callables(env_kwargs: Mapping[str, Any], allow: Allow | None = None) -> dict[str, Any]:
    """A copy of ``env_kwargs`` with the :data:`CALLABLE_KEYS` names resolved to objects.

    Raises:
        EntryPointError: a value names no registered (or allowed) entry point.
    """
    out = dict(env_kwargs)
    for key in CALLABLE_KEYS:
        if key in out:
            out[key] = resolve_entry_point(key, out[key], allow)
    return out


def named_kwargs(env_kwargs: Mapping[str, Any], allow: Allow | None = None) -> dict[str, Any]:
    """A copy of ``env_kwargs`` with the :data:`CALLABLE_KEYS` values as their names."""
    out = dict(env_kwargs)
    for key in CALLABLE_KEYS:
        if out.get(key) is not None:
            out[key] = entry_point_name(key, out[key], allow)
    return out
