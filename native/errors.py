"""Errors the native core raises for bad arguments (docs/native.md, docs/bad_input.md).

Both name the argument (``error.argument``) and start their message with it, e.g.
``observer[0]: expected a number, got 'x'``. They are :class:`~wargym.rules.errors.RulesError`
subclasses, so code that catches the engine's errors catches these too.
"""

from __future__ import annotations

from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battle.validity import InvalidBattleError


class NativeArgumentError(RulesError, ValueError):
    """A bad value, shape or size for one argument of a native function."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(f"{argument}: {message}")
        self.argument = argument
        """The name of the argument (with an index, e.g. ``faces[3]``)."""


class NativeTypeError(NativeArgumentError, TypeError):
    """A value of the wrong type for one argument of a native function."""


class NativeStateError(InvalidBattleError, ValueError):
    """A malformed or inconsistent battle document handed to the native state.

    A :class:`~wargym.rules.errors.StateError` (through validity's ``InvalidBattleError``), so
    code that catches the reference's ``Battle.from_dict`` errors catches it too; ``path``
    names the field (``battle.mechs.0.pos[1]``) and ``reason`` says why.
    """


class NativeNotPortedError(RulesError, NotImplementedError):
    """The native core reached a procedure of the reference it does not have yet.

    The message names the Python function (``flow_mech.MECH (mech_step, mech_act)``, ...); the
    battle the call was given is left unchanged.
    """
