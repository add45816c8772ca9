"""The three generic missions as data and their objectives as pure functions (§22.0-22.3).

Patrol, Attack and Defend (``missions.yaml``) say how the player deploys, the NP posture and
tables, the day/night and weather chances and the largest player force. Objectives are judged
by :func:`evaluate_mission` over a small typed summary, :class:`MissionProgress`, that the
orchestrator keeps up to date (helpers :func:`record_recon`, :func:`record_exit`,
:func:`is_casualty`, :func:`tally_side`). Rulings of 22.0-22.3 (digest decisions 28-32):

* force ratios ("3/4 of your force"): the denominator is every mech of the side that has been
  on the table (start plus reinforcements; for the NP every mech revealed), the required number
  rounded up, and at least one mech must exit (options ``ratio_denominator``,
  ``ratio_rounding``);
* casualties: destroyed, inoperable, pilot bailed out or killed, or left the table through a
  Leave the Battlefield result; voluntary exits are not casualties;
* Patrol: a far section is reconnoitred when a player mech ends an activation within 6" of the
  north edge inside it; success once all three are and a mech without Leave the Battlefield
  then exits south; the mission ends when no player mech remains;
* Attack: the player secretly picks destroy or break through; an exit objective ends as soon
  as its threshold is met (decision 32); Defend: the NP rolls its objective on 22.3.1 and the
  player succeeds exactly when the NP fails.

>>> roll = np_objective_for_roll(PlanetStatus.CONTESTS, 2)
>>> roll.value
'destroy'
>>> required_exits(6)
5
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Literal, cast

from wargym.rules.dice import Dice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.sections import (
    Rect,
    distance_to_edge,
    entry_zone,
    section_of,
    setup_zone,
)
from wargym.rules.no_quarter.forces.data import Formation, load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Removal, Side, Status
from wargym.rules.no_quarter.sight_movement.geometry import Point
from wargym.rules.tables import Node, load_config

if TYPE_CHECKING:
    from wargym.rules.no_quarter.battle.state import Mech

CONFIG = "rules/no_quarter/missions.yaml"
FORMATIONS = ("team", "squad", "platoon", "company")


class MissionType(enum.Enum):
    """The three generic missions (§22)."""

    PATROL = "patrol"
    ATTACK = "attack"
    DEFEND = "defend"


class Deployment(enum.Enum):
    """How the player's force arrives (§22.1.4, §22.2.4, §22.3.4)."""

    ENTER_EDGE = "enter_edge"
    """Enters along the edge of the named sections (centres within 1" of it, ruling 28)."""
    SET_UP = "set_up"
    """Sets up anywhere inside the named sections."""


class AttackObjective(enum.Enum):
    """The two Attack objectives (§22.2.1), also rolled by the NP attacker (§22.3.1)."""

    DESTROY = "destroy"
    BREAK_THROUGH = "break_through"


class PlanetStatus(enum.Enum):
    """A side's status for table 22.3.1 (§23.4)."""

    CONTROLS = "controls"
    CONTESTS = "contests"
    NO_CAMPAIGN = "no_campaign"


@dataclass(frozen=True, slots=True)
class MissionSpec:
    """One generic mission as data (§22.0 table)."""

    type: MissionType
    deployment: Deployment
    deploy_sections: tuple[int, ...]
    entry_edge: str
    np_posture: str
    np_tables: tuple[str, ...]
    night_on: tuple[int, ...]
    inclement_on: tuple[int, ...]
    player_force: tuple[str, ...]
    """Formations the player may field; the last is the maximum."""
    player_force_default: str
    objectives: tuple[str, ...]

    @property
    def player_force_max(self) -> str:
        """The largest formation the player may field (§22.1.2, §22.2.2, §22.3.2)."""
        return self.player_force[-1]


@dataclass(frozen=True, slots=True)
class MissionTables:
    """``missions.yaml``: the three missions, the recon rule, the exit fraction, 22.3.1."""

    missions: Mapping[MissionType, MissionSpec]
    recon_sections: tuple[int, ...]
    recon_distance: float
    recon_edge: str
    report_edge: str
    break_through_fraction: Fraction
    np_objective: Mapping[PlanetStatus, Mapping[int, AttackObjective]]


