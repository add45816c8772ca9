"""Batched stepping of No Quarter battles into preallocated numpy arrays (issue 16, item 7).

:class:`SkirmishBatch` holds ``num_envs`` single envs (``NoQuarterSkirmishEnv`` or a mission
env) and steps all of them in one call, writing the results into arrays it owns and the
caller reads (the buffer design of PufferLib and EnvPool): ``obs`` ``(N, size)`` float32,
``masks`` ``(N, n_actions)`` bool, ``rewards`` ``(N,)`` float64, ``terminations`` and
``truncations`` ``(N,)`` bool and ``deciding_side`` ``(N,)`` int8. The arrays are allocated
once and overwritten in place by every :meth:`SkirmishBatch.step` and
:meth:`SkirmishBatch.reset`; copy a row to keep it.

Two backends: ``backend="python"`` (the default) steps the single reference envs and holds
the GIL while it steps; ``backend="native"`` (:class:`NativeSkirmishBatch`, skirmishes with the
``"scripted"`` or ``"random"`` opponent) steps every battle in one call of the native core with
the GIL released and fills the same arrays with the same values, bit for bit on the same seeds
and actions (tests/envs/test_nq_batch_native.py). The arrays, the auto-reset rule and the
errors are those documented here for both.

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

from .core import MAX_REDRAWS
from .solo import NoQuarterSkirmishEnv

__all__ = [
    "AUTORESET_MODE",
    "BACKENDS",
    "MAX_BATCH_ENVS",
    "SIDE_CODES",
    "NativeSkirmishBatch",
    "SkirmishBatch",
    "check_backend",
    "check_seeds",
    "single_envs",
]

AUTORESET_MODE = "same-step"
"""The auto-reset rule (module docstring); gymnasium's ``AutoresetMode.SAME_STEP`` value."""

MAX_BATCH_ENVS = 65_536
"""Most envs one batch holds."""

SIDE_CODES = {Side.BLUE: 0, Side.RED: 1}
"""``deciding_side`` codes; -1 when no side decides (the battle is over)."""

MAX_SEED = 2**63 - 1
BACKENDS = ("python", "native")
"""The batch's engines: the reference envs (default) or the core (:class:`NativeSkirmishBatch`)."""


def single_envs(batch: SkirmishBatch) -> list[NoQuarterSkirmishEnv]:
    """The batch's single envs; EnvArgumentError for the native batch, which holds none."""
    envs: list[NoQuarterSkirmishEnv] | None = getattr(batch, "envs", None)
    if envs is None:
        raise EnvArgumentError(
            "the native batch holds no single envs (only action_masks is answered); "
            "use backend='python'"
        )
    return envs


