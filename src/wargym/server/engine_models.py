"""Pydantic models of the engine's JSON: the No Quarter state, every action and every event.

The engine writes its records with :func:`wargym.rules.serial.to_jsonable` (a dataclass is an
object of its fields, an enum its value, a tuple a list, a mapping an object with string keys);
the models here are derived from the same dataclass annotations, so they cannot drift from
what the engine writes: ``Battle`` (``Battle.to_dict()``), one model per action class
(``action_to_dict``: ``{"type": <class name>, ...fields}``) and one per event class
(``Event.to_dict``), with the class and field docstrings as descriptions. Every field the engine
always writes is required; objects are closed (``extra="forbid"``) except the NP side's and the
mission's open blocks. The frame stack (``Battle.frames``) is the rules' resume point: a client
sends it back unchanged; each frame is an object with a ``kind``.

:mod:`.models` builds the protocol messages on these; the committed JSON Schemas
(``schemas/*.json``) are generated from them.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import sys
import textwrap
import types
import typing
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import ConfigDict, Field, JsonValue, create_model

INT_KEY = Annotated[str, Field(pattern=r"^-?[0-9]{1,19}$")]
"""An object key that spells an integer (the engine's ``dict[int, ...]`` in JSON)."""
CLOSED = ConfigDict(extra="forbid", strict=True)
"""Engine records: only their fields; JSON types as written (no coercion of strings)."""
OPEN = ConfigDict(extra="allow", strict=True)
"""The engine's open blocks (NP side, mission, frames): the keys listed, maybe more."""
_LIST: Any = list
_DICT: Any = dict
_TUPLE: Any = tuple
_LITERAL: Any = Literal
_UNION: Any = Union


def _record(name: str, doc: str, config: ConfigDict = CLOSED, /, **fields: Any) -> Any:
    """A pydantic model built at run time (``fields``: name -> (annotation, default|Field))."""
    built: dict[str, Any] = fields
    return create_model(name, __config__=config, __doc__=doc, **built)


@cache
def _field_docs(cls: type) -> dict[str, str]:
    """The attribute docstrings of a dataclass (a string right after the field)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        tree = ast.parse(source)
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in zip(body, body[1:], strict=False):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    namespace = dict(vars(module)) if module is not None else {}
    return typing.get_type_hints(cls, globalns=namespace, include_extras=False)


class _Builder:
    """Turns engine dataclasses into pydantic models (one per class, names unique)."""

    def __init__(self) -> None:
        self.models: dict[type, Any] = {}
        self.names: dict[str, type] = {}
        self.overrides: dict[tuple[type, str], Any] = {}

    def annotation(self, tp: Any) -> Any:
        """The pydantic annotation of the JSON the engine writes for a value of type ``tp``."""
        origin = get_origin(tp)
        if tp is Any:
            return JsonValue
        if origin is Union or origin is types.UnionType:
            options = tuple(self.annotation(a) for a in get_args(tp))
            return _UNION[options]
        if origin is Literal or tp in (int, str, bool, float, type(None)):
            return tp
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return tp
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return self.model(tp)
        if origin is tuple:
            args = get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return _LIST[self.annotation(args[0])]
            return _TUPLE[tuple(self.annotation(a) for a in args)]
        if origin in (list, set, frozenset):
            (item,) = get_args(tp) or (Any,)
            return _LIST[self.annotation(item)]
        if origin is dict:
            key, value = get_args(tp) or (str, Any)
            key_tp = INT_KEY if key is int else key
            return _DICT[key_tp, self.annotation(value)]
        raise TypeError(f"no JSON model for the engine type {tp!r}")

    def model(
        self, cls: type, tag: str | None = None, *, name: str | None = None,
        extra: Literal["forbid", "allow"] = "forbid",
    ) -> Any:  # fmt: skip
        """The model of dataclass ``cls`` (``tag``: a leading ``type`` constant, actions/events)."""
        known = self.models.get(cls)
        if known is not None:
            return known
        name = name or cls.__name__
        if name in self.names and self.names[name] is not cls:
            raise TypeError(f"two engine records are both called {name}")
        self.names[name] = cls
        docs = _field_docs(cls)
        fields: dict[str, Any] = {}
        if tag is not None:
            fields["type"] = (_LITERAL[tag], Field(description="the record's class name"))
        hints = _hints(cls)
        for f in dataclasses.fields(cls):
            if f.metadata.get("cache"):
                continue  # not serialised
            tp = self.overrides.get((cls, f.name)) or self.annotation(hints[f.name])
            fields[f.name] = (tp, Field(description=docs.get(f.name)))
        doc = inspect.cleandoc(cls.__doc__ or name)
        model = _record(name, doc, CLOSED if extra == "forbid" else OPEN, **fields)
        self.models[cls] = model
        return model


def _np_and_mission(builder: _Builder) -> tuple[Any, Any]:
    """Models of the NP side's and the mission's blocks (keys every state holds; open)."""
    from wargym.rules.no_quarter.battlefield.weather import WeatherState
    from wargym.rules.no_quarter.forces.vocab import Faction
    from wargym.rules.no_quarter.mission.missions import (
        AttackObjective,
        MissionOptions,
        MissionType,
    )
    from wargym.rules.no_quarter.non_player.enemy import NpGroupState

    edge = _LITERAL["north", "south", "east", "west"]
    pef = _record(
        "Pef", "A Possible Enemy Force marker on the table (§20).",
        id=(int, ...), pos=(tuple[float, float], ...), building=(int | None, Field(
            description="the building it hides in (feature index)")),
    )  # fmt: skip
    group = builder.model(NpGroupState, extra="allow")
    outcome = _record("MissionOutcome", "How the mission ended.", status=(str, ...),
                      reason=(str, ...))  # fmt: skip
    np_block = _record(
        "NpBlock", "The rules-driven side's bookkeeping: PEFs, morale, NP groups (§20, §22).",
        OPEN, side=(_LITERAL["blue", "red"], ...), faction=(Faction, ...),
        player_faction=(Faction, ...), mission=(_LITERAL["patrol", "attack", "defend"], ...),
        morale=(int, ...), player_morale=(int, ...), pefs=(_LIST[pef], ...),
        next_pef=(int, ...), used_buildings=(list[int], ...),
        excluded_sections=(list[int], ...), keep_lowest_two=(bool, ...),
        contact_so_far=(bool, ...),
        groups=(_DICT[INT_KEY, group], Field(description="NP group states by team")),
        default=(group, ...), revealed=(int, ...), check_due=(bool, ...), next_team=(int, ...),
        player_mechs_fielded=(int, ...), external=(bool | None, None),
    )  # fmt: skip
    mission_block = _record(
        "MissionBlock", "Mission bookkeeping: kind, objectives, progress, weather, outcome "
        "(§22, §23.7).", OPEN, scenario=(str, ...), kind=(MissionType, ...),
        exit_edges=(_DICT[INT_KEY, edge], Field(description="edge each mech left by")),
        recon=(list[int], ...), options=(builder.model(MissionOptions), ...),
        weather=(builder.model(WeatherState), ...), night=(bool, ...),
        attack_objective=(AttackObjective | None, ...),
        np_objective=(AttackObjective | None, ...),
        outcome=(_UNION[outcome, None], ...), player_started=(int, ...),
    )  # fmt: skip
    return np_block, mission_block


def _frame_model() -> Any:
    kinds = _LITERAL["turn", "phase", "group", "mech", "insight", "fire", "react", "charge",
                     "charges", "melee", "objective", "pefs", "pause"]  # fmt: skip
    return _record(
        "Frame", "One procedure of the rules in progress (the resume stack: send it back "
        "unchanged; its keys depend on the kind).", OPEN, kind=(kinds, ...),
    )  # fmt: skip


@cache
def engine_models() -> dict[str, Any]:
    """``{"Battle": model, "actions": [models], "events": [models]}`` (built once)."""
    from wargym.rules.no_quarter.battle import state
    from wargym.rules.no_quarter.battle.actions import ACTION_CLASSES

    builder = _Builder()
    np_block, mission_block = _np_and_mission(builder)
    frame = _frame_model()
    builder.overrides[(state.Battle, "np")] = np_block | None
    builder.overrides[(state.Battle, "mission")] = mission_block | None
    builder.overrides[(state.Battle, "frames")] = _LIST[frame]
    battle = builder.model(state.Battle)
    actions = [builder.model(cls, tag=name) for name, cls in sorted(ACTION_CLASSES.items())]
    events = [builder.model(cls, tag=cls.__name__) for cls in event_classes()]
    return {"Battle": battle, "actions": actions, "events": events}


def event_classes() -> list[type]:
    """Every event class a served game can report (battle, set-up and NP events), by name."""
    from wargym.rules.events import Event
    from wargym.rules.no_quarter.battle import events
    from wargym.rules.no_quarter.forces import setup_events
    from wargym.rules.no_quarter.non_player import np_events

    found: dict[str, type] = {}
    for module in (events, setup_events, np_events):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Event)
                and value.__module__ == module.__name__
            ):
                found[value.__name__] = value
    return [found[name] for name in sorted(found)]


__all__ = ["engine_models", "event_classes"]
