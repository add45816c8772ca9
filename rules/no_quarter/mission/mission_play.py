"""A No Quarter mission from set-up to its end (§19-§22, §23.7-§23.8).

:func:`new_mission` builds the table (fixed or generated, §19), rolls day/night and weather
(§22.0, §23.7), deploys the player (entering along the edge of sections 7-9 or set up in
them), hands the enemy to the rules (PEFs, §20; NP tactics, §22) and stops at the first
decision. The orchestrator calls the hooks here: the activation roll (weather on doubles,
reinforcements on a total of 7), player exits, NP withdrawals and the end of the mission.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Action, ChooseObjective, DecisionKind, ExitTable
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.sections import NEAR_ROW
from wargym.rules.no_quarter.battlefield.terrain import path_problem
from wargym.rules.no_quarter.battlefield.weather import (
    WeatherState,
    apply_weather,
    weather_after_activation,
)
from wargym.rules.no_quarter.cestus import cestus_play
from wargym.rules.no_quarter.cestus.cestus_v import (
    building_pef_excluded_sections,
    deployment_zones,
    mission_for_scenario,
)
from wargym.rules.no_quarter.cestus.cestus_v_rolls import np_group_default
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.setup import new_battle_logged
from wargym.rules.no_quarter.forces.vocab import Faction, Removal, Side
from wargym.rules.no_quarter.mission.missions import (
    AttackObjective,
    MissionOptions,
    MissionProgress,
    MissionType,
    OutcomeStatus,
    deployment_zone,
    evaluate_mission,
    recon_complete,
    record_recon,
    tally_side,
)
from wargym.rules.no_quarter.mission.scenario import Scenario, load_scenario
from wargym.rules.no_quarter.non_player import np_events as npev
from wargym.rules.no_quarter.non_player.enemy import (
    NpGroupState,
    NpObjective,
    NpPosture,
    reached_edge,
)
from wargym.rules.no_quarter.non_player.enemy import secret_objective as roll_secret_objective
from wargym.rules.no_quarter.non_player.np_flow import check_reinforcements, start_np
from wargym.rules.no_quarter.sight_movement.bumping import bump, planning_bodies
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.serial import from_jsonable, to_jsonable

PLAYER, ENEMY = Side.BLUE, Side.RED
NP_DEFAULT_POSTURE = {
    MissionType.PATROL: NpPosture.PATROL,
    MissionType.ATTACK: NpPosture.DEFEND,
    MissionType.DEFEND: NpPosture.ATTACK,
}
"""The NP side's posture: it patrols, defends against an Attack, attacks a Defend (§22.0)."""
NP_MISSION = {
    MissionType.PATROL: "patrol",
    MissionType.ATTACK: "defend",
    MissionType.DEFEND: "attack",
}
"""The NP side's own mission for the NP Enemy Mechs table (§20.4)."""
PLAYER_EXITS = {
    MissionType.PATROL: ("south",),
    MissionType.ATTACK: ("north",),
    MissionType.DEFEND: (),
}
"""Edges a player mech may leave by of its own will (report back, break through)."""


def new_mission(
    scenario: Scenario | str | Path,
    rng: np.random.Generator,
    dice: Dice,
    *,
    prepare: Callable[[Battle], None] | None = None,
) -> Battle:
    """Set up a mission (or a skirmish) from a scenario and run it to the first decision.

    ``prepare(battle)`` runs once everything is set up and before any rule is played (a
    campaign writes its company's carried damage and its off-table reserve there). The
    set-up's events: :func:`new_mission_logged`.
    """
    return new_mission_logged(scenario, rng, dice, prepare=prepare)[0]


def new_mission_logged(
    scenario: Scenario | str | Path,
    rng: np.random.Generator,
    dice: Dice,
    *,
    prepare: Callable[[Battle], None] | None = None,
) -> tuple[Battle, list[Event]]:
    """:func:`new_mission` and every event of its set-up and of the play to the first decision.

    The events are those of :func:`setup_mission` (already in its battle) followed by those of
    the first ``game.advance`` (the turn-1 activation roll and what follows it).
    """
    from wargym.rules.no_quarter.battle.game import (
        advance,  # the game sequences set-up, not vice versa
    )

    battle, events = setup_mission(scenario, rng, dice, prepare=prepare)
    return battle, events + advance(battle, dice)


