"""Losses per mech, Nerves of Steel on every Duck Back, YAML values read by the engine.

Issue 15, items 9, 11 and 14 (§9.6.4, §12, §16.2, §16.3.3, ruling D-list of the digest):
hand-built battles on an open table, played through ``game.play`` with every die scripted.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    EndFire,
    FireFirst,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.battle.consequences import remove
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import LOCATIONS, Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import (
    CONFIG_DIR,
    TABLE_FILES,
    NoQuarterRules,
    load_rules,
    parse_rules,
)
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle, new_skirmish
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    Faction,
    Location,
    Rank,
    Removal,
    Side,
    Status,
    Terrain,
)
from wargym.rules.tables import load_config, parse_yaml, read_config_text

PDF_WALL = Feature(Terrain.BUILDING, 21.0, 25.0, 25.0, 29.0, building_armor=3)
WALL = Feature(Terrain.BUILDING, 10.0, 14.0, 15.0, 18.0, building_armor=3)


def _battle(
    blue: list[str],
    red: list[str],
    *,
    red_faction: Faction = Faction.PDF,
    features: tuple[Feature, ...] = (PDF_WALL,),
    options: BattleOptions | None = None,
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, tuple(blue), use_attributes=False),
        ForceSpec(Side.RED, red_faction, tuple(red), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        Battlefield(features=features),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        options=options or BattleOptions(),
    )
    for mech in battle.mechs.values():
        rep = 5 if mech.side is Side.BLUE else 4
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _play(battle: Battle, dice: ScriptedDice, actions: list[Action]) -> list[Event]:
    log = list(game.advance(battle, dice))
    for action in actions:
        log.extend(game.play(battle, action, dice))
    return log


def _kill_the_friend(tester: tuple[float, float]) -> Battle:
    """Blue #0 will shoot red #1 (gut armour 1) dead; red #2 stands near it."""
    battle = _battle(["star_army_c3"], ["pdf_c1", "pdf_c1"])
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (18.5, 20.0), 180.0)
    _place(battle, 2, tester, 180.0)
    battle.mechs[1].armor[LOCATIONS.index(Location.GUT)] = 1
    return battle


# activation 5:4; PPG to-hit 6 (11: hit), location 4+4 (gut), damage 1, 2 vs Impact 5 (pass 2):
# the gut reaches 0, the mech is inoperable.
KILL_DICE = [5, 4, 6, 4, 4, 1, 2]
SHOOT = [ActivateGroup(0), FireFirst(0), AssignFire(0, 0, 1), EndFire(0)]


def _lost(battle: Battle, side: Side) -> int:
    """Mechs of ``side`` destroyed, inoperable or given Leave the Battlefield (§16.2)."""
    return sum(
        1
        for m in battle.mechs.values()
        if m.side is side
        and (
            m.status is Status.LEAVE_BATTLEFIELD
            or (m.removed is not None and m.removed is not Removal.LEFT_TABLE)
        )
    )


# -- §16.3.3 / §16.2: a loss counts once per mech ---------------------------------------
def test_16_3_3_a_leaving_mech_stays_leaving_and_counts_once() -> None:
    """Red #2 already Leaves; its friend's loss neither tests it nor ducks it back."""
    battle = _kill_the_friend((21.0, 22.0))
    battle.apply(ev.StatusChanged(2, Status.LEAVE_BATTLEFIELD, "earlier result"))
    assert battle.losses[Side.RED] == 1
    # pass 1 would be Duck Back for a tester; a Leaving mech takes no test (§16.3.3)
    dice = ScriptedDice([*KILL_DICE, 1, 6])
    log = _play(battle, dice, SHOOT)
    assert battle.mechs[1].removed is not None
    assert not [e for e in log if isinstance(e, ev.ReactionTaken) and e.mech == 2]
    assert battle.mechs[2].status is Status.LEAVE_BATTLEFIELD
    assert battle.losses[Side.RED] == _lost(battle, Side.RED) == 2
    battle.apply(ev.MechRemoved(2, Removal.DESTROYED, Side.RED, 1))
    assert battle.losses[Side.RED] == _lost(battle, Side.RED) == 2


