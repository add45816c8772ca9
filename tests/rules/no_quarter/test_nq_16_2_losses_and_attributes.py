"""Losses per mech, Nerves of Steel on every Duck Back, YAML values read by the engine.

Issue 15, items 9, 11 and 14 (§9.6.4, §12, §16.2, §16.3.3, ruling D-list of the digest):
hand-built battles on an open table, played through ``game.play`` with every die scripted.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.events import Event
from wargym.rules.no_quarter import events as ev
from wargym.rules.no_quarter import game
from wargym.rules.no_quarter.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    EndFire,
    FireFirst,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.state import LOCATIONS, Battle, BattleOptions
from wargym.rules.no_quarter.terrain import Battlefield, Feature
from wargym.rules.no_quarter.vocab import (
    Attribute,
    Faction,
    Location,
    Removal,
    Side,
    Status,
    Terrain,
)

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
