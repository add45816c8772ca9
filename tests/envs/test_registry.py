"""Conformance of every registered wargym env: Gymnasium ids and PettingZoo modules.

Runs over ``wargym.envs.GYM_ENVS`` and ``PETTINGZOO_ENVS``, so an env added there is checked
without editing this file. PettingZoo's ``max_cycles_test`` is not applicable: no wargym env
takes a ``max_cycles`` option (episodes end at the rules' own turn or round limit).
"""

from __future__ import annotations

import functools
import hashlib
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

import wargym.envs
from wargym.envs import (
    DEFAULT_MAX_EPISODE_STEPS,
    GYM_ENVS,
    MAX_EPISODE_STEPS,
    PETTINGZOO_ENVS,
    pettingzoo_module,
)
from wargym.rules.errors import RulesError

sys.path.insert(0, str(Path(__file__).parent))
from env_cases import fast  # noqa: E402

GYM_IDS = sorted(GYM_ENVS)
PZ_NAMES = sorted(PETTINGZOO_ENVS)
SPACE_IDS = ["wargym/PentagonWar-Duel-v0", "wargym/StarshipCombat-Duel-v0"]
SPACE_PZ = ["pentagon_war_v0", "starship_combat_v0"]


def rollout(env: gymnasium.Env, seed: int, steps: int = 150) -> list[tuple[Any, ...]]:
    """Masked-random play from ``seed``; masks come from ``action_masks()`` through wrappers."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == np.bool_ and np.array_equal(mask, obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        digest = hashlib.sha1(obs["observation"].tobytes()).hexdigest()
        trace.append((action, float(reward), terminated, truncated, digest, len(info["events"])))
        assert info["illegal_action"] is False
        if terminated or truncated:
            obs, _ = env.reset()
    return trace


# -- registration ---------------------------------------------------------------------------


def test_registry_lists_both_space_duels_and_their_pettingzoo_modules() -> None:
    assert set(SPACE_IDS) <= set(GYM_ENVS)
    assert set(SPACE_PZ) <= set(PETTINGZOO_ENVS)


def test_registry_lists_the_no_quarter_ids_and_pettingzoo_module() -> None:
    for kind in ("Skirmish", "Patrol", "Attack", "Defend"):
        assert f"wargym/NoQuarter-{kind}-v1" in GYM_ENVS
        assert f"wargym/NoQuarter-{kind}-v1" in gymnasium.registry
    assert PETTINGZOO_ENVS["no_quarter_v1"] == "wargym.envs.no_quarter.aec"


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_registry_id_naming_entry_point_and_time_limit(env_id: str) -> None:
    assert re.fullmatch(r"wargym/[A-Z][A-Za-z]+-[A-Z][A-Za-z]+-v\d+", env_id)
    spec = gymnasium.spec(env_id)
    assert isinstance(spec.entry_point, str) and spec.entry_point == GYM_ENVS[env_id]
    assert re.fullmatch(r"wargym\.envs(\.\w+)+:\w+", spec.entry_point)
    expected = MAX_EPISODE_STEPS.get(env_id, DEFAULT_MAX_EPISODE_STEPS)
    assert spec.max_episode_steps == expected >= 1000


@pytest.mark.parametrize("name", PZ_NAMES)
def test_registry_pettingzoo_names_are_versioned_modules_with_both_factories(name: str) -> None:
    assert re.fullmatch(r"[a-z_]+_v\d+", name)
    module = pettingzoo_module(name)
    assert callable(module.env) and callable(module.parallel_env)
    with pytest.raises(KeyError, match="unknown PettingZoo env"):
        pettingzoo_module("no_such_env_v0")


def test_registry_registration_is_idempotent_and_silent() -> None:
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert wargym.envs.register_envs() == []
        importlib.reload(wargym.envs)
    assert all(env_id in gymnasium.registry for env_id in GYM_IDS)


def test_registry_import_wargym_registers_without_importing_gymnasium() -> None:
    code = (
        "import sys, wargym\n"
        "assert 'gymnasium' not in sys.modules, 'import wargym pulled in gymnasium'\n"
        "import wargym.rules.no_quarter.battle.game\n"
        "assert 'gymnasium' not in sys.modules, 'import wargym.rules pulled in gymnasium'\n"
        "import gymnasium\n"
        "assert 'wargym/NoQuarter-Skirmish-v1' in gymnasium.registry\n"
        "env = gymnasium.make('wargym/PentagonWar-Duel-v0', max_turns=1)\n"
        "env.reset(seed=0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_registry_import_wargym_after_gymnasium_registers_at_once() -> None:
    code = (
        "import gymnasium\n"
        "assert 'wargym/StarshipCombat-Duel-v0' not in gymnasium.registry\n"
        "import wargym\n"
        "assert 'wargym/StarshipCombat-Duel-v0' in gymnasium.registry\n"
        "env = gymnasium.make('wargym.envs:wargym/StarshipCombat-Duel-v0')\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


# -- Gymnasium ids ----------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_registry_make_and_gymnasium_check_env(env_id: str) -> None:
    env = gymnasium.make(env_id, **fast(env_id, render_mode="ansi"))
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_registry_stable_baselines3_check_env(env_id: str) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(env_id, **fast(env_id))
    sb3_checker.check_env(env.unwrapped, warn=True, skip_render_check=True)


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_registry_seeded_masked_random_rollouts_are_deterministic(env_id: str) -> None:
    first = rollout(gymnasium.make(env_id, **fast(env_id)), seed=21)
    second = rollout(gymnasium.make(env_id, **fast(env_id)), seed=21)
    assert first == second and len(first) == 150
    assert any(step[2] or step[3] for step in first)  # at least one battle ended


@pytest.mark.parametrize("env_id", SPACE_IDS)
def test_registry_fleet_scenario_by_keyword(env_id: str) -> None:
    duel = gymnasium.make(env_id, **fast(env_id))
    fleet = gymnasium.make(env_id, **fast(env_id, scenario="fleet"))
    assert fleet.unwrapped.scenario == "fleet"  # type: ignore[attr-defined]
    obs, _ = fleet.reset(seed=1)
    assert fleet.observation_space.contains(obs)
    duel_obs, _ = duel.reset(seed=1)
    assert obs["observation"].shape != duel_obs["observation"].shape or not np.array_equal(
        obs["observation"], duel_obs["observation"]
    )
    check_env(fleet.unwrapped)
    with pytest.raises((ValueError, RulesError), match="no_such_scenario"):
        gymnasium.make(env_id, scenario="no_such_scenario").reset(seed=0)


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_registry_make_vec_with_masks_from_call(env_id: str) -> None:
    venv = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", **fast(env_id))
    obs, _ = venv.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        masks = np.stack(venv.call("action_masks"))
        assert masks.shape == (2, venv.single_action_space.n) and masks.dtype == np.bool_
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, _, terminated, truncated, infos = venv.step(actions)
        if "illegal_action" in infos:  # absent when every sub-env was resetting
            assert not infos["illegal_action"][infos["_illegal_action"]].any()
    venv.close()


# -- PettingZoo modules -----------------------------------------------------------------------


@pytest.mark.parametrize("name", PZ_NAMES)
def test_registry_pettingzoo_api_tests(name: str) -> None:
    module = pettingzoo_module(name)
    api_test(module.env(**fast(name)), num_cycles=200)
    parallel_api_test(module.parallel_env(**fast(name)), num_cycles=200)


@pytest.mark.parametrize("name", PZ_NAMES)
def test_registry_pettingzoo_seed_tests(name: str) -> None:
    module = pettingzoo_module(name)
    seed_test(functools.partial(module.env, **fast(name)), num_cycles=150)
    parallel_seed_test(functools.partial(module.parallel_env, **fast(name)), num_cycles=150)


@pytest.mark.parametrize("name", PZ_NAMES)
def test_registry_pettingzoo_render_test(name: str) -> None:
    module = pettingzoo_module(name)
    render_test(functools.partial(module.env, **fast(name)))


@pytest.mark.parametrize("name", SPACE_PZ)
def test_registry_pettingzoo_fleet_scenario_by_keyword(name: str) -> None:
    module = pettingzoo_module(name)
    aec = module.env(**fast(name, scenario="fleet"))
    aec.reset(seed=3)
    agent = aec.agent_selection
    obs = aec.observe(agent)
    assert aec.observation_space(agent).contains(obs) and obs["action_mask"].any()
    par = module.parallel_env(**fast(name, scenario="fleet"))
    observations, _ = par.reset(seed=3)
    assert all(par.observation_space(a).contains(o) for a, o in observations.items())
