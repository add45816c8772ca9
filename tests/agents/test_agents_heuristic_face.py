"""The tactician answers the ``face`` decision (§6.2, §6.2.1, D2): its arc toward the threat."""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.agents.mcts import NoQuarterMCTS
from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Decision, DecisionKind, Face, Stay
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side


def _at_face(blue_at: tuple[float, float], red_at: tuple[float, float]) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    battle = new_battle(forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0))
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    battle.mechs[0].pos, battle.mechs[0].heading = blue_at, 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = red_at, 90.0
    dice = FallbackDice([5, 4], np.random.default_rng(6))
    game.advance(battle, dice)
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MECH_ACTION:
        game.play(battle, game.legal_actions(battle)[0], dice)
    game.play(battle, Stay(0), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    return battle


def test_6_2_tactician_faces_the_enemy_it_sees() -> None:
    battle = _at_face((10.0, 10.0), (30.0, 10.0))  # the enemy due east
    legal = game.legal_actions(battle)
    choice = NoQuarterHeuristic(np.random.default_rng(0)).act_engine(battle, legal, Side.BLUE)
    assert choice == Face(0, 0.0, 0)


def test_6_2_mcts_answers_the_face_decision_with_a_legal_option() -> None:
    battle = _at_face((10.0, 10.0), (10.0, 30.0))
    legal = game.legal_actions(battle)
    mcts = NoQuarterMCTS(np.random.default_rng(2), budget=4, depth=4)
    assert mcts.act_engine(battle, legal, Side.BLUE) in legal
