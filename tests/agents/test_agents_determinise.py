"""The search never reads hidden information: worlds depend only on what the side knows."""

from __future__ import annotations

import numpy as np

from wargym.agents.determinise import HIDDEN_FIELDS, Sightings, determinise
from wargym.agents.envspecs import mirror_skirmish
from wargym.agents.mcts import NoQuarterMCTS
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side, Status
from wargym.rules.no_quarter.non_player.enemy import known_enemies


def _battle_with_hidden_enemy(seed: int) -> tuple[Battle, Side, int]:
    for s in range(seed, seed + 50):
        battle = mirror_skirmish(np.random.default_rng(s), RandomDice.from_seed(s))
        game.advance(battle, RandomDice.from_seed(s))
        side = battle.decision.side
        seen = {e.id for e in known_enemies(battle, side)}
        hidden = [e.id for e in battle.mechs_of(side.other) if e.id not in seen]
        if hidden:
            return battle, side, hidden[0]
    raise AssertionError("no battle with an unseen enemy")


def _twin_differing_in_hidden_facts(battle: Battle, side: Side, mech_id: int) -> Battle:
    twin = battle.clone()
    enemy = twin.mechs[mech_id]
    enemy.armor = [max(0, a - 1) for a in enemy.armor]
    enemy.rep = 6
    enemy.status = Status.DUCK_BACK
    enemy.prone = True
    enemy.heading = (enemy.heading + 90.0) % 360.0
    enemy.pos = (enemy.pos[0], max(0.5, enemy.pos[1] - 1.0))
    twin.geometry_cache = None
    assert {e.id for e in known_enemies(twin, side)} == {
        e.id for e in known_enemies(battle, side)
    }, "the change must stay hidden"
    return twin


def test_determinise_identical_worlds_for_states_differing_in_hidden_facts() -> None:
    battle, side, mech_id = _battle_with_hidden_enemy(1)
    twin = _twin_differing_in_hidden_facts(battle, side, mech_id)
    assert battle.to_dict() != twin.to_dict()
    for seed in range(5):
        memory = Sightings(side)
        memory.update(battle)
        a = determinise(battle, side, memory, np.random.default_rng(seed))
        b = determinise(twin, side, memory, np.random.default_rng(seed))
        assert a.to_dict() == b.to_dict()


def test_determinise_keeps_known_facts_and_the_real_battle() -> None:
    battle, side, mech_id = _battle_with_hidden_enemy(3)
    before = battle.to_dict()
    world = determinise(battle, side, None, np.random.default_rng(0))
    assert battle.to_dict() == before  # the real battle is untouched
    for mech in battle.mechs_of(side):
        assert world.mechs[mech.id].pos == mech.pos and world.mechs[mech.id].armor == mech.armor
    hidden = world.mechs[mech_id]
    assert hidden.armor == list(hidden.design.armor)  # never seen: the prior
    assert "pos" in HIDDEN_FIELDS and "armor" in HIDDEN_FIELDS


def test_mcts_choice_is_identical_for_states_differing_in_hidden_facts() -> None:
    battle, side, mech_id = _battle_with_hidden_enemy(1)
    twin = _twin_differing_in_hidden_facts(battle, side, mech_id)
    choices = []
    for state in (battle, twin):
        agent = NoQuarterMCTS(np.random.default_rng(7), budget=3, depth=2, width=3)
        choices.append(agent.act_engine(state, game.legal_actions(state), side))
    assert choices[0] == choices[1]
