"""The native groups, leaders and group orders agree with the reference.

Mirrors of rules/no_quarter/forces/leaders.py (formations, higher leaders, ranks at set-up,
succession), the activation Rep of pilots.py/data.py, and the pure parts of
rules/no_quarter/battle/group_orders.py (stages, the leaders asked, LeadTeam/LeadDone and
SplitOff/KeepGroups options, the groups after a choice, components). Over sampled states of
every set-up and option variant, and of games under every ``command_groups`` x
``group_splits`` choice sampled at every group-order decision: each answer equals the
reference's; at a pending group-order decision the native options are the legal actions, and
what the reference's choice made of the groups (its event and the phase frame) is what the
native computation gives.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _perception_states import (  # noqa: E402
    Sample,
    mission_samples,
    shared_skirmish_samples,
    skirmish_samples,
)
from _state_compare import same  # noqa: E402

from wargym.native.no_quarter.perception import core, group_rules  # noqa: E402
from wargym.rules.dice import RandomDice  # noqa: E402
from wargym.rules.no_quarter.battle import events as ev  # noqa: E402
from wargym.rules.no_quarter.battle import game, group_orders  # noqa: E402
from wargym.rules.no_quarter.battle.actions import (  # noqa: E402
    Action,
    KeepGroups,
    LeadDone,
    LeadTeam,
    SplitOff,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions  # noqa: E402
from wargym.rules.no_quarter.forces import leaders  # noqa: E402
from wargym.rules.no_quarter.forces.data import NoQuarterRules, activation_rep, load_rules  # noqa: E402
from wargym.rules.no_quarter.forces.pilots import may_activate  # noqa: E402
from wargym.rules.no_quarter.forces.records import FormationRow  # noqa: E402
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Rank, Side  # noqa: E402
from wargym.rules.no_quarter.sight_movement import perception  # noqa: E402

GROUP_VARIANTS = [
    BattleOptions(command_groups=c, group_splits=g)
    for c, g in itertools.product(("choose", "teams", "command_radius"), ("choose", "off"))
]


def plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def check(label: str, what: str, expected: Any, got: Any) -> None:
    diff = same(plain(expected), plain(got), what)
    assert diff is None, f"{label}: {diff}"


def action(option: tuple[Any, ...]) -> Action:
    """A native option tuple as the reference's Action."""
    kind, *args = option
    kinds: dict[str, Any] = {"lead_team": LeadTeam, "lead_done": LeadDone,
                             "split_off": SplitOff, "keep_groups": KeepGroups}  # fmt: skip
    made: Action = kinds[kind](*args)
    return made


def phase_frame(battle: Battle) -> dict[str, Any] | None:
    for frame in reversed(battle.frames):
        if frame.get("kind") == "phase" and "groups" in frame:
            return frame
    return None


def check_leaders(s: Sample, rules: NoQuarterRules, tables: Any) -> None:
    """leaders.py and the activation Rep for every mech and pair."""
    b, n = s.battle, s.native.battle
    mechs = list(b.mechs.values())
    for m in mechs:
        check(
            s.label, f"squad_of({m.id})", leaders.squad_of(rules, m), core.squad_of(n, tables, m.id)
        )
        check(s.label, f"platoon_of({m.id})", leaders.platoon_of(rules, m),
              core.platoon_of(n, tables, m.id))  # fmt: skip
        for o in mechs:
            check(s.label, f"commands({m.id}, {o.id})", leaders.commands(rules, m, o),
                  core.commands(n, tables, m.id, o.id))  # fmt: skip
        for rank in Rank:
            for friends in (b.mechs_of(m.side), mechs):
                heir = leaders.successor(rules, m, rank, friends)
                got = core.successor(n, tables, m.id, rank.value, [f.id for f in friends])
                check(s.label, f"successor({m.id}, {rank.value})",
                      None if heir is None else heir.id, got)  # fmt: skip
        attributes = [a.value for a in m.pilot.attributes]
        for size in (1, 2, 3):
            check(s.label, f"activation_rep({m.id}, {size})",
                  activation_rep(m.rep, m.pilot.attributes, size, rules=rules),
                  core.activation_rep(tables, m.rep, attributes, size))  # fmt: skip


