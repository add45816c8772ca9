"""The runners of :mod:`wargym.envs.fuzzing`: one per API (Gymnasium, AEC, Parallel).

Each drives one env instance for a number of steps with actions from
:func:`~wargym.envs.fuzzing.draw_action` and checks the invariants listed in
:mod:`wargym.envs.fuzzing` after every step and reset.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from wargym.rules.errors import IllegalActionError

from .fuzzing_base import (
    CLEAR_ERRORS,
    STATE_ATTRIBUTES,
    Chooser,
    FuzzSettings,
    FuzzStats,
    Target,
    draw_action,
)


# -- checks -----------------------------------------------------------------------------------
def fingerprint(env: Any) -> bytes:
    """Engine state (its ``to_dict()`` where it has one) and dice of ``env``, pickled.

    Equal bytes before and after a step: nothing changed.
    """
    base = getattr(env, "unwrapped", env)
    parts = []
    for name in STATE_ATTRIBUTES:
        part = getattr(base, name, None)
        to_dict = getattr(part, "to_dict", None)  # the rules' own record: no caches
        parts.append(json.dumps(to_dict(), sort_keys=True, default=repr) if to_dict else part)
    return pickle.dumps(parts, protocol=5)


def same(a: Any, b: Any) -> bool:
    """Deep equality of observations (arrays, dicts of arrays)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def _is_float(value: Any) -> bool:
    return isinstance(value, (float, np.floating)) and math.isfinite(value)


def is_bool(value: Any) -> bool:
    """A Python or numpy bool."""
    return isinstance(value, (bool, np.bool_))


def check_obs(
    space: Any, obs: Any, info: Any, live: bool, stats: FuzzStats, ctx: dict[str, Any]
) -> None:
    """Observation in ``space``; int8 mask, equal to ``info``'s; a legal action when ``live``."""
    if not isinstance(obs, dict) or "action_mask" not in obs:
        stats.violate("obs_without_action_mask", ctx, repr(type(obs)))
        return
    if not space.contains(obs):
        stats.violate("obs_not_in_space", ctx, _space_detail(space, obs))
    mask = obs["action_mask"]
    n = space["action_mask"].shape[0]
    if not isinstance(mask, np.ndarray) or mask.dtype != np.int8 or mask.shape != (n,):
        stats.violate("mask_dtype_or_shape", ctx, f"{getattr(mask, 'dtype', type(mask))}")
        return
    if live and not mask.any():
        stats.violate("no_legal_action", ctx)
    if info is not None:
        check_info(info, stats, ctx)
        if live and not np.array_equal(info.get("action_mask"), mask):
            stats.violate("info_mask_differs", ctx)


def check_info(info: Any, stats: FuzzStats, ctx: dict[str, Any]) -> None:
    """``info`` a dict whose entries but ``action_mask`` are JSON data."""
    if not isinstance(info, dict):
        stats.violate("info_not_dict", ctx, repr(type(info)))
        return
    try:
        json.dumps({k: v for k, v in info.items() if k != "action_mask"}, allow_nan=False)
    except (TypeError, ValueError) as exc:
        stats.violate("info_not_json", ctx, str(exc))


def _space_detail(space: Any, obs: Any) -> str:
    """Which parts of ``obs`` fall outside ``space``, with their dtype, shape and range."""
    parts = []
    for key, sub in getattr(space, "spaces", {}).items():
        value = obs.get(key) if isinstance(obs, dict) else None
        if value is None or sub.contains(value):
            continue
        arr = np.asarray(value) if not isinstance(value, dict) else np.zeros(0)
        bounds = (
            f" min={arr.min()} max={arr.max()}" if arr.size and arr.dtype.kind in "fiub" else ""
        )
        parts.append(f"{key} dtype={arr.dtype} shape={arr.shape}{bounds}")
    return "; ".join(parts) or repr(type(obs))


def check_reward(reward: Any, stats: FuzzStats, ctx: dict[str, Any], name: str = "reward") -> None:
    """A finite float."""
    if not _is_float(reward):
        stats.violate(f"{name}_not_finite_float", ctx, repr(reward))


ILLEGAL_KINDS = ("masked", "out_of_range", "none", "missing")
"""Kinds of action that follow the env's illegal-action policy ("missing": no key)."""


class DroppedError(Exception):
    """The env under test raised something unexpected; build a new one."""