def setup_mission(
    scenario: Scenario | str | Path,
    rng: np.random.Generator,
    dice: Dice,
    *,
    prepare: Callable[[Battle], None] | None = None,
) -> tuple[Battle, list[Event]]:
    """Set a mission up without playing it, and the events of its set-up rolls.

    The events (already applied to the battle) are the pilots' rolls (``PilotCreated``, a
    Free Company's ``FreeCompanyRaces``, §9), the PEF placements and their section
    rolls (§20.0), the secret-objective roll of table 22.3.1 and the NP groups' settings. The
    battle stops before any rule is played: ``game.advance(battle, dice)`` plays on from
    there exactly as :func:`new_mission` does.
    """
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    cestus = mission_for_scenario(sc.name)
    rules = sc.rules()
    conditions = sc.roll_conditions(dice)
    battlefield = sc.battlefield(dice, conditions)
    if cestus is not None and sc.features is None:  # generated (27.4): force the named features
        battlefield = cestus_play.with_named_features(cestus, battlefield)
    options = sc.battle_options()
    kind = sc.mission
    deploy = None
    if kind is not None:
        zones = deployment_zone(kind, battlefield.width, battlefield.height)
        if cestus is not None:
            zones = deployment_zones(cestus)

        def deploy(side: Side, count: int) -> list[tuple[float, float]]:
            return _deploy_in(battlefield, zones, count, rng, options.base_radius)

    battle, created = new_battle_logged(
        sc.force_specs(),
        battlefield,
        rng,
        dice,
        options,
        rules=rules,
        deploy=deploy if kind is not None else None,
        require_both=kind is None,
    )
    _fixed_reps(battle, sc)
    if kind is None:
        if prepare is not None:
            prepare(battle)
        return battle, created
    if cestus is not None:
        battle.home_edges = {PLAYER: cestus.home_edge, ENEMY: cestus.np_home_edge}
    battle.mission = {
        "scenario": sc.name,
        "kind": kind.value,
        "exit_edges": {},
        "recon": [],
        "options": to_jsonable(sc.mission_options()),
        "weather": to_jsonable(conditions.weather),
        "night": conditions.night,
        "attack_objective": None,
        "np_objective": None,
        "outcome": None,
        "player_started": len(battle.mechs_of(PLAYER)),
        **(cestus_play.start_state(cestus) if cestus is not None else {}),
    }
    ctx = Ctx(battle, dice, rules)
    default = NpGroupState(posture=NP_DEFAULT_POSTURE[kind], own_edge="north", exit_edge="south")
    excluded = list(NEAR_ROW) if kind is MissionType.DEFEND else []
    standard_pefs = True
    if cestus is not None:
        rolled_later = kind is MissionType.DEFEND and sc.np_objective is None
        if not rolled_later:  # otherwise set once the objective is rolled, below
            default = np_group_default(cestus, sc.np_objective)
        excluded = list(building_pef_excluded_sections(cestus))
        standard_pefs = cestus.pef_placement.kind == "standard"
    start_np(
        ctx,
        side=ENEMY,
        faction=sc.enemy.faction,
        mission=NP_MISSION[kind],
        morale=sc.enemy.campaign_morale,
        player_morale=sc.player.campaign_morale,
        player_faction=sc.player.faction,
        default=default,
        excluded_sections=excluded,
        pefs=standard_pefs,
    )
    if not standard_pefs and cestus is not None:  # Missions 6-8 place their own (§27.8)
        cestus_play.opening_pefs(ctx, cestus)  # Mission 8: hidden in its sections (20.0)
    if kind is MissionType.DEFEND:
        objective = sc.np_objective
        if objective is None:
            roll = roll_secret_objective(dice, _control(sc))
            ctx.emit(npev.NpTableRolled("22.3.1", None, (roll.face,), None, roll.objective.value))
            objective = AttackObjective(roll.objective.value)
        battle.mission["np_objective"] = objective.value
        if cestus is not None:
            default = np_group_default(cestus, objective)
        state = dataclasses.replace(default, objective=NpObjective(objective.value))
        ctx.emit(npev.NpGroupSet(-1, to_jsonable(state), "secret objective"))
        battle.np["default"] = to_jsonable(state)  # type: ignore[index]
    if kind is MissionType.ATTACK:
        if sc.attack_objective is not None:
            battle.mission["attack_objective"] = sc.attack_objective.value
        else:
            battle.frames.append({"kind": "objective"})
    if prepare is not None:
        prepare(battle)  # last, before any rule acts: nothing has rolled for the mechs yet
    return battle, created + ctx.log


