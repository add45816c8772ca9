"""Torch-only code: policy network settings, loading SB3 policies, ONNX export.

Importing this package imports torch; every other module of ``wargym.agents`` imports it
lazily (inside functions), so ``wargym.agents`` works without the ``[train]`` extra.
"""

from __future__ import annotations

from typing import Any

import torch

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}
"""Activation names accepted by :func:`policy_kwargs`."""


def policy_kwargs(net_arch: list[int], activation: str = "tanh") -> dict[str, Any]:
    """SB3 ``policy_kwargs``: separate actor and critic MLPs of ``net_arch`` hidden sizes."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    return {
        "net_arch": {"pi": list(net_arch), "vf": list(net_arch)},
        "activation_fn": ACTIVATIONS[activation],
    }


def set_threads(n: int) -> None:
    """``torch.set_num_threads(n)`` (1 is fastest for small MLPs on 2 cores)."""
    torch.set_num_threads(max(1, int(n)))
