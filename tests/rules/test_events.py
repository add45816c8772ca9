"""Typed events and their registry (rules/events.py)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

import pytest

from wargym.rules.errors import StateError
from wargym.rules.events import Event, EventRegistry


class Side(enum.Enum):
    """Two sides."""

    BLUE = "blue"
    RED = "red"


@dataclass(frozen=True)
class DiceRolled(Event):
    """A roll and what it was for."""

    why: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class ActivationWon(Event):
    """A side won the activation roll."""

    side: Side
    scores: dict[Side, int]
    tie: bool = False


REGISTRY = EventRegistry([DiceRolled, ActivationWon])


def test_event_to_dict_is_tagged_with_the_class_name() -> None:
    event = ActivationWon(Side.RED, {Side.BLUE: 2, Side.RED: 5})
    assert event.to_dict() == {
        "type": "ActivationWon",
        "side": "red",
        "scores": {"blue": 2, "red": 5},
        "tie": False,
    }


@pytest.mark.parametrize(
    "event",
    [
        DiceRolled("reaction", (1, 6)),
        DiceRolled("none", ()),
        ActivationWon(Side.BLUE, {Side.BLUE: 4}, tie=True),
    ],
)
def test_registry_round_trips_events_through_json(event: Event) -> None:
    text = json.dumps(event.to_dict())
    assert REGISTRY.from_dict(json.loads(text)) == event


def test_registry_names_and_membership() -> None:
    assert REGISTRY.names == ("ActivationWon", "DiceRolled")
    assert "DiceRolled" in REGISTRY
    assert "Event" not in REGISTRY


def test_registry_rejects_an_unknown_type() -> None:
    with pytest.raises(StateError, match=r"^unknown event type 'MechExploded'$"):
        REGISTRY.from_dict({"type": "MechExploded", "mech": 3})


@pytest.mark.parametrize("data", [{"faces": [1]}, [], "DiceRolled"])
def test_registry_rejects_data_without_a_type(data: object) -> None:
    with pytest.raises(StateError, match="must be an object with a 'type' key"):
        REGISTRY.from_dict(data)  # type: ignore[arg-type]


def test_registry_errors_name_the_event_and_field() -> None:
    with pytest.raises(StateError, match=r"^DiceRolled\.faces\[1\]: expected int, got 'six'$"):
        REGISTRY.from_dict({"type": "DiceRolled", "why": "x", "faces": [1, "six"]})
    with pytest.raises(StateError, match=r"^DiceRolled: unknown fields \['extra'\]"):
        REGISTRY.from_dict({"type": "DiceRolled", "why": "x", "faces": [], "extra": 1})


def test_from_dict_does_not_mutate_its_input() -> None:
    data = DiceRolled("x", (2,)).to_dict()
    REGISTRY.from_dict(data)
    assert data["type"] == "DiceRolled"


def test_events_are_immutable() -> None:
    event = DiceRolled("x", (2,))
    with pytest.raises(AttributeError):
        event.why = "y"  # type: ignore[misc]
