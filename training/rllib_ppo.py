"""RLlib PPO on a wargym PettingZoo env (one shared, action-masked policy for both sides).

Needs its own virtual environment, because ``ray[rllib]`` 2.60 pins ``gymnasium==1.2.2``::

    python3 -m venv .venv-rllib
    .venv-rllib/bin/pip install -c constraints.txt -e ".[rllib]"
    RAY_AUTH_MODE=disabled .venv-rllib/bin/python -m training.rllib_ppo --smoke

``--smoke`` runs one PPO iteration with ``num_env_runners=0`` (sampling in the driver). On a
Ray cluster, start the head (``ray start --head``) and workers (``ray start --address=...``),
then run with ``--address auto --num-env-runners 16`` (one env runner per CPU you can spare);
see training/README.md. Env names: the keys of ``wargym.envs.PETTINGZOO_ENVS`` plus
``no_quarter_v1``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Args:
    env: str = "pentagon_war_v0"
    """PettingZoo env name."""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of the env's ``parallel_env``."""
    iterations: int = 100
    """PPO iterations (``algo.train()`` calls)."""
    num_env_runners: int = 1
    """Sampling workers (0: sample in the driver)."""
    train_batch_size: int = 4000
    """Env steps per iteration."""
    minibatch_size: int = 256
    """SGD minibatch."""
    num_epochs: int = 4
    """Passes per iteration."""
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """MLP hidden sizes."""
    address: str = ""
    """Ray cluster address (``auto``); empty: a local Ray with ``num_cpus``."""
    num_cpus: int = 2
    """CPUs of the local Ray."""
    checkpoint_dir: str = "runs/rllib"
    """Where ``algo.save`` writes."""
    smoke: bool = False
    """One iteration of 256 steps, no env runners, a tiny network."""
    seed: int = 1
    """Seed of the config."""


def make_env(args: Args):  # noqa: ANN201
    """RLlib env creator: the Parallel env with RLlib's observation key names."""
    import importlib

    import gymnasium
    import pettingzoo
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv

    from wargym.agents.envspecs import resolve_callables
    from wargym.envs import PETTINGZOO_ENVS

    modules = {**PETTINGZOO_ENVS, "no_quarter_v1": "wargym.envs.no_quarter.aec"}

    class RLlibKeys(pettingzoo.utils.BaseParallelWrapper):
        """Renames ``observation`` to ``observations`` (RLlib's action-masking module)."""

        def observation_space(self, agent):  # noqa: ANN001, ANN202
            s = self.env.observation_space(agent)
            return gymnasium.spaces.Dict(
                {"observations": s["observation"], "action_mask": s["action_mask"]}
            )

        def _fix(self, obs):  # noqa: ANN001, ANN202
            return {a: {"observations": o["observation"], "action_mask": o["action_mask"]}
                    for a, o in obs.items()}  # fmt: skip

        def reset(self, seed=None, options=None):  # noqa: ANN001, ANN202
            obs, info = self.env.reset(seed=seed, options=options)
            return self._fix(obs), info

        def step(self, actions):  # noqa: ANN001, ANN202
            obs, r, te, tr, info = self.env.step(actions)
            return self._fix(obs), r, te, tr, info

    def creator(config: dict[str, Any]):  # noqa: ANN202
        module = importlib.import_module(modules[args.env])
        par = module.parallel_env(**resolve_callables(args.env_kwargs))
        return ParallelPettingZooEnv(RLlibKeys(par))

    return creator


def main(args: Args) -> dict[str, float]:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    if args.smoke:
        args.iterations, args.num_env_runners, args.train_batch_size = 1, 0, 256
        args.minibatch_size, args.num_epochs, args.hidden = 64, 1, [32]
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    register_env("wargym", make_env(args))
    config = (
        PPOConfig()
        .environment("wargym")
        .framework("torch")
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=1,
            rollout_fragment_length="auto",
        )  # fmt: skip
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.train_batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.num_epochs,
        )  # fmt: skip
        .multi_agent(
            policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared"
        )  # fmt: skip
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": list(args.hidden)},
                    )
                }
            )
        )  # fmt: skip
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    result: dict[str, Any] = {}
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        print(json.dumps({"iteration": i + 1,
                          "env_steps": result.get("num_env_steps_sampled_lifetime"),
                          "episode_return_mean": runners.get("episode_return_mean")},
                         default=str))  # fmt: skip
    path = algo.save(args.checkpoint_dir)
    algo.stop()
    ray.shutdown()
    metrics = {
        "iterations": float(args.iterations),
        "env_steps": float(result.get("num_env_steps_sampled_lifetime", 0) or 0),
    }
    print(json.dumps({**metrics, "checkpoint": str(path)}, default=str))
    return metrics


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
