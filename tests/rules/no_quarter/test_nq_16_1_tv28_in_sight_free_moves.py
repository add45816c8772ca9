"""Worked example tv28 (book 16.1.2-16.1.3): In Sight and the triggering force's free moves.

White's mechs A and B advance; A comes into sight of enemy 1: In Sight is triggered at that
moment. Before anyone rolls, every mech of the triggering force may move up to 2" free: B
steps to the building corner and now also sees 1, so both A and B take part; each side's
group leader rolls once.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    ActivateGroup,
    ChooseMech,
    DecisionKind,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.no_quarter.sight_movement.perception import line_between

WALL = Feature(Terrain.BUILDING, 10.0, 14.0, 15.0, 18.0, building_armor=3)
A, B, ENEMY = 0, 1, 2
START_B = (9.5, 12.0)


def _battle() -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * 2, use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c5",), use_attributes=False),
    ]
    field = Battlefield(features=(WALL,))
    splits = BattleOptions(group_splits="off")  # A and B stay one group (§13.1: E19 tests)
    battle = new_battle(forces, field, np.random.default_rng(0), RandomDice.from_seed(0), splits)
    for mech in battle.mechs.values():
        mech.rep = 5 if mech.side is Side.BLUE else 4
        mech.pilot = dataclasses.replace(mech.pilot, rep=mech.rep)
    places = {A: ((12.0, 10.0), 90.0), B: (START_B, 90.0), ENEMY: ((12.5, 26.0), 270.0)}
    for mech_id, (pos, heading) in places.items():
        battle.mechs[mech_id].pos, battle.mechs[mech_id].heading = pos, heading
    battle.options_cache = battle.geometry_cache = None
    for mech_id in (A, B):  # both hidden behind the building at first
        assert not line_between(battle, battle.mechs[mech_id], battle.mechs[ENEMY]).visible
    return battle


def _to_the_corner(battle: Battle) -> FreeMove:
    """B's first legal free move from which it sees the enemy (past the building's corner)."""
    for option in game.legal_actions(battle):
        if isinstance(option, FreeMove) and option.mech == B and option.to is not None:
            probe = battle.clone()
            probe.mechs[B].pos = option.to
            probe.options_cache = probe.geometry_cache = None
            if line_between(probe, probe.mechs[B], probe.mechs[ENEMY]).visible:
                return option
    raise AssertionError("no free move of B reaches the corner")


def _play_tv28() -> tuple[Battle, list[Event], list[int]]:
    battle = _battle()
    # activation 5:4 (blue first); In Sight: blue 4s, red 6s; then whatever the dice bring
    dice = FallbackDice([5, 4] + [4] * 5 + [6] * 4, np.random.default_rng(7))
    log = list(game.advance(battle, dice))
    for action in (ActivateGroup(A), ChooseMech(A), Move(A, (22.0, 10.0))):
        log += game.play(battle, action, dice)
    free_movers: list[int] = []
    while battle.decision is not None and battle.decision.kind is DecisionKind.FREE_MOVE:
        mech = battle.decision.mech
        assert mech is not None and not any(isinstance(e, ev.InSightTaken) for e in log)
        free_movers.append(mech)
        action = _to_the_corner(battle) if mech == B else FreeMove(mech, None)
        log += game.play(battle, action, dice)
    return battle, log, free_movers


def test_16_1_2_tv28_in_sight_triggers_when_a_comes_into_sight() -> None:
    battle, log, free_movers = _play_tv28()
    moved = next(e for e in log if isinstance(e, ev.MechMoved) and e.mech == A)
    stop = moved.path[-1]
    assert stop != (22.0, 10.0)  # the move paused on coming into sight
    assert stop[0] < 22.0
    assert sorted(free_movers) == [A, B]  # every mech of the triggering force, before the roll


def test_16_1_3_tv28_b_steps_to_the_corner_and_both_take_part() -> None:
    battle, log, _ = _play_tv28()
    assert 0.0 < distance(START_B, battle.mechs[B].pos) <= 2.0 + 1e-9
    assert line_between(battle, battle.mechs[B], battle.mechs[ENEMY]).visible
    rolls = [e for e in log if isinstance(e, ev.InSightTaken)]
    assert len(rolls) == 1  # one roll per side's group leader
    (taken,) = rolls
    assert (taken.moving_leader, taken.nonmoving_leader) == (A, ENEMY)
    assert len(taken.moving_faces) == 5 and len(taken.nonmoving_faces) == 4
    assert taken.moving_wins
    dice = FallbackDice([], np.random.default_rng(8))
    acted: set[int] = {e.mech for e in log if isinstance(e, ev.InSightAction)}
    for _ in range(40):
        if {A, B} <= acted or battle.decision is None or battle.over:
            break
        events = game.play(battle, game.legal_actions(battle)[0], dice)
        acted |= {e.mech for e in events if isinstance(e, ev.InSightAction)}
    assert {A, B} <= acted  # B, who only saw the enemy after its free move, takes part
