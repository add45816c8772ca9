"""Masked PPO over the native batched skirmish, in one file (CleanRL's ``ppo.py`` order).

Run from the repository root::

    python -m training.ppo_batch                       # the defaults below: 128 native battles
    python -m training.ppo_batch --smoke               # CI: a few hundred steps
    python -m training.ppo_batch --n-envs 256 --total-timesteps 2000000

No SB3 in the loop: the script drives ``SkirmishBatch(backend="native")``'s arrays directly
(``obs``, ``masks``, ``rewards``, ``terminations``, ``truncations``, ``final_obs``;
envs/no_quarter/batch.py) with a masked categorical policy in torch. Blue plays against the
rules' non-player AI (§22.4, the env default) with no reward shaping (the native batch has
none): +1 a won battle, -1 a lost one, 0 otherwise. The battles are split into
``env_threads`` batches stepped at once (the core releases the GIL), and the updates run on
``update_threads`` torch threads (no env steps then). Every ``Args`` field is also a flag
(tyro, ``wargym.agents.config``) and a preset key (``--config file.yaml``).

The network has SB3's ``MlpPolicy`` layout (separate actor and critic MLPs over the flat
observation, orthogonal initialisation), so a checkpoint is a ``MaskablePPO`` zip that
``wargym.agents.learned.LearnedAgent`` and ``training/ship_model.py`` load. Writes
``<run_dir>/``: ``checkpoints/ppo_<steps>_steps.zip`` (every ``checkpoint_every`` steps),
``final.zip`` with its sidecar ``final.json`` (env id, env keywords, layout versions: what
``LearnedAgent.meta`` reads), ``args.yaml`` (with ``env_id``, for ship_model) and
``metrics.json``: steps per second end to end, and the seconds of the env (``batch.step``),
of the policy's forward passes while collecting, and of the PPO updates, apart.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml


@dataclass
class Args:
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"cell": 4.0, "opponent": "rules"})
    """Keyword arguments of the skirmish env inside the batch (no ``reward_shaping``, no hooks:
    the native batch refuses them)."""
    seed: int = 1
    """Seeds torch, the batch (seed + i per battle) and minibatch shuffling."""
    total_timesteps: int = 2_000_000
    """Environment steps summed over all battles (rounded up to whole rollouts)."""
    max_minutes: float = 0.0
    """Stop after this much wall time (0: no limit); the last state is still saved."""
    n_envs: int = 128
    """Battles in the batch."""
    env_threads: int = 2
    """Split the battles into this many native batches stepped at once by as many threads
    (the core releases the GIL while it steps; same seeds, same play as one batch): 2 puts
    both cores of a 2-core machine on the env; 1 is one ``SkirmishBatch``."""
    n_steps: int = 64
    """Rollout length per battle; a rollout is ``n_envs * n_steps`` steps."""
    batch_size: int = 2048
    """Minibatch size."""
    n_epochs: int = 2
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam step size."""
    anneal_lr: bool = False
    """Decay the step size linearly to 0 over ``total_timesteps``."""
    gamma: float = 0.995
    """Discount."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range (of the ratio; the value is not clipped)."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient norm clip."""
    target_kl: float = 0.0
    """Stop an update's epochs early when the approximate KL passes this (0: never)."""
    net_arch: list[int] = field(default_factory=lambda: [64, 64])
    """Hidden sizes of the actor and of the critic MLP."""
    activation: Literal["tanh", "relu"] = "tanh"
    """``tanh`` or ``relu``."""
    torch_threads: int = 1
    """``torch.set_num_threads`` while collecting (1 is fastest for small MLPs on 2 cores)."""
    update_threads: int = 2
    """``torch.set_num_threads`` during the PPO updates, when no env steps (0: torch_threads)."""
    checkpoint_every: int = 500_000
    """Save a checkpoint every this many steps (0: only ``final.zip``)."""
    run_dir: str = "runs/ppo_batch"
    """Output folder."""
    log_every: int = 10
    """Print a line every this many updates (0: never)."""
    smoke: bool = False
    """CI mode: 8 battles, 4 rollouts of 32 steps (1,024 steps), a tiny network."""

    def __post_init__(self) -> None:
        """Refuse values no run can use (the message names the field)."""
        for name in ("total_timesteps", "n_envs", "env_threads", "n_steps", "batch_size",
                     "n_epochs"):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("max_minutes", "learning_rate", "checkpoint_every", "target_kl", "log_every",
                     "update_threads"):  # fmt: skip
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not 0.0 <= self.gamma <= 1.0 or not 0.0 <= self.gae_lambda <= 1.0:
            raise ValueError(
                f"gamma and gae_lambda must be in [0, 1]: {self.gamma}, {self.gae_lambda}"
            )
        if self.env_threads > self.n_envs:
            raise ValueError(f"env_threads ({self.env_threads}) must be <= n_envs ({self.n_envs})")
        if "backend" in self.env_kwargs:
            raise ValueError("env_kwargs: the batch is always the native one; no 'backend' key")


