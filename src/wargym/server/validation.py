"""Checks of untrusted requests: JSON limits, field types, and engine states beyond their schema.

:func:`parse_json` turns request bytes into data under the size and nesting limits and
refuses ``NaN``/``Infinity`` and repeated keys; :func:`require` and friends check one field
and raise :class:`ProtocolError` naming it; :func:`load_battle` rebuilds a No Quarter battle with
``Battle.from_dict`` (which checks structure and version) and refuses what a well-formed but
tampered state could still carry through the engine's one definition of a valid state,
``wargym.rules.no_quarter.battle.validity.check_battle`` (with rule-table designs only and a pending
decision required): designs that differ from the rule tables, armour above the design's or
below 0, positions off the table or not finite, out-of-range turn limits and move
enumerations that would make the legal options explode, dangling mech ids.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from typing import Any

from wargym.rules.errors import RulesError, StateError, TableError

MAX_BYTES = 1_000_000
"""Largest request accepted (bytes)."""
MAX_DEPTH = 64
"""Deepest nesting of arrays/objects accepted in a request."""
MAX_SEED = 2**63 - 1
"""Largest seed accepted."""
MAX_INT = 2**63 - 1
"""Largest magnitude of any integer in a request (larger ones are refused wherever they are)."""
MAX_MESSAGE = 300
"""Longest error message sent back (longer ones are cut; user values are quoted shorter)."""

HTTP_STATUS = {
    "bad_json": 400,
    "too_deep": 400,
    "bad_request": 400,
    "unknown_type": 400,
    "unsupported_protocol": 400,
    "too_large": 413,
    "invalid_state": 422,
    "invalid_action": 422,
    "illegal_action": 422,
    "unknown_scenario": 422,
    "unsupported_system": 422,
    "game_over": 409,
    "no_policy": 409,
    "timeout": 503,
    "internal": 500,
}
"""Error code -> HTTP status (docs/protocol.md, "Errors")."""


class ProtocolError(Exception):
    """A request the server refuses: ``code`` (see :data:`HTTP_STATUS`), message, field."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of a response (message and field cut to a readable length)."""
        message = self.message if len(self.message) <= MAX_MESSAGE else (
            self.message[: MAX_MESSAGE - 3] + "...")  # fmt: skip
        field = None if self.field is None else _printable(self.field)[:200]
        return {"code": self.code, "message": _printable(message), "field": field}


def _printable(text: str) -> str:
    """``text`` with lone surrogates escaped (they cannot be written as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def clip(value: Any, limit: int = 80, quote: bool = True) -> str:
    """At most ``limit`` characters of ``value`` for a message (repr unless ``quote=False``).

    Safe for any value: integers too long for ``str`` and lone surrogates included.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        return f"an integer of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
    text = repr(value) if quote else str(value)
    text = _printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with the package: ``request`` or ``response``."""
    from importlib import resources

    text = resources.files("wargym.server").joinpath(f"schemas/{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _no_constants(name: str) -> Any:
    raise ProtocolError("bad_json", f"{name} is not valid JSON (numbers must be finite)")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object without repeated keys (a repeat would silently override the first value)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ProtocolError("bad_json", f"duplicate key {key!r} in an object", key)
        data[key] = value
    return data


class _Refused:
    """A number the decoder would not turn into a usable value; :func:`check_values` names it."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


_INT_DIGITS = len(str(MAX_INT))


def _parse_int(text: str) -> int | _Refused:
    digits = len(text) - text.startswith("-")
    if digits > _INT_DIGITS:  # also keeps int() clear of Python's 4300-digit limit
        return _Refused(f"an integer of {digits} digits; integers lie within +-(2**63 - 1)")
    return int(text)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"{clip(text, 40, quote=False)} overflows a float (numbers are finite)")
    return value


