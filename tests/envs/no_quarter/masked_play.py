"""Shared by the env smoke tests: one seeded game on random masked actions, masks checked.

Each smoke test puts this folder on ``sys.path`` (as tests/envs/env_cases.py is used).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

import gymnasium
import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.battle.state import Battle


def play_masked(
    env_id: str,
    seed: int,
    kinds: Collection[DecisionKind],
    *,
    round_trip: bool = False,
    **kwargs: Any,
) -> Counter[DecisionKind]:
    """Play ``env_id`` to its end; count the decision kinds met.

    At every decision of ``kinds`` the mask must decode to exactly the legal actions, and with
    ``round_trip`` the paused state must survive ``to_dict``/``from_dict``.
    """
    env = gymnasium.make(env_id, **kwargs)
    seen: Counter[DecisionKind] = Counter()
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(4000):
        battle = env.unwrapped.battle  # type: ignore[attr-defined]
        mask = info["action_mask"]
        decision = game.decider(battle)
        assert decision is not None
        seen[decision.kind] += 1
        if decision.kind in kinds:
            codec = env.unwrapped.codec  # type: ignore[attr-defined]
            legal = game.legal_actions(battle)
            assert {codec.decode(int(i), battle) for i in np.flatnonzero(mask)} == set(legal)
            if round_trip:
                assert Battle.from_dict(battle.to_dict()).frames == battle.frames
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            env.close()
            return seen
    raise AssertionError("the episode did not end")
