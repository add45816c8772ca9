"""Checks of the plain-JSON parts of a submitted battle: the frame stack, ``np`` and ``mission``.

``Battle.from_dict`` types the battle's records but keeps three parts as the engine's own
plain JSON: ``frames`` (which procedure runs and how far it got), ``np`` (the rules-driven
side's bookkeeping) and ``mission``. The engine trusts what it wrote there, so a tampered
request could reach it with a missing key, a wrong type or a dangling mech id and fail deep
inside the rules. :func:`check_plain_parts` refuses such states first, naming the field:

- frames: at most :data:`MAX_FRAMES`, objects whose ``kind`` is a procedure of the rules,
  with that kind's required keys, only keys the engine writes, and per key the type it writes
  (mech ids that name a mech of the battle, sides, short stage names, bounded numbers);
- ``np`` and ``mission``: their keys and types, the typed parts (group states, mission
  options, weather) rebuilt with the engine's own records.

What those checks cannot see (a stage that does not fit the rest of the stack, say) the engine
meets when it resumes the battle: :func:`resumed` runs an engine call and turns the failures
that malformed plain JSON causes into ``invalid_state`` naming ``state``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from .validation import ProtocolError, clip

T = TypeVar("T")

MAX_FRAMES = 64
"""Deepest frame stack accepted (real battles stay under a dozen)."""
MAX_COUNT = 1_000_000
"""Largest counter (morale, next ids, ties...) accepted in ``np``, ``mission`` and frames."""
MAX_NAME = 40
"""Longest stage, mode or edge name accepted."""

_REQUIRED: dict[str, frozenset[str]] = {
    "turn": frozenset({"kind"}),
    "phase": frozenset({"kind", "side", "stage"}),
    "group": frozenset({"kind", "side", "members", "acted"}),
    "mech": frozenset({"kind", "mech", "stage", "spent", "moved", "fired"}),
    "insight": frozenset(
        {
            "kind",
            "side",
            "mover",
            "group",
            "enemy_groups",
            "stage",
            "free",
            "winners",
            "opponents",
            "deferred",
        }
    ),  # fmt: skip
    "fire": frozenset(
        {"kind", "shooter", "mode", "targets", "cause", "rush", "assigned", "twist"}
    ),  # fmt: skip
    "react": frozenset({"kind", "entries"}),
    "charge": frozenset({"kind", "charger", "target", "stage"}),
    "melee": frozenset({"kind", "attacker", "defender", "jump", "decl", "stage", "ties"}),
    "objective": frozenset({"kind"}),
    "pefs": frozenset({"kind", "order"}),
}
"""Frame kinds (``wargym.rules.no_quarter.game.HANDLERS``) and the keys each always has."""

_ID = "id"
_ID_OR_NONE = "id?"
_IDS = "ids"
_IDS_OR_NONE = "ids?"
_KEYS: dict[str, str] = {
    "kind": "kind",
    "side": "side",
    "stage": "name",
    "mode": "name",
    **dict.fromkeys(
        (
            "mech",
            "shooter",
            "mover",
            "group",
            "charger",
            "attacker",
            "defender",
            "asking",
            "charging",
            "target",
        ),
        _ID,
    ),  # fmt: skip
    "cause": _ID_OR_NONE,
    **dict.fromkeys(
        ("members", "acted", "enemy_groups", "winners", "done", "charge_options"), _IDS
    ),  # fmt: skip
    **dict.fromkeys(("targets", "free"), _IDS_OR_NONE),
    **dict.fromkeys(("moved", "fired", "rush", "jump", "pefs"), "bool"),
    "spent": "number",
    "twist": "int?",
    "ties": "count",
    "order": "ints?",
    "groups": "id_groups",
    "assigned": "lists",
    **dict.fromkeys(("entries", "deferred"), "objects"),
    **dict.fromkeys(("opponents", "decl", "free_will"), "object"),
}
"""Every key a frame may hold and the kind of value the engine writes there."""


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("invalid_state", f"{field}: {message}", field)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def check_plain_parts(battle: Any) -> None:
    """Refuse a battle whose frame stack, ``np`` or ``mission`` the engine could not have written.

    Raises:
        ProtocolError: ``invalid_state`` naming the offending part (``state.frames.2.mech``).
    """
    ids = set(battle.mechs)
    _check_frames(battle.frames, ids)
    if battle.np is not None:
        _check_np(battle.np, ids)
    if battle.mission is not None:
        _check_mission(battle.mission)


# -- frames ---------------------------------------------------------------------------------
def _check_frames(frames: Any, ids: set[int]) -> None:
    if not isinstance(frames, list):
        raise _bad("state.frames", "expected a list of frames")
    if len(frames) > MAX_FRAMES:
        raise _bad("state.frames", f"{len(frames)} frames; at most {MAX_FRAMES}")
    for i, frame in enumerate(frames):
        where = f"state.frames.{i}"
        if not isinstance(frame, dict):
            raise _bad(where, "a frame must be an object")
        kind = frame.get("kind")
        if not isinstance(kind, str) or kind not in _REQUIRED:
            raise _bad(where + ".kind", f"{clip(kind)} is not a procedure of the rules "
                                        f"({', '.join(sorted(_REQUIRED))})")  # fmt: skip
        missing = sorted(_REQUIRED[kind] - set(frame))
        if missing:
            raise _bad(f"{where}.{missing[0]}", f"a {kind} frame needs {missing[0]!r}")
        for key, value in frame.items():
            shape = _KEYS.get(key)
            if shape is None:
                raise _bad(where, f"unknown key {clip(key, 40)} in a {kind} frame")
            problem = _frame_value(shape, value, ids)
            if problem:
                raise _bad(f"{where}.{key}", problem)


def _frame_value(shape: str, value: Any, ids: set[int]) -> str | None:
    """What is wrong with ``value`` for a frame key of ``shape`` (None: nothing)."""
    if shape == "kind":
        return None  # checked by the caller
    if shape.endswith("?") and value is None:
        return None
    shape = shape.rstrip("?")
    if shape == "side":
        return None if value in ("blue", "red") else f"{clip(value)} is not 'blue' or 'red'"
    if shape == "name":
        ok = isinstance(value, str) and 0 < len(value) <= MAX_NAME
        return None if ok else f"expected a name of at most {MAX_NAME} characters"
    if shape == _ID:
        return None if _is_int(value) and value in ids else f"{clip(value)} is no mech's id"
    if shape == _IDS:
        if not isinstance(value, list):
            return "expected a list of mech ids"
        bad = [v for v in value if not (_is_int(v) and v in ids)]
        return None if not bad else f"{clip(bad[0])} is no mech's id"
    if shape == "id_groups":
        if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
            return "expected a list of lists of mech ids"
        bad = [v for g in value for v in g if not (_is_int(v) and v in ids)]
        return None if not bad else f"{clip(bad[0])} is no mech's id"
    if shape == "ints":
        ok = isinstance(value, list) and all(_is_int(v) and 0 <= v <= MAX_COUNT for v in value)
        return None if ok else f"expected a list of integers in 0..{MAX_COUNT}"
    if shape == "bool":
        return None if isinstance(value, bool) else "expected true or false"
    if shape == "number":
        ok = _is_number(value) and 0 <= value <= MAX_COUNT
        return None if ok else f"expected a number in 0..{MAX_COUNT}"
    if shape == "int":
        return None if _is_int(value) and -360 <= value <= 360 else "expected degrees -360..360"
    if shape == "count":
        ok = _is_int(value) and 0 <= value <= MAX_COUNT
        return None if ok else f"expected an integer in 0..{MAX_COUNT}"
    if shape == "lists":
        ok = isinstance(value, list) and all(isinstance(v, list) for v in value)
        return None if ok else "expected a list of lists"
    if shape == "objects":
        ok = isinstance(value, list) and all(isinstance(v, dict) for v in value)
        return None if ok else "expected a list of objects"
    return None if isinstance(value, dict) else "expected an object"


# -- np and mission ---------------------------------------------------------------------------
def _typed(where: str, tp: Any, value: Any) -> None:
    from wargym.rules.errors import RulesError
    from wargym.rules.serial import from_jsonable

    try:
        from_jsonable(tp, value, where)
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise _bad(where, clip(str(exc), 200, quote=False)) from exc


def _fields(block: dict[str, Any], where: str, shapes: dict[str, Any], optional: set[str]) -> None:
    """Check each key of ``block`` against ``shapes`` (a type, a tuple of types or a check)."""
    for key, shape in shapes.items():
        field = f"{where}.{key}"
        if key not in block:
            if key in optional:
                continue
            raise _bad(field, "missing")
        value = block[key]
        if callable(shape) and not isinstance(shape, type):
            problem = shape(value)
            if problem:
                raise _bad(field, problem)
        elif isinstance(value, bool) and shape is not bool or not isinstance(value, shape):
            raise _bad(field, f"expected {getattr(shape, '__name__', shape)}")


def _count(value: Any) -> str | None:
    ok = _is_int(value) and 0 <= value <= MAX_COUNT
    return None if ok else f"expected an integer in 0..{MAX_COUNT}"


def _count_list(value: Any) -> str | None:
    ok = isinstance(value, list) and all(_count(v) is None for v in value)
    return None if ok else f"expected a list of integers in 0..{MAX_COUNT}"


def _enum(tp: Any) -> Callable[[Any], str | None]:
    values = {member.value for member in tp}

    def check(value: Any) -> str | None:
        ok = isinstance(value, str) and value in values
        return None if ok else f"{clip(value)} is not one of {sorted(values)}"

    return check


def _or_none(check: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
    return lambda value: None if value is None else check(value)


def _name(value: Any) -> str | None:
    ok = isinstance(value, str) and len(value) <= MAX_NAME
    return None if ok else f"expected a name of at most {MAX_NAME} characters"


def _check_np(np: Any, ids: set[int]) -> None:
    from wargym.rules.no_quarter.enemy import NpGroupState
    from wargym.rules.no_quarter.vocab import Faction, Side

    if not isinstance(np, dict):
        raise _bad("state.np", "expected an object or null")
    _fields(np, "state.np", {
        "side": _enum(Side), "faction": _enum(Faction), "player_faction": _enum(Faction),
        "mission": _name, "morale": _count, "player_morale": _count, "pefs": list,
        "next_pef": _count, "used_buildings": _count_list, "excluded_sections": _count_list,
        "keep_lowest_two": bool, "contact_so_far": bool, "groups": dict, "default": dict,
        "revealed": _count, "check_due": bool, "next_team": _count,
        "player_mechs_fielded": _count, "external": bool,
    }, {"external"})  # fmt: skip
    for i, pef in enumerate(np["pefs"]):
        where = f"state.np.pefs.{i}"
        if not isinstance(pef, dict) or set(pef) != {"id", "pos", "building"}:
            raise _bad(where, "expected an object with id, pos and building")
        _fields(pef, where, {"id": _count, "building": _or_none(_count), "pos": _point}, set())
    for key, group in np["groups"].items():
        where = f"state.np.groups.{clip(key, 20, quote=False)}"
        if not (key.isascii() and key.lstrip("-").isdigit() and len(key) <= 12):
            raise _bad(where, "group keys are team numbers")
        _typed(where, NpGroupState, group)
    _typed("state.np.default", NpGroupState, np["default"])


def _point(value: Any) -> str | None:
    ok = isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)
    return None if ok else "expected [x, y] finite numbers"


def _check_mission(mission: Any) -> None:
    from wargym.rules.no_quarter.missions import AttackObjective, MissionOptions, MissionType
    from wargym.rules.no_quarter.weather import WeatherState

    if not isinstance(mission, dict):
        raise _bad("state.mission", "expected an object or null")
    edges = mission.get("exit_edges")
    _fields(mission, "state.mission", {
        "scenario": str, "kind": _enum(MissionType), "exit_edges": dict, "recon": _count_list,
        "options": dict, "weather": dict, "night": bool,
        "attack_objective": _or_none(_enum(AttackObjective)),
        "np_objective": _or_none(_enum(AttackObjective)), "outcome": (dict, type(None)),
        "player_started": _count, "cestus": _count, "objective_exits": _count,
        "enemy_forbidden_exits": _count, "crossed": _count_list, "troll": dict,
        "reported_back": _count, "reserve": list, "reserve_used": dict,
    }, {"cestus", "objective_exits", "enemy_forbidden_exits", "crossed", "troll",
        "reported_back", "reserve", "reserve_used"})  # fmt: skip
    assert isinstance(edges, dict)
    for key, edge in edges.items():
        if not (key.isascii() and key.lstrip("-").isdigit() and len(key) <= 12) or _name(edge):
            raise _bad("state.mission.exit_edges", "expected mech ids mapped to edge names")
    if not all(isinstance(r, dict) for r in mission.get("reserve", [])):
        raise _bad("state.mission.reserve", "expected a list of objects")
    _typed("state.mission.options", MissionOptions, mission["options"])
    _typed("state.mission.weather", WeatherState, mission["weather"])


# -- resuming ---------------------------------------------------------------------------------
RESUME_ERRORS: tuple[type[Exception], ...] = (
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    AssertionError,
    ArithmeticError,
    RuntimeError,
)
"""What the engine raises when it resumes plain JSON it did not write (with ``RulesError``)."""


def resumed(call: Callable[[], T]) -> T:
    """``call()`` (an engine call on a submitted battle); its failures are ``invalid_state``.

    The checks above leave the engine's frame data consistent in type; a frame stack that is
    well typed but does not fit together (a stage no procedure has, a melee over a mech that
    already left) is only found by the rules resuming it. RecursionError is left to the
    handler (``too_deep``).
    """
    from wargym.rules.errors import RulesError

    errors: tuple[type[Exception], ...] = (RulesError, *RESUME_ERRORS)
    try:
        return call()
    except RecursionError:
        raise
    except errors as exc:
        name = type(exc).__name__
        raise _bad("state", f"the rules cannot resume this battle ({name}: "
                            f"{clip(str(exc), 120, quote=False)})") from exc  # fmt: skip
