"""The Non-Player enemy as rules, not an agent: NP tactics tables and decisions (§22, §20.5).

Table functions (:func:`np_patrol_reaction`, :func:`np_defend_move`, :func:`np_attack_move`,
:func:`secret_objective`, :func:`pursue_objective`) roll injected dice and return frozen
records with their faces. :func:`np_decide` answers the engine's pending decision for the NP
side following the 22.4 procedure, using only what the NP side can see.
"""

from __future__ import annotations

import enum
import importlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from wargym.rules.dice import Dice, passed_dice
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.non_player.pef import Spotter, covered
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    angle_between,
    distance,
    heading_to,
    point_segment_distance,
)
from wargym.rules.no_quarter.sight_movement.sight import sight
from wargym.rules.serial import from_jsonable, to_jsonable
from wargym.rules.tables import Node, load_config

if TYPE_CHECKING:
    from wargym.rules.no_quarter.non_player.enemy_decide import known_enemies, np_decide, roll_group

__all__ = [
    "Control",
    "MoveOrder",
    "MoveRoll",
    "NpActivation",
    "NpContext",
    "NpGroupState",
    "NpObjective",
    "NpOptions",
    "NpPosture",
    "ObjectiveRoll",
    "PatrolReaction",
    "PursuitRoll",
    "Tactics",
    "defend_goal",
    "edge_point",
    "fighting_withdrawal_move",
    "known_enemies",
    "np_attack_move",
    "np_decide",
    "np_defend_move",
    "np_patrol_reaction",
    "on_flank_or_rear",
    "parse_tactics",
    "pursue_objective",
    "reached_edge",
    "roll_group",
    "secret_objective",
    "tactics",
]

CONFIG = "rules/no_quarter/np_tactics.yaml"
Control = Literal["controls", "contests", "no_campaign"]


class NpPosture(enum.Enum):
    """How an NP group behaves (§20.5, §22.4)."""

    PATROL = "patrol"
    """Not yet reacted; moves with NP Movement - Defend (§22.1.5)."""
    DEFEND = "defend"
    """NP Movement - Defend (§22.2.6)."""
    ATTACK = "attack"
    """Pursuing the objective, then NP Movement - Attack (§22.3.6, §22.3.7)."""
    WITHDRAW = "withdraw"
    """Fighting withdrawal to its own edge (§22.1.6, ruling)."""


class NpObjective(enum.Enum):
    """The NP attacker's secret objective (§22.3.1)."""

    DESTROY = "destroy"
    BREAK_THROUGH = "break_through"


class MoveOrder(enum.Enum):
    """What the mechs without a target do this activation (§22.2.6, §22.3.7)."""

    FULL = "full"
    HALF = "half"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class NpGroupState:
    """Per-group NP bookkeeping the orchestrator keeps in the battle, keyed by team (§22.4)."""

    posture: NpPosture = NpPosture.ATTACK
    objective: NpObjective = NpObjective.DESTROY
    own_edge: str = "north"
    """Where the group came from and withdraws to (ruling 22.1.6: the far edge)."""
    exit_edge: str = "south"
    """Break-through edge (§22.3.1: the player's edge)."""
    exit_sections: tuple[int, ...] = ()
    """Break through only across the part of ``exit_edge`` bordering these sections (Cestus V
    Mission 8: section 7); () = anywhere along the edge."""
    after_beaten: Literal["resume_patrol", "withdraw", "none"] = "none"
    """What a defending patrol does once the enemy is beaten away (§22.1.6)."""
    target: int | None = None
    """The enemy chosen by 22.3.6 this activation (None: the objective)."""
    order: MoveOrder = MoveOrder.NONE
    activation: tuple[int, int] | None = None
    """(turn, leader) of the activation ``order`` and ``target`` belong to."""


@dataclass(frozen=True, slots=True)
class NpOptions:
    """Readings of §22; every default is the digest's ruling."""

    awareness: Literal["los", "arc"] = "los"
    """The NP side knows enemies any of its mechs has LOS to ("arc": only in a front arc)."""
    beaten_away_uses_range: bool = True
    """Ruling 22.1.6: a player mech within 12" (seen or not) keeps a patrol from "beating"
    the enemy away; False: only mechs in LOS count."""
    unseen_defender: Literal["regain_los", "hold"] = "regain_los"
    """Ruling 22.2.6: a defender that sees no enemy moves to regain LOS of the nearest player
    mech (on the tabletop every model is in view); "hold": it stays where it is (E17)."""


