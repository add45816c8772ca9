"""Strict YAML presets for the training scripts' ``Args`` dataclasses.

A preset is a YAML mapping whose keys are field names of the script's ``Args``. Unknown keys,
wrong types and unreadable files raise :class:`ConfigError` naming the file and the key, so a
copied and edited preset fails early and clearly. Command-line flags override preset values.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml

from wargym.cli_args import one_line
from wargym.rules.errors import short_repr

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


CONFIG_HELP = (
    "--config PATH: YAML preset whose keys are the options below (default: none); flags "
    "given with it override the preset's values."
)
"""How ``--config`` shows in every training script's help."""

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _split_config(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--config PATH`` (or ``--config=PATH``) taken out of ``argv``; the rest in order."""
    config: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--config":
            if i + 1 >= len(argv):
                raise ConfigError("command line: --config needs a YAML preset path")
            config, i = argv[i + 1], i + 2
            continue
        if token.startswith("--config="):
            config = token.split("=", 1)[1]
        else:
            rest.append(token)
        i += 1
    return config, rest


def _legacy_flags(cls: type[Any], argv: list[str]) -> list[str]:
    """The value forms of the pre-tyro parser, in tyro's spelling.

    ``--smoke true`` / ``--alternate false`` become ``--smoke`` / ``--no-alternate``, and a
    list given as one YAML list (``--net-arch "[64, 64]"``) becomes its items.
    """
    hints = _field_types(cls)
    kinds = {"--" + name.replace("_", "-"): hint for name, hint in hints.items()}
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        flag, eq, inline = token.partition("=")
        hint = kinds.get(flag)
        value = inline if eq else (argv[i + 1] if i + 1 < len(argv) else None)
        step = 1 if eq else 2
        if hint is bool and value is not None and value.lower() in _TRUE + _FALSE:
            out.append(flag if value.lower() in _TRUE else "--no-" + flag[2:])
            i += step
            continue
        is_list = typing.get_origin(hint) in (list, tuple)
        if is_list and value is not None and value.lstrip().startswith("["):
            try:
                items = yaml.safe_load(value)
            except yaml.YAMLError as exc:
                raise ConfigError(f"command line: {flag}: not a YAML list: {exc}") from None
            if not isinstance(items, list):
                raise ConfigError(f"command line: {flag}: not a YAML list")
            out.extend([flag, *(str(v) for v in items)])
            i += step
            continue
        out.append(token)
        i += 1
    return out


def _yaml_mapping(text: str) -> dict[str, Any]:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"not a YAML mapping: {one_line(str(exc), 120)}") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"expected a YAML mapping like '{{key: value}}', got {short_repr(value)}")
    return value


def _registry() -> Any:
    """Tyro rules of the training flags: ``dict[str, Any]`` fields read one YAML mapping."""
    import tyro

    registry = tyro.constructors.ConstructorRegistry()

    @registry.primitive_rule
    def _mapping(info: Any) -> Any:
        if info.type_origin not in (dict, Mapping) and info.type not in (dict, Mapping):
            return None
        return tyro.constructors.PrimitiveConstructorSpec(
            nargs=1,
            metavar="YAML",
            instance_from_str=lambda args: _yaml_mapping(args[0]),
            is_instance=lambda value: isinstance(value, dict),
            str_from_instance=lambda value: [
                yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
            ],
        )

    return registry


def parse_args(
    cls: type[T],
    argv: Sequence[str] | None = None,
    description: str = "",
    prog: str | None = None,
) -> T:
    """``--config preset.yaml`` plus one ``--field value`` flag per ``Args`` field (tyro).

    The help (``--help``) shows each field's docstring and default. Booleans are flags
    (``--smoke`` / ``--no-smoke``; ``--smoke true`` still works), list fields take several
    values (``--agents random rules``, ``--net-arch 64 64``, or one YAML list ``"[64, 64]"``),
    mapping fields one YAML mapping (``--env-kwargs "{faction: star_army}"``).

    Raises:
        ConfigError: a bad preset, an unknown flag or a bad value (one line naming it).
    """
    from wargym.cli_args import UsageError, parse_cli

    args = list(sys.argv[1:] if argv is None else argv)
    config, rest = _split_config(args)
    default = load_preset(cls, config) if config else None
    rest = _legacy_flags(cls, rest)
    text = f"{description.rstrip()}\n\n{CONFIG_HELP}" if description else CONFIG_HELP
    try:
        return parse_cli(
            cls,
            rest,
            prog=prog or Path(sys.argv[0]).name,
            description=text,
            default=default,
            registry=_registry(),
        )
    except UsageError as exc:
        raise ConfigError(str(exc)) from None


def cli(cls: type[T], description: str = "", argv: Sequence[str] | None = None) -> T:
    """:func:`parse_args` for a script's ``__main__``: a bad preset or flag exits 2.

    The message is one line on stderr, without a traceback.
    """
    entry = sys.modules.get("wargym.agents.training_entry")
    prog = getattr(entry, "PROG", None) or f"python -m training.{Path(sys.argv[0]).stem}"
    try:
        return parse_args(cls, argv, description, prog=prog)
    except ConfigError as exc:
        print(f"{prog}: error: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
