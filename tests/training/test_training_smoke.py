"""Training scripts: presets validate; --smoke runs produce loadable checkpoints."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PRESETS = sorted((ROOT / "configs" / "training").glob("*.yaml"))


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"wargym_training_{name}",
                                                  ROOT / "training" / f"{name}.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_training_presets_load_into_their_script(preset: Path) -> None:
    from wargym.agents.config import load_preset

    script = "selfplay_ppo" if "selfplay" in preset.name else "ppo_masked"
    args = load_preset(_script(script).Args, preset)
    assert args.env_id == "wargym/NoQuarter-Skirmish-v1"


def _run(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", *args, "--run-dir", str(tmp)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)  # fmt: skip


def test_training_ppo_masked_smoke_gives_a_loadable_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    done = _run(["training.ppo_masked", "--config", "configs/training/nq_skirmish.yaml",
                 "--smoke"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    final = tmp_path / "final.zip"
    assert final.exists() and list((tmp_path / "checkpoints").glob("*.zip"))
    from wargym.agents.learned import LearnedAgent

    agent = LearnedAgent(final)
    mask = np.zeros(agent._model.action_space.n, dtype=np.int8)  # noqa: SLF001
    mask[[5, 9]] = 1
    obs = np.zeros(agent._model.observation_space["observation"].shape, np.float32)  # noqa: SLF001
    assert agent.act(obs, mask) in (5, 9)
    # resume continues the step count
    resumed = _run(["training.ppo_masked", "--config", "configs/training/nq_skirmish.yaml",
                    "--smoke", "--resume", str(final)], tmp_path / "resumed")  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert '"steps": 4096.0' in resumed.stdout


def test_training_action_feature_preset_smoke_runs_dagger_and_ppo(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    done = _run(["training.ppo_masked", "--config", "configs/training/nq_skirmish_af.yaml",
                 "--smoke"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert '"dagger_1_student_win_rate"' in done.stdout
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(tmp_path / "final.zip", device="cpu")
    assert type(model.policy).__name__ == "ActionFeaturePolicy"


def test_training_advice_preset_smoke_trains_on_the_advice_rows(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    done = _run(["training.ppo_masked", "--config", "configs/training/nq_skirmish_advice.yaml",
                 "--smoke"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(tmp_path / "final.zip", device="cpu")
    assert type(model.policy).__name__ == "ActionFeaturePolicy"
    assert model.policy.af_rows == 8  # six "nq-af-v1" rows + t_value + t_pick


def test_training_advice_agreement_counts_overruled_picks(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from wargym.agents.learned import shipped_model

    script = _script("advice_agreement")
    report = script.main(script.Args(policy=str(shipped_model(".zip")), games=1,
                                     out=str(tmp_path / "a.json")))  # fmt: skip
    assert report["decisions"] == sum(k["decisions"] for k in report["kinds"].values()) > 10
    # the model card's claim: the shipped policy plays the tactician's pick at every decision
    assert report["overruled"] == 0
    old = tmp_path / "plain.zip"  # a policy without advice rows is refused by name
    (tmp_path / "plain.json").write_text('{"env_id": "wargym/NoQuarter-Skirmish-v1"}')
    old.write_bytes(shipped_model(".zip").read_bytes())
    with pytest.raises(SystemExit, match="advice rows"):
        script.main(script.Args(policy=str(old), games=1, out=str(tmp_path / "b.json")))


def test_training_selfplay_smoke_snapshots_and_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    done = _run(["training.selfplay_ppo", "--config", "configs/training/nq_selfplay.yaml",
                 "--smoke"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "final.zip").exists()
    assert len(list((tmp_path / "pool").glob("snap_*.zip"))) >= 1


def test_training_native_preset_smoke_trains_on_the_native_batch(tmp_path: Path) -> None:
    """nq_skirmish_native.yaml: MaskablePPO over one BatchVecEnv of native battles (--smoke
    keeps the batch, 8 battles); the zip plays the env it was trained on."""
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import yaml

    done = _run(["training.ppo_masked", "--config", "configs/training/nq_skirmish_native.yaml",
                 "--smoke"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert '"steps": 2048.0' in done.stdout
    saved = yaml.safe_load((tmp_path / "args.yaml").read_text())
    assert (saved["vec_env"], saved["backend"], saved["n_envs"]) == ("batch", "native", 8)
    assert saved["env_kwargs"] == {"cell": 4.0, "opponent": "rules"}
    from wargym.agents.learned import LearnedAgent

    agent = LearnedAgent(tmp_path / "final.zip")
    import gymnasium

    import wargym.envs  # noqa: F401 - registers the ids

    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", cell=4.0, backend="native")
    obs, _ = env.reset(seed=4)
    assert obs["action_mask"][agent.act(obs)] == 1
    env.close()


def test_training_ppo_masked_batch_args_are_checked() -> None:
    script = _script("ppo_masked")
    with pytest.raises(ValueError, match="vec_env 'batch'"):
        script.Args(env_id="wargym/NoQuarter-Patrol-v1", vec_env="batch")
    with pytest.raises(ValueError, match="top-level 'backend'"):
        script.Args(env_kwargs={"backend": "native"})
    assert script.env_kwargs_of(script.Args(env_kwargs={"cell": 4.0}, backend="native")) == {
        "cell": 4.0, "backend": "native"}  # fmt: skip
    # the skirmish's own default is "auto" (native): the run's "python" is passed on
    assert script.env_kwargs_of(script.Args())["backend"] == "python"
    patrol = script.Args(env_id="wargym/NoQuarter-Patrol-v1")
    assert "backend" not in script.env_kwargs_of(patrol)  # the mission envs take no backend
