"""Issue 20, requirement 6: the ecosystem's conventions hold for every wargym env.

* PettingZoo envs are modules: ``from wargym.envs import no_quarter_v1`` (and the space
  games' ``pentagon_war_v0``, ``starship_combat_v0``), each with ``env()`` and
  ``parallel_env()``, as ``from pettingzoo.butterfly import pistonball_v6``.
* ``gymnasium.make(id).action_masks()`` works on every registered id (gymnasium 1.x wrappers
  forward no attributes, so the registration adds a wrapper that does), and sb3-contrib's
  ``get_action_masks`` reads the same mask, from the env and from a vector env.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import wargym.envs
from wargym.envs import GYM_ENVS, PETTINGZOO_ENVS

sys.path.insert(0, str(Path(__file__).parent))
from env_cases import fast  # noqa: E402

GYM_IDS = sorted(GYM_ENVS)


@pytest.mark.parametrize("name", sorted(PETTINGZOO_ENVS))
def test_pettingzoo_envs_are_importable_modules(name: str) -> None:
    module = importlib.import_module(f"wargym.envs.{name}")
    assert getattr(wargym.envs, name) is module
    impl = wargym.envs.pettingzoo_module(name)
    assert module.env is impl.env and module.parallel_env is impl.parallel_env
    aec = module.env(**fast(name))
    par = module.parallel_env(**fast(name))
    try:
        aec.reset(seed=0)
        par.reset(seed=0)
        assert set(aec.possible_agents) == set(par.possible_agents)
    finally:
        aec.close()
        par.close()


def test_the_named_imports_of_the_readme_work() -> None:
    from wargym.envs import no_quarter_v1, pentagon_war_v0, starship_combat_v0

    for module in (no_quarter_v1, pentagon_war_v0, starship_combat_v0):
        assert callable(module.env) and callable(module.parallel_env)
        assert module.__name__.rsplit(".", 1)[1] in PETTINGZOO_ENVS


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_action_masks_on_gymnasium_make_output(env_id: str) -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = gymnasium.make(env_id, **fast(env_id))
    try:
        obs, _ = env.reset(seed=1)
        mask = env.action_masks()  # type: ignore[attr-defined]
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)  # type: ignore[attr-defined]
        assert np.array_equal(mask, np.asarray(obs["action_mask"]).astype(bool))
        assert np.array_equal(get_action_masks(env), mask)
        action = int(np.flatnonzero(mask)[0])
        obs, *_ = env.step(action)
        assert np.array_equal(env.action_masks(), env.unwrapped.action_masks())  # type: ignore[attr-defined]
        assert env.spec is not None  # the spec re-makes the same wrapped env
        again = gymnasium.make(env.spec)
        try:
            again.reset(seed=1)
            assert callable(again.action_masks)  # type: ignore[attr-defined]
        finally:
            again.close()
    finally:
        env.close()


def test_get_action_masks_on_an_sb3_vector_env_of_gymnasium_make() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    env_id = "wargym/NoQuarter-Skirmish-v1"
    venv = make_vec_env(env_id, n_envs=2, seed=0, env_kwargs={"render_mode": None})
    try:
        obs = venv.reset()
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n)  # type: ignore[attr-defined]
        assert np.array_equal(masks, obs["action_mask"].astype(bool))  # type: ignore[index]
    finally:
        venv.close()
