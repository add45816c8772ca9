"""Self-play MaskablePPO on the No Quarter skirmish: a pool of frozen snapshots + scripted.

Run from the repository root::

    python -m training.selfplay_ppo --config configs/training/nq_selfplay.yaml
    python -m training.selfplay_ppo --config configs/training/nq_selfplay.yaml --smoke

Blue is the learner. Red is drawn at every reset from ``wargym.agents.selfplay.OpponentPool``:
the scripted agents (``rules``: the book's NP procedure, ``heuristic``) with probability
``scripted_prob``, else one of the ``pool_keep`` newest snapshots of the learner, written to
``<run_dir>/pool`` every ``snapshot_every`` steps. The opponent changes only at a reset, so
the battle always restarts when it does. ``resume`` continues from a checkpoint (the pool
folder is kept). Other outputs as in ``training/ppo_masked.py``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


@dataclass
class Args:
    env_id: str = "wargym/NoQuarter-Skirmish-v1"
    """Registered id of the No Quarter solo env."""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of ``gymnasium.make``; hooks by entry-point name (``mirror_skirmish``)."""
    seed: int = 1
    """Seeds torch, the env copies (seed + i) and the opponent draws."""
    total_timesteps: int = 1_000_000
    """Environment steps summed over all copies."""
    max_minutes: float = 0.0
    """Stop after this much wall time (0: no limit)."""
    n_envs: int = 2
    """Env copies."""
    vec_env: str = "subproc"
    """``subproc`` or ``dummy``."""
    n_steps: int = 512
    """Rollout length per copy."""
    batch_size: int = 256
    """Minibatch size."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam step size."""
    gamma: float = 0.995
    """Discount."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden sizes of actor and critic."""
    torch_threads: int = 1
    """``torch.set_num_threads``."""
    scripted: list[str] = field(default_factory=lambda: ["rules", "heuristic"])
    """Scripted opponents in the pool."""
    scripted_prob: float = 0.5
    """Chance of a scripted opponent once snapshots exist."""
    pool_keep: int = 5
    """Newest snapshots the pool draws from."""
    snapshot_every: int = 50_000
    """Freeze the learner into the pool every this many steps."""
    checkpoint_every: int = 50_000
    """Checkpoint every this many steps."""
    run_dir: str = "runs/selfplay"
    """Output folder."""
    resume: str = ""
    """Checkpoint zip to continue from."""
    tensorboard: bool = True
    """TensorBoard events (skipped if tensorboard is missing)."""
    progress_bar: bool = False
    """tqdm + rich progress bar."""
    smoke: bool = False
    """CI mode: 2,048 steps, one dummy env, tiny network, a snapshot at 1,024 steps."""


def make_env(args: Args, rank: int):  # noqa: ANN201
    """A thunk: the solo env under ``PoolOpponentEnv`` and ``Monitor``."""

    def thunk():  # noqa: ANN202
        import gymnasium
        from stable_baselines3.common.monitor import Monitor

        import wargym.envs  # noqa: F401
        from wargym.agents.envspecs import resolve_callables
        from wargym.agents.selfplay import OpponentPool, PoolOpponentEnv

        env = gymnasium.make(args.env_id, **resolve_callables(args.env_kwargs))
        pool = OpponentPool(Path(args.run_dir) / "pool", tuple(args.scripted),
                            args.scripted_prob, args.pool_keep)  # fmt: skip
        env = PoolOpponentEnv(env, pool)
        env.reset(seed=args.seed + rank)
        return Monitor(env, info_keywords=("opponent",))

    return thunk


def main(args: Args) -> dict[str, float]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from wargym.agents.neural import policy_kwargs, set_threads

    if args.smoke:
        args = dataclasses.replace(
            args, total_timesteps=2048, n_envs=1, vec_env="dummy", n_steps=256, batch_size=64,
            n_epochs=1, net_arch=[32], snapshot_every=1024, checkpoint_every=1024,
            tensorboard=False, progress_bar=False,
        )  # fmt: skip
    set_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    run = Path(args.run_dir)
    (run / "pool").mkdir(parents=True, exist_ok=True)
    (run / "args.yaml").write_text(yaml.safe_dump(dataclasses.asdict(args)), encoding="utf-8")

    thunks = [make_env(args, i) for i in range(args.n_envs)]
    venv = SubprocVecEnv(thunks) if args.vec_env == "subproc" else DummyVecEnv(thunks)

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
        model = MaskablePPO(
            "MultiInputPolicy", venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
            batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
            ent_coef=args.ent_coef, policy_kwargs=policy_kwargs(args.net_arch),
            tensorboard_log=tb_dir, seed=args.seed, device="cpu", verbose=1,
        )  # fmt: skip

    class Snapshots(BaseCallback):
        """Freezes the learner into the pool; stops at ``max_minutes``."""

        def __init__(self) -> None:
            super().__init__()
            self.next = model.num_timesteps + args.snapshot_every
            self.deadline = time.time() + args.max_minutes * 60 if args.max_minutes else None

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.model.save(run / "pool" / f"snap_{self.num_timesteps}.zip")
                self.next += args.snapshot_every
            return self.deadline is None or time.time() < self.deadline

    every = max(1, args.checkpoint_every // args.n_envs)
    callbacks = [CheckpointCallback(every, str(run / "checkpoints"), name_prefix="selfplay"),
                 Snapshots()]  # fmt: skip
    start, t0 = model.num_timesteps, time.time()
    model.learn(args.total_timesteps, callback=CallbackList(callbacks),
                progress_bar=args.progress_bar, reset_num_timesteps=not args.resume)  # fmt: skip
    seconds = time.time() - t0
    model.save(run / "final.zip")
    venv.close()
    metrics = {"steps": float(model.num_timesteps), "seconds": seconds,
               "sps": (model.num_timesteps - start) / max(seconds, 1e-9)}  # fmt: skip
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    print(json.dumps(metrics))
    return metrics


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