def check_group_orders(s: Sample, tables: Any) -> dict[str, int]:
    """group_orders' pure parts on the state's phase frame, if it has one."""
    b, n, t = s.battle, s.native.battle, s.native.terrain
    rules = load_rules(b.options.rules)
    seen = {"lead": 0, "split": 0, "candidates": 0}
    for side in Side:
        check(s.label, f"first_stage({side.value})", group_orders.first_stage(b, side),
              core.first_stage(n, side.value))  # fmt: skip
        check(s.label, f"higher_leaders({side.value})", group_orders.higher_leaders(b, side),
              core.higher_leaders(n, side.value))  # fmt: skip
    frame = phase_frame(b)
    if frame is None:
        return seen
    groups = frame["groups"]
    for leader in group_orders.higher_leaders(b, Side(frame["side"])):
        found = group_orders.lead_candidates(b, rules, frame, leader)
        seen["candidates"] += bool(found)
        check(s.label, f"lead_candidates({leader})", found,
              core.lead_candidates(n, t, tables, groups, leader))  # fmt: skip
    check(s.label, "split_options", group_orders.split_options(b, rules, frame),
          [action(o) for o in core.split_options(n, groups)])  # fmt: skip
    for g in groups:
        check(s.label, f"components({g})", group_orders.components(b, rules, g),
              core.components(n, t, tables, g))  # fmt: skip
        live = [i for i in g if group_orders._acting(b.mechs[i])]
        if live:
            leader = perception.group_leader(b, live)
            led = group_orders._group_led_by(b, frame, leader)
            check(s.label, f"group_led_by({leader})",
                  next(i for i, x in enumerate(groups) if x is led),
                  core.group_led_by(n, groups, leader))  # fmt: skip
    every = [i for g in groups for i in g]
    check(s.label, "components(all)", group_orders.components(b, rules, every),
          core.components(n, t, tables, every))  # fmt: skip
    if "leaders" in frame:
        check_lead_next(s, frame, tables)
    decision = b.decision.kind.value if b.decision is not None else ""
    if decision == "lead_teams" and frame is b.frames[-1]:
        seen["lead"] += 1
        native = [action(o) for o in core.lead_options(n, t, tables, groups, frame["asking"])]
        check(s.label, "lead_options", group_orders.lead_options(b, rules, frame), native)
        check(s.label, "legal lead options", game.legal_actions(b), native)
        for option in native:
            if isinstance(option, LeadTeam):
                check_choice(s, option, core.lead_merge(n, groups, option.mech, option.group))
    if decision == "split_group" and frame is b.frames[-1]:
        seen["split"] += 1
        native = [action(o) for o in core.split_options(n, groups)]
        check(s.label, "legal split options", game.legal_actions(b), native)
        for option in native:
            if isinstance(option, SplitOff):
                check_choice(s, option, core.split_off(n, t, tables, groups, option.mech))
    return seen


def check_lead_next(s: Sample, frame: dict[str, Any], tables: Any) -> None:
    """lead_step's computation against the reference's frame after the step."""
    b = Battle.from_dict(s.battle.to_dict())
    copy = phase_frame(b)
    assert copy is not None
    remaining, asking, stage = core.lead_next(s.native.battle, s.native.terrain, tables,
                                              frame["groups"], frame["leaders"])  # fmt: skip
    leaders_now = list(copy["leaders"])
    while leaders_now and not group_orders.lead_candidates(b, load_rules(b.options.rules),
                                                           copy, leaders_now[0]):  # fmt: skip
        leaders_now.pop(0)
    check(s.label, "lead_next leaders", leaders_now, remaining)
    check(s.label, "lead_next asking", leaders_now[0] if leaders_now else None, asking)
    if not leaders_now:
        check(s.label, "lead_next stage",
              "split" if b.options.group_splits == "choose" else "choose", stage)  # fmt: skip


def check_choice(s: Sample, option: Action, native: tuple[Any, ...]) -> None:
    """The reference plays ``option``: its event and phase frame are the native computation."""
    b = Battle.from_dict(s.battle.to_dict())
    side = Side(phase_frame(b)["side"])  # type: ignore[index]
    events = game.play(b, option, RandomDice.from_seed(0))
    after = next((f for f in reversed(b.frames) if f.get("kind") == "phase"
                  and f.get("side") == side.value and "groups" in f), None)  # fmt: skip
    if isinstance(option, LeadTeam):
        groups, leader, joined, merged = native
        event = next(e for e in events if isinstance(e, ev.TeamJoined))
        check(s.label, f"{option} event", (event.leader, event.joined, event.members),
              (leader, joined, merged))  # fmt: skip
    else:
        groups, parts, leaders_ = native
        event = next(e for e in events if isinstance(e, ev.MechSplitOff))
        check(s.label, f"{option} event", (event.groups, event.leaders), (parts, leaders_))
    if after is not None:
        check(s.label, f"{option} groups", after["groups"], groups)


def test_native_leaders_and_group_orders_match_on_skirmish_states() -> None:
    rules_seen: dict[Any, Any] = {}
    for s in shared_skirmish_samples():
        options = s.battle.options.rules
        if options not in rules_seen:
            rules_seen[options] = load_rules(options)
        check_leaders(s, rules_seen[options], s.native.rules)
        check_group_orders(s, s.native.rules)


