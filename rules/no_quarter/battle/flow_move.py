"""Movement and the In Sight test in play (§15.2, §16.1, rulings D5, D8, D32).

A move is walked in 1" steps; the moment a mech comes into sight of an enemy group (or an
enemy group into its sight) not yet seen this activation phase, the move pauses and an
*insight* frame runs: the free 2" moves of the triggering force, one roll per group leader,
then the winners' mandatory actions (fire, else charge within 6", else duck back if in
range of an enemy weapon, else carry on), then the tests their actions caused (§16.1.6).
"""

from __future__ import annotations

import math

from wargym.rules.dice import successes
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    Charge,
    ChooseMech,
    DecisionKind,
    FreeMove,
)
from wargym.rules.no_quarter.battle.consequences import (
    cross_flames,
    duck_back,
    ignores_duck_back,
    queue_tests,
)
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler, insight_frame
from wargym.rules.no_quarter.battle.flow_charges import start_waiting_charges
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.flow_melee import charge_frame, mid_charge, room_for_attacker
from wargym.rules.no_quarter.battle.reaction import (
    in_sight_bonus_successes,
    in_sight_dice,
    moving_side_wins,
)
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import path_cost, path_problem
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import ItemType, Side, Status
from wargym.rules.no_quarter.non_player.np_flow import pef_spotted_at
from wargym.rules.no_quarter.sight_movement.bumping import bump, planning_bodies
from wargym.rules.no_quarter.sight_movement.geometry import distance, heading_to
from wargym.rules.no_quarter.sight_movement.perception import (
    IN_SIGHT_CHARGE_RANGE,
    TWISTS,
    able_to_fire,
    concealed,
    engaged_with,
    group_leader,
    new_sightings,
    sees,
    visible_enemies,
    visible_from,
    weapon_can_engage,
)

PLANNED_MOVES = frozenset({"voluntary", "reverse", "jump"})
"""Move kinds a side chooses from its offered options (a bump can stop them, choice E5)."""
STEP = 1.0
"""Resolution of the In Sight check along a move, in inches (ruling D8)."""


def _cost(battle: Battle, mech: Mech, path: list[tuple[float, float]], jump: bool) -> float:
    """Allowance spent; deep water beyond the shore band takes the whole move (§19.7.1)."""
    cost = path_cost(battle.battlefield, path, jump_segment=0 if jump else None)
    return float(mech.speed) if math.isinf(cost) else cost


def walk(
    ctx: Ctx,
    mech: Mech,
    to: tuple[float, float],
    heading: float,
    kind: str,
    *,
    jump: bool = False,
    in_sight: bool = True,
    goes_on: bool = False,
) -> tuple[float, bool]:
    """Move ``mech`` straight to ``to``; pause for an In Sight (§16.1.2).

    ``goes_on``: this continues a move an In Sight paused (the flames it stands in were
    rolled for, D27). Returns (allowance spent, interrupted).
    """
    battle = ctx.battle
    start = mech.pos
    blocked = bump(battle, mech, to, jump=jump) if kind in PLANNED_MOVES else None
    planned = to
    if blocked is not None:
        to = blocked[0]  # an unseen base is in the way: the move ends short of it (E5)
    length = distance(start, to)
    facing = (heading + mech.twist) % 360.0
    seen = visible_enemies(battle, mech, start, facing) if in_sight else set()
    # a jump cannot pause in mid-air over a base or a building: check at its landing only
    steps = max(1, math.ceil(length / STEP)) if in_sight and not jump else 1
    for i in range(1, steps + 1):
        t = i / steps
        point = (start[0] + (to[0] - start[0]) * t, start[1] + (to[1] - start[1]) * t)
        if not in_sight:
            break
        now = visible_enemies(battle, mech, point, facing)
        trigger = new_sightings(battle, mech, now - seen)
        seen = now
        if trigger or pef_spotted_at(battle, mech.id, point):  # a PEF resolves there (§20.3)
            cost = _cost(battle, mech, [start, point], jump)
            ctx.emit(
                ev.MechMoved(mech.id, (start, point), heading, cost, distance(start, point), kind)
            )
            cross_flames(ctx, mech, [start, point], goes_on=goes_on)
            if blocked is not None and t >= 1.0:
                ctx.emit(ev.MoveBlocked(mech.id, blocked[1], planned, to))
            if trigger:
                ctx.push(insight_frame(mech.id, mech.side, trigger))
            return cost, t < 1.0
    cost = _cost(battle, mech, [start, to], jump)
    if blocked is None or length > 0.0:
        ctx.emit(ev.MechMoved(mech.id, (start, to), heading, cost, length, kind))
        cross_flames(ctx, mech, [start, to], goes_on=goes_on)
    if blocked is not None:
        ctx.emit(ev.MoveBlocked(mech.id, blocked[1], planned, to))
    return cost, False


