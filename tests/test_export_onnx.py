"""ONNX export: torch/onnxruntime agreement, the sidecar, the torch-free runner and tiers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from wargym.export_onnx import SidecarError, read_sidecar, validate_sidecar

ENV_ID = "wargym/PentagonWar-Duel-v0"
WARNINGS = ("ignore:.*axis name:UserWarning", "ignore:.*LeafSpec:FutureWarning")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    """A random-init MaskablePPO on a small registered env, saved and exported."""
    for name in ("torch", "sb3_contrib", "onnx", "onnxruntime", "onnxscript"):
        pytest.importorskip(name)
    import warnings

    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401
    from wargym.export_onnx import export

    folder = tmp_path_factory.mktemp("onnx")
    env = gymnasium.make(ENV_ID)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32, 32]})  # fmt: skip
    model.save(folder / "policy.zip")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export(folder / "policy.zip", folder / "policy.onnx", env_id=ENV_ID, env_kwargs={})
    return model, folder / "policy.onnx"


def _random_inputs(n: int, obs_dim: int, n_actions: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    obs = rng.uniform(-1, 1, (n, obs_dim)).astype(np.float32)
    mask = rng.uniform(size=(n, n_actions)) < 0.3
    mask[np.arange(n), rng.integers(0, n_actions, n)] = True
    return obs, mask


def test_onnx_actions_match_torch_on_200_random_inputs(exported: tuple) -> None:
    from wargym.agents.onnx_runner import OnnxPolicy

    model, path = exported
    policy = OnnxPolicy(path)
    obs, mask = _random_inputs(200, policy.obs_size, policy.n_actions, seed=7)
    by_onnx = policy.act_batch(obs, mask)  # one batched call: the batch dimension is dynamic
    for row in range(200):
        feed = {
            "observation": obs[row : row + 1],
            "action_mask": mask[row : row + 1].astype(np.int8),
        }
        want, _ = model.predict(feed, action_masks=mask[row : row + 1], deterministic=True)
        assert int(by_onnx[row]) == int(np.asarray(want).reshape(-1)[0])
        assert mask[row, by_onnx[row]]
        assert policy.act(obs[row], mask[row]) == by_onnx[row]
    assert policy.fallbacks == 0


def test_sidecar_records_layouts_shapes_env_and_digest(exported: tuple) -> None:
    from wargym import __version__

    _, path = exported
    side = read_sidecar(path)
    assert side.env_id == ENV_ID and side.n_actions == 17 and side.obs_shape == (131,)
    assert side.observation_version == f"{ENV_ID}:obs"
    assert side.wargym_version == __version__
    assert side.raw["inputs"] == ["observation", "action_mask"]
    assert side.raw["source"]["checkpoint"] == "policy.zip"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "wargym-onnx-sidecar/0"}, "format"),
        ({"n_actions": "17"}, "n_actions"),
        ({"n_actions": True}, "n_actions"),
        ({"n_actions": 0}, "n_actions"),
        ({"obs_shape": [0]}, "obs_shape"),
        ({"obs_shape": []}, "obs_shape"),
        ({"sha256": "xyz"}, "sha256"),
        ({"sha256": "0" * 64}, "sha256"),
        ({"inputs": ["obs", "action_mask"]}, "inputs"),
        ({"env_kwargs": []}, "env_kwargs"),
        ({"extra": 1}, "extra"),
        ({"obs_dtype": "float64"}, "obs_dtype"),
        ({"env_id": ""}, "env_id"),
    ],
)
def test_sidecar_validation_names_the_field(exported: tuple, change: dict, field: str) -> None:
    _, path = exported
    data = json.loads(Path(str(path) + ".json").read_text())
    data.update(change)
    with pytest.raises(SidecarError) as info:
        validate_sidecar(data, path)
    assert info.value.field == field


def test_sidecar_missing_field_and_non_object() -> None:
    with pytest.raises(SidecarError) as info:
        validate_sidecar([])
    assert info.value.field == "<root>"
    with pytest.raises(SidecarError) as info:
        validate_sidecar({"format": "wargym-onnx-sidecar/1"})
    assert info.value.field == "onnx_file"


def test_tampered_onnx_file_is_refused(exported: tuple, tmp_path: Path) -> None:
    _, path = exported
    copy = tmp_path / "policy.onnx"
    copy.write_bytes(path.read_bytes() + b"\0")
    (tmp_path / "policy.onnx.json").write_text(Path(str(path) + ".json").read_text())
    with pytest.raises(SidecarError) as info:
        read_sidecar(copy)
    assert info.value.field == "sha256"
    with pytest.raises(SidecarError) as info:
        read_sidecar(tmp_path / "absent.onnx")
    assert info.value.field == "<file>"


def test_runner_never_returns_a_masked_index(
    exported: tuple, caplog: pytest.LogCaptureFixture
) -> None:
    from wargym.agents.onnx_runner import OnnxPolicy

    _, path = exported
    policy = OnnxPolicy(path)
    obs, mask = _random_inputs(1, policy.obs_size, policy.n_actions, seed=3)
    only = np.zeros(policy.n_actions, dtype=np.int8)
    only[5] = 1
    assert policy.act(obs[0], only) == 5

    class Liar:  # a graph that always answers a masked index
        def run(self, names: list, feed: dict) -> list:
            return [np.array([0])]

    policy._session = Liar()  # type: ignore[assignment]
    with caplog.at_level("WARNING"):
        assert policy.act(obs[0], only) == 5
    assert policy.fallbacks == 1 and "masked index 0" in caplog.text
    with pytest.raises(ValueError, match="allows no action"):
        policy.act(obs[0], np.zeros(policy.n_actions))
    with pytest.raises(ValueError, match="values"):
        policy.act(obs[0][:10], only)


def test_tiers_sample_only_legal_indices_and_defer_to_the_rules(exported: tuple) -> None:
    from wargym.agents.onnx_runner import OnnxPolicy
    from wargym.agents.tiers import TIERS, Tier, choose_index, tier

    _, path = exported
    policy = OnnxPolicy(path)
    obs, mask = _random_inputs(50, policy.obs_size, policy.n_actions, seed=11)
    rng = np.random.default_rng(0)
    greedy = policy.act_batch(obs, mask)
    for row in range(50):
        logits = policy.logits(obs[row], mask[row])
        assert choose_index(logits, mask[row], TIERS["expert"], rng) == greedy[row]
        for name in ("easy", "medium", "hard"):
            got = choose_index(logits, mask[row], TIERS[name], rng)
            assert got is None or mask[row, got]
    always = Tier("x", 1.0, 1.0)
    assert choose_index(np.zeros(3), np.array([1, 0, 1]), always, rng) is None
    with pytest.raises(ValueError):
        Tier("bad", -1.0, 0.0)
    with pytest.raises(KeyError, match="one of"):
        tier("impossible")


def test_tiered_agent_plays_legal_games_through_the_harness(exported: tuple) -> None:
    from wargym.agents.evaluation import play_match
    from wargym.agents.onnx_runner import OnnxPolicy
    from wargym.agents.tiers import TieredAgent

    _, path = exported
    policy = OnnxPolicy(path)
    agent = TieredAgent(policy, "easy", "pentagon_war", rng=0)
    result = play_match(agent, "random", "pentagon_war", n_games=2, seed=0)
    assert result.games == 2 and result.wins + result.draws + result.losses == 2


def test_runner_imports_no_torch_and_export_cli_help() -> None:
    pytest.importorskip("onnxruntime")
    code = (
        "import sys; import wargym.agents.onnx_runner, wargym.agents.tiers, wargym.export_onnx; "
        "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'gymnasium') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([sys.executable, "-m", "wargym.export_onnx", "--help"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and "CHECKPOINT" in done.stdout.upper()
