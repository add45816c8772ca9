"""Difficulty tiers of a shipped opponent: temperature sampling and mixing with the rules agent.

A :class:`Tier` weakens an exported policy (:class:`~wargym.agents.onnx_runner.OnnxPolicy`)
two ways, applied per decision:

1. with probability ``epsilon`` the decision is handed to the scripted rules agent (the book's
   NP procedure for No Quarter, the scripted captains for the space games);
2. otherwise an index is drawn from ``softmax(logits / temperature)`` over the legal indices
   (``temperature == 0``: the arg-max, the policy's own greedy play).

:data:`TIERS` holds the named tiers (``easy``, ``medium``, ``hard``, ``expert``). Their
numbers are starting points; ``training/calibrate_tiers.py`` measures each tier's Elo
against the reference agents with the evaluation harness (``wargym.agents.evaluation``)
and writes the figures to ``runs/tiers.json``; docs/protocol.md explains how to re-run it.

:func:`choose_index` is the pure rule (numpy only; the opponent server uses it directly);
:class:`TieredAgent` is the agent (it adapts the rules agent through the env it is seated in,
so it works in the evaluation harness and in the solo envs via ``set_opponent``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.agents.base import EngineAdapter


@dataclass(frozen=True, slots=True)
class Tier:
    """One named difficulty: how far play departs from the policy's greedy choice."""

    name: str
    """Tier name (a key of :data:`TIERS`)."""
    temperature: float
    """Softmax temperature over the masked logits; 0 plays the arg-max."""
    epsilon: float
    """Probability that the scripted rules agent takes the decision instead."""
    description: str = ""
    """What a player should expect."""

    def __post_init__(self) -> None:
        if not (self.temperature >= 0.0 and np.isfinite(self.temperature)):
            raise ValueError(f"tier {self.name}: temperature must be >= 0, got {self.temperature}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"tier {self.name}: epsilon must be in [0, 1], got {self.epsilon}")


TIERS: Mapping[str, Tier] = {
    t.name: t
    for t in (
        Tier("easy", 2.0, 0.5, "half the decisions by the rules agent, the rest loosely sampled"),
        Tier("medium", 1.0, 0.2, "the policy's own distribution, one decision in five scripted"),
        Tier("hard", 0.5, 0.0, "a sharpened sample of the policy"),
        Tier("expert", 0.0, 0.0, "the policy's greedy choice every time"),
    )
}
"""The named tiers, weakest first (calibrated by training/calibrate_tiers.py)."""


def tier(name: str) -> Tier:
    """The tier called ``name``.

    Raises:
        KeyError: unknown name (the message lists the known ones).
    """
    if name not in TIERS:
        raise KeyError(f"unknown tier {name!r}; one of {list(TIERS)}")
    return TIERS[name]


def choose_index(
    logits: np.ndarray, mask: np.ndarray, tier: Tier, rng: np.random.Generator
) -> int | None:
    """A legal index under ``tier``, or None when the scripted agent should decide.

    ``logits`` may already be masked (the exported graph writes -1e8); only ``mask`` decides
    what is legal.
    """
    legal = np.asarray(mask).astype(bool).reshape(-1)
    if not legal.any():
        raise ValueError("the action mask allows no action")
    if tier.epsilon > 0.0 and rng.random() < tier.epsilon:
        return None
    z = np.asarray(logits, dtype=np.float64).reshape(-1)
    indices = np.flatnonzero(legal)
    values = z[indices]
    if tier.temperature == 0.0:
        return int(indices[int(np.argmax(values))])
    scaled = (values - values.max()) / tier.temperature
    p = np.exp(scaled)
    p /= p.sum()
    return int(indices[int(rng.choice(len(indices), p=p))])


class TieredAgent(EngineAdapter):
    """An exported policy played at a difficulty tier.

    Args:
        policy: anything with ``logits(observation, action_mask)`` (an ``OnnxPolicy``).
        tier: a :class:`Tier` or a tier name.
        game: ``no_quarter``, ``pentagon_war`` or ``starship_combat`` (picks the rules agent).
        rng: generator or seed.

    The scripted part reads the engine state of the env the agent is seated in: the
    evaluation harness binds it (``as_agent``); elsewhere call :meth:`bind` first. A tier
    with ``epsilon == 0`` never needs the env.
    """

    needs_observation = True

    def __init__(
        self, policy: Any, tier: Tier | str, game: str = "no_quarter", rng: Any = None
    ) -> None:
        from wargym.agents.scripted import scripted_agent

        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.policy = policy
        self.tier = TIERS[tier] if isinstance(tier, str) else tier
        self.game = game
        engine_agent: Any = scripted_agent(game, self.rng.spawn(1)[0])
        super().__init__(engine_agent)

    def act(self, observation: Any, action_mask: np.ndarray | None = None) -> int:
        """The tier's choice: scripted with probability epsilon, else a tempered sample."""
        if action_mask is None:
            raise ValueError("TieredAgent needs the action mask")
        logits = self.policy.logits(observation, action_mask)
        index = choose_index(logits, action_mask, self.tier, self.rng)
        if index is None:
            return super().act(observation, action_mask)
        return index

    def reset(self, seed: int | None = None) -> None:
        """Re-seed (when ``seed`` is given) and reset the scripted agent's memory."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        super().reset(seed)