def _members(battle: Battle, leader: int, side: Side) -> list[Mech]:
    return [m for m in battle.mechs_of(side) if battle.group_of.get(m.id, m.id) == leader]


def insight_step(ctx: Ctx, frame: Frame) -> None:
    """Free moves, the rolls, then the winners' actions (§16.1.3-§16.1.6)."""
    battle = ctx.battle
    side = Side(frame["side"])
    mover = battle.mechs[frame["mover"]]
    own_group = battle.group_of.get(mover.id, mover.id)
    if frame["stage"] == "free":
        if frame["free"] is None:
            eligible = [
                m.id
                for m in _members(battle, own_group, side)
                if not m.prone
                and m.speed > 0
                and m.status is Status.CARRY_ON
                and not engaged_with(battle, m)
            ]
            frame["free"] = eligible if battle.options.in_sight_free_move else []
        if frame["free"]:
            ctx.ask(side, DecisionKind.FREE_MOVE, frame["free"][0])
            return
        frame["stage"] = "roll"
        return
    if frame["stage"] == "roll":
        _roll(ctx, frame, side, own_group)
        frame["stage"] = "act"
        return
    if frame["stage"] == "act":
        _next_winner(ctx, frame)
        return
    ctx.pop(frame)
    queue_tests(ctx, frame["deferred"])


def _free_targets(battle: Battle, rules: NoQuarterRules, mech: Mech) -> list[tuple[float, float]]:
    """Points of the free move (``free_move_inches`` of the In Sight table, §16.1.3)."""
    free = float(rules.in_sight.free_move_inches)
    others = planning_bodies(battle, mech)
    points = []
    for k in range(8):
        angle = math.radians(45.0 * k)
        for reach in sorted({min(1.0, free), free}):
            to = (mech.pos[0] + reach * math.cos(angle), mech.pos[1] + reach * math.sin(angle))
            path = [mech.pos, to]
            if (
                path_problem(
                    battle.battlefield,
                    path,
                    mover_id=mech.id,
                    bodies=others,
                    radius=battle.options.base_radius,
                )
                is None
                and path_cost(battle.battlefield, path) <= free + 1e-9
            ):
                points.append((round(to[0], 3), round(to[1], 3)))
    return points


def insight_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Free 2" moves, which winner of equal Rep acts next, or a winner's charge target."""
    if frame["stage"] == "free":
        mech = battle.mechs[frame["free"][0]]
        options: list[Action] = [FreeMove(mech.id, None)]
        options.extend(FreeMove(mech.id, p) for p in _free_targets(battle, rules, mech))
        return options
    if "charging" not in frame:
        return [ChooseMech(i) for i in _equal_rep_winners(battle, frame)]
    mech_id = frame["charging"]
    return [Charge(mech_id, t) for t in frame["charge_options"]]


