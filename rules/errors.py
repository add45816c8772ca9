"""Typed errors raised by the rules engines."""

from __future__ import annotations

import reprlib


class RulesError(Exception):
    """Base class of every error the rules engines raise on purpose."""


class IllegalActionError(RulesError):
    """A decision was not among the legal options; the state is left untouched."""


class TableError(RulesError):
    """A rule table or data file is invalid; the message names the file, the key and the row."""


class StateError(RulesError):
    """A serialised state is malformed, of the wrong version or inconsistent."""


class DiceScriptExhaustedError(RulesError):
    """A :class:`~wargym.rules.dice.ScriptedDice` was asked for more faces than it holds."""


def short_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to at most ``limit`` characters, for quoting user input in messages.

    Huge values (a 100 MB string, a list of millions of items) are never rendered in full:
    strings and built-in containers go through a bounded :mod:`reprlib` view first, and the
    text ends in ``...`` when cut. Never raises.
    """
    limit = max(int(limit), 8)
    try:
        if isinstance(value, (str, bytes, bytearray, list, tuple, dict, set, frozenset)):
            text = _BOUNDED.repr(value)
        else:
            text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not mask the real error
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def _bounded_repr() -> reprlib.Repr:
    r = reprlib.Repr()
    r.maxstring = r.maxother = r.maxlong = 200
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = r.maxfrozenset = 12
    r.maxlevel = 3
    return r


_BOUNDED = _bounded_repr()
