"""The native core behind the reference's game API, for the rules tests (issue 16, item 5).

Two ways in:

- :class:`NativeShim` stands in for the four functions of
  :mod:`wargym.rules.no_quarter.battle.game` (``legal_actions``, ``check_legal``, ``play``,
  ``advance``) on reference :class:`Battle` objects: each call loads the battle into the core
  (its ``Battle.to_dict`` document -> ``battle_from_dict``), answers there with the caller's
  very dice object (the core rolls any object with ``roll(n)``), writes the result back into
  the same ``Battle`` object (:func:`write_back`: the fields that changed, read as
  ``Battle.from_dict`` reads them; the ``Mech`` objects and the ``mechs`` dict are kept and
  updated in place, as the reference's ``apply`` does) and returns the reference's ``Event``
  objects. :func:`install` puts it in place of
  the reference's functions in every loaded module that holds them (``tests/rules/conftest.py``
  does this for the native half of the rules tests).
- :class:`NativeBackend` is perft's :class:`~perft.Backend` over native battles (the perft
  counts and the scenario traces): no conversion per call.

An illegal action raises the core's ``IllegalActionError`` (the reference's message) and the
battle is left as it was; a procedure the core has not yet (a mission's turn, Cestus V)
raises ``NativeNotPortedError``, which fails the test: such tests are left out by name in
``tests/rules/conftest.py``, with the reason.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import game as native_game
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.serial import _hints, from_jsonable, to_jsonable

API = ("legal_actions", "check_legal", "play", "advance")
"""The public game API the shim answers."""

REFERENCE: dict[str, Callable[..., Any]] = {name: getattr(game, name) for name in API}
"""The reference's own functions (kept before any patch)."""

_TESTS = str(Path(__file__).resolve().parents[2])
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(Battle) if not f.metadata.get("cache"))
_CACHE_FIELDS = tuple(f.name for f in dataclasses.fields(Battle) if f.metadata.get("cache"))
_MECH_FIELDS = tuple(f.name for f in dataclasses.fields(Mech))
_BATTLE_RECORDS = frozenset({"battlefield", "options"})
_MECH_RECORDS = frozenset({"design", "pilot"})


