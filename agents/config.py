"""Strict YAML presets for the training scripts' ``Args`` dataclasses.

A preset is a YAML mapping whose keys are field names of the script's ``Args``. Unknown keys,
wrong types and unreadable files raise :class:`ConfigError` naming the file and the key, so a
copied and edited preset fails early and clearly. Command-line flags override preset values.
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")


class ConfigError(ValueError):
    """A preset or a flag does not fit the ``Args`` dataclass."""


def _field_types(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _check(name: str, value: Any, hint: Any, where: str) -> Any:
    """``value`` converted to ``hint`` (int -> float allowed), else :class:`ConfigError`."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _check(name, value, arg, where)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if errors else f"{where}: {name}: bad value {value!r}")
    if hint is Any:
        return value
    if origin is typing.Literal:
        if isinstance(value, bool) or value not in args:
            raise ConfigError(f"{where}: {name} must be one of {list(args)}, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {name} must be true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: {name} must be an integer, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: {name} must be a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: {name} must be a string, got {value!r}")
        return value
    if origin in (list, tuple, Sequence):
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{where}: {name} must be a list, got {value!r}")
        inner = args[0] if args else Any
        items = [_check(f"{name}[{i}]", v, inner, where) for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: {name} must be a mapping, got {value!r}")
        return dict(value)
    raise ConfigError(f"{where}: {name}: unsupported field type {hint!r}")


def args_from_mapping(cls: type[T], data: Mapping[str, Any], where: str = "<mapping>") -> T:
    """An ``Args`` instance from ``data``; unknown keys and wrong types raise ConfigError."""
    hints = _field_types(cls)
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {unknown} for {cls.__name__}; known keys: {sorted(names)}"
        )
    values = {k: _check(k, v, hints[k], where) for k, v in data.items()}
    try:
        return cls(**values)
    except ValueError as exc:  # an Args.__post_init__ range check; its message names the key
        raise ConfigError(f"{where}: {exc}") from exc


def load_preset(cls: type[T], path: str | Path) -> T:
    """Read a YAML preset into ``cls`` (see the module docstring)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read preset: {exc}") from exc
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: a preset is a mapping of Args fields, got {type(data)}")
    return args_from_mapping(cls, data, where)


def parse_args(cls: type[T], argv: Sequence[str] | None = None, description: str = "") -> T:
    """``--config preset.yaml`` plus one ``--field value`` flag per ``Args`` field.

    Values of flags are parsed as YAML scalars/lists/mappings (``--smoke true``); list fields
    take several values (``--agents random rules``, ``--net-arch 64 64``) or one YAML list
    (``--net-arch "[64, 64]"``); a bare boolean flag (``--smoke``) means true.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--config", help="YAML preset (keys: Args fields)")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    hints = _field_types(cls)
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        if typing.get_origin(hints[f.name]) in (list, tuple):
            parser.add_argument(flag, dest=f.name, nargs="+", default=None)
        else:
            parser.add_argument(flag, dest=f.name, nargs="?", const="true", default=None)
    ns = parser.parse_args(argv)
    base: dict[str, Any] = {}
    if ns.config:
        preset = load_preset(cls, ns.config)
        base = {f.name: getattr(preset, f.name) for f in fields}
    overrides: dict[str, Any] = {}
    for f in fields:
        raw = getattr(ns, f.name)
        if isinstance(raw, list):
            if len(raw) == 1 and raw[0].lstrip().startswith("["):
                raw = raw[0]
            else:
                inner = typing.get_args(hints[f.name])
                keep = bool(inner) and inner[0] is str
                overrides[f.name] = [t if keep else yaml.safe_load(t) for t in raw]
                continue
        if raw is not None:
            try:
                overrides[f.name] = yaml.safe_load(raw)
            except yaml.YAMLError as exc:
                raise ConfigError(f"--{f.name}: cannot parse {raw!r}: {exc}") from exc
            if (
                isinstance(overrides[f.name], str | int | float)
                and _field_types(cls)[f.name] is str
            ):
                overrides[f.name] = str(raw)
    return args_from_mapping(
        cls, {**base, **overrides}, "command line" if not ns.config else ns.config
    )
