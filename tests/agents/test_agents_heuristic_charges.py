"""The tactician and MCTS answer a target's split fire among several chargers (§18.2.1)."""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.agents.mcts import NoQuarterMCTS
from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    AssignFire,
    ChooseMech,
    DecisionKind,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.battle.reaction import in_sight_dice
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain


def _keep(options: list[object]) -> object:
    for option in options:
        name = type(option).__name__
        if option == ChooseMech(0) or name in ("KeepGroups", "LeadDone"):
            return option
        if name == "LuckyChoice" and not getattr(option, "reroll", True):
            return option
        if name == "Face" and getattr(option, "heading", 0) is None:
            return option
    return options[0]


def _at_split() -> tuple[Battle, FallbackDice]:
    """Both blue mechs (no working guns) charge red #2 after an In Sight; red splits its fire."""
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * 2, use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    wall = Feature(Terrain.BUILDING, 14.0, 19.5, 17.0, 21.5, building_armor=3)
    battle = new_battle(
        forces, Battlefield(features=(wall,)), np.random.default_rng(0), RandomDice.from_seed(0)
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    for mech, pos in ((0, (15.0, 18.0)), (1, (21.0, 18.0))):
        battle.mechs[mech].pos, battle.mechs[mech].heading = pos, 90.0
        battle.mechs[mech].inoperable.extend(battle.mechs[mech].operable_ranged_weapons)
    battle.mechs[2].pos, battle.mechs[2].heading = (18.0, 23.0), 270.0
    dice = FallbackDice([5, 4], np.random.default_rng(3))
    game.advance(battle, dice)
    while battle.decision is not None and not (
        battle.decision.kind is DecisionKind.MECH_ACTION and battle.decision.mech == 0
    ):
        game.play(battle, _keep(list(game.legal_actions(battle))), dice)  # type: ignore[arg-type]

    def n(mech: int) -> int:
        m = battle.mechs[mech]
        return in_sight_dice(
            m.rep, race=m.pilot.race, attributes=m.pilot.attributes, enemy_concealed=False
        )

    dice.scripted += [1] * n(0) + [6] * n(2) + [6, 6, 1, 1, 6, 6]
    game.play(battle, Move(0, (17.5, 18.0)), dice)
    while battle.decision is not None and battle.decision.kind in (
        DecisionKind.FREE_MOVE,
        DecisionKind.CHOOSE_MECH,
    ):
        kind, mech = battle.decision.kind, battle.decision.mech
        step = FreeMove(mech, None) if kind is DecisionKind.FREE_MOVE else ChooseMech(0)
        game.play(battle, step, dice)
    assert battle.decision is not None and battle.decision.kind is DecisionKind.ASSIGN_FIRE
    return battle, dice


def test_18_2_1_tactician_assigns_a_weapon_at_one_of_the_chargers() -> None:
    battle, _dice = _at_split()
    legal = game.legal_actions(battle)
    choice = NoQuarterHeuristic(np.random.default_rng(0)).act_engine(battle, legal, Side.RED)
    assert isinstance(choice, AssignFire) and choice in legal and choice.target in (0, 1)


def test_18_2_1_mcts_answers_the_split_with_a_legal_option() -> None:
    battle, _dice = _at_split()
    legal = game.legal_actions(battle)
    mcts = NoQuarterMCTS(np.random.default_rng(2), budget=4, depth=4)
    assert mcts.act_engine(battle, legal, Side.RED) in legal
