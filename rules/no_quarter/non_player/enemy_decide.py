"""The NP side's answer to each engine decision, following the 22.4 procedure (§22.4, §20.5).

:func:`np_decide` returns one of the legal options. It rolls the group's tactics table when
it activates a group (22.2.6, or 22.3.6 then 22.3.7) and keeps the result in the
:class:`~.enemy.NpContext`. It only uses enemies the NP side has LOS to
(plus the 12" range test that ruling 22.1.6 allows), never hidden facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wargym.rules.dice import Dice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    Charge,
    ChooseMech,
    DecisionKind,
    DeclareMelee,
    ExitTable,
    FightMech,
    FireFirst,
    FreeMove,
    FreeWill,
    KeepGroups,
    LeadDone,
    Move,
    Stay,
)
from wargym.rules.no_quarter.battle.luck import choice_in_roll
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.sections import exit_point, exits_through
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player.enemy import (
    MoveOrder,
    MoveRoll,
    NpActivation,
    NpContext,
    NpGroupState,
    NpObjective,
    NpOptions,
    NpPosture,
    PursuitRoll,
    defend_goal,
    edge_point,
    fighting_withdrawal_move,
    np_attack_move,
    np_defend_move,
    pursue_objective,
    tactics,
)
from wargym.rules.no_quarter.non_player.pef import Spotter
from wargym.rules.no_quarter.sight_movement.facing import face_toward, keep_facing
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    distance,
    heading_to,
    in_arc,
    step_toward,
)
from wargym.rules.no_quarter.sight_movement.perception import bodies, line_between


def known_enemies(battle: Battle, side: Side, arcs: bool = False) -> list[Mech]:
    """Enemy mechs any mech of ``side`` has LOS to (arcs only if ``arcs``) (§16.1.1, §22.4)."""
    own = battle.mechs_of(side)
    found = []
    for enemy in battle.mechs_of(side.other):
        for mech in own:
            if arcs and not in_arc(mech.pos, mech.facing, enemy.pos):
                continue
            if line_between(battle, mech, enemy).visible:
                found.append(enemy)
                break
    return found


def _members(battle: Battle, leader: int) -> list[Mech]:
    side = battle.mechs[leader].side
    return [m for m in battle.mechs_of(side) if battle.group_of.get(m.id, m.id) == leader]


def _spot(m: Mech) -> Spotter:
    return Spotter(m.id, m.pos, m.team, m.has_functioning_ews, m.facing)


def _state(context: NpContext, team: int) -> NpGroupState:
    return context.groups.get(team, context.default)


def _beaten_away(battle: Battle, group: list[Mech], seen: list[Mech], context: NpContext) -> bool:
    """Ruling 22.1.6: no player mech within 12" of the group nor in its LOS (§22.1.6)."""
    player = battle.mechs_of(group[0].side.other)
    pool = player if context.options.beaten_away_uses_range else seen
    near = any(distance(p.pos, m.pos) <= tactics().beaten_range + EPS for p in pool for m in group)
    in_los = any(line_between(battle, m, p).visible for m in group for p in seen)
    return not near and not in_los


def roll_group(battle: Battle, leader: int, context: NpContext, dice: Dice) -> NpGroupState:
    """Roll the activating group's tactics and store them in ``context`` (§22.4 step 3)."""
    group = _members(battle, leader) or [battle.mechs[leader]]
    team = battle.mechs[leader].team
    state = _state(context, team)
    rep = battle.mechs[leader].rep
    seen = known_enemies(battle, group[0].side, context.options.awareness == "arc")
    beaten = False
    if state.posture in (NpPosture.DEFEND, NpPosture.PATROL) and state.after_beaten != "none":
        beaten = _beaten_away(battle, group, seen, context)
        if beaten:
            withdraw = state.after_beaten == "withdraw"
            posture = NpPosture.WITHDRAW if withdraw else NpPosture.DEFEND
            state = replace(state, posture=posture, after_beaten="none")
    pursuit: PursuitRoll | None = None
    move: MoveRoll | None = None
    if state.posture is NpPosture.ATTACK:
        pursuit = pursue_objective(dice, rep, [_spot(m) for m in group], [_spot(e) for e in seen])
        move = np_attack_move(dice, rep)
        order = move.order
    elif state.posture is NpPosture.WITHDRAW:
        order = MoveOrder.FULL
    else:
        move = np_defend_move(dice, rep)
        order = move.order
    target = None if pursuit is None else pursuit.target
    state = replace(state, order=order, target=target, activation=(battle.turn, leader))
    context.groups[team] = state
    context.rolls.append(NpActivation(team, leader, state.posture, beaten, pursuit, move))
    return state


def _group_distance(battle: Battle, leader: int, seen: list[Mech]) -> float:
    group = _members(battle, leader) or [battle.mechs[leader]]
    if seen:
        return min(distance(m.pos, e.pos) for m in group for e in seen)
    edge = battle.home_edges.get(group[0].side.other, "south")
    return min(distance(m.pos, edge_point(battle.battlefield, m.pos, edge, 0.0)) for m in group)


