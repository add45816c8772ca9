"""Events of the solo-play enemy: PEFs, NP groups, reinforcements, weather (§20, §22, §23).

Each event writes its own change through ``apply_to(battle)``, which
:meth:`wargym.rules.no_quarter.battle.state.Battle.apply` calls; the NP bookkeeping lives in
``battle.np`` and ``battle.mission`` as plain JSON data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wargym.rules.events import Event
from wargym.rules.no_quarter.forces.records import MechDesign, Pilot
from wargym.rules.no_quarter.forces.vocab import Rank, Side

Point = tuple[float, float]


@dataclass(frozen=True)
class PefPlaced(Event):
    """A PEF marker went on the table: section roll or building rule (§20.0, §20.1)."""

    pef: int
    pos: Point
    face: int | None
    section: int | None
    hidden: bool
    building: int | None

    def apply_to(self, battle: Any) -> None:
        """Add the marker (its contents are rolled only when it is resolved)."""
        np = battle.np
        np["pefs"].append({"id": self.pef, "pos": list(self.pos), "building": self.building})
        np["next_pef"] = max(np["next_pef"], self.pef + 1)
        if self.building is not None and self.building not in np["used_buildings"]:
            np["used_buildings"].append(self.building)


@dataclass(frozen=True)
class PefMoved(Event):
    """A PEF rolled 2d6 vs Rep 4 and moved toward the closest player group (§20.2)."""

    pef: int
    faces: tuple[int, ...]
    passes: int
    path: tuple[Point, ...]
    toward: int | None

    def apply_to(self, battle: Any) -> None:
        """Move the marker."""
        for marker in battle.np["pefs"]:
            if marker["id"] == self.pef:
                marker["pos"] = list(self.path[-1])


@dataclass(frozen=True)
class PefResolved(Event):
    """A PEF was seen and resolved: contact, something's out there, or false alarm (§20.3)."""

    pef: int
    triggering: tuple[int, ...]
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    passes: int
    result: str
    last_pef_rule: bool
    contact_face: int | None
    enemies: int
    next_keep_lowest_two: bool

    def apply_to(self, battle: Any) -> None:
        """Remove the marker; remember the "keep the lowest two" and contact flags."""
        np = battle.np
        np["pefs"] = [m for m in np["pefs"] if m["id"] != self.pef]
        np["keep_lowest_two"] = self.next_keep_lowest_two
        np["contact_so_far"] = np["contact_so_far"] or self.result == "contact"


@dataclass(frozen=True)
class ArrivingMech:
    """One mech entering play: contact, reinforcement (§20.4, §23.8)."""

    id: int
    design: MechDesign
    pilot: Pilot
    pos: Point
    heading: float
    rank: Rank | None
    block: int | None = None
    """Which Class roll of ``MechsArrived.class_dice`` made this mech (None: not rolled)."""
    pilot_faces: tuple[int, ...] = ()
    """Its pilot's race die (Free Company only) and Rep die, as rolled (§9.4.2, §9.6.3)."""


@dataclass(frozen=True)
class MechsArrived(Event):
    """New mechs entered play as one Team (§20.4, §23.8.4-§23.8.5)."""

    side: Side
    team: int
    reason: str
    mechs: tuple[ArrivingMech, ...]
    class_faces: tuple[int, ...] = ()
    """Per Class roll, the face (§20.4) or 2d6 total (§27.6) the table was read with."""
    class_dice: tuple[tuple[int, ...], ...] = ()
    """Per Class roll, every die: the 1d6, or the 2d6 and a split row's extra 1d6 (§27.6)."""

    def apply_to(self, battle: Any) -> None:
        """Create the mechs; they form one group (§23.8.5 ruling)."""
        from wargym.rules.no_quarter.battle.state import Mech  # the event module stays below state

        for new in self.mechs:
            battle.mechs[new.id] = Mech(
                id=new.id,
                side=self.side,
                name=f"{new.design.id} #{new.id}",
                design=new.design,
                pilot=new.pilot,
                rep=new.pilot.rep,
                armor=list(new.design.armor),
                speed=new.design.speed,
                pos=new.pos,
                heading=new.heading,
                team=self.team,
                rank=new.rank,
            )
        leader = self.mechs[0].id
        for new in self.mechs:
            battle.group_of[new.id] = leader
        if battle.np is not None:
            battle.np["next_team"] = max(battle.np["next_team"], self.team + 1)
            if self.side.value == battle.np["side"]:
                battle.np["revealed"] += len(self.mechs)
            elif "player_mechs_fielded" in battle.np:  # the player's fielded force (§22.0)
                battle.np["player_mechs_fielded"] += len(self.mechs)


@dataclass(frozen=True)
class NpGroupSet(Event):
    """An NP group's posture and orders changed (§22.1.6, §22.4)."""

    team: int
    state: dict[str, Any]
    reason: str

    def apply_to(self, battle: Any) -> None:
        """Store the group's state."""
        battle.np["groups"][str(self.team)] = dict(self.state)


@dataclass(frozen=True)
class NpTableRolled(Event):
    """A roll of an NP table: patrol reaction, movement, pursuit, objective (§22)."""

    table: str
    team: int | None
    faces: tuple[int, ...]
    passes: int | None
    result: str
    """The table's outcome; 22.3.6: "objective", or the id (as text) of the enemy pursued."""
    group_leader: int | None = None
    """The rolling group's leader (the group is ``team``); None for a roll of no group."""
    target: int | None = None
    """22.3.6: the enemy mech pursued instead of the objective; None: the objective."""


@dataclass(frozen=True)
class ReinforcementChecked(Event):
    """Activation dice total 7: the higher side rolls vs its Campaign Morale (§23.8.1-3)."""

    side: Side
    faces: tuple[int, ...]
    passes: int
    table_faces: tuple[int, ...]
    score: int | None
    unit: str
    mechs: int


@dataclass(frozen=True)
class WeatherChanged(Event):
    """Doubles on the activation dice improved or worsened the weather (§23.7)."""

    faces: tuple[int, ...]
    weather: dict[str, Any]
    night: bool
    inclement: bool

    def apply_to(self, battle: Any) -> None:
        """Update the visibility flags of the battlefield."""
        import dataclasses

        battle.battlefield = dataclasses.replace(
            battle.battlefield, night=self.night, inclement_weather=self.inclement
        )
        if battle.mission is not None:
            battle.mission["weather"] = dict(self.weather)


@dataclass(frozen=True)
class MechWithdrew(Event):
    """An NP mech on a fighting withdrawal reached its edge and left (§22.1.6 ruling)."""

    mech: int
    edge: str


@dataclass(frozen=True)
class MissionEnded(Event):
    """The mission's objective was met or failed, or it ran out of turns (§22)."""

    status: str
    reason: str
    turn: int

    def apply_to(self, battle: Any) -> None:
        """Record the outcome."""
        if battle.mission is not None:
            battle.mission["outcome"] = {"status": self.status, "reason": self.reason}


NP_EVENTS: tuple[type[Event], ...] = (
    PefPlaced,
    PefMoved,
    PefResolved,
    MechsArrived,
    NpGroupSet,
    NpTableRolled,
    ReinforcementChecked,
    WeatherChanged,
    MechWithdrew,
    MissionEnded,
)
"""Every event of this module, for the registry."""
