"""Torch-free runner of an exported policy: numpy + onnxruntime only.

:class:`OnnxPolicy` loads ``policy.onnx`` after validating its sidecar ``policy.onnx.json``
(:func:`wargym.export_onnx.read_sidecar`: format, layout versions, shapes, sha256 of the
graph), then answers ``act(observation, action_mask) -> int`` for the env's observation as it
comes (its Dict observation, or the flat part and the mask); :meth:`OnnxPolicy.make_env`
builds the env the sidecar names, and another env's observation is an
:class:`EnvMismatchError` naming the ``env_kwargs`` expected. The graph masks illegal
indices itself; the runner still checks the answer and never returns a masked index: should
the graph pick one (a corrupted file, a mask the graph reads differently), it logs a warning
and plays the first legal index instead.

Nothing here imports torch, stable-baselines3 or gymnasium, so a front end that can run
Python needs ``pip install numpy onnxruntime`` and the wargym package. Other languages load
the same ``.onnx`` with their onnxruntime binding and feed ``observation`` (float32,
``(batch, obs)``) and ``action_mask`` (float32 0/1, ``(batch, n)``); docs/protocol.md.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from wargym.export_onnx import Sidecar, SidecarError, read_sidecar
from wargym.rules.errors import short_repr

LOG = logging.getLogger(__name__)


class EnvMismatchError(ValueError):
    """An observation or mask that does not fit the policy: another env's, or another layout.

    The message names the env and the ``env_kwargs`` the policy was trained on.
    """


def split_observation(observation: Any, action_mask: Any) -> tuple[Any, Any]:
    """``(observation vector, mask)`` of what an env hands an agent.

    ``observation`` is the env's Dict observation (``{"observation", "action_mask", ...}``,
    the mask taken from it unless given) or already its flat ``observation`` part.

    Raises:
        EnvMismatchError: a mapping without an ``observation`` entry.
        ValueError: no mask given nor found in the observation.
    """
    if isinstance(observation, Mapping):
        if "observation" not in observation:
            keys = sorted(str(k)[:40] for k in observation)[:12]
            raise EnvMismatchError(
                f"a Dict observation needs an 'observation' entry (the env's own); got keys {keys}"
            )
        if action_mask is None:
            action_mask = observation.get("action_mask")
        observation = observation["observation"]
    if action_mask is None:
        raise ValueError(
            "no action_mask: pass the mask, or the env's Dict observation that holds it"
        )
    return observation, action_mask


def env_hint(env_id: Any, env_kwargs: Mapping[str, Any] | None) -> str:
    """``trained on <id> with env_kwargs k=v, ...: build that env with agent.make_env()``."""
    items = list((env_kwargs or {}).items())
    shown = ", ".join(f"{str(k)[:40]}={short_repr(v, 40)}" for k, v in items[:12])
    more = f", ... ({len(items)} keys)" if len(items) > 12 else ""
    kwargs = f"env_kwargs {shown}{more}" if items else "no env_kwargs"
    return (
        f"the policy was trained on {short_repr(env_id, 80) if env_id else 'an unknown env'} "
        f"with {kwargs}: build that env with agent.make_env()"
    )


def make_env_from(
    env_id: Any, env_kwargs: Mapping[str, Any], allow: Mapping[str, Any] | None, **overrides: Any
) -> Any:
    """``gymnasium.make(env_id, **env_kwargs, **overrides)``, hooks resolved by name.

    Raises:
        EnvMismatchError: no env id is recorded for the policy.
        EntryPointError: a hook names no entry point.
    """
    if not isinstance(env_id, str) or not env_id:
        raise EnvMismatchError("the policy's sidecar records no env_id: no env to build")
    import gymnasium

    import wargym.envs  # noqa: F401 - registers the ids
    from wargym.agents.envspecs import resolve_callables

    return gymnasium.make(env_id, **resolve_callables({**env_kwargs, **overrides}, allow))


class OnnxPolicy:
    """An exported policy as an index-level agent (``act(observation, action_mask)``).

    Args:
        path: the ``.onnx`` file; ``<path>.json`` must be a valid sidecar.
        threads: onnxruntime intra-op threads (1 is fastest for small MLPs).
        allow: a caller's own entry points ``{name: object}`` the sidecar's ``env_kwargs`` may
            name (the package's own are always known; import paths never are).

    Raises:
        wargym.export_onnx.SidecarError: the sidecar is missing or invalid, the file's
            digest differs from the sidecar's, the file is no loadable ONNX graph, or the
            graph's input widths differ from ``obs_shape`` / ``n_actions``.
        ValueError: the graph's inputs or outputs do not match the sidecar.
    """

    needs_observation = True
    """The evaluation harness hands this agent its observation and mask."""

    def __init__(
        self, path: str | Path, threads: int = 1, allow: Mapping[str, Any] | None = None
    ) -> None:
        import onnxruntime

        self.path = Path(path)
        self.allow = allow
        self.sidecar: Sidecar = read_sidecar(self.path, allow=allow)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, int(threads))
        options.inter_op_num_threads = 1
        try:
            self._session = onnxruntime.InferenceSession(
                str(self.path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime's own errors (InvalidProtobuf, Fail, ...)
            raise SidecarError(
                "onnx_file", f"{self.path.name} is not a loadable ONNX graph: {exc}"
            ) from exc
        inputs = [i.name for i in self._session.get_inputs()]
        outputs = [o.name for o in self._session.get_outputs()]
        if inputs != list(self.sidecar.raw["inputs"]):
            raise ValueError(f"{self.path.name}: graph inputs {inputs} differ from the sidecar")
        if outputs != list(self.sidecar.raw["outputs"]):
            raise ValueError(f"{self.path.name}: graph outputs {outputs} differ from the sidecar")
        self.obs_size = int(np.prod(self.sidecar.obs_shape))
        self.n_actions = self.sidecar.n_actions
        for node, field, want in (
            (self._session.get_inputs()[0], "obs_shape", self.obs_size),
            (self._session.get_inputs()[1], "n_actions", self.n_actions),
        ):
            width = node.shape[-1] if node.shape else None
            if isinstance(width, int) and width != want:
                raise SidecarError(
                    field, f"sidecar says {want} values, graph input {node.name!r} takes {width}"
                )
        self.fallbacks = 0
        """How many times the graph's choice was masked and the first legal index was played."""

    def make_env(self, **overrides: Any) -> Any:
        """The env the policy was trained on (the sidecar's ``env_id`` and ``env_kwargs``).

        ``overrides`` are further ``gymnasium.make`` keywords (``max_turns=...``). Needs
        gymnasium (this runner itself does not).
        """
        return make_env_from(self.sidecar.env_id, self.sidecar.env_kwargs, self.allow, **overrides)

    # -- inputs --------------------------------------------------------------------------
    def _feed(self, observation: Any, action_mask: Any) -> tuple[dict[str, np.ndarray], Any]:
        observation, action_mask = split_observation(observation, action_mask)
        obs = np.asarray(observation, dtype=np.float32)
        mask = np.asarray(action_mask)
        hint = env_hint(self.sidecar.env_id, self.sidecar.env_kwargs)
        if obs.size % self.obs_size or obs.size == 0:
            raise EnvMismatchError(
                f"observation has {obs.size} values; the policy reads {self.obs_size} per row "
                f"({hint})"
            )
        obs = obs.reshape(-1, self.obs_size)
        if mask.size != obs.shape[0] * self.n_actions:
            raise EnvMismatchError(
                f"action_mask has {mask.size} values; expected {self.n_actions} ({hint})"
            )
        legal = mask.reshape(obs.shape[0], self.n_actions).astype(bool)
        if not legal.any(axis=1).all():
            raise ValueError("the action mask allows no action")
        return {"observation": obs, "action_mask": legal.astype(np.float32)}, legal

    # -- queries -------------------------------------------------------------------------
    def logits(self, observation: Any, action_mask: Any = None) -> np.ndarray:
        """Masked logits, shape ``(n,)`` for one observation or ``(batch, n)`` for a batch."""
        feed, _ = self._feed(observation, action_mask)
        out = np.asarray(self._session.run(["logits"], feed)[0], dtype=np.float64)
        flat = observation["observation"] if isinstance(observation, Mapping) else observation
        return out[0] if np.asarray(flat).ndim <= 1 else out

    def act_batch(self, observations: Any, action_masks: Any = None) -> np.ndarray:
        """Greedy legal index per row of a batch (int64 array)."""
        feed, legal = self._feed(observations, action_masks)
        actions = np.asarray(self._session.run(["action"], feed)[0], dtype=np.int64).reshape(-1)
        for row, index in enumerate(actions):
            if not (0 <= index < self.n_actions and legal[row, index]):
                first = int(np.flatnonzero(legal[row])[0])
                LOG.warning(
                    "%s chose masked index %s; playing the first legal index %s",
                    self.path.name,
                    int(index),
                    first,
                )
                self.fallbacks += 1
                actions[row] = first
        return actions

    def act(self, observation: Any, action_mask: Any = None) -> int:
        """The policy's greedy choice among the indices ``action_mask`` allows.

        ``observation`` is what the env hands out (its Dict observation, whose
        ``action_mask`` is used when none is given) or the flat ``observation`` part.

        Raises:
            EnvMismatchError: the observation or mask has another width than the policy's
                (another env, or other ``env_kwargs``: the message names the ones expected).
            ValueError: no mask, or a mask that allows no action.
        """
        return int(self.act_batch(observation, action_mask)[0])

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget (the greedy policy is stateless); present for the Agent protocol."""
