"""The shipped No Quarter policy: package data, sidecar, legal play (zip and ONNX)."""

from __future__ import annotations

import json

import pytest

from wargym.agents.learned import SHIPPED, shipped_model


def _require(suffix: str):  # noqa: ANN202
    try:
        return shipped_model(suffix)
    except FileNotFoundError:
        pytest.skip(f"{SHIPPED}{suffix} is not shipped in this checkout")


def test_shipped_model_sidecar_matches_the_env_layouts() -> None:
    import gymnasium

    import wargym.envs  # noqa: F401
    from wargym.agents.envspecs import resolve_callables
    from wargym.envs.no_quarter.codec import ACTION_VERSION
    from wargym.envs.no_quarter.encoding import OBS_VERSION

    meta = json.loads(_require(".json").read_text())
    assert meta["env_id"] == "wargym/NoQuarter-Skirmish-v1"
    env = gymnasium.make(meta["env_id"], **resolve_callables(meta["env_kwargs"]))
    assert meta["observation_version"] == env.unwrapped.encoder.version
    assert meta["observation_version"].startswith(OBS_VERSION)
    assert meta["action_version"] == ACTION_VERSION
    assert "reward_shaping" not in meta["env_kwargs"]
    onnx = json.loads(_require(".onnx.json").read_text())
    assert onnx["observation_version"] == meta["observation_version"]
    assert onnx["obs_shape"] == [env.observation_space["observation"].shape[0]]


@pytest.mark.parametrize("suffix", [".zip", ".onnx"])
def test_shipped_model_plays_legal_games_against_the_rules(suffix: str) -> None:
    if suffix == ".zip":
        pytest.importorskip("torch")
        pytest.importorskip("sb3_contrib")
    else:
        pytest.importorskip("onnxruntime")
    from wargym.agents.evaluation import play_match
    from wargym.agents.learned import LearnedAgent

    agent = LearnedAgent(_require(suffix))
    result = play_match(agent, "rules", "no_quarter", n_games=2, seed=77, names=("shipped", "r"))
    assert result.games == 2 and result.mean_steps > 10
