"""One mech's activation (§15.0, §15.2, rulings D6, D25, D33).

Stages: *begin* (a ducked-back mech returns to Carry On, a prone one stands up, an engaged one
fights), *action* (fire first, move, reverse, jump, stay and turn, or charge), *continue*
(after an In Sight paused the move), *face* (the final heading and torso twist after a move
or a stay, ``BattleOptions.choose_facing``), *after* (Active Fire if not taken yet).
"""

from __future__ import annotations

import math

from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    AttackBuilding,
    Charge,
    DecisionKind,
    DeclareMelee,
    ExitTable,
    Face,
    FightMech,
    FireFirst,
    Move,
    Stay,
)
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.flow_melee import (
    charge_frame,
    charge_stage,
    melee_frame,
    room_for_attacker,
)
from wargym.rules.no_quarter.battle.flow_move import walk
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.buildings import (
    can_fire_at,
    in_contact,
    rated_buildings,
    strike_building,
)
from wargym.rules.no_quarter.battlefield.terrain import (
    Body,
    deep_water_allowance,
    enters_deep_water,
    move_candidates,
    path_cost,
    path_problem,
)
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack, Status
from wargym.rules.no_quarter.sight_movement.bumping import planning_bodies
from wargym.rules.no_quarter.sight_movement.facing import HEADINGS, face_options, turn_to
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    angle_between,
    distance,
    heading_to,
    point_rect_distance,
)
from wargym.rules.no_quarter.sight_movement.perception import (
    TWISTS,
    able_to_fire,
    engaged_with,
    sees,
    weapon_can_engage,
)

REVERSE_FRACTION = 0.25
"""Reverse moves cover at most a quarter of Speed (§15.2.2, ruling D23)."""


def mech_frame(mech: int) -> Frame:
    """A new activation of ``mech``."""
    return {
        "kind": "mech",
        "mech": mech,
        "stage": "begin",
        "spent": 0.0,
        "moved": False,
        "fired": False,
    }


def _allowance(mech: Mech, frame: Frame) -> float:
    return max(0.0, float(mech.speed) - float(frame["spent"]))


def _can_fire_now(battle: Battle, rules: NoQuarterRules, mech: Mech) -> bool:
    if mech.fired_this_activation or not able_to_fire(mech) or engaged_with(battle, mech):
        return False
    enemies = battle.mechs_of(mech.side.other)
    return any(
        weapon_can_engage(battle, mech, weapon, enemy, twist)
        for enemy in enemies
        for twist in TWISTS
        for weapon in mech.operable_ranged_weapons
    ) or _can_fire_at_buildings(battle, mech)


def _can_fire_at_buildings(battle: Battle, mech: Mech) -> bool:
    return any(
        can_fire_at(battle, mech, weapon, feature, twist)
        for feature in rated_buildings(battle)
        for twist in TWISTS
        for weapon in mech.operable_ranged_weapons
    )


def mech_step(ctx: Ctx, frame: Frame) -> None:
    """Advance the activation or ask for the mech's action."""
    battle = ctx.battle
    mech = battle.mechs[frame["mech"]]
    stage = frame["stage"]
    if stage == "begin":
        if mech.removed is not None or mech.status is Status.LEAVE_BATTLEFIELD:
            ctx.pop(frame)
            return
        if mech.status is Status.DUCK_BACK:
            ctx.emit(ev.StatusChanged(mech.id, Status.CARRY_ON, "next activation"))
        if mech.prone:
            ctx.emit(ev.StoodUp(mech.id))  # the whole activation (§15.2.3)
            ctx.pop(frame)
            return
        foes = engaged_with(battle, mech)
        if foes:
            if len(foes) == 1:
                ctx.pop(frame)
                ctx.push(_melee(mech.id, foes[0]))
            else:
                frame["stage"] = "fight"
                ctx.ask(mech.side, DecisionKind.MELEE_TARGET, mech.id)
            return
        frame["stage"] = "action"
        frame["start"] = [mech.pos[0], mech.pos[1]]  # a charge's aspect counts from here (D4)
    if mech.removed is not None or mech.status is not Status.CARRY_ON or mech.prone:
        ctx.pop(frame)  # ducked back or worse: the activation ends (§15.2.4.1)
        return
    if frame["stage"] == "face":  # the final heading and twist (§6.2, D2, D5)
        ctx.ask(mech.side, DecisionKind.FACE, mech.id)
        return
    if frame["stage"] in ("action", "continue"):
        kind = (
            DecisionKind.MECH_ACTION if frame["stage"] == "action" else (DecisionKind.CONTINUE_MOVE)
        )
        ctx.ask(mech.side, kind, mech.id)
        return
    if frame["stage"] == "after":
        frame["stage"] = "end"
        if _can_fire_now(battle, ctx.rules, mech):
            ctx.push(fire_frame(mech.id, "active"))
        return
    ctx.pop(frame)


