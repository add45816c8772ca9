"""The server's learned opponent: an ONNX policy played through its env's encoder and codec.

:class:`OnnxOpponent` loads only ``.onnx`` files (with their validated sidecar, via
:class:`wargym.agents.onnx_runner.OnnxPolicy`); it never reads a pickle or an SB3 zip. The
env named by the sidecar is built once to borrow its observation encoder and action codec,
so a submitted battle is encoded exactly as in training, from the deciding side's view.
When the policy cannot be used for a position (more mechs than its slots, an empty mask, an
index that decodes to an illegal action) the rules' NP procedure decides and the response's
``chosen_by`` says ``rules (fallback: ...)``.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

LOG = logging.getLogger(__name__)


class OnnxOpponent:
    """An exported No Quarter policy seated at whichever side decides.

    Args:
        path: ``.onnx`` file (its ``.onnx.json`` sidecar must validate).
        default_tier: tier used when a request names none (None: greedy).

    Raises:
        ValueError: not an ``.onnx`` file, or the sidecar's env is not a No Quarter env;
            ``SidecarError`` (a ``ValueError``) when the sidecar's env id is not registered,
            its keyword arguments are refused or name no entry point (the server imports
            nothing a sidecar names), or its layout versions or action count differ from
            the env's.
    """

    def __init__(self, path: str | Path, default_tier: str | None = None) -> None:
        from wargym.agents.onnx_runner import OnnxPolicy
        from wargym.agents.tiers import TIERS
        from wargym.export_onnx import SidecarError, make_sidecar_env

        path = Path(path)
        if path.suffix != ".onnx":
            raise ValueError(f"{path.name}: the server loads .onnx policies only")
        if default_tier is not None and default_tier not in TIERS:
            raise ValueError(f"unknown tier {default_tier!r}; one of {list(TIERS)}")
        self.path = path
        self.default_tier = default_tier
        self.policy = OnnxPolicy(path)
        side = self.policy.sidecar
        env = make_sidecar_env(side.env_id, side.env_kwargs)
        base = env.unwrapped
        if not (hasattr(base, "encoder") and hasattr(base, "codec")):
            env.close()
            raise SidecarError(
                "env_id", f"{side.env_id} is not a No Quarter env (no encoder/codec)"
            )
        self.encoder, self.codec = base.encoder, base.codec
        env.close()
        if self.encoder.version != side.observation_version:
            raise SidecarError(
                "observation_version",
                f"env encodes {self.encoder.version}; the sidecar says {side.observation_version}",
            )
        codec_version = getattr(self.codec, "version", None) or getattr(
            sys.modules[type(self.codec).__module__], "ACTION_VERSION", None
        )
        if codec_version is not None and codec_version != side.action_version:
            raise SidecarError(
                "action_version",
                f"env's codec is {codec_version}; the sidecar says {side.action_version}",
            )
        if getattr(self.codec, "n", side.n_actions) != side.n_actions:
            raise SidecarError(
                "n_actions", f"env's codec has {self.codec.n} actions; sidecar {side.n_actions}"
            )

    def describe(self) -> dict[str, Any]:
        """What ``info`` reports about the loaded policy."""
        side = self.policy.sidecar
        return {
            "file": self.path.name,
            "sha256": side.sha256,
            "digest": side.digest,
            "env_id": side.env_id,
            "observation_version": side.observation_version,
            "action_version": side.action_version,
            "default_tier": self.default_tier,
        }

    def choose(
        self, battle: Any, legal: list[Any], tier_name: str | None, rng: np.random.Generator
    ) -> tuple[Any, str]:
        """``(action, chosen_by)`` for the pending decision of ``battle``."""
        from wargym.agents.tiers import TIERS, choose_index

        from .protocol import _rules_choice

        name = tier_name or self.default_tier
        try:
            side = battle.decision.side
            mask = self.codec.mask(battle)
            if not mask.any():
                raise ValueError("the policy's action layout covers no legal option here")
            obs = self.encoder.encode(battle, side)
            if name is None:
                index: int | None = self.policy.act(obs, mask)
            else:
                logits = self.policy.logits(obs, mask)
                index = choose_index(logits, mask, TIERS[name], rng)
            if index is None:
                return _rules_choice(battle, legal, rng), f"rules (tier {name})"
            action = self.codec.decode(int(index), battle)
            if action not in legal:
                raise ValueError(f"index {index} decodes to {action}, which is not legal")
        except (ValueError, KeyError, IndexError) as exc:
            LOG.warning("policy could not play this position: %s", exc)
            return _rules_choice(battle, legal, rng), f"rules (fallback: {exc})"[:200]
        return action, "onnx" if name is None else f"onnx (tier {name})"
