"""SB3 VecEnv over the batched No Quarter envs (agents/sb3_vec.py; issue 16 item 7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from wargym.agents.sb3_vec import BatchVecEnv
from wargym.envs.base import EnvArgumentError, InvalidActionError

FAST: dict[str, Any] = {"max_turns": 1, "mechs_per_side": 1, "cell": 4.0}


class Recording(BatchVecEnv):
    """Records, for every step, whether each played action was legal when it was played."""

    played: list[bool]

    def step_async(self, actions: np.ndarray) -> None:
        masks = self.batch.masks
        self.played.extend(bool(masks[i, int(a)]) for i, a in enumerate(actions))
        super().step_async(actions)


def test_maskable_ppo_learns_on_the_batch_with_masks() -> None:
    torch.set_num_threads(1)
    venv = Recording(4, seed=0, max_episode_steps=8, **FAST)
    venv.played = []
    assert is_masking_supported(venv)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    assert model.num_timesteps >= 256
    assert len(venv.played) >= 256 and all(venv.played)  # never a masked action
    after = list(model.policy.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))  # it learned
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))


def test_vec_env_masks_auto_reset_and_seeds() -> None:
    venv = BatchVecEnv(3, seed=5, max_episode_steps=4, **FAST)
    obs = venv.reset()
    again = BatchVecEnv(3, seed=5, max_episode_steps=4, **FAST).reset()
    assert np.array_equal(obs["observation"], again["observation"])
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (3, venv.action_space.n) and masks.dtype == np.bool_
    assert np.array_equal(masks, venv.action_masks())
    assert np.array_equal(masks, obs["action_mask"].astype(bool))
    assert np.array_equal(
        get_action_masks(venv)[1:], np.stack(venv.env_method("action_masks", indices=[1, 2]))
    )
    rng = np.random.default_rng(0)
    seen_end = False
    for _ in range(12):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.shape == (3,)
        for i in np.flatnonzero(dones):
            seen_end = True
            terminal = infos[i]["terminal_observation"]
            assert venv.observation_space.contains(terminal)
            assert isinstance(infos[i]["TimeLimit.truncated"], bool)
    assert seen_end


def test_vec_env_refuses_masked_actions_and_bad_seeds() -> None:
    venv = BatchVecEnv(2, seed=1, **FAST)
    venv.reset()
    masks = venv.action_masks()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[0] = int(np.flatnonzero(~masks[0])[0])
    with pytest.raises(InvalidActionError, match=r"actions\[0\].*masked out"):
        venv.step_async(actions)
    with pytest.raises(EnvArgumentError, match="seed"):
        venv.seed(-1)
    assert np.array_equal(venv.action_masks(), masks)


def test_ppo_sps_benchmark_trains_on_the_batch(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "ppo_sps.py"
    out = tmp_path / "out.json"
    args = ["--envs", "skirmish", "--vec", "batch", "--n-envs", "1", "--steps", "8"]
    done = subprocess.run(
        [sys.executable, str(script), *args, "--n-steps", "8", "--batch-size", "8",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {row["env"]: row for row in json.loads(out.read_text())["results"]}
    assert rows["skirmish"]["vec_env"] == "batch" and rows["skirmish"]["steps"] >= 8
