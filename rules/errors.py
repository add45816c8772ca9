"""Typed errors raised by the rules engines."""

from __future__ import annotations


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