def _activate(battle: Battle, options: Sequence[Action], context: NpContext, dice: Dice) -> Action:
    """22.4: activate every eligible group, the one farthest from the player first."""
    leaders = [o.leader for o in options if isinstance(o, ActivateGroup)]
    if not leaders:
        return options[0]
    side = battle.mechs[leaders[0]].side
    seen = known_enemies(battle, side, context.options.awareness == "arc")
    chosen = min(
        leaders,
        key=lambda i: (-_group_distance(battle, i, seen), -battle.mechs[i].rep, i),
    )
    roll_group(battle, chosen, context, dice)
    return ActivateGroup(chosen)


def _nearest(mech: Mech, pool: Sequence[Mech]) -> Mech | None:
    return min(pool, key=lambda e: (distance(mech.pos, e.pos), e.id), default=None)


def _goal(
    battle: Battle,
    mech: Mech,
    state: NpGroupState,
    seen: list[Mech],
    reach: float,
    moves: list[Move],
    options: NpOptions,
) -> Point | None:
    """Where the mech's movement order sends it (§22.1.6, §22.2.6, §22.3.6-§22.3.7 rulings)."""
    bf = battle.battlefield
    nearest = _nearest(mech, seen)
    if state.posture is NpPosture.WITHDRAW:
        view = None if nearest is None else nearest.pos
        others = [b for b in bodies(battle) if b.id != mech.id]
        return fighting_withdrawal_move(
            bf, mech.pos, reach, state.own_edge, viewer=view, body_list=others
        )
    if state.posture is NpPosture.ATTACK:
        by_id = {e.id: e for e in seen}
        if state.target in by_id:
            return by_id[state.target].pos
        if state.objective is NpObjective.BREAK_THROUGH:
            if state.exit_sections:  # Cestus V Mission 8: head for section 7 (8.0.1)
                return exit_point(
                    mech.pos, state.exit_edge, state.exit_sections, bf.width, bf.height
                )
            return edge_point(bf, mech.pos, state.exit_edge)
        if nearest is not None:
            return nearest.pos
        return edge_point(bf, mech.pos, battle.home_edges.get(mech.side.other, state.exit_edge))
    if nearest is None and options.unseen_defender == "regain_los":
        nearest = _nearest(mech, battle.mechs_of(mech.side.other))  # ruling 22.2.6 (E17)
    if nearest is None:
        return None
    others = [b for b in bodies(battle) if b.id != mech.id]
    spot = defend_goal(
        bf,
        [m.to for m in moves],
        nearest.pos,
        state.own_edge,
        origin=mech.pos,
        body_list=others,
        mover=mech.id,
        ews=mech.has_functioning_ews,
        target=nearest.id,
    )
    if spot is not None:
        return spot
    ranges = [mech.design.items[w].range or 0 for w in mech.operable_ranged_weapons]
    base = edge_point(bf, nearest.pos, state.own_edge, 0.0)
    return step_toward(nearest.pos, base, min(max(ranges, default=0), distance(nearest.pos, base)))


def _mech_action(
    battle: Battle, options: Sequence[Action], context: NpContext, dice: Dice, mech: Mech
) -> Action:
    """22.2.6 / 22.3.7: mechs with LOS fire, the others follow the group's order."""
    leader = battle.group_of.get(mech.id, mech.id)
    state = _state(context, mech.team)
    if state.activation != (battle.turn, leader):
        state = roll_group(battle, leader, context, dice)
    fire = FireFirst(mech.id)
    if fire in options:
        return fire
    stay = Stay(mech.id)
    if mech.fired_this_activation:
        return stay
    seen = known_enemies(battle, mech.side, context.options.awareness == "arc")
    if state.order is MoveOrder.NONE:
        nearest = _nearest(mech, seen)
        if nearest is not None:
            want = heading_to(mech.pos, nearest.pos)
            turns = [o for o in options if isinstance(o, Stay) and o.heading is not None]
            best = min(turns, key=lambda o: _turn_gap(o.heading or 0.0, want), default=None)
            if best is not None and _turn_gap(best.heading or 0.0, want) < _turn_gap(
                mech.heading, want
            ):
                return best
        return stay
    frame = battle.frames[-1] if battle.frames else {}
    spent = float(frame.get("spent", 0.0)) if frame.get("kind") == "mech" else 0.0
    fraction = 1.0 if state.order is MoveOrder.FULL else 0.5
    reach = max(0.0, mech.speed * fraction - spent)
    moves = [
        o
        for o in options
        if isinstance(o, Move) and not o.reverse and distance(mech.pos, o.to) <= reach + 1e-6
    ]
    leave = _exit(battle, options, mech, state, seen, reach)
    if leave is not None:
        return leave
    if not moves:
        return stay
    goal = _goal(battle, mech, state, seen, reach, moves, context.options)
    if goal is None:
        return stay
    best_move = min(moves, key=lambda o: (distance(o.to, goal), o.to))
    if distance(best_move.to, goal) < distance(mech.pos, goal) - EPS:
        return best_move
    return stay


