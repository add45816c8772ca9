"""Learned agents: SB3 zip and exported ONNX act identically and only legally."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest


@pytest.mark.filterwarnings("ignore:.*axis name:UserWarning", "ignore:.*LeafSpec:FutureWarning")
def test_learned_zip_and_onnx_agree_and_respect_the_mask(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401
    from wargym.agents.learned import LearnedAgent
    from wargym.agents.neural import policy_kwargs
    from wargym.agents.neural.export import export_onnx

    env = gymnasium.make("wargym/PentagonWar-Duel-v0")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32,
                        policy_kwargs=policy_kwargs([16]), seed=0, device="cpu")  # fmt: skip
    model.save(tmp_path / "p.zip")
    export_onnx(model, tmp_path / "p.onnx", check=50)
    by_zip, by_onnx = LearnedAgent(tmp_path / "p.zip"), LearnedAgent(tmp_path / "p.onnx")
    obs, _ = env.reset(seed=0)
    for _ in range(30):
        mask = obs["action_mask"]
        a, b = by_zip.act(obs["observation"], mask), by_onnx.act(obs["observation"], mask)
        assert a == b and mask[a] == 1
        obs, _, terminated, truncated, _ = env.step(a)
        if terminated or truncated:
            obs, _ = env.reset()
    rng_agent = LearnedAgent(tmp_path / "p.onnx", rng=1, deterministic=False)
    one = np.zeros_like(obs["action_mask"])
    one[2] = 1
    assert rng_agent.act(obs["observation"], one) == 2
