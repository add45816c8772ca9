"""A MaskablePPO policy that reads the per-action feature block ("nq-af-v1") action by action.

A plain MLP head gives every action index its own output weights, so it must learn the meaning
of "this move ends in woods" separately for each of the 64 move indices. With
``action_features=True`` the No Quarter observation ends with a ``(rows, n_actions)`` block
describing what each legal action leads to (``wargym.envs.no_quarter.action_features``).
:class:`ActionFeaturePolicy` adds to each action's logit a term computed from *its* column of
that block by weights shared across actions, modulated by the state's latent vector::

    logit[a] = action_net(latent)[a] + sum_k embed(f[a])_k * context(latent)_k + bias(embed(f[a]))

so what is learned about one move index carries over to all of them. Everything else (feature
extractor, MLPs, value head, masking) is sb3-contrib's ``MaskableMultiInputActorCriticPolicy``.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from torch import nn

AF_ROWS = 6
"""Rows of the per-action feature block (``len(ACTION_FEATURES)``)."""


class ActionFeaturePolicy(MaskableMultiInputActorCriticPolicy):
    """``MaskableMultiInputActorCriticPolicy`` plus a shared per-action head (module docstring).

    Args:
        af_rows: rows of the feature block at the end of ``observation``.
        af_hidden: width of the per-action embedding.
    """

    def __init__(self, *args: Any, af_rows: int = AF_ROWS, af_hidden: int = 32, **kwargs: Any):
        self.af_rows, self.af_hidden = af_rows, af_hidden
        self._af: torch.Tensor | None = None
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        latent = self.mlp_extractor.latent_dim_pi
        self.af_embed = nn.Sequential(nn.Linear(self.af_rows, self.af_hidden), nn.Tanh())
        self.af_context = nn.Linear(latent, self.af_hidden)
        self.af_bias = nn.Linear(self.af_hidden, 1)
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]  # now with the head
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def af_block(self, observation: torch.Tensor) -> torch.Tensor:
        """``(batch, n_actions, rows)``: the feature block at the end of ``observation``."""
        n = int(self.action_space.n)  # type: ignore[attr-defined]
        block = observation[:, observation.shape[1] - self.af_rows * n :]
        return block.reshape(-1, self.af_rows, n).transpose(1, 2)

    def af_logits(self, latent_pi: torch.Tensor, observation: torch.Tensor) -> torch.Tensor:
        """``(batch, n_actions)``: the per-action term of the logits."""
        embedded = self.af_embed(self.af_block(observation))
        context = self.af_context(latent_pi).unsqueeze(1)
        logits: torch.Tensor = (embedded * context).sum(-1) + self.af_bias(embedded).squeeze(-1)
        return logits

    def extract_features(self, obs: Any, features_extractor: Any = None) -> Any:
        """SB3's features; also keeps the observation for :meth:`_get_action_dist_from_latent`."""
        if not torch.compiler.is_compiling():  # ONNX export passes the observation itself
            self._af = obs["observation"].float()
        return super().extract_features(obs, features_extractor)

    def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
        """sb3-contrib's (it calls the base ``extract_features``: keep the observation here)."""
        self._af = obs["observation"].float()
        return super().get_distribution(obs, action_masks)

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> Any:
        assert self._af is not None, "extract_features runs first in every SB3 forward path"
        logits = self.action_net(latent_pi) + self.af_logits(latent_pi, self._af)
        return self.action_dist.proba_distribution(action_logits=logits)
