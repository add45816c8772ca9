"""Learned players: an SB3 / sb3-contrib policy zip or an exported ONNX policy.

:class:`LearnedAgent` acts through the legal mask: the policy's logits of illegal indices are
never chosen (``MaskablePPO.predict(action_masks=...)``, or the ONNX graph's own masking).
torch and sb3-contrib are imported lazily, only when a zip is loaded; ONNX files need only
``onnxruntime`` (extra ``[export]``). A policy file may have a sidecar ``<name>.json`` (same
stem) holding the env it was trained on (``env_id``, ``env_kwargs``, layout versions); the
evaluation harness builds matching envs from it (:attr:`LearnedAgent.meta`).

Policy files are untrusted data: a zip is loaded without unpickling anything
(:func:`wargym.agents.sb3_zip.load_checkpoint`), an ONNX file's ``.onnx.json`` is validated
when present (:func:`wargym.export_onnx.read_sidecar`, digests included), and a sidecar's
``env_kwargs`` may name hooks only by entry-point name (:mod:`wargym.agents.entry_points`);
anything else is a ``SidecarError`` or ``CheckpointError`` naming the problem.

Observations: :meth:`LearnedAgent.act` takes the env's Dict observation as it comes (the
mask inside it is used unless one is given) or its flat ``observation`` part; a policy
trained on the whole Dict (``MultiInputPolicy``) gets it rebuilt with the mask.
:meth:`LearnedAgent.make_env` builds the env the sidecar names; another env's observation
(another width) is an :class:`~wargym.agents.onnx_runner.EnvMismatchError` naming the
``env_kwargs`` the policy expects.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def read_meta(path: str | Path, allow: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The sidecar JSON of a policy file (empty when there is none), hooks checked.

    ``<stem>.json`` (the model card); for an ``.onnx`` without one, its validated
    ``.onnx.json``. ``env_kwargs`` hooks come back as entry-point names (legacy import
    paths of the package's own objects mapped); ``allow`` adds a caller's own names.

    Raises:
        SidecarError: unreadable JSON, not an object, ``env_kwargs`` not an object, or a hook
            that names no entry point (nothing a file names is imported).
    """
    from wargym.export_onnx import (
        SidecarError,
        named_env_kwargs,
        read_json_file,
        read_sidecar,
        sidecar_path,
    )

    path = Path(path)
    side = path.with_suffix(".json")
    if not side.exists():
        if path.suffix == ".onnx" and sidecar_path(path).exists():
            onnx_side = read_sidecar(path, allow=allow)
            return {**onnx_side.raw, "env_kwargs": dict(onnx_side.env_kwargs)}
        return {}
    data = read_json_file(side)
    if not isinstance(data, dict):
        raise SidecarError("<root>", f"{side.name}: expected a JSON object")
    kwargs = data.get("env_kwargs", {})
    if not isinstance(kwargs, dict):
        raise SidecarError("env_kwargs", f"{side.name}: expected an object")
    data["env_kwargs"] = named_env_kwargs(kwargs, allow)
    return data


class LearnedAgent(SeededAgent):
    """A saved policy as an :class:`~wargym.agents.base.Agent`.

    Args:
        path: ``.zip`` (SB3/sb3-contrib; MaskablePPO, else PPO) or ``.onnx``.
        rng: generator or seed (used when ``deterministic`` is False).
        deterministic: arg-max of the masked logits (default) or a sample.
        allow: a caller's own entry points ``{name: object}`` its sidecar may name.

    Raises:
        SidecarError: a bad sidecar or model card (:func:`read_meta`), or an ``.onnx`` that
            is no loadable graph (field ``onnx_file``).
        CheckpointError: a zip that is no checkpoint or needs unpickling.
        OSError: the file does not exist.
    """

    def __init__(
        self,
        path: str | Path,
        rng: Any = None,
        deterministic: bool = True,
        allow: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(rng)
        self.path = Path(path)
        self.allow = allow
        self.deterministic = deterministic
        if not self.path.is_file():
            raise FileNotFoundError(f"no policy file {self.path}")
        self.meta = read_meta(self.path, allow)
        self._dict_obs = False
        if self.path.suffix == ".onnx":
            import onnxruntime

            from wargym.export_onnx import SidecarError

            try:
                self._session = onnxruntime.InferenceSession(
                    str(self.path), providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # onnxruntime's own errors (InvalidProtobuf, Fail, ...)
                raise SidecarError(
                    "onnx_file", f"{self.path.name} is not a loadable ONNX graph: {exc}"
                ) from None
            self._model = None
        else:
            self._session = None
            self._model = _load_sb3(self.path)
            from gymnasium import spaces

            self._dict_obs = isinstance(self._model.observation_space, spaces.Dict)

    @property
    def widths(self) -> tuple[int | None, int | None]:
        """(observation width, action count) the policy reads (``None``: not fixed)."""
        if self._session is not None:
            obs, mask = self._session.get_inputs()[:2]
            return tuple(  # type: ignore[return-value]
                d[-1] if d and isinstance(d[-1], int) else None for d in (obs.shape, mask.shape)
            )
        model: Any = self._model
        space = (
            model.observation_space["observation"] if self._dict_obs else model.observation_space
        )
        return int(np.prod(space.shape)), int(getattr(model.action_space, "n", 0)) or None

    def make_env(self, **overrides: Any) -> Any:
        """The env the policy was trained on (its sidecar's ``env_id`` and ``env_kwargs``).

        ``overrides`` are further ``gymnasium.make`` keywords (``max_turns=...``).

        Raises:
            EnvMismatchError: the policy file has no sidecar naming its env.
        """
        from wargym.agents.onnx_runner import make_env_from

        return make_env_from(
            self.meta.get("env_id"), self.meta.get("env_kwargs") or {}, self.allow, **overrides
        )

    def act(self, observation: Any, action_mask: Any = None) -> int:
        """The policy's choice among the indices ``action_mask`` allows.

        ``observation`` is what the env hands out (its Dict observation, whose
        ``action_mask`` is used when none is given) or the flat ``observation`` part.

        Raises:
            EnvMismatchError: the observation or mask has another width than the policy's
                (another env, or other ``env_kwargs``: the message names the ones expected).
            ValueError: no mask, or a mask that allows no action.
        """
        from wargym.agents.onnx_runner import EnvMismatchError, env_hint, split_observation

        observation, action_mask = split_observation(observation, action_mask)
        mask = np.asarray(action_mask).astype(bool).reshape(-1)
        obs = np.asarray(observation, dtype=np.float32).reshape(1, -1)
        obs_width, n_actions = self.widths
        hint = env_hint(self.meta.get("env_id"), self.meta.get("env_kwargs"))
        if obs_width is not None and obs.shape[1] != obs_width:
            raise EnvMismatchError(
                f"observation has {obs.shape[1]} values; the policy reads {obs_width} ({hint})"
            )
        if n_actions is not None and mask.size != n_actions:
            raise EnvMismatchError(
                f"action_mask has {mask.size} values; expected {n_actions} ({hint})"
            )
        if not mask.any():
            raise ValueError("the action mask allows no action")
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
    """MaskablePPO (a maskable policy class), else PPO; CPU, nothing unpickled."""
    from wargym.agents.sb3_zip import load_checkpoint, read_data

    policy = read_data(path).get("policy_class")
    module = policy.get("__module__") if isinstance(policy, dict) else None
    if module == "stable_baselines3.common.policies":
        from stable_baselines3 import PPO

        return load_checkpoint(path, PPO)
    return load_checkpoint(path)
