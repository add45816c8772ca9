"""A malformed or hostile battle document raises NativeStateError naming the field; nothing aborts.

NativeStateError is a validity.InvalidBattleError, hence a StateError (what the reference's
``Battle.from_dict`` raises) and a ValueError; ``path`` names the field, the message quotes at
most ~80 characters of the value, and the document handed in is left unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeStateError, NativeTypeError
from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import validity
from wargym.rules.no_quarter.battlefield.terrain_tables import terrain_config
from wargym.rules.no_quarter.forces.setup import new_skirmish

HUGE = "x" * 100_000


def good() -> dict[str, Any]:
    battle = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(3), mechs_per_side=2)
    return battle.to_dict()


GOOD = good()


def drop(d: dict[str, Any], key: str) -> str:
    del d[key]
    return key


class Sneaky(str):
    """A str subclass whose comparisons run Python code during a dict lookup (it hashes as
    the plain field name it replaces); it counts the calls."""

    calls = 0

    def __eq__(self, other: object) -> bool:
        Sneaky.calls += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def recursive() -> Any:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def fingerprint(d: dict[str, Any]) -> tuple[str, list[Any]]:
    """The document's repr without the frames, and the frames' own objects (ids) and keys.

    The frames may hold data too deep for repr (the deep-nesting cases)."""
    rest = repr({k: v for k, v in d.items() if k != "frames"})
    frames = d["frames"]
    parts = [id(frames)] + [(id(f), list(f) if isinstance(f, dict) else f) for f in frames]
    return rest, parts


def feature(d: dict[str, Any], kind: str) -> dict[str, Any]:
    """The first feature of ``kind`` on the table of ``d``."""
    return next(f for f in d["battlefield"]["features"] if f["kind"] == kind)


def mech0(d: dict[str, Any]) -> dict[str, Any]:
    return d["mechs"]["0"]


def setter(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def deleter(*path: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a version of 2", setter("version", value=2), "battle.version"),
    ("a field name that is a number", setter(1, value=1), "battle"),
    ("no version", deleter("version"), "battle.version"),
    ("a version of text", setter("version", value="1"), "battle.version"),
    ("an unknown field", setter("extra", value=1), "battle"),
    ("no mechs", deleter("mechs"), "battle"),
    ("mechs as a list", setter("mechs", value=[]), "battle.mechs"),
    (
        "a mech key that is no integer",
        lambda d: d["mechs"].__setitem__("x", mech0(d)),
        "battle.mechs",
    ),
    ("a mech under another id", lambda d: d["mechs"].__setitem__("7", mech0(d)), "battle.mechs.7"),
    ("a missing pilot", deleter("mechs", "0", "pilot"), "battle.mechs.0"),
    ("armour as text", setter("mechs", "0", "armor", value="4444444"), "battle.mechs.0.armor"),
    ("six armour values", lambda d: mech0(d)["armor"].pop(), "battle.mechs.0.armor"),
    ("an armour of True", setter("mechs", "0", "armor", 2, value=True), "battle.mechs.0.armor[2]"),
    (
        "an armour above the design",
        setter("mechs", "0", "armor", 2, value=50),
        "battle.mechs.0.armor.2",
    ),
    ("a huge integer", setter("mechs", "0", "rep", value=10**30), "battle.mechs.0.rep"),
    ("a negative huge integer", setter("turn", value=-(2**63) - 1), "battle.turn"),
    ("a NaN position", setter("mechs", "0", "pos", 0, value=float("nan")), "battle.mechs.0.pos[0]"),
    (
        "an infinite heading",
        setter("mechs", "0", "heading", value=float("inf")),
        "battle.mechs.0.heading",
    ),
    ("a huge float position", setter("mechs", "0", "pos", 1, value=1e308), "battle.mechs.0.pos"),
    (
        "a point of three numbers",
        setter("mechs", "0", "pos", value=[1.0, 2.0, 3.0]),
        "battle.mechs.0.pos",
    ),
    (
        "a position off the table",
        setter("mechs", "0", "pos", value=[-5.0, 1.0]),
        "battle.mechs.0.pos",
    ),
    ("an unknown side", setter("mechs", "0", "side", value="green"), "battle.mechs.0.side"),
    ("a side that is a number", setter("mechs", "0", "side", value=1), "battle.mechs.0.side"),
    ("a huge side name", setter("mechs", "0", "side", value=HUGE), "battle.mechs.0.side"),
    ("an unknown status", setter("mechs", "0", "status", value="asleep"), "battle.mechs.0.status"),
    ("a twist of 45", setter("mechs", "0", "twist", value=45), "battle.mechs.0.twist"),
    (
        "an item index out of range",
        setter("mechs", "0", "inoperable", value=[99]),
        "battle.mechs.0.inoperable.0",
    ),
    (
        "an item listed twice",
        setter("mechs", "0", "inoperable", value=[0, 0]),
        "battle.mechs.0.inoperable",
    ),
    (
        "a head as a lost limb",
        setter("mechs", "0", "lost_limbs", value=["head"]),
        "battle.mechs.0.lost_limbs.0",
    ),
    (
        "an unknown mech fired at",
        setter("mechs", "0", "reaction_fired_at", value=[42]),
        "battle.mechs.0.reaction_fired_at.0",
    ),
    (
        "an unknown item type",
        setter("mechs", "0", "design", "items", 0, "item", value="laser"),
        "battle.mechs.0.design.items[0].item",
    ),
    ("a design without armour", deleter("mechs", "0", "design", "armor"), "battle.mechs.0.design"),
    (
        "an unknown design field",
        setter("mechs", "0", "design", "colour", value="red"),
        "battle.mechs.0.design",
    ),
    (
        "a pilot attribute that is None",
        setter("mechs", "0", "pilot", "attributes", value=[None]),
        "battle.mechs.0.pilot.attributes[0]",
    ),
    (
        "a pilot star of 1",
        setter("mechs", "0", "pilot", "star", value=1),
        "battle.mechs.0.pilot.star",
    ),
    ("a name that is not text", setter("mechs", "0", "name", value=5), "battle.mechs.0.name"),
    (
        "a text with a lone surrogate",
        setter("mechs", "0", "name", value="\ud800"),
        "battle.mechs.0.name",
    ),
    ("a group of an unknown mech", setter("group_of", "9", value=0), "battle.group_of.9"),
    ("a group key that is no integer", setter("group_of", "one", value=0), "battle.group_of"),
    ("an unknown mech in seen pairs", setter("seen_pairs", value=[[0, 77]]), "battle.seen_pairs.0"),
    ("a seen pair of three", setter("seen_pairs", value=[[0, 1, 2]]), "battle.seen_pairs[0]"),
    ("a d6 face of 7", setter("dice", value={"blue": 7, "red": 1}), "battle.dice.blue"),
    ("one side's dice", setter("dice", value={"blue": 3}), "battle.dice"),
    ("dice of an unknown side", setter("dice", value={"green": 3}), "battle.dice.green"),
    ("losses above the force", setter("losses", "red", value=5), "battle.losses.red"),
    ("a home edge up", setter("home_edges", "blue", value="up"), "battle.home_edges.blue"),
    (
        "armour of an unknown building",
        setter("building_armor", value={"999": 1}),
        "battle.building_armor.999",
    ),
    (
        "a decision of an unknown kind",
        setter("decision", "kind", value="dance"),
        "battle.decision.kind",
    ),
    (
        "a decision about an unknown mech",
        setter("decision", "mech", value=55),
        "battle.decision.mech",
    ),
    ("a decision without frames", setter("frames", value=[]), "battle.frames"),
    ("a frame that is a list", setter("frames", value=[[1]]), "battle.frames[0]"),
    ("a frame key that is a number", setter("frames", 0, value={1: 2}), "battle.frames[0]"),
    ("a NaN in a frame", setter("frames", 0, "x", value=float("nan")), "battle.frames.0.x"),
    ("a set in a frame", setter("frames", 0, "x", value={1, 2}), "battle.frames.0.x"),
    (
        "deep nesting in a frame",
        setter("frames", 0, "x", value=nested(100_000)),
        "battle.frames.0.x",
    ),
    ("a list that holds itself", setter("frames", 0, "x", value=recursive()), "battle.frames.0.x"),
    ("np that is a list", setter("np", value=[]), "battle.np"),
    (
        "deep nesting in the mission",
        setter("mission", value={"a": nested(500)}),
        "battle.mission.a",
    ),
    (
        "a feature of clear ground",
        setter("battlefield", "features", 0, "kind", value="clear"),
        "battle.battlefield.features[0].kind",
    ),
    (
        "a feature off the table",
        setter("battlefield", "features", 0, "x1", value=500.0),
        "battle.battlefield.features[0]",
    ),
    (
        "a feature with x1 below x0",
        lambda d: feature(d, "rough").update(x1=feature(d, "rough")["x0"] - 1.0),
        "battle.battlefield.features",
    ),
    (
        "a building larger than the table's largest",
        lambda d: feature(d, "building").update(x0=0.0, x1=30.0),
        "battle.battlefield.features",
    ),
    (
        "a building armour that is no rating",
        lambda d: feature(d, "building").update(building_armor=7),
        "battle.battlefield.features",
    ),
    (
        "armour on rough ground",
        lambda d: feature(d, "rough").update(building_armor=2),
        "battle.battlefield.features",
    ),
    (
        "a crest on rough ground",
        lambda d: feature(d, "rough").update(crest=[[1.0, 1.0], [2.0, 2.0]]),
        "battle.battlefield.features",
    ),
    (
        "a crest outside its hill",
        lambda d: feature(d, "hill").update(crest=[[0.0, 0.0], [0.5, 0.5]]),
        "battle.battlefield.features",
    ),
    ("a table of width 0", setter("battlefield", "width", value=0), "battle.battlefield.width"),
    ("a table of 1e6 inches", setter("battlefield", "width", value=1e6), "battle.battlefield"),
    (
        "a crest of one point",
        setter("battlefield", "features", 0, "crest", value=[[1.0, 1.0]]),
        "battle.battlefield.features[0].crest",
    ),
    ("max_turns of 10**6", setter("options", "max_turns", value=10**6), "battle.options.max_turns"),
    (
        "move_fractions of 2.0",
        setter("options", "move_fractions", value=[2.0]),
        "battle.options.move_fractions",
    ),
    ("an unknown lucky choice", setter("options", "lucky", value="always"), "battle.options.lucky"),
    (
        "an unknown rules option",
        setter("options", "rules", "cheat", value=True),
        "battle.options.rules",
    ),
    ("a turn of 1.5", setter("turn", value=1.5), "battle.turn"),
    ("over as the text true", setter("over", value="true"), "battle.over"),
    ("an over battle with a decision", setter("over", value=True), "battle.decision"),
]


@pytest.mark.parametrize(("label", "change", "path"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_document_raises_a_state_error_naming_the_field(
    label: str, change: Callable[[dict[str, Any]], None], path: str
) -> None:
    data = copy.deepcopy(GOOD)
    change(data)
    before = fingerprint(data)
    with pytest.raises(NativeStateError) as info:
        nnq.battle_from_dict(data)
    error = info.value
    assert isinstance(error, StateError) and isinstance(error, ValueError)
    assert isinstance(error, validity.InvalidBattleError)
    assert error.path.startswith(path), (label, error.path, str(error))
    assert str(error).startswith(error.path), str(error)
    assert len(str(error)) < 400, str(error)[:500]
    assert fingerprint(data) == before  # the document handed in is unchanged


@pytest.mark.parametrize("data", [None, [], "battle", 3, HUGE], ids=repr)
def test_a_document_that_is_no_object_is_refused(data: Any) -> None:
    with pytest.raises(NativeStateError, match="a battle must be a JSON object") as info:
        nnq.battle_from_dict(data)
    assert info.value.path == "battle"


def test_check_false_skips_the_validity_checks_but_not_the_structure() -> None:
    data = copy.deepcopy(GOOD)
    data["mechs"]["0"]["armor"][2] = 50  # outside the design: only check_battle refuses it
    assert nnq.battle_from_dict(data, check=False).to_dict() == data
    data["mechs"]["0"]["armor"][2] = "x"
    with pytest.raises(NativeStateError, match=r"battle\.mechs\.0\.armor\[2\]"):
        nnq.battle_from_dict(data, check=False)


def test_bad_arguments_to_from_dict_are_typed_errors() -> None:
    with pytest.raises(NativeTypeError, match="limits"):
        nnq.core.Battle.from_dict(GOOD, None)
    with pytest.raises(NativeTypeError, match="check"):
        nnq.core.Battle.from_dict(GOOD, nnq.LIMITS, 1)
    with pytest.raises(NativeTypeError, match="validity"):
        nnq.core.StateLimits(object(), terrain_config())
    with pytest.raises(NativeTypeError, match="terrain"):
        nnq.core.StateLimits(validity, object())


def test_a_refused_document_leaves_an_earlier_battle_usable() -> None:
    battle = nnq.battle_from_dict(GOOD)
    bad = copy.deepcopy(GOOD)
    bad["mechs"]["0"]["pos"] = [float("nan"), 0.0]
    with pytest.raises(NativeStateError):
        nnq.battle_from_dict(bad)
    assert battle.to_dict() == GOOD
    assert battle.clone().to_dict() == GOOD


def test_a_field_name_of_a_str_subclass_is_refused_without_running_its_code() -> None:
    """Its __eq__ could change the document while the reader holds borrowed references."""
    data = copy.deepcopy(GOOD)
    data[Sneaky(drop(data, "turn"))] = 0
    Sneaky.calls = 0
    with pytest.raises(NativeStateError, match="is not text") as info:
        nnq.battle_from_dict(data)
    assert info.value.path == "battle"
    assert Sneaky.calls == 0