def check_backend(backend: Any) -> str:
    """``backend`` if it is one of :data:`BACKENDS`, else EnvArgumentError naming it."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise EnvArgumentError(f"backend must be one of {BACKENDS}, got {short_repr(backend)}")
    return backend


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

    def __new__(cls, *args: Any, backend: str = "python", **kwargs: Any) -> SkirmishBatch:
        """``backend="native"`` makes a :class:`NativeSkirmishBatch` (same attributes and calls)."""
        if cls is SkirmishBatch and backend == "native":
            return super().__new__(NativeSkirmishBatch)
        return super().__new__(cls)

    def __init__(
        self,
        num_envs: int,
        seeds: Any = None,
        *,
        max_episode_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        env_cls: type[NoQuarterSkirmishEnv] = NoQuarterSkirmishEnv,
        backend: str = "python",
        **env_kwargs: Any,
    ) -> None:
        check_backend(backend)
        first_seeds = self._check_common(num_envs, seeds, max_episode_steps, env_kwargs)
        self.envs: list[NoQuarterSkirmishEnv] = [env_cls(**env_kwargs)]
        self.envs += [env_cls(**env_kwargs) for _ in range(self.num_envs - 1)]
        self._allocate(self.envs[0])
        self._ready = False
        self.reset(first_seeds)

    def _allocate(self, first: NoQuarterSkirmishEnv) -> None:
        """The spaces of ``first`` (every env's) and the arrays every call writes."""
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

    def _check_common(
        self, num_envs: Any, seeds: Any, max_episode_steps: Any, env_kwargs: dict[str, Any]
    ) -> list[int | None]:
        """Sets ``num_envs`` and ``max_episode_steps``; the first seeds (both backends' checks)."""
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
        return first_seeds

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
            what = self._describe(i, int(chosen[i]))
            raise InvalidActionError(
                f"actions[{i}] = {int(chosen[i])} ({what}) is masked out: not legal in env {i} "
                f"({masked.size} env(s) with masked actions)"
            )
        return chosen

    def _describe(self, i: int, index: int) -> str:
        env = self.envs[i]
        return str(env.codec.describe(index, env.battle))

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


NATIVE_OPPONENTS = ("rules", "scripted", "random")
"""Red's players the native batch has (``"rules"``: the NP procedure in C++, enemy_decide.hpp)."""
NATIVE_REFUSED = ("advisor", "battle_factory", "markers", "slots", "shaping_terms")
"""Env keywords the native batch does not take (any value but ``None``)."""


class NativeSkirmishBatch(SkirmishBatch):
    """:class:`SkirmishBatch` on the native core: one C++ call steps every battle, GIL released.

    Made by ``SkirmishBatch(..., backend="native")`` (or directly); the arrays, SAME_STEP
    auto-reset, truncation, ``deciding_side``, ``final_infos`` and the input checks are those of
    the module docstring, and the values are the Python batch's bit for bit on the same seeds and
    actions (tests/envs/test_nq_batch_native.py). The core is
    ``_core.no_quarter.skirmish_batch.SkirmishBatch`` (native/no_quarter/envs/skirmish_batch.hpp).

    **Streams.** Each env keeps its own ``np_random`` (gymnasium's, from its seed) and spawns
    ``(setup, dice, opponent)`` from it for every start, as ``NoQuarterSkirmishEnv.reset`` does.
    The set-up runs in the core (``new_skirmish_setup``) and the rule tables of its battlefield
    are built here (:func:`~wargym.native.no_quarter.tables.rules_tables`: the core reads no
    YAML). So that the auto-reset inside a GIL-free step never calls Python, every env's *next*
    episode is prepared ahead, right after each start: its three streams are spawned, its set-up
    is made and its tables built, and the core starts from them when the episode ends. After the
    step the glue prepares the next one for each env that reset. Two rare cases come back to the
    glue with the GIL held, as statuses of the call: a building fell (the tables hold the
    battlefield's terrain, so the env stops before its next use of them; new tables are built
    and the core resumes), and a start whose battle ends before blue's first decision (solo.py
    draws again from the next streams, up to ``MAX_REDRAWS`` in all).

    Red's ``"rules"`` opponent (the env's default) is the NP procedure in C++
    (``np_decide``, native/no_quarter/non_player/enemy_decide.hpp) with an ``NpContext`` per
    battle, rolling from the opponent's stream as ``opponents.rules_opponent`` does.

    Not supported yet (``EnvArgumentError`` naming the keyword; use ``backend="python"``):
    agent opponents, ``env_cls`` other than ``NoQuarterSkirmishEnv`` (missions), an ``advisor``,
    ``battle_factory``, ``markers``, ``slots`` or ``shaping_terms``, ``info_events=True`` and
    a nonzero ``reward_shaping``.
    """

    def __init__(
        self,
        num_envs: int,
        seeds: Any = None,
        *,
        max_episode_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        env_cls: type[NoQuarterSkirmishEnv] = NoQuarterSkirmishEnv,
        backend: str = "native",
        **env_kwargs: Any,
    ) -> None:
        if check_backend(backend) != "native":
            raise EnvArgumentError("backend: a NativeSkirmishBatch is the native backend")
        first_seeds = self._check_common(num_envs, seeds, max_episode_steps, env_kwargs)
        if env_cls is not NoQuarterSkirmishEnv:
            raise EnvArgumentError(
                f"env_cls: the native batch plays NoQuarterSkirmishEnv only, got "
                f"{short_repr(env_cls)}; use backend='python'"
            )
        for key in NATIVE_REFUSED:
            if env_kwargs.get(key) is not None:
                raise EnvArgumentError(
                    f"{key}: not supported by the native batch; use backend='python'"
                )
        if env_kwargs.get("info_events", False) is not False:
            raise EnvArgumentError(
                "info_events: the native batch gathers no events; use backend='python'"
            )
        opponent = env_kwargs.get("opponent", "rules")
        if not isinstance(opponent, str) or opponent not in NATIVE_OPPONENTS:
            raise EnvArgumentError(
                f"opponent: the native batch plays {NATIVE_OPPONENTS}, got {short_repr(opponent)}; "
                "use backend='python' for an agent opponent"
            )
        env = NoQuarterSkirmishEnv(**env_kwargs)  # checks every keyword
        if any(env.shaping.values()):
            raise EnvArgumentError(
                "reward_shaping: the native batch has no shaping terms yet; use backend='python'"
            )
        from wargym.native import _core
        from wargym.native.no_quarter.codec import NativeCodec
        from wargym.native.no_quarter.encoding import NativeObservationEncoder
        from wargym.native.no_quarter.setup import new_skirmish_setup
        from wargym.native.no_quarter.tables import rules_tables
        from wargym.rules.no_quarter.battlefield.terrain import Battlefield
        from wargym.rules.no_quarter.forces.data import load_rules

        self.env = env
        """The reference env the batch's spaces, codec and options come from (never stepped)."""
        self.opponent = opponent
        self._core_module: Any = _core
        self._setup_fn = new_skirmish_setup
        self._tables_fn = rules_tables
        self._battlefield_cls = Battlefield
        self._rules = load_rules(env.battle_options.rules)
        self._base_tables: Any = None
        self._allocate(env)
        n = self.num_envs
        self._status = np.zeros(n, dtype=np.int8)
        self._started = np.zeros(n, dtype=np.bool_)
        self._np_random: list[np.random.Generator | None] = [None] * n
        self._next: list[tuple[Any, Any, Any, Any] | None] = [None] * n
        self._codec = NativeCodec(env.codec)
        self._encoder = NativeObservationEncoder(env.encoder)
        sample, _ = new_skirmish_setup(
            np.random.default_rng(0),
            _core.NumpyDice(dict(np.random.default_rng(0).bit_generator.state)),
            options=env.battle_options,
        )
        batch = _core.no_quarter.skirmish_batch
        self._batch: Any = batch
        self._core: Any = batch.SkirmishBatch(
            n, self._codec.core, sample, self._encoder._core, opponent, self.max_episode_steps
        )
        if opponent == "rules":
            from wargym.native.no_quarter.enemy import np_tables

            self._core.set_np_tables(np_tables())
        self._core.set_buffers(
            self.obs,
            self.masks,
            self.rewards,
            self.terminations,
            self.truncations,
            self.deciding_side,
            self.episode_steps,
            self.final_obs,
            self.final_masks,
            self._status,
            self._started,
        )
        self._ready = False
        self.reset(first_seeds)

    # -- the two calls -----------------------------------------------------------------------
    def reset(self, seeds: Any = None) -> None:
        """Start a new battle in every env (:meth:`SkirmishBatch.reset`)."""
        from gymnasium.utils import seeding

        per_env = check_seeds(seeds, self.num_envs)
        for i, seed in enumerate(per_env):
            if seed is not None:
                self._np_random[i] = seeding.np_random(seed)[0]
                self._next[i] = None
            elif self._np_random[i] is None:
                self._np_random[i] = seeding.np_random()[0]
            self._begin(i, self._next[i])
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self.episode_steps[:] = 0
        self.final_infos = [None] * self.num_envs
        self._ready = True

    def step(self, actions: Any) -> None:
        """Play ``actions[i]`` in env ``i`` for every env in one native call (GIL released).

        Raises as :meth:`SkirmishBatch.step`; nothing moves on bad input.
        """
        require_reset(self._ready, "step()")
        chosen = np.ascontiguousarray(self.check_actions(actions), dtype=np.int64)
        self._core.step(chosen)
        self._after_step()

    # -- helpers -----------------------------------------------------------------------------
    def _after_step(self) -> None:
        """The glue's part of a step after the native call: tables, next set-ups, final infos."""
        self._settle()
        started = np.flatnonzero(self._started)
        redraw = set(np.flatnonzero(self._status == self._batch.NEEDS_REDRAW).tolist())
        for i in started.tolist():
            self._next[i] = None  # the core began it
            if i in redraw:
                self._begin(i, None, tries=MAX_REDRAWS - 1)
            else:
                self._prepare_next(i)
        for i in np.flatnonzero(self.terminations | self.truncations).tolist():
            self.final_infos[i] = self._final_info(i)

    def _prepare(self, i: int) -> tuple[Any, Any, Any, Any]:
        """A set-up from env ``i``'s next streams: (battle, tables, dice, opponent state)."""
        rng = self._np_random[i]
        assert rng is not None
        setup_rng, dice_rng, opp_rng = rng.spawn(3)
        env = self.env
        dice = self._core_module.NumpyDice(dice_rng.bit_generator.state)
        battle, _ = self._setup_fn(
            setup_rng,
            dice,
            blue=env.factions[0],
            red=env.factions[1],
            mechs_per_side=env.mechs_per_side,
            stars=env.stars,
            options=env.battle_options,
        )
        return battle, self._tables(battle), dice, opp_rng.bit_generator.state

    def _tables(self, battle: Any) -> Any:
        """The rule tables of every battle: the core builds each battlefield's own from them.

        ``rules_tables`` carries the terrain numbers (``with_terrain``), so the core builds a
        battle's sight, cover, move and protection tables itself when the battle starts and
        when a building falls (skirmish_batch.hpp): made once, from the first battle's field.
        """
        if self._base_tables is None:
            field = self._battlefield_cls.from_dict(battle.to_dict()["battlefield"])
            self._base_tables = self._tables_fn(field, self._rules)
        return self._base_tables

    def _begin(
        self, i: int, first: tuple[Any, Any, Any, Any] | None, tries: int = MAX_REDRAWS
    ) -> None:
        """solo.py's reset of env ``i`` (``first``: its prepared set-up), then the next one."""
        for _ in range(tries):
            chosen = first if first is not None else self._prepare(i)
            first = None
            self._core.start(i, *chosen)
            self._settle()
            if self._status[i] != self._batch.NEEDS_REDRAW:
                break
        self._prepare_next(i)

    def _prepare_next(self, i: int) -> None:
        """Env ``i``'s next set-up, made now and handed to the core (the GIL-free auto-reset)."""
        ahead = self._prepare(i)
        self._next[i] = ahead
        self._core.prepare(i, *ahead)

    def _settle(self) -> None:
        """New tables for every env whose battlefield changed, until none waits for them."""
        while True:
            waiting = np.flatnonzero(self._status == self._batch.NEEDS_TABLES)
            if not waiting.size:
                return
            for i in waiting.tolist():
                self._core.set_tables(i, self._tables(self._core.battle(i)))
            self._core.resume(waiting.astype(np.int64))

    def _final_info(self, i: int) -> dict[str, Any] | None:
        found = self._core.final_info(i)
        if found is None:
            return None
        turn, decision, over, winner, reason = found
        info: dict[str, Any] = {
            "action_mask": self.final_masks[i].astype(np.int8),
            "turn": turn,
            "decision": decision,
            "illegal_action": False,
        }
        if over:
            info["outcome"] = {"winner": winner, "reason": reason}
        return info

    def _describe(self, i: int, index: int) -> str:
        from wargym.rules.no_quarter.battle.state import Battle

        return str(self.env.codec.describe(index, Battle.from_dict(self._core.battle(i).to_dict())))

    def battle(self, i: int) -> Any:
        """A clone of env ``i``'s native battle (``to_dict()`` gives the reference document)."""
        return self._core.battle(check_int("i", i, 0, self.num_envs - 1))

    def close(self) -> None:
        """Nothing to close (the reference env is never stepped)."""
        self.env.close()
