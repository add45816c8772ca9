"""Cestus V objectives: a typed progress summary and pure evaluation per objective kind (§27.8).

The engine keeps a :class:`CestusProgress` (the generic
:class:`~wargym.rules.no_quarter.mission.missions.MissionProgress` plus the counters the Cestus V
objectives need) and calls :func:`cestus_evaluate` instead of ``missions.evaluate_mission``.
The geometric helpers here turn positions and exits into those counters. Data (missions,
tables, maps) comes from :mod:`~wargym.rules.no_quarter.cestus.cestus_v_data`; dice, scenarios and
campaign rules from :mod:`~.cestus_v_rolls`; both are re-exported here,
so ``from wargym.rules.no_quarter.cestus.cestus_v import ...`` is the one public entry point.

Rulings (digest §27.8 and decisions 29, 32-37), each an option of :class:`CestusOptions` where
the digest allows an alternative:

* force ratios count every mech of the side that has been on the table (ruling 29), rounded
  up, at least one; voluntary exits are not casualties;
* exit objectives (Missions 3, 5, 9) end as soon as the threshold is met (decision 32);
* The Troll's bridgehead (Mission 2) is judged at the end of a turn; bridge objectives need
  3 functioning mechs across, all survivors if fewer, at least one (decision 33);
* a turn limit (not in the book) ends the mission with success exactly when the success
  condition holds at that moment.

>>> from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
>>> m3 = campaign_definition().mission(3)
>>> required_exits(m3, 36)
18
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.sections import (
    distance_to_edge,
    edge_segments,
    entry_zone,
    exits_through,
    section_of,
    setup_zone,
)
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.cestus.cestus_v_data import (
    CestusCampaign,
    CestusMission,
    MissionEnd,
    NpObjectiveRule,
    ObjectiveKind,
    PefPlacementKind,
    TrollPlacement,
    campaign_definition,
    load_mission,
)
from wargym.rules.no_quarter.cestus.cestus_v_rolls import (
    AftermathSteps,
    CampaignEnd,
    ForceClassRoll,
    TrollResult,
    aftermath_steps,
    campaign_end,
    cestus_force,
    contact_enemies,
    default_mechs,
    force_class_for,
    force_size,
    force_table,
    mission_scenario,
    np_group_default,
    pef_contact_deltas,
    pef_entry_points,
    roll_force_class,
    roll_starting_company,
    roll_troll,
    side_factions,
    starting_morale,
    troll_force,
    troll_position,
)
from wargym.rules.no_quarter.mission.missions import (
    MissionProgress,
    Outcome,
    OutcomeStatus,
    SideTally,
)
from wargym.rules.no_quarter.sight_movement.geometry import Point, point_rect_distance

Rect = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class CestusOptions:
    """Rulings of the Cestus V objectives as options; defaults are the digest's (§27.8)."""

    turn_limit: int | None = None
    """End after this many turns (not in the book): success iff the condition holds then."""
    ratio_denominator: Literal["fielded", "started"] = "fielded"
    """"Half of the force" counts every mech that has been on the table (ruling 29)."""
    ratio_rounding: Literal["up", "down"] = "up"
    exit_ends_on_threshold: bool = True
    """Missions 3, 5, 9 end as soon as the exit threshold is met (decision 32)."""
    clear_ends_mission: bool = True
    """Mission 8 ends when no PEF and no Hishen mech remain (27.8 mission_end); False: play on
    until the bridge condition holds or no player mech is left."""
    bridgehead_at_end_of_turn: bool = True
    """Mission 2's bridgehead is judged only at the end of a turn (27.8 ruling)."""

    def __post_init__(self) -> None:
        if self.turn_limit is not None and self.turn_limit < 1:
            raise RulesError(f"turn_limit: {self.turn_limit} must be at least 1")