def _control(sc: Scenario) -> Literal["controls", "contests", "no_campaign"]:
    status = sc.np_status.value
    if status == "controls":
        return "controls"
    return "contests" if status == "contests" else "no_campaign"


def _fixed_reps(battle: Battle, sc: Scenario) -> None:
    for side, setup in ((PLAYER, sc.player), (ENEMY, sc.enemy)):
        if setup.reps is None:
            continue
        for mech, rep in zip(battle.mechs_of(side), setup.reps, strict=False):
            mech.rep = rep
            mech.pilot = dataclasses.replace(mech.pilot, rep=rep)


def _deploy_in(
    battlefield: object,
    zones: tuple[tuple[float, float, float, float], ...],
    count: int,
    rng: np.random.Generator,
    radius: float,
) -> list[tuple[float, float]]:
    """Random legal, non-overlapping points inside the deployment zones (ruling 28)."""
    from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body

    assert isinstance(battlefield, Battlefield)
    points: list[tuple[float, float]] = []
    for _attempt in range(60 * count):
        if len(points) == count:
            break
        x0, y0, x1, y1 = zones[int(rng.integers(len(zones)))]
        p = (
            float(rng.uniform(x0 + radius, x1 - radius)),
            float(rng.uniform(max(y0, radius), max(y1, radius + 1e-3))),
        )
        blockers = [Body(-1 - i, q, radius) for i, q in enumerate(points)]
        if path_problem(battlefield, [p, p], mover_id=-99, bodies=blockers, radius=radius) is None:
            points.append((round(p[0], 3), round(p[1], 3)))
    if len(points) < count:  # crowded: pack the zone row by row instead
        return _lattice_fill(battlefield, zones, count, radius)
    return points


def _lattice_fill(
    battlefield: object,
    zones: tuple[tuple[float, float, float, float], ...],
    count: int,
    radius: float,
) -> list[tuple[float, float]]:
    """Pack a crowded zone row by row; big forces queue up to 5" deeper (ruling 28)."""
    from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body

    assert isinstance(battlefield, Battlefield)
    points: list[tuple[float, float]] = []
    spacing = 2 * radius + 0.01
    for extra in range(6):
        for x0, y0, x1, y1 in zones:
            north = y0 > battlefield.height / 2  # a zone on the north edge grows southwards
            y = y1 - radius - extra if north else y0 + radius + extra
            x = x0 + radius
            while x <= x1 - radius + 1e-9 and len(points) < count:
                p = (round(x, 3), round(y, 3))
                blockers = [Body(-1 - i, q, radius) for i, q in enumerate(points)]
                inside = radius <= y <= battlefield.height - radius
                if (
                    inside
                    and path_problem(
                        battlefield, [p, p], mover_id=-99, bodies=blockers, radius=radius
                    )
                    is None
                ):
                    points.append(p)
                x += spacing
        if len(points) >= count:
            return points
    raise ValueError(f"could not deploy {count} mechs in the mission's zone")


# -- the Attack objective decision (§22.2.1) ----------------------------------------------------
def objective_step(ctx: Ctx, frame: Frame) -> None:
    """Ask the attacker for its objective."""
    ctx.ask(PLAYER, DecisionKind.CHOOSE_OBJECTIVE)


def objective_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Destroy every enemy, or break through with 3/4 of the force (§22.2.1)."""
    return [ChooseObjective(o.value) for o in AttackObjective]


def objective_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Record the secret objective."""
    assert isinstance(action, ChooseObjective) and ctx.battle.mission is not None
    ctx.battle.mission["attack_objective"] = action.objective
    ctx.pop(frame)


OBJECTIVE = FunctionHandler(objective_step, objective_options, objective_act)


# -- hooks --------------------------------------------------------------------------------------
def on_activation_roll(ctx: Ctx, blue: int, red: int) -> None:
    """Weather changes on the first doubles (§23.7)."""
    mission = ctx.battle.mission
    if mission is None:
        return
    state = from_jsonable(WeatherState, mission["weather"])
    after = weather_after_activation(state, (blue, red))
    if after != state:
        bf = apply_weather(ctx.battle.battlefield, after, night=bool(mission["night"]))
        ctx.emit(
            npev.WeatherChanged((blue, red), to_jsonable(after), bf.night, bf.inclement_weather)
        )


