"""Per-action features "nq-af-v1" (``action_features=True``): values, legality, fog of war."""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np

import wargym.envs  # noqa: F401
from wargym.agents.envspecs import mirror_skirmish
from wargym.envs.no_quarter.action_features import ACTION_FEATURES, action_features
from wargym.envs.no_quarter.encoding import visible_enemies
from wargym.rules.no_quarter.battle.actions import Move
from wargym.rules.no_quarter.battlefield.terrain import is_concealed


def _env() -> gymnasium.Env:
    return gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1",
        action_features=True,
        cell=4.0,
        battle_factory=mirror_skirmish,
    )


def test_nq_af_block_is_appended_and_zero_outside_the_legal_indices() -> None:
    env = _env()
    base = gymnasium.make("wargym/NoQuarter-Skirmish-v1", cell=4.0, battle_factory=mirror_skirmish)
    n = env.action_space.n
    obs, _ = env.reset(seed=2)
    plain, _ = base.reset(seed=2)
    assert env.unwrapped.encoder.version == "nq-obs-v3+nq-af-v1"
    assert obs["observation"].shape[0] == plain["observation"].shape[0] + len(ACTION_FEATURES) * n
    rng = np.random.default_rng(2)
    moves_seen = 0
    for _ in range(300):
        feats = obs["observation"][-len(ACTION_FEATURES) * n :].reshape(len(ACTION_FEATURES), n)
        assert not (feats.any(axis=0) & ~obs["action_mask"].astype(bool)).any()
        assert env.observation_space.contains(obs)
        battle = env.unwrapped.battle
        for index, action in env.unwrapped.codec.table(battle).items():
            if isinstance(action, Move) and obs["action_mask"][index]:
                assert feats[0, index] == float(is_concealed(battle.battlefield, action.to))
                moves_seen += 1
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        base_obs, *_ = base.step(action)
        np.testing.assert_array_equal(obs["action_mask"], base_obs["action_mask"])
        if terminated or truncated:
            break
    assert moves_seen > 50


def test_nq_af_features_ignore_enemies_out_of_sight() -> None:
    env = _env()
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        battle = env.unwrapped.battle
        decision = battle.decision
        if decision is not None and not battle.over:
            seen = visible_enemies(battle, decision.side)
            hidden = [
                m.id
                for m in battle.mechs.values()
                if m.side is not decision.side and m.id not in seen and m.removed is None
            ]
            table = env.unwrapped.codec.table(battle)
            if hidden and table:
                n = env.action_space.n
                before = action_features(battle, table, n, seen)
                other = battle.clone()
                mech = other.mechs[hidden[0]]
                other.mechs[hidden[0]] = dataclasses.replace(
                    mech, pos=(mech.pos[0] * 0.5 + 1.0, mech.pos[1] * 0.5 + 1.0), armor=[1] * 8
                )
                np.testing.assert_array_equal(before, action_features(other, table, n, seen))
                checked += 1
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert checked > 5