@dataclasses.dataclass
class Run:
    """One env instance being fuzzed."""

    target: Target
    env: Any
    config: dict[str, Any]
    chooser: Chooser
    settings: FuzzSettings
    stats: FuzzStats
    trail: list[Any] = dataclasses.field(default_factory=list)
    seed: int | None = None

    @property
    def policy(self) -> str:
        """The env's illegal-action policy (``noop`` when it has none)."""
        return str(getattr(getattr(self.env, "unwrapped", self.env), "illegal_action", "noop"))

    @property
    def penalty(self) -> float | None:
        """The env's illegal-action penalty, if it has one."""
        return getattr(getattr(self.env, "unwrapped", self.env), "illegal_penalty", None)

    def ctx(self) -> dict[str, Any]:
        """What a reproducer needs: target, configuration, reset seed, actions since."""
        return {"target": self.target.name, "config": self.config, "seed": self.seed,
                "trail": self.trail}  # fmt: skip

    def call(
        self, fn: Callable[..., Any], *args: Any, allowed: tuple[type[BaseException], ...] = ()
    ) -> Any:
        """``fn(*args)``; an exception outside ``allowed`` is recorded and drops the env."""
        try:
            return fn(*args)
        except allowed:
            raise
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            self.stats.error(exc, self.ctx())
            raise DroppedError from exc

    def maybe_probe_snapshot(self) -> None:
        """With ``snapshot_chance``, load a mutated snapshot and check the invariant."""
        if not self.chooser.chance(self.settings.snapshot_chance):
            return
        from .fuzzing_snapshots import probe

        base = getattr(self.env, "unwrapped", self.env)
        self.stats.outcomes["snapshot probes"] += 1
        self.call(
            probe,
            self.target.kind,
            base,
            self.chooser.pick,
            lambda name, detail: self.stats.violate(name, self.ctx(), detail),
            lambda text: self.stats.outcomes.update([text]),
        )

    def new_seed(self) -> int:
        """A reset seed drawn from the chooser."""
        return self.chooser.pick(2**31 - 1)

    def expected(self, kinds: Sequence[str]) -> tuple[type[BaseException], ...]:
        """Exceptions ``step`` may raise for actions of ``kinds`` under the policy."""
        allowed: tuple[type[BaseException], ...] = ()
        if any(k.startswith("wrong_type") or k == "none" for k in kinds):
            allowed = CLEAR_ERRORS
        elif self.policy == "raise" and any(k in ILLEGAL_KINDS for k in kinds):
            allowed = (IllegalActionError,)
        return allowed

    def refused(self, exc: BaseException, kinds: Sequence[str], before: bytes) -> bool:
        """An allowed exception: nothing may have changed. True if something did."""
        for kind in kinds:
            if kind != "legal":
                words = re.sub(r"-?\d+|None", "N", " ".join(str(exc).split()[:4]))
                self.stats.outcomes[f"{kind}: raised {type(exc).__name__} ({words} ...)"] += 1
        if fingerprint(self.env) != before:
            self.stats.violate("refused_action_changed_state", self.ctx(), repr(exc))
            return True
        return False

    def illegal_done(
        self, flagged: bool, reward: Any, done: bool, changed: bool, kind: str
    ) -> None:
        """Checks of an illegal action that did not raise."""
        ctx, stats = self.ctx(), self.stats
        if kind.startswith("wrong_type") and not flagged:
            stats.outcomes[f"{kind}: played"] += 1
            if kind not in ("wrong_type:array_1",):  # base.action_index takes one-value arrays
                stats.violate(f"wrong_type_played:{kind.split(':')[1]}", ctx)
            return
        stats.outcomes[f"{kind}: {'flagged' if flagged else 'not flagged'}"] += 1
        if not flagged:
            stats.violate("illegal_not_flagged", ctx)
        if self.policy == "raise":
            stats.violate("illegal_not_raised", ctx)
        elif self.policy == "terminate":
            if not done:
                stats.violate("illegal_not_terminated", ctx)
        else:
            if changed:
                stats.violate("illegal_changed_state", ctx)
            if done:
                stats.violate("illegal_ended_episode", ctx)
            if self.penalty is not None and reward != self.penalty:
                stats.violate("illegal_wrong_reward", ctx, f"{reward} != {self.penalty}")


def _gym_reset(run: Run, check_again: bool) -> tuple[Any, Any]:
    run.seed, run.trail = run.new_seed(), []
    obs, info = run.call(lambda: run.env.reset(seed=run.seed))
    run.stats.resets += 1
    _gym_check_obs(run, obs, info, True)
    if check_again and run.chooser.chance(run.settings.determinism_chance):
        again, _ = run.call(lambda: run.env.reset(seed=run.seed))
        if not same(obs, again):
            run.stats.violate("reset_not_reproducible", run.ctx())
        obs = again
    return obs, info


