"""Actions and events in plain words, for all three games.

Used by the replays, the terminal and browser clients and the demo.

Stable API (other front ends import it):

* :func:`describe_action` ``(game, action, **context) -> str``: an engine action object, an
  action dict (``{"type": ...}`` as replays hold them) or an env action index (with the
  ``codec`` and ``state`` it belongs to, and for Pentagon War the ``decision``);
* :func:`describe_index` ``(env, index) -> str``: an env's action index, decoded with the
  env's own codec and state;
* :func:`describe_event` ``(game, event) -> str``: an engine event or its dict;
* :func:`describe_decision` ``(game, decision) -> str``: what is being decided;
* :func:`fmt_number` ``(value, digits=1) -> str`` and :func:`round_numbers` ``(obj, digits=2)``:
  numbers as a person reads them (no 15-digit floats).

``game`` is ``"no_quarter"``, ``"pentagon_war"`` or ``"starship_combat"`` (an env id such as
``"wargym/PentagonWar-Duel-v0"`` or an alias ``nq`` / ``pw`` / ``sc`` works too). Nothing here
raises on odd input: an event or action dict from a replay file is untrusted, and one that does
not fit its template is written out generically (type in words, then its fields).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "GAMES",
    "describe_action",
    "describe_decision",
    "describe_event",
    "describe_index",
    "fmt_number",
    "fmt_value",
    "game_key",
    "round_numbers",
    "words",
]

GAMES = ("no_quarter", "pentagon_war", "starship_combat")
"""The game keys."""
_ALIASES = {"nq": "no_quarter", "noquarter": "no_quarter", "cestus": "no_quarter",
            "cestusv": "no_quarter", "pw": "pentagon_war", "pentagonwar": "pentagon_war",
            "sc": "starship_combat", "starshipcombat": "starship_combat"}  # fmt: skip
_LIMIT = 240
"""Longest text one description may be."""


def game_key(game: Any) -> str:
    """``"no_quarter"``, ``"pentagon_war"``, ``"starship_combat"`` or ``""`` (unknown)."""
    text = str(game).lower()
    if text in GAMES:
        return text
    flat = re.sub(r"[^a-z]", "", text.split("/")[-1])
    for alias, key in _ALIASES.items():
        if flat == alias or (len(alias) > 2 and flat.startswith(alias)):
            return key
    return ""


def fmt_number(value: Any, digits: int = 1) -> str:
    """A number for people: ``3.0`` -> ``"3"``, ``2.456`` -> ``"2.5"``.

    Integers as they are, floats rounded to ``digits`` decimals with trailing zeros dropped.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    text = f"{value:.{max(0, digits)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def round_numbers(obj: Any, digits: int = 2, _depth: int = 0) -> Any:
    """A copy of JSON-like ``obj`` with every float rounded to ``digits`` decimals.

    Floats that become whole numbers turn into ints; other values stay as they are.
    """
    if _depth > 60:
        return obj
    if isinstance(obj, float):
        if not math.isfinite(obj):
            return obj
        value = round(obj, digits)
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(obj, dict):
        return {k: round_numbers(v, digits, _depth + 1) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [round_numbers(v, digits, _depth + 1) for v in obj]
    return obj


def words(name: Any) -> str:
    """``"ShotFired"`` -> ``"shot fired"``, ``"deep_water"`` -> ``"deep water"``."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(name)).replace("_", " ")
    return text.lower().strip()


def fmt_value(value: Any, _depth: int = 0) -> str:
    """Any JSON-like value in short words.

    yes/no, rounded numbers, ``(x, y)`` points, ``3, 5`` lists, ``key value`` objects.
    """
    if _depth > 4:
        return "..."
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return fmt_number(value)
    if isinstance(value, str):
        return _cut(words(value) if re.fullmatch(r"[a-z0-9_]+", value) else value, 80)
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(_is_num(v) for v in value):
            return f"({fmt_number(value[0])}, {fmt_number(value[1])})"
        shown = ", ".join(fmt_value(v, _depth + 1) for v in list(value)[:12])
        return shown + (", ..." if len(value) > 12 else "")
    if isinstance(value, dict):
        parts = [f"{words(k)} {fmt_value(v, _depth + 1)}" for k, v in list(value.items())[:8]]
        return "{" + "; ".join(parts) + ("; ..." if len(value) > 8 else "") + "}"
    return _cut(str(value), 80)


def _is_num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _cut(text: str, limit: int = _LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _as_dict(obj: Any) -> dict[str, Any] | None:
    if isinstance(obj, dict):
        return obj
    to_dict = getattr(obj, "to_dict", None)
    if callable(to_dict):
        try:
            data = to_dict()
        except Exception:  # noqa: BLE001 - describe, never fail
            return None
        return data if isinstance(data, dict) else None
    return None


def _generic(data: Mapping[str, Any], skip: tuple[str, ...] = ("type",)) -> str:
    head = words(data.get("type", "event"))
    rest = ", ".join(f"{words(k)} {fmt_value(v)}" for k, v in data.items() if k not in skip)
    return _cut(f"{head}: {rest}" if rest else head)


# -- events ---------------------------------------------------------------------------------
def describe_event(game: Any, event: Any) -> str:
    """One event (an engine event or its dict) as one line of plain words."""
    data = _as_dict(event)
    if data is None:
        return _cut(fmt_value(event))
    from wargym import describe_events

    table = describe_events.TEMPLATES.get(game_key(game), {})
    template = table.get(str(data.get("type")))
    if template is not None:
        try:
            return _cut(template(_Fields(data)))
        except Exception:  # noqa: BLE001 - an odd event from a file: fall back to its fields
            pass
    return _generic(data)


class _Fields:
    """Read access to an event dict for the templates.

    ``f.n("turn")`` a number in words, ``f.v("x")`` any value in words, ``f["x"]`` the raw
    value (KeyError when missing).
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The raw value or ``default``."""
        return self.data.get(key, default)

    def n(self, key: str, digits: int = 1) -> str:
        """A number field, rounded (TypeError when it is no number)."""
        value = self.data[key]
        if not _is_num(value):
            raise TypeError(key)
        return fmt_number(value, digits)

    def v(self, key: str) -> str:
        """Any field in words."""
        return fmt_value(self.data[key])


# -- actions --------------------------------------------------------------------------------
def describe_action(
    game: Any,
    action: Any,
    *,
    decision: Any = None,
    state: Any = None,
    codec: Any = None,
    side: int | None = None,
) -> str:
    """An action in plain words.

    ``action`` is an engine action object, an action dict, ``None`` (no action) or an env
    action index; an index is decoded with ``codec`` (the env's ``ActionCodec``) and ``state``
    (the engine state: No Quarter and Starship Combat need it); without them it reads
    ``action 17``. Pentagon War's "choose a number" options are named from ``decision``
    (what it decides: a power level, a screen row, a thrust); ``side`` is the deciding side
    of a Starship Combat index (default: the side whose decision is pending, else 0).
    """
    key = game_key(game)
    if action is None:
        return "no action (illegal or skipped)"
    if _is_index(action):
        action = _decode(key, int(action), codec, state, side, decision)
        if isinstance(action, str):
            return action
    if isinstance(action, dict):
        action = _from_dict(key, action)
        if isinstance(action, str):
            return action
    if key == "pentagon_war":
        from wargym.describe_events import pw_action

        return _cut(pw_action(action, decision))
    ship = getattr(decision, "ship", None) if key == "starship_combat" else None
    text = str(action)
    weapon = getattr(decision, "weapon", None) if key == "starship_combat" else None
    if weapon and type(action).__name__ == "Fire":
        noun = "battery" if action.batteries == 1 else "batteries"
        text = f"fire {action.batteries} {words(weapon)} {noun} at ship {action.target}"
    elif weapon and type(action).__name__ == "HoldFire":
        text = f"hold fire ({words(weapon)})"
    return _cut(("" if ship is None else f"ship {ship}: ") + text)


def _is_index(action: Any) -> bool:
    if isinstance(action, bool):
        return False
    if isinstance(action, int):
        return True
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a core dependency
        return False
    return isinstance(action, np.integer) or (
        isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"
    )


def _decode(key: str, index: int, codec: Any, state: Any, side: Any, decision: Any) -> Any:
    if codec is None:
        return f"action {index}"
    try:
        if key == "no_quarter":
            return codec.decode(index, state)
        if key == "pentagon_war":
            return codec.decode(index)
        if key == "starship_combat":
            if side is None:
                side = getattr(decision, "side", None)
            if side is None:
                from wargym.rules.starship_combat import game as sc

                side = sc.decider(state)
            decoded = codec.decode(index, state, 0 if side is None else side)
            return f"action {index} (an unused slot)" if decoded is None else decoded
    except Exception as error:  # noqa: BLE001 - an index the codec refuses
        return f"action {index} ({_cut(str(error), 120)})"
    return f"action {index}"


def _from_dict(key: str, data: dict[str, Any]) -> Any:
    if key == "no_quarter" and "type" in data:
        try:
            from wargym.rules.no_quarter.battle.actions import action_from_dict

            return action_from_dict(data)
        except Exception:  # noqa: BLE001 - not an engine action: describe its fields
            pass
    if key == "pentagon_war" and "kind" in data:
        try:
            from wargym.rules.pentagon_war.actions import Action, ActionKind

            return Action(ActionKind(data["kind"]), int(data.get("value", 0)))
        except Exception:  # noqa: BLE001
            pass
    if not data:
        return "no action"
    return _generic(data)


def describe_index(env: Any, index: Any, side: int | None = None) -> str:
    """An action index of ``env`` (any wargym env, wrapped or not) in plain words.

    It is decoded with the env's own codec against the env's current state.
    """
    from wargym.agents.base import engine_state, game_of

    try:
        key = game_of(env)
        state = engine_state(env)
    except ValueError:
        return f"action {index}"
    base = getattr(env, "unwrapped", env)
    decision = None
    if key == "pentagon_war":
        decision = _pw_decision(base, state, side)
    elif key == "starship_combat":
        from wargym.rules.starship_combat import game as sc

        if side is None:
            side = 0 if "gym_env" in type(base).__module__ else sc.decider(state)
        decision = None if side is None else sc.decision(state, side)
    return describe_action(key, index, codec=getattr(base, "codec", None), state=state,
                           decision=decision, side=side)  # fmt: skip


def _pw_decision(base: Any, state: Any, side: int | None) -> Any:
    from wargym.rules.pentagon_war.game import decider, decision_for

    if side is None:
        cached = getattr(base, "_decision", None)
        if cached is not None and not callable(cached):
            return cached
        pending = decider(state)
        side = None if pending is None else pending.side
    return None if side is None else decision_for(state, side)


def describe_decision(game: Any, decision: Any) -> str:
    """What a decision is about, e.g. ``"blue: mech_action for mech 3"`` in words."""
    if decision is None:
        return "no decision pending"
    key = game_key(game)
    kind = words(getattr(getattr(decision, "kind", None), "value", "decision"))
    side = getattr(decision, "side", None)
    who = getattr(side, "value", side)
    if key == "no_quarter":
        mech = getattr(decision, "mech", None)
        return f"{who} decides: {kind}" + ("" if mech is None else f" for mech {mech}")
    ship = getattr(decision, "ship", None)
    subject = getattr(decision, "subject", "") or getattr(decision, "weapon", "") or ""
    text = f"side {who}, ship {ship}: {kind}"
    return text + (f" ({words(subject)})" if subject else "")


Template = Callable[[_Fields], str]
"""An event template: event fields to words."""