def _mission(kind: MissionType, node: Node) -> MissionSpec:
    keys = {"player_deploys", "deploy_sections", "entry_edge", "np_posture", "np_tables"}
    keys |= {"night_on", "inclement_on", "player_force", "player_force_default", "objectives"}
    node.keys_exactly(keys)
    force = node["player_force"].as_strs(FORMATIONS)
    default = node["player_force_default"].as_str(force)
    edges = ["north", "south", "east", "west"]
    return MissionSpec(
        kind,
        Deployment(node["player_deploys"].as_str([d.value for d in Deployment])),
        node["deploy_sections"].as_ints(1, 9),
        node["entry_edge"].as_str(edges),
        node["np_posture"].as_str(["patrol", "defend", "attack"]),
        node["np_tables"].as_strs(),
        node["night_on"].as_ints(1, 6),
        node["inclement_on"].as_ints(1, 6),
        force,
        default,
        node["objectives"].as_strs(),
    )


@cache
def mission_tables() -> MissionTables:
    """Load ``missions.yaml`` (§22), cached; errors name the file, key and row."""
    root = load_config(CONFIG)
    root.keys_exactly({"missions", "recon", "break_through", "np_attack_objective"})
    root["missions"].keys_exactly({m.value for m in MissionType})
    missions = {m: _mission(m, root["missions"][m.value]) for m in MissionType}
    recon = root["recon"]
    recon.keys_exactly({"sections", "within_inches_of_edge", "edge", "report_edge"})
    num, den = root["break_through"]["fraction"].as_ints(1)
    root["break_through"].keys_exactly({"fraction"})
    table: dict[PlanetStatus, dict[int, AttackObjective]] = {}
    obj = root["np_attack_objective"]
    obj.keys_exactly({s.value for s in PlanetStatus})
    for status in PlanetStatus:
        row = obj[status.value]
        row.keys_exactly({o.value for o in AttackObjective})
        faces: dict[int, AttackObjective] = {}
        for objective in AttackObjective:
            lo, hi = row[objective.value].as_ints(1, 6)
            for face in range(lo, hi + 1):
                if face in faces:
                    raise row.fail(f"face {face} appears twice")
                faces[face] = objective
        if sorted(faces) != [1, 2, 3, 4, 5, 6]:
            raise row.fail("the ranges must cover the faces 1-6")
        table[status] = faces
    return MissionTables(
        missions,
        recon["sections"].as_ints(1, 9),
        recon["within_inches_of_edge"].as_number(),
        recon["edge"].as_str(["north", "south", "east", "west"]),
        recon["report_edge"].as_str(["north", "south", "east", "west"]),
        Fraction(num, den),
        table,
    )


def mission_spec(kind: MissionType | str) -> MissionSpec:
    """The definition of a generic mission (§22.0 table)."""
    return mission_tables().missions[MissionType(kind)]


def player_force_limit(kind: MissionType | str, faction: Faction) -> int:
    """Most mechs the player may field: the mission's largest formation of ``faction`` (§22)."""
    size = cast(Formation, mission_spec(kind).player_force_max)
    return load_rules().formation_size(faction, size)


def deployment_zone(
    kind: MissionType | str, width: float = 36.0, height: float = 36.0, depth: float = 1.0
) -> tuple[Rect, ...]:
    """Where player mech centres start: the entry strip or the set-up sections (ruling 28)."""
    spec = mission_spec(kind)
    if spec.deployment is Deployment.SET_UP:
        return setup_zone(spec.deploy_sections, width, height)
    return entry_zone(spec.deploy_sections, spec.entry_edge, depth, width, height)


def np_objective_for_roll(status: PlanetStatus, face: int) -> AttackObjective:
    """Table 22.3.1: the NP attacker's objective for a 1d6 face by its status (§22.3.1)."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise RulesError(f"a d6 face must be 1..6, got {face!r}")
    return mission_tables().np_objective[status][face]


def roll_np_objective(dice: Dice, status: PlanetStatus) -> tuple[AttackObjective, int]:
    """Roll the NP attacker's objective secretly after PEF placement (§22.3.1, decision 26)."""
    face = dice.roll(1)[0]
    return np_objective_for_roll(status, face), face


def required_exits(denominator: int, rounding: Literal["up", "down"] = "up") -> int:
    """Mechs that must exit for "3/4 of the force": rounded up, at least one (ruling 29)."""
    exact = mission_tables().break_through_fraction * denominator
    need = math.ceil(exact) if rounding == "up" else math.floor(exact)
    return max(1, need)


