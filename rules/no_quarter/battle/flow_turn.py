"""Turn sequence, activation and mech actions in play (§13-§15, rulings D6, D25, D30, D33).

*turn*: roll the activation dice (re-roll doubles), then each side's phase, higher die
first. *phase*: form groups, move Leaving mechs, let higher leaders take in groups and the
side split groups (``group_orders``), then activate eligible groups from the
highest leader Rep down (owner picks among equals, may decline). *group*: its mechs act one
at a time. *mech*: stand up, fight if engaged, else fire first or not, then move / reverse /
stay / charge, then fire if it has not; an In Sight can pause the move.
"""

from __future__ import annotations

from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    ChooseMech,
    DecisionKind,
    KeepGroups,
    LeadDone,
    LeadTeam,
    SkipGroup,
    SplitOff,
)
from wargym.rules.no_quarter.battle.consequences import leave_move
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.flow_mech import mech_frame
from wargym.rules.no_quarter.battle.group_orders import (
    first_stage,
    higher_leaders,
    lead_act,
    lead_options,
    lead_step,
    split_act,
    split_options,
    split_step,
)
from wargym.rules.no_quarter.battle.melee import melee_attack_order
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.cestus.cestus_play import troll_check
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.pilots import activation_rep
from wargym.rules.no_quarter.forces.vocab import Side, Status
from wargym.rules.no_quarter.mission.mission_play import (
    mission_over,
    on_activation_roll,
    on_turn_rolled,
)
from wargym.rules.no_quarter.sight_movement.perception import (
    engaged_with,
    form_groups,
    group_leader,
)


# -- turn -----------------------------------------------------------------------------------
def turn_step(ctx: Ctx, frame: Frame) -> None:
    """Roll activation and queue both sides' phases, higher die first (§14.0)."""
    battle = ctx.battle
    if frame.get("stage") == "done":
        ctx.pop(frame)
        if battle.mission is not None:
            mission_over(ctx, end_of_turn=True)  # some objectives are judged at turn end (§27.8)
        return
    if battle.turn >= battle.options.max_turns:
        if battle.mission is None or not mission_over(ctx, turn_limit_reached=True):
            ctx.emit(ev.BattleEnded(None, "turn limit", battle.turn))
        return
    ctx.emit(ev.TurnStarted(battle.turn + 1))
    rerolls: list[tuple[int, int]] = []
    while True:
        blue, red = ctx.dice.roll(2)
        if blue != red:
            break
        rerolls.append((blue, red))  # doubles: re-roll both (§14.0)
    first = Side.BLUE if blue > red else Side.RED
    ctx.emit(ev.ActivationRolled(blue, red, tuple(rerolls), first))
    for pair in (*rerolls, (blue, red)):
        on_activation_roll(ctx, *pair)  # the first doubles may change the weather (§23.7)
    on_turn_rolled(ctx, blue, red)  # a total of 7 may bring reinforcements (§23.8.3)
    frame["stage"] = "done"
    ctx.push({"kind": "phase", "side": first.other.value, "stage": "start"})
    ctx.push({"kind": "phase", "side": first.value, "stage": "start"})


# -- side phase -----------------------------------------------------------------------------
def phase_step(ctx: Ctx, frame: Frame) -> None:
    """Form groups, move Leaving mechs, then offer the eligible groups in Rep order (§14.0)."""
    battle = ctx.battle
    side = Side(frame["side"])
    if frame["stage"] == "start":
        battle.active_side = side
        battle.seen_pairs.clear()  # In Sight pairs reset per activation phase (ruling D8)
        for mech in battle.mechs_of(side):
            # Active Fire is once per activation; the active side's In Sight fire counts as it
            # even before the mech's own turn in its group comes (ruling D6)
            mech.fired_this_activation = False
        for s in (side, side.other):
            groups = form_groups(battle, s, ctx.rules)
            leaders = [group_leader(battle, g) for g in groups]
            ctx.emit(ev.GroupsFormed(s, tuple(tuple(g) for g in groups), tuple(leaders)))
            if s is side:
                frame["groups"] = groups
        for mech in battle.mechs_of(side):
            if mech.status is Status.LEAVE_BATTLEFIELD:
                if mech.prone:  # its activation is spent standing, then it leaves (D25)
                    ctx.emit(ev.StoodUp(mech.id))
                leave_move(ctx, mech)  # every activation phase until off the table (D10)
        frame["stage"] = first_stage(battle, side)  # voluntary group orders first (§12.2, §13.1)
        if frame["stage"] == "lead":
            frame["leaders"] = higher_leaders(battle, side)
        frame["done"] = []
        return
    if frame["stage"] == "lead":
        lead_step(ctx, frame)
        return
    if frame["stage"] == "split":
        split_step(ctx, frame)
        return
    tier = _top_tier(battle, frame)
    if not tier:
        if battle.np is not None and side.value == battle.np["side"] and not frame.get("pefs"):
            frame["pefs"] = True  # the PEFs move after the NP groups (§22.4)
            ctx.push({"kind": "pefs", "order": None})
            return
        ctx.pop(frame)
        return
    ctx.ask(side, DecisionKind.ACTIVATE_GROUP)


