"""Typed, JSON-serialisable events shared by every engine.

Every resolved rule produces an event that records its inputs and the dice faces it used.
An event serialises as ``{"type": <class name>, ...fields}`` and a registry of event classes
(one per rule system) rebuilds it:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class DieRolled(Event):
...     faces: tuple[int, ...]
>>> registry = EventRegistry([DieRolled])
>>> registry.from_dict(DieRolled((3,)).to_dict())
DieRolled(faces=(3,))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from wargym.rules.errors import StateError
from wargym.rules.serial import from_jsonable, to_jsonable

_PLAIN = frozenset({int, bool, str, float, type(None)})
"""Exact types :func:`to_jsonable` returns unchanged (subclasses such as enums excluded)."""
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Field names per event class, in field order (filled on first use)."""


@dataclass(frozen=True)
class Event:
    """Base class of every event: an immutable record of one resolved rule."""

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-compatible mapping tagged with its type name.

        ``{"type": <class name>, **to_jsonable(self)}``, built without a second dict: plain
        values and tuples of plain values are taken as they are (as ``to_jsonable`` does).
        """
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))
        data: dict[str, Any] = {"type": cls.__name__}
        for name in names:
            value = getattr(self, name)
            kind = type(value)
            if kind in _PLAIN:
                data[name] = value
            elif kind is tuple and all(type(item) in _PLAIN for item in value):
                data[name] = list(value)
            else:
                data[name] = to_jsonable(value)
        return data


class EventRegistry:
    """Maps event type names back to classes for deserialisation."""

    def __init__(self, classes: Iterable[type[Event]]) -> None:
        self._classes = {cls.__name__: cls for cls in classes}

    def __contains__(self, name: str) -> bool:
        return name in self._classes

    @property
    def names(self) -> tuple[str, ...]:
        """Registered event type names, sorted."""
        return tuple(sorted(self._classes))

    def from_dict(self, data: dict[str, Any]) -> Event:
        """Rebuild an event from :meth:`Event.to_dict` output."""
        if not isinstance(data, dict) or "type" not in data:
            raise StateError(f"an event must be an object with a 'type' key, got {data!r}")
        fields = dict(data)
        name = fields.pop("type")
        cls = self._classes.get(name)
        if cls is None:
            raise StateError(f"unknown event type {name!r}")
        event = from_jsonable(cls, fields, where=name)
        assert isinstance(event, Event)
        return event
