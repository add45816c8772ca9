"""Cross-process determinism of every wargym env (issue 9).

Every registered Gymnasium id (``wargym/...``) and every PettingZoo env (AEC and Parallel) plays
a short seeded masked-random rollout, with an illegal action now and then and, for Gymnasium,
unseeded resets after an episode ends (they draw from the env's own ``np_random``). Every
observation, mask, reward, flag and info (events included) is hashed. Two fresh Python
processes with different ``PYTHONHASHSEED`` values play every env (one process each, all envs
in it) and must give the same hashes as each other and as this process.

Short battles (``fast`` of tests/envs/env_cases.py) keep each rollout under
about 2 s. Run ``python tests/envs/test_env_determinism.py`` to print the hashes as JSON.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from env_cases import cases, fast, feed, pick  # noqa: E402

from wargym.envs import pettingzoo_module  # noqa: E402

STEPS = 80
"""Steps (Gymnasium) or agent turns (PettingZoo) per rollout."""
SPACE_STEPS = 300
"""The same for the (fast) space-combat envs."""
ILLEGAL_EVERY = 11
"""Every this many steps the player tries an illegal action (when there is one)."""
SEED = 7
HASH_SEEDS = ("1", "2")
"""``PYTHONHASHSEED`` of the two subprocesses."""


def play_gym(env_id: str, seed: int, steps: int = STEPS) -> str:
    """Hash of a masked-random Gymnasium rollout (unseeded resets after each episode)."""
    env = gymnasium.make(env_id, **fast(env_id))
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    obs, info = env.reset(seed=seed)
    feed(h, obs, info)
    for step in range(steps):
        action = pick(rng, obs["action_mask"], step, ILLEGAL_EVERY)
        obs, reward, terminated, truncated, info = env.step(action)
        feed(h, action, obs, float(reward), terminated, truncated, info)
        if terminated or truncated:
            obs, info = env.reset()
            feed(h, "reset", obs, info)
    env.close()
    return h.hexdigest()


def play_aec(name: str, seed: int, steps: int = STEPS) -> str:
    """Hash of a masked-random AEC rollout (a new seeded episode after each end)."""
    env = pettingzoo_module(name).env(**fast(name))
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    episode = 0
    env.reset(seed=seed)
    for step in range(steps):
        if not env.agents:
            episode += 1
            env.reset(seed=seed + episode)
        agent = env.agent_selection
        obs, reward, terminated, truncated, info = env.last()
        action = (
            None if terminated or truncated else pick(rng, obs["action_mask"], step, ILLEGAL_EVERY)
        )
        feed(h, agent, obs, float(reward), terminated, truncated, info, action)
        env.step(action)
        feed(h, env.rewards, env.terminations, env.truncations)
    return h.hexdigest()


def play_parallel(name: str, seed: int, steps: int = STEPS) -> str:
    """Hash of a masked-random Parallel rollout (a new seeded episode after each end)."""
    env = pettingzoo_module(name).parallel_env(**fast(name))
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    episode = 0
    observations, infos = env.reset(seed=seed)
    feed(h, observations, infos)
    for step in range(steps):
        if not env.agents:
            episode += 1
            observations, infos = env.reset(seed=seed + episode)
            feed(h, "reset", observations, infos)
        actions = {
            a: pick(rng, o["action_mask"], step, ILLEGAL_EVERY)
            for a, o in sorted(observations.items())
        }
        observations, rewards, terminations, truncations, infos = env.step(actions)
        feed(h, actions, observations, rewards, terminations, truncations, infos)
    return h.hexdigest()


def play(case: str, seed: int = SEED) -> str:
    """The rollout hash of one case of :func:`cases`."""
    kind, name = case.split(":", 1)
    runner = {"gym": play_gym, "aec": play_aec, "parallel": play_parallel}[kind]
    space = "NoQuarter" not in name and "no_quarter" not in name
    return runner(name, seed, SPACE_STEPS if space else STEPS)


def all_hashes(seed: int = SEED) -> dict[str, str]:
    """Every case's rollout hash."""
    return {case: play(case, seed) for case in cases()}


@functools.cache
def subprocess_hashes() -> tuple[dict[str, str], ...]:
    """:func:`all_hashes` from two fresh processes (different ``PYTHONHASHSEED``), in parallel."""
    runs = []
    for hash_seed in HASH_SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        runs.append(
            subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve())],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    out = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=300)
        assert run.returncode == 0, stderr[-3000:]
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return tuple(out)


@pytest.mark.parametrize("case", cases())
def test_env_determinism_same_hash_in_two_processes_and_here(case: str) -> None:
    first, second = subprocess_hashes()
    here = play(case)
    assert first[case] == second[case] == here


def test_env_determinism_every_env_is_covered_and_seeds_matter() -> None:
    first, _ = subprocess_hashes()
    assert sorted(first) == sorted(cases())
    assert len(set(first.values())) == len(first)  # every case plays something of its own
    # another seed gives another rollout, so the hash can tell rollouts apart
    assert (
        play("gym:wargym/NoQuarter-Skirmish-v1", SEED + 1)
        != first["gym:wargym/NoQuarter-Skirmish-v1"]
    )
    assert play("aec:no_quarter_v1", SEED + 1) != first["aec:no_quarter_v1"]


if __name__ == "__main__":
    print(json.dumps(all_hashes()))
