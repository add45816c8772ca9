"""Self-play opponents for the No Quarter solo env: a pool of frozen checkpoints + scripted.

:class:`PoolOpponentEnv` wraps a ``NoQuarterSkirmishEnv`` and, at every ``reset``, draws red's
player from an :class:`OpponentPool`: with probability ``scripted_prob`` one of the scripted
agents (``rules``, ``heuristic``), otherwise one of the ``keep`` newest policy snapshots in the
pool folder (the training script writes them). The opponent changes *only* at reset, so an
episode is never played against two opponents (the PufferLib #620 pitfall), and the env's
battle is reset whenever the opponent is swapped. ``info["opponent"]`` (reset and step)
names the opponent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from wargym.agents.base import set_opponent

SCRIPTED = ("rules", "heuristic")
"""Scripted opponents a pool may hold."""


class OpponentPool:
    """Frozen checkpoints in ``folder`` (``*.zip``, newest ``keep``) plus scripted agents."""

    def __init__(
        self,
        folder: str | Path | None,
        scripted: tuple[str, ...] = SCRIPTED,
        scripted_prob: float = 0.5,
        keep: int = 5,
    ) -> None:
        unknown = set(scripted) - set(SCRIPTED)
        if unknown:
            raise ValueError(f"unknown scripted opponents {sorted(unknown)}; {SCRIPTED}")
        self.folder = None if folder is None else Path(folder)
        self.scripted, self.scripted_prob, self.keep = scripted, scripted_prob, keep
        self._cache: dict[str, Any] = {}

    def snapshots(self) -> list[Path]:
        """The newest ``keep`` snapshot files, oldest first."""
        if self.folder is None or not self.folder.is_dir():
            return []
        files = sorted(self.folder.glob("*.zip"), key=lambda p: p.stat().st_mtime)
        return files[-self.keep :]

    def draw(self, rng: np.random.Generator) -> tuple[str, Any]:
        """``(name, agent)`` of the next opponent."""
        snaps = self.snapshots()
        if self.scripted and (not snaps or rng.uniform() < self.scripted_prob):
            name = self.scripted[int(rng.integers(len(self.scripted)))]
            if name == "rules":
                from wargym.agents.scripted import NoQuarterScripted

                return name, NoQuarterScripted(rng)
            from wargym.agents.heuristic import NoQuarterHeuristic

            return name, NoQuarterHeuristic(rng)
        if not snaps:
            raise RuntimeError("the pool is empty: no snapshots and no scripted opponents")
        path = snaps[int(rng.integers(len(snaps)))]
        key = str(path)
        if key not in self._cache:
            from wargym.agents.learned import LearnedAgent

            self._cache[key] = LearnedAgent(path, rng, deterministic=False)
        return path.stem, self._cache[key]


class PoolOpponentEnv(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Swaps red's player at every reset (module docstring)."""

    def __init__(self, env: gymnasium.Env[Any, Any], pool: OpponentPool) -> None:
        super().__init__(env)
        self.pool = pool
        self._rng = np.random.default_rng()
        self.opponent_name = ""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Draw a new opponent, then start a new battle against it."""
        if kwargs.get("seed") is not None:
            self._rng = np.random.default_rng(kwargs["seed"] + 7919)
        self.opponent_name, agent = self.pool.draw(self._rng)
        agent.reset(int(self._rng.integers(2**31)))
        set_opponent(self.env, agent)
        obs, info = self.env.reset(**kwargs)
        info["opponent"] = self.opponent_name
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step the wrapped env; ``info["opponent"]`` names the current opponent."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["opponent"] = self.opponent_name
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The wrapped env's mask (for MaskablePPO)."""
        masks: np.ndarray = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return masks