def on_turn_rolled(ctx: Ctx, blue: int, red: int) -> None:
    """Reinforcements when the activation dice total 7 (§23.8.3)."""
    check_reinforcements(ctx, blue, red)


def np_exit_edges(battle: Battle, mech_id: int) -> tuple[str, ...]:
    """Edges an NP mech may leave by of its own will: its break-through edge (§22.3.1).

    A group on the attack whose objective is to break through (a Defend mission's rolled
    objective 2, Cestus V Missions 7 and 8) leaves across ``exit_edge`` of its group state;
    no other NP group leaves by choice (withdrawing groups leave by :func:`withdraw_np`).
    """
    np = battle.np
    mech = battle.mechs[mech_id]
    if np is None or mech.side.value != np["side"]:
        return ()
    data = np["groups"].get(str(mech.team), np["default"])
    state = from_jsonable(NpGroupState, data)
    if state.posture is not NpPosture.ATTACK or state.objective is not NpObjective.BREAK_THROUGH:
        return ()
    return (state.exit_edge,)


def exit_options(battle: Battle, mech_id: int, allowance: float) -> list[Action]:
    """A mech within reach of an exit edge may leave the table (§22.0 rulings, §22.3.1).

    Player mechs by their mission's exit edges; NP mechs by :func:`np_exit_edges`.
    """
    mission = battle.mission
    if mission is None:
        return []
    mech = battle.mechs[mech_id]
    bf = battle.battlefield
    options: list[Action] = []
    if mech.side is PLAYER:
        edges = cestus_play.exit_edges(battle)
        if edges is None:
            edges = PLAYER_EXITS[MissionType(mission["kind"])]
    else:
        edges = np_exit_edges(battle, mech_id)
    for edge in edges:
        target = _edge_target(battle, mech.pos, edge)
        if distance(mech.pos, target) > allowance:
            continue
        others = planning_bodies(battle, mech)
        if (
            path_problem(
                bf,
                [mech.pos, target],
                mover_id=mech.id,
                bodies=others,
                radius=battle.options.base_radius,
                allow_off_table=True,
            )
            is None
        ):
            options.append(ExitTable(mech.id, edge))
    return options


def _edge_target(battle: Battle, pos: tuple[float, float], edge: str) -> tuple[float, float]:
    bf = battle.battlefield
    return {
        "north": (pos[0], bf.height),
        "south": (pos[0], 0.0),
        "east": (bf.width, pos[1]),
        "west": (0.0, pos[1]),
    }[edge]


def exit_table(ctx: Ctx, mech_id: int, edge: str) -> None:
    """Leave the table voluntarily: not a casualty, no Mech Down (§22.0 rulings)."""
    battle = ctx.battle
    mech = battle.mechs[mech_id]
    target = _edge_target(battle, mech.pos, edge)
    inches = distance(mech.pos, target)
    heading = {"north": 90.0, "south": 270.0, "east": 0.0, "west": 180.0}[edge]
    blocked = bump(battle, mech, target)
    if blocked is not None:  # an unseen base bars the way off the table (choice E5)
        stop, blocker = blocked
        if stop != mech.pos:
            moved = distance(mech.pos, stop)
            ctx.emit(ev.MechMoved(mech.id, (mech.pos, stop), heading, moved, moved, "voluntary"))
        ctx.emit(ev.MoveBlocked(mech.id, blocker, target, stop))
        return
    cestus_play.note_exit(battle, mech.pos, edge, player=mech.side is PLAYER)
    ctx.emit(ev.MechMoved(mech.id, (mech.pos, target), heading, inches, inches, "exit"))
    mission = battle.mission
    reporting = mech.side is PLAYER and edge == "south"
    if mission is not None and mission["kind"] == MissionType.PATROL.value and reporting:
        note_recon(battle)
        complete = recon_complete(
            MissionProgress(MissionType.PATROL, recon=frozenset(mission["recon"]))
        )
        mission["reported_back"] = int(mission.get("reported_back", 0)) + int(complete)
    ctx.emit(ev.MechLeftTable(mech.id, edge))
    ctx.emit(ev.MechRemoved(mech.id, Removal.LEFT_TABLE, mech.side, mech.mech_class))


