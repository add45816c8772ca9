"""Voluntary group orders at the start of a side's activation phase (§12.2, §13.1, D30).

The phase first forms the groups of ruling D30 (connected components of the §13.2 links
inside each Team). Then, for the side that activates (never the non-player side, whose groups
follow §22), two stages of the phase frame:

* ``lead`` (``BattleOptions.command_groups="choose"``): each higher leader, Squad Leaders
  first, then Platoon Leaders, then the Company Commander (ties: lowest id), may take into
  his group each group that has a mech of his formation within his command radius (8" + LOS
  of him, ``leaders.yaml``): :class:`LeadTeam` one group at a time, :class:`LeadDone` when
  he takes no more. He is asked only while there is such a group (§12.2).
* ``split`` (``group_splits="choose"``): while some group has two or more mechs able to
  act, the side may split one of them off (:class:`SplitOff`: it activates alone this phase;
  the rest re-forms into its connected components, §13.2) or keep the groups
  (:class:`KeepGroups`) (§13.1).

A group's links are those it was formed by: the §13.2 cohesion link inside a Team, and a
higher leader's command-radius link to a mech of his formation.
"""

from __future__ import annotations

from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    DecisionKind,
    KeepGroups,
    LeadDone,
    LeadTeam,
    SplitOff,
)
from wargym.rules.no_quarter.battle.flow import Ctx, Frame
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.leaders import commands
from wargym.rules.no_quarter.forces.vocab import Rank, Side, Status
from wargym.rules.no_quarter.sight_movement.perception import group_leader, linked


def _acting(mech: Mech) -> bool:
    return mech.removed is None and mech.status is not Status.LEAVE_BATTLEFIELD


def first_stage(battle: Battle, side: Side) -> str:
    """The phase's stage after its groups are formed: ``lead``, ``split`` or ``choose``."""
    np_state = battle.np
    if np_state is not None and np_state["side"] == side.value:
        return "choose"  # the NP side's groups follow §22 (its Teams)
    if battle.options.command_groups == "choose":
        return "lead"
    return "split" if battle.options.group_splits == "choose" else "choose"


def higher_leaders(battle: Battle, side: Side) -> list[int]:
    """The side's Squad/Platoon Leaders and Company Commander, lowest rank first (§12.0)."""
    found = [
        m
        for m in battle.mechs_of(side)
        if m.rank is not None and m.rank.order > Rank.TEAM_LEADER.order
    ]
    return [m.id for m in sorted(found, key=lambda m: (m.rank.order if m.rank else 0, m.id))]


def _live(battle: Battle, group: list[int]) -> list[int]:
    return [i for i in group if _acting(battle.mechs[i])]


def lead_candidates(battle: Battle, rules: NoQuarterRules, frame: Frame, leader: int) -> list[int]:
    """Leaders of the groups ``leader`` may take in now (§12.2), in group order."""
    chief = battle.mechs[leader]
    if not _acting(chief):
        return []
    table = rules.leaders
    radius, los = float(table.command_radius_inches), table.command_radius_requires_los
    found = []
    for group in frame["groups"]:
        live = _live(battle, group)
        if not live or leader in group:
            continue
        if any(
            commands(rules, chief, battle.mechs[i])
            and linked(battle, chief, battle.mechs[i], radius, requires_los=los)
            for i in live
        ):
            found.append(group_leader(battle, live))
    return found


def _group_led_by(battle: Battle, frame: Frame, leader: int) -> list[int]:
    for group in frame["groups"]:
        live = _live(battle, group)
        if live and group_leader(battle, live) == leader:
            found: list[int] = group
            return found
    raise ValueError(f"no group of the phase is led by mech {leader}")


