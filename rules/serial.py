"""Plain-data conversion shared by every engine's state, events and actions.

Dataclasses become JSON objects of their fields, enums their values, tuples lists; the way
back is driven by the dataclass field annotations, so a typed record round-trips exactly:

>>> import enum
>>> from dataclasses import dataclass
>>> class Colour(enum.Enum):
...     RED = "red"
>>> @dataclass(frozen=True)
... class Marker:
...     colour: Colour
...     at: tuple[float, float]
>>> data = to_jsonable(Marker(Colour.RED, (1.0, 2.5)))
>>> data
{'colour': 'red', 'at': [1.0, 2.5]}
>>> from_jsonable(tuple[float, float], [1.0, 2.5])
(1.0, 2.5)
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from wargym.rules.errors import StateError, short_repr

T = TypeVar("T")


def to_jsonable(obj: Any) -> Any:
    """Convert dataclasses, enums, tuples and mappings into JSON-compatible values."""
    if isinstance(obj, enum.Enum):  # before int/str: IntEnum/StrEnum members become plain values
        return obj.value
    if obj is None or isinstance(obj, bool | int | str):
        return obj
    if isinstance(obj, float):
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list | tuple):
        return [to_jsonable(item) for item in obj]
    if isinstance(obj, set | frozenset):
        return sorted((to_jsonable(item) for item in obj), key=repr)
    if isinstance(obj, Mapping):
        return {str(_key_to_jsonable(k)): to_jsonable(v) for k, v in obj.items()}
    raise TypeError(f"cannot serialise {type(obj).__name__}: {short_repr(obj)}")


def _key_to_jsonable(key: Any) -> Any:
    if isinstance(key, enum.Enum):
        return key.value
    return key


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    namespace = dict(vars(module)) if module is not None else {}
    return typing.get_type_hints(cls, globalns=namespace)


def from_jsonable(tp: Any, data: Any, where: str = "$") -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_jsonable` output; errors name the path."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin is Union or origin is types.UnionType:
        options = get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_jsonable(option, data, where)
            except (StateError, TypeError, ValueError, KeyError) as error:
                errors.append(str(error))
        raise StateError(f"{where}: {short_repr(data)} matches none of {options}: {errors}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise StateError(f"{where}: {short_repr(data)} is not one of {get_args(tp)}")
        return data
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError as error:
            raise StateError(f"{where}: {short_repr(data)} is not a valid {tp.__name__}") from error
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            got = short_repr(data)
            raise StateError(f"{where}: expected an object for {tp.__name__}, got {got}")
        hints = _hints(tp)
        fields = {f.name: f for f in dataclasses.fields(tp)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise StateError(f"{where}: unknown fields {unknown} for {tp.__name__}")
        kwargs = {}
        for name, field in fields.items():
            if name not in data:
                if (
                    field.default is dataclasses.MISSING
                    and field.default_factory is dataclasses.MISSING
                ):
                    raise StateError(f"{where}: missing field {name!r} of {tp.__name__}")
                continue
            kwargs[name] = from_jsonable(hints[name], data[name], f"{where}.{name}")
        return tp(**kwargs)
    if origin in (list, tuple, set, frozenset):
        if not isinstance(data, list):
            raise StateError(f"{where}: expected a list, got {short_repr(data)}")
        args = get_args(tp)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(from_jsonable(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
            if args and len(args) != len(data):
                raise StateError(f"{where}: expected {len(args)} items, got {len(data)}")
            pairs = enumerate(zip(args, data, strict=True))
            return tuple(from_jsonable(a, v, f"{where}[{i}]") for i, (a, v) in pairs)
        item = args[0] if args else Any
        items = [from_jsonable(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return origin(items)
    if origin is dict:
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected an object, got {short_repr(data)}")
        key_tp, value_tp = get_args(tp) or (Any, Any)
        return {
            _key_from_jsonable(key_tp, k, where): from_jsonable(value_tp, v, f"{where}.{k}")
            for k, v in data.items()
        }
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise StateError(f"{where}: expected a number, got {short_repr(data)}")
        try:
            return float(data)
        except OverflowError:  # an int beyond the largest float (10**400)
            raise StateError(f"{where}: {short_repr(data)} is too large for a number") from None
    if tp in (int, str, bool):
        if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
            raise StateError(f"{where}: expected {tp.__name__}, got {short_repr(data)}")
        return data
    if tp is type(None):
        if data is not None:
            raise StateError(f"{where}: expected null, got {short_repr(data)}")
        return None
    # NewType and similar aliases: fall back to their supertype.
    supertype = getattr(tp, "__supertype__", None)
    if supertype is not None:
        return from_jsonable(supertype, data, where)
    raise TypeError(f"{where}: cannot rebuild values of type {tp!r}")


def _key_from_jsonable(key_tp: Any, key: str, where: str) -> Any:
    if key_tp is int or getattr(key_tp, "__supertype__", None) is int:
        try:
            return int(key)
        except ValueError as error:
            raise StateError(f"{where}: key {short_repr(key)} is not an integer") from error
    if isinstance(key_tp, type) and issubclass(key_tp, enum.Enum):
        # to_jsonable wrote str(member.value), so an int-valued enum key arrives as "3".
        for member in key_tp:
            if str(member.value) == key:
                return member
        raise StateError(f"{where}: key {short_repr(key)} is not a valid {key_tp.__name__}")
    return from_jsonable(key_tp, key, where)
