"""Resuming a submitted battle: engine failures on plain JSON become ``invalid_state``.

``Battle`` keeps three parts as the engine's own plain JSON: ``frames``, ``np`` and
``mission``. Their checks (keys, types, ranges, mech ids) are part of the one definition of
a valid battle, :func:`wargym.rules.no_quarter.battle.validity.check_battle` (in
:mod:`wargym.rules.no_quarter.battle.validity_parts`), which :func:`~.validation.load_battle` runs
with ``root="state"``: a refusal names ``state.frames.2.mech``, ``state.np.pefs.0.pos``...

What those checks cannot see (a stage that does not fit the rest of the stack, say) the engine
meets when it resumes the battle: :func:`resumed` runs an engine call and turns the failures
that malformed plain JSON causes into ``invalid_state`` naming ``state``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .validation import ProtocolError, clip

T = TypeVar("T")


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("invalid_state", f"{field}: {message}", field)


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

    ``check_battle`` leaves the engine's frame data consistent in type; a frame stack that is
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