def _melee(attacker: int, defender: int) -> Frame:
    return melee_frame(attacker, defender)


def _moves(battle: Battle, mech: Mech, frame: Frame) -> list[Action]:
    allowance = _allowance(mech, frame)
    if allowance <= 0 or mech.speed <= 0:
        return []
    others = planning_bodies(battle, mech)
    radius = battle.options.base_radius
    found = move_candidates(
        battle.battlefield,
        mech.pos,
        allowance=allowance,
        mover_id=mech.id,
        bodies=others,
        radius=radius,
        directions=battle.options.move_directions,
        fractions=battle.options.move_fractions,
    )
    options: list[Action] = [Move(mech.id, _round(p)) for p in found]
    if not frame["moved"]:
        back = (mech.heading + 180.0) % 360.0
        rev = min(allowance, mech.speed * REVERSE_FRACTION)
        if rev > 0:
            for p in move_candidates(
                battle.battlefield,
                mech.pos,
                allowance=rev,
                mover_id=mech.id,
                bodies=others,
                radius=radius,
                directions=battle.options.move_directions,
                fractions=(1.0,),
            ):
                if angle_between(heading_to(mech.pos, p), back) <= 90.0:
                    options.append(Move(mech.id, _round(p), reverse=True))
    if mech.has_jump_jets:
        options.extend(_jumps(battle, mech, allowance, others, options))
    return options


def _jumps(
    battle: Battle, mech: Mech, allowance: float, others: list[Body], moves: list[Action]
) -> list[Action]:
    """Jump options not already reachable on foot (rulings D5, D28).

    Exactly the points :func:`move_problem` accepts as jumps, checked directly: a jump is only
    checked where it lands (and the start must be on the table); it costs its length.
    """
    bf = battle.battlefield
    radius = battle.options.base_radius
    if not bf.is_on_table(mech.pos, radius):
        return []
    reachable = {m.to for m in moves if isinstance(m, Move)}
    buildings = bf.index.building_rects
    found: list[Action] = []
    for k in range(battle.options.move_directions):
        angle = 2 * math.pi * k / battle.options.move_directions
        for fraction in battle.options.move_fractions:
            reach = allowance * fraction
            p = _round(
                (mech.pos[0] + reach * math.cos(angle), mech.pos[1] + reach * math.sin(angle))
            )
            if p in reachable or not bf.is_on_table(p, radius):
                continue
            if distance(mech.pos, p) > allowance + 1e-6:
                continue
            if any(point_rect_distance(p, *r) < radius - EPS for r in buildings):
                continue
            if any(distance(p, b.pos) < radius + b.radius - EPS for b in others):
                continue
            found.append(Move(mech.id, p, jump=True))
    return found


def _round(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 3), round(p[1], 3))


def move_problem(battle: Battle, mech: Mech, frame: Frame, action: Move) -> str | None:
    """Why ``action`` is not a legal move now, or None (§15.2, ruling D5)."""
    allowance = _allowance(mech, frame)
    if mech.speed <= 0:
        return "the mech cannot move (Speed 0)"
    if action.reverse:
        if frame["moved"]:
            return "a reverse must start standing still (§15.2.2)"
        allowance = min(allowance, mech.speed * REVERSE_FRACTION)
        back = (mech.heading + 180.0) % 360.0
        if angle_between(heading_to(mech.pos, action.to), back) > 90.0:
            return "a reverse moves backwards, keeping the facing (§15.2.2)"
    if action.jump and not mech.has_jump_jets:
        return "no operable jump jets (§10.6.1)"
    others = planning_bodies(battle, mech)
    path = [mech.pos, action.to]
    jump = 0 if action.jump else None
    problem = path_problem(
        battle.battlefield,
        path,
        mover_id=mech.id,
        bodies=others,
        radius=battle.options.base_radius,
        jump_segment=jump,
    )
    if problem is not None:
        return problem
    cost = path_cost(battle.battlefield, path, jump_segment=jump)
    if math.isinf(cost) and enters_deep_water(battle.battlefield, path, jump_segment=jump):
        if distance(mech.pos, action.to) <= deep_water_allowance(allowance) + 1e-6:
            return None  # deep water: 2" per turn (Appendix A, §19.7.1)
        return 'deep water beyond the shore band allows only 2" of movement'
    if cost > allowance + 1e-6:
        return f'costs {cost:.2f}" but only {allowance:.2f}" of movement is left'
    return None


def charge_targets(battle: Battle, rules: NoQuarterRules, mech: Mech, frame: Frame) -> list[int]:
    """Enemies in clear LOS with a point 3" away within the movement left (§18.2, D5)."""
    if mech.prone or mech.speed <= 0 or engaged_with(battle, mech):
        return []
    allowance = _allowance(mech, frame)
    gap = float(rules.charge.stage_distance_inches)
    return [
        enemy.id
        for enemy in battle.mechs_of(mech.side.other)
        if distance(mech.pos, enemy.pos) - gap <= allowance + 1e-6
        and sees(battle, mech, enemy)  # clear LOS within the front arc (§18.2, ruling D3)
        and room_for_attacker(battle, rules, enemy)
        and charge_stage(battle, rules, mech, enemy, allowance) is not None
    ]