def withdraw_np(ctx: Ctx) -> None:
    """Withdrawing NP mechs that reached their edge leave the table (§22.1.6 ruling)."""
    battle = ctx.battle
    np = battle.np
    if np is None:
        return
    for mech in battle.mechs_of(Side(np["side"])):
        state = np["groups"].get(str(mech.team))
        if state is None or state.get("posture") != NpPosture.WITHDRAW.value:
            continue
        edge = state.get("own_edge", "north")
        if reached_edge(battle.battlefield, mech.pos, edge):
            cestus_play.note_exit(battle, mech.pos, edge, player=False)
            ctx.emit(npev.MechWithdrew(mech.id, edge))
            ctx.emit(ev.MechLeftTable(mech.id, edge))
            ctx.emit(ev.MechRemoved(mech.id, Removal.LEFT_TABLE, mech.side, mech.mech_class))


def progress_of(battle: Battle) -> MissionProgress:
    """The mission's objective tally, computed from the battle (§22)."""
    mission = battle.mission
    assert mission is not None and battle.np is not None
    edges = {int(k): v for k, v in mission["exit_edges"].items()}
    player = tally_side(battle.mechs.values(), PLAYER, edges)
    player = dataclasses.replace(player, started=int(mission["player_started"]))
    enemy = tally_side(battle.mechs.values(), ENEMY, edges)
    objective = mission["attack_objective"]
    np_objective = mission["np_objective"]
    return MissionProgress(
        mission=MissionType(mission["kind"]),
        turn=max(0, battle.turn - 1),
        player=player,
        enemy=enemy,
        pefs_on_table=len(battle.np["pefs"]),
        recon=frozenset(mission["recon"]),
        reported_back=int(mission.get("reported_back", 0)),
        attack_objective=AttackObjective(objective) if objective else None,
        np_objective=AttackObjective(np_objective) if np_objective else None,
    )


def note_recon(battle: Battle) -> None:
    """Far sections a player mech has reached count as reconnoitred (Patrol, §22.1.1)."""
    mission = battle.mission
    if mission is None or mission["kind"] != MissionType.PATROL.value:
        return
    progress = MissionProgress(MissionType.PATROL, recon=frozenset(mission["recon"]))
    for mech in battle.mechs_of(PLAYER):
        progress = record_recon(
            progress, mech.pos, battle.battlefield.width, battle.battlefield.height
        )
    mission["recon"] = sorted(progress.recon)


def mission_over(ctx: Ctx, turn_limit_reached: bool = False, end_of_turn: bool = False) -> bool:
    """Judge the mission; at its end log the outcome and end the battle (§22)."""
    battle = ctx.battle
    mission = battle.mission
    if mission is None or battle.over:
        return False
    if mission["kind"] == MissionType.ATTACK.value and mission["attack_objective"] is None:
        return False
    note_recon(battle)
    options = from_jsonable(MissionOptions, mission["options"])
    progress = progress_of(battle)
    if turn_limit_reached:  # the battle's turn limit ends the mission too (ruling D37)
        progress = dataclasses.replace(progress, turn=battle.turn)
        limit = min(options.turn_limit or battle.turn, battle.turn)
        options = dataclasses.replace(options, turn_limit=max(1, limit))
    cestus = cestus_play.evaluate(battle, progress, options.turn_limit, end_of_turn)
    outcome = cestus if cestus is not None else evaluate_mission(progress, options)
    if not outcome.over:
        return False
    ctx.emit(npev.MissionEnded(outcome.status.value, outcome.reason, battle.turn))
    winner = {OutcomeStatus.SUCCESS: PLAYER, OutcomeStatus.FAILURE: ENEMY}.get(outcome.status)
    ctx.emit(
        ev.BattleEnded(winner, f"mission {outcome.status.value}: {outcome.reason}", battle.turn)
    )
    return True


__all__ = [
    "OBJECTIVE",
    "Faction",
    "exit_options",
    "exit_table",
    "mission_over",
    "new_mission",
    "new_mission_logged",
    "setup_mission",
    "np_exit_edges",
    "on_activation_roll",
    "on_turn_rolled",
    "progress_of",
    "withdraw_np",
]
