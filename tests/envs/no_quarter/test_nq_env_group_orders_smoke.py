"""Env smoke of the group orders (§12.2 ``lead_teams``, §13.1 ``split_group``, E19).

Seeded skirmish games and one mission (whose player force is a Platoon with its leaders) run
to the end on random masked actions; the group decisions come up, their masks decode to legal
actions, and the tactician and the rules' NP side answer them.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.forces.setup import new_skirmish

sys.path.insert(0, str(Path(__file__).parent))
from masked_play import play_masked  # noqa: E402

GROUP_KINDS = (DecisionKind.LEAD_TEAMS, DecisionKind.SPLIT_GROUP)


def _play(env_id: str, seed: int, **kwargs: object) -> Counter[DecisionKind]:
    return play_masked(env_id, seed, GROUP_KINDS, **kwargs)


def test_13_1_seeded_skirmishes_offer_splits_and_end() -> None:
    seen: Counter[DecisionKind] = Counter()
    for seed in (0, 1, 2):
        seen += _play("wargym/NoQuarter-Skirmish-v1", seed, max_turns=4)
    assert seen[DecisionKind.SPLIT_GROUP] > 0


def test_12_2_a_mission_platoon_offers_leader_choices() -> None:
    seen = _play("wargym/NoQuarter-Attack-v1", 0, max_turns=4, max_mechs=12)
    assert seen[DecisionKind.LEAD_TEAMS] > 0 and seen[DecisionKind.SPLIT_GROUP] > 0


def test_13_1_the_tactician_never_splits_and_leads_no_worse() -> None:
    agent = NoQuarterHeuristic()
    battle = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(3), mechs_per_side=6)
    dice = RandomDice.from_seed(4)
    asked: Counter[DecisionKind] = Counter()
    while not battle.over:
        decision = game.decider(battle)
        assert decision is not None
        legal = game.legal_actions(battle)
        action = agent.act_engine(battle, legal, decision.side)
        assert action in legal
        if decision.kind is DecisionKind.SPLIT_GROUP:
            assert type(action).__name__ == "KeepGroups"
        if decision.kind is DecisionKind.LEAD_TEAMS and type(action).__name__ == "LeadTeam":
            assert battle.mechs[action.group].rep <= battle.mechs[decision.mech].rep  # type: ignore[union-attr, index]
        asked[decision.kind] += 1
        game.play(battle, action, dice)
    assert asked[DecisionKind.SPLIT_GROUP] > 0
