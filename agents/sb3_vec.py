"""Stable-Baselines3 ``VecEnv`` over the batched No Quarter envs (issue 16, item 7).

SB3 takes its own ``VecEnv`` classes, not gymnasium's vector envs, so this adapter puts one
:class:`~wargym.envs.no_quarter.batch.SkirmishBatch` behind SB3's interface::

    from sb3_contrib import MaskablePPO
    from wargym.agents.sb3_vec import BatchVecEnv

    venv = BatchVecEnv(64, seed=0, max_turns=4)           # the skirmish env's keywords
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64)
    model.learn(10_000)                                   # masks from venv.action_masks()

sb3-contrib's ``get_action_masks`` calls ``env_method("action_masks")``; here that answers
one row of the batch's mask array per env without asking the single envs (so does
:meth:`BatchVecEnv.action_masks`, an ``(N, n_actions)`` bool array). A masked-out action
raises :class:`~wargym.envs.base.InvalidActionError` and nothing moves.

Auto-reset is SB3's rule, which is the batch's SAME_STEP: at the end of an episode the
observation is the next episode's first, ``infos[i]["terminal_observation"]`` the finished
one's last, and ``infos[i]["TimeLimit.truncated"]`` says whether it was cut off by
``max_episode_steps`` (not by the rules). Seeds: ``seed(s)`` (or ``seed=`` here) seeds the
next ``reset`` with ``s + i`` per env, as SB3's own vec envs do. This module imports SB3;
nothing in ``wargym.envs`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from wargym.envs import DEFAULT_MAX_EPISODE_STEPS
from wargym.envs.no_quarter.batch import (
    NativeSkirmishBatch,
    SkirmishBatch,
    check_seeds,
    single_envs,
)
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv

__all__ = ["BatchVecEnv"]


class BatchVecEnv(VecEnv):
    """SB3 ``VecEnv`` of ``num_envs`` No Quarter battles stepped by one batch call.

    Args:
        num_envs: how many battles.
        seed: the seed of the first ``reset`` (env ``i`` gets ``seed + i``; ``None``: entropy).
        max_episode_steps: steps after which an episode is truncated.
        env_cls: the single env class (the skirmish or a mission env).
        backend: ``"python"`` (the reference envs) or ``"native"`` (one C++ call steps every
            battle with the GIL released, ``batch.NativeSkirmishBatch``;
            the skirmish with the ``"rules"``, ``"scripted"`` or ``"random"`` opponent).
        **env_kwargs: the single env's keywords.

    Raises:
        EnvArgumentError: a bad count, seed or keyword (:class:`SkirmishBatch`).
    """

    def __init__(
        self,
        num_envs: int,
        seed: int | None = None,
        *,
        max_episode_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        env_cls: type[NoQuarterSkirmishEnv] = NoQuarterSkirmishEnv,
        backend: str = "python",
        **env_kwargs: Any,
    ) -> None:
        self.batch = SkirmishBatch(
            num_envs,
            seed,
            max_episode_steps=max_episode_steps,
            env_cls=env_cls,
            backend=backend,
            **env_kwargs,
        )
        self._actions: np.ndarray | None = None
        super().__init__(
            self.batch.num_envs,
            self.batch.single_observation_space,
            self.batch.single_action_space,
        )
        if seed is not None:
            self.seed(seed)

    # -- VecEnv ------------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        """Reset every env with the seeds given to :meth:`seed` since the last reset."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        self.batch.reset(check_seeds(seeds, self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return self._observation()

    def step_async(self, actions: np.ndarray) -> None:
        """Check ``actions`` now (:meth:`SkirmishBatch.check_actions`) and keep them."""
        self._actions = self.batch.check_actions(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Play the kept actions in every env; SB3's auto-reset (module docstring)."""
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        batch = self.batch
        actions, self._actions = self._actions, None
        batch.step(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        done = batch.terminations | batch.truncations
        for i in np.flatnonzero(done):
            infos[i] = {
                "terminal_observation": {
                    "observation": batch.final_obs[i].copy(),
                    "action_mask": batch.final_masks[i].astype(np.int8),
                },
                "TimeLimit.truncated": bool(batch.truncations[i] and not batch.terminations[i]),
                "outcome": (batch.final_infos[i] or {}).get("outcome"),
            }
        return self._observation(), batch.rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: every env's legal actions now."""
        return self.batch.masks.copy()

    def close(self) -> None:
        """Close the single envs."""
        self.batch.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Attribute ``attr_name`` of the chosen single envs (``action_masks``: the batch's).

        The native batch holds no single envs: its reference env (never stepped) answers.
        """
        if attr_name == "action_masks":
            return [self._mask_of(i) for i in self._get_indices(indices)]
        if isinstance(self.batch, NativeSkirmishBatch):  # its reference env (same configuration)
            return [getattr(self.batch.env, attr_name) for _ in self._get_indices(indices)]
        return [getattr(self.batch.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set ``attr_name`` on the chosen single envs."""
        envs = single_envs(self.batch)
        for i in self._get_indices(indices):
            setattr(envs[i], attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call ``method_name`` of the chosen envs; ``action_masks`` answers from the batch."""
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.batch.masks[chosen].copy())
        envs = single_envs(self.batch)
        return [getattr(envs[i], method_name)(*method_args, **method_kwargs) for i in chosen]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """The single envs are never wrapped."""
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next :meth:`reset`: env ``i`` gets ``seed + i``.

        Raises:
            EnvArgumentError: a bad seed.
        """
        if seed is None:
            return [None] * self.num_envs
        self._seeds = list(check_seeds(seed, self.num_envs))
        return self._seeds

    # -- helpers -----------------------------------------------------------------------------
    def _mask_of(self, i: int) -> Any:
        """Env ``i``'s ``action_masks`` (a callable reading the batch's row)."""
        return lambda: self.batch.masks[i].copy()

    def _observation(self) -> dict[str, np.ndarray]:
        batch = self.batch
        return {"observation": batch.obs.copy(), "action_mask": batch.masks.astype(np.int8)}
