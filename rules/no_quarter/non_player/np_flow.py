"""The solo-play enemy in play: PEFs, contacts, NP decisions, reinforcements (§20, §22, §23.8).

The non-player (NP) side is run by the rules, not by an agent: its decisions are taken by
:func:`~.enemy.np_decide`, its PEFs move after its groups (§22.4) and
are resolved the moment a player group and the marker see each other (§20.3). What a PEF
holds is rolled only then. Reinforcements are checked when the activation dice total 7.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from wargym.rules.dice import Dice
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler, insight_frame
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.cestus import cestus_play
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.records import Pilot
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Side
from wargym.rules.no_quarter.mission.reinforcements import (
    arrival_positions,
    arrival_ranks,
    reinforcement_check,
    reinforcement_entry,
    reinforcement_force,
    reinforcement_side,
    reinforcement_size,
)
from wargym.rules.no_quarter.non_player import np_events as npev
from wargym.rules.no_quarter.non_player.arrival_spots import contact_spots, reinforcement_spots
from wargym.rules.no_quarter.non_player.enemy import (
    NpContext,
    NpGroupState,
    NpPosture,
    np_decide,
    np_patrol_reaction,
)
from wargym.rules.no_quarter.non_player.pef import (
    PefMarker,
    Spotter,
    building_pef_triggers,
    contact_multiplier,
    np_enemy_mechs,
    pef_detected,
    pef_may_move,
    pef_move,
    pef_order,
    place_pefs,
    resolve_pef,
    spotters_of,
)
from wargym.rules.no_quarter.non_player.pef_tables import MissionKind, NpEnemyForce
from wargym.rules.no_quarter.sight_movement.geometry import distance, heading_to
from wargym.rules.no_quarter.sight_movement.perception import bodies, new_sightings
from wargym.rules.serial import from_jsonable, to_jsonable


def np_side(battle: Battle) -> Side | None:
    """The side the rules play, if any."""
    return None if battle.np is None else Side(battle.np["side"])


def start_np(
    ctx: Ctx,
    *,
    side: Side,
    faction: Faction,
    mission: str,
    morale: int,
    player_morale: int,
    player_faction: Faction,
    default: NpGroupState,
    excluded_sections: list[int],
    pefs: bool = True,
) -> None:
    """Hand ``side`` to the rules and place the opening PEFs (§20.0, §22.0)."""
    battle = ctx.battle
    battle.np = {
        "side": side.value,
        "faction": faction.value,
        "player_faction": player_faction.value,
        "mission": mission,
        "morale": morale,
        "player_morale": player_morale,
        "pefs": [],
        "next_pef": 0,
        "used_buildings": [],
        "excluded_sections": list(excluded_sections),
        "keep_lowest_two": False,
        "contact_so_far": False,
        "groups": {},
        "default": to_jsonable(default),
        "revealed": 0,
        "check_due": False,
        "next_team": 200,
        "player_mechs_fielded": len(battle.mechs_of(side.other)),
    }
    if not pefs:
        return
    spotters = spotters_of(battle, side.other)
    edge = battle.home_edges.get(side.other, "south")
    for i, placed in enumerate(
        place_pefs(battle.battlefield, spotters, ctx.dice, bodies=bodies(battle), player_edge=edge)
    ):
        ctx.emit(npev.PefPlaced(i, placed.pos, placed.face, placed.section, placed.hidden, None))


def _context(battle: Battle) -> NpContext:
    np = battle.np
    assert np is not None
    groups = {int(k): from_jsonable(NpGroupState, v) for k, v in np["groups"].items()}
    return NpContext(groups=groups, default=from_jsonable(NpGroupState, np["default"]))


def np_choose(ctx: Ctx, options: list[Action]) -> Action:
    """The NP side's choice at the pending decision, rolls logged (§22.4)."""
    battle = ctx.battle
    context = _context(battle)
    before = {k: to_jsonable(v) for k, v in context.groups.items()}
    action = np_decide(battle, options, context, ctx.dice)
    for roll in context.rolls:
        if roll.pursuit is not None:
            ctx.emit(
                npev.NpTableRolled(
                    "22.3.6",
                    roll.team,
                    roll.pursuit.faces,
                    roll.pursuit.passes,
                    "objective" if roll.pursuit.target is None else str(roll.pursuit.target),
                    roll.leader,
                    roll.pursuit.target,
                )
            )
        if roll.move is not None:
            ctx.emit(
                npev.NpTableRolled(
                    roll.move.table,
                    roll.team,
                    roll.move.faces,
                    roll.move.passes,
                    roll.move.order.value,
                    roll.leader,
                )
            )
    for team, state in context.groups.items():
        data = to_jsonable(state)
        if before.get(team) != data:
            ctx.emit(npev.NpGroupSet(team, data, "activation"))
    return action


