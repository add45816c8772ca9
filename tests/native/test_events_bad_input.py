"""Bad event documents and arguments: the native events refuse them with a typed error.

A malformed document raises :class:`~wargym.native.errors.NativeStateError` whose ``path``
names the field as the reference's ``from_jsonable`` does (``MechMoved.path[0][1]``); where
the reference refuses the same document, it raises its ``StateError`` with that path too.
A few documents only the native core refuses (beyond the reference, as for the state: ints
beyond 64 bits, NaN, text that is not UTF-8, data nested too deep, values that are not JSON).
Wrong argument types raise :class:`~wargym.native.errors.NativeTypeError` naming the argument.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeStateError, NativeTypeError
from wargym.native.no_quarter import events as native_events
from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS, MechMoved
from wargym.rules.no_quarter.forces.setup import new_skirmish

MOVED = MechMoved(1, ((1.0, 2.0),), 0.0, 1.0, 1.0, "voluntary").to_dict()


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    for key, value in changes.items():
        if value is _DROP:
            del data[key]
        else:
            data[key] = value
    return data


_DROP = object()


def _arrived() -> dict[str, Any]:
    battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    mech = battle.to_dict()["mechs"]["0"]
    new = {"id": 9, "design": mech["design"], "pilot": mech["pilot"], "pos": [1.0, 1.0],
           "heading": 0.0, "rank": None}  # fmt: skip
    return {"type": "MechsArrived", "side": "red", "team": 3, "reason": "contact", "mechs": [new]}


ARRIVED = _arrived()
BAD_ARMOR = copy.deepcopy(ARRIVED)
BAD_ARMOR["mechs"][0]["design"]["armor"][2] = "x"
NO_PILOT = copy.deepcopy(ARRIVED)
del NO_PILOT["mechs"][0]["pilot"]

BOTH: list[tuple[str, Any, str]] = [
    ("a list", [], "event"),
    ("no type", {}, "event"),
    ("None", None, "event"),
    ("an unknown type", {"type": "Nope"}, "event.type"),
    ("a type that is not text", {"type": 3}, "event.type"),
    ("a missing field", _with(MOVED, kind=_DROP), "MechMoved"),
    ("an unknown field", _with(MOVED, extra=1), "MechMoved"),
    ("a bool for an int", _with(MOVED, mech=True), "MechMoved.mech"),
    ("a float for an int", _with(MOVED, mech=1.0), "MechMoved.mech"),
    ("text for a float", _with(MOVED, heading="x"), "MechMoved.heading"),
    ("a bool for a float", _with(MOVED, heading=True), "MechMoved.heading"),
    ("a short point", _with(MOVED, path=[[1.0]]), "MechMoved.path[0]"),
    ("text for a list", _with(MOVED, path="ab"), "MechMoved.path"),
    ("a tuple for a list", _with(MOVED, path=((1.0, 2.0),)), "MechMoved.path"),
    ("None in a point", _with(MOVED, path=[[1.0, None]]), "MechMoved.path[0][1]"),
    ("an int for text", _with(MOVED, kind=3), "MechMoved.kind"),
    ("an int for a bool", _with(MOVED, jumped=1), "MechMoved.jumped"),
    ("three faces for two", {"type": "DamageRolled", "target": 1, "location": "gut",
                             "faces": [1, 2, 3], "versus": 3, "passed": 1, "armor_before": 3,
                             "armor_after": 2, "critical": False, "melee": False},
     "DamageRolled.faces"),
    ("an unknown location", {"type": "HitLocated", "target": 1, "faces": [1],
                             "location": "nose", "protected": False}, "HitLocated.location"),
    ("an unknown alternative", {"type": "HitLocated", "target": 1, "faces": [1],
                                "location": "head", "protected": False,
                                "alternatives": ["head", "tail"]}, "HitLocated.alternatives[1]"),
    ("None for a status", {"type": "StatusChanged", "mech": 1, "status": None, "reason": ""},
     "StatusChanged.status"),
    ("an unknown side", {"type": "BattleEnded", "winner": "green", "reason": "", "turn": 1},
     "BattleEnded.winner"),
    ("a list for an object", {"type": "NpGroupSet", "team": 1, "state": [], "reason": ""},
     "NpGroupSet.state"),
    ("a bad design armour", BAD_ARMOR, "MechsArrived.mechs[0].design.armor[2]"),
    ("a missing pilot", NO_PILOT, "MechsArrived.mechs[0]"),
    ("an int for a flag", {"type": "ReactionTaken", "mech": 1, "test": "fired_on", "causes": [],
                           "faces": [], "rep": 4, "passed": 2, "free_will": False,
                           "results": ["carry_on"], "result": "fire", "rep_change": 0,
                           "outgunned": [1], "in_range": []}, "ReactionTaken.outgunned[0]"),
    ("a short pick", {"type": "PilotCreated", "mech": None, "name": "A", "faction": "iss",
                      "star": False, "race": "basic", "race_faces": [], "rep": 4,
                      "rep_face": 3, "attribute_faces": [], "rolled": [], "picks": [["a"]],
                      "attributes": []}, "PilotCreated.picks[0]"),
    ("a long re-roll", {"type": "ActivationRolled", "blue": 1, "red": 2,
                        "rerolled": [[1, 2, 3]], "first": "blue"}, "ActivationRolled.rerolled[0]"),
]  # fmt: skip


def _deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


SELF_HOLDING: list[Any] = []
SELF_HOLDING.append(SELF_HOLDING)

NATIVE_ONLY: list[tuple[str, Any, str]] = [
    ("NaN", _with(MOVED, heading=float("nan")), "MechMoved.heading"),
    ("an int beyond 64 bits", _with(MOVED, mech=2**70), "MechMoved.mech"),
    ("text that is not UTF-8", _with(MOVED, kind="\ud800"), "MechMoved.kind"),
    ("data nested too deep", {"type": "NpGroupSet", "team": 1, "state": {"x": _deep(100)},
                              "reason": ""}, "NpGroupSet.state.x"),
    ("a list that holds itself", {"type": "NpGroupSet", "team": 1, "state": {"x": SELF_HOLDING},
                                  "reason": ""}, "NpGroupSet.state.x"),
    ("a set", {"type": "NpGroupSet", "team": 1, "state": {"x": {1}}, "reason": ""},
     "NpGroupSet.state.x"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "data", "path"), BOTH, ids=[c[0] for c in BOTH])
def test_both_engines_refuse_a_bad_document_naming_the_field(
    what: str, data: Any, path: str
) -> None:
    before = copy.deepcopy(data)
    with pytest.raises(NativeStateError) as native:
        native_events.event_from_dict(data)
    assert native.value.path.startswith(path), (what, native.value.path)
    assert data == before, "from_dict changed the document"
    with pytest.raises(StateError) as reference:
        NO_QUARTER_EVENTS.from_dict(data)
    if path.startswith(("MechMoved", "DamageRolled", "HitLocated", "StatusChanged", "BattleEnded",
                        "NpGroupSet", "MechsArrived", "ReactionTaken", "PilotCreated",
                        "ActivationRolled")):  # fmt: skip
        assert str(reference.value).startswith(path), (what, str(reference.value))


@pytest.mark.parametrize(("what", "data", "path"), NATIVE_ONLY, ids=[c[0] for c in NATIVE_ONLY])
def test_the_native_core_refuses_what_is_not_plain_json(what: str, data: Any, path: str) -> None:
    with pytest.raises(NativeStateError) as native:
        native_events.event_from_dict(data)
    assert native.value.path.startswith(path), (what, native.value.path)


def test_apply_refuses_arguments_of_the_wrong_type() -> None:
    battle = nnq.battle_from_dict(
        new_skirmish(np.random.default_rng(1), RandomDice.from_seed(1)).to_dict()
    )
    event = native_events.event_from_dict(MOVED)
    for args, argument in (
        (("x", event), "battle"),
        ((None, event), "battle"),
        ((event, battle), "battle"),
        ((battle, MOVED), "event"),
        ((battle, None), "event"),
    ):
        with pytest.raises(NativeTypeError) as error:
            native_events.core.apply(*args)
        assert error.value.argument == argument
    native_events.apply(battle, event)  # the right types apply
