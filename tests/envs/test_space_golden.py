"""Golden-hash regression test of the two space-combat envs (issue 9: faster, same play).

Plays seeded masked-random episodes of every space env API (Gymnasium, PettingZoo AEC and
Parallel), with an illegal action now and then, and hashes every observation, mask (also
``action_masks()``), reward, termination flag and info (events included). The hashes in
``tests/golden/space_golden.json`` were written by the code before the speed work (issue 9);
any change in play shows up as a changed hash.

Regenerate (only when play is meant to change, with a version bump):
``python tests/envs/test_space_golden.py --write``
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.pentagon_war import aec as pw_aec
from wargym.envs.starship_combat import aec as sc_aec

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "space_golden.json"
EPISODES = 20
"""Episodes per case, except the long Pentagon War PettingZoo ones (see :data:`SHORTER`)."""
SHORTER = {"aec/pentagon_war_v0": 8, "parallel/pentagon_war_v0": 6}
"""Episode counts of the slow cases (hundreds of steps per episode), to keep the test fast."""
ILLEGAL_EVERY = 37
"""Every this many steps the player tries an illegal action (if any), to cover that path."""


def _default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    return repr(obj)


def _feed(h: Any, *items: Any) -> None:
    """Hash ``items``: arrays by dtype and bytes, dicts key by key, the rest as JSON."""
    for item in items:
        if isinstance(item, np.ndarray):
            h.update(item.dtype.str.encode())
            h.update(np.ascontiguousarray(item).tobytes())
        elif isinstance(item, dict):
            h.update(b"{")
            for key in sorted(item, key=str):
                h.update(str(key).encode())
                h.update(b":")
                _feed(h, item[key])
            h.update(b"}")
        else:
            h.update(json.dumps(item, sort_keys=True, default=_default).encode())
        h.update(b"|")


def _feed_obs(h: Any, obs: dict[str, np.ndarray]) -> None:
    _feed(h, sorted(obs), obs["observation"], obs["action_mask"])


def _pick(rng: np.random.Generator, mask: np.ndarray, step: int) -> int:
    if step % ILLEGAL_EVERY == ILLEGAL_EVERY - 1:
        illegal = np.flatnonzero(mask == 0)
        if illegal.size:
            return int(rng.choice(illegal))
    return int(rng.choice(np.flatnonzero(mask)))


def play_gym(env_id: str, seed: int) -> str:
    """Hash of one masked-random Gymnasium episode."""
    env = gymnasium.make(env_id)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    obs, info = env.reset(seed=seed)
    _feed_obs(h, obs)
    _feed(h, info)
    step = 0
    while True:
        _feed(h, env.unwrapped.action_masks())  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.step(_pick(rng, obs["action_mask"], step))
        step += 1
        _feed_obs(h, obs)
        _feed(h, float(reward), bool(terminated), bool(truncated), info)
        if terminated or truncated:
            break
    _feed(h, step)
    return h.hexdigest()


def play_aec(make: Callable[[], Any], seed: int) -> str:
    """Hash of one masked-random AEC episode (both agents' views each step)."""
    env = make()
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    env.reset(seed=seed)
    step = 0
    while env.agents:
        agent = env.agent_selection
        obs, reward, terminated, truncated, info = env.last()
        _feed(h, agent)
        _feed_obs(h, obs)
        _feed(h, float(reward), bool(terminated), bool(truncated), info)
        for other in env.possible_agents:  # the other side's view (a zero mask)
            if other != agent:
                _feed_obs(h, env.observe(other))
        if step % 50 == 0:
            _feed(h, env.state())
        if terminated or truncated:
            env.step(None)
        else:
            env.step(_pick(rng, obs["action_mask"], step))
        step += 1
        _feed(h, env.rewards, env._cumulative_rewards, env.terminations, env.truncations)
        _feed(h, env.infos)
    _feed(h, step)
    return h.hexdigest()


def play_parallel(make: Callable[[], Any], seed: int) -> str:
    """Hash of one masked-random Parallel episode."""
    env = make()
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    observations, infos = env.reset(seed=seed)
    step = 0
    while True:
        for agent in sorted(observations):
            _feed_obs(h, observations[agent])
        _feed(h, infos)
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            if mask.any():
                actions[agent] = _pick(rng, mask, step)
            else:
                actions[agent] = 0
        observations, rewards, terms, truncs, infos = env.step(actions)
        step += 1
        _feed(h, rewards, terms, truncs)
    _feed(h, step)
    return h.hexdigest()


CASES: dict[str, Callable[[int], str]] = {
    "gym/PentagonWar-Duel-v0": lambda s: play_gym("wargym/PentagonWar-Duel-v0", s),
    "gym/StarshipCombat-Duel-v0": lambda s: play_gym("wargym/StarshipCombat-Duel-v0", s),
    "aec/pentagon_war_v0": lambda s: play_aec(pw_aec.env, s),
    "aec/starship_combat_v0": lambda s: play_aec(sc_aec.env, s),
    "parallel/pentagon_war_v0": lambda s: play_parallel(pw_aec.parallel_env, s),
    "parallel/starship_combat_v0": lambda s: play_parallel(sc_aec.parallel_env, s),
}


def digest(name: str) -> str:
    """One hash over the seeded episodes of case ``name`` (seeds 0, 1, ...)."""
    h = hashlib.sha256()
    for seed in range(SHORTER.get(name, EPISODES)):
        h.update(CASES[name](seed).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_space_env_play_matches_golden(name: str) -> None:
    """Same seeds and actions give the same observations, masks, rewards and events."""
    golden = json.loads(GOLDEN.read_text())
    assert digest(name) == golden[name]


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps({n: digest(n) for n in sorted(CASES)}, indent=2) + "\n")
    else:
        for n in sorted(CASES):
            print(n, digest(n))
