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
    from wargym.envs.no_quarter.codec import ACTION_VERSION
    from wargym.envs.no_quarter.encoding import OBS_VERSION

    meta = json.loads(_require(".json").read_text())
    assert meta["env_id"] == "wargym/NoQuarter-Skirmish-v0"
    expected = OBS_VERSION + ("+nq-af-v1" if meta["env_kwargs"].get("action_features") else "")
    assert meta["observation_version"] == expected
    assert meta["action_version"] == ACTION_VERSION
    assert "reward_shaping" not in meta["env_kwargs"]


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
