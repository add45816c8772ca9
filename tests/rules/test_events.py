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


# -- No Quarter event fields added for the event record (issue 15, helper L) --------------------
_REACTION = {
    "type": "ReactionTaken",
    "mech": 1,
    "test": "fired_on",
    "causes": [0],
    "faces": [1, 2],
    "rep": 4,
    "passed": 1,
    "free_will": False,
    "results": ["duck_back"],
    "result": "duck_back",
    "rep_change": 0,
    "outgunned": [False],
    "in_range": [True],
}
_BUILDING = {
    "type": "BuildingDamaged",
    "feature": 0,
    "attacker": 0,
    "faces": [1, 1, 4, 4, 1, 2],
    "versus": 2,
    "passed": 2,
    "armor_before": 3,
    "armor_after": 0,
    "melee": True,
}
_CRITICAL = {
    "type": "CriticalHit",
    "mech": 0,
    "location": "chest",
    "kind": "random_item_lost",
    "faces": [2],
    "item_lost": 1,
    "items_lost": [1],
    "speed_after": 8,
    "removal": None,
}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({**_REACTION, "in_cover": "yes"}, "ReactionTaken.in_cover"),
        ({**_REACTION, "dice": "many"}, "ReactionTaken.dice"),
        ({**_BUILDING, "limb": "nose"}, "BuildingDamaged.limb"),
        ({**_BUILDING, "melee_faces": 7}, "BuildingDamaged.melee_faces"),
        ({**_BUILDING, "attack": "bite"}, "BuildingDamaged.attack"),
        ({**_CRITICAL, "candidates": "abc"}, "CriticalHit.candidates"),
        ({"type": "FiringEnded", "shooter": 0, "mode": "active"}, "shots"),
        (
            {
                "type": "FiringStarted",
                "shooter": 0,
                "mode": "active",
                "cause": None,
                "twist": 0,
                "weapons": "all",
            },
            "FiringStarted.weapons",
        ),
        (
            {
                "type": "NpTableRolled",
                "table": "22.3.6",
                "team": 100,
                "faces": [1, 2],
                "passes": 2,
                "result": "objective",
                "target": "mech 3",
            },
            "NpTableRolled.target",
        ),
    ],
    ids=[
        "in_cover",
        "dice",
        "limb",
        "melee_faces",
        "attack",
        "candidates",
        "shots",
        "weapons",
        "target",
    ],
)
def test_no_quarter_event_record_fields_are_checked(data: dict, field: str) -> None:
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS

    before = json.dumps(data)
    with pytest.raises(StateError, match=field):
        NO_QUARTER_EVENTS.from_dict(data)
    assert json.dumps(data) == before  # the input is not changed


def test_no_quarter_event_record_fields_default_for_old_logs() -> None:
    from wargym.rules.no_quarter.battle import events as ev
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS

    reaction = NO_QUARTER_EVENTS.from_dict(dict(_REACTION))
    assert isinstance(reaction, ev.ReactionTaken)
    assert reaction.in_cover is None and reaction.dice is None
    building = NO_QUARTER_EVENTS.from_dict(dict(_BUILDING))
    assert isinstance(building, ev.BuildingDamaged)
    assert (building.melee_faces, building.damage_faces, building.limb) == ((), (), None)
    critical = NO_QUARTER_EVENTS.from_dict(dict(_CRITICAL))
    assert isinstance(critical, ev.CriticalHit)
    assert critical.candidates == () and critical.armor is None
