"""Behaviour-cloning bootstrap: start a MaskablePPO policy from a scripted teacher's games.

:func:`collect_demonstrations` plays a teacher (``heuristic``, ``rules`` or ``mcts[:budget]``)
as blue in the No Quarter solo env and records, for every decision, the observation dict, the
chosen index and the discounted return that followed (the env's own rewards, shaping
included). :func:`behaviour_clone` then fits the policy's masked action distribution to the
teacher's choices (cross-entropy) and its value head to the returns. PPO continues from there;
the anchors' "behaviour-cloning bootstrap from the scripted NPC" (design/anchors.md).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Mapping
from typing import Any

import numpy as np
import torch

Job = tuple[str, dict[str, Any], str, list[int], float, str, float]
"""``(env_id, env_kwargs, teacher, seeds, gamma, student zip or "", beta)``."""


def _collect(job: Job) -> dict[str, Any]:
    env_id, env_kwargs, teacher, seeds, gamma, student_path, beta = job
    import gymnasium

    import wargym.envs  # noqa: F401
    from wargym.agents.base import as_agent
    from wargym.agents.evaluation import make_agent

    env = gymnasium.make(env_id, **env_kwargs)
    student = None
    if student_path:
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        student = MaskablePPO.load(student_path, device="cpu")
    obs_l: list[Any] = []
    mask_l: list[Any] = []
    act_l: list[int] = []
    ret_l: list[float] = []
    outcomes: list[float] = []
    for seed in seeds:
        agent = as_agent(make_agent(teacher, "no_quarter", np.random.default_rng(seed)), env)
        agent.reset(seed)
        mix = np.random.default_rng(seed + 7)
        obs, _ = env.reset(seed=seed)
        rewards = []
        while True:
            index = agent.act(obs["observation"], obs["action_mask"])  # the teacher's label
            obs_l.append(obs["observation"])
            mask_l.append(obs["action_mask"])
            act_l.append(index)
            played = index
            if student is not None and mix.random() >= beta:  # DAgger: the student drives
                view = {k: v[None] for k, v in obs.items()}
                chosen, _ = student.predict(
                    view, action_masks=obs["action_mask"][None].astype(bool), deterministic=True
                )
                played = int(np.asarray(chosen).reshape(-1)[0])
            obs, reward, terminated, truncated, _ = env.step(played)
            rewards.append(float(reward))
            if terminated or truncated:
                break
        ret, back = 0.0, []
        for r in reversed(rewards):
            ret = r + gamma * ret
            back.append(ret)
        ret_l.extend(reversed(back))
        outcomes.append(float(np.sign(rewards[-1])) if rewards else 0.0)
    env.close()
    return {"obs": np.asarray(obs_l, np.float32), "mask": np.asarray(mask_l, np.int8),
            "action": np.asarray(act_l, np.int64), "ret": np.asarray(ret_l, np.float32),
            "outcomes": outcomes}  # fmt: skip


def collect_demonstrations(
    env_id: str,
    env_kwargs: Mapping[str, Any],
    teacher: str = "heuristic",
    episodes: int = 100,
    seed: int = 0,
    workers: int = 1,
    gamma: float = 0.995,
    student: str = "",
    beta: float = 0.0,
) -> dict[str, Any]:
    """The teacher's decisions over ``episodes`` seeded games (seeds ``seed + 100000 + i``).

    With ``student`` (a saved MaskablePPO zip), a DAgger round: the student plays (the teacher
    with probability ``beta``) and the teacher labels every state the student reaches, so the
    clone learns to recover from its own mistakes (Ross et al., 2011). Outcomes and returns
    are then those of the student's games.
    """
    seeds = [seed + 100_000 + i for i in range(episodes)]
    chunks = [seeds[i::workers] for i in range(max(1, workers))]
    jobs: list[Job] = [
        (env_id, dict(env_kwargs), teacher, c, gamma, student, beta) for c in chunks if c
    ]
    if len(jobs) > 1:
        with mp.get_context("forkserver").Pool(len(jobs)) as pool:
            parts = pool.map(_collect, jobs)
    else:
        parts = [_collect(job) for job in jobs]
    data: dict[str, Any] = {
        k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "action", "ret")
    }
    outcomes = [o for p in parts for o in p["outcomes"]]
    data["win_rate"] = float(np.mean([o > 0 for o in outcomes])) if outcomes else 0.0
    return data


def behaviour_clone(
    model: Any,
    data: Mapping[str, np.ndarray],
    epochs: int = 8,
    batch_size: int = 256,
    lr: float = 1e-3,
    value_coef: float = 0.5,
    seed: int = 0,
) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO ``MultiInputPolicy``) to the demonstrations."""
    policy = model.policy
    policy.set_training_mode(True)
    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)
    n = len(data["action"])
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(data["obs"])
    mask = torch.as_tensor(data["mask"].astype(np.float32))
    actions = torch.as_tensor(data["action"])
    returns = torch.as_tensor(data["ret"])
    stats = {"bc_loss": 0.0, "bc_accuracy": 0.0, "samples": float(n)}
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch_size):
            idx = torch.as_tensor(order[start : start + batch_size])
            batch = {"observation": obs[idx], "action_mask": mask[idx]}
            values, log_prob, _ = policy.evaluate_actions(
                batch, actions[idx], action_masks=mask[idx].numpy().astype(bool)
            )
            loss = -log_prob.mean() + value_coef * torch.mean(
                (values.flatten() - returns[idx]) ** 2
            )
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimiser.step()
            stats["bc_loss"] = float(loss.item())
    with torch.no_grad():
        sample = torch.as_tensor(rng.choice(n, size=min(n, 4096), replace=False))
        batch = {"observation": obs[sample], "action_mask": mask[sample]}
        dist = policy.get_distribution(batch, action_masks=mask[sample].numpy().astype(bool))
        guess = dist.distribution.probs.argmax(dim=1)
        stats["bc_accuracy"] = float((guess == actions[sample]).float().mean().item())
    policy.set_training_mode(False)
    return stats
