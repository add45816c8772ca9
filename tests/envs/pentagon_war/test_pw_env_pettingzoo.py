"""PettingZoo AEC and Parallel envs: API tests, seeding, secrecy of plots (leak test)."""

from __future__ import annotations

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from wargym.envs.pentagon_war.aec import PentagonWarAEC, env, parallel_env


def test_pw_aec_api_test() -> None:
    api_test(env(max_turns=2), num_cycles=400)


def test_pw_parallel_api_test() -> None:
    parallel_api_test(parallel_env(max_turns=2), num_cycles=400)


def test_pw_aec_seed_test() -> None:
    seed_test(lambda: env(max_turns=2), num_cycles=300)


def test_pw_parallel_seed_test() -> None:
    parallel_seed_test(lambda: parallel_env(max_turns=2), num_cycles=300)


def test_pw_spaces_are_cached_objects() -> None:
    e = env()
    assert e.action_space("side_0") is e.action_space("side_0")
    assert e.observation_space("side_1") is e.observation_space("side_1")


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_pw_aec_hidden_plot_does_not_leak_to_the_other_side() -> None:
    """Side 0 plots ECM or not; side 1's observation, mask and events are the same."""
    views = []
    for ecm in (0, 1):
        e: PentagonWarAEC = env(max_turns=2)
        e.reset(seed=4)
        assert e.agent_selection == "side_0"
        e.step(ecm)  # the ECM decision: CHOOSE 0 or 1
        views.append((e.observe("side_1"), e.infos["side_1"]["events"]))
        assert e.observe("side_1")["action_mask"].sum() == 0  # not selected
    (a, ev_a), (b, ev_b) = views
    assert np.array_equal(a["observation"], b["observation"]) and ev_a == ev_b


def test_pw_aec_plays_a_whole_battle_with_masked_random_actions() -> None:
    e = env(max_turns=1)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    for _agent in e.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.battle.outcome is not None and not e.agents


def test_pw_parallel_both_sides_plot_at_once_and_battle_ends() -> None:
    p = parallel_env(max_turns=1)
    obs, infos = p.reset(seed=1)
    assert all(obs[a]["action_mask"].any() for a in ("side_0", "side_1"))
    rng = np.random.default_rng(1)
    steps = 0
    while p.agents:
        actions = {}
        for a in p.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            actions[a] = int(rng.choice(legal)) if legal.size else 0
        obs, rewards, terms, truncs, infos = p.step(actions)
        assert not any(i["illegal_action"] for i in infos.values())
        steps += 1
    assert p.battle.outcome is not None and steps > 12


def test_pw_parallel_state_is_both_views() -> None:
    p = parallel_env(max_turns=1)
    obs, _ = p.reset(seed=0)
    assert p.state().shape == (2 * obs["side_0"]["observation"].shape[0],)
