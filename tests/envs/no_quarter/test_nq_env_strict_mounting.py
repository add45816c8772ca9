"""A mission under strict_mounting: NP contacts draw from the battle's own rule tables."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401
import wargym.rules.no_quarter.non_player.np_flow as np_flow


def test_20_4_np_contacts_use_the_battles_rules_options(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    original = np_flow.np_enemy_mechs

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs.get("rules"))
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(np_flow, "np_enemy_mechs", spy)
    env = gymnasium.make("wargym/NoQuarter-Patrol-v1", options={"rules": {"strict_mounting": True}})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if seen:
            break
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert seen, "no PEF contact was resolved"
    assert all(r is not None and r.options.strict_mounting for r in seen)  # type: ignore[attr-defined]
    offered = set(seen[0].mechs)  # type: ignore[attr-defined]
    battle = env.unwrapped.battle
    assert {m.design.id for m in battle.mechs.values()} <= offered
