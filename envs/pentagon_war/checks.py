"""Keyword-argument and action checks of the two space-combat envs (docs/bad_input.md).

Shared by the Pentagon War and Starship Combat envs, as ``check_skirmish_config`` is by the
No Quarter ones: a bad keyword argument raises :class:`~wargym.envs.base.EnvArgumentError`
naming it (an unknown keyword stays Python's ``TypeError``), a Parallel ``step`` is refused
as a whole before anything is applied (:func:`check_parallel_actions`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeVar

from wargym.envs.base import (
    EnvArgumentError,
    InvalidActionError,
    action_index,
    check_choice,
    check_int,
    check_keys,
    check_number,
)
from wargym.rules.errors import short_repr

OptionsT = TypeVar("OptionsT")

PZ_RENDER_MODES = ("ansi", "rgb_array", "human")
"""Render modes a PettingZoo space env accepts: ``"human"`` draws nothing (``render()`` is
``None``), as in the No Quarter PettingZoo envs; PettingZoo's ``render_test`` builds with it."""


def _check_field(where: str, item: Any, hint: Any, low: int, high: int | None = None) -> None:
    """Check ``item`` against a hint: ``Literal``, ``bool``, ``int``, ``float``, ``| None``."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        if item is None:
            return
        rest = [a for a in args if a is not type(None)]
        hint = rest[0] if len(rest) == 1 else Any
    if typing.get_origin(hint) is Literal:
        check_choice(where, item, typing.get_args(hint))
    elif hint is bool:
        if not isinstance(item, bool):
            raise EnvArgumentError(f"{where} must be true or false, got {short_repr(item)}")
    elif hint is int:
        check_int(where, item, low, high)
    elif hint is float:
        check_number(where, item)


def check_options(
    name: str,
    value: Any,
    cls: type[OptionsT],
    base: OptionsT,
    low: Mapping[str, int] | None = None,
    high: Mapping[str, int] | None = None,
) -> OptionsT:
    """The options dataclass from ``value``: ``None`` (``base``), a ``cls`` or a dict of fields.

    A dict replaces those fields of ``base``. Every field is checked against its type hint;
    integers must be in ``[low.get(field, 0), high.get(field)]`` (no upper bound if absent).

    Raises:
        EnvArgumentError: ``value`` is of another type, a key is no field of ``cls`` (the
            message names it), or a value has a wrong type, choice or range.
    """
    if value is None:
        return base
    fields = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if isinstance(value, cls):
        items = {key: getattr(value, key) for key in fields}
    elif isinstance(value, Mapping):
        items = check_keys(name, value, fields)
    else:
        raise EnvArgumentError(
            f"{name} must be a {cls.__name__}, a dict of its fields or None, "
            f"got {type(value).__name__}"
        )
    hints = typing.get_type_hints(cls)
    lows, highs = low or {}, high or {}
    for key, item in items.items():
        _check_field(f"{name}.{key}", item, hints[key], lows.get(key, 0), highs.get(key))
    if isinstance(value, cls):
        return value
    return dataclasses.replace(base, **items)  # type: ignore[type-var]


def check_parallel_actions(
    actions: Any, agents: Sequence[str], deciding: Sequence[str]
) -> dict[str, int | None]:
    """A Parallel ``step``'s actions as ``{agent: index or None}``, checked before any is applied.

    Only the agents in ``deciding`` (those with a decision now) are in the result; the action
    of any other agent is ignored, whatever its value. A deciding agent left out gets ``None``
    (no action: illegal).

    Raises:
        InvalidActionError: ``actions`` is no mapping, names an agent not in ``agents`` (the
            message names it), or holds a value of a deciding agent that is no integer index
            (``action_index``).
    """
    if not isinstance(actions, Mapping):
        raise InvalidActionError(
            f"actions must be a dict of agent -> action, got {type(actions).__name__}"
        )
    unknown = sorted(short_repr(a, 40) for a in actions if a not in agents)
    if unknown:
        raise InvalidActionError(
            f"actions for unknown agents {short_repr(unknown)}; agents: {list(agents)}"
        )
    out: dict[str, int | None] = {}
    for agent in deciding:
        action = actions.get(agent)
        try:
            out[agent] = None if action is None else action_index(action)
        except InvalidActionError as error:
            raise InvalidActionError(f"{agent}: {error}") from None
    return out