def is_casualty(removed: Removal | None, status: Status) -> bool:
    """Whether a removed mech is a casualty of its side (ruling 29, §22.0).

    Destroyed, inoperable (pilot bailed out) and Cheating Death count; leaving the table counts
    only under a Leave the Battlefield result (voluntary exits do not).
    """
    if removed is None:
        return False
    if removed is Removal.LEFT_TABLE:
        return status is Status.LEAVE_BATTLEFIELD
    return True


@dataclass(frozen=True, slots=True)
class SideTally:
    """One side's mechs for the objective tests (§22.0 rulings)."""

    started: int = 0
    """Mechs in the side's starting force (NP: revealed by the first contacts)."""
    fielded: int = 0
    """Every mech that has been on the table: start plus reinforcements (NP: every revealed)."""
    on_table: int = 0
    """Functioning mechs still on the table."""
    casualties: int = 0
    """Casualties as :func:`is_casualty` counts them."""
    exited_north: int = 0
    """Voluntary exits across the north edge (not casualties)."""
    exited_south: int = 0
    """Voluntary exits across the south edge (not casualties)."""


def tally_side(mechs: Iterable[Mech], side: Side, exit_edges: Mapping[int, str]) -> SideTally:
    """A :class:`SideTally` of ``side`` from battle mechs; ``exit_edges``: mech id -> edge."""
    chosen = [m for m in mechs if m.side is side]
    voluntary = [
        m
        for m in chosen
        if m.removed is Removal.LEFT_TABLE and not is_casualty(m.removed, m.status)
    ]
    return SideTally(
        started=len(chosen),
        fielded=len(chosen),
        on_table=sum(1 for m in chosen if m.on_table),
        casualties=sum(1 for m in chosen if is_casualty(m.removed, m.status)),
        exited_north=sum(1 for m in voluntary if exit_edges.get(m.id) == "north"),
        exited_south=sum(1 for m in voluntary if exit_edges.get(m.id) == "south"),
    )


@dataclass(frozen=True, slots=True)
class MissionProgress:
    """What the objectives of §22 depend on; kept by the orchestrator, judged here."""

    mission: MissionType
    turn: int = 0
    """Turns completed."""
    player: SideTally = SideTally()
    enemy: SideTally = SideTally()
    pefs_on_table: int = 0
    """Unresolved PEF markers on the table."""
    recon: frozenset[int] = frozenset()
    """Far sections reconnoitred (Patrol, 22.1.1)."""
    reported_back: int = 0
    """Player mechs that exited across the report edge, without Leave the Battlefield, after
    every recon section was reconnoitred (Patrol)."""
    attack_objective: AttackObjective | None = None
    """The player's secret Attack objective (22.2.1)."""
    np_objective: AttackObjective | None = None
    """The NP attacker's rolled objective (Defend, 22.3.1)."""


def recon_section_at(p: Point, width: float = 36.0, height: float = 36.0) -> int | None:
    """The recon section a mech at ``p`` reconnoitres, or None (§22.1.1 ruling)."""
    t = mission_tables()
    if distance_to_edge(p, t.recon_edge, width, height) > t.recon_distance + 1e-9:
        return None
    section = section_of(p, width, height)
    return section if section in t.recon_sections else None


def record_recon(
    progress: MissionProgress, p: Point, width: float = 36.0, height: float = 36.0
) -> MissionProgress:
    """Call when a player mech ends an activation at ``p`` (Patrol, §22.1.1)."""
    section = recon_section_at(p, width, height)
    if section is None or section in progress.recon:
        return progress
    return replace(progress, recon=progress.recon | {section})


def recon_complete(progress: MissionProgress) -> bool:
    """Whether every recon section has been reconnoitred (§22.1.1)."""
    return set(mission_tables().recon_sections) <= progress.recon


def record_exit(
    progress: MissionProgress, player: bool, edge: str, leaving_battlefield: bool
) -> MissionProgress:
    """Book one mech leaving the table across ``edge`` (§22.0 rulings).

    ``leaving_battlefield``: it left under a Leave the Battlefield result (a casualty);
    otherwise the exit is voluntary and counts per edge (and as a Patrol report).
    """
    tally = progress.player if player else progress.enemy
    if leaving_battlefield:
        tally = replace(tally, on_table=tally.on_table - 1, casualties=tally.casualties + 1)
    else:
        tally = replace(
            tally,
            on_table=tally.on_table - 1,
            exited_north=tally.exited_north + (edge == "north"),
            exited_south=tally.exited_south + (edge == "south"),
        )
    reported = progress.reported_back
    report = player and not leaving_battlefield and edge == mission_tables().report_edge
    if report and recon_complete(progress):
        reported += 1
    if player:
        return replace(progress, player=tally, reported_back=reported)
    return replace(progress, enemy=tally)