# -- PEF movement (§20.2) ---------------------------------------------------------------------
def _markers(battle: Battle) -> list[PefMarker]:
    assert battle.np is not None
    return [
        PefMarker(m["id"], (m["pos"][0], m["pos"][1]), m["building"]) for m in battle.np["pefs"]
    ]


def pefs_step(ctx: Ctx, frame: Frame) -> None:
    """Move the PEFs farthest from the player first; resolve contacts at once (§20.2)."""
    battle = ctx.battle
    side = np_side(battle)
    assert side is not None
    if frame.get("order") is None:
        markers = _markers(battle)
        if not markers or not pef_may_move(battle.dice.get(side, 6)):
            ctx.pop(frame)
            return
        spotters = spotters_of(battle, side.other)
        frame["order"] = list(pef_order(markers, battle.battlefield, spotters))
        return
    if not frame["order"]:
        ctx.pop(frame)
        return
    pef_id = frame["order"].pop(0)
    marker = next((m for m in _markers(battle) if m.id == pef_id), None)
    if marker is None:
        return
    spotters = spotters_of(battle, side.other)
    move = pef_move(battle.battlefield, marker.pos, ctx.dice, spotters, bodies=bodies(battle))
    ctx.emit(
        npev.PefMoved(
            pef_id,
            move.faces,
            move.passes,
            (marker.pos, *move.path[1:]) if move.path else (marker.pos, move.end),
            move.toward,
        )
    )
    if move.contact:
        moved = PefMarker(marker.id, move.end, marker.building)
        resolve_contact(ctx, moved, list(move.contact), np_moving=True)


PEFS = FunctionHandler(pefs_step)


# -- detection and resolution (§20.1, §20.3) ----------------------------------------------------
def check_pefs(ctx: Ctx) -> None:
    """After a player move: resolve every PEF in mutual LOS, generate building PEFs (§20)."""
    battle = ctx.battle
    np = battle.np
    assert np is not None
    np["check_due"] = False
    cestus_play.note_moves(battle)
    cestus_play.troll_check(ctx)
    side = Side(np["side"])
    spotters = spotters_of(battle, side.other)
    for trigger in building_pef_triggers(
        battle.battlefield,
        spotters,
        used=np["used_buildings"],
        excluded_sections=np["excluded_sections"],
        bodies=bodies(battle),
    ):
        ctx.emit(npev.PefPlaced(np["next_pef"], trigger.pos, None, None, True, trigger.building))
    for marker in _markers(battle):
        seen = pef_detected(
            battle.battlefield, marker.pos, spotters_of(battle, side.other), bodies=bodies(battle)
        )
        if seen and any(m["id"] == marker.id for m in np["pefs"]):
            resolve_contact(ctx, marker, list(seen), np_moving=False)


def pef_spotted_at(battle: Battle, mech_id: int, point: tuple[float, float]) -> bool:
    """A player mech at ``point`` would see a PEF or trigger a building PEF (§20.1, §20.3).

    A move stops there, and :func:`check_pefs` resolves the PEF the moment it is seen. So
    for Mission 2's bridge: the inch where a player mech first has LOS to it rolls for The
    Troll (2.0.6, ``cestus_play.troll_due_at``).
    """
    np = battle.np
    mech = battle.mechs[mech_id]
    if np is None or mech.side.value == np["side"]:
        return False
    if cestus_play.troll_due_at(battle, mech_id, point):
        return True
    here = Spotter(mech.id, point, battle.group_of.get(mech.id, mech.id), mech.has_functioning_ews)
    others = [b for b in bodies(battle) if b.id != mech.id]
    bf = battle.battlefield
    if any(pef_detected(bf, m.pos, [here], bodies=others) for m in _markers(battle)):
        return True
    return bool(
        building_pef_triggers(
            bf,
            [here],
            used=np["used_buildings"],
            excluded_sections=np["excluded_sections"],
            bodies=others,
        )
    )