def _live_groups(battle: Battle, frame: Frame) -> list[tuple[int, list[int]]]:
    result = []
    for index, group in enumerate(frame["groups"]):
        if index in frame["done"]:
            continue
        members = [
            i
            for i in group
            if battle.mechs[i].removed is None
            and battle.mechs[i].status is not Status.LEAVE_BATTLEFIELD
        ]
        if members:
            result.append((index, members))
    return result


def _activation_rep(battle: Battle, members: list[int]) -> tuple[int, int]:
    leader = battle.mechs[group_leader(battle, members)]
    return leader.id, activation_rep(leader.rep, leader.pilot.attributes, len(members))


def _top_tier(battle: Battle, frame: Frame) -> list[tuple[int, list[int], int]]:
    die = battle.dice[Side(frame["side"])]
    eligible = []
    for index, members in _live_groups(battle, frame):
        leader, rep = _activation_rep(battle, members)
        if rep >= die:
            eligible.append((index, members, rep))
    if not eligible:
        return []
    np_state = battle.np
    if np_state is not None and np_state["side"] == frame["side"]:
        return eligible  # the NP side: every eligible group, farthest first (§22.4, E17)
    best = max(rep for _, _, rep in eligible)
    return [(i, m, r) for i, m, r in eligible if r == best]


def phase_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Activate or decline a group of the highest eligible Rep (§14.0, ruling D25).

    Before that, at stages ``lead`` and ``split``: the voluntary group orders (§12.2, §13.1).
    """
    if frame["stage"] == "lead":
        return lead_options(battle, rules, frame)
    if frame["stage"] == "split":
        return split_options(battle, rules, frame)
    options: list[Action] = []
    for _, members, _rep in _top_tier(battle, frame):
        leader = group_leader(battle, members)
        options.append(ActivateGroup(leader))
        if not any(battle.mechs[i].prone for i in members):
            options.append(SkipGroup(leader))
    return options


def phase_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Start the chosen group, or mark it declined (or carry out a group order)."""
    if isinstance(action, LeadTeam | LeadDone):
        lead_act(ctx, frame, action)
        return
    if isinstance(action, SplitOff | KeepGroups):
        split_act(ctx, frame, action)
        return
    battle = ctx.battle
    side = Side(frame["side"])
    assert isinstance(action, ActivateGroup | SkipGroup)
    for index, members, rep in _top_tier(battle, frame):
        if group_leader(battle, members) != action.leader:
            continue
        frame["done"].append(index)
        if isinstance(action, SkipGroup):
            ctx.emit(ev.GroupSkipped(side, action.leader, True))
            return
        ctx.emit(ev.GroupActivated(side, action.leader, tuple(members), rep, battle.dice[side]))
        for mech in battle.mechs.values():
            mech.reaction_fired_at.clear()  # ruling D15 counts per group activation
        ctx.push({"kind": "group", "side": side.value, "members": members, "acted": []})
        if side is Side.BLUE:
            troll_check(ctx)  # Mission 2: tested at a player activation's start (2.0.6 ruling)
        return


# -- group ----------------------------------------------------------------------------------
def _ready(battle: Battle, frame: Frame) -> list[int]:
    return [
        i
        for i in frame["members"]
        if i not in frame["acted"]
        and battle.mechs[i].removed is None
        and battle.mechs[i].status is not Status.LEAVE_BATTLEFIELD
    ]


def group_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Mechs still to act; engaged mechs fight a shared enemy in 18.3.4 order."""
    ready = _ready(battle, frame)
    allowed = []
    for mech_id in ready:
        mech = battle.mechs[mech_id]
        foes = engaged_with(battle, mech)
        rivals = [
            o
            for o in ready
            if o != mech_id and set(engaged_with(battle, battle.mechs[o])) & set(foes)
        ]
        if foes and rivals:
            order = melee_attack_order(
                [(i, battle.mechs[i].mech_class, battle.mechs[i].rep) for i in [mech_id, *rivals]]
            )
            if order[0] != mech_id and not mech.pilot.star:
                continue  # the bigger mech attacks first; Stars choose (§18.3.4)
        allowed.append(ChooseMech(mech_id))
    return list(allowed)


def group_step(ctx: Ctx, frame: Frame) -> None:
    """Let the next mech act (owner's choice when several)."""
    battle = ctx.battle
    options = group_options(battle, ctx.rules, frame)
    if not options:
        ctx.pop(frame)
        return
    if len(options) == 1:
        group_act(ctx, frame, options[0])
        return
    ctx.ask(Side(frame["side"]), DecisionKind.CHOOSE_MECH)


def group_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Start the chosen mech's activation."""
    assert isinstance(action, ChooseMech)
    frame["acted"].append(action.mech)
    ctx.push(mech_frame(action.mech))


TURN = FunctionHandler(turn_step)
PHASE = FunctionHandler(phase_step, phase_options, phase_act)
GROUP = FunctionHandler(group_step, group_options, group_act)
