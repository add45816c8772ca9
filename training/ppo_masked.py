"""MaskablePPO on one wargym env (CleanRL order: Args, make_env, network, main).

Run from the repository root::

    python -m training.ppo_masked --config configs/training/nq_skirmish.yaml
    python -m training.ppo_masked --config configs/training/nq_skirmish.yaml --smoke
    python -m training.ppo_masked --config configs/training/nq_skirmish_native.yaml

or, installed, ``python -m wargym.agents.training_entry ppo_masked --config ...``.
Every ``Args`` field is also a flag (``--total-timesteps 50000``) and a preset key.
Writes ``<run_dir>/``: ``checkpoints/`` (every ``checkpoint_every`` steps), ``best_model.zip``
(best periodic evaluation), ``final.zip``, ``args.yaml``, ``metrics.json`` and TensorBoard
events under ``tb/``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml


@dataclass
class Args:
    env_id: str = "wargym/NoQuarter-Skirmish-v1"
    """Registered id of the environment to train on."""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of ``gymnasium.make``; hooks by entry-point name (``mirror_skirmish``)."""
    seed: int = 1
    """Seeds torch, the vector env (seed + i per copy) and minibatch shuffling."""
    total_timesteps: int = 2_000_000
    """Environment steps summed over all copies."""
    max_minutes: float = 0.0
    """Stop after this much wall time (0: no limit); the last state is still saved."""
    n_envs: int = 2
    """Env copies."""
    vec_env: Literal["subproc", "dummy", "batch"] = "subproc"
    """``subproc`` (one process per copy), ``dummy`` (all in this process) or ``batch`` (the
    skirmish only: one ``BatchVecEnv`` of ``n_envs`` battles stepped by one call,
    agents/sb3_vec.py)."""
    backend: Literal["python", "native"] = "python"
    """Engine of the envs the run trains and evaluates on (``backend=`` of the env and of the
    batch; docs/native.md): ``native`` needs the skirmish without a ``battle_factory``, hooks or
    reward shaping. Behaviour-cloning demonstrations are always played by the reference."""
    n_steps: int = 512
    """Rollout length per env copy."""
    batch_size: int = 256
    """Minibatch size."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam step size."""
    gamma: float = 0.995
    """Discount."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    policy: Literal["MultiInputPolicy", "ActionFeaturePolicy"] = "MultiInputPolicy"
    """sb3-contrib's policy, or ``ActionFeaturePolicy`` (agents/neural/af_policy.py: a shared
    per-action head over the ``action_features`` block; needs ``action_features: true``)."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden sizes of the actor and of the critic MLP."""
    activation: Literal["tanh", "relu"] = "tanh"
    """``tanh`` or ``relu``."""
    torch_threads: int = 1
    """``torch.set_num_threads``."""
    checkpoint_every: int = 50_000
    """Save a checkpoint every this many steps (summed over copies)."""
    eval_every: int = 100_000
    """Evaluate (and keep ``best_model.zip``) every this many steps; 0: never."""
    eval_episodes: int = 30
    """Episodes per periodic evaluation."""
    run_dir: str = "runs/ppo_masked"
    """Output folder."""
    resume: str = ""
    """Checkpoint zip to continue from (its step count carries on)."""
    tensorboard: bool = True
    """Write TensorBoard events (needs the ``[tensorboard]`` extra; skipped if missing)."""
    progress_bar: bool = False
    """tqdm + rich progress bar."""
    bc_episodes: int = 0
    """Behaviour-cloning bootstrap: teacher games before PPO (0: none; ignored on resume)."""
    bc_teacher: str = "heuristic"
    """Teacher agent spec (heuristic, rules, mcts:<budget>)."""
    bc_epochs: int = 8
    """Passes over the demonstrations."""
    dagger_rounds: int = 0
    """DAgger rounds after cloning: the clone plays, the teacher labels its states, refit."""
    dagger_episodes: int = 200
    """Games per DAgger round."""
    dagger_epochs: int = 6
    """Passes over the aggregated demonstrations after each round."""
    smoke: bool = False
    """CI mode: 2,048 steps, tiny network, no evaluation; one dummy env (a batch of 8 battles
    when ``vec_env`` is ``batch``)."""
    verbose: int = 1
    """SB3 verbosity."""

    def __post_init__(self) -> None:
        """Refuse values no run can use (the message names the field)."""
        for name in ("dagger_rounds", "dagger_episodes", "dagger_epochs"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("max_minutes", "learning_rate", "checkpoint_every", "eval_every"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not 0.0 <= self.gamma <= 1.0 or not 0.0 <= self.gae_lambda <= 1.0:
            raise ValueError(
                f"gamma and gae_lambda must be in [0, 1]: {self.gamma}, {self.gae_lambda}"
            )
        if self.vec_env == "batch" and self.env_id != BATCH_ENV_ID:
            raise ValueError(f"vec_env 'batch' steps {BATCH_ENV_ID} only, got {self.env_id!r}")
        if "backend" in self.env_kwargs:
            raise ValueError("env_kwargs: give the engine as the top-level 'backend' field")
        if not re.fullmatch(TEACHERS, self.bc_teacher):
            raise ValueError(f"bc_teacher must match {TEACHERS!r}, got {self.bc_teacher!r}")


SELECTION_SEED = 50_000
"""Seed of the periodic evaluation that picks ``best_model.zip``: disjoint from the seeds of the
shipped policy's 200-game evaluation (10,000-10,199), so the reported win rate is unbiased."""
BATCH_ENV_ID = "wargym/NoQuarter-Skirmish-v1"
"""The env ``vec_env: batch`` steps (``SkirmishBatch`` holds skirmishes)."""
TEACHERS = r"heuristic|rules|scripted|random|mcts(:\d+)?"
"""Teacher specs the behaviour-cloning bootstrap accepts."""


def env_kwargs_of(args: Args) -> dict[str, Any]:
    """The env's keyword arguments: ``env_kwargs`` (hooks resolved), plus ``backend`` (always
    for the skirmish, whose own default is ``"auto"``; for the others only if native)."""
    from wargym.agents.envspecs import resolve_callables

    kwargs = dict(resolve_callables(args.env_kwargs))
    if args.backend != "python" or args.env_id == BATCH_ENV_ID:  # the skirmish's default: auto
        kwargs["backend"] = args.backend
    return kwargs


def make_env(args: Args, rank: int):  # noqa: ANN201 - returns an SB3 env thunk
    """A thunk building copy ``rank``: the registered env under a ``Monitor``."""

    def thunk():  # noqa: ANN202
        import gymnasium
        from stable_baselines3.common.monitor import Monitor

        import wargym.envs  # noqa: F401 - registers the ids

        env = gymnasium.make(args.env_id, **env_kwargs_of(args))
        env.reset(seed=args.seed + rank)
        return Monitor(env)

    return thunk


def make_vec_env(args: Args) -> Any:
    """The training vec env: ``SubprocVecEnv`` / ``DummyVecEnv`` of ``make_env`` copies, or one
    ``BatchVecEnv`` of ``n_envs`` battles under ``VecMonitor`` (``vec_env: batch``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if args.vec_env == "batch":
        from wargym.agents.sb3_vec import BatchVecEnv

        kwargs = env_kwargs_of(args)
        backend = kwargs.pop("backend", "python")
        return VecMonitor(BatchVecEnv(args.n_envs, args.seed, backend=backend, **kwargs))
    thunks = [make_env(args, i) for i in range(args.n_envs)]
    return SubprocVecEnv(thunks) if args.vec_env == "subproc" else DummyVecEnv(thunks)


def main(args: Args) -> dict[str, float]:
    """Train; returns the final metrics (steps, seconds, steps per second, last eval)."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from wargym.agents.neural import policy_kwargs, set_threads

    if args.smoke:  # a batch stays a batch (of 8 battles): CI runs the path the preset trains on
        batch = args.vec_env == "batch"
        args = dataclasses.replace(
            args, total_timesteps=2048, n_envs=8 if batch else 1,
            vec_env="batch" if batch else "dummy", n_steps=64 if batch else 256, batch_size=64,
            n_epochs=1, net_arch=[32], eval_every=0, checkpoint_every=1024,
            tensorboard=False, progress_bar=False, bc_episodes=min(args.bc_episodes, 2),
            bc_epochs=1, dagger_rounds=min(args.dagger_rounds, 1), dagger_episodes=1,
            dagger_epochs=1,
        )  # fmt: skip
    set_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    run = Path(args.run_dir)
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run / "args.yaml").write_text(yaml.safe_dump(dataclasses.asdict(args)), encoding="utf-8")

    # -- environments ---------------------------------------------------------------------
    venv = make_vec_env(args)
    venv.seed(args.seed)

    # -- model ----------------------------------------------------------------------------
    tb_dir: str | None = None
    if args.tensorboard:
        try:
            import tensorboard  # noqa: F401

            tb_dir = str(run / "tb")
        except ImportError:
            print("tensorboard is not installed: no TensorBoard events")
    if args.resume:
        model = MaskablePPO.load(args.resume, env=venv, device="cpu", tensorboard_log=tb_dir)
    else:
        policy: Any = args.policy
        if policy == "ActionFeaturePolicy":
            from wargym.agents.neural.af_policy import ActionFeaturePolicy

            policy = ActionFeaturePolicy
        kwargs = policy_kwargs(args.net_arch, args.activation)
        if policy is not args.policy:  # the feature block's rows (advice rows included)
            import gymnasium

            probe = gymnasium.make(args.env_id, **env_kwargs_of(args))
            kwargs["af_rows"] = int(probe.unwrapped.encoder.af_rows)  # type: ignore[attr-defined]
            probe.close()
        model = MaskablePPO(
            policy,
            venv,
            learning_rate=args.learning_rate,
            n_steps=args.n_steps,
            batch_size=args.batch_size,
            n_epochs=args.n_epochs,
            gamma=args.gamma,
            gae_lambda=args.gae_lambda,
            clip_range=args.clip_range,
            ent_coef=args.ent_coef,
            vf_coef=args.vf_coef,
            policy_kwargs=kwargs,
            tensorboard_log=tb_dir,
            seed=args.seed,
            device="cpu",
            verbose=args.verbose,
        )

    # -- optional behaviour-cloning bootstrap (agents/neural/bc.py) -----------------------
    bc_stats: dict[str, float] = {}
    if args.bc_episodes > 0 and not args.resume:
        import numpy as np

        from wargym.agents.envspecs import resolve_callables
        from wargym.agents.neural.bc import behaviour_clone, collect_demonstrations

        t_bc = time.time()
        data = collect_demonstrations(
            args.env_id, resolve_callables(args.env_kwargs), args.bc_teacher,
            args.bc_episodes, args.seed, workers=args.n_envs, gamma=args.gamma,
        )  # fmt: skip
        bc_stats = behaviour_clone(model, data, epochs=args.bc_epochs, seed=args.seed)
        bc_stats.update(teacher_win_rate=data["win_rate"])
        model.save(run / "bc.zip")
        for r in range(1, args.dagger_rounds + 1):  # the clone drives, the teacher labels
            more = collect_demonstrations(
                args.env_id, resolve_callables(args.env_kwargs), args.bc_teacher,
                args.dagger_episodes, args.seed + 1000 * r, workers=args.n_envs,
                gamma=args.gamma, student=str(run / "bc.zip"),
            )  # fmt: skip
            bc_stats[f"dagger_{r}_student_win_rate"] = more["win_rate"]
            data = {k: np.concatenate([data[k], more[k]]) for k in ("obs", "mask", "action", "ret")}
            bc_stats.update(behaviour_clone(model, data, epochs=args.dagger_epochs, seed=r))
            model.save(run / "bc.zip")
        bc_stats.update(bc_seconds=time.time() - t_bc)
        print(json.dumps(bc_stats))

    # -- callbacks: checkpoints, evaluation, wall-time limit -------------------------------
    class WallClock(BaseCallback):
        """Stops learning after ``max_minutes``."""

        def __init__(self, minutes: float) -> None:
            super().__init__()
            self.deadline = time.time() + minutes * 60 if minutes > 0 else float("inf")

        def _on_step(self) -> bool:
            return time.time() < self.deadline

    every = max(1, args.checkpoint_every // args.n_envs)
    callbacks: list[BaseCallback] = [
        CheckpointCallback(every, str(run / "checkpoints"), name_prefix="ppo"),
        WallClock(args.max_minutes),
    ]
    eval_cb = None
    if args.eval_every > 0:
        eval_env = DummyVecEnv([make_env(dataclasses.replace(args, seed=SELECTION_SEED), 0)])
        eval_cb = MaskableEvalCallback(
            eval_env,
            n_eval_episodes=args.eval_episodes,
            eval_freq=max(1, args.eval_every // args.n_envs),
            best_model_save_path=str(run),
            log_path=str(run / "eval"),
            deterministic=True,
        )
        callbacks.append(eval_cb)

    # -- train ----------------------------------------------------------------------------
    start_steps = model.num_timesteps
    t0 = time.time()
    model.learn(
        total_timesteps=args.total_timesteps,
        callback=CallbackList(callbacks),
        progress_bar=args.progress_bar,
        reset_num_timesteps=not args.resume,
        tb_log_name="ppo",
    )
    seconds = time.time() - t0
    model.save(run / "final.zip")
    venv.close()
    steps = model.num_timesteps - start_steps
    metrics = {
        "steps": float(model.num_timesteps),
        "seconds": seconds,
        "sps": steps / max(seconds, 1e-9),
        "best_mean_reward": float(eval_cb.best_mean_reward) if eval_cb else float("nan"),
        **bc_stats,
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    print(json.dumps(metrics))
    return metrics


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
