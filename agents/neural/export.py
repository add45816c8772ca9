"""ONNX export of a MaskablePPO policy with the action mask as an explicit graph input.

The graph takes ``observation`` (float32, ``(batch, obs)``) and ``action_mask`` (float32 0/1,
``(batch, n)``) and returns ``action`` (int64, the arg-max of the masked logits) and ``logits``
(masked: illegal entries are -1e8). Policies trained on the env's whole Dict observation
(``MultiInputPolicy``) get the dict rebuilt inside the graph. Needs the ``[export]`` extra
(onnx, onnxscript; without onnxscript the legacy exporter is used). :func:`export_onnx`
checks the exported actions against ``model.predict`` on ``check`` random inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch


class MaskedPolicy(torch.nn.Module):
    """``(observation, action_mask) -> (action, masked logits)`` of an SB3 actor."""

    def __init__(self, policy: Any, dict_obs: bool) -> None:
        super().__init__()
        self.policy = policy
        self.dict_obs = dict_obs

    def forward(
        self, observation: torch.Tensor, action_mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked arg-max and logits."""
        obs: Any = observation
        if self.dict_obs:
            obs = {"observation": observation, "action_mask": action_mask}
        features = self.policy.extract_features(obs, self.policy.pi_features_extractor)
        latent = self.policy.mlp_extractor.forward_actor(features)
        logits = self.policy.action_net(latent)
        if hasattr(self.policy, "af_logits"):  # af_policy.ActionFeaturePolicy
            logits = logits + self.policy.af_logits(latent, observation)
        masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, -1e8))
        return torch.argmax(masked, dim=1), masked


def export_onnx(model: Any, path: str | Path, check: int = 200, seed: int = 0) -> Path:
    """Write ``model``'s policy as ONNX to ``path``; returns the path.

    Raises:
        AssertionError: onnxruntime's actions differ from ``model.predict`` on a check input.
    """
    from gymnasium import spaces

    space = model.observation_space
    dict_obs = isinstance(space, spaces.Dict)
    obs_dim = int(np.prod((space["observation"] if dict_obs else space).shape))
    n = int(model.action_space.n)
    module = MaskedPolicy(model.policy, dict_obs).eval()
    out = Path(path)
    example = (torch.zeros(1, obs_dim), torch.ones(1, n))
    names: dict[str, Any] = {
        "input_names": ["observation", "action_mask"],
        "output_names": ["action", "logits"],
    }
    with torch.no_grad():
        try:  # the torch.export-based exporter (needs onnxscript)
            batch = torch.export.Dim("batch", min=1, max=4096)
            torch.onnx.export(module, example, str(out), dynamo=True, external_data=False,
                              dynamic_shapes=({0: batch}, {0: batch}), verbose=False,
                              **names)  # fmt: skip
        except ImportError:  # legacy TorchScript exporter
            torch.onnx.export(module, example, str(out), dynamo=False,
                              dynamic_axes={"observation": {0: "batch"},
                                            "action_mask": {0: "batch"}}, **names)  # fmt: skip
    if check:
        import onnxruntime

        session = onnxruntime.InferenceSession(str(out), providers=["CPUExecutionProvider"])
        rng = np.random.default_rng(seed)
        for _ in range(check):
            obs = rng.uniform(-1, 1, (1, obs_dim)).astype(np.float32)
            mask = (rng.uniform(size=(1, n)) < 0.1).astype(np.float32)
            mask[0, int(rng.integers(n))] = 1.0
            got = int(session.run(["action"], {"observation": obs, "action_mask": mask})[0][0])
            feed: Any = obs
            if dict_obs:
                feed = {"observation": obs, "action_mask": mask.astype(np.int8)}
            want, _ = model.predict(feed, action_masks=mask.astype(bool), deterministic=True)
            assert got == int(np.asarray(want).reshape(-1)[0]), "ONNX and torch disagree"
    return out