def test_native_group_orders_match_under_every_group_option() -> None:
    """Every command_groups x group_splits choice, sampled at every group-order decision."""
    totals = {"lead": 0, "split": 0, "candidates": 0}
    for s in skirmish_samples(12, variants=GROUP_VARIANTS, decisions=80, stride=40,
                              every_group_order=True, seed=100, sizes=(4, 5)):  # fmt: skip
        for key, value in check_group_orders(s, s.native.rules).items():
            totals[key] += value
    assert all(v > 0 for v in totals.values()), totals


def test_native_group_orders_match_on_mission_states() -> None:
    for s in mission_samples():
        check_leaders(s, load_rules(s.battle.options.rules), s.native.rules)
        check_group_orders(s, s.native.rules)


def test_initial_ranks_and_formation_rows_match() -> None:
    rules, tables = load_rules(), group_rules(load_rules())
    for faction in Faction:
        row = leaders.formation_row(rules, faction)
        check(faction.value, "formation_row", dataclasses.astuple(row),
              core.formation_row(tables, faction.value))  # fmt: skip
    for teams, s, p, c in itertools.product(range(0, 25), (1, 2, 3), (1, 2, 3), (1, 2)):
        row = FormationRow(s, p, c)
        check(f"{teams} teams {row}", "initial_ranks",
              [r.value for r in leaders.initial_ranks(teams, row)],
              core.initial_ranks(teams, (s, p, c)))  # fmt: skip


def test_activation_rep_matches_for_every_attribute_set() -> None:
    rules, tables = load_rules(), group_rules(load_rules())
    everything = list(Attribute)
    rng = np.random.default_rng(5)
    for _ in range(400):
        chosen = [
            everything[int(i)] for i in rng.integers(len(everything), size=rng.integers(0, 4))
        ]
        rep, size = int(rng.integers(1, 7)), int(rng.integers(1, 5))
        check(str(chosen), "activation_rep", activation_rep(rep, chosen, size, rules=rules),
              core.activation_rep(tables, rep, [a.value for a in chosen], size))  # fmt: skip
    for rep, die in itertools.product(range(0, 8), range(1, 7)):
        assert core.may_activate(rep, die) is may_activate(rep, die)


def changed_rules() -> NoQuarterRules:
    """Every table number the mirrors read, changed."""
    rules = load_rules()
    org = {f: FormationRow(1, 2, 3) for f in rules.organization}
    lead = dataclasses.replace(
        rules.leaders, command_radius_inches=30, command_radius_requires_los=False,
        cohesion_link_inches=4, succession={
            "team_leader": ("highest_rep_team_leader_in_squad", "highest_rep_pilot_in_team"),
            "squad_leader": ("highest_rep_team_leader_in_squad", "highest_rep_pilot_in_team"),
            "platoon_leader": ("squad_leader_2", "squad_leader_1"),
            "company_commander": ("highest_rep_pilot_in_team", "squad_leader_1"),
        },
    )  # fmt: skip
    activation = dataclasses.replace(
        rules.activation,
        attribute_rep={Attribute.DUMBASS: -2, Attribute.INITIATIVE: 2, Attribute.AGILE: 1},
        only_when_group_size={Attribute.INITIATIVE: 2},
    )
    return dataclasses.replace(rules, organization=org, leaders=lead, activation=activation)


def test_the_native_leaders_read_the_numbers_they_are_handed() -> None:
    """Change table 11.0's rows, the radii, succession and activation modifiers: both follow."""
    changed, default = changed_rules(), load_rules()
    tables = group_rules(changed)
    differs = 0
    variants = [BattleOptions(command_groups="command_radius"), BattleOptions()]
    for s in skirmish_samples(10, variants=variants, decisions=40, stride=10, seed=7):
        check_leaders(s, changed, tables)
        b, n = s.battle, s.native
        for side in Side:
            groups = perception.form_groups(b, side, changed)
            differs += groups != perception.form_groups(b, side, default)
            check(
                s.label, "form_groups", groups, core.form_groups(n.battle, n.terrain, tables, side)
            )
        frame = phase_frame(b)
        for leader in group_orders.higher_leaders(b, Side.BLUE) if frame else []:
            got = core.lead_candidates(n.battle, n.terrain, tables, frame["groups"], leader)
            check(s.label, "lead_candidates",
                  group_orders.lead_candidates(b, changed, frame, leader), got)  # fmt: skip
        for m in b.mechs.values():
            squads = leaders.squad_of(changed, m), leaders.squad_of(default, m)
            differs += squads[0] != squads[1]
    assert differs > 0
