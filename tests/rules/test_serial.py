"""Plain-data conversion of states, events and actions (rules/serial.py)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Literal, NewType

import pytest

from wargym.rules.errors import StateError
from wargym.rules.serial import from_jsonable, to_jsonable

UnitId = NewType("UnitId", int)


class Colour(enum.Enum):
    """A string-valued enum."""

    RED = "red"
    BLUE = "blue"


class Facing(enum.IntEnum):
    """An int-valued enum, e.g. a hex direction."""

    NORTH = 0
    SOUTH = 3


@dataclass(frozen=True)
class Weapon:
    name: str
    wv: int
    arcs: tuple[Facing, ...] = ()


@dataclass(frozen=True)
class Unit:
    uid: UnitId
    colour: Colour
    at: tuple[int, int]
    weapons: tuple[Weapon, ...]
    damage: dict[str, int]
    heat: float = 0.0
    target: UnitId | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class State:
    turn: int
    units: dict[UnitId, Unit]
    by_colour: dict[Colour, tuple[UnitId, ...]]
    by_facing: dict[Facing, int]
    ranks: dict[int, str]
    seen: frozenset[int]
    phase: Literal["plot", "fire"]
    winner: Colour | None = None


def make_state() -> State:
    laser = Weapon("laser", 3, (Facing.NORTH, Facing.SOUTH))
    units = {
        UnitId(1): Unit(UnitId(1), Colour.RED, (0, -2), (laser,), {"arm": 2}, 1.5, UnitId(7)),
        UnitId(7): Unit(UnitId(7), Colour.BLUE, (4, 4), (), {}, notes=["ducked"]),
    }
    return State(
        turn=3,
        units=units,
        by_colour={Colour.RED: (UnitId(1),), Colour.BLUE: (UnitId(7),)},
        by_facing={Facing.SOUTH: 2},
        ranks={10: "ace", 2: "green"},
        seen=frozenset({3, 1, 2}),
        phase="fire",
    )


# -- round trips --------------------------------------------------------------------------
def test_nested_state_round_trips_through_json() -> None:
    state = make_state()
    data = to_jsonable(state)
    assert json.loads(json.dumps(data)) == data
    assert from_jsonable(State, json.loads(json.dumps(data))) == state


def test_to_jsonable_shapes() -> None:
    data = to_jsonable(make_state())
    unit = data["units"]["1"]
    assert unit["colour"] == "red"
    assert unit["at"] == [0, -2]
    assert unit["weapons"] == [{"name": "laser", "wv": 3, "arcs": [0, 3]}]
    assert unit["target"] == 7
    assert data["by_colour"] == {"red": [1], "blue": [7]}
    assert data["ranks"] == {"10": "ace", "2": "green"}
    assert data["winner"] is None


def test_enum_values_are_plain_json_types() -> None:
    """IntEnum members become plain ints (not members), so any JSON/YAML dumper accepts them."""
    data = to_jsonable({"f": Facing.SOUTH, "c": Colour.BLUE})
    assert data == {"f": 3, "c": "blue"}
    assert type(data["f"]) is int


def test_int_enum_dict_keys_round_trip() -> None:
    data = to_jsonable({Facing.SOUTH: 2, Facing.NORTH: 1})
    assert data == {"3": 2, "0": 1}
    assert from_jsonable(dict[Facing, int], data) == {Facing.SOUTH: 2, Facing.NORTH: 1}


def test_tuple_shapes_and_optionals() -> None:
    assert from_jsonable(tuple[int, str], [1, "a"]) == (1, "a")
    assert from_jsonable(tuple[int, ...], []) == ()
    assert from_jsonable(int | None, None) is None
    assert from_jsonable(Colour | None, "blue") is Colour.BLUE
    assert from_jsonable(float, 2) == 2.0
    assert from_jsonable(UnitId, 5) == 5
    assert from_jsonable(frozenset[int], [2, 1]) == frozenset({1, 2})


def test_defaults_fill_absent_optional_fields() -> None:
    data = {"uid": 9, "colour": "red", "at": [1, 1], "weapons": [], "damage": {}}
    unit = from_jsonable(Unit, data)
    assert unit == Unit(UnitId(9), Colour.RED, (1, 1), (), {})
    assert unit.notes == [] and unit.target is None and unit.heat == 0.0


def test_to_jsonable_rejects_unknown_objects() -> None:
    with pytest.raises(TypeError, match="cannot serialise object"):
        to_jsonable({"x": object()})


# -- errors name the path -----------------------------------------------------------------
def state_data() -> dict[str, object]:
    data = to_jsonable(make_state())
    assert isinstance(data, dict)
    return data


def test_unknown_field_is_rejected_with_its_path() -> None:
    data = state_data()
    data["units"]["7"]["armour"] = 3  # type: ignore[index]
    with pytest.raises(StateError, match=r"^\$\.units\.7: unknown fields \['armour'\] for Unit$"):
        from_jsonable(State, data)


def test_missing_field_is_rejected_with_its_path() -> None:
    data = state_data()
    del data["units"]["1"]["weapons"][0]["wv"]  # type: ignore[index]
    with pytest.raises(StateError, match=r"^\$\.units\.1\.weapons\[0\]: missing field 'wv'"):
        from_jsonable(State, data)


@pytest.mark.parametrize(
    ("mutate", "pattern"),
    [
        (lambda d: d.__setitem__("turn", "3"), r"^\$\.turn: expected int, got '3'$"),
        (lambda d: d.__setitem__("turn", True), r"^\$\.turn: expected int, got True$"),
        (
            lambda d: d["units"]["1"].__setitem__("colour", "green"),
            r"^\$\.units\.1\.colour: 'green' is not a valid Colour$",
        ),
        (
            lambda d: d["units"]["1"].__setitem__("at", [1, 2, 3]),
            r"^\$\.units\.1\.at: expected 2 items, got 3$",
        ),
        (
            lambda d: d["units"]["1"].__setitem__("heat", "hot"),
            r"^\$\.units\.1\.heat: expected a number",
        ),
        (
            lambda d: d["units"]["1"].__setitem__("heat", 10**400),
            r"^\$\.units\.1\.heat: 1000.* is too large for a number$",
        ),
        (lambda d: d.__setitem__("seen", {"a": 1}), r"^\$\.seen: expected a list"),
        (lambda d: d.__setitem__("units", []), r"^\$\.units: expected an object"),
        (lambda d: d.__setitem__("phase", "move"), r"^\$\.phase: 'move' is not one of"),
        (lambda d: d["ranks"].__setitem__("x", "ace"), r"^\$\.ranks: key 'x' is not an integer$"),
        (
            lambda d: d["units"]["7"].__setitem__("target", "seven"),
            r"^\$\.units\.7\.target: 'seven' matches none of",
        ),
    ],
)
def test_wrong_types_are_rejected_with_their_path(mutate: object, pattern: str) -> None:
    data = state_data()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(StateError, match=pattern):
        from_jsonable(State, data)


def test_top_level_must_be_an_object() -> None:
    with pytest.raises(StateError, match=r"^\$: expected an object for State"):
        from_jsonable(State, [1, 2])


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.__setitem__("turn", "x" * 10_000_000),
        lambda d: d.__setitem__("seen", {str(i): i for i in range(100_000)}),
        lambda d: d["units"]["1"].__setitem__("colour", "g" * 10_000_000),
        lambda d: d.__setitem__("phase", "m" * 10_000_000),
    ],
)
def test_huge_wrong_values_are_quoted_short(mutate: object) -> None:
    """A message quotes at most ~80 characters of a bad value (issue 21 item 12)."""
    data = state_data()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(StateError) as caught:
        from_jsonable(State, data)
    assert len(str(caught.value)) < 400