def test_16_2_losses_count_each_mech_once_whatever_the_event_order() -> None:
    """Leave, a later status, then destruction: one loss; a removed mech's status: none."""
    battle = _battle(["star_army_c3"], ["pdf_c1", "pdf_c1"])
    battle.apply(ev.StatusChanged(1, Status.LEAVE_BATTLEFIELD, "fired_on result"))
    battle.apply(ev.StatusChanged(1, Status.DUCK_BACK, "ranged damage pass 0"))
    battle.apply(ev.StatusChanged(1, Status.LEAVE_BATTLEFIELD, "fired_on result"))
    battle.apply(ev.MechRemoved(1, Removal.DESTROYED, Side.RED, 1))
    battle.apply(ev.MechRemoved(2, Removal.INOPERABLE, Side.RED, 1))
    battle.apply(ev.StatusChanged(2, Status.LEAVE_BATTLEFIELD, "late result"))
    assert battle.losses[Side.RED] == 2
    assert battle.losses[Side.BLUE] == 0


# -- §9.6.4: Nerves of Steel treats every Duck Back as Carry On ----------------------------
# activation 5:4; PPG to-hit 6 (hit), location 4+4 (gut), damage 6, 6 vs Impact 5: pass 0,
# no armour lost, the target ducks back with no test (§17.4.2).
PASS_0_DICE = [5, 4, 6, 4, 4, 6, 6]


def _pass_0_at(nerves: bool) -> tuple[Battle, list[Event]]:
    battle = _battle(["star_army_c3"], ["pdf_c1"])
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (18.5, 20.0), 180.0)
    if nerves:
        pilot = battle.mechs[1].pilot
        battle.mechs[1].pilot = dataclasses.replace(pilot, attributes=(Attribute.NERVES_OF_STEEL,))
    dice = ScriptedDice(PASS_0_DICE)
    log = _play(battle, dice, [ActivateGroup(0), FireFirst(0), AssignFire(0, 0, 1), EndFire(0)])
    assert dice.remaining == 0
    return battle, log


def test_9_6_4_nerves_of_steel_ignores_the_ranged_pass_0_duck_back() -> None:
    plain, plain_log = _pass_0_at(nerves=False)
    assert plain.mechs[1].status is Status.DUCK_BACK  # the situation does duck back
    assert any(isinstance(e, ev.MechMoved) and e.kind == "duck_back" for e in plain_log)
    steady, log = _pass_0_at(nerves=True)
    assert steady.mechs[1].status is Status.CARRY_ON
    assert steady.mechs[1].pos == (18.5, 20.0)
    assert not [e for e in log if isinstance(e, ev.StatusChanged) and e.mech == 1]


def _spent_in_sight_winner(nerves: bool) -> tuple[Battle, list[Event]]:
    """Blue #0 fires first at red #1, moves and wins an In Sight with red #2 (another Team):
    with ``in_sight_spent_fire="priority"`` it cannot fire again and, in red's range, ducks
    back (§16.1.4) - unless its pilot has Nerves of Steel."""
    battle = _battle(
        ["star_army_c3"],
        ["hishen_c5", "hishen_c5"],
        red_faction=Faction.HISHEN,
        features=(WALL,),
        options=BattleOptions(in_sight_spent_fire="priority"),
    )
    battle.mechs[0].rep = 6
    if nerves:
        pilot = battle.mechs[0].pilot
        battle.mechs[0].pilot = dataclasses.replace(pilot, attributes=(Attribute.NERVES_OF_STEEL,))
    battle.mechs[2].team = battle.mechs[1].team + 1
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (4.0, 24.0), 270.0)
    _place(battle, 2, (18.0, 24.0), 270.0)
    # activation, two misses at #1 and its Fired On (outgunned: Carry On); then the In Sight
    # with #2: blue 6 x 4 (EWS 2 successes), red 4 x 6.
    dice = ScriptedDice([5, 4, 1, 1, 1, 1] + [4] * 6 + [6] * 4)
    actions: list[Action] = [
        ActivateGroup(0),
        FireFirst(0),
        AssignFire(0, 0, 1),
        AssignFire(0, 1, 1),
        Move(0, (18.0, 10.0)),
        FreeMove(0, None),
    ]
    log = _play(battle, dice, actions)
    assert dice.remaining == 0
    return battle, log


