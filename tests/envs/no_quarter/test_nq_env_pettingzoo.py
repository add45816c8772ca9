"""PettingZoo conformance of the No Quarter head-to-head envs (AEC and Parallel)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from wargym.envs.no_quarter.aec import NoQuarterAEC, env, parallel_env
from wargym.envs.no_quarter.codec import WAIT

FAST = {"max_turns": 2, "mechs_per_side": 2}

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_nq_aec_api_test() -> None:
    api_test(env(**FAST), num_cycles=200)


def test_nq_parallel_api_test() -> None:
    parallel_api_test(parallel_env(**FAST), num_cycles=200)


def test_nq_aec_seed_test() -> None:
    seed_test(lambda: env(**FAST), num_cycles=100)


def test_nq_parallel_seed_test() -> None:
    parallel_seed_test(lambda: parallel_env(**FAST), num_cycles=100)


def test_nq_aec_selection_follows_the_decider_and_other_mask_is_zero() -> None:
    aec = NoQuarterAEC(**FAST)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    switches = 0
    last = aec.agent_selection
    for _ in range(300):
        if not aec.agents:
            break
        agent = aec.agent_selection
        battle = aec.battle
        if not battle.over:
            assert battle.decision is not None
            assert battle.decision.side.value == agent
        other = "red" if agent == "blue" else "blue"
        assert not aec.observe(other)["action_mask"].any()
        mask = aec.observe(agent)["action_mask"]
        if aec.terminations[agent]:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        switches += aec.agent_selection != last
        last = aec.agent_selection
    assert switches > 0


def test_nq_parallel_idle_side_has_only_wait() -> None:
    par = parallel_env(**FAST)
    obs, _ = par.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(100):
        if not par.agents:
            break
        deciding = par._selected()
        idle = "red" if deciding == "blue" else "blue"
        assert obs[idle]["action_mask"].tolist() == [1] + [0] * (par.codec.n - 1)
        assert obs[deciding]["action_mask"][WAIT] == 0
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, _, _, _, infos = par.step(actions)
        assert not any(info["illegal_action"] for info in infos.values())


def test_nq_parallel_wrong_wait_is_a_penalised_noop() -> None:
    par = parallel_env(**FAST)
    obs, _ = par.reset(seed=5)
    deciding = par._selected()
    assert deciding is not None
    idle = "red" if deciding == "blue" else "blue"
    before = par.battle.to_dict()
    legal = int(np.flatnonzero(obs[deciding]["action_mask"])[0])
    _, rewards, _, _, infos = par.step({deciding: WAIT, idle: WAIT})
    assert infos[deciding]["illegal_action"] and not infos[idle]["illegal_action"]
    assert rewards[deciding] == pytest.approx(-0.01)
    assert par.battle.to_dict() == before
    _, _, _, _, infos = par.step({deciding: legal, idle: legal})
    assert infos[idle]["illegal_action"] and not infos[deciding]["illegal_action"]


def test_nq_aec_render_test() -> None:
    render_test(lambda render_mode=None: env(render_mode=render_mode, **FAST))


def test_nq_aec_state_is_full_information() -> None:
    aec = env(**FAST)
    aec.reset(seed=2)
    size = aec.observation_space("blue")["observation"].shape[0]
    assert aec.state().shape == (2 * size,)
