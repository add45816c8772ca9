"""Batched stepping of No Quarter battles into preallocated numpy arrays (issue 16, item 7).

:class:`SkirmishBatch` holds ``num_envs`` single envs (``NoQuarterSkirmishEnv`` or a mission
env) and steps all of them in one call, writing the results into arrays it owns and the
caller reads (the buffer design of PufferLib and EnvPool): ``obs`` ``(N, size)`` float32,
``masks`` ``(N, n_actions)`` bool, ``rewards`` ``(N,)`` float64, ``terminations`` and
``truncations`` ``(N,)`` bool and ``deciding_side`` ``(N,)`` int8. The arrays are allocated
once and overwritten in place by every :meth:`SkirmishBatch.step` and
:meth:`SkirmishBatch.reset`; copy a row to keep it.

This is the Python backend of the batch: it holds the GIL while it steps. The native core
(issue 16) fills the same buffers with the GIL released; the arrays, the auto-reset rule and
the errors stay as documented here.

Auto-reset: **SAME_STEP** (gymnasium's ``AutoresetMode.SAME_STEP``, SB3's ``VecEnv`` rule).
When env ``i`` terminates or is truncated, the same ``step`` call writes its last observation
and mask to ``final_obs[i]`` / ``final_masks[i]``, keeps that step's info in
``final_infos[i]``, resets the env (``reset()`` without a seed: its generator goes on, as
gymnasium's vector envs do) and writes the new episode's first observation and mask to
``obs[i]`` / ``masks[i]``. ``rewards[i]``, ``terminations[i]`` and ``truncations[i]`` are
those of the finished episode's last step. So a batch seeded with ``s_i`` plays exactly what a
single env does after ``reset(seed=s_i)``, stepped with the same actions and reset without a
seed whenever an episode ends (tests/envs/test_nq_batch.py checks this).

Truncation: after ``max_episode_steps`` steps of one episode ``truncations[i]`` is set (the
rule of gymnasium's ``TimeLimit``, which registration puts on single envs).

``deciding_side[i]``: the side whose decision ``obs[i]`` and ``masks[i]`` show (0 blue, 1 red,
-1 none). The single-agent envs play red themselves, so after a step it is 0 unless the
battle is over; it is there for batches of two-sided play the native core will add.

Per-step infos (events and the like) are not gathered: nobody asked for them (issue 16, item
6); ``final_infos`` keeps the info of each finished episode's last step until the env
finishes again. Use a single env for the event stream.

Bad input (docs/bad_input.md): actions of a non-integer dtype, of another shape, out of range
or masked out, and bad seeds raise :class:`~wargym.envs.base.InvalidActionError` or
:class:`~wargym.envs.base.EnvArgumentError` naming the env index and the value, before any
env moves: the batch is unchanged. An error raised by the rules engine inside one env's step
(a bug, not bad input) propagates with the envs before it already stepped; the batch is then
inconsistent and should be reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from wargym.envs import DEFAULT_MAX_EPISODE_STEPS
from wargym.envs.base import (
    EnvArgumentError,
    InvalidActionError,
    check_int,
    require_reset,
)
from wargym.rules.errors import short_repr
from wargym.rules.no_quarter.forces.vocab import Side

from .solo import NoQuarterSkirmishEnv

__all__ = ["AUTORESET_MODE", "MAX_BATCH_ENVS", "SIDE_CODES", "SkirmishBatch", "check_seeds"]

AUTORESET_MODE = "same-step"
"""The auto-reset rule (module docstring); gymnasium's ``AutoresetMode.SAME_STEP`` value."""

MAX_BATCH_ENVS = 65_536
"""Most envs one batch holds."""

SIDE_CODES = {Side.BLUE: 0, Side.RED: 1}
"""``deciding_side`` codes; -1 when no side decides (the battle is over)."""

MAX_SEED = 2**63 - 1


