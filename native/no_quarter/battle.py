"""A native No Quarter battle the rest of the package can hold: :class:`NativeSkirmish`.

:class:`NativeSkirmish` keeps a native ``Battle`` (``_core.no_quarter.Battle``) and the rule
tables it plays under (:func:`~.game.game_tables`). It answers the reference game API
(:mod:`wargym.rules.no_quarter.battle.game`: ``legal_actions``, ``check_legal``, ``play``,
``advance``, ``decider``, ``outcome``) through that module's ``ForeignBattle`` protocol, so the
rules never import the native core; and it reads like a reference
:class:`~wargym.rules.no_quarter.battle.state.Battle` as far as envs and agents need: ``turn``,
``over``, ``winner``, ``end_reason``, ``decision``, ``options``, ``clone()``, ``to_dict()`` /
:meth:`NativeSkirmish.from_dict` (the same versioned JSON: a state saved by one engine loads in
the other). Any other attribute (``mechs``, ``battlefield``, ``mechs_of``, ...) is read from
:meth:`NativeSkirmish.to_reference`, a reference ``Battle`` built from ``to_dict()`` and cached
until the battle next changes. A view lent out that way may be changed, as an agent changes the
clone it searches (``determinise``): before the battle is next used, a changed view is written
back into the core (its ``to_dict()`` read in again). Objects kept from an earlier view and
changed after that are not seen.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.battle import game
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> reference = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
>>> native = NativeSkirmish.from_reference(reference)
>>> game.legal_actions(native) == game.legal_actions(reference)
True
>>> native.decision == reference.decision, native.to_dict() == reference.to_dict()
(True, True)

Dice: a reference :class:`~wargym.rules.dice.RandomDice` over a PCG64 generator is rolled in
the core by ``_core.NumpyDice`` (the same faces), and the generator is handed the state after,
so the same generator plays the same game on either engine. The core's own dice pass as they
are; any other :class:`~wargym.rules.dice.Dice` is asked for its faces through Python.

The building terrain lives in the tables: when a play destroys a building
(``BuildingDestroyed``), they are built again from the new battlefield.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import NativeBattle, battle_from_dict
from wargym.native.no_quarter import game as native_game
from wargym.native.no_quarter import setup as native_setup
from wargym.native.no_quarter.tables import rules_tables, terrain_numbers
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.actions import Action, Decision, DecisionKind
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions, Mech, _copy_json
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces import setup as reference_setup
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.serial import from_jsonable

CORE_DICE = (_core.RandomDice, _core.ScriptedDice, _core.NumpyDice)
"""The core's own dice: handed to the core as they are."""

RULES_CHANGING = "BuildingDestroyed"
"""The event that changes the terrain held in the rule tables (a building turned to rubble)."""


def reference_events(found: Sequence[Any]) -> list[Event]:
    """The reference's :class:`~wargym.rules.events.Event` objects of native events."""
    return [NO_QUARTER_EVENTS.from_dict(e.to_dict()) for e in found]


def tables_of(document: dict[str, Any]) -> Any:
    """:func:`~.game.game_tables` of a battle document (its battlefield and rule options)."""
    field = from_jsonable(Battlefield, document["battlefield"], where="battle.battlefield")
    options = from_jsonable(BattleOptions, document["options"], where="battle.options")
    return rules_tables(field, load_rules(options.rules))


_BATTLE_HINTS = typing.get_type_hints(Battle)
_BATTLE_FIELDS = tuple(
    f.name for f in dataclasses.fields(Battle) if not f.metadata.get("cache", False)
)
_MECH_HINTS = typing.get_type_hints(Mech)
_VIEW_CACHES = ("options_cache", "geometry_cache")
"""Attributes of a reference ``Battle`` that a ``NativeSkirmish`` keeps on its view."""
_RECORDS = ("name", "design", "pilot")
"""The fields of a mech that never change in battle (shared between reference views)."""