def _exit(
    battle: Battle,
    options: Sequence[Action],
    mech: Mech,
    state: NpGroupState,
    seen: list[Mech],
    reach: float,
) -> ExitTable | None:
    """A group breaking through leaves across its exit edge once within reach (§22.3.1).

    Not while 22.3.6 has distracted it toward an enemy it still sees.
    """
    if state.posture is not NpPosture.ATTACK or state.objective is not NpObjective.BREAK_THROUGH:
        return None
    if state.target is not None and any(e.id == state.target for e in seen):
        return None
    for option in options:
        if isinstance(option, ExitTable) and option.edge == state.exit_edge:
            bf = battle.battlefield
            if state.exit_sections and not exits_through(
                mech.pos, option.edge, state.exit_sections, bf.width, bf.height
            ):
                continue  # not through the sections it is aimed at (Mission 8: section 7)
            edge = edge_point(bf, mech.pos, option.edge, 0.0)
            if distance(mech.pos, edge) <= reach + EPS:
                return option
    return None


def _turn_gap(a: float, b: float) -> float:
    diff = abs(a - b) % 360.0
    return min(diff, 360.0 - diff)


def _damage(mech: Mech) -> float:
    return sum(mech.armor) / max(1, sum(mech.design.armor))


def np_decide(battle: Battle, options: Sequence[Action], context: NpContext, dice: Dice) -> Action:
    """The option the NP procedure prescribes at ``battle.decision`` (§22.4, §20.5).

    Group activation: every eligible group, farthest from the player first, rolling its table;
    mech actions: fire if able, else move by the group's order toward its goal; weapon
    assignment: the nearest target, then the most damaged; free In Sight moves: none (ruling
    D8); charge targets: the nearest; melee: the strongest limb, the most damaged foe; a Star's
    Free Will: pass 2. Always returns an element of ``options``.
    """
    decision = battle.decision
    if decision is None or not options:
        raise RulesError("np_decide needs a pending decision with legal options")
    kind = decision.kind
    mech = battle.mechs[decision.mech] if decision.mech is not None else None
    if kind is DecisionKind.ACTIVATE_GROUP:
        return _activate(battle, options, context, dice)
    if kind is DecisionKind.CHOOSE_MECH:
        ready = [o for o in options if isinstance(o, ChooseMech)]
        return min(ready, key=lambda o: o.mech, default=options[0])
    if kind in (DecisionKind.LEAD_TEAMS, DecisionKind.SPLIT_GROUP):
        # never asked of the rules' NP side (its groups are its Teams, §22, E19); if a seat
        # outside asks it: no group orders
        keep = [o for o in options if isinstance(o, KeepGroups | LeadDone)]
        return keep[0] if keep else options[0]
    if mech is None:
        return options[0]
    if kind in (DecisionKind.MECH_ACTION, DecisionKind.CONTINUE_MOVE):
        return _mech_action(battle, options, context, dice, mech)
    if kind is DecisionKind.ASSIGN_FIRE:
        shots = [o for o in options if isinstance(o, AssignFire)]
        return min(
            shots,
            key=lambda o: (
                distance(mech.pos, battle.mechs[o.target].pos),
                _damage(battle.mechs[o.target]),
                o.target,
                o.weapon,
            ),
            default=options[-1],
        )
    if kind is DecisionKind.FACE:  # toward the nearest enemy it knows of, else as it is (D2)
        seen = known_enemies(battle, mech.side, context.options.awareness == "arc")
        near = _nearest(mech, seen)
        return keep_facing(options, mech) if near is None else face_toward(options, mech, near.pos)
    if kind is DecisionKind.FREE_MOVE:
        hold = FreeMove(mech.id, None)
        return hold if hold in options else options[0]
    if kind is DecisionKind.CHARGE_TARGET:
        charges = [o for o in options if isinstance(o, Charge)]
        return min(
            charges,
            key=lambda o: (distance(mech.pos, battle.mechs[o.target].pos), o.target),
            default=options[0],
        )
    if kind is DecisionKind.FREE_WILL:
        best = [o for o in options if isinstance(o, FreeWill)]
        return max(best, key=lambda o: o.passed, default=options[0])
    if kind is DecisionKind.MELEE_DECLARE:
        limbs = [o for o in options if isinstance(o, DeclareMelee)]
        return max(
            limbs, key=lambda o: (mech.armor_at(o.limb), -limbs.index(o)), default=options[0]
        )
    if kind is DecisionKind.MELEE_TARGET:
        foes = [o for o in options if isinstance(o, FightMech)]
        return min(
            foes, key=lambda o: (_damage(battle.mechs[o.target]), o.target), default=options[0]
        )
    if kind in (DecisionKind.LUCKY_REROLL, DecisionKind.MARKSMAN_LOCATION):
        return choice_in_roll(battle, options)  # D26, §9.6.4: luck.py's documented rules
    return options[0]
