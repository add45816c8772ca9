"""Env smoke of the choices inside a roll (§9.6.4 ``marksman_location``, D26 ``lucky_reroll``).

Seeded skirmish games whose forces hold Lucky and Marksman pilots (seed 6: a Lucky and two
Marksmen on Blue; seed 32: a Blue Marksman and a Red Lucky pilot; seed 14: a Red Lucky pilot)
run to the end on random masked actions: the new decisions come up, their masks decode to
exactly the legal actions, and the opponent (the rules' NP procedure) answers Red's.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import gymnasium
import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Attribute

KINDS = (DecisionKind.LUCKY_REROLL, DecisionKind.MARKSMAN_LOCATION)


def _play(seed: int) -> Counter[DecisionKind]:
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", max_turns=8)
    seen: Counter[DecisionKind] = Counter()
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(4000):
        battle = env.unwrapped.battle  # type: ignore[attr-defined]
        mask = info["action_mask"]
        decision = game.decider(battle)
        assert decision is not None
        seen[decision.kind] += 1
        if decision.kind in KINDS:
            codec = env.unwrapped.codec  # type: ignore[attr-defined]
            legal = game.legal_actions(battle)
            assert {codec.decode(int(i), battle) for i in np.flatnonzero(mask)} == set(legal)
            assert Battle.from_dict(battle.to_dict()).frames == battle.frames
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            env.close()
            return seen
    raise AssertionError("the episode did not end")


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
