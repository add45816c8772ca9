"""Bad arguments to the native movement raise typed errors naming the argument; nothing aborts.

Every argument of ``_core.no_quarter.movement`` (MoveTerrain, the geometry, the move options of
a native Battle, facing): NativeTypeError for a wrong type, NativeArgumentError for a bad value
(a NaN, a zero radius, an unknown edge, a loop bound: a 1e12-inch jump, a 1e9-inch lattice).
The objects called stay usable and unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import movement as nm
from wargym.rules.dice import RandomDice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battle.flow_mech import mech_frame
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.forces.setup import new_skirmish

m = nm.core
E4 = np.zeros((0, 4))
T = nm.move_terrain(Battlefield())
BATTLE = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(3), mechs_per_side=2)
NATIVE = nnq.battle_from_dict(BATTLE.to_dict())
FRAME = mech_frame(0)
NAN = float("nan")


def terrain(**changes: Any) -> Any:
    args: dict[str, Any] = dict(
        width=36.0,
        height=36.0,
        buildings=E4,
        half_speed=np.zeros((0, 6)),
        deep_core=E4,
        roads=E4,
        concealing=E4,
        cover_moving=E4,
        cover_stationary=E4,
        sight=nnq.sight_terrain(Battlefield()),
        tables=nm.move_tables(),
    )
    args.update(changes)
    return m.MoveTerrain(**args)


def tables(**changes: Any) -> dict[str, Any]:
    return {**nm.move_tables(), **changes}


def frame(**changes: Any) -> dict[str, Any]:
    out = dict(FRAME, **changes)
    return {k: v for k, v in out.items() if v is not ...}


TYPE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("a width of text", lambda: terrain(width="36"), "width"),
    ("buildings as a list", lambda: terrain(buildings=[[0, 0, 1, 1]]), "buildings"),
    ("no sight terrain", lambda: terrain(sight=None), "sight"),
    ("tables as a list", lambda: terrain(tables=[]), "tables"),
    ("road_per_inch as 1", lambda: terrain(tables=tables(road_per_inch=1)), "tables.road_per_inch"),
    ("no terrain", lambda: m.move_cost(None, (0, 0), (1, 1)), "terrain"),
    ("a point of text", lambda: m.move_cost(T, (0.0, "x"), (1, 1)), "a[1]"),
    ("on_road as 1", lambda: m.move_cost(T, (0, 0), (1, 1), False, 1), "on_road"),
    ("jumping as text", lambda: m.move_cost(T, (0, 0), (1, 1), "no"), "jumping"),
    ("a path of numbers", lambda: m.path_cost(T, [1.0, 2.0]), "path[0]"),
    ("a float jump segment", lambda: m.enters_deep_water(T, [(0, 0), (1, 1)], 0.5), "jump_segment"),
    (
        "bodies as Body objects",
        lambda: m.path_problem(T, [(1, 1)], 0, [Body(1, (2, 2))]),
        "bodies[0]",
    ),
    (
        "a float base id",
        lambda: m.path_problem(T, [(1, 1)], 0, [(1.5, 2.0, 2.0, 0.5)]),
        "bodies[0][0]",
    ),
    ("mover_id None", lambda: m.path_problem(T, [(1, 1)], None, []), "mover_id"),
    (
        "allow_off_table as 0",
        lambda: m.path_problem(T, [(1, 1)], 0, [], 0.5, None, 0),
        "allow_off_table",
    ),
    (
        "an open edge of 1",
        lambda: m.furthest_clear(T, (1, 1), (1, 0), 2.0, [], 0.5, 1),
        "open_edge",
    ),
    (
        "fractions as text",
        lambda: m.move_candidates(T, (5, 5), 4.0, 0, [], 0.5, 16, "ab"),
        "fractions",
    ),
    ("an enemy of text", lambda: m.nearest_edge_away(T, (5, 5), "x"), "enemy"),
    ("no edge", lambda: m.leave_move_to(T, (5, 5), None, 3.0, 0, []), "edge"),
    (
        "jump_jets as text",
        lambda: m.duck_back_move(
            T, (5, 5), (9, 9), 3.0, 3.0, 0, 1, [], 0.5, False, False, 0.5, "y"
        ),
        "jump_jets",
    ),
    ("a float twist", lambda: m.face_options(0.0, True, [0.0, 90.0], [1.5]), "twists[0]"),
    ("a face of one value", lambda: m.face_toward([(None,)], (1, 1), 0.0, (2, 2)), "faces[0]"),
    (
        "a battle document, not a Battle",
        lambda: m.move_options(T, BATTLE.to_dict(), FRAME),
        "battle",
    ),
    ("no frame", lambda: m.move_options(T, NATIVE, None), "frame"),
    ("moved as 1", lambda: m.move_options(T, NATIVE, frame(moved=1)), "frame['moved']"),
    ("a mech id of text", lambda: m.move_options(T, NATIVE, frame(mech="0")), "frame['mech']"),
    ("a terrain of the wrong kind", lambda: m.move_options(object(), NATIVE, FRAME), "terrain"),
    ("a destination of text", lambda: m.move_problem(T, NATIVE, FRAME, "x"), "to"),
    ("reverse as 1", lambda: m.move_problem(T, NATIVE, FRAME, (5, 5), 1), "reverse"),
    ("a planning mech of text", lambda: m.planning_bodies(T, NATIVE, "0"), "mech"),
    ("jump as None", lambda: m.bump(T, NATIVE, 0, (5, 5), None), "jump"),
]

VALUE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("a zero width", lambda: terrain(width=0.0), "width"),
    ("buildings of 3 columns", lambda: terrain(buildings=np.zeros((2, 3))), "buildings"),
    ("a half-speed row of 4", lambda: terrain(half_speed=np.zeros((1, 4))), "half_speed"),
    (
        "a zero cost per inch",
        lambda: terrain(half_speed=np.array([[0, 0, 1, 1, 0.0, 0]])),
        "half_speed",
    ),
    ("deep water with x0 > x1", lambda: terrain(deep_core=np.array([[2.0, 0, 1, 1]])), "deep_core"),
    ("an infinite road", lambda: terrain(roads=np.array([[0, 0, np.inf, 1]])), "roads"),
    (
        "a table missing",
        lambda: terrain(tables={k: v for k, v in tables().items() if k != "near"}),
        "tables",
    ),
    ("a negative NEAR", lambda: terrain(tables=tables(near=-1.0)), "tables.near"),
    ("a NaN coordinate", lambda: m.move_cost(T, (0.0, NAN), (1, 1)), "a[1]"),
    (
        "a zero base radius",
        lambda: m.path_problem(T, [(1, 1)], 0, [(1, 2.0, 2.0, 0.0)]),
        "bodies[0][3]",
    ),
    ("a zero radius", lambda: m.straight_ok(T, (1, 1), (2, 2), [], 0.0), "radius"),
    ("an edge 'up'", lambda: m.furthest_clear(T, (1, 1), (1, 0), 2.0, [], 0.5, "up"), "open_edge"),
    (
        "negative directions",
        lambda: m.move_candidates(T, (5, 5), 4.0, 0, [], 0.5, -1),
        "directions",
    ),
    (
        "a NaN fraction",
        lambda: m.move_candidates(T, (5, 5), 4.0, 0, [], 0.5, 16, [NAN]),
        "fractions[0]",
    ),
    ("a zero lattice step", lambda: m.lattice_offsets(6.0, 0.0), "step"),
    ("a 1e9-inch lattice", lambda: m.lattice_offsets(1e9, 0.5), "max_dist"),
    ("a -1e300-inch lattice", lambda: m.lattice_offsets(-1e300, 0.5), "max_dist"),
    (
        "a 1e12-inch duck back run",
        lambda: m.duck_back_move(T, (5, 5), (9, 9), 3.0, 1e12, 0, 1, []),
        "speed",
    ),
    ("a home edge 'up'", lambda: m.nearest_edge_away(T, (5, 5), None, "up"), "home_edge"),
    ("a 1e12-inch leave", lambda: m.leave_move_to(T, (5, 5), "north", 1e12, 0, []), "dist"),
    ("a 1e12-inch jump", lambda: m.furthest_landing(T, (5, 5), (1, 0), 1e12, [], 0.5), "max_s"),
    ("20 digits", lambda: m.py_round(1.5, 20), "ndigits"),
    ("no spent", lambda: m.move_options(T, NATIVE, frame(spent=...)), "frame['spent']"),
    ("a NaN spent", lambda: m.move_options(T, NATIVE, frame(spent=NAN)), "frame['spent']"),
    ("an unknown mech", lambda: m.move_options(T, NATIVE, frame(mech=99)), "frame['mech']"),
    ("an unknown planning mech", lambda: m.planning_bodies(T, NATIVE, 99), "mech"),
    ("a bump 1e300 inches away", lambda: m.bump(T, NATIVE, 0, (1e300, 0.0)), "to"),
]


def check(error: NativeArgumentError, argument: str) -> None:
    assert isinstance(error, RulesError)
    assert error.argument == argument, error.argument
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


def test_the_battle_frame_and_terrain_stay_unchanged_and_usable_after_a_refused_call() -> None:
    before = m.move_options(T, NATIVE, FRAME)
    data = NATIVE.to_dict()
    bad = dict(FRAME, spent=NAN)
    kept = copy.deepcopy(FRAME)
    with pytest.raises(NativeArgumentError):
        m.move_options(T, NATIVE, bad)
    assert m.move_options(T, NATIVE, FRAME) == before and before
    assert NATIVE.to_dict() == data and kept == FRAME


P = (5.0, 5.0)
U = (1.0, 0.0)
B = [(1, 9.0, 9.0, 0.5)]
GOOD_TERRAIN_ARGS: dict[str, Any] = dict(
    width=36.0,
    height=36.0,
    buildings=E4,
    half_speed=np.zeros((0, 6)),
    deep_core=E4,
    roads=E4,
    concealing=E4,
    cover_moving=E4,
    cover_stationary=E4,
    sight=nnq.sight_terrain(Battlefield()),
    tables=nm.move_tables(),
)
SIGNATURES: dict[str, list[tuple[str, str, Any]]] = {
    # function: (argument, kind, a good value) for every argument, in order; kind "num" and
    # "point" also get a NaN
    "MoveTerrain": [
        (k, "num" if k in ("width", "height") else "", v) for k, v in GOOD_TERRAIN_ARGS.items()
    ],
    "py_round": [("x", "num", 1.5), ("ndigits", "", 3)],
    "profile": [("terrain", "", T), ("a", "point", P), ("b", "point", U), ("on_road", "", None)],
    "move_cost": [
        ("terrain", "", T),
        ("a", "point", P),
        ("b", "point", U),
        ("jumping", "", False),
        ("on_road", "", None),
    ],
    "path_cost": [("terrain", "", T), ("path", "", [P, U]), ("jump_segment", "", None)],
    "enters_deep_water": [("terrain", "", T), ("path", "", [P, U]), ("jump_segment", "", None)],
    "deep_water_allowance": [("terrain", "", T), ("allowance", "num", 3.0)],
    "affordable": [
        ("terrain", "", T),
        ("a", "point", P),
        ("u", "point", U),
        ("max_s", "num", 3.0),
        ("budget", "num", 3.0),
    ],
    "path_problem": [
        ("terrain", "", T),
        ("path", "", [P, U]),
        ("mover_id", "", 0),
        ("bodies", "", B),
        ("radius", "num", 0.5),
        ("jump_segment", "", None),
        ("allow_off_table", "", False),
    ],
    "straight_ok": [
        ("terrain", "", T),
        ("a", "point", P),
        ("c", "point", U),
        ("others", "", B),
        ("radius", "num", 0.5),
    ],
    "furthest_clear": [
        ("terrain", "", T),
        ("a", "point", P),
        ("u", "point", U),
        ("max_s", "num", 3.0),
        ("others", "", B),
        ("radius", "num", 0.5),
        ("open_edge", "", None),
    ],
    "move_candidates": [
        ("terrain", "", T),
        ("pos", "point", P),
        ("allowance", "num", 3.0),
        ("mover_id", "", 0),
        ("bodies", "", B),
        ("radius", "num", 0.5),
        ("directions", "", 16),
        ("fractions", "", [0.5, 1.0]),
    ],
    "lattice_offsets": [("max_dist", "num", 2.0), ("step", "num", 0.5)],
    "duck_back_move": [
        ("terrain", "", T),
        ("pos", "point", P),
        ("cause", "point", U),
        ("max_dist", "num", 3.0),
        ("speed", "num", 3.0),
        ("mover_id", "", 0),
        ("cause_id", "", 1),
        ("bodies", "", B),
        ("radius", "num", 0.5),
        ("cause_has_ews", "", False),
        ("moved_this_turn", "", False),
        ("step", "num", 0.5),
        ("jump_jets", "", False),
    ],
    "nearest_edge_away": [
        ("terrain", "", T),
        ("pos", "point", P),
        ("enemy", "", U),
        ("home_edge", "", None),
    ],
    "leave_move_to": [
        ("terrain", "", T),
        ("pos", "point", P),
        ("edge", "", "north"),
        ("dist", "num", 3.0),
        ("mover_id", "", 0),
        ("bodies", "", B),
        ("radius", "num", 0.5),
        ("jump_jets", "", False),
    ],
    "beyond_edge": [("terrain", "", T), ("p", "point", P), ("edge", "", None)],
    "landing_ok": [
        ("terrain", "", T),
        ("p", "point", P),
        ("length", "num", 3.0),
        ("others", "", B),
        ("radius", "num", 0.5),
        ("open_edge", "", None),
    ],
    "furthest_landing": [
        ("terrain", "", T),
        ("start", "point", P),
        ("u", "point", U),
        ("max_s", "num", 3.0),
        ("others", "", B),
        ("radius", "num", 0.5),
        ("open_edge", "", None),
    ],
    "face_options": [
        ("heading", "num", 0.0),
        ("turn", "", True),
        ("headings", "", [0.0, 90.0]),
        ("twists", "", [0, 90]),
    ],
    "face_toward": [
        ("faces", "", [(None, 0)]),
        ("pos", "point", P),
        ("heading", "num", 0.0),
        ("point", "point", U),
    ],
    "move_options": [("terrain", "", T), ("battle", "", NATIVE), ("frame", "", FRAME)],
    "move_problem": [
        ("terrain", "", T),
        ("battle", "", NATIVE),
        ("frame", "", FRAME),
        ("to", "point", P),
        ("reverse", "", False),
        ("jump", "", False),
    ],
    "planning_bodies": [("terrain", "", T), ("battle", "", NATIVE), ("mech", "", 0)],
    "bump": [
        ("terrain", "", T),
        ("battle", "", NATIVE),
        ("mech", "", 0),
        ("to", "point", P),
        ("jump", "", False),
    ],
}
ARGUMENTS = [(f, i) for f, spec in SIGNATURES.items() for i in range(len(spec))]


def call(function: str, values: list[Any]) -> Any:
    return getattr(m, function)(*values)


def test_every_function_runs_on_its_good_arguments() -> None:
    for function, spec in SIGNATURES.items():
        call(function, [v for _, _, v in spec])
    assert set(SIGNATURES) >= {n for n in dir(m) if not n.startswith("_") and n.islower()}


@pytest.mark.parametrize(("function", "index"), ARGUMENTS, ids=[f"{f}-{i}" for f, i in ARGUMENTS])
def test_every_argument_refuses_a_wrong_type_and_a_nan(function: str, index: int) -> None:
    spec = SIGNATURES[function]
    name, kind, _ = spec[index]
    values = [v for _, _, v in spec]
    values[index] = object()
    with pytest.raises(NativeTypeError) as got:
        call(function, values)
    assert got.value.argument == name, got.value.argument
    if kind:
        values[index] = NAN if kind == "num" else (NAN, 1.0)
        with pytest.raises(NativeArgumentError) as bad:
            call(function, values)
        assert bad.value.argument == (name if kind == "num" else f"{name}[0]"), bad.value.argument