class NativeShim:
    """The four API functions answered by the native core on reference battles.

    ``calls`` counts the calls by name (the conftest fails a native run that made none: such
    a test does not belong in the selection). Planted faults, to show that the native half
    can fail: ``drop_event`` (the shim loses the events of that class) and ``freeze_field``
    (it forgets every change of that ``Mech`` or ``Battle`` field, ``pos`` say).
    """

    def __init__(self, drop_event: str | None = None, freeze_field: str | None = None) -> None:
        self.calls: Counter[str] = Counter()
        self.drop_event = drop_event
        self.freeze_field = freeze_field
        self._tables: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        self.documents = Documents()

    # -- conversion ---------------------------------------------------------------------
    def _tables_of(self, battle: Battle) -> Any:
        """The native rule tables of the battle's battlefield and rules (cached per object).

        The rules are the reference's ``game.rules_of(battle)``, looked up at each call: a
        test that edits a table (``monkeypatch.setattr(game, "load_rules", ...)``) hands the
        core the edited one, as the reference reads it.
        """
        rules = game.rules_of(battle)
        key = (id(battle.battlefield), id(rules))
        hit = self._tables.get(key)
        if hit is None or hit[0] is not battle.battlefield or hit[1] is not rules:
            if len(self._tables) > 32:
                self._tables.clear()
            hit = (battle.battlefield, rules, native_game.game_tables(battle, rules))
            self._tables[key] = hit
        return hit[2]

    def _load(self, battle: Battle) -> tuple[Any, Any, dict[str, Any]]:
        """The battle's native twin, its tables and the document it was read from."""
        document = self.documents.battle(battle)
        # check=False: the reference's play validates nothing either (a test may hand it a
        # mid-run or hand-built state); the core still refuses a malformed document
        return battle_from_dict(document, check=False), self._tables_of(battle), document

    def _after(self, before: dict[str, Any], native: Any) -> dict[str, Any]:
        """The native battle's document (with ``freeze_field``'s changes undone)."""
        after: dict[str, Any] = native.to_dict()
        name = self.freeze_field
        if name is not None:
            if name in after:
                after[name] = before[name]
            for key, mech in after["mechs"].items():
                if name in mech and key in before["mechs"]:
                    mech[name] = before["mechs"][key][name]
        return after

    def _events(self, events: list[Event] | None) -> list[Event]:
        found = list(events or [])
        if self.drop_event is not None:
            found = [e for e in found if type(e).__name__ != self.drop_event]
        return found

    # -- the API ------------------------------------------------------------------------
    def legal_actions(self, battle: Battle) -> list[Action]:
        """``game.legal_actions`` answered by the core."""
        self.calls["legal_actions"] += 1
        if battle.over or battle.decision is None:
            return []  # the reference answers before any look at the frames
        native, tables, _ = self._load(battle)
        options = native_game.legal_actions(native, tables)
        # the reference's cache is filled as the reference fills it (tests look at it); it is
        # never read here: every call asks the core
        battle.options_cache = (battle.decision, tuple(options))
        return options

    def check_legal(self, battle: Battle, action: Action) -> None:
        """``game.check_legal`` answered by the core (raises ``IllegalActionError``)."""
        self.calls["check_legal"] += 1
        native, tables, _ = self._load(battle)
        native_game.check_legal(native, tables, action)

    def play(self, battle: Battle, action: Action, dice: Any) -> list[Event]:
        """``game.play`` on the core with the caller's dice; the result written back."""
        self.calls["play"] += 1
        native, tables, before = self._load(battle)
        events = native_game.play(native, tables, action, dice, events=True)
        write_back(battle, before, self._after(before, native))
        return self._events(events)

    def advance(self, battle: Battle, dice: Any) -> list[Event]:
        """``game.advance`` on the core with the caller's dice; the result written back."""
        self.calls["advance"] += 1
        native, tables, before = self._load(battle)
        events = native_game.advance(native, tables, dice, events=True)
        write_back(battle, before, self._after(before, native))
        return self._events(events)

    def functions(self) -> dict[str, Callable[..., Any]]:
        """The shim's function for each name of :data:`API`."""
        return {name: getattr(self, name) for name in API}


class Documents:
    """``Battle.to_dict`` documents, the frozen records' parts written once per object.

    The battlefield, the options and each mech's design and pilot are frozen: their JSON is
    kept by identity (the record is held, so its id is not reused) and shared between
    documents; nothing reads them for writing (the core never changes its input).
    """

    def __init__(self) -> None:
        self._records: dict[int, tuple[Any, Any]] = {}

    def record(self, value: Any) -> Any:
        """``to_jsonable(value)`` of a frozen record, written once."""
        hit = self._records.get(id(value))
        if hit is None or hit[0] is not value:
            if len(self._records) > 4096:
                self._records.clear()
            hit = (value, to_jsonable(value))
            self._records[id(value)] = hit
        return hit[1]

    def mech(self, mech: Mech) -> dict[str, Any]:
        """``to_jsonable(mech)``."""
        return {
            name: self.record(value) if name in _MECH_RECORDS else to_jsonable(value)
            for name in _MECH_FIELDS
            for value in (getattr(mech, name),)
        }

    def battle(self, battle: Battle) -> dict[str, Any]:
        """``battle.to_dict()``: the same document, key for key."""
        out: dict[str, Any] = {}
        for name in _STATE_FIELDS:
            value = getattr(battle, name)
            if name in _BATTLE_RECORDS:
                out[name] = self.record(value)
            elif name == "mechs":
                out[name] = {str(key): self.mech(mech) for key, mech in value.items()}
            else:
                out[name] = to_jsonable(value)
        return out


