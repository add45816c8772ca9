"""Env smoke of the choices inside a roll (§9.6.4 ``marksman_location``, D26 ``lucky_reroll``).

Seeded skirmish games whose forces hold Lucky and Marksman pilots (seed 6: a Lucky and two
Marksmen on Blue; seed 32: a Blue Marksman and a Red Lucky pilot; seed 14: a Red Lucky pilot)
run to the end on random masked actions: the new decisions come up, their masks decode to
exactly the legal actions, and the opponent (the rules' NP procedure) answers Red's.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from pathlib import Path

import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Attribute

sys.path.insert(0, str(Path(__file__).parent))
from masked_play import play_masked  # noqa: E402

KINDS = (DecisionKind.LUCKY_REROLL, DecisionKind.MARKSMAN_LOCATION)


def _play(seed: int) -> Counter[DecisionKind]:
    return play_masked("wargym/NoQuarter-Skirmish-v1", seed, KINDS, round_trip=True, max_turns=8)


def test_d26_9_6_seeded_skirmishes_offer_lucky_and_marksman_and_end() -> None:
    seen: Counter[DecisionKind] = Counter()
    for seed in (6, 32, 14):
        seen += _play(seed)
    assert seen[DecisionKind.LUCKY_REROLL] > 0 and seen[DecisionKind.MARKSMAN_LOCATION] > 0


def test_d26_the_tactician_and_the_np_rules_answer_every_choice() -> None:
    agent = NoQuarterHeuristic()
    battle = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(3), mechs_per_side=4)
    for mech in battle.mechs.values():  # every pilot Lucky, the even ones Marksmen too
        extra = (Attribute.LUCKY, Attribute.MARKSMAN) if mech.id % 2 == 0 else (Attribute.LUCKY,)
        mech.pilot = dataclasses.replace(mech.pilot, attributes=extra)
    dice = RandomDice.from_seed(5)
    asked: Counter[DecisionKind] = Counter()
    rerolls = 0
    while not battle.over:
        decision = game.decider(battle)
        assert decision is not None
        legal = game.legal_actions(battle)
        action = agent.act_engine(battle, legal, decision.side)
        assert action in legal
        asked[decision.kind] += 1
        events = game.play(battle, action, dice)
        rerolls += sum(isinstance(e, ev.LuckyReroll) for e in events)
    assert asked[DecisionKind.MARKSMAN_LOCATION] > 0 and asked[DecisionKind.LUCKY_REROLL] > 0
    assert rerolls <= len(battle.mechs)  # once per pilot and mission
