"""Python glue for the native game API (``_core.no_quarter.game``, battle/game.hpp).

It mirrors :mod:`wargym.rules.no_quarter.battle.game` on a native battle: :func:`legal_actions`,
:func:`check_legal`, :func:`play` and :func:`advance` take the native battle of
:func:`~wargym.native.no_quarter.battle_from_dict` and the :func:`game_tables` of the reference
battle it came from (the rule tables of its options and its battlefield's terrain: the core
reads no YAML). Actions are the reference's objects; events (only when asked) the reference's
:class:`~wargym.rules.events.Event` objects. An illegal action raises
:class:`~wargym.rules.errors.IllegalActionError` with the reference's message; a procedure the
core does not have yet raises :class:`~wargym.native.errors.NativeNotPortedError`. Either way
the battle is left unchanged.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.battle import game as reference
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
>>> native, tables = native_game(battle)
>>> legal_actions(native, tables) == reference.legal_actions(battle)
True
"""

from __future__ import annotations

from typing import Any

from wargym.native import _core
from wargym.native.no_quarter import NativeBattle, battle_from_dict
from wargym.native.no_quarter.tables import rules_tables
from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules

core: Any = _core.no_quarter.game
"""The compiled game API (``wargym.native._core.no_quarter.game``)."""


def game_tables(battle: Battle, rules: NoQuarterRules | None = None) -> Any:
    """The native rule tables of a reference battle: its rules' tables and the terrain numbers.

    ``rules``: these tables instead of those of the battle's options (to test a table edit).
    The core builds the sight, cover, move and protection tables from the native battle's own
    battlefield (built here for this battle's): a building destroyed in the middle of a play is
    rubble for the rest of it, and tables handed a battle of another battlefield still fit it.
    """
    chosen = load_rules(battle.options.rules) if rules is None else rules
    return rules_tables(battle.battlefield, chosen, battle_from_dict(battle.to_dict(), check=False))


def native_game(battle: Battle, *, check: bool = True) -> tuple[NativeBattle, Any]:
    """The native twin of a reference battle and its :func:`game_tables`.

    ``check`` False: a mid-run document (no decision pending yet), as ``battle_from_dict``.
    """
    return battle_from_dict(battle.to_dict(), check=check), game_tables(battle)


def _events(native: Any) -> list[Event]:
    return [NO_QUARTER_EVENTS.from_dict(e.to_dict()) for e in native]


def legal_actions(battle: NativeBattle, tables: Any) -> list[Action]:
    """The exact legal options at the current decision point (empty when over)."""
    options: list[Action] = core.legal_actions(battle, tables)
    return options


def check_legal(battle: NativeBattle, tables: Any, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is legal now; never writes."""
    problem = core.check_legal(battle, tables, action)
    if problem is not None:
        raise IllegalActionError(problem)


def play(
    battle: NativeBattle, tables: Any, action: Action, dice: Dice | Any, events: bool = False
) -> list[Event] | None:
    """Carry out ``action`` and every rule that follows, up to the next decision (§14).

    ``dice``: the core's ``RandomDice``/``ScriptedDice`` or any :class:`~wargym.rules.dice.Dice`.
    Returns the events when ``events`` is true, else None (none are built).
    """
    found = core.play(battle, tables, action, dice, events)
    return _events(found) if events else None


def advance(
    battle: NativeBattle, tables: Any, dice: Dice | Any, events: bool = False
) -> list[Event] | None:
    """Run the rules from a fresh or resumed battle up to the first decision."""
    found = core.advance(battle, tables, dice, events)
    return _events(found) if events else None


__all__ = [
    "advance",
    "check_legal",
    "core",
    "game_tables",
    "legal_actions",
    "native_game",
    "play",
]