class _Records:
    """What never changes in a battle, built once for its reference views (module docstring).

    The battlefield changes only when a building falls: the battle then takes new records
    (the old ones stay with the clones taken before).
    """

    __slots__ = ("battlefield", "mechs", "options")

    def __init__(
        self,
        battlefield: Battlefield | None = None,
        options: BattleOptions | None = None,
        mechs: dict[int, tuple[Any, ...]] | None = None,
    ) -> None:
        self.battlefield = battlefield
        self.options = options
        self.mechs: dict[int, tuple[Any, ...]] = {} if mechs is None else mechs


def _reference_mech(data: dict[str, Any], records: _Records) -> Mech:
    mech_id = data["id"]
    shared = records.mechs.get(mech_id)
    if shared is None:
        shared = records.mechs[mech_id] = tuple(
            from_jsonable(_MECH_HINTS[k], data[k], f"battle.mechs.{mech_id}.{k}") for k in _RECORDS
        )
    values = dict(zip(_RECORDS, shared, strict=True))
    for key, value in data.items():
        if key not in values:
            values[key] = from_jsonable(_MECH_HINTS[key], value, f"battle.mechs.{mech_id}.{key}")
    return Mech(**values)


def reference_of(document: dict[str, Any], records: _Records) -> Battle:
    """``Battle.from_dict(document, check=False)``, reusing the records of earlier views.

    The battlefield, the options and each mech's name, design and pilot come from
    ``records`` (read once, then shared); everything else is read as ``from_dict`` reads it,
    and the plain-JSON parts are copied.
    """
    values: dict[str, Any] = {}
    for name in _BATTLE_FIELDS:
        data = document[name]
        if name == "battlefield":
            if records.battlefield is None:
                records.battlefield = from_jsonable(Battlefield, data, "battle.battlefield")
            values[name] = records.battlefield
        elif name == "options":
            if records.options is None:
                records.options = from_jsonable(BattleOptions, data, "battle.options")
            values[name] = records.options
        elif name == "mechs":
            mechs = (_reference_mech(m, records) for m in data.values())
            values[name] = {m.id: m for m in sorted(mechs, key=lambda m: m.id)}
        elif name in ("frames", "np", "mission"):
            values[name] = _copy_json(data)
        else:
            values[name] = from_jsonable(_BATTLE_HINTS[name], data, f"battle.{name}")
    return Battle(**values)


def _fields_of(view: Battle) -> list[Any]:
    """Copies of every field of a reference battle and its mechs (caches left out)."""
    out: list[Any] = [
        {
            k: _copy_json(v)
            for k, v in view.__dict__.items()
            if k != "mechs" and k not in _VIEW_CACHES
        }
    ]
    out.extend(
        (key, {k: _copy_json(v) for k, v in mech.__dict__.items()})
        for key, mech in view.mechs.items()
    )
    return out


class _DiceLink:
    """The dice a core call rolls, and what hands their state back to a reference generator."""

    __slots__ = ("core", "rng")

    def __init__(self, dice: Any) -> None:
        self.rng: np.random.Generator | None = None
        self.core: Any = dice
        if isinstance(dice, CORE_DICE):
            return
        if isinstance(dice, RandomDice) and isinstance(dice.rng.bit_generator, np.random.PCG64):
            self.rng = dice.rng
            state: Any = dice.rng.bit_generator.state
            self.core = _core.NumpyDice(state)

    def done(self) -> None:
        """Give the reference generator the core's state (the faces it rolled are used)."""
        if self.rng is not None:
            self.rng.bit_generator.state = self.core.state