@dataclass(frozen=True, slots=True)
class PatrolReaction:
    """22.1.6 result: dice vs Campaign Morale, new posture, what follows a beaten enemy."""

    faces: tuple[int, ...]
    passes: int
    posture: NpPosture
    after_beaten: Literal["resume_patrol", "withdraw", "none"]


@dataclass(frozen=True, slots=True)
class MoveRoll:
    """22.2.6 or 22.3.7 result: dice vs leader Rep and the move order (§22.2.6, §22.3.7)."""

    table: Literal["22.2.6", "22.3.7"]
    faces: tuple[int, ...]
    passes: int
    order: MoveOrder


@dataclass(frozen=True, slots=True)
class ObjectiveRoll:
    """22.3.1 secret objective roll (never shown to the player)."""

    face: int
    control: Control
    objective: NpObjective


@dataclass(frozen=True, slots=True)
class PursuitRoll:
    """22.3.6 result: dice vs leader Rep and the distracting enemy, if any."""

    faces: tuple[int, ...]
    passes: int
    target: int | None


@dataclass(frozen=True, slots=True)
class NpActivation:
    """Everything rolled when an NP group activates (§22.4), for the event log."""

    team: int
    leader: int
    posture: NpPosture
    beaten_away: bool
    pursuit: PursuitRoll | None
    move: MoveRoll | None


@dataclass
class NpContext:
    """Mutable NP memory owned by the orchestrator: group states and the rolls to log (§22.4)."""

    groups: dict[int, NpGroupState] = field(default_factory=dict)
    """State by ``Mech.team``; teams without an entry use ``default``."""
    default: NpGroupState = NpGroupState()
    rolls: list[NpActivation] = field(default_factory=list)
    options: NpOptions = NpOptions()

    def to_dict(self) -> dict[str, Any]:
        """The NP memory as JSON-compatible data (env snapshots) (§22.4)."""
        data: dict[str, Any] = to_jsonable(self)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> NpContext:
        """Rebuild from :meth:`to_dict` output; malformed data raises StateError (§22.4)."""
        context = from_jsonable(cls, data, "np_context")
        assert isinstance(context, NpContext)
        return context


@dataclass(frozen=True, slots=True)
class Tactics:
    """np_tactics.yaml (§22.1.6, §22.2.6, §22.3.1, §22.3.6, §22.3.7)."""

    patrol: Mapping[int, tuple[NpPosture, Literal["resume_patrol", "withdraw", "none"]]]
    defend: Mapping[int, MoveOrder]
    objective: Mapping[str, Mapping[NpObjective, tuple[int, int]]]
    pursuing: Mapping[int, str]
    distraction_range: float
    flank_bearing: float
    attack: Mapping[int, MoveOrder]
    beaten_range: float
    withdrawal_snap: float