ENV_ID = "wargym/NoQuarter-Skirmish-v1"
"""The env the batch holds (its id goes into the sidecar, for ``LearnedAgent.make_env``)."""
MASKED_LOGIT = -1e8
"""Logit of a masked-out action (CleanRL's ``CategoricalMasked``): probability exactly 0."""


def make_env(args: Args) -> Any:
    """The batch: ``n_envs`` native skirmishes, battle ``i`` seeded ``seed + i``, reset at once
    (one ``SkirmishBatch``, or :class:`ThreadedBatches` of ``env_threads`` of them)."""
    from wargym.envs.no_quarter.batch import SkirmishBatch

    if args.env_threads == 1:
        return SkirmishBatch(args.n_envs, args.seed, backend="native", **args.env_kwargs)
    return ThreadedBatches(args.n_envs, args.seed, args.env_threads, args.env_kwargs)


class ThreadedBatches:
    """``threads`` native batches holding battles ``[start, stop)`` of ``n_envs``, stepped at
    once: one thread per batch but the first, which this thread steps. The arrays the loop
    reads (``obs``, ``masks``, ``rewards``, ``terminations``, ``truncations``, ``final_obs``,
    ``final_infos``) are the batches' joined after every step; battle ``i`` is seeded
    ``seed + i`` and draws from its own streams, so the play is one batch's
    (tests/training/test_ppo_batch.py checks it bit for bit)."""

    ARRAYS = ("obs", "masks", "rewards", "terminations", "truncations", "final_obs")

    def __init__(self, n_envs: int, seed: int, threads: int, env_kwargs: dict[str, Any]):
        from concurrent.futures import ThreadPoolExecutor

        import numpy as np

        from wargym.envs.no_quarter.batch import SkirmishBatch

        bounds = np.linspace(0, n_envs, threads + 1).round().astype(int).tolist()
        self.parts = [
            SkirmishBatch(stop - start, seed + start, backend="native", **env_kwargs)
            for start, stop in zip(bounds[:-1], bounds[1:], strict=True)
        ]
        self.splits = bounds[1:-1]
        self.pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="ppo-batch")
        first = self.parts[0]
        self.num_envs, self.n_actions = n_envs, first.n_actions
        self.single_observation_space = first.single_observation_space
        self.single_action_space = first.single_action_space
        self._join()

    def _join(self) -> None:
        import numpy as np

        for name in self.ARRAYS:
            setattr(self, name, np.concatenate([getattr(p, name) for p in self.parts]))
        self.final_infos = [info for p in self.parts for info in p.final_infos]

    def step(self, actions: Any) -> None:
        """Step every batch with its slice of ``actions``, all checked first (a masked action
        raises ``InvalidActionError`` naming the index in its batch; nothing moves)."""
        import numpy as np

        chunks = np.split(np.asarray(actions), self.splits)
        pairs = list(zip(self.parts, chunks, strict=True))
        for part, chunk in pairs:
            part.check_actions(chunk)
        futures = [self.pool.submit(part.step, chunk) for part, chunk in pairs[1:]]
        self.parts[0].step(chunks[0])
        for future in futures:
            future.result()
        self._join()

    def close(self) -> None:
        """Close the batches and the thread pool."""
        self.pool.shutdown()
        for part in self.parts:
            part.close()