@dataclass(frozen=True, slots=True)
class CestusProgress:
    """What the Cestus V objectives depend on; kept by the engine, judged here (§27.8)."""

    mission: int
    turn: int = 0
    """Turns completed."""
    end_of_turn: bool = False
    """True when judged at the end of a turn (Mission 2)."""
    player: SideTally = SideTally()
    enemy: SideTally = SideTally()
    pefs_on_table: int = 0
    recon: frozenset[int] = frozenset()
    """Mission 1: far sections reconnoitred (:func:`recon_section`)."""
    reported_back: int = 0
    """Mission 1: voluntary exits across the report edge after the recon was complete."""
    objective_exits: int = 0
    """Missions 3, 5, 9, 6: voluntary player exits that count (:func:`counts_as_objective_exit`)."""
    enemy_forbidden_exits: int = 0
    """Missions 7, 8: NP mechs that left through a forbidden section (:func:`is_forbidden_exit`)."""
    enemy_near_objective: int = 0
    """Mission 2: functioning NP mechs within the clear radius of the bridge."""
    pefs_near_objective: int = 0
    """Mission 2: unresolved PEFs within the clear radius of the bridge."""
    player_at_objective: int = 0
    """Missions 2, 8: functioning player mechs holding the far bank (:func:`bridgehead_counts`)."""
    village_checked: frozenset[str] = frozenset()
    """Mission 4: village buildings whose building PEF was generated (:func:`village_checked`)."""

    @classmethod
    def from_mission_progress(
        cls,
        progress: MissionProgress,
        mission: int,
        *,
        end_of_turn: bool = False,
        objective_exits: int = 0,
        enemy_forbidden_exits: int = 0,
        enemy_near_objective: int = 0,
        pefs_near_objective: int = 0,
        player_at_objective: int = 0,
        village_checked: frozenset[str] = frozenset(),
    ) -> CestusProgress:
        """The generic tally (``mission_play.progress_of``) plus the Cestus V counters."""
        return cls(
            mission,
            progress.turn,
            end_of_turn,
            progress.player,
            progress.enemy,
            progress.pefs_on_table,
            progress.recon,
            progress.reported_back,
            objective_exits,
            enemy_forbidden_exits,
            enemy_near_objective,
            pefs_near_objective,
            player_at_objective,
            village_checked,
        )


# -- thresholds ------------------------------------------------------------------------------
def required_exits(
    mission: CestusMission, denominator: int, rounding: Literal["up", "down"] = "up"
) -> int:
    """Mechs that must exit for the mission's fraction of the force, at least 1 (ruling 29)."""
    exact = mission.objective.fraction * denominator
    return max(1, math.ceil(exact) if rounding == "up" else math.floor(exact))


def required_holders(mission: CestusMission, survivors: int) -> int:
    """Mechs needed across the bridge: min_mechs, all survivors if fewer, >= 1 (decision 33)."""
    return max(1, min(mission.objective.min_mechs, survivors))


def _denominator(p: CestusProgress, o: CestusOptions) -> int:
    return p.player.fielded if o.ratio_denominator == "fielded" else p.player.started


def objective_met(
    mission: CestusMission, progress: CestusProgress, options: CestusOptions | None = None
) -> bool:
    """Whether the mission's success condition holds now (§27.8, N.0.1 and its rulings)."""
    o, p, obj = options or CestusOptions(), progress, mission.objective
    clear = p.enemy.on_table <= 0 and p.pefs_on_table <= 0
    kind = obj.kind
    if kind is ObjectiveKind.RECON_REPORT:
        return set(obj.recon_sections) <= p.recon and p.reported_back >= 1
    if kind is ObjectiveKind.BRIDGEHEAD:
        timing = p.end_of_turn or not o.bridgehead_at_end_of_turn
        return (
            timing
            and p.player.on_table > 0
            and p.enemy_near_objective <= 0
            and p.pefs_near_objective <= 0
            and p.player_at_objective >= required_holders(mission, p.player.on_table)
        )
    if kind is ObjectiveKind.EXIT_FRACTION:
        return p.objective_exits >= required_exits(mission, _denominator(p, o), o.ratio_rounding)
    if kind is ObjectiveKind.CLEAR_VILLAGE:
        return clear and set(obj.village) <= p.village_checked
    if kind is ObjectiveKind.WITHDRAWAL:
        enough = p.objective_exits >= required_exits(mission, _denominator(p, o), o.ratio_rounding)
        even = p.enemy.casualties >= p.player.casualties or not obj.enemy_casualties_at_least_own
        return enough and even
    if kind is ObjectiveKind.STONEWALL:
        return p.enemy_forbidden_exits <= 0
    if kind is ObjectiveKind.PICK_AND_ROLL:
        holders = p.player.on_table > 0 and p.player_at_objective >= required_holders(
            mission, p.player.on_table
        )
        return p.enemy_forbidden_exits <= 0 and holders
    return clear  # DESTROY_ALL


def objective_lost(mission: CestusMission, progress: CestusProgress) -> bool:
    """Whether success has become impossible: a forbidden Hishen exit (Missions 7, 8)."""
    return bool(mission.objective.forbid_enemy_exit_sections) and progress.enemy_forbidden_exits > 0