def parse_tactics(node: Node) -> Tactics:
    """Strictly parse np_tactics.yaml; errors name file, key and row (§22)."""
    keys = {"patrol_reaction", "defend_movement", "attack_objective", "pursuing_objective"}
    keys |= {"distraction_range_in", "flank_bearing_deg", "attack_movement"}
    node.keys_exactly(keys | {"beaten_away_range_in", "withdrawal_cover_snap_in"})

    def rows(name: str) -> dict[int, Node]:
        found = dict(node[name].items())
        if set(found) != {0, 1, 2}:
            raise node[name].fail("rows must be exactly 0, 1 and 2 (dice passed)")
        return found

    patrol = {}
    for k, row in rows("patrol_reaction").items():
        row.keys_exactly({"posture", "after_beaten_away"})
        after = row["after_beaten_away"].as_str(["resume_patrol", "withdraw", "none"])
        patrol[k] = (NpPosture(row["posture"].as_str(["defend", "withdraw"])), after)
    orders = [o.value for o in MoveOrder]
    objective: dict[str, dict[NpObjective, tuple[int, int]]] = {}
    for status, row in node["attack_objective"].items():
        row.keys_exactly({o.value for o in NpObjective})
        spans = {o: row[o.value].as_ints(1, 6) for o in NpObjective}
        faces = sorted(f for lo, hi in spans.values() for f in range(lo, hi + 1))
        if faces != list(range(1, 7)):
            raise row.fail("objective ranges must cover 1-6 exactly once")
        objective[str(status)] = {o: (s[0], s[1]) for o, s in spans.items()}
    if set(objective) != {"controls", "contests", "no_campaign"}:
        raise node["attack_objective"].fail("rows must be controls, contests, no_campaign")
    choices = ["objective", "flank_or_rear_within_range", "any_within_range"]
    return Tactics(
        patrol,  # type: ignore[arg-type]
        {k: MoveOrder(r.as_str(orders)) for k, r in rows("defend_movement").items()},
        objective,
        {k: r.as_str(choices) for k, r in rows("pursuing_objective").items()},
        node["distraction_range_in"].as_number(),
        node["flank_bearing_deg"].as_number(),
        {k: MoveOrder(r.as_str(orders)) for k, r in rows("attack_movement").items()},
        node["beaten_away_range_in"].as_number(),
        node["withdrawal_cover_snap_in"].as_number(),
    )


@cache
def tactics() -> Tactics:
    """np_tactics.yaml, parsed once (§22)."""
    return parse_tactics(load_config(CONFIG))


# -- table rolls -----------------------------------------------------------------------------
def np_patrol_reaction(dice: Dice, morale: int) -> PatrolReaction:
    """2d6 vs the NP side's Campaign Morale after a Contact! (§22.1.6; 3 outside a campaign)."""
    faces = dice.roll(2)
    passes = passed_dice(faces, morale)
    posture, after = tactics().patrol[passes]
    return PatrolReaction(faces, passes, posture, after)


def np_defend_move(dice: Dice, leader_rep: int) -> MoveRoll:
    """2d6 vs the group leader's Rep on NP Movement - Defend (§22.2.6)."""
    faces = dice.roll(2)
    passes = passed_dice(faces, leader_rep)
    return MoveRoll("22.2.6", faces, passes, tactics().defend[passes])


def np_attack_move(dice: Dice, leader_rep: int) -> MoveRoll:
    """2d6 vs the group leader's Rep on NP Movement - Attack (§22.3.7)."""
    faces = dice.roll(2)
    passes = passed_dice(faces, leader_rep)
    return MoveRoll("22.3.7", faces, passes, tactics().attack[passes])


def secret_objective(dice: Dice, control: Control) -> ObjectiveRoll:
    """The NP attacker's secret objective by its control status, 1d6 (§22.3.1, ruling 22.3.1)."""
    (face,) = dice.roll(1)
    spans = tactics().objective[control]
    objective = next(o for o, (lo, hi) in spans.items() if lo <= face <= hi)
    return ObjectiveRoll(face, control, objective)


def on_flank_or_rear(group: Sequence[Spotter], enemy: Point) -> bool:
    """Ruling 22.3.6: > 45 deg off the facing of the group mech nearest the enemy (§22.3.6)."""
    near = min(group, key=lambda m: (distance(m.pos, enemy), m.id))
    return angle_between(heading_to(near.pos, enemy), near.facing) > tactics().flank_bearing


def pursue_objective(
    dice: Dice, leader_rep: int, group: Sequence[Spotter], enemies: Sequence[Spotter]
) -> PursuitRoll:
    """2d6 vs leader Rep: follow the objective or turn on a nearby enemy (§22.3.6, rulings).

    ``enemies`` are the enemy mechs the group knows of. Pass 1: the nearest enemy within 12"
    on the flank or rear; pass 0: the nearest within 12", flank or rear preferred; else (and
    on pass 2) None, meaning the objective.
    """
    cfg = tactics()
    faces = dice.roll(2)
    passes = passed_dice(faces, leader_rep)
    rule = cfg.pursuing[passes]

    def gap(e: Spotter) -> float:
        return min((distance(m.pos, e.pos) for m in group), default=math.inf)

    near = [e for e in enemies if gap(e) <= cfg.distraction_range + EPS]
    flank = [e for e in near if on_flank_or_rear(group, e.pos)]
    pool = {"objective": [], "flank_or_rear_within_range": flank}.get(rule, flank or near)
    target = min(pool, key=lambda e: (gap(e), e.id), default=None)
    return PursuitRoll(faces, passes, None if target is None else target.id)