def _gym_check_obs(run: Run, obs: Any, info: Any, live: bool) -> None:
    check_obs(run.env.observation_space, obs, info, live, run.stats, run.ctx())
    masks = getattr(run.env.unwrapped, "action_masks", None)
    if live and masks is not None:
        bools = run.call(masks)
        if bools.dtype != np.bool_ or not np.array_equal(bools, obs["action_mask"].astype(bool)):
            run.stats.violate("action_masks_differs", run.ctx())


def _fuzz_gym(run: Run, steps: int) -> None:
    stats, env = run.stats, run.env
    obs, _ = _gym_reset(run, True)
    for _ in range(steps):
        if run.chooser.chance(run.settings.reset_chance):
            obs, _ = _gym_reset(run, False)
        run.maybe_probe_snapshot()
        kind, action = draw_action(run.chooser, obs["action_mask"], run.settings)
        stats.actions[kind.split(":")[0]] += 1
        before = fingerprint(env) if kind != "legal" else b""
        run.trail.append(action)
        try:
            new, reward, term, trunc, info = run.call(env.step, action,
                                                      allowed=run.expected([kind]))  # fmt: skip
        except CLEAR_ERRORS as exc:
            stats.steps += 1
            if run.refused(exc, [kind], before):
                obs, _ = _gym_reset(run, False)
            continue
        stats.steps += 1
        ctx = run.ctx()
        check_reward(reward, stats, ctx)
        if not (is_bool(term) and is_bool(trunc)):
            stats.violate("done_not_bool", ctx, f"{term!r} {trunc!r}")
        _gym_check_obs(run, new, info, not (term or trunc))
        flagged = isinstance(info, dict) and info.get("illegal_action") is True
        if kind == "legal":
            if flagged:
                stats.violate("legal_flagged_illegal", ctx)
        else:
            changed = fingerprint(env) != before or not same(obs["observation"], new["observation"])
            run.illegal_done(flagged, reward, bool(term), changed, kind)
        obs = new
        if term or trunc:
            stats.episodes += 1
            obs, _ = _gym_reset(run, True)


def _aec_observe_all(run: Run) -> dict[str, Any]:
    env = run.env
    return {a: run.call(env.observe, a) for a in env.agents}


def _fuzz_aec(run: Run, steps: int) -> None:
    env, stats = run.env, run.stats
    dead = 0
    reset = True
    for _ in range(steps):
        if reset or not env.agents or run.chooser.chance(run.settings.reset_chance):
            run.seed, run.trail, dead = run.new_seed(), [], 0
            run.call(lambda: env.reset(seed=run.seed))
            stats.resets += 1
            reset = False
            if not env.agents:
                stats.violate("no_agents_after_reset", run.ctx())
                reset = True
                continue
        ctx, agent = run.ctx(), env.agent_selection
        if agent not in env.agents:
            stats.violate("selection_not_in_agents", ctx, f"{agent} not in {env.agents}")
            reset = True
            continue
        run.maybe_probe_snapshot()
        obs, reward, term, trunc, info = run.call(env.last)
        live = not (term or trunc)
        check_obs(env.observation_space(agent), obs, info, live, stats, ctx)
        check_reward(reward, stats, ctx, "cumulative_reward")
        if stats.steps % 25 == 0:
            state = np.asarray(run.call(env.state))
            if not np.all(np.isfinite(state)):
                stats.violate("state_not_finite", ctx)
        if not live:
            dead += 1
            if dead > 2 * len(env.possible_agents):
                stats.violate("dead_step_loop", ctx)
                reset = True
                continue
            run.trail.append(None)
            run.call(env.step, None)
            stats.steps += 1
            if not env.agents:
                stats.episodes += 1
            continue
        kind, action = draw_action(run.chooser, obs["action_mask"], run.settings)
        stats.actions[kind.split(":")[0]] += 1
        before = (fingerprint(env), _aec_observe_all(run)) if kind != "legal" else None
        run.trail.append(action)
        try:
            run.call(env.step, action, allowed=run.expected([kind]))
        except CLEAR_ERRORS as exc:
            stats.steps += 1
            run.refused(exc, [kind], before[0] if before else b"")
            continue
        stats.steps += 1
        _aec_check_step(run, agent, kind, before)


