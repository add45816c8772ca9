"""The native actions (native/no_quarter/battle/actions.hpp) agree with rules/.../actions.py.

For every legal option at the decision points of real skirmishes and missions
(``_action_samples``), and a hand-made set reaching every action type and field value, the
core gives the reference's ``action_to_dict`` (key for key, type for type), reads that dict back
to an equal action, turns a reference object into the core's action and back unchanged (also
through its plain-JSON form, serial.hpp's Json), writes the same ``str()``, and its equality and
hash agree with the dataclasses' ``==``. Malformed dicts raise NativeTypeError or
NativeArgumentError naming the field, where the reference raises its StateError for the same
reason.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import actions as act
from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack

sys.path.insert(0, str(Path(__file__).parent))
from _action_samples import mission_points, skirmish_points  # noqa: E402
from _state_compare import same  # noqa: E402

core = nnq.core


def every_kind() -> list[act.Action]:
    """Each action type with each of its enum values, optional fields set and unset."""
    out: list[act.Action] = [
        act.ActivateGroup(0),
        act.SkipGroup(7),
        act.ChooseMech(3),
        act.FireFirst(2),
        act.EndFire(1),
        act.Move(1, (2.0, 3.5)),
        act.Move(1, (-0.0, 1e-300), reverse=True),
        act.Move(4, (35.5, 0.001), jump=True),
        act.Stay(2),
        act.Stay(2, 45.0),
        act.Stay(2, 359.99999),
        act.Charge(1, 6),
        act.AssignFire(1, 3, 7),
        act.FreeMove(1, None),
        act.FreeMove(1, (1.25, -2.5)),
        act.FreeWill(1, 0),
        act.FreeWill(1, 2),
        act.FightMech(2, 5),
        act.FireAtBuilding(1, 0, 11),
        act.ExitTable(1, "north"),
        act.ExitTable(1, "up"),
        act.ChooseObjective("destroy"),
        act.ChooseObjective("break_through"),
        act.Face(1, None),
        act.Face(1, 90.0, -90),
        act.Face(1, 0.5, 90),
        act.Face(1, 1.5),
        act.LuckyChoice(1, True),
        act.LuckyChoice(1, False),
        act.LeadTeam(1, 4),
        act.LeadDone(1),
        act.SplitOff(3),
        act.KeepGroups(),
        act.AssignFire(-1, 2**63 - 1, -(2**63)),
    ]
    for attack, limb in itertools.product(MeleeAttack, Location):
        out.append(act.DeclareMelee(1, attack, limb))
        out.append(act.AttackBuilding(1, 3, attack, limb))
    out += [act.ChooseLocation(1, loc) for loc in Location]
    return out


def check(action: act.Action, where: str) -> None:
    data = act.action_to_dict(action)
    diff = same(data, core.action_to_dict(action), "action")
    assert diff is None, f"{where}: {action!r}: {diff}"
    back = core.action_from_dict(data)
    assert type(back) is type(action) and back == action, f"{where}: {data} read as {back!r}"
    assert same(act.action_to_dict(back), data) is None, f"{where}: {back!r}"
    assert core._action_from_json(data) == action, where
    assert core.action_round_trip(action) == action, where
    assert core.action_str(action) == str(action), where


def test_every_action_type_is_mirrored_in_order() -> None:
    assert tuple(act.ACTION_CLASSES) == core.ACTION_TYPES
    assert {type(a).__name__ for a in every_kind()} == set(act.ACTION_CLASSES)
    assert tuple(m.value for m in MeleeAttack) == core.MELEE_ATTACKS


def test_every_kind_of_action_agrees() -> None:
    for action in every_kind():
        check(action, "every_kind")


def test_the_legal_options_of_real_games_agree() -> None:
    seen: set[str] = set()
    count = 0
    for points in (skirmish_points(), mission_points(steps=30)):
        for label, _battle, legal in points:
            for action in legal:
                check(action, label)
                seen.add(type(action).__name__)
                count += 1
    assert count > 2000
    assert {"Move", "Stay", "Face", "AssignFire", "FreeMove", "ExitTable", "LeadTeam"} <= seen


def test_equality_and_hash_follow_the_dataclasses() -> None:
    pool = every_kind() + [
        act.Stay(2, 45),
        act.Stay(2, -0.0),
        act.Stay(2, 0.0),
        act.Move(1, (2, 3.5)),
        act.Face(1, 90, -90),
        act.ChooseMech(2),
        act.Charge(6, 1),
        act.LuckyChoice(2, True),
        act.Move(1, (2.0, 3.5), jump=True),
    ]
    for a, b in itertools.product(pool, repeat=2):
        equal = a == b
        assert core.action_equal(a, b) is equal, (a, b)
        if equal:
            assert core.action_hash(a) == core.action_hash(b), (a, b)
    hashes = {core.action_hash(a) for a in every_kind()}
    assert len(hashes) == len(every_kind())  # no collision in this small set


def test_an_int_heading_reads_as_its_float() -> None:
    """Stay(1, 90) == Stay(1, 90.0) in Python; the core keeps the float (as from_dict does)."""
    assert core.action_round_trip(act.Stay(1, 90)) == act.Stay(1, 90.0)
    assert core.action_to_dict(act.Stay(1, 90))["heading"] == 90.0
    assert type(core.action_to_dict(act.Move(1, (2, 3)))["to"][0]) is float


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Move", "mech": 1, "to": [1, 2]},
        {"type": "Move", "mech": 1, "to": [1.5, 2.0], "jump": True},
        {"type": "Move", "mech": 1, "to": [1.5, 2.0], "reverse": True},
        {"type": "Stay", "mech": 1},
        {"type": "Stay", "mech": 1, "heading": 90},
        {"type": "Face", "mech": 1, "heading": None},
        {"type": "Face", "mech": 1, "heading": 45, "twist": 90},
        {"type": "FreeMove", "mech": 1, "to": None},
        {"type": "KeepGroups"},
    ],
)
def test_a_left_out_field_takes_the_default(data: dict[str, Any]) -> None:
    """As from_jsonable does: the dataclass default, an int read as the float it equals."""
    expected = act.action_from_dict(data)
    for reader in (core.action_from_dict, core._action_from_json):
        got = reader(data)
        assert repr(got) == repr(expected), reader
    assert same(core.action_to_dict(expected), act.action_to_dict(expected)) is None


BAD_DICTS: list[tuple[Any, str]] = [
    ([1], "action"),
    ({"mech": 1}, "action"),
    ("Move", "action"),
    ({"type": "Mve"}, "action.type"),
    ({"type": 3}, "action.type"),
    ({"type": "Move", "mech": 1, "to": [1.0, 2.0], "zz": 1, "aa": 2}, "action"),
    ({"type": "Stay"}, "action"),
    ({"type": "Move", "mech": 1}, "action"),
    ({"type": "Move", "mech": True, "to": [1.0, 2.0]}, "action.mech"),
    ({"type": "Move", "mech": 1.0, "to": [1.0, 2.0]}, "action.mech"),
    ({"type": "Move", "mech": "1", "to": [1.0, 2.0]}, "action.mech"),
    ({"type": "Move", "mech": 1, "to": (1.0, 2.0)}, "action.to"),
    ({"type": "Move", "mech": 1, "to": [1.0]}, "action.to"),
    ({"type": "Move", "mech": 1, "to": [1.0, 2.0, 3.0]}, "action.to"),
    ({"type": "Move", "mech": 1, "to": [1.0, "x"]}, "action.to[1]"),
    ({"type": "Move", "mech": 1, "to": [False, 1.0]}, "action.to[0]"),
    ({"type": "Move", "mech": 1, "to": [1.0, 2.0], "reverse": 1}, "action.reverse"),
    ({"type": "Stay", "mech": 1, "heading": "north"}, "action.heading"),
    ({"type": "FreeMove", "mech": 1}, "action"),
    ({"type": "Face", "mech": 1, "heading": None, "twist": 1.0}, "action.twist"),
    ({"type": "DeclareMelee", "mech": 1, "attack": "bite", "limb": "arm_l"}, "action.attack"),
    ({"type": "DeclareMelee", "mech": 1, "attack": "punch", "limb": "tail"}, "action.limb"),
    ({"type": "ChooseLocation", "mech": 1, "location": 3}, "action.location"),
    ({"type": "ExitTable", "mech": 1, "edge": 4}, "action.edge"),
    ({"type": "LuckyChoice", "mech": 1, "reroll": "yes"}, "action.reroll"),
    ({"type": "KeepGroups", "mech": 1}, "action"),
    ({"type": "AssignFire", "mech": 1, "weapon": None, "target": 2}, "action.weapon"),
]


@pytest.mark.parametrize(("data", "argument"), BAD_DICTS)
def test_a_malformed_dict_raises_a_typed_error_naming_the_field(data: Any, argument: str) -> None:
    with pytest.raises(StateError) as reference:
        act.action_from_dict(data)
    for reader in (core.action_from_dict, core._action_from_json):
        if reader is core._action_from_json and not isinstance(data, dict | list):
            continue
        with pytest.raises(NativeArgumentError) as native:
            reader(data)
        assert native.value.argument == argument, (reader, native.value)
        reason = str(native.value).split(": ", 1)[1]
        if reader is core.action_from_dict:  # the Json reader quotes values more briefly
            assert reason in str(reference.value), (str(native.value), str(reference.value))
        typed = isinstance(native.value, NativeTypeError)
        assert typed == ("expected" in reason and "items" not in reason), str(native.value)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Move", "mech": 2**63, "to": [1.0, 2.0]},
        {"type": "Move", "mech": 1, "to": [10**400, 2.0]},
        {"type": "Stay", "mech": 1, "heading": float("nan")},
        {"type": "Stay", "mech": 1, "heading": float("inf")},
    ],
)
def test_numbers_beyond_int64_or_not_finite_are_refused(data: dict[str, Any]) -> None:
    """Beyond the reference (which keeps a NaN heading or a huge mech id): the core refuses."""
    with pytest.raises(NativeArgumentError) as error:
        core.action_from_dict(data)
    assert error.value.argument.startswith("action.")
    assert not isinstance(error.value, NativeTypeError)


@pytest.mark.parametrize(
    ("value", "argument"),
    [
        (None, "action"),
        ({"type": "Stay", "mech": 1}, "action"),
        (act.Decision, "action"),
        (act.Stay(True), "action.mech"),  # type: ignore[arg-type]
        (act.Move(1, (1.0,)), "action.to"),  # type: ignore[arg-type]
        (act.Move(1, "ab"), "action.to"),  # type: ignore[arg-type]
        (act.DeclareMelee(1, "punch", Location.ARM_L), "action.attack"),  # type: ignore[arg-type]
        (act.ChooseLocation(1, MeleeAttack.KICK), "action.location"),  # type: ignore[arg-type]
        (act.Stay(1, float("nan")), "action.heading"),
    ],
)
def test_a_bad_action_object_raises_a_typed_error(value: Any, argument: str) -> None:
    for call in (core.action_to_dict, core.action_round_trip, core.action_str, core.action_hash):
        with pytest.raises(NativeArgumentError) as error:
            call(value)
        assert error.value.argument == argument, error.value
    with pytest.raises(NativeTypeError):
        core.action_equal(act.KeepGroups(), 3)