def mech_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """The mech's legal options at this stage (§15.0)."""
    mech = battle.mechs[frame["mech"]]
    if frame["stage"] == "fight":
        return [FightMech(mech.id, foe) for foe in engaged_with(battle, mech)]
    if frame["stage"] == "face":
        return face_options(mech, bool(frame.get("turn", True)))
    options: list[Action] = []
    if frame["stage"] == "action" and _can_fire_now(battle, rules, mech):
        options.append(FireFirst(mech.id))
    options.append(Stay(mech.id))
    if frame["stage"] == "action" and not battle.options.choose_facing:
        options.extend(Stay(mech.id, h) for h in HEADINGS if angle_between(h, mech.heading) > 1)
    options.extend(_moves(battle, mech, frame))
    options.extend(Charge(mech.id, t) for t in charge_targets(battle, rules, mech, frame))
    if battle.mission is not None and not engaged_with(battle, mech):
        from wargym.rules.no_quarter.mission.mission_play import exit_options

        options.extend(exit_options(battle, mech.id, _allowance(mech, frame)))
    if not engaged_with(battle, mech):
        for feature in rated_buildings(battle):
            if in_contact(battle, mech, feature):
                options.extend(
                    AttackBuilding(mech.id, feature, d.attack, d.limb) for d in _limb_options(mech)
                )
    return options


def _limb_options(mech: Mech) -> list[DeclareMelee]:
    found: list[DeclareMelee] = []
    for attack, limbs in (
        (MeleeAttack.PUNCH, (Location.ARM_L, Location.ARM_R)),
        (MeleeAttack.KICK, (Location.LEG_L, Location.LEG_R)),
    ):
        found.extend(
            DeclareMelee(mech.id, attack, limb) for limb in limbs if limb not in mech.lost_limbs
        )
    return found


def mech_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Carry out the mech's chosen option."""
    battle = ctx.battle
    mech = battle.mechs[frame["mech"]]
    if isinstance(action, FightMech):
        ctx.pop(frame)
        ctx.push(_melee(mech.id, action.target))
    elif isinstance(action, FireFirst):
        ctx.push(fire_frame(mech.id, "active"))
    elif isinstance(action, Stay):
        if action.heading is not None:
            ctx.emit(ev.MechFaced(mech.id, action.heading % 360.0, mech.twist))
        # staying turns freely; stopping a paused move turns unless it reversed or jumped
        turn = frame["stage"] == "action" or bool(frame.get("turn", True))
        frame["stage"] = _end_of_action(battle, frame, turn)
    elif isinstance(action, Face):
        frame.pop("turn", None)
        frame["stage"] = "after"
        turn_to(ctx, mech, action)
    elif isinstance(action, ExitTable):
        from wargym.rules.no_quarter.mission.mission_play import exit_table

        ctx.pop(frame)
        exit_table(ctx, mech.id, action.edge)
    elif isinstance(action, AttackBuilding):
        strike_building(ctx, mech, action.feature, action.attack, action.limb)
        frame["stage"] = "after"
    elif isinstance(action, Charge):
        ctx.pop(frame)
        start = frame.get("start", mech.pos)
        at = (float(start[0]), float(start[1]))
        ctx.push(charge_frame(mech.id, action.target, _allowance(mech, frame), at))
    elif isinstance(action, Move):
        # a reverse keeps its facing (§15.2.2); a jump lands facing as before (§10.6.1, D28)
        keep = action.reverse or action.jump
        heading = mech.heading if keep else heading_to(mech.pos, action.to)
        kind = "reverse" if action.reverse else ("jump" if action.jump else "voluntary")
        goes_on = frame["stage"] == "continue"  # after an In Sight pause (D8)
        frame["moved"] = True
        spent, interrupted = walk(
            ctx, mech, action.to, heading, kind, jump=action.jump, goes_on=goes_on
        )
        frame["spent"] = float(frame["spent"]) + spent
        if action.reverse:
            frame["spent"] = float(mech.speed)  # a reverse takes the whole move (§15.2.2)
        frame["turn"] = not keep
        frame["stage"] = "continue" if interrupted else _end_of_action(battle, frame, not keep)


def _end_of_action(battle: Battle, frame: Frame, turn: bool) -> str:
    """The stage after a move or a stay: ``face`` where the side chooses the facing (D2, D5).

    ``turn``: the leg heading may change (not after a reverse, §15.2.2, or a jump, §10.6.1).
    """
    if not battle.options.choose_facing:
        return "after"
    frame["turn"] = turn
    return "face"


MECH = FunctionHandler(mech_step, mech_options, mech_act)