def test_9_6_4_nerves_of_steel_ignores_the_in_sight_duck_back() -> None:
    plain, plain_log = _spent_in_sight_winner(nerves=False)
    acted = [(e.mech, e.action) for e in plain_log if isinstance(e, ev.InSightAction)]
    assert acted == [(0, "duck_back")] and plain.mechs[0].status is Status.DUCK_BACK
    steady, log = _spent_in_sight_winner(nerves=True)
    acted = [(e.mech, e.action) for e in log if isinstance(e, ev.InSightAction)]
    assert acted == [(0, "carry_on")]
    assert steady.mechs[0].status is Status.CARRY_ON


# -- item 14: the YAML values are read by the engine ----------------------------------------
def _with(monkeypatch: pytest.MonkeyPatch, **changes: object) -> NoQuarterRules:
    """Play with rule tables edited as a changed YAML file would (section=field=value)."""
    rules = load_rules()
    for key, value in changes.items():
        section, name = key.split("__")
        rules = dataclasses.replace(
            rules, **{section: dataclasses.replace(getattr(rules, section), **{name: value})}
        )
    monkeypatch.setattr(game, "rules_of", lambda battle: rules)
    return rules


def _mech_down_tests(battle: Battle) -> list[ev.ReactionTaken]:
    dice = ScriptedDice([*KILL_DICE, 1, 1])
    log = _play(battle, dice, SHOOT)
    assert battle.mechs[1].removed is not None
    return [e for e in log if isinstance(e, ev.ReactionTaken) and e.test.value == "mech_down"]


def test_16_2_mech_down_radius_is_read_from_the_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """Red #2 stands 3.2" from its downed friend: it tests within 4", not within 3"."""
    assert [e.mech for e in _mech_down_tests(_kill_the_friend((21.0, 22.0)))] == [2]
    _with(monkeypatch, reaction__mech_down_radius_inches=3)
    assert _mech_down_tests(_kill_the_friend((21.0, 22.0))) == []


SCREEN = Feature(Terrain.BUILDING, 17.0, 21.3, 20.0, 22.7, building_armor=3)
"""Stands between the downed red #1 at (18.5, 20) and red #2 at (18.5, 23.8)."""


def _screened_friend() -> Battle:
    battle = _battle(["star_army_c3"], ["pdf_c1", "pdf_c1"], features=(SCREEN,))
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (18.5, 20.0), 180.0)
    _place(battle, 2, (18.5, 23.8), 180.0)
    battle.mechs[1].armor[LOCATIONS.index(Location.GUT)] = 1
    return battle


def test_16_2_mech_down_los_requirement_is_read_from_the_yaml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _mech_down_tests(_screened_friend()) == []  # out of LOS of the lost friend
    _with(monkeypatch, reaction__mech_down_requires_los=False)
    assert [e.mech for e in _mech_down_tests(_screened_friend())] == [2]


def _groups_formed(battle: Battle) -> list[tuple[int, ...]]:
    log = game.advance(battle, ScriptedDice([5, 4]))
    formed = next(e for e in log if isinstance(e, ev.GroupsFormed) and e.side is Side.BLUE)
    return list(formed.groups)


def _team_in_a_line(options: BattleOptions | None = None) -> Battle:
    battle = _battle(["star_army_c3"] * 3, ["pdf_c1"], options=options)
    for i in range(3):
        _place(battle, i, (6.0 + 7.0 * i, 5.0), 90.0)  # links of 7"
    _place(battle, 3, (20.0, 40.0), 270.0)
    return battle


def test_13_2_cohesion_link_length_is_read_from_the_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _groups_formed(_team_in_a_line()) == [(0, 1, 2)]
    _with(monkeypatch, leaders__cohesion_link_inches=6)
    assert _groups_formed(_team_in_a_line()) == [(0,), (1,), (2,)]