class NativeSkirmish:
    """A native battle and its rule tables, behind the reference game API (module docstring)."""

    backend = "native"
    """Which engine holds the state (the reference ``Battle`` has no such attribute)."""

    def __init__(self, native: NativeBattle, tables: Any, options: BattleOptions | None = None):
        self._core_battle: Any = native
        self._lent = False
        """The reference view was handed out (:meth:`__getattr__`): check it before use."""
        self._saved: list[Any] = []
        """The view's fields when it was lent (:func:`_fields_of`)."""
        self.tables: Any = tables
        """The rule tables it plays under (rebuilt when a building falls)."""
        self._options = options
        self._records = _Records(options=options)
        self._document: dict[str, Any] | None = None
        self._legal: list[Action] | None = None
        self._decision: Decision | None = None
        self._reference: Battle | None = None
        self._mask: tuple[Any, np.ndarray] | None = None
        """(codec, its mask of this state), until the next change (:meth:`legal_mask`)."""

    # -- building one ------------------------------------------------------------------------
    @classmethod
    def from_reference(cls, battle: Battle) -> NativeSkirmish:
        """The native twin of a reference battle (any state, decision pending or not)."""
        native, tables = native_game.native_game(battle, check=False)
        return cls(native, tables, battle.options)

    @classmethod
    def from_dict(cls, data: Any, *, check: bool = True) -> NativeSkirmish:
        """The battle of a ``Battle.to_dict()`` document (either engine's).

        ``check``: the core's mirror of :func:`~.validity.check_battle` (docs/native.md). A
        malformed document raises :class:`~wargym.native.errors.NativeStateError` naming the
        field.
        """
        native = battle_from_dict(data, check=check)
        return cls(native, tables_of(native.to_dict()))

    def clone(self) -> NativeSkirmish:
        """An independent copy (a C++ struct copy; the tables are shared, never changed)."""
        native = self.native
        twin = NativeSkirmish(native.clone(), self.tables, self._options)
        twin._document, twin._decision, twin._legal = self._document, self._decision, self._legal
        twin._mask = self._mask  # its array is never handed out (legal_mask copies it)
        twin._records = self._records
        return twin

    def to_dict(self) -> dict[str, Any]:
        """The reference's versioned JSON data (a new document each call)."""
        document: dict[str, Any] = self.native.to_dict()
        return document

    def to_reference(self) -> Battle:
        """A reference ``Battle`` of this state, cached until the next change: only read it.

        It is ``Battle.from_dict(to_dict(), check=False)`` (:func:`reference_of`), with the
        pending decision's legal options already in its ``options_cache`` (the core's list,
        which is the reference's).
        """
        if self._reference is None:
            battle = reference_of(self.document(), self._records)
            if battle.decision is not None and not battle.over:
                battle.options_cache = (battle.decision, tuple(self.game_legal_actions()))
            self._reference = battle
        return self._reference

    def document(self) -> dict[str, Any]:
        """The state's ``to_dict()``, cached until the next change: only read it."""
        if self._lent:
            self._sync()
        if self._document is None:
            self._document = self._core_battle.to_dict()
        return self._document

    @property
    def native(self) -> Any:
        """The core's ``Battle`` (a changed reference view written back first)."""
        if self._lent:
            self._sync()
        return self._core_battle

    def _sync(self) -> None:
        """Write a lent reference view back into the core if it was changed.

        The view stays lent (its holder may change it later) until the battle next changes.
        """
        view = self._reference
        if view is None:
            self._lent = False
            return
        if _fields_of(view) == self._saved:
            return
        written = view.to_dict()
        before = self._document if self._document is not None else self._core_battle.to_dict()
        if written == before:
            return
        self._lent = False
        self._core_battle = battle_from_dict(written, check=False)
        self._document = self._decision = self._reference = self._legal = self._mask = None
        self._options, self._records = None, _Records()  # records may have changed too
        if written["battlefield"] != before["battlefield"]:
            self.tables = tables_of(written)

    def _changed(self, found: Sequence[Any]) -> None:
        self._document = self._decision = self._reference = self._legal = self._mask = None
        self._lent = False
        if any(e.type == RULES_CHANGING for e in found):  # the terrain tables, built in the core
            self.tables = _core.no_quarter.fire.with_terrain(
                self.tables, terrain_numbers(), self.native
            )
            self._records = _Records(None, self._records.options, self._records.mechs)

    # -- what the envs and agents read -------------------------------------------------------
    @property
    def turn(self) -> int:
        """The turn number."""
        turn: int = self.native.turn
        return turn

    @property
    def over(self) -> bool:
        """The battle has ended (ruling D37)."""
        over: bool = self.native.over
        return over

    @property
    def winner(self) -> Side | None:
        """The winning side once over (None: a draw, or still running)."""
        side = self.native.winner
        return None if side is None else Side(side)

    @property
    def end_reason(self) -> str:
        """Why the battle ended ("" while it runs)."""
        reason: str = self.native.end_reason
        return reason

    @property
    def decision(self) -> Decision | None:
        """The pending decision (None between decisions and once over)."""
        if self._decision is None:
            data = self.native.decision  # (side, kind, mech) without building the document
            if data is None:
                return None
            self._decision = Decision(Side(data[0]), DecisionKind(data[1]), data[2])
        return self._decision

    @property
    def options(self) -> BattleOptions:
        """The battle options (never change during a battle)."""
        if self._options is None:
            data = self.document()["options"]
            self._options = from_jsonable(BattleOptions, data, where="battle.options")
        return self._options

    @options.setter
    def options(self, value: BattleOptions) -> None:
        """The same options again (what a set-up log writes back); other options: ValueError."""
        if value != self.options:
            raise ValueError("the options of a native battle are fixed at its set-up")

    @property
    def mech_ids(self) -> list[int]:
        """Every mech's id, in id order."""
        ids: list[int] = self.native.mech_ids
        return ids

    def mech_sides(self) -> dict[int, tuple[Side, bool]]:
        """``{id: (side, still in play)}`` of every mech, from the document (no reference)."""
        sides: dict[int, tuple[str, bool]] = self.native.mech_sides()
        return {key: (Side(side), here) for key, (side, here) in sides.items()}

    def __getattr__(self, name: str) -> Any:
        """Any other reference attribute, read from :meth:`to_reference` (lent: see above)."""
        if name.startswith("_"):
            raise AttributeError(name)
        view = self.to_reference()
        if not self._lent:
            self._saved = _fields_of(view)
            self._lent = True
        return getattr(view, name)

    @property
    def options_cache(self) -> Any:
        """The reference view's ``options_cache`` (None without a view)."""
        return None if self._reference is None else self._reference.options_cache

    @options_cache.setter
    def options_cache(self, value: Any) -> None:
        if self._reference is not None:
            self._reference.options_cache = value

    @property
    def geometry_cache(self) -> Any:
        """The reference view's ``geometry_cache`` (None without a view)."""
        return None if self._reference is None else self._reference.geometry_cache

    @geometry_cache.setter
    def geometry_cache(self, value: Any) -> None:
        if self._reference is not None:
            self._reference.geometry_cache = value

    # -- the reference game API (rules/no_quarter/battle/game.py's ForeignBattle) ------------
    def game_legal_actions(self) -> list[Action]:
        """``game.legal_actions``: the exact legal options (empty when over)."""
        native = self.native  # a changed view is written back first
        if self._legal is None:
            self._legal = native_game.legal_actions(native, self.tables)
        return list(self._legal)

    def legal_mask(self, codec: Any) -> np.ndarray:
        """``codec.mask(native, legal actions)`` of a native codec, made once per state.

        A new array each call (a copy of the cached one: the caller may change it).
        """
        hit = self._mask
        if hit is None or hit[0] is not codec:
            native = self.native
            if self._legal is None:
                self._legal = native_game.legal_actions(native, self.tables)
            hit = self._mask = (codec, codec.mask(native, self._legal))
        return hit[1].copy()

    def game_check_legal(self, action: Action) -> None:
        """``game.check_legal``: IllegalActionError unless ``action`` is legal now."""
        native_game.check_legal(self.native, self.tables, action)

    def game_play(self, action: Action, dice: Dice | Any) -> list[Event]:
        """``game.play``: the reference's events of ``action`` and what follows it."""
        return reference_events(self.play_native(action, dice))

    def game_advance(self, dice: Dice | Any) -> list[Event]:
        """``game.advance``: the reference's events up to the first decision."""
        return reference_events(self.advance_native(dice))

    def play_native(self, action: Action, dice: Dice | Any) -> list[Any]:
        """``game.play`` with the core's events (``to_dict()``, ``type``: as the reference's).

        An illegal action raises IllegalActionError and leaves battle and dice unchanged.
        """
        link = _DiceLink(dice)
        try:
            found: list[Any] = native_game.core.play(
                self.native, self.tables, action, link.core, True
            )
        finally:
            link.done()
        self._changed(found)
        return found

    def advance_native(self, dice: Dice | Any) -> list[Any]:
        """``game.advance`` with the core's events."""
        link = _DiceLink(dice)
        try:
            found: list[Any] = native_game.core.advance(self.native, self.tables, link.core, True)
        finally:
            link.done()
        self._changed(found)
        return found

    def apply_native(self, event: Any) -> None:
        """``Battle.apply`` of one core event (what the visibility filter replays)."""
        _core.no_quarter.events.apply(self.native, event)
        self._changed((event,))