def lead_step(ctx: Ctx, frame: Frame) -> None:
    """Ask the next higher leader who has a group to take in, else go on to ``split``."""
    battle = ctx.battle
    leaders: list[int] = frame["leaders"]
    while leaders:
        if lead_candidates(battle, ctx.rules, frame, leaders[0]):
            frame["asking"] = leaders[0]
            ctx.ask(Side(frame["side"]), DecisionKind.LEAD_TEAMS, leaders[0])
            return
        leaders.pop(0)
    frame.pop("asking", None)
    frame.pop("leaders", None)
    frame["stage"] = "split" if battle.options.group_splits == "choose" else "choose"


def lead_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Take in one of the groups in the asking leader's radius, or take no more (§12.2)."""
    leader = int(frame["asking"])
    options: list[Action] = [
        LeadTeam(leader, g) for g in lead_candidates(battle, rules, frame, leader)
    ]
    return [*options, LeadDone(leader)]


def lead_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Merge the chosen group into the leader's, or move on to the next leader."""
    battle = ctx.battle
    assert isinstance(action, LeadTeam | LeadDone)
    if isinstance(action, LeadDone):
        frame["leaders"].pop(0)
        return
    joined = _group_led_by(battle, frame, action.group)
    own = next(g for g in frame["groups"] if action.mech in g)
    merged = sorted(own + joined)
    frame["groups"] = [g for g in frame["groups"] if g is not own and g is not joined]
    frame["groups"].append(merged)
    leader = group_leader(battle, _live(battle, merged) or merged)
    ctx.emit(ev.TeamJoined(Side(frame["side"]), leader, tuple(sorted(joined)), tuple(merged)))


def split_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Split off any mech able to act of a group with two or more such mechs, or keep them."""
    options: list[Action] = []
    for group in frame["groups"]:
        live = _live(battle, group)
        if len(live) > 1:
            options.extend(SplitOff(i) for i in live)
    return [*options, KeepGroups()] if options else []


def split_step(ctx: Ctx, frame: Frame) -> None:
    """Ask for a split while one is possible, else go on to the activations."""
    if split_options(ctx.battle, ctx.rules, frame):
        ctx.ask(Side(frame["side"]), DecisionKind.SPLIT_GROUP)
        return
    frame["stage"] = "choose"


def components(battle: Battle, rules: NoQuarterRules, members: list[int]) -> list[list[int]]:
    """Connected components of ``members`` under the links groups are formed by (§13.2)."""
    table = rules.leaders
    cohesion = (float(table.cohesion_link_inches), table.cohesion_link_requires_los)
    command = (float(table.command_radius_inches), table.command_radius_requires_los)
    unseen = set(members)
    found: list[list[int]] = []
    for start in sorted(members):
        if start not in unseen:
            continue
        unseen.discard(start)
        part, stack = [], [start]
        while stack:
            current = battle.mechs[stack.pop()]
            part.append(current.id)
            for other_id in sorted(unseen):
                other = battle.mechs[other_id]
                inches, los = cohesion
                if other.team != current.team:
                    if not (commands(rules, current, other) or commands(rules, other, current)):
                        continue
                    inches, los = command
                if linked(battle, current, other, inches, requires_los=los):
                    unseen.discard(other_id)
                    stack.append(other_id)
        found.append(sorted(part))
    return found


def split_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Split the chosen mech off, or keep the groups and go on."""
    battle = ctx.battle
    assert isinstance(action, SplitOff | KeepGroups)
    if isinstance(action, KeepGroups):
        frame["stage"] = "choose"
        return
    old = next(g for g in frame["groups"] if action.mech in g)
    rest = components(battle, ctx.rules, [i for i in old if i != action.mech])
    parts = [*rest, [action.mech]]
    frame["groups"] = [g for g in frame["groups"] if g is not old] + parts
    leaders = tuple(group_leader(battle, _live(battle, p) or p) for p in parts)
    ctx.emit(ev.MechSplitOff(Side(frame["side"]), action.mech, tuple(map(tuple, parts)), leaders))


__all__ = [
    "components",
    "first_stage",
    "higher_leaders",
    "lead_act",
    "lead_candidates",
    "lead_options",
    "lead_step",
    "split_act",
    "split_options",
    "split_step",
]