def _two_teams_under_a_squad_leader() -> Battle:
    battle = _battle(
        ["star_army_c3"] * 6, ["pdf_c1"], options=BattleOptions(command_groups="command_radius")
    )
    assert battle.mechs[0].rank is Rank.SQUAD_LEADER
    for i in range(6):  # Team columns 7" apart: the second Team's leader 7" from the Squad's
        _place(battle, i, (4.0 + 7.0 * (i // 3), 4.0 + 3.0 * (i % 3)), 90.0)
    _place(battle, 6, (20.0, 40.0), 270.0)
    return battle


def test_12_2_command_radius_is_read_from_the_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _groups_formed(_two_teams_under_a_squad_leader()) == [(0, 1, 2, 3, 4, 5)]
    _with(monkeypatch, leaders__command_radius_inches=6)
    assert _groups_formed(_two_teams_under_a_squad_leader()) == [(0, 1, 2), (3, 4, 5)]


# -- §12.0 succession --------------------------------------------------------------------
def _lose(battle: Battle, mech: int, rules: NoQuarterRules | None = None) -> list[Event]:
    ctx = Ctx(battle, ScriptedDice([]), rules or load_rules())
    remove(ctx, battle.mechs[mech], Removal.DESTROYED)
    return [e for e in ctx.log if isinstance(e, ev.LeaderAppointed)]


def test_12_0_squad_leader_passes_to_the_highest_rep_team_leader_of_the_squad() -> None:
    battle = _battle(["star_army_c3"] * 6, ["pdf_c1"])
    battle.mechs[1].rep, battle.mechs[2].rep, battle.mechs[3].rep = 5, 4, 6  # #3 outranks #1
    appointed = [(e.mech, e.rank) for e in _lose(battle, 0)]
    assert appointed == [(1, "team_leader"), (3, "squad_leader")]
    assert battle.mechs[3].rank is Rank.SQUAD_LEADER


def test_12_0_a_platoon_has_squad_leaders_and_the_first_succeeds_its_leader() -> None:
    """Star Army: 2 Teams a Squad; a Platoon of 3 Teams: the 2nd Squad's leader is #6."""
    battle = _battle(["star_army_c3"] * 9, ["pdf_c1"])
    ranks = [battle.mechs[i].rank for i in (0, 3, 6)]
    assert ranks == [Rank.PLATOON_LEADER, Rank.TEAM_LEADER, Rank.SQUAD_LEADER]
    battle.mechs[3].rep = 6  # a Team Leader, not the Squad Leader: no claim on the Platoon
    appointed = [(e.mech, e.rank) for e in _lose(battle, 0)]
    assert appointed[-1] == (6, "platoon_leader")


def test_12_0_succession_order_is_read_from_the_yaml() -> None:
    rules = load_rules()
    succession = dict(rules.leaders.succession)
    succession["squad_leader"] = ("highest_rep_pilot_in_team",)
    edited = dataclasses.replace(
        rules, leaders=dataclasses.replace(rules.leaders, succession=succession)
    )
    battle = _battle(["star_army_c3"] * 6, ["pdf_c1"])
    battle.mechs[1].rep, battle.mechs[2].rep, battle.mechs[3].rep = 4, 5, 6
    appointed = [(e.mech, e.rank) for e in _lose(battle, 0, edited)]
    assert appointed == [(2, "team_leader"), (2, "squad_leader")]  # by default: #3


def test_12_0_unknown_successor_in_the_yaml_is_refused() -> None:
    """leaders.yaml naming a successor the engine cannot find: a TableError naming it."""
    path = f"{CONFIG_DIR}/leaders.yaml"
    text = read_config_text(path)
    old = "squad_leader: [highest_rep_team_leader_in_squad]"
    assert old in text
    nodes = {name: load_config(f"{CONFIG_DIR}/{name}.yaml") for name in TABLE_FILES}
    nodes["leaders"] = parse_yaml(
        text.replace(old, "squad_leader: [the_bravest_" + "x" * 200 + "]"), path
    )
    with pytest.raises(TableError) as error:
        parse_rules(nodes)
    message = str(error.value)
    assert "leaders.yaml: succession.squad_leader" in message and "the_bravest_" in message
    assert "x" * 81 not in message


def test_16_2_losses_equal_the_mechs_lost_in_random_games() -> None:
    """The audit's property: after every step, each side's losses are its mechs lost."""
    for seed in range(8):
        dice = RandomDice.from_seed(seed)
        battle = new_skirmish(np.random.default_rng(seed), dice, mechs_per_side=6)
        pick = np.random.default_rng(100 + seed)
        for _ in range(300):
            if battle.over:
                break
            options = game.legal_actions(battle)
            game.play(battle, options[int(pick.integers(len(options)))], dice)
            for side in Side:
                assert battle.losses[side] == _lost(battle, side), (seed, side)