# -- movement goals --------------------------------------------------------------------------
def edge_point(bf: Battlefield, pos: Point, edge: str, margin: float = 0.5) -> Point:
    """The nearest point of table edge ``edge`` to ``pos``, ``margin`` inside (§22.3.6)."""
    x, y = pos
    return {
        "north": (x, bf.height - margin),
        "south": (x, margin),
        "east": (bf.width - margin, y),
        "west": (margin, y),
    }[edge]


def reached_edge(bf: Battlefield, pos: Point, edge: str, tolerance: float = 0.6) -> bool:
    """A withdrawing mech touching its own edge leaves the table (ruling 22.1.6)."""
    return distance(pos, edge_point(bf, pos, edge, 0.0)) <= tolerance


def fighting_withdrawal_move(
    bf: Battlefield,
    pos: Point,
    reach: float,
    own_edge: str,
    *,
    viewer: Point | None = None,
    body_list: Sequence[Body] = (),
) -> Point:
    """Full speed straight to the own edge, ending in cover within 2" if any (§22.1.6 ruling).

    Returns the goal point; ``viewer`` (the nearest known enemy) decides what is cover.
    """
    goal = edge_point(bf, pos, own_edge)
    gap = distance(pos, goal)
    if gap > reach > 0:
        goal = (
            pos[0] + (goal[0] - pos[0]) * reach / gap,
            pos[1] + (goal[1] - pos[1]) * reach / gap,
        )
    if covered(bf, goal, viewer, body_list):
        return goal
    snap = tactics().withdrawal_snap
    steps = [i * 0.5 for i in range(-int(snap * 2), int(snap * 2) + 1)]
    spots = [
        (goal[0] + dx, goal[1] + dy)
        for dx in steps
        for dy in steps
        if math.hypot(dx, dy) <= snap + EPS
        and bf.is_on_table((goal[0] + dx, goal[1] + dy), 0.5)
        and distance(pos, (goal[0] + dx, goal[1] + dy)) <= reach + EPS
        and covered(bf, (goal[0] + dx, goal[1] + dy), viewer, body_list)
    ]
    return min(spots, key=lambda q: (distance(q, goal), q), default=goal)


def defend_goal(
    bf: Battlefield,
    candidates: Sequence[Point],
    enemy: Point,
    own_edge: str,
    *,
    origin: Point,
    body_list: Sequence[Body] = (),
    mover: int = -1,
    ews: bool = False,
    target: int = -1,
) -> Point | None:
    """Ruling 22.2.6: the reachable spot between the enemy and the own edge to take (§22.2.6).

    ``target``: the enemy mech's id (its own base never blocks the line to it).

    Among ``candidates``: LOS to ``enemy``, no farther from the own edge than the enemy, in
    cover if any such is; then closest to the enemy-to-own-edge line, then nearest ``origin``.
    """
    base = edge_point(bf, enemy, own_edge, 0.0)
    limit = distance(enemy, base)
    ok = [
        p
        for p in candidates
        if distance(p, edge_point(bf, p, own_edge, 0.0)) <= limit + EPS
        and sight(
            bf,
            p,
            enemy,
            observer_id=mover,
            target_id=target,
            bodies=body_list,
            observer_has_ews=ews,
        ).visible
    ]
    sheltered = [p for p in ok if covered(bf, p, enemy, body_list)]
    pool = sheltered or ok

    return min(
        pool,
        key=lambda p: (round(point_segment_distance(p, enemy, base), 6), distance(p, origin), p),
        default=None,
    )


_DECIDE_NAMES = frozenset({"np_decide", "known_enemies", "roll_group"})


def __getattr__(name: str) -> Any:
    """Lazy re-exports of :mod:`~.enemy_decide` (avoids an import cycle)."""
    if name in _DECIDE_NAMES:
        return getattr(
            importlib.import_module("wargym.rules.no_quarter.non_player.enemy_decide"), name
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
