"""training/ppo_batch.py: the single-file masked PPO over the native batch (issues 16 and 18).

The smoke run trains a few hundred steps through the CLI; the other tests check its parts
against direct computations: the sampler never draws a masked action and draws the others
with their probabilities, GAE equals the discounted sums it stands for, and a checkpoint is a
MaskablePPO zip whose policy picks what the script's network picks.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import yaml

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wargym_training_ppo_batch",
                                                  ROOT / "training" / "ppo_batch.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_ppo_batch_smoke_trains_and_writes_a_loadable_checkpoint(tmp_path: Path) -> None:
    """The CLI's --smoke run: 1,024 steps of 8 native battles (the batch raises on a masked
    action, so finishing means none was played), finite losses, times apart, files."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "training.ppo_batch", "--smoke", "--run-dir",
                           str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["steps"] == 1024.0
    for key in ("loss", "policy_loss", "value_loss", "entropy", "approx_kl"):
        assert math.isfinite(metrics[key]), key
    assert metrics["entropy"] > 0.0
    assert metrics["value_loss"] > 0.0  # the critic saw outcomes it had not predicted
    # the first minibatch is scored by the policy that collected it: the buffers line up
    assert abs(metrics["first_minibatch_kl"]) < 1e-6
    assert metrics["env_seconds"] > 0.0 and metrics["update_seconds"] > 0.0
    assert metrics["learner_seconds"] == pytest.approx(
        metrics["forward_seconds"] + metrics["update_seconds"]
    )
    assert metrics["seconds"] >= metrics["env_seconds"] + metrics["learner_seconds"]
    assert metrics["episodes"] >= 1.0  # a smoke rollout of 128 steps a battle ends battles
    checkpoints = sorted(p.name for p in (tmp_path / "checkpoints").glob("*.zip"))
    assert checkpoints == ["ppo_1024_steps.zip", "ppo_512_steps.zip"]
    saved = yaml.safe_load((tmp_path / "args.yaml").read_text())
    assert saved["env_id"] == "wargym/NoQuarter-Skirmish-v1" and saved["n_envs"] == 8

    from wargym.agents.learned import LearnedAgent

    agent = LearnedAgent(tmp_path / "final.zip")
    assert agent.meta["env_kwargs"] == {"cell": 4.0}
    assert agent.meta["trained_steps"] == 1024
    game = agent.make_env()  # the sidecar names the env: same widths as the policy
    obs, _ = game.reset(seed=3)
    assert agent.widths == (obs["observation"].size, obs["action_mask"].size)
    assert obs["action_mask"][agent.act(obs)] == 1
    game.close()


def test_ppo_batch_checkpoint_is_the_scripts_network(tmp_path: Path) -> None:
    """save_checkpoint's MaskablePPO zip picks, on batch states, the arg-max of the masked
    logits of the network it was saved from."""
    script = _script()
    args = script.Args(n_envs=6, seed=11, net_arch=[16, 8], activation="relu")
    batch = script.make_env(args)
    torch.manual_seed(0)
    net = script._agent_classes()(batch.obs.shape[1], batch.n_actions, [16, 8], "relu")
    with torch.no_grad():  # a network that is not at its (near-uniform) initialisation
        for p in net.parameters():
            p.add_(torch.randn_like(p))
    path = script.save_checkpoint(net, batch, args, 77, tmp_path / "net.zip")
    script.write_sidecar(args, 77, path)
    from wargym.agents.learned import LearnedAgent

    loaded = LearnedAgent(path)
    assert loaded.meta["trained_steps"] == 77
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, masks = torch.from_numpy(batch.obs.copy()), torch.from_numpy(batch.masks.copy())
        with torch.no_grad():
            expected = net.log_probs(obs, masks).argmax(-1).numpy()
        for i in range(args.n_envs):
            assert loaded.act(batch.obs[i], batch.masks[i]) == expected[i]
        legal = [rng.choice(np.flatnonzero(row)) for row in batch.masks]
        batch.step(np.array(legal))


