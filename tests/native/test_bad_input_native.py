"""Bad arguments to the native core raise typed errors naming the argument; nothing aborts.

NativeTypeError (a TypeError) for a value of the wrong type, NativeArgumentError (a
ValueError) for a bad value, shape or size; both are RulesError subclasses, quote at most ~80
characters of the value, and leave the objects they were called on usable and unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.battlefield.terrain_tables import sight_config

g = _core.no_quarter
HUGE = "x" * 100_000
EMPTY4 = np.zeros((0, 4))
EMPTY5 = np.zeros((0, 5))


def terrain(**changes: Any) -> Any:
    args: dict[str, Any] = dict(
        buildings=EMPTY4, hills=EMPTY4, crests=EMPTY5, woods=EMPTY4, deep_core=EMPTY4,
        well_lit=EMPTY4, night=False, inclement_weather=False, config=sight_config(),
    )  # fmt: skip
    args.update(changes)
    return g.SightTerrain(**args)


GOOD_TERRAIN = terrain()
GOOD_BODIES = nnq.native_bodies([Body(1, (3.0, 3.0))])


def many(lines: Any, ids: Any) -> Any:
    return g.sight_many(GOOD_TERRAIN, lines, ids, 0.5)


def sight(**changes: Any) -> Any:
    args: dict[str, Any] = dict(
        terrain=GOOD_TERRAIN, observer=(1.0, 1.0), target=(5.0, 5.0), base_radius=0.5,
        observer_id=-1, target_id=-1, bodies=GOOD_BODIES, observer_has_ews=False,
    )  # fmt: skip
    args.update(changes)
    return g.sight(**args)


TYPE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("a point of text", lambda: g.distance((0.0, "x"), (1.0, 1.0)), "a[1]"),
    ("a point of one number", lambda: g.distance((0.0,), (1.0, 1.0)), "a"),
    ("a point that is a string", lambda: g.heading_to("ab", (1.0, 1.0)), "a"),
    ("a bool coordinate", lambda: g.distance((True, 0.0), (1.0, 1.0)), "a[0]"),
    ("a heading of None", lambda: g.normalize(None), "deg"),
    ("a huge string", lambda: g.angle_between(HUGE, 1.0), "h1"),
    ("a path of numbers", lambda: g.path_length([1.0, 2.0]), "path[0]"),
    ("a path that is a dict", lambda: g.point_along({}, 1.0), "path"),
    ("buildings as a list", lambda: terrain(buildings=[[0, 0, 1, 1]]), "buildings"),
    ("night as an int", lambda: terrain(night=1), "night"),
    ("a config of the wrong kind", lambda: terrain(config=object()), "config"),
    ("float body ids", lambda: g.Bodies(np.array([1.5]), np.ones((1, 3))), "ids"),
    ("no terrain", lambda: sight(terrain=None), "terrain"),
    ("bodies as a list", lambda: sight(bodies=[Body(1, (3.0, 3.0))]), "bodies"),
    ("a float observer id", lambda: sight(observer_id=1.5), "observer_id"),
    ("EWS as text", lambda: sight(observer_has_ews="yes"), "observer_has_ews"),
    ("float ids in a batch", lambda: many(np.ones((2, 4)), np.ones((2, 2))), "ids"),
    ("lines as a list", lambda: many([[1, 1, 2, 2]], np.ones((1, 2), int)), "lines"),
    ("scripted faces as text", lambda: _core.ScriptedDice("123"), "faces"),
    ("a float face", lambda: _core.ScriptedDice([1, 2.0]), "faces[1]"),
]

VALUE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("a NaN coordinate", lambda: g.distance((0.0, float("nan")), (1.0, 1.0)), "a[1]"),
    ("an infinite heading", lambda: g.normalize(float("inf")), "deg"),
    ("an int too big for a float", lambda: g.normalize(10**400), "deg"),
    ("an empty path", lambda: g.point_along([], 1.0), "path"),
    ("buildings of 3 columns", lambda: terrain(buildings=np.zeros((2, 3))), "buildings"),
    ("a building with x0 > x1", lambda: terrain(buildings=np.array([[2.0, 0, 1, 1]])), "buildings"),
    ("an infinite wood", lambda: terrain(woods=np.array([[0, 0, np.inf, 1.0]])), "woods"),
    ("crests not one per hill", lambda: terrain(hills=np.array([[0, 0, 4.0, 4]])), "crests"),
    ("a negative woods band", lambda: terrain(config=_config(woods_edge_band=-1.0)), "config"),
    ("ids and rows of different lengths", lambda: g.Bodies(np.arange(2), np.ones((3, 3))), "xyr"),
    ("a zero base radius in bodies", lambda: g.Bodies(np.arange(1), np.zeros((1, 3))), "xyr"),
    ("a zero base radius", lambda: sight(base_radius=0.0), "base_radius"),
    ("an observer id beyond int64", lambda: sight(observer_id=2**63), "observer_id"),
    ("ids not one row per line", lambda: many(np.ones((2, 4)), np.ones((3, 2), int)), "ids"),
    ("lines of 3 columns", lambda: many(np.ones((2, 3)), np.ones((2, 2), int)), "lines"),
    ("a face of 7", lambda: _core.ScriptedDice([7]), "faces"),
]


def _config(**changes: Any) -> Any:
    import dataclasses

    return dataclasses.replace(sight_config(), **changes)


def check(error: NativeArgumentError, argument: str) -> None:
    assert isinstance(error, RulesError)
    assert error.argument.startswith(argument.split("[")[0])
    assert str(error).startswith(argument), str(error)
    assert len(str(error)) < 200, str(error)


@pytest.mark.parametrize(("label", "call", "argument"), TYPE_CASES, ids=[c[0] for c in TYPE_CASES])
def test_a_wrong_type_is_a_native_type_error_naming_the_argument(
    label: str, call: Callable[[], object], argument: str
) -> None:
    with pytest.raises(NativeTypeError) as got:
        call()
    assert isinstance(got.value, TypeError)
    check(got.value, argument)


@pytest.mark.parametrize(
    ("label", "call", "argument"), VALUE_CASES, ids=[c[0] for c in VALUE_CASES]
)
def test_a_bad_value_is_a_native_argument_error_naming_the_argument(
    label: str, call: Callable[[], object], argument: str
) -> None:
    with pytest.raises(NativeArgumentError) as got:
        call()
    assert isinstance(got.value, ValueError)
    assert not isinstance(got.value, NativeTypeError)
    check(got.value, argument)


def test_objects_stay_unchanged_and_usable_after_a_refused_call() -> None:
    dice = _core.ScriptedDice([1, 2, 3])
    with pytest.raises(NativeTypeError):
        dice.roll("2")
    assert (dice.remaining, dice.used) == (3, [])
    assert dice.roll(2) == (1, 2)
    before = nnq.sight(GOOD_TERRAIN, (1.0, 1.0), (5.0, 5.0), base_radius=0.5, bodies=GOOD_BODIES)
    with pytest.raises(NativeArgumentError):
        sight(target=(float("nan"), 1.0))
    after = nnq.sight(GOOD_TERRAIN, (1.0, 1.0), (5.0, 5.0), base_radius=0.5, bodies=GOOD_BODIES)
    assert before == after and before.mech_blocked_lines == 3


def test_the_glue_takes_a_real_battlefield() -> None:
    t = nnq.sight_terrain(Battlefield(night=True))
    assert t.night and not t.inclement_weather