def write_back(battle: Battle, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Make ``battle`` (whose document was ``before``) the state of document ``after``, in place.

    What ``game.play`` leaves: a field that did not change keeps its object (the battlefield,
    the options, the frozen records); each ``Mech`` stays the same object with its changed
    fields set, as the reference's ``Battle.apply`` changes it; a changed field is read as
    ``Battle.from_dict`` reads it (``from_jsonable`` of the field's type). The caches are
    reset, as ``apply`` resets them.
    """
    hints = _hints(Battle)
    for name in _STATE_FIELDS:
        if _same(after[name], before[name]):
            continue
        if name == "mechs":
            _merge_mechs(battle.mechs, before[name], after[name])
        else:
            setattr(battle, name, from_jsonable(hints[name], after[name], f"battle.{name}"))
    for name in _CACHE_FIELDS:
        setattr(battle, name, None)


def _same(a: Any, b: Any) -> bool:
    """Equal, and alike in float type and the sign of zero too (``==`` misses those)."""
    return bool(a == b) and repr(a) == repr(b)


def _merge_mechs(mechs: dict[int, Mech], before: dict[str, Any], after: dict[str, Any]) -> None:
    hints = _hints(Mech)
    for key, data in after.items():
        mech, old = mechs.get(int(key)), before.get(key)
        if mech is None or old is None:
            mechs[int(key)] = from_jsonable(Mech, data, f"battle.mechs.{key}")
            continue
        for name, value in data.items():
            if not _same(value, old.get(name)):
                where = f"battle.mechs.{key}.{name}"
                setattr(mech, name, from_jsonable(hints[name], value, where))
    kept = [int(key) for key in after]
    for key in [k for k in mechs if k not in set(kept)]:
        del mechs[key]
    if list(mechs) != kept:  # the document's order: by id
        ordered = {k: mechs[k] for k in kept}
        mechs.clear()
        mechs.update(ordered)


def _holders() -> list[tuple[Any, str, str]]:
    """(module, attribute, API name) for every loaded wargym or test module holding one."""
    originals = {id(fn): name for name, fn in REFERENCE.items()}
    found = []
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        path = getattr(module, "__file__", None) or ""
        if not (name.startswith("wargym.") or path.startswith(_TESTS)):
            continue
        for attr, value in list(vars(module).items()):
            api = originals.get(id(value))
            if api is not None and value is REFERENCE[api]:
                found.append((module, attr, api))
    return found


def install(monkeypatch: pytest.MonkeyPatch, shim: NativeShim) -> int:
    """Put ``shim``'s functions wherever a loaded module holds the reference's; the count.

    ``game``'s own names are replaced too, so a module importing them later gets the shim.
    """
    functions = shim.functions()
    holders = _holders()
    for module, attr, api in holders:
        monkeypatch.setattr(module, attr, functions[api])
    return len(holders)


# -- perft's backend over native battles ---------------------------------------------------


@dataclasses.dataclass
class NativeHandle:
    """A native battle with its rule tables and the battlefield document they were built for."""

    battle: Any
    tables: Any
    battlefield: Any

    @property
    def over(self) -> bool:
        """The battle has ended."""
        return bool(self.battle.over)


@dataclasses.dataclass(frozen=True)
class NativeBackend:
    """perft's :class:`~perft.Backend` on the native core (``wargym.native.no_quarter.game``).

    The tables hold the battlefield's terrain: built again after a play that changed it (a
    building destroyed), as ``tests/native/lockstep.py`` does.
    """

    name: str = "native"

    def legal_actions(self, battle: NativeHandle) -> list[Action]:
        return native_game.legal_actions(battle.battle, battle.tables)

    def play(self, battle: NativeHandle, action: Action, dice: Any) -> list[Any]:
        events = native_game.play(battle.battle, battle.tables, action, dice, events=True) or []
        if any(type(e).__name__ == "BuildingDestroyed" for e in events):
            document = battle.battle.to_dict()
            if document["battlefield"] != battle.battlefield:
                battle.tables = native_game.game_tables(Battle.from_dict(document))
                battle.battlefield = document["battlefield"]
        return events

    def clone(self, battle: NativeHandle) -> NativeHandle:
        return NativeHandle(battle.battle.clone(), battle.tables, battle.battlefield)

    def load(self, data: dict[str, Any]) -> NativeHandle:
        tables = native_game.game_tables(Battle.from_dict(data))
        return NativeHandle(battle_from_dict(data), tables, data["battlefield"])

    def dump(self, battle: NativeHandle) -> dict[str, Any]:
        document: dict[str, Any] = battle.battle.to_dict()
        return document


NATIVE = NativeBackend()
