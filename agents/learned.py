"""Learned players: an SB3 / sb3-contrib policy zip or an exported ONNX policy.

:class:`LearnedAgent` acts through the legal mask: the policy's logits of illegal indices are
never chosen (``MaskablePPO.predict(action_masks=...)``, or the ONNX graph's own masking).
torch and sb3-contrib are imported lazily, only when a zip is loaded; ONNX files need only
``onnxruntime`` (extra ``[export]``). A policy file may have a sidecar ``<name>.json`` (same
stem) holding the env it was trained on (``env_id``, ``env_kwargs``, layout versions); the
evaluation harness builds matching envs from it (:attr:`LearnedAgent.meta`).

Observations: the envs hand agents the ``observation`` part of their Dict observation; a
policy trained on the whole Dict (``MultiInputPolicy``) gets it rebuilt with the mask.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from wargym.agents.base import SeededAgent

SHIPPED = "nq_skirmish_ppo"
"""Stem of the shipped No Quarter policy in ``wargym.agents.models``."""


def shipped_model(suffix: str = ".zip") -> Path:
    """Path of the shipped No Quarter policy file (``.zip``, ``.onnx`` or ``.json``)."""
    ref = resources.files("wargym.agents.models").joinpath(SHIPPED + suffix)
    path = Path(str(ref))
    if not path.exists():
        raise FileNotFoundError(f"no shipped policy {path.name} in wargym.agents.models")
    return path


def read_meta(path: str | Path) -> dict[str, Any]:
    """The sidecar JSON of a policy file (empty when there is none)."""
    side = Path(path).with_suffix(".json")
    if not side.exists():
        return {}
    data: dict[str, Any] = json.loads(side.read_text(encoding="utf-8"))
    return data


class LearnedAgent(SeededAgent):
    """A saved policy as an :class:`~wargym.agents.base.Agent`.

    Args:
        path: ``.zip`` (SB3/sb3-contrib; MaskablePPO, else PPO) or ``.onnx``.
        rng: generator or seed (used when ``deterministic`` is False).
        deterministic: arg-max of the masked logits (default) or a sample.
    """

    def __init__(self, path: str | Path, rng: Any = None, deterministic: bool = True) -> None:
        super().__init__(rng)
        self.path = Path(path)
        self.deterministic = deterministic
        self.meta = read_meta(self.path)
        self._dict_obs = False
        if self.path.suffix == ".onnx":
            import onnxruntime

            self._session = onnxruntime.InferenceSession(
                str(self.path), providers=["CPUExecutionProvider"]
            )
            self._model = None
        else:
            self._session = None
            self._model = _load_sb3(self.path)
            from gymnasium import spaces

            self._dict_obs = isinstance(self._model.observation_space, spaces.Dict)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The policy's choice among the indices ``action_mask`` allows."""
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise ValueError("the action mask allows no action")
        obs = np.asarray(observation, dtype=np.float32).reshape(1, -1)
        if self._session is not None:
            feed = {"observation": obs, "action_mask": mask.astype(np.float32)[None]}
            if not self.deterministic:
                logits = self._session.run(["logits"], feed)[0][0]
                return self._sample(logits, mask)
            return int(self._session.run(["action"], feed)[0][0])
        model = self._model
        assert model is not None
        model_obs: Any = obs
        if self._dict_obs:
            model_obs = {"observation": obs, "action_mask": mask.astype(np.int8)[None]}
        action, _ = model.predict(
            model_obs, action_masks=mask[None], deterministic=self.deterministic
        )
        return int(np.asarray(action).reshape(-1)[0])

    def _sample(self, logits: np.ndarray, mask: np.ndarray) -> int:
        z = np.where(mask, logits, -np.inf)
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))


def _load_sb3(path: Path) -> Any:
    """MaskablePPO.load, else PPO.load (CPU)."""
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu")
    except (KeyError, ValueError, TypeError):
        from stable_baselines3 import PPO

        return PPO.load(path, device="cpu")