# -- the network: SB3's MlpPolicy layout, so a checkpoint is a MaskablePPO zip -------------------
def _agent_classes() -> Any:
    """``Agent`` (torch is imported here, not at module import)."""
    import torch
    from torch import nn

    from wargym.agents.neural import ACTIVATIONS

    def layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
        out = nn.Linear(n_in, n_out)
        nn.init.orthogonal_(out.weight, gain)
        nn.init.zeros_(out.bias)
        return out

    def mlp(sizes: list[int], activation: str) -> nn.Sequential:
        """Linear + activation per hidden size (SB3's ``create_mlp`` order and names)."""
        layers: list[nn.Module] = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
            layers += [layer(n_in, n_out, math.sqrt(2)), ACTIVATIONS[activation]()]
        return nn.Sequential(*layers)

    class Extractor(nn.Module):
        """SB3's ``MlpExtractor`` parameters: ``policy_net`` and ``value_net`` MLPs."""

        def __init__(self, n_in: int, hidden: list[int], activation: str) -> None:
            super().__init__()
            self.policy_net = mlp([n_in, *hidden], activation)
            self.value_net = mlp([n_in, *hidden], activation)

    class Agent(nn.Module):
        """Actor and critic over the flat observation; logits of masked actions are -1e8."""

        def __init__(self, n_obs: int, n_actions: int, hidden: list[int], activation: str):
            super().__init__()
            self.mlp_extractor = Extractor(n_obs, hidden, activation)
            last = hidden[-1] if hidden else n_obs
            self.action_net = layer(last, n_actions, 0.01)
            self.value_net = layer(last, 1, 1.0)

        def value(self, obs: torch.Tensor) -> torch.Tensor:
            """``V(obs)``, shape ``(batch,)``."""
            out: torch.Tensor = self.value_net(self.mlp_extractor.value_net(obs))
            return out.squeeze(-1)

        def log_probs(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            """Log-probabilities of every action, masked (``-inf``-like off the mask)."""
            logits = self.action_net(self.mlp_extractor.policy_net(obs))
            return torch.log_softmax(logits.masked_fill(~mask, MASKED_LOGIT), dim=-1)

    return Agent


def probabilities(log_probs: Any, mask: Any) -> Any:
    """``exp(log_probs)`` on the mask, exactly 0 off it.

    The exponent is clamped at -80 (``exp`` of an underflowing argument is ~12x slower in
    torch on the CPU, and every masked entry underflows); a legal action below that keeps
    probability ``exp(-80)`` instead of less, which changes nothing measurable.
    """
    import torch

    return torch.where(mask, log_probs.clamp(min=-80.0).exp(), 0.0)


def sample(log_probs: Any, mask: Any, generator: Any = None) -> Any:
    """One action per row drawn from the masked distribution by inverting its cumulative sum.

    The pick of row ``r`` is the number of entries whose cumulative probability is ``<= u``
    for ``u`` uniform below the row's total (kept strictly below it): an action of probability
    0 (masked out) never has ``cdf[k - 1] <= u < cdf[k]``, so it is never drawn. (About seven
    times faster than ``torch.multinomial`` on a 128 x 413 batch: 0.3 ms against 2 ms.)
    """
    import torch

    cdf = probabilities(log_probs, mask).cumsum(-1)
    total = cdf[:, -1:]
    u = torch.rand(total.shape, generator=generator) * total
    u = torch.minimum(u, torch.nextafter(total, torch.zeros_like(total)))
    return (cdf <= u).sum(-1)


def entropy(log_probs: Any, mask: Any) -> Any:
    """Entropy per row of the masked distribution (masked actions add exactly 0)."""
    return -(probabilities(log_probs, mask) * log_probs).sum(-1)


def gae(rewards: Any, values: Any, dones: Any, last_value: Any, last_done: Any,
        gamma: float, lam: float) -> tuple[Any, Any]:  # fmt: skip
    """Advantages and returns of a rollout ``(T, N)`` (GAE; ``dones[t]``: obs ``t`` begins a
    new episode, so nothing flows back across it)."""
    import torch

    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(last_value)
    steps = rewards.shape[0]
    for t in reversed(range(steps)):
        next_live = 1.0 - (last_done if t == steps - 1 else dones[t + 1])
        next_value = last_value if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_value * next_live - values[t]
        running = delta + gamma * lam * next_live * running
        advantages[t] = running
    return advantages, advantages + values


def save_checkpoint(agent: Any, batch: Any, args: Args, steps: int, path: Path) -> Path:
    """``agent`` as a ``MaskablePPO("MlpPolicy")`` zip (``LearnedAgent`` loads it)."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    from wargym.agents.neural import policy_kwargs

    class Spaces(gymnasium.Env[Any, Any]):
        """The batch's spaces for SB3's constructor (never reset nor stepped)."""

        observation_space = batch.single_observation_space["observation"]
        action_space = batch.single_action_space

    model = MaskablePPO("MlpPolicy", Spaces(), policy_kwargs=policy_kwargs(args.net_arch,
                        args.activation), device="cpu", n_steps=args.n_steps,
                        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
                        gae_lambda=args.gae_lambda, ent_coef=args.ent_coef,
                        learning_rate=args.learning_rate)  # fmt: skip
    model.policy.load_state_dict(agent.state_dict(), strict=True)  # same names, same shapes
    model.num_timesteps = steps
    model.save(path)
    return path


def write_sidecar(args: Args, steps: int, zip_path: Path) -> Path:
    """``<zip stem>.json``: the env the policy was trained on (training/ship_model.py's card)."""
    from wargym.envs.no_quarter.codec import ACTION_VERSION
    from wargym.export_onnx import make_sidecar_env

    env_kwargs = {k: v for k, v in args.env_kwargs.items() if k not in ("reward_shaping",
                                                                        "opponent")}  # fmt: skip
    env = make_sidecar_env(ENV_ID, env_kwargs)
    meta = {
        "env_id": ENV_ID,
        "env_kwargs": env_kwargs,
        "observation_version": env.unwrapped.encoder.version,
        "action_version": ACTION_VERSION,
        "algorithm": "training/ppo_batch.py masked PPO (sb3_contrib MaskablePPO MlpPolicy layout)",
        "trained_steps": steps,
        "source_checkpoint": str(zip_path),
    }
    env.close()
    out = zip_path.with_suffix(".json")
    out.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return out


def main(args: Args) -> dict[str, float]:
    """Train; returns the final metrics (steps, seconds apart, steps per second, losses)."""
    import numpy as np
    import torch

    from wargym.agents.neural import set_threads

    if args.smoke:
        args = dataclasses.replace(args, total_timesteps=1024, n_envs=8, n_steps=32,
                                   env_threads=min(args.env_threads, 8),
                                   batch_size=64, n_epochs=2, net_arch=[32],
                                   checkpoint_every=512, log_every=1)  # fmt: skip
    set_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    run = Path(args.run_dir)
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run / "args.yaml").write_text(
        yaml.safe_dump({"env_id": ENV_ID, **dataclasses.asdict(args)}), encoding="utf-8"
    )

    # -- environment and buffers -----------------------------------------------------------------
    batch = make_env(args)
    n, steps_per_env = args.n_envs, args.n_steps
    n_obs, n_actions = batch.obs.shape[1], batch.n_actions
    obs_buf = torch.zeros((steps_per_env, n, n_obs))
    mask_buf = torch.zeros((steps_per_env, n, n_actions), dtype=torch.bool)
    action_buf = torch.zeros((steps_per_env, n), dtype=torch.long)
    logp_buf = torch.zeros((steps_per_env, n))
    reward_buf = torch.zeros((steps_per_env, n))
    done_buf = torch.zeros((steps_per_env, n))
    value_buf = torch.zeros((steps_per_env, n))

    # -- agent -----------------------------------------------------------------------------------
    agent = _agent_classes()(n_obs, n_actions, list(args.net_arch), args.activation)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    shuffle = np.random.default_rng(args.seed)
    draw = torch.Generator().manual_seed(args.seed)

    # -- train -----------------------------------------------------------------------------------
    rollout = n * steps_per_env
    updates = max(1, -(-args.total_timesteps // rollout))
    deadline = time.perf_counter() + args.max_minutes * 60 if args.max_minutes > 0 else math.inf
    next_obs = torch.from_numpy(batch.obs.copy())
    next_mask = torch.from_numpy(batch.masks.copy())
    next_done = torch.zeros(n)
    episode_return = np.zeros(n)
    returns: list[float] = []
    outcomes = {"blue": 0, "red": 0, None: 0}
    env_s = forward_s = update_s = 0.0
    stats: dict[str, float] = {}
    first_kl = math.nan
    global_step, next_checkpoint = 0, args.checkpoint_every
    t0 = time.perf_counter()
    for update in range(1, updates + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1 - (update - 1) / updates)
        # rollout: the policy picks, the batch steps every battle in one native call
        for t in range(steps_per_env):
            tf = time.perf_counter()
            obs_buf[t] = next_obs
            mask_buf[t] = next_mask
            done_buf[t] = next_done
            with torch.no_grad():
                log_probs = agent.log_probs(next_obs, next_mask)
                action = sample(log_probs, next_mask, draw)
                value_buf[t] = agent.value(next_obs)
            action_buf[t] = action
            logp_buf[t] = log_probs.gather(1, action[:, None]).squeeze(1)
            actions = action.numpy()
            te = time.perf_counter()
            batch.step(actions)
            tb = time.perf_counter()
            env_s += tb - te
            rewards = batch.rewards.astype(np.float32)
            ended = batch.terminations | batch.truncations
            cut = np.flatnonzero(batch.truncations & ~batch.terminations)
            if cut.size:  # a time limit, not the rules: bootstrap from the last observation
                with torch.no_grad():
                    tail = agent.value(torch.from_numpy(batch.final_obs[cut].copy()))
                rewards[cut] += args.gamma * tail.numpy()
            reward_buf[t] = torch.from_numpy(rewards)
            next_obs = torch.from_numpy(batch.obs.copy())
            next_mask = torch.from_numpy(batch.masks.copy())
            next_done = torch.from_numpy(ended.astype(np.float32))
            episode_return += batch.rewards
            for i in np.flatnonzero(ended).tolist():
                returns.append(float(episode_return[i]))
                episode_return[i] = 0.0
                outcome = (batch.final_infos[i] or {}).get("outcome") or {}
                outcomes[outcome.get("winner")] = outcomes.get(outcome.get("winner"), 0) + 1
            global_step += n
            forward_s += (te - tf) + (time.perf_counter() - tb)

        # advantages (GAE) and the PPO update
        tu = time.perf_counter()
        set_threads(args.update_threads or args.torch_threads)
        with torch.no_grad():
            last_value = agent.value(next_obs)
        advantages, value_targets = gae(reward_buf, value_buf, done_buf, last_value, next_done,
                                        args.gamma, args.gae_lambda)  # fmt: skip
        b_obs, b_mask = obs_buf.reshape(rollout, n_obs), mask_buf.reshape(rollout, n_actions)
        b_action, b_logp = action_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), value_targets.reshape(-1)
        clip_fracs: list[float] = []
        for epoch in range(args.n_epochs):
            order = torch.from_numpy(shuffle.permutation(rollout))
            for start in range(0, rollout, args.batch_size):
                idx = order[start : start + args.batch_size]
                log_probs = agent.log_probs(b_obs[idx], b_mask[idx])
                new_logp = log_probs.gather(1, b_action[idx, None]).squeeze(1)
                log_ratio = new_logp - b_logp[idx]
                ratio = log_ratio.exp()
                with torch.no_grad():
                    approx_kl = float(((ratio - 1) - log_ratio).mean())
                    clip_fracs.append(float(((ratio - 1).abs() > args.clip_range).float().mean()))
                if update == 1 and epoch == 0 and start == 0:
                    first_kl = approx_kl  # 0 unless the buffers and the policy disagree
                adv = b_adv[idx]
                if adv.numel() > 1:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_range, 1 + args.clip_range)
                ).mean()
                v_loss = 0.5 * ((agent.value(b_obs[idx]) - b_ret[idx]) ** 2).mean()
                ent = entropy(log_probs, b_mask[idx]).mean()
                loss = pg_loss - args.ent_coef * ent + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
            if args.target_kl and approx_kl > args.target_kl:
                break
        set_threads(args.torch_threads)
        update_s += time.perf_counter() - tu
        stats = {"loss": loss.item(), "policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
                 "entropy": ent.item(), "approx_kl": approx_kl,
                 "clip_fraction": float(np.mean(clip_fracs))}  # fmt: skip

        # bookkeeping: checkpoints, log lines, the wall-clock limit
        if args.checkpoint_every and global_step >= next_checkpoint:
            save_checkpoint(agent, batch, args, global_step,
                            run / "checkpoints" / f"ppo_{global_step}_steps.zip")  # fmt: skip
            while next_checkpoint <= global_step:
                next_checkpoint += args.checkpoint_every
        if args.log_every and update % args.log_every == 0:
            recent = returns[-200:]
            mean = np.mean(recent) if recent else math.nan
            print(f"update {update}/{updates} steps {global_step} "
                  f"sps {global_step / (time.perf_counter() - t0):,.0f} "
                  f"env {env_s:.1f}s forward {forward_s:.1f}s update {update_s:.1f}s "
                  f"return {mean:+.3f} loss {stats['loss']:.4f} "
                  f"entropy {stats['entropy']:.3f}", flush=True)  # fmt: skip
        if time.perf_counter() > deadline:
            break
    seconds = time.perf_counter() - t0

    final = save_checkpoint(agent, batch, args, global_step, run / "final.zip")
    write_sidecar(args, global_step, final)
    batch.close()
    games = sum(outcomes.values())
    metrics = {
        "steps": float(global_step),
        "seconds": seconds,
        "sps": global_step / max(seconds, 1e-9),
        "env_seconds": env_s,
        "forward_seconds": forward_s,
        "update_seconds": update_s,
        "learner_seconds": forward_s + update_s,
        "other_seconds": seconds - env_s - forward_s - update_s,  # checkpoints, logging
        "env_sps": global_step / max(env_s, 1e-9),
        "episodes": float(len(returns)),
        "mean_return": float(np.mean(returns)) if returns else math.nan,
        "win_rate": outcomes["blue"] / games if games else math.nan,
        "first_minibatch_kl": first_kl,
        **stats,
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    print(json.dumps(metrics))
    return metrics


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