def new_skirmish_native(
    rng: np.random.Generator,
    dice: Dice | Any,
    *,
    blue: Faction | str = Faction.STAR_ARMY,
    red: Faction | str = Faction.HISHEN,
    mechs_per_side: int = 3,
    stars: int = 0,
    options: BattleOptions | None = None,
    advance: bool = True,
) -> tuple[NativeSkirmish, list[Event], list[Any]]:
    """:func:`~.forces.setup.new_skirmish_logged` in the core.

    Returns the battle, the set-up's events (reference objects, already in the battle) and the
    core's events of the play to the first decision (none when ``advance`` is false: the
    battle is then as the set-up leaves it). ``rng`` and a ``RandomDice``'s generator are left
    where the reference's set-up leaves them.
    """
    options = BattleOptions() if options is None else options
    link = _DiceLink(dice)
    if link.rng is not None and link.rng is rng:
        raise NativeArgumentError(
            "dice", "dice: the core cannot roll the set-up generator itself; pass other dice"
        )
    if not isinstance(link.core, CORE_DICE):
        raise NativeTypeError(
            "dice", f"dice: the set-up needs RandomDice over PCG64 or core dice, got {dice!r:.80}"
        )
    try:
        native, setup = native_setup.new_skirmish_setup(
            rng, link.core, blue=blue, red=red, mechs_per_side=mechs_per_side, stars=stars,
            options=options,
        )  # fmt: skip
    finally:
        link.done()
    battle = NativeSkirmish(native, tables_of(native.to_dict()), options)
    events = [NO_QUARTER_EVENTS.from_dict(e) for e in setup]
    return battle, events, battle.advance_native(dice) if advance else []


def _new_skirmish_logged(
    rng: np.random.Generator, dice: Dice, **keywords: Any
) -> tuple[NativeSkirmish, list[Event]]:
    """The set-up backend ``"native"`` of :func:`~.forces.setup.new_skirmish_logged`."""
    if keywords.pop("battlefield", None) is not None:
        raise NativeArgumentError("battlefield", "battlefield: the native set-up generates its own")
    battle, setup, played = new_skirmish_native(rng, dice, **keywords)
    return battle, setup + reference_events(played)


reference_setup.SKIRMISH_BACKENDS["native"] = _new_skirmish_logged


__all__ = [
    "CORE_DICE",
    "NativeSkirmish",
    "new_skirmish_native",
    "reference_events",
    "tables_of",
]