def cestus_evaluate(
    mission: CestusMission, progress: CestusProgress, options: CestusOptions | None = None
) -> Outcome:
    """Judge a Cestus V mission now: status, whether it is over and why (§27.7, §27.8).

    Call after deployment and PEF placement, after each activation and (with
    ``end_of_turn=True`` in the progress) at the end of each turn.
    """
    if progress.mission != mission.number:
        raise RulesError(f"progress of mission {progress.mission} judged as {mission.number}")
    o, p = options or CestusOptions(), progress
    won, failed, going = OutcomeStatus.SUCCESS, OutcomeStatus.FAILURE, OutcomeStatus.ONGOING
    met = objective_met(mission, p, o)
    gone = p.player.on_table <= 0
    clear = p.enemy.on_table <= 0 and p.pefs_on_table <= 0
    end = mission.mission_end
    status = won if met else failed
    if end is MissionEnd.NO_PLAYER_MECH:
        if gone or met:  # success so far (Mission 6 may still lose it), over when gone
            return Outcome(status, gone, "no player mech left on the table" if gone else "met")
    elif end is MissionEnd.SUCCESS_OR_NO_PLAYER_MECH:
        if met:
            return Outcome(won, True, f"{mission.objective.kind.value} achieved")
        if gone:
            return Outcome(failed, True, "no player mech left on the table")
    elif end is MissionEnd.THRESHOLD_OR_NO_PLAYER_MECH:
        if met:
            return Outcome(won, gone or o.exit_ends_on_threshold, "enough mechs exited")
        if gone:
            return Outcome(status, True, "no player mech left on the table")
    elif end is MissionEnd.EXIT_OR_CLEAR_OR_NO_PLAYER_MECH:
        if objective_lost(mission, p):
            return Outcome(failed, True, "a Hishen mech got through")
        if clear:
            return Outcome(won, True, "no PEF and no enemy mech remain")
        if gone:
            return Outcome(failed, True, "no player mech left on the table")
    else:  # CLEAR_OR_NO_PLAYER_MECH
        if gone:
            return Outcome(status, True, "no player mech left on the table")
        if clear and (o.clear_ends_mission or met or objective_lost(mission, p)):
            return Outcome(status, True, "no PEF and no enemy mech remain")
    if o.turn_limit is not None and p.turn >= o.turn_limit:
        return Outcome(status, True, f"turn limit {o.turn_limit} reached")
    return Outcome(going, False, "in progress")


# -- geometry: what counts -------------------------------------------------------------------
def recon_section(mission: CestusMission, pos: Point) -> int | None:
    """The far section a player mech ending an activation at ``pos`` reconnoitres (§27.8 M1)."""
    obj = mission.objective
    if obj.kind is not ObjectiveKind.RECON_REPORT:
        return None
    if distance_to_edge(pos, "north") > obj.within_in + 1e-9:
        return None
    section = section_of(pos)
    return section if section in obj.recon_sections else None


def player_exit_edges(mission: CestusMission, turn: int) -> tuple[str, ...]:
    """Edges a player mech may leave by voluntarily on ``turn`` (1-based) (§27.8 rulings).

    Mission 1 reports back south; exit objectives leave by the edges bordering their section
    (Mission 9 also east); Mission 6 withdraws north from its turn 5 (decision 35); elsewhere
    no voluntary exit serves the objective and none is offered.
    """
    obj = mission.objective
    if obj.kind is ObjectiveKind.RECON_REPORT:
        return (obj.report_edge,)
    if obj.kind is ObjectiveKind.EXIT_FRACTION:
        edges = [seg.edge for seg in edge_segments(obj.exit_sections)]
        return tuple(dict.fromkeys(edges))
    if obj.kind is ObjectiveKind.WITHDRAWAL:
        return (obj.edge,) if may_withdraw(mission, turn) else ()
    return ()


def may_withdraw(mission: CestusMission, turn: int) -> bool:
    """No voluntary exit before turn 5 in Mission 6 (turns count from 1) (§27.8 M6, dec. 35)."""
    limit = mission.special.no_withdrawal_before_turn
    return limit is None or turn >= limit


def counts_as_objective_exit(mission: CestusMission, pos: Point, edge: str, turn: int) -> bool:
    """Whether a voluntary player exit at ``pos`` across ``edge`` counts (§27.8 M3, 5, 6, 9)."""
    obj = mission.objective
    if obj.kind is ObjectiveKind.EXIT_FRACTION:
        return exits_through(pos, edge, obj.exit_sections)
    if obj.kind is ObjectiveKind.WITHDRAWAL:
        return edge == obj.edge and turn >= obj.not_before_turn
    return False


def is_forbidden_exit(mission: CestusMission, pos: Point, edge: str) -> bool:
    """Whether an NP mech leaving at ``pos`` across ``edge`` breaks the objective (M7, M8)."""
    sections = mission.objective.forbid_enemy_exit_sections
    return bool(sections) and exits_through(pos, edge, sections)


@dataclass(frozen=True, slots=True)
class BridgeheadCounts:
    """The bridge counters of :class:`CestusProgress` (§27.8 M2, M8)."""

    enemy_near_objective: int
    pefs_near_objective: int
    player_at_objective: int


def on_bridge(mission: CestusMission, pos: Point) -> bool:
    """Whether ``pos`` lies on the mission's bridge (M8: mark mechs that crossed by it)."""
    name = mission.objective.bridge
    return bool(name) and any(f.contains(pos) for f in mission.feature(name).features)