def resolve_contact(ctx: Ctx, marker: PefMarker, triggering: list[int], *, np_moving: bool) -> None:
    """Roll what the PEF is (only now), place any contact and start the In Sight (§20.3)."""
    battle = ctx.battle
    np = battle.np
    assert np is not None
    side = Side(np["side"])
    fielded = np["player_mechs_fielded"]
    platoon = load_rules().formation_size(Faction(np["player_faction"]), "platoon")
    deltas = cestus_play.contact_deltas(battle)  # Cestus V: the mission's own table, no scaling
    res = resolve_pef(
        ctx.dice,
        triggering=len(triggering),
        last_pef=len(np["pefs"]) == 1,
        contact_so_far=bool(np["contact_so_far"]),
        keep_lowest_two=bool(np["keep_lowest_two"]),
        multiplier=1 if deltas is not None else contact_multiplier(fielded // platoon),
        contact_deltas=deltas,
    )
    ctx.emit(
        npev.PefResolved(
            marker.id,
            tuple(triggering),
            res.faces,
            res.kept,
            res.passes,
            res.result,
            res.last_pef_rule,
            res.contact_face,
            res.enemies,
            res.next_keep_lowest_two,
        )
    )
    if res.result != "contact" or res.enemies <= 0:
        return
    faction = Faction(np["faction"])
    force = cestus_play.np_force(battle, res.enemies, faction, ctx.dice, rules=ctx.rules)
    if force is None:  # designs offered under this battle's rules options (strict mounting)
        force = np_enemy_mechs(
            res.enemies,
            faction,
            ctx.dice,
            enemy_cm=np["morale"],
            mission=_mission_kind(np["mission"]),
            rules=ctx.rules,
        )
    nearest = min((battle.mechs[i] for i in triggering), key=lambda m: distance(m.pos, marker.pos))
    trigger_points = [battle.mechs[i].pos for i in triggering]
    spots = contact_spots(battle, marker.pos, trigger_points, len(force.mechs))
    if not spots:  # only a table with no legal spot left at all places nobody (E6)
        return
    team = _arrive(ctx, side, force, marker.pos, nearest.pos, "contact", positions=spots)
    _new_group_posture(ctx, team)
    leader = battle.mechs[_leader_id(battle, team)]
    if np_moving:
        mover = leader
        groups = new_sightings(battle, leader, set(triggering))
    else:
        mover = nearest
        groups = new_sightings(
            battle, nearest, {m.id for m in battle.mechs_of(side) if m.team == team}
        )
    if groups:
        ctx.push(insight_frame(mover.id, mover.side, groups))


def arrive_force(
    ctx: Ctx, side: Side, force: NpEnemyForce, pos: tuple[float, float], heading: float, reason: str
) -> int:
    """Place a force with its leader at ``pos`` facing ``heading`` (The Troll, §27.8)."""
    ahead = (pos[0] + math.cos(math.radians(heading)), pos[1] + math.sin(math.radians(heading)))
    spots = contact_spots(ctx.battle, pos, (), len(force.mechs))
    team = _arrive(ctx, side, force, pos, ahead, reason, positions=spots)
    assert ctx.battle.np is not None
    ctx.emit(npev.NpGroupSet(team, dict(ctx.battle.np["default"]), reason))
    return team


def _leader_id(battle: Battle, team: int) -> int:
    members = [m for m in battle.mechs.values() if m.team == team]
    return max(members, key=lambda m: (m.rank is not None, m.rep, -m.id)).id


def _new_group_posture(ctx: Ctx, team: int) -> None:
    np = ctx.battle.np
    assert np is not None
    state = from_jsonable(NpGroupState, np["default"])
    if state.posture is NpPosture.PATROL:
        reaction = np_patrol_reaction(ctx.dice, int(np["morale"]))
        ctx.emit(
            npev.NpTableRolled(
                "22.1.6", team, reaction.faces, reaction.passes, reaction.posture.value
            )
        )
        state = NpGroupState(
            **{**_fields(state), "posture": reaction.posture, "after_beaten": reaction.after_beaten}
        )
    ctx.emit(npev.NpGroupSet(team, to_jsonable(state), "contact"))


def _fields(state: NpGroupState) -> dict[str, Any]:
    return {name: getattr(state, name) for name in state.__dataclass_fields__}


def _arrive(
    ctx: Ctx,
    side: Side,
    force: NpEnemyForce,
    anchor: tuple[float, float],
    facing_point: tuple[float, float],
    reason: str,
    positions: list[tuple[float, float]] | None = None,
    ranks: tuple[Rank | None, ...] = (),
) -> int:
    """Place ``force`` as one new Team around ``anchor`` (§20.3 ruling, §23.8.5).

    As many mechs arrive as there are ``positions`` (default: :func:`contact_spots`); the
    caller makes sure there is at least one. ``ranks``: each arriving mech's rank in
    arrival order (default: the first is a Team Leader).
    """
    battle = ctx.battle
    assert battle.np is not None
    rules = load_rules(battle.options.rules)
    team = int(battle.np["next_team"])
    order = [force.leader] + [i for i in range(len(force.mechs)) if i != force.leader]
    spots = positions or contact_spots(battle, anchor, (facing_point,), len(order))
    next_id = max(battle.mechs, default=-1) + 1
    arriving = []
    for k, (index, pos) in enumerate(zip(order, spots, strict=False)):
        enemy = force.mechs[index]
        faction = Faction(
            battle.np["faction"] if side.value == battle.np["side"] else battle.np["player_faction"]
        )
        pilot = Pilot(
            name=f"{side.value}-np-{next_id + k}",
            faction=faction,
            race=enemy.race,
            rep=enemy.rep,
            star=False,
            attributes=(),
        )
        arriving.append(
            npev.ArrivingMech(
                next_id + k,
                rules.mech(enemy.design),
                pilot,
                pos,
                heading_to(pos, facing_point),
                ranks[k] if k < len(ranks) else (Rank.TEAM_LEADER if k == 0 else None),
                enemy.block if force.rolls else None,
                enemy.pilot_faces,
            )
        )
    faces = tuple(roll.face for roll in force.rolls)
    dice = tuple(roll.dice for roll in force.rolls)
    ctx.emit(npev.MechsArrived(side, team, reason, tuple(arriving), faces, dice))
    return team


# -- reinforcements (§23.8) ---------------------------------------------------------------------
def check_reinforcements(ctx: Ctx, blue: int, red: int) -> None:
    """Activation dice totalling 7: the higher side may be reinforced (§23.8.3)."""
    battle = ctx.battle
    np = battle.np
    if np is None or blue + red != 7:
        return
    side = reinforcement_side(blue, red)
    if side is None:
        return
    is_np = side.value == np["side"]
    faction = Faction(np["faction"] if is_np else np["player_faction"])
    morale = int(np["morale"] if is_np else np["player_morale"])
    check = reinforcement_check(blue + red, ctx.dice, morale, faction)
    size = None
    if check.triggered and check.unit != "none":
        deployed, partial = _deployed(battle, faction, is_np)
        size = reinforcement_size(
            check.unit,
            faction,
            deployed_in_platoon=deployed,
            partial_squad=partial,
            rules=load_rules(battle.options.rules),
        )
    count = size.mechs if size is not None else 0
    ctx.emit(
        npev.ReinforcementChecked(
            side, check.faces, check.passes, check.table_faces, check.score, str(check.unit), count
        )
    )
    if size is None or count <= 0:
        return
    mission: MissionKind = _mission_kind(np["mission"] if is_np else _player_mission(np["mission"]))
    role = "np" if is_np else "player"
    force = cestus_play.np_force(battle, size.mechs, faction, ctx.dice, role, rules=ctx.rules)
    if force is None:
        force = reinforcement_force(
            size, faction, ctx.dice, campaign_morale=morale, mission=mission, rules=ctx.rules
        )
    used: dict[int, dict[str, Any]] = {}
    if not is_np and battle.mission is not None and battle.mission.get("reserve"):
        force, used = _from_reserve(battle, force)  # the player's own off-table mechs (§23.8.4)
    entry = reinforcement_entry(
        ctx.dice,
        home_edge=battle.home_edges.get(side, "north"),
        width=battle.battlefield.width,
        height=battle.battlefield.height,
    )
    spots = list(
        arrival_positions(
            entry,
            len(force.mechs),
            width=battle.battlefield.width,
            height=battle.battlefield.height,
            radius=battle.options.base_radius,
        )
    )
    free = reinforcement_spots(battle, spots)  # a taken spot shifts, nobody is dropped
    if not free:
        return
    facing = (
        entry.point[0] + math.cos(math.radians(entry.heading)),
        entry.point[1] + math.sin(math.radians(entry.heading)),
    )
    first_id = max(battle.mechs, default=-1) + 1
    order = [force.leader] + [i for i in range(len(force.mechs)) if i != force.leader]
    ranks = arrival_ranks(size.unit, len(free), faction, load_rules(battle.options.rules))
    team = _arrive(
        ctx, side, force, entry.point, facing, "reinforcement", positions=free, ranks=ranks
    )
    if used and battle.mission is not None:
        record = battle.mission.setdefault("reserve_used", {})
        placed = order[: len(free)]
        for k, index in enumerate(placed):
            if index in used:
                record[str(first_id + k)] = used[index]
        for index, spare in used.items():  # no room on the table: they stay off it
            if index not in placed:
                battle.mission["reserve"].append(spare)
    if is_np:
        ctx.emit(npev.NpGroupSet(team, dict(np["default"]), "reinforcement"))


def _deployed(battle: Battle, faction: Faction, is_np: bool) -> tuple[int, bool]:
    """(mechs of the side's current platoon on the table, a partial Squad is) (§23.8.2).

    NP (ruling): every revealed NP mech is of its current platoon, and a partial Squad is
    always assumed. Player: the platoon and squad sizes are his faction's; the mechs fielded
    this mission fill platoons and squads in turn, and the last one is partial unless full.
    """
    np = battle.np
    assert np is not None
    if is_np:
        return int(np["revealed"]), True
    rules = load_rules(battle.options.rules)
    fielded = int(np["player_mechs_fielded"])
    platoon = rules.formation_size(faction, "platoon")
    squad = rules.formation_size(faction, "squad")
    return fielded % platoon, fielded % squad != 0


def _from_reserve(battle: Battle, force: NpEnemyForce) -> tuple[NpEnemyForce, dict[int, Any]]:
    """Use undeployed Company mechs of the rolled Classes first (§23.8.4 ruling)."""
    assert battle.mission is not None
    reserve: list[dict[str, Any]] = battle.mission["reserve"]
    rules = load_rules(battle.options.rules)
    mechs = list(force.mechs)
    used: dict[int, Any] = {}
    for i, mech in enumerate(mechs):
        pick = next(
            (r for r in reserve if rules.mech(r["design"]).mech_class == mech.mech_class), None
        )
        if pick is None:
            continue  # a temporary mech of that Class, gone after the mission
        reserve.remove(pick)
        mechs[i] = dataclasses.replace(mech, design=pick["design"], rep=int(pick["rep"]))
        used[i] = pick
    return dataclasses.replace(force, mechs=tuple(mechs)), used


def _player_mission(np_mission: str) -> str:
    return {"defend": "attack", "attack": "defend"}.get(np_mission, np_mission)


def _mission_kind(name: str) -> MissionKind:
    if name == "patrol":
        return "patrol"
    return "attack" if name == "attack" else "defend"


__all__ = [
    "PEFS",
    "Dice",
    "check_pefs",
    "check_reinforcements",
    "np_choose",
    "np_side",
    "pef_spotted_at",
    "start_np",
]
