"""Env conformance: check_env, gymnasium.make, PettingZoo api/seed tests, masks, fog, renders."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from wargym.envs.starship_combat import GYM_IDS
from wargym.envs.starship_combat.aec import env as aec_env
from wargym.envs.starship_combat.encoding import default_codec, encode_observation
from wargym.envs.starship_combat.gym_env import StarshipCombatDuelEnv
from wargym.envs.starship_combat.parallel import parallel_env
from wargym.rules.errors import IllegalActionError
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.state import Options


def test_check_env_direct() -> None:
    check_env(StarshipCombatDuelEnv(), skip_render_check=True)


def test_registered_make_and_check_env() -> None:
    env_id, entry = next(iter(GYM_IDS.items()))
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point=entry)
    env = gymnasium.make(env_id, render_mode="ansi", scenario="fleet")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert isinstance(env.render(), str)


def test_masks_three_ways_agree_and_are_exact() -> None:
    env = StarshipCombatDuelEnv(scenario="fleet")
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert np.array_equal(mask, info["action_mask"])
        assert np.array_equal(mask.astype(bool), env.action_masks())
        legal = game.legal_actions(env.state, 0)
        assert int(mask.sum()) == len(legal)
        codec = env.codec
        assert {codec.decode(i, env.state, 0) for i in np.flatnonzero(mask)} == set(legal)
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not info["illegal_action"]
        if term or trunc:
            obs, info = env.reset(seed=1)


def test_illegal_action_policies() -> None:
    env = StarshipCombatDuelEnv()
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info = env.step(bad)
    assert info["illegal_action"] and reward == -0.1 and not term
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = StarshipCombatDuelEnv(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    ending = StarshipCombatDuelEnv(illegal_action="terminate")
    ending.reset(seed=0)
    assert ending.step(bad)[2]


def test_seeded_episodes_are_deterministic() -> None:
    def run(seed: int) -> list:
        env = StarshipCombatDuelEnv(scenario="duel_kestrel")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = []
        for _ in range(200):
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, te, tr, info = env.step(a)
            trace.append((a, r, obs["observation"].tobytes(), len(info["events"])))
            if te or tr:
                break
        return trace

    assert run(7) == run(7)


def test_events_in_info_carry_dice() -> None:
    env = StarshipCombatDuelEnv()
    obs, _ = env.reset(seed=2)
    seen = set()
    for _ in range(100):
        obs, r, te, tr, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        seen |= {e["type"] for e in info["events"]}
        if te or tr:
            break
    assert "ShipMoved" in seen and "ToHitRolled" in seen


def test_render_rgb_array() -> None:
    env = StarshipCombatDuelEnv(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.shape == (256, 256, 3) and img.dtype == np.uint8
    assert (img == (60, 120, 255)).all(axis=2).any()


def test_fog_of_war_hides_undetected_enemy() -> None:
    state = game.new_battle("duel", Options(sensors=True))
    state.detected = {0: [], 1: [0]}
    codec = default_codec()
    twin = state.clone()
    twin.ships[1].pos, twin.ships[1].crew = (5, -9), 3
    assert np.array_equal(encode_observation(state, 0, codec), encode_observation(twin, 0, codec))
    assert not np.array_equal(
        encode_observation(state, 1, codec), encode_observation(twin, 1, codec)
    )


def test_pending_orders_do_not_leak_to_the_other_side() -> None:
    state = game.new_battle("duel")
    codec = default_codec()
    before = encode_observation(state, 1, codec)
    from wargym.rules.dice import ScriptedDice

    game.play(state, 0, game.legal_actions(state, 0)[2], ScriptedDice([]))
    assert np.array_equal(before, encode_observation(state, 1, codec))


def test_pettingzoo_api_tests() -> None:
    api_test(aec_env(scenario="fleet"), num_cycles=300)
    parallel_api_test(parallel_env(scenario="fleet"), num_cycles=300)


def test_pettingzoo_seed_tests() -> None:
    seed_test(aec_env, num_cycles=200)
    parallel_seed_test(parallel_env, num_cycles=200)


def test_spaces_are_cached() -> None:
    e = aec_env()
    assert e.action_space("side_0") is e.action_space("side_0")
    p = parallel_env()
    assert p.observation_space("side_1") is p.observation_space("side_1")


def test_parallel_full_random_battle_ends() -> None:
    p = parallel_env(scenario="strike", options={"max_rounds": 8})
    obs, _ = p.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(3000):
        acts = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rew, term, trunc, info = p.step(acts)
        if not p.agents:
            break
    assert not p.agents