class OutcomeStatus(enum.Enum):
    """The player's result so far (§22, §23.5)."""

    ONGOING = "ongoing"
    SUCCESS = "success"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The player's mission result, whether the mission is over and why (§22)."""

    status: OutcomeStatus
    over: bool
    reason: str


@dataclass(frozen=True, slots=True)
class MissionOptions:
    """Rulings of the mission objectives as options; defaults are the digest's (§22)."""

    turn_limit: int | None = None
    """End after this many turns (not in the book): Patrol/Attack fail, Defend succeeds."""
    ratio_denominator: Literal["fielded", "started"] = "fielded"
    """"3/4 of the force" counts every mech on the table during the mission (ruling 29), or
    only the starting force."""
    ratio_rounding: Literal["up", "down"] = "up"
    """Round the required number of exits up (ruling 29) or down."""
    patrol_ends_on_success: bool = False
    """End a Patrol as soon as it succeeds (ruling 22.1.1: it ends when no player mech is
    left)."""
    exit_ends_on_threshold: bool = True
    """End a break-through as soon as its threshold is met (decision 32)."""

    def __post_init__(self) -> None:
        if self.turn_limit is not None and self.turn_limit < 1:
            raise RulesError(f"turn_limit: {self.turn_limit} must be at least 1")


def _ongoing(p: MissionProgress, o: MissionOptions, limit_status: OutcomeStatus) -> Outcome:
    if o.turn_limit is not None and p.turn >= o.turn_limit:
        return Outcome(limit_status, True, f"turn limit {o.turn_limit} reached")
    return Outcome(OutcomeStatus.ONGOING, False, "in progress")


def _broke_through(side: SideTally, exits: int, other: SideTally, o: MissionOptions) -> bool:
    base = side.fielded if o.ratio_denominator == "fielded" else side.started
    return exits >= required_exits(base, o.ratio_rounding) and other.casualties > side.casualties


def evaluate_mission(progress: MissionProgress, options: MissionOptions | None = None) -> Outcome:
    """Judge the player's objective of a Patrol, Attack or Defend mission now (§22.1-22.3).

    Call after deployment and PEF placement, after each activation and at the end of each turn.
    """
    o = options or MissionOptions()
    p = progress
    failed, won = OutcomeStatus.FAILURE, OutcomeStatus.SUCCESS
    gone = p.player.on_table <= 0
    if p.mission is MissionType.PATROL:
        if recon_complete(p) and p.reported_back >= 1:
            return Outcome(won, gone or o.patrol_ends_on_success, "recon reported back")
        if gone:
            return Outcome(failed, True, "no player mech left before reporting the recon")
        return _ongoing(p, o, failed)
    if p.mission is MissionType.ATTACK:
        if p.attack_objective is None:
            raise RulesError("an Attack needs the player's objective (22.2.1)")
        if p.attack_objective is AttackObjective.DESTROY:
            if p.enemy.on_table <= 0 and p.pefs_on_table <= 0:
                return Outcome(won, True, "every enemy mech and PEF is gone")
            if gone:
                return Outcome(failed, True, "the player's force is gone")
            return _ongoing(p, o, failed)
        if _broke_through(p.player, p.player.exited_north, p.enemy, o):
            return Outcome(won, gone or o.exit_ends_on_threshold, "broke through")
        if gone:
            return Outcome(failed, True, "too few exits or too many casualties")
        return _ongoing(p, o, failed)
    if p.np_objective is None:
        raise RulesError("a Defend needs the NP's rolled objective (22.3.1)")
    if p.np_objective is AttackObjective.BREAK_THROUGH and _broke_through(
        p.enemy, p.enemy.exited_south, p.player, o
    ):
        return Outcome(failed, True, "the enemy broke through")
    if gone:
        return Outcome(failed, True, "no player mech remains")
    if p.enemy.on_table <= 0 and p.pefs_on_table <= 0:
        return Outcome(won, True, "no enemy mech or PEF remains")
    return _ongoing(p, o, won)