def test_ppo_batch_sampler_never_draws_a_masked_action() -> None:
    """Masked actions carry the largest raw logits and are never drawn; the legal ones come
    with the masked softmax's frequencies."""
    script = _script()
    gen = torch.Generator().manual_seed(5)
    rows, n = 64, 40
    logits = torch.randn(rows, n, generator=gen)
    mask = torch.rand(rows, n, generator=gen) < 0.15
    mask[:, 0] = True
    mask[1] = False
    mask[1, n - 1] = True  # the only legal action is the last one
    logits = torch.where(mask, logits, logits + 50.0)
    log_probs = torch.log_softmax(logits.masked_fill(~mask, script.MASKED_LOGIT), -1)
    draws = torch.stack([script.sample(log_probs, mask, gen) for _ in range(3000)])
    assert draws.shape == (3000, rows) and draws.dtype == torch.long
    assert bool(mask.gather(1, draws.T).all())
    assert bool((draws[:, 1] == n - 1).all())
    freq = torch.stack([torch.bincount(draws[:, r], minlength=n) for r in range(rows)]) / 3000
    probs = script.probabilities(log_probs, mask)
    assert float((freq - probs).abs().max()) < 0.05
    assert torch.allclose(probs.sum(-1), torch.ones(rows))
    ent = script.entropy(log_probs, mask)
    assert torch.isfinite(ent).all() and float(ent[1]) == 0.0
    direct = -(probs * probs.clamp(min=1e-30).log()).sum(-1)
    assert torch.allclose(ent, direct, atol=1e-5)


def test_ppo_batch_gae_equals_the_discounted_sums() -> None:
    """lambda = 1: advantage + value is the discounted return up to the episode's end (or the
    bootstrap value); lambda = 0: the one-step TD error."""
    script = _script()
    gen = torch.Generator().manual_seed(2)
    steps, n, gamma = 7, 5, 0.9
    rewards = torch.randn(steps, n, generator=gen)
    values = torch.randn(steps, n, generator=gen)
    dones = (torch.rand(steps, n, generator=gen) < 0.3).float()
    last_value = torch.randn(n, generator=gen)
    last_done = (torch.rand(n, generator=gen) < 0.5).float()
    adv, ret = script.gae(rewards, values, dones, last_value, last_done, gamma, 1.0)
    starts = torch.cat([dones[1:], last_done[None]])  # starts[t]: obs t + 1 begins an episode
    for env in range(n):
        for t in range(steps):
            total, discount, k = 0.0, 1.0, t
            while True:
                total += discount * float(rewards[k, env])
                discount *= gamma
                if starts[k, env]:
                    break
                if k == steps - 1:
                    total += discount * float(last_value[env])
                    break
                k += 1
            assert float(ret[t, env]) == pytest.approx(total, abs=1e-5)
    adv0, _ = script.gae(rewards, values, dones, last_value, last_done, gamma, 0.0)
    nxt = torch.cat([values[1:], last_value[None]])
    assert torch.allclose(adv0, rewards + gamma * nxt * (1 - starts) - values, atol=1e-6)
    assert torch.allclose(ret, adv + values)


def test_ppo_batch_args_refuse_what_no_run_can_use() -> None:
    script = _script()
    with pytest.raises(ValueError, match="n_envs"):
        script.Args(n_envs=0)
    with pytest.raises(ValueError, match="backend"):
        script.Args(env_kwargs={"backend": "python"})
    with pytest.raises(ValueError, match="gamma"):
        script.Args(gamma=1.5)


