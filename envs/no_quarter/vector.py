"""Gymnasium vector envs over :class:`~.batch.SkirmishBatch` (``gymnasium.make_vec``).

Registered as the ``vector_entry_point`` of the No Quarter skirmish and mission ids, so::

    venv = gymnasium.make_vec("wargym/NoQuarter-Skirmish-v1", num_envs=64)
    obs, infos = venv.reset(seed=0)            # env i gets seed 0 + i
    masks = venv.action_masks()                # (64, n_actions) bool
    obs, rewards, terminations, truncations, infos = venv.step(actions)

(``vectorization_mode="vector_entry_point"`` is the default for these ids; ``"sync"`` and
``"async"`` still build gymnasium's own vector envs over single envs.) Keywords of ``make_vec``
other than ``num_envs``, ``copy`` and ``backend`` go to the single env; ``max_episode_steps``
comes from the registration.

``backend="native"`` (skirmish only) steps the battles in the native core, one C++ call with
the GIL released (:class:`~.batch.NativeSkirmishBatch`): the same arrays, bit for bit on the
same seeds and actions, for the ``"rules"`` (the book's NP AI), ``"scripted"`` and ``"random"``
opponents::

    venv = gymnasium.make_vec("wargym/NoQuarter-Skirmish-v1", num_envs=256,
                              backend="native", opponent="random")

It holds no single envs, so ``call`` and ``get_attr`` answer only ``"action_masks"``.

Spaces: ``single_observation_space`` is the single env's ``Dict({"observation",
"action_mask"})``, ``observation_space`` its batched form; ``single_action_space``
``Discrete(n)``, ``action_space`` ``MultiDiscrete([n] * N)``.

Auto-reset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP`` (:mod:`.batch`):
when env ``i`` ends, the step's observation is already that of its next episode, and
``infos["final_obs"][i]`` holds the finished episode's last observation and
``infos["final_info"]`` its last info, batched per key with the presence masks
``infos["_final_obs"]``, ``infos["_final_info"]`` (gymnasium's layout for that mode, built by
``VectorEnv._add_info`` as ``SyncVectorEnv`` does). Beyond these, infos are empty: the
per-step infos of the single envs (masks, turn, decision) are not merged as ``SyncVectorEnv``
merges them (no work nobody asked for: issue 16, item 6).

Observations are copies by default (``copy=True``, as gymnasium's ``SyncVectorEnv``);
``copy=False`` returns views of the batch's own arrays, overwritten by the next call.
A masked-out or malformed action raises :class:`~wargym.envs.base.InvalidActionError` and
nothing moves (SAME_STEP envs have no step that ignores its action).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from wargym.envs import DEFAULT_MAX_EPISODE_STEPS

from .batch import SkirmishBatch, check_seeds, single_envs
from .mission import NoQuarterAttackEnv, NoQuarterDefendEnv, NoQuarterPatrolEnv
from .solo import NoQuarterSkirmishEnv

__all__ = [
    "NoQuarterAttackVectorEnv",
    "NoQuarterDefendVectorEnv",
    "NoQuarterPatrolVectorEnv",
    "NoQuarterSkirmishVectorEnv",
]


class NoQuarterSkirmishVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    """``num_envs`` skirmishes stepped by one :class:`~.batch.SkirmishBatch` (module doc)."""

    env_cls: ClassVar[type[NoQuarterSkirmishEnv]] = NoQuarterSkirmishEnv
    metadata: dict[str, Any] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        *,
        max_episode_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        copy: bool = True,
        backend: str = "python",
        **env_kwargs: Any,
    ) -> None:
        self.batch = SkirmishBatch(
            num_envs,
            max_episode_steps=max_episode_steps,
            env_cls=self.env_cls,
            backend=backend,
            **env_kwargs,
        )
        self.num_envs = self.batch.num_envs
        self.copy = bool(copy)
        self.single_observation_space = self.batch.single_observation_space
        self.single_action_space = self.batch.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = spaces.MultiDiscrete(
            np.full(self.num_envs, self.batch.n_actions, dtype=np.int64)
        )
        self.render_mode = None

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reset every env (``seed``: an int, env ``i`` gets ``seed + i``, or one per env).

        Raises:
            EnvArgumentError: a bad seed; nothing is reset.
        """
        seeds = check_seeds(seed, self.num_envs)
        if seeds[0] is not None and not isinstance(seed, list | tuple | np.ndarray):
            super().reset(seed=seeds[0])  # VectorEnv.np_random, as gymnasium's own envs do
        self.batch.reset(seeds)
        return self._observation(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env (SAME_STEP auto-reset; module docstring).

        Raises:
            InvalidActionError: a malformed, out-of-range or masked-out action; nothing moves.
        """
        batch = self.batch
        batch.step(actions)
        infos: dict[str, Any] = {}
        done = batch.terminations | batch.truncations
        for i in np.flatnonzero(done):  # gymnasium's SAME_STEP layout (SyncVectorEnv's)
            final = {
                "observation": batch.final_obs[i].copy(),
                "action_mask": batch.final_masks[i].astype(np.int8),
            }
            infos = self._add_info(
                infos, {"final_obs": final, "final_info": batch.final_infos[i] or {}}, int(i)
            )
        return (
            self._observation(),
            batch.rewards.copy(),
            batch.terminations.copy(),
            batch.truncations.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: the legal actions of every env now (a copy)."""
        return self.batch.masks.copy()

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``name`` of every single env (called with the arguments if callable), in order.

        ``"action_masks"`` answers from the batch's array without asking the envs.
        """
        if name == "action_masks":
            return tuple(self.batch.masks.copy())
        results = []
        for env in single_envs(self.batch):
            value = env.get_wrapper_attr(name)
            results.append(value(*args, **kwargs) if callable(value) else value)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every single env."""
        return tuple(env.get_wrapper_attr(name) for env in single_envs(self.batch))

    def close_extras(self, **kwargs: Any) -> None:
        """Close the single envs."""
        self.batch.close()

    def _observation(self) -> dict[str, Any]:
        batch = self.batch
        mask = batch.masks.view(np.int8)  # the observation space's int8 mask, no copy
        if self.copy:
            return {"observation": batch.obs.copy(), "action_mask": mask.copy()}
        return {"observation": batch.obs, "action_mask": mask}


class NoQuarterPatrolVectorEnv(NoQuarterSkirmishVectorEnv):
    """Batched ``wargym/NoQuarter-Patrol-v1``."""

    env_cls = NoQuarterPatrolEnv


class NoQuarterAttackVectorEnv(NoQuarterSkirmishVectorEnv):
    """Batched ``wargym/NoQuarter-Attack-v1``."""

    env_cls = NoQuarterAttackEnv


class NoQuarterDefendVectorEnv(NoQuarterSkirmishVectorEnv):
    """Batched ``wargym/NoQuarter-Defend-v1``."""

    env_cls = NoQuarterDefendEnv