def check_seeds(seeds: Any, num_envs: int) -> list[int | None]:
    """One seed (or ``None``) per env from ``seeds``.

    ``None``: every env draws fresh entropy; an ``int`` ``s``: env ``i`` gets ``s + i`` (as
    gymnasium's vector envs do); a sequence of ``num_envs`` ints or ``None``: one each.

    Raises:
        EnvArgumentError: a seed that is no integer (``bool`` and ``float`` included), a
            negative one or one above 2**63 - 1, or a sequence of another length; the message
            names the seed's index and quotes the value.
    """
    if seeds is None:
        return [None] * num_envs
    if not isinstance(seeds, (str, bytes)) and isinstance(seeds, (Sequence, np.ndarray)):
        values = list(seeds)
        if len(values) != num_envs:
            raise EnvArgumentError(
                f"seeds must hold one seed per env ({num_envs}), got {len(values)}"
            )
        return [
            None if s is None else check_int(f"seeds[{i}]", s, 0, MAX_SEED)
            for i, s in enumerate(values)
        ]
    first = check_int("seed", seeds, 0, MAX_SEED - num_envs)
    return [first + i for i in range(num_envs)]


class SkirmishBatch:
    """``num_envs`` No Quarter battles stepped by one call into preallocated arrays.

    Args:
        num_envs: how many battles (1 to :data:`MAX_BATCH_ENVS`).
        seeds: the seeds of the first :meth:`reset` (:func:`check_seeds`); the batch is reset
            at once.
        max_episode_steps: steps after which an episode is truncated (``TimeLimit``'s rule).
        env_cls: the single env class (``NoQuarterSkirmishEnv`` or a mission env).
        **env_kwargs: the single env's keyword arguments (checked by it); ``flatten`` must
            stay ``True`` and ``render_mode`` ``None``.

    Raises:
        EnvArgumentError: a bad ``num_envs``, seed, ``max_episode_steps`` or env keyword.
    """

    def __init__(
        self,
        num_envs: int,
        seeds: Any = None,
        *,
        max_episode_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        env_cls: type[NoQuarterSkirmishEnv] = NoQuarterSkirmishEnv,
        **env_kwargs: Any,
    ) -> None:
        self.num_envs = check_int("num_envs", num_envs, 1, MAX_BATCH_ENVS)
        self.max_episode_steps = check_int("max_episode_steps", max_episode_steps, 1)
        first_seeds = check_seeds(seeds, self.num_envs)
        if env_kwargs.get("flatten", True) is not True:
            raise EnvArgumentError("flatten must be True in a batch (rows of one flat array)")
        if env_kwargs.get("render_mode") is not None:
            raise EnvArgumentError(
                f"a batch does not render: render_mode must be None, got "
                f"{short_repr(env_kwargs['render_mode'])}"
            )
        self.envs: list[NoQuarterSkirmishEnv] = [env_cls(**env_kwargs)]
        self.envs += [env_cls(**env_kwargs) for _ in range(self.num_envs - 1)]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.n_actions = int(first.codec.n)
        size = int(first.encoder.size)
        n = self.num_envs
        self.obs = np.zeros((n, size), dtype=np.float32)
        self.masks = np.zeros((n, self.n_actions), dtype=np.bool_)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        self.deciding_side = np.full(n, -1, dtype=np.int8)
        self.episode_steps = np.zeros(n, dtype=np.int64)
        """Steps of each env's current episode."""
        self.final_obs = np.zeros((n, size), dtype=np.float32)
        self.final_masks = np.zeros((n, self.n_actions), dtype=np.bool_)
        self.final_infos: list[dict[str, Any] | None] = [None] * n
        """Each env's info of its last finished episode's last step (``None`` before one)."""
        self._ready = False
        self.reset(first_seeds)

    # -- the two calls -----------------------------------------------------------------------
    def reset(self, seeds: Any = None) -> None:
        """Start a new battle in every env (:func:`check_seeds` for ``seeds``).

        Rewards, terminations and truncations are cleared; ``obs``, ``masks`` and
        ``deciding_side`` hold the first decisions.

        Raises:
            EnvArgumentError: a bad seed (nothing is reset then).
        """
        per_env = check_seeds(seeds, self.num_envs)
        for i, (env, seed) in enumerate(zip(self.envs, per_env, strict=True)):
            obs, _ = env.reset(seed=seed)
            self._write(i, env, obs)
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self.episode_steps[:] = 0
        self.final_infos = [None] * self.num_envs
        self._ready = True

    def step(self, actions: Any) -> None:
        """Play ``actions[i]`` in env ``i`` for every env; results land in the arrays.

        Args:
            actions: ``(num_envs,)`` integer indices (any integer dtype), each legal in its
                env's ``masks`` row.

        Raises:
            NotResetError: never reset (the constructor resets, so only after a failed one).
            InvalidActionError: a non-integer dtype, another shape, an index out of range or
                masked out; the message names the env and the action. No env has moved.
        """
        require_reset(self._ready, "step()")
        chosen = self.check_actions(actions)
        for i, env in enumerate(self.envs):
            obs, reward, terminated, truncated, info = env.step(int(chosen[i]))
            steps = int(self.episode_steps[i]) + 1
            truncated = truncated or steps >= self.max_episode_steps
            self.rewards[i] = reward
            self.terminations[i] = terminated
            self.truncations[i] = truncated
            if terminated or truncated:
                self.final_obs[i] = obs["observation"]
                self.final_masks[i] = obs["action_mask"]
                self.final_infos[i] = info
                obs, _ = env.reset()
                steps = 0
            self.episode_steps[i] = steps
            self._write(i, env, obs)

    # -- helpers -----------------------------------------------------------------------------
    def check_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as an int64 array after every check of :meth:`step` (nothing moves).

        Raises:
            InvalidActionError: as :meth:`step` says.
        """
        if isinstance(actions, np.ndarray):
            array = actions
        else:
            try:
                array = np.asarray(actions)
            except (TypeError, ValueError) as exc:  # ragged nesting and the like
                raise InvalidActionError(
                    f"actions must be {self.num_envs} integer indices, got {short_repr(actions)}"
                ) from exc
        if array.dtype.kind not in "iu":
            raise InvalidActionError(
                f"actions must have an integer dtype, got {array.dtype}: {short_repr(actions)}"
            )
        if array.shape != (self.num_envs,):
            raise InvalidActionError(
                f"actions must have shape ({self.num_envs},), one per env, got {array.shape}"
            )
        out_of_range = np.flatnonzero((array < 0) | (array >= self.n_actions))
        if out_of_range.size:
            i = int(out_of_range[0])
            raise InvalidActionError(
                f"actions[{i}] = {int(array[i])} is out of range [0, {self.n_actions}) "
                f"({out_of_range.size} env(s) out of range)"
            )
        chosen = array.astype(np.int64, copy=False)
        masked = np.flatnonzero(~self.masks[np.arange(self.num_envs), chosen])
        if masked.size:
            i = int(masked[0])
            env = self.envs[i]
            what = env.codec.describe(int(chosen[i]), env.battle)
            raise InvalidActionError(
                f"actions[{i}] = {int(chosen[i])} ({what}) is masked out: not legal in env {i} "
                f"({masked.size} env(s) with masked actions)"
            )
        return chosen

    def _write(self, i: int, env: NoQuarterSkirmishEnv, obs: dict[str, Any]) -> None:
        self.obs[i] = obs["observation"]
        self.masks[i] = obs["action_mask"]
        battle = env.battle
        decision = battle.decision
        side = -1 if battle.over or decision is None else SIDE_CODES[decision.side]
        self.deciding_side[i] = side

    @property
    def dones(self) -> np.ndarray:
        """``terminations | truncations`` of the last step (a new array)."""
        out: np.ndarray = self.terminations | self.truncations
        return out

    def close(self) -> None:
        """Close every env."""
        for env in self.envs:
            env.close()
