"""PolicyPlayer: the shipped skirmish policy on battles with more mechs than its slots."""

from __future__ import annotations

import numpy as np

from wargym.agents.battle_policy import VIEW, PolicyPlayer, local_slots
from wargym.agents.learned import shipped_model
from wargym.envs.no_quarter.encoding import visible_enemies
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.geometry import distance


def test_local_slots_put_the_deciding_mech_first_then_its_nearest_team_mates() -> None:
    dice = RandomDice.from_seed(4)
    battle = new_skirmish(np.random.default_rng(4), dice, mechs_per_side=5)
    game.advance(battle, dice)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(200):
        if battle.over:
            break
        decision = battle.decision
        assert decision is not None
        slots = local_slots(battle, decision.side)
        if decision.mech is not None:
            anchor = battle.mechs[decision.mech].pos
            assert slots.own[0] == decision.mech
            gaps = [distance(anchor, battle.mechs[i].pos) for i in slots.own[1:]]
            assert gaps == sorted(gaps)
            seen = visible_enemies(battle, decision.side)
            ranks = [i not in seen for i in slots.enemy]
            assert ranks == sorted(ranks)  # enemies in sight first
            checked += 1
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    assert checked > 10


def test_policy_player_commands_five_mechs_with_legal_choices_only() -> None:
    dice = RandomDice.from_seed(9)
    battle = new_skirmish(np.random.default_rng(9), dice, mechs_per_side=5)
    game.advance(battle, dice)
    player = PolicyPlayer(shipped_model(".onnx"), rng=1)
    rng = np.random.default_rng(1)
    for _ in range(300):
        if battle.over:
            break
        decision = battle.decision
        assert decision is not None
        options = game.legal_actions(battle)
        if decision.side is Side.BLUE:
            action = player.act_engine(battle, options, Side.BLUE)
            assert action in options
        else:
            action = options[int(rng.integers(len(options)))]
        game.play(battle, action, dice)
    assert player.counts["policy"] > 0 and VIEW == 3
    # the local view is encoded exactly as the policy was trained (advice rows included)
    assert player.encoder.version == player.policy.meta["observation_version"]
