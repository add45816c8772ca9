"""Batched No Quarter stepping (envs/no_quarter/batch.py, vector.py; issue 16 item 7)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.base import EnvArgumentError, InvalidActionError, NotResetError
from wargym.envs.masking import ActionMasks
from wargym.envs.no_quarter.batch import SkirmishBatch
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.envs.no_quarter.vector import NoQuarterSkirmishVectorEnv

SKIRMISH = "wargym/NoQuarter-Skirmish-v1"
FAST: dict[str, Any] = {"max_turns": 1, "mechs_per_side": 1}


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def test_batch_plays_what_single_envs_play_across_auto_resets() -> None:
    seeds = [11, 4, 11]  # env 2 repeats env 0's seed: same trajectory while actions agree
    limit = 5  # cuts some episodes (truncation) while others end by the rules
    batch = SkirmishBatch(3, seeds, max_episode_steps=limit, **FAST)
    singles = [NoQuarterSkirmishEnv(**FAST) for _ in seeds]
    first = [env.reset(seed=s)[0] for env, s in zip(singles, seeds, strict=True)]
    for i, obs in enumerate(first):
        assert np.array_equal(batch.obs[i], obs["observation"])
        assert np.array_equal(batch.masks[i], obs["action_mask"].astype(bool))
    steps = [0, 0, 0]
    ends = {"terminated": 0, "truncated": 0}
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = pick(batch.masks, rng)
        batch.step(actions)
        for i, env in enumerate(singles):
            obs, reward, terminated, truncated, _ = env.step(int(actions[i]))
            steps[i] += 1
            truncated = truncated or steps[i] >= limit
            assert batch.rewards[i] == reward
            assert bool(batch.terminations[i]) is terminated
            assert bool(batch.truncations[i]) is truncated
            if terminated or truncated:
                ends["terminated" if terminated else "truncated"] += 1
                assert np.array_equal(batch.final_obs[i], obs["observation"])
                assert np.array_equal(batch.final_masks[i], obs["action_mask"].astype(bool))
                obs, _ = env.reset()
                steps[i] = 0
            assert np.array_equal(batch.obs[i], obs["observation"])
            assert np.array_equal(batch.masks[i], obs["action_mask"].astype(bool))
            assert batch.deciding_side[i] == 0  # blue decides; red plays inside the step
    assert ends["terminated"] > 0 and ends["truncated"] > 0, ends


def test_batch_arrays_are_allocated_once() -> None:
    batch = SkirmishBatch(2, 0, **FAST)
    arrays = [batch.obs, batch.masks, batch.rewards, batch.terminations, batch.truncations]
    arrays.append(batch.deciding_side)
    pointers = [a.__array_interface__["data"][0] for a in arrays]
    rng = np.random.default_rng(1)
    for _ in range(5):
        batch.step(pick(batch.masks, rng))
    batch.reset(7)
    assert [a.__array_interface__["data"][0] for a in arrays] == pointers
    assert batch.obs.dtype == np.float32 and batch.masks.dtype == np.bool_
    assert batch.deciding_side.dtype == np.int8 and batch.rewards.shape == (2,)


def snapshot(batch: SkirmishBatch) -> list[Any]:
    arrays = [batch.obs, batch.masks, batch.rewards, batch.terminations, batch.truncations]
    arrays += [batch.deciding_side, batch.episode_steps]
    return [a.copy() for a in arrays] + [env.battle.to_dict() for env in batch.envs]


def same(a: list[Any], b: list[Any]) -> bool:
    return all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(a, b, strict=True)
    )


BAD_ACTIONS: list[tuple[str, Any, str]] = [
    ("float dtype", np.array([0.0, 1.0]), "integer dtype"),
    ("bool dtype", np.array([True, False]), "integer dtype"),
    ("strings", ["a", "b"], "integer dtype"),
    ("object array", np.array([1, None], dtype=object), "integer dtype"),
    ("ragged", [[1, 2], [3]], "integer indices"),
    ("too few", np.array([1]), "shape (2,)"),
    ("2-d", np.array([[1, 1]]), "shape (2,)"),
    ("scalar", 3, "shape (2,)"),
    ("negative", np.array([-1, 0]), "actions[0] = -1 is out of range"),
    ("too large", np.array([0, 10**6]), "actions[1] = 1000000 is out of range"),
]


@pytest.mark.parametrize(("case", "actions", "word"), BAD_ACTIONS, ids=[c[0] for c in BAD_ACTIONS])
def test_batch_refuses_bad_actions_and_nothing_moves(case: str, actions: Any, word: str) -> None:
    batch = SkirmishBatch(2, 3, **FAST)
    before = snapshot(batch)
    with pytest.raises(InvalidActionError, match=re.escape(word)):
        batch.step(actions)
    assert same(snapshot(batch), before), case


def test_batch_refuses_a_masked_out_action_naming_the_env() -> None:
    batch = SkirmishBatch(3, 3, **FAST)
    actions = pick(batch.masks, np.random.default_rng(0))
    illegal = int(np.flatnonzero(~batch.masks[2])[0])
    actions[2] = illegal
    before = snapshot(batch)
    with pytest.raises(InvalidActionError, match=rf"actions\[2\] = {illegal} .* masked out"):
        batch.step(actions)
    assert same(snapshot(batch), before)
    batch.step(pick(batch.masks, np.random.default_rng(0)))  # still usable


BAD_SEEDS: list[tuple[Any, str]] = [
    (-1, "seed must be in"),
    (1.5, "seed must be an integer"),
    (True, "seed must be an integer"),
    ("7", "seed must be an integer"),
    ([1], "one seed per env"),
    ([1, -2], r"seeds\[1\] must be in"),
    ([1, 2.0], r"seeds\[1\] must be an integer"),
]


@pytest.mark.parametrize(("seeds", "word"), BAD_SEEDS, ids=[repr(s) for s, _ in BAD_SEEDS])
def test_batch_refuses_bad_seeds_and_nothing_moves(seeds: Any, word: str) -> None:
    batch = SkirmishBatch(2, 3, **FAST)
    batch.step(pick(batch.masks, np.random.default_rng(0)))
    before = snapshot(batch)
    with pytest.raises(EnvArgumentError, match=word):
        batch.reset(seeds)
    assert same(snapshot(batch), before)
    with pytest.raises(EnvArgumentError, match=word):
        SkirmishBatch(2, seeds, **FAST)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"num_envs": 0}, "num_envs must be in"),
        ({"num_envs": 2.0}, "num_envs must be an integer"),
        ({"num_envs": 1, "flatten": False}, "flatten must be True"),
        ({"num_envs": 1, "render_mode": "ansi"}, "render_mode must be None"),
        ({"num_envs": 1, "max_episode_steps": 0}, "max_episode_steps must be"),
        ({"num_envs": 1, "max_turns": -3}, "max_turns"),
    ],
)
def test_batch_refuses_bad_arguments(kwargs: dict[str, Any], word: str) -> None:
    with pytest.raises(EnvArgumentError, match=word):
        SkirmishBatch(**kwargs)


def test_batch_seed_int_gives_seed_plus_index() -> None:
    a = SkirmishBatch(2, 20, **FAST)
    b = SkirmishBatch(2, [20, 21], **FAST)
    assert np.array_equal(a.obs, b.obs) and not np.array_equal(a.obs[0], a.obs[1])


# -- gymnasium.make_vec ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", [None, "vector_entry_point"])
def test_make_vec_gives_the_batched_vector_env(mode: str | None) -> None:
    venv = gymnasium.make_vec(SKIRMISH, num_envs=3, vectorization_mode=mode, **FAST)
    assert isinstance(venv, NoQuarterSkirmishVectorEnv)
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert venv.batch.max_episode_steps == gymnasium.spec(SKIRMISH).max_episode_steps
    obs, _ = venv.reset(seed=2)
    assert venv.observation_space.contains(obs)
    rng = np.random.default_rng(2)
    finals = 0
    for _ in range(30):
        masks = venv.action_masks()
        assert masks.shape == (3, venv.single_action_space.n) and masks.dtype == np.bool_
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert np.array_equal(np.stack(venv.call("action_masks")), masks)
        obs, rewards, terminated, truncated, infos = venv.step(pick(masks, rng))
        assert rewards.shape == (3,) and terminated.dtype == np.bool_
        if (terminated | truncated).any():
            done = terminated | truncated
            assert np.array_equal(infos["_final_obs"], done)
            assert np.array_equal(infos["final_info"]["_outcome"], done)
            for i in np.flatnonzero(done):
                assert venv.single_observation_space.contains(infos["final_obs"][i])
            finals += 1
        else:
            assert infos == {}
    assert finals > 0
    venv.close()


def same_info(a: Any, b: Any) -> bool:
    """Batched infos equal key by key (arrays elementwise, nested dicts recursively)."""
    if isinstance(a, dict):
        return (
            isinstance(b, dict) and a.keys() == b.keys() and all(same_info(a[k], b[k]) for k in a)
        )
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and all(x == y for x, y in zip(a, b, strict=True))
    return bool(np.array_equal(a, b))


def test_make_vec_matches_sync_vector_env_over_single_envs() -> None:
    # gymnasium's own SAME_STEP vector env over make()'s single envs (TimeLimit included)
    limit = {"max_episode_steps": 4}
    batched = gymnasium.make_vec(SKIRMISH, num_envs=2, **FAST, **limit)
    sync = gymnasium.make_vec(
        SKIRMISH,
        num_envs=2,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        **FAST,
        **limit,
    )
    assert isinstance(sync, SyncVectorEnv)
    a, _ = batched.reset(seed=9)
    b, _ = sync.reset(seed=9)
    rng = np.random.default_rng(9)
    ends = np.zeros(2, dtype=np.int64)  # terminations, truncations seen
    for _ in range(25):
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        actions = pick(a["action_mask"].astype(bool), rng)
        a, ra, ta, ua, ia = batched.step(actions)
        b, rb, tb, ub, ib = sync.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        ends += [int(ta.sum()), int((ua & ~ta).sum())]
        if not (ta | ua).any():
            assert ia == {}
            continue
        assert same_info(ia["final_info"], ib["final_info"])
        assert np.array_equal(ia["_final_obs"], ib["_final_obs"])
        for i in np.flatnonzero(ib["_final_obs"]):
            fa, fb = ia["final_obs"][i], ib["final_obs"][i]
            assert np.array_equal(fa["observation"], fb["observation"])
            assert np.array_equal(fa["action_mask"], fb["action_mask"])
    assert ends.all(), ends


def test_make_still_has_action_masks_outermost() -> None:
    env = gymnasium.make(SKIRMISH, **FAST)
    assert isinstance(env, ActionMasks)
    env.reset(seed=0)
    assert env.action_masks().dtype == np.bool_


def test_vector_env_refuses_a_masked_action_and_bad_seed() -> None:
    venv = gymnasium.make_vec(SKIRMISH, num_envs=2, **FAST)
    obs, _ = venv.reset(seed=1)
    masks = venv.action_masks()
    actions = pick(masks, np.random.default_rng(1))
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(InvalidActionError, match=r"actions\[1\]"):
        venv.step(actions)
    with pytest.raises(EnvArgumentError, match="seed"):
        venv.reset(seed=-5)
    assert np.array_equal(venv.action_masks(), masks)


def test_batch_step_before_reset_is_refused() -> None:
    batch = SkirmishBatch(1, 0, **FAST)
    batch._ready = False  # as after a reset that failed part-way
    with pytest.raises(NotResetError, match="step"):
        batch.step(np.zeros(1, dtype=np.int64))


@pytest.mark.parametrize(
    "env_id",
    ["wargym/NoQuarter-Patrol-v1", "wargym/NoQuarter-Attack-v1", "wargym/NoQuarter-Defend-v1"],
)
def test_make_vec_of_the_missions(env_id: str) -> None:
    venv = gymnasium.make_vec(env_id, num_envs=2, max_turns=1, max_mechs=12)
    single = gymnasium.make(env_id, max_turns=1, max_mechs=12)
    obs, _ = venv.reset(seed=4)
    single_obs, _ = single.reset(seed=4)
    assert np.array_equal(obs["observation"][0], single_obs["observation"])
    rng = np.random.default_rng(4)
    for _ in range(3):
        obs, *_ = venv.step(pick(venv.action_masks(), rng))
    assert venv.observation_space.contains(obs)


def test_nq_batch_benchmark_runs_and_writes_json(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "nq_batch.py"
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", "0.02", "--rounds", "1", "--sizes", "1,2",
         "--memory-envs", "2", "--memory-steps", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    names = {row["env"] for row in report["rows"]}
    assert {"batch N=1", "batch N=2", "gymnasium.make (one env)"} <= names
    assert report["memory"]["envs"] == 2 and report["memory"]["peak_mb"] > 0


def test_vector_env_copy_false_returns_the_batch_arrays() -> None:
    venv = NoQuarterSkirmishVectorEnv(2, copy=False, **FAST)
    obs, _ = venv.reset(seed=3)
    assert obs["observation"] is venv.batch.obs
    assert np.shares_memory(obs["action_mask"], venv.batch.masks)
    assert obs["action_mask"].dtype == np.int8
    kept = obs["observation"].copy()
    venv.step(pick(venv.action_masks(), np.random.default_rng(3)))
    assert not np.array_equal(kept, venv.batch.obs)  # overwritten in place by the next call
    copied, _ = NoQuarterSkirmishVectorEnv(2, **FAST).reset(seed=3)
    assert np.array_equal(copied["observation"], kept)