def insight_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Carry out a free move, or start the chosen charge."""
    battle = ctx.battle
    if isinstance(action, FreeMove):
        frame["free"].pop(0)
        if action.to is not None:
            mech = battle.mechs[action.mech]
            blocked = bump(battle, mech, action.to)
            to = action.to if blocked is None else blocked[0]
            inches = distance(mech.pos, to)
            if inches > 0.0:
                path = [mech.pos, to]
                ctx.emit(ev.MechMoved(mech.id, (mech.pos, to), mech.heading, 0.0, inches, "free"))
                cross_flames(ctx, mech, path)  # a free move is a move: flames burn (D27)
            if blocked is not None:
                ctx.emit(ev.MoveBlocked(mech.id, blocked[1], action.to, to))
        return
    if isinstance(action, ChooseMech):
        frame["next"] = action.mech  # the owner orders winners of equal Rep (§16.1.4)
        return
    assert isinstance(action, Charge)
    frame.pop("charging")
    frame.pop("charge_options")
    ctx.emit(ev.InSightAction(action.mech, "charge"))
    ctx.push(charge_frame(action.mech, action.target))


def _roll(ctx: Ctx, frame: Frame, side: Side, own_group: int) -> None:
    battle, rules = ctx.battle, ctx.rules
    movers = _members(battle, own_group, side)
    groups = list(frame["enemy_groups"])
    for m in movers:  # the free moves may bring new groups in: they join (§16.1.5)
        groups.extend(new_sightings(battle, m, visible_enemies(battle, m, m.pos, m.facing)))
    involved: dict[int, list[Mech]] = {g: _members(battle, g, side.other) for g in groups}
    seen_by: dict[int, set[int]] = {
        m.id: {
            e.id
            for es in involved.values()
            for e in es
            if visible_from(battle, m, m.pos, m.facing, e)
        }
        for m in movers
    }
    moving_part = [m for m in movers if seen_by[m.id]]
    if not moving_part:
        return
    moving_seen = {e for ids in seen_by.values() for e in ids}
    m_leader = battle.mechs[group_leader(battle, [m.id for m in moving_part])]
    m_faces, m_succ = _leader_roll(ctx, m_leader, [battle.mechs[e] for e in moving_seen])
    moving_won_all = True
    winners: list[int] = []
    opponents: dict[str, list[int]] = {}
    for _group, enemies in involved.items():
        part = [e for e in enemies if e.id in moving_seen]
        if not part:
            continue
        e_leader = battle.mechs[group_leader(battle, [e.id for e in part])]
        e_faces, e_succ = _leader_roll(ctx, e_leader, moving_part)
        won = moving_side_wins(m_succ, e_succ)
        ctx.emit(ev.InSightTaken(m_leader.id, m_faces, m_succ, e_leader.id, e_faces, e_succ, won))
        if not won:
            moving_won_all = False
            for e in part:
                winners.append(e.id)
                opponents[str(e.id)] = [m.id for m in moving_part]
    if moving_won_all:
        for m in moving_part:
            winners.append(m.id)
            opponents[str(m.id)] = sorted(moving_seen)
    winners.sort(key=lambda i: (-battle.mechs[i].rep, i))
    frame["winners"], frame["opponents"] = winners, opponents
    del rules


def _leader_roll(ctx: Ctx, leader: Mech, enemies: list[Mech]) -> tuple[tuple[int, ...], int]:
    """Rep d6 counting successes, with the In Sight modifiers (§16.1.3)."""
    battle, rules = ctx.battle, ctx.rules
    hidden = bool(enemies) and all(concealed(battle, e) for e in enemies)
    n = in_sight_dice(
        leader.rep,
        race=leader.pilot.race,
        attributes=leader.pilot.attributes,
        enemy_concealed=hidden,
    )
    faces = ctx.dice.roll(n)
    ews = next(
        (
            item.item
            for i, item in enumerate(leader.design.items)
            if item.item.is_ews and i not in leader.inoperable
        ),
        None,
    )
    return faces, successes(faces) + in_sight_bonus_successes(rules, ews)


def _live_foes(battle: Battle, frame: Frame, mech: Mech) -> list[Mech]:
    return [
        battle.mechs[i]
        for i in frame["opponents"].get(str(mech.id), [])
        if battle.mechs[i].removed is None
    ]


def _acts(battle: Battle, frame: Frame, mech_id: int) -> bool:
    mech = battle.mechs[mech_id]
    live = mech.removed is None and mech.status is Status.CARRY_ON
    return live and bool(_live_foes(battle, frame, mech))


def _equal_rep_winners(battle: Battle, frame: Frame) -> list[int]:
    """Winners still to act that share the highest Rep: their owner orders them (§16.1.4)."""
    frame["winners"] = [i for i in frame["winners"] if _acts(battle, frame, i)]
    if not frame["winners"]:
        return []
    top = max(battle.mechs[i].rep for i in frame["winners"])
    return [i for i in frame["winners"] if battle.mechs[i].rep == top]


def _spent_active_fire(battle: Battle, mech: Mech) -> bool:
    """An active-side winner's In Sight fire is its Active Fire, once (ruling D6)."""
    return mech.side is battle.active_side and mech.fired_this_activation