def parse_json(raw: bytes | str, max_bytes: int = MAX_BYTES) -> Any:
    """Request bytes -> data, enforcing :data:`MAX_BYTES` and :data:`MAX_DEPTH`.

    Integers beyond :data:`MAX_INT`, numbers that overflow a float and strings with lone
    surrogates are refused naming their field (:func:`check_values`).

    Raises:
        ProtocolError: ``too_large``, ``bad_json``, ``too_deep`` or ``bad_request``.
    """
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise ProtocolError("too_large", f"request of {size} bytes; the limit is {max_bytes}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError("bad_json", f"request is not UTF-8: {exc.reason}") from exc
    if not raw.strip():
        raise ProtocolError("bad_json", "empty request")
    try:
        data = json.loads(
            raw,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_keys,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except RecursionError as exc:
        raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH} levels") from exc
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad_json", f"invalid JSON: {exc.msg} at position {exc.pos}") from exc
    check_values(data)
    return data


def _path(path: str, key: Any) -> str:
    name = _printable(str(key))
    name = name if len(name) <= 40 else name[:37] + "..."
    return name if not path else f"{path}.{name}"


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_values(data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse what no field accepts, naming where it is (iterative, no recursion).

    Nesting deeper than ``limit`` (``too_deep``); and as ``bad_request``: integers beyond
    :data:`MAX_INT`, floats that are not finite, strings or keys with lone surrogates (not
    Unicode text: they cannot even be written back as UTF-8), and values that are not JSON.
    """
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        kind = type(item)
        if kind is str:
            if _unencodable(item):
                raise ProtocolError("bad_request", f"{path or '<root>'}: a string with a lone "
                                    "surrogate is not valid Unicode", path or "<root>")  # fmt: skip
        elif kind is dict or kind is list or kind is tuple:
            if depth > limit:
                raise ProtocolError("too_deep", f"nesting deeper than {limit} levels", path or None)
            if kind is dict:
                for key, child in item.items():
                    if not isinstance(key, str) or _unencodable(key):
                        where = _path(path, key)
                        raise ProtocolError("bad_request", f"{where}: a field name must be "
                                            "valid Unicode text", where)  # fmt: skip
                    stack.append((child, depth + 1, _path(path, key)))
            else:
                stack.extend((child, depth + 1, _path(path, i)) for i, child in enumerate(item))
        elif kind is _Refused:
            raise ProtocolError("bad_request", f"{path or '<root>'}: {item.reason}", path or None)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_INT - 1 <= item <= MAX_INT:
                raise ProtocolError("bad_request", f"{path or '<root>'}: {clip(item)}; "
                                    "integers lie within +-(2**63 - 1)", path or None)  # fmt: skip
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ProtocolError("bad_request", f"{path or '<root>'}: {item} is not a "
                                    "finite number", path or None)  # fmt: skip
        elif isinstance(item, str):  # subclasses: checked as the base type
            stack.append((str(item[:]), depth, path))
        elif isinstance(item, dict):
            stack.append((dict(item), depth, path))
        elif isinstance(item, list | tuple):
            stack.append((list(item), depth, path))
        else:
            raise ProtocolError("bad_request", f"{path or '<root>'}: a {kind.__name__} is not "
                                "JSON data", path or None)  # fmt: skip


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Raise ``too_deep`` when ``data`` nests deeper than ``limit`` (with :func:`check_values`)."""
    check_values(data, limit)


def require(body: dict[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``body[name]``, which must be present and of ``kind`` (booleans are not integers)."""
    if name not in body:
        raise ProtocolError("bad_request", f"missing field {name!r} ({what})", name)
    return check_type(body[name], kind, name, what)


def optional(
    body: dict[str, Any], name: str, kind: type | tuple[type, ...], what: str, default: Any
) -> Any:
    """``body[name]`` if present and not null (checked like :func:`require`), else default."""
    if body.get(name) is None:
        return default
    return check_type(body[name], kind, name, what)


def check_type(value: Any, kind: type | tuple[type, ...], field: str, what: str) -> Any:
    """``value`` if it is of ``kind``; raise ``bad_request`` naming ``field`` otherwise."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ProtocolError("bad_request", f"{field}: expected {what}, got a boolean", field)
    if not isinstance(value, kinds):
        raise ProtocolError(
            "bad_request", f"{field}: expected {what}, got {type(value).__name__}", field
        )
    return value


def int_in(body: dict[str, Any], name: str, lo: int, hi: int, default: int | None) -> int | None:
    """Optional integer field within ``lo..hi``."""
    value = optional(body, name, int, f"an integer in {lo}..{hi}", default)
    if value is not None and not lo <= value <= hi:
        raise ProtocolError("bad_request", f"{name}: {value} is outside {lo}..{hi}", name)
    return None if value is None else int(value)


def checked(field: str, code: str, build: Callable[[], Any]) -> Any:
    """``build()``, with the engine's own errors turned into ``code`` errors naming ``field``."""
    try:
        return build()
    except (StateError, TableError, RulesError, KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(code, f"{field}: {clip(str(exc), 200, quote=False)}", field) from exc


def load_battle(data: Any) -> Any:
    """A validated No Quarter ``Battle`` from request data (field ``state``).

    The state must be valid by ``validity.check_battle`` with ``known_designs=True`` (rule
    tables and shipped scenarios only) and ``started=True`` (a decision pending unless over).

    Raises:
        ProtocolError: ``invalid_state`` naming the offending part (``state.mechs.0.armor.1``).
    """
    from wargym.rules.no_quarter.battle.state import Battle
    from wargym.rules.no_quarter.battle.validity import InvalidBattleError, check_battle

    if not isinstance(data, dict):
        raise ProtocolError("invalid_state", "state: expected a battle object", "state")
    # Battle.from_dict shares nested frame lists with its input: copy, so that playing the
    # battle never writes into the caller's request data.
    private = copy.deepcopy(data)
    battle = checked("state", "invalid_state", lambda: Battle.from_dict(private, check=False))
    try:
        check_battle(battle, known_designs=True, started=True, root="state")
    except InvalidBattleError as exc:
        raise ProtocolError("invalid_state", str(exc), exc.path) from exc
    return battle