def bridgehead_counts(
    mission: CestusMission,
    player: Sequence[tuple[int, Point]],
    enemies: Sequence[Point],
    pefs: Sequence[Point],
    crossed: Collection[int] = (),
) -> BridgeheadCounts:
    """Count the bridge objective from positions (§27.8 M2, M8; decision 33).

    ``player``: (id, position) of functioning player mechs on the table; ``enemies``: positions
    of functioning NP mechs; ``pefs``: unresolved PEF markers; ``crossed``: ids of player mechs
    that have stood on the bridge (Mission 8: only they count).
    """
    obj = mission.objective
    if obj.kind not in (ObjectiveKind.BRIDGEHEAD, ObjectiveKind.PICK_AND_ROLL):
        return BridgeheadCounts(0, 0, 0)
    bx0, by0, bx1, by1 = mission.feature(obj.bridge).rect
    far_bank = mission.feature(obj.river).rect[3]
    if obj.kind is ObjectiveKind.PICK_AND_ROLL:
        holding = sum(
            1
            for i, p in player
            if i in crossed and p[1] > far_bank and section_of(p) == obj.into_section
        )
        return BridgeheadCounts(0, 0, holding)
    near = obj.clear_radius_in + 1e-9

    def close(p: Point) -> bool:
        return point_rect_distance(p, bx0, by0, bx1, by1) <= near

    north_end = (bx0, by1, bx1, by1)
    holding = sum(
        1
        for _, p in player
        if p[1] > far_bank and point_rect_distance(p, *north_end) <= obj.hold_radius_in + 1e-9
    )
    return BridgeheadCounts(
        sum(1 for p in enemies if close(p)), sum(1 for p in pefs if close(p)), holding
    )


def village_checked(
    mission: CestusMission,
    used_buildings: Collection[int],
    battlefield: Battlefield | None = None,
) -> frozenset[str]:
    """Village buildings whose building PEF was generated (``np['used_buildings']``) (M4).

    ``battlefield``: the one played, when it is not the mission map (generated terrain, 27.4):
    a village building is found there by where it stands.
    """

    def indices(name: str) -> tuple[int, ...]:
        if battlefield is None:
            return mission.feature_indices(name)
        rects = {(f.x0, f.y0, f.x1, f.y1) for f in mission.feature(name).features}
        return tuple(
            i for i, f in enumerate(battlefield.features) if (f.x0, f.y0, f.x1, f.y1) in rects
        )

    return frozenset(
        name
        for name in mission.objective.village
        if any(i in used_buildings for i in indices(name))
    )


def deployment_zones(mission: CestusMission, depth: float = 1.0) -> tuple[Rect, ...]:
    """Where the player's mech centres start: the entry strip or set-up sections (27.8 N.0.4)."""
    d = mission.deployment
    if d.kind == "set_up":
        return setup_zone(d.sections)
    return entry_zone(d.sections, d.edge, depth)


def mission_for_scenario(name: str) -> CestusMission | None:
    """The Cestus V mission a scenario of :func:`mission_scenario` was built from, or None."""
    for mission in campaign_definition().missions:
        if name in (f"cestus_v_{mission.stem}_{side}" for side in ("gaea_prime", "hishen")):
            return mission
    return None


def building_pef_excluded_sections(mission: CestusMission) -> tuple[int, ...]:
    """The player's set-up sections: their buildings never make PEFs (decision 14; M6, M7)."""
    return mission.deployment.sections if mission.deployment.kind == "set_up" else ()


__all__ = [
    "AftermathSteps",
    "BridgeheadCounts",
    "CampaignEnd",
    "CestusCampaign",
    "CestusMission",
    "CestusOptions",
    "CestusProgress",
    "ForceClassRoll",
    "NpObjectiveRule",
    "PefPlacementKind",
    "TrollPlacement",
    "TrollResult",
    "aftermath_steps",
    "bridgehead_counts",
    "building_pef_excluded_sections",
    "campaign_definition",
    "campaign_end",
    "cestus_evaluate",
    "cestus_force",
    "contact_enemies",
    "counts_as_objective_exit",
    "default_mechs",
    "deployment_zones",
    "force_class_for",
    "force_size",
    "force_table",
    "is_forbidden_exit",
    "load_mission",
    "may_withdraw",
    "mission_for_scenario",
    "mission_scenario",
    "np_group_default",
    "objective_lost",
    "objective_met",
    "on_bridge",
    "pef_contact_deltas",
    "pef_entry_points",
    "player_exit_edges",
    "recon_section",
    "required_exits",
    "required_holders",
    "roll_force_class",
    "roll_starting_company",
    "roll_troll",
    "side_factions",
    "starting_morale",
    "troll_force",
    "troll_position",
    "village_checked",
]