def _next_winner(ctx: Ctx, frame: Frame) -> None:
    battle = ctx.battle
    tier = _equal_rep_winners(battle, frame)
    if not tier:
        if start_waiting_charges(ctx, frame):  # several chargers, one target (§18.2.1)
            return
        frame["stage"] = "done"
        return
    if len(tier) > 1 and frame.get("next") not in tier:
        ctx.ask(battle.mechs[tier[0]].side, DecisionKind.CHOOSE_MECH)
        return
    chosen = frame.pop("next", tier[0])
    frame["winners"].remove(chosen)
    mech = battle.mechs[chosen]
    foes = _live_foes(battle, frame, mech)
    if mid_charge(battle, mech.id):  # it charges on after the In Sight (§18.2, D6, D8)
        ctx.emit(ev.InSightAction(mech.id, "carry_on"))
        return
    if _spent_active_fire(battle, mech) and battle.options.in_sight_spent_fire == "carry_on":
        ctx.emit(ev.InSightAction(mech.id, "carry_on"))  # it fired already this activation
        return
    if (
        not _spent_active_fire(battle, mech)
        and able_to_fire(mech)
        and not engaged_with(battle, mech)
        and any(
            weapon_can_engage(battle, mech, w, foe, t)
            for foe in foes
            for w in mech.operable_ranged_weapons
            for t in TWISTS
        )
    ):
        ctx.emit(ev.InSightAction(mech.id, "fire"))
        ctx.push(fire_frame(mech.id, "in_sight", targets=[f.id for f in foes]))
        return
    near = [
        f.id
        for f in foes
        if distance(f.pos, mech.pos) <= IN_SIGHT_CHARGE_RANGE
        and sees(battle, mech, f)  # clear LOS within the front arc (§18.2, ruling D3)
        and room_for_attacker(battle, ctx.rules, f)
    ]
    if near and not mech.prone and mech.speed > 0 and not engaged_with(battle, mech):
        if len(near) == 1:
            ctx.emit(ev.InSightAction(mech.id, "charge"))
            ctx.push(charge_frame(mech.id, near[0]))
        else:
            frame["charging"], frame["charge_options"] = mech.id, near
            ctx.ask(mech.side, DecisionKind.CHARGE_TARGET, mech.id)
        return
    threats = [
        f
        for f in foes
        if any(
            it.range is not None
            and i not in f.inoperable
            and it.item is not ItemType.MELEE_WEAPON
            and distance(f.pos, mech.pos) <= it.range
            for i, it in enumerate(f.design.items)
        )
    ]
    if threats and not ignores_duck_back(ctx, mech):  # Nerves of Steel carries on (§9.6.4)
        ctx.emit(ev.InSightAction(mech.id, "duck_back"))
        nearest = min(threats, key=lambda f: distance(f.pos, mech.pos))
        duck_back(ctx, mech, nearest, "In Sight winner unable to fire or charge")
        return
    ctx.emit(ev.InSightAction(mech.id, "carry_on"))


INSIGHT = FunctionHandler(insight_step, insight_options, insight_act)

__all__ = ["INSIGHT", "heading_to", "walk"]