@pytest.mark.parametrize("threads", [2, 3])
def test_ppo_batch_threaded_batches_play_as_one_batch(threads: int) -> None:
    """env_threads > 1: batches of consecutive battles stepped at once by threads give one
    batch's arrays bit for bit (resets included), and a masked action moves nothing."""
    from wargym.envs.base import InvalidActionError
    from wargym.envs.no_quarter.batch import SkirmishBatch

    script = _script()
    kwargs = {"cell": 4.0, "opponent": "rules"}
    one = SkirmishBatch(10, 21, backend="native", **kwargs)
    split = script.ThreadedBatches(10, 21, threads, kwargs)
    assert [p.num_envs for p in split.parts] == ([5, 5] if threads == 2 else [3, 4, 3])
    rng = np.random.default_rng(threads)
    ended = 0
    for _ in range(160):
        for name in script.ThreadedBatches.ARRAYS:
            assert np.array_equal(getattr(split, name), getattr(one, name)), name
        outcomes = [(i or {}).get("outcome") for i in one.final_infos]
        assert [(i or {}).get("outcome") for i in split.final_infos] == outcomes
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in one.masks])
        one.step(actions)
        split.step(actions)
        ended += int((one.terminations | one.truncations).sum())
    assert ended >= 10  # episodes ended and the battles reset
    before = split.obs.copy()
    bad = np.array([np.flatnonzero(row)[0] for row in split.masks])
    bad[-1] = np.flatnonzero(~split.masks[-1])[0]
    with pytest.raises(InvalidActionError, match="masked out"):
        split.step(bad)
    assert np.array_equal(split.obs, before)
    assert all(np.array_equal(p.obs, before[s : s + p.num_envs]) for p, s in
               zip(split.parts, [0, *split.splits], strict=True))  # fmt: skip
    split.close()


@pytest.mark.parametrize(
    ("script", "override", "words"),
    [
        ("ppo_batch", {"env_threads": 0}, ["env_threads"]),
        ("ppo_batch", {"n_envs": 2, "env_threads": 3}, ["env_threads", "n_envs"]),
        ("ppo_batch", {"env_kwargs": {"backend": "python"}}, ["env_kwargs", "backend"]),
        (
            "ppo_masked",
            {"vec_env": "batch", "env_id": "wargym/NoQuarter-Patrol-v1"},
            ["vec_env 'batch'", "NoQuarter-Patrol-v1"],
        ),
        ("ppo_masked", {"env_kwargs": {"backend": "native"}}, ["env_kwargs", "backend"]),
        ("ppo_masked", {"backend": "gpu"}, ["backend", "gpu"]),
    ],
    ids=lambda v: str(v) if not isinstance(v, list) else "",
)
def test_ppo_batch_and_native_preset_bad_values_name_the_key(
    tmp_path: Path, script: str, override: dict[str, object], words: list[str]
) -> None:
    """docs/bad_input.md: the new fields of both scripts, refused by load_preset by name."""
    from wargym.agents.config import ConfigError, load_preset

    spec = importlib.util.spec_from_file_location(f"wargym_training_{script}_bad",
                                                  ROOT / "training" / f"{script}.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    preset = {}
    if script == "ppo_masked":
        native = ROOT / "configs" / "training" / "nq_skirmish_native.yaml"
        preset = yaml.safe_load(native.read_text())
    preset.update(override)
    file = tmp_path / "preset.yaml"
    file.write_text(yaml.safe_dump(preset), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_preset(module.Args, file)
    for word in [str(file), *words]:
        assert word in str(info.value)


def test_ppo_batch_refuses_env_kwargs_the_native_batch_lacks(tmp_path: Path) -> None:
    """Reward shaping (and any keyword the native batch refuses) fails before training,
    naming the keyword (envs/no_quarter/batch.py's EnvArgumentError)."""
    from wargym.envs.base import EnvArgumentError

    script = _script()
    args = script.Args(env_kwargs={"cell": 4.0, "reward_shaping": {"class_destroyed": 0.3}},
                       n_envs=2, run_dir=str(tmp_path))  # fmt: skip
    with pytest.raises(EnvArgumentError, match="reward_shaping"):
        script.main(args)
    assert not (tmp_path / "final.zip").exists()
