"""The server's learned opponent: an ONNX policy played through its env's encoder and codec.

:class:`OnnxOpponent` loads only ``.onnx`` files (with their validated sidecar, via
:class:`wargym.agents.onnx_runner.OnnxPolicy`); it never reads a pickle or an SB3 zip. The
env named by the sidecar is built once to borrow its observation encoder and action codec,
so a submitted battle is encoded exactly as in training, from the deciding side's view.
When the policy cannot be used for a position the rules' NP procedure decides and the
response's ``chosen_by`` says why in words: ``rules (fallback: the policy has 3 mech slots,
this side has 6 mechs)``, ``... none of the 4 legal actions fits the policy's action
layout``, ``... the policy chose index 12 (...), which is not legal now`` or ``... the policy
could not read this position (KeyError: ...)``.

The server keeps no game, so the advisor inside the observation (its sighting memory) starts
afresh for every request: nothing one client sent shapes another's answers. One lock
serialises the policy's calls (the HTTP server answers requests on worker threads).
"""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np

from .validation import clip

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
        self.lock = threading.Lock()
        self.policy = OnnxPolicy(path)
        self._learned: Any = None  # the LearnedAgent of the local view, loaded when first needed
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
        from .protocol import _rules_choice

        with self.lock:
            try:
                found = self._policy_choice(battle, legal, tier_name, rng)
            except _UnplayableError as why:
                reason = str(why)
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                reason = f"the policy could not read this position ({type(exc).__name__}: " \
                    f"{clip(str(exc), 80, quote=False)})"  # fmt: skip
            else:
                return found
        LOG.info("policy could not play this position: %s", reason)  # said in chosen_by
        return _rules_choice(battle, legal, rng), f"rules (fallback: {reason})"[:300]

    def _policy_choice(
        self, battle: Any, legal: list[Any], tier_name: str | None, rng: np.random.Generator
    ) -> tuple[Any, str]:
        from wargym.agents.tiers import TIERS, choose_index

        from .protocol import _rules_choice

        name = tier_name or self.default_tier
        side = battle.decision.side
        advisor = getattr(self.encoder, "advisor", None)
        if advisor is not None:
            advisor.reset()  # no memory carried over from another request
        beyond = self._beyond_slots(battle, side)
        if beyond is not None:
            return self._local_view_choice(battle, legal, side, beyond, rng)
        mask = self.codec.mask(battle)
        if not mask.any():
            plural = "action fits" if len(legal) == 1 else "actions fits"
            raise _UnplayableError(
                f"none of the {len(legal)} legal {plural} the policy's action layout"
            )
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
            raise _UnplayableError(
                f"the policy chose index {index} ({clip(str(action), 60, quote=False)}), "
                "which is not legal now"
            )
        return action, "onnx" if name is None else f"onnx (tier {name})"

    def _local_view_choice(
        self, battle: Any, legal: list[Any], side: Any, beyond: str, rng: np.random.Generator
    ) -> tuple[Any, str]:
        """A battle larger than the policy's slots: the policy decides in a local view.

        As ``wargym demo`` and ``wargym play`` seat it in a mission
        (:class:`wargym.agents.battle_policy.PolicyPlayer`): the deciding mech and its nearest
        friends and enemies fill the slots; a choice outside that view (or an index the view
        cannot play) goes to the book's procedure. Greedy: tiers apply to the full view only.
        """
        from wargym.agents.battle_policy import PolicyPlayer

        if self._learned is None:
            from wargym.agents.learned import LearnedAgent

            self._learned = LearnedAgent(self.path)
        player = PolicyPlayer(self._learned, rng=int(rng.integers(2**63)))
        action = player.act_engine(battle, legal, side)
        if player.counts["policy"]:
            return action, "onnx (local view)"
        reason = f"{beyond}, and this choice lies outside the policy's local view"
        return action, f"rules (fallback: {reason})"[:300]

    def _beyond_slots(self, battle: Any, side: Any) -> str | None:
        """Why the policy cannot see this battle whole (more mechs than its slots), or None.

        The observation and the action layout number each side's mechs, removed ones too, in
        slots; mechs beyond them would be invisible to the policy.
        """
        slots = getattr(self.codec, "max_mechs", None)
        if slots is None:
            return None
        own = sum(m.side is side for m in battle.mechs.values())
        other = len(battle.mechs) - own
        if own > slots:
            return f"the policy has {slots} mech slots, this side has {own} mechs"
        if other > slots:
            return f"the policy has {slots} enemy mech slots, the other side has {other} mechs"
        return None


class _UnplayableError(Exception):
    """The policy cannot play this position; the message says why in words."""
