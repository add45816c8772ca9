"""Shared pieces of the env-wide tests: small configurations, the case list, hashing, moves.

Imported by tests/envs/test_registry.py, test_env_determinism.py and test_env_save_load.py
(each puts this folder on ``sys.path``, as tests/server/* do for server_cases.py).
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import numpy as np

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs import PETTINGZOO_ENVS

NQ_MISSION_FAST = {"max_turns": 2, "max_mechs": 12, "info_events": True}

# Short battles keep the suite fast; ids not listed here run with their defaults.
FAST_KWARGS: dict[str, dict[str, Any]] = {
    "wargym/PentagonWar-Duel-v0": {"max_turns": 2},
    "wargym/StarshipCombat-Duel-v0": {"options": {"max_rounds": 3}},
    "pentagon_war_v0": {"max_turns": 2},
    "starship_combat_v0": {"options": {"max_rounds": 3}},
    "wargym/NoQuarter-Skirmish-v1": {"max_turns": 2, "mechs_per_side": 2, "info_events": True},
    "wargym/NoQuarter-Patrol-v1": NQ_MISSION_FAST,
    "wargym/NoQuarter-Attack-v1": NQ_MISSION_FAST,
    "wargym/NoQuarter-Defend-v1": NQ_MISSION_FAST,
    "wargym/NoQuarter-CestusV-v1": {"max_turns": 1, "max_missions": 1},
    "no_quarter_v1": {"max_turns": 2, "mechs_per_side": 2, "info_events": True},
}
"""Small configuration per env name (Gymnasium id or PettingZoo module name)."""


def fast(name: str, **extra: Any) -> dict[str, Any]:
    """The small configuration of env ``name`` (empty: its defaults) with ``extra`` keywords."""
    return {**FAST_KWARGS.get(name, {}), **extra}


def cases() -> list[str]:
    """``gym:<id>`` for every wargym Gymnasium id, ``aec:``/``parallel:`` per PettingZoo env."""
    gym_ids = sorted(i for i in gymnasium.registry if i.startswith("wargym/"))
    pz = sorted(PETTINGZOO_ENVS)
    return [f"gym:{i}" for i in gym_ids] + [f"{k}:{n}" for n in pz for k in ("aec", "parallel")]


def _default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    return repr(obj)


def feed(h: Any, *items: Any) -> None:
    """Hash ``items``: arrays by dtype, shape and bytes, dicts key by key, the rest as JSON."""
    for item in items:
        if isinstance(item, np.ndarray):
            h.update(f"{item.dtype.str}{item.shape}".encode())
            h.update(np.ascontiguousarray(item).tobytes())
        elif isinstance(item, dict):
            h.update(b"{")
            for key in sorted(item, key=str):
                h.update(str(key).encode() + b":")
                feed(h, item[key])
            h.update(b"}")
        elif isinstance(item, (list, tuple)):
            h.update(b"[")
            feed(h, *item)
            h.update(b"]")
        else:
            h.update(json.dumps(item, sort_keys=True, default=_default).encode())
        h.update(b"|")


def pick(rng: np.random.Generator, mask: np.ndarray, step: int, illegal_every: int) -> int:
    """A legal index of ``mask``; every ``illegal_every`` steps an illegal one if any.

    An all-zero mask (a side with nothing to decide in a Parallel env) gives 0.
    """
    if not mask.any():
        return 0
    if step % illegal_every == illegal_every - 1:
        illegal = np.flatnonzero(mask == 0)
        if illegal.size:
            return int(rng.choice(illegal))
    return int(rng.choice(np.flatnonzero(mask)))