def _aec_check_step(run: Run, agent: str, kind: str, before: Any) -> None:
    env, stats, ctx = run.env, run.stats, run.ctx()
    for name, mapping in (("rewards", env.rewards), ("cumulative", env._cumulative_rewards)):
        for value in mapping.values():
            check_reward(value, stats, ctx, name)
    for value in (*env.terminations.values(), *env.truncations.values()):
        if not is_bool(value):
            stats.violate("done_not_bool", ctx, repr(value))
    for info in env.infos.values():
        check_info(info, stats, ctx)
    flagged = env.infos.get(agent, {}).get("illegal_action") is True
    if kind == "legal":
        if flagged:
            stats.violate("legal_flagged_illegal", ctx)
        return
    done = env.terminations.get(agent, True) or env.truncations.get(agent, True)
    changed = fingerprint(env) != before[0]
    if not changed and env.agents:
        changed = not same(before[1], _aec_observe_all(run))
    run.illegal_done(flagged, env.rewards.get(agent), done, changed, kind)


def _fuzz_parallel(run: Run, steps: int) -> None:
    env, stats = run.env, run.stats
    obs: dict[str, Any] = {}
    for _ in range(steps):
        if not env.agents or not obs or run.chooser.chance(run.settings.reset_chance):
            run.seed, run.trail = run.new_seed(), []
            obs, infos = run.call(lambda: env.reset(seed=run.seed))
            stats.resets += 1
            _parallel_check_obs(run, obs, infos)
        run.maybe_probe_snapshot()
        actions: dict[str, Any] = {}
        kinds: dict[str, str] = {}
        for agent in env.agents:
            mask = obs[agent]["action_mask"]
            kind, action = draw_action(run.chooser, mask, run.settings)
            if not mask.any():
                kind = "idle"
            if run.chooser.chance(run.settings.drop_key_chance):
                kind, action = ("idle" if kind == "idle" else "missing"), "<missing>"
            else:
                actions[agent] = action
            kinds[agent] = kind
            stats.actions[kind.split(":")[0]] += 1
        acting = {a: k for a, k in kinds.items() if k != "idle"}
        if not acting:
            stats.violate("no_agent_can_act", run.ctx())
            obs = {}
            continue
        before = fingerprint(env)
        run.trail.append(actions)
        try:
            result = run.call(env.step, actions, allowed=run.expected(list(acting.values())))
        except CLEAR_ERRORS as exc:
            stats.steps += 1
            if run.refused(exc, list(acting.values()), before):
                obs = {}  # the env moved on: its observations are unknown, reset
            continue
        stats.steps += 1
        obs = _parallel_check_step(run, result, kinds, before)


def _parallel_check_obs(run: Run, obs: Any, infos: Any) -> None:
    env, stats, ctx = run.env, run.stats, run.ctx()
    if set(obs) < set(env.agents) or set(infos) < set(env.agents):
        stats.violate("parallel_missing_agent_keys", ctx, f"{sorted(obs)} {sorted(infos)}")
        return
    for agent in env.agents:
        check_obs(env.observation_space(agent), obs[agent], infos[agent], False, stats, ctx)
    if env.agents and not any(obs[a]["action_mask"].any() for a in env.agents):
        stats.violate("no_legal_action", ctx)


def _parallel_check_step(
    run: Run, result: Any, kinds: dict[str, str], before: bytes
) -> dict[str, Any]:
    env, stats, ctx = run.env, run.stats, run.ctx()
    obs, rewards, terms, truncs, infos = result
    for value in rewards.values():
        check_reward(value, stats, ctx)
    for value in (*terms.values(), *truncs.values()):
        if not is_bool(value):
            stats.violate("done_not_bool", ctx, repr(value))
    over = any(terms.values()) or any(truncs.values())
    if over and env.agents:
        stats.violate("agents_left_after_end", ctx, repr(env.agents))
    if not over:
        _parallel_check_obs(run, obs, infos)
    acting = [a for a, k in kinds.items() if k != "idle"]
    nothing_played = all(kinds[a] in ILLEGAL_KINDS for a in acting)
    changed = fingerprint(env) != before
    for agent, kind in kinds.items():
        flagged = infos.get(agent, {}).get("illegal_action") is True
        if kind in ("legal", "idle"):
            if flagged:
                stats.violate(f"{kind}_flagged_illegal", ctx)
            continue
        if run.policy == "terminate":  # the first illegal agent ends the episode
            flagged = flagged or any(infos.get(a, {}).get("illegal_action") is True for a in acting)
            done = terms.get(agent, False) or truncs.get(agent, False)
        else:
            done = nothing_played and (terms.get(agent, False) or truncs.get(agent, False))
        reward = rewards.get(agent) if nothing_played else run.penalty
        run.illegal_done(flagged, reward, done, changed and nothing_played, kind)
    if over:
        stats.episodes += 1
        return {}
    return dict(obs)


RUNNERS: dict[str, Callable[[Run, int], None]] = {
    "gym": _fuzz_gym,
    "aec": _fuzz_aec,
    "parallel": _fuzz_parallel,
}
