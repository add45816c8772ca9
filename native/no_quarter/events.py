"""Python glue for the native No Quarter events (``_core.no_quarter.events``, issue 16).

The core holds every class of :data:`~wargym.rules.no_quarter.battle.events.NO_QUARTER_EVENTS`
as a C++ struct and applies it to a native battle as :meth:`Battle.apply
<wargym.rules.no_quarter.battle.state.Battle.apply>` does. An event crosses as its
``to_dict()`` document:

>>> from wargym.rules.no_quarter.battle.events import TurnStarted
>>> native = native_event(TurnStarted(turn=3))
>>> native.type, native.to_dict()
('TurnStarted', {'type': 'TurnStarted', 'turn': 3})
"""

from __future__ import annotations

from typing import Any, Protocol

from wargym.native import _core
from wargym.native.no_quarter import NativeBattle
from wargym.rules.events import Event

core: Any = _core.no_quarter.events
"""The compiled events (``wargym.native._core.no_quarter.events``)."""

EVENT_TYPES: tuple[str, ...] = tuple(core.type_names())
"""Every event class name the core knows, in ``NO_QUARTER_EVENTS``'s list order."""


class NativeEvent(Protocol):
    """What ``_core.no_quarter.events.Event`` answers.

    Typed here because the submodule is ``Any`` in ``_core.pyi``; ``test_events_agreement.py``
    checks that the two name the same members.
    """

    @property
    def type(self) -> str:
        """The class name (``to_dict()["type"]``)."""

    def to_dict(self) -> dict[str, Any]:
        """The reference's ``Event.to_dict()`` document."""

    @staticmethod
    def from_dict(data: Any) -> NativeEvent:
        """The event of an ``Event.to_dict()`` document."""


def event_from_dict(data: Any) -> NativeEvent:
    """The native event of an ``Event.to_dict()`` document.

    A malformed document raises :class:`~wargym.native.errors.NativeStateError` whose ``path``
    names the field as ``from_jsonable`` does (``MechMoved.path[0][1]``).
    """
    event: NativeEvent = core.Event.from_dict(data)
    return event


def native_event(event: Event) -> NativeEvent:
    """The native twin of a reference event."""
    return event_from_dict(event.to_dict())


def apply(battle: NativeBattle, event: NativeEvent) -> None:
    """``Battle.apply(event)`` on the native battle.

    Where the reference fails on a reference that does not resolve (an unknown mech, no NP
    bookkeeping, an empty path) the core raises :class:`~wargym.native.errors.NativeStateError`.
    """
    core.apply(battle, event)
