"""Issue 20, requirement 5: the shipped policy plays the env's observation as it comes.

``LearnedAgent`` and ``OnnxPolicy`` take the env's Dict observation (the mask inside it, or
given), build their own env from the sidecar (``agent.make_env()``), and name the
``env_kwargs`` the model expects when they are handed another env's observation.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import wargym  # noqa: F401 - registers the ids
from wargym.agents.learned import LearnedAgent, shipped_model
from wargym.agents.onnx_runner import EnvMismatchError, OnnxPolicy

SHIPPED_KWARGS = ("action_features", "advisor", "battle_factory", "cell")


def _agents() -> list[object]:
    pytest.importorskip("onnxruntime")
    return [LearnedAgent(shipped_model(".onnx")), OnnxPolicy(shipped_model(".onnx"))]


@pytest.mark.parametrize("which", [0, 1], ids=["LearnedAgent", "OnnxPolicy"])
def test_shipped_onnx_plays_its_own_env_dict_observation(which: int) -> None:
    agent = _agents()[which]
    env = agent.make_env()  # type: ignore[attr-defined]
    try:
        assert env.spec is not None and env.spec.id == "wargym/NoQuarter-Skirmish-v1"
        obs, _ = env.reset(seed=3)
        for _ in range(20):
            mask = env.unwrapped.action_masks()
            with_mask = agent.act(obs, mask)  # type: ignore[attr-defined]
            from_dict = agent.act(obs)  # type: ignore[attr-defined]  # the mask inside obs
            flat = agent.act(obs["observation"], obs["action_mask"])  # type: ignore[attr-defined]
            assert with_mask == from_dict == flat
            assert mask[with_mask]
            obs, _, terminated, truncated, _ = env.step(with_mask)
            if terminated or truncated:
                break
    finally:
        env.close()


def test_shipped_zip_plays_its_own_env_dict_observation() -> None:
    pytest.importorskip("sb3_contrib")
    agent = LearnedAgent(shipped_model(".zip"))
    env = agent.make_env()
    try:
        obs, _ = env.reset(seed=4)
        action = agent.act(obs)
        assert obs["action_mask"][action]
        assert action == agent.act(obs["observation"], obs["action_mask"])
    finally:
        env.close()


def test_make_env_passes_overrides() -> None:
    agent = _agents()[0]
    env = agent.make_env(max_episode_steps=5)  # type: ignore[attr-defined]
    try:
        assert env.spec is not None and env.spec.max_episode_steps == 5
        obs, _ = env.reset(seed=0)
        assert agent.act(obs) >= 0  # type: ignore[attr-defined]
    finally:
        env.close()


@pytest.mark.parametrize("which", [0, 1], ids=["LearnedAgent", "OnnxPolicy"])
def test_a_mismatched_env_names_the_kwargs_the_model_expects(which: int) -> None:
    agent = _agents()[which]
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1")  # the default observation layout
    try:
        obs, _ = env.reset(seed=0)
        before = {k: np.array(v, copy=True) for k, v in obs.items()}
        with pytest.raises(EnvMismatchError) as info:
            agent.act(obs)  # type: ignore[attr-defined]
        message = str(info.value)
        assert "21138" in message and "5002" in message
        assert "wargym/NoQuarter-Skirmish-v1" in message
        for key in SHIPPED_KWARGS:
            assert key in message, (key, message)
        assert "make_env()" in message
        assert len(message) < 600
        assert all(np.array_equal(before[k], obs[k]) for k in obs)  # the input is untouched
    finally:
        env.close()


def test_a_mismatched_mask_is_a_typed_error() -> None:
    for agent in _agents():
        env = agent.make_env()  # type: ignore[attr-defined]
        try:
            obs, _ = env.reset(seed=0)
            with pytest.raises(EnvMismatchError, match="action_mask has 7 values"):
                agent.act(obs["observation"], np.ones(7))  # type: ignore[attr-defined]
        finally:
            env.close()


def test_a_dict_observation_without_its_parts_is_a_typed_error() -> None:
    agent = _agents()[0]
    with pytest.raises(EnvMismatchError, match="observation"):
        agent.act({"obs": np.zeros(5002)})  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="action_mask"):
        agent.act(np.zeros(5002, dtype=np.float32))  # type: ignore[attr-defined]  # no mask


def test_make_env_without_a_sidecar_is_a_typed_error(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    bare = tmp_path / "bare.onnx"
    shutil.copy(shipped_model(".onnx"), bare)  # no bare.json, no bare.onnx.json
    agent = LearnedAgent(bare)
    with pytest.raises(EnvMismatchError, match="no env_id"):
        agent.make_env()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bare.onnx"]
