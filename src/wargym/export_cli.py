"""The options of ``wargym export-onnx`` (:func:`wargym.export_onnx.main`), for tyro.

A module of its own so that :mod:`wargym.export_onnx`, which the torch-free ONNX runner
imports, never loads tyro.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

from tyro.conf import Positional, arg

from wargym import cli_args
from wargym.cli_args import checked
from wargym.rules.errors import short_repr


def _json_object(text: str) -> str:
    """``--env-kwargs``: the text of a JSON object (a bad value is quoted, cut to 80 chars)."""
    import argparse

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{short_repr(text)} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{short_repr(text)} must be a JSON object")
    return text


@dataclass
class ExportArgs:
    """Export a MaskablePPO zip to ONNX + sidecar (``wargym export-onnx CHECKPOINT OUT``)."""

    checkpoint: Annotated[str, Positional, checked(cli_args.path, "CHECKPOINT")]
    """The checkpoint to export: an sb3-contrib MaskablePPO .zip."""
    out: Annotated[str, Positional, checked(cli_args.path, "OUT")]
    """Output .onnx path (the sidecar is OUT.onnx.json)."""
    env_id: Annotated[str | None, arg(metavar="ENV_ID")] = None
    """Gymnasium id of the policy's env (None: the checkpoint's model card, else
    wargym/NoQuarter-Skirmish-v1)."""
    env_kwargs: Annotated[str | None, checked(_json_object, "JSON")] = None
    """JSON object of gymnasium.make keyword arguments (None: the model card's)."""
    check: Annotated[int, checked(cli_args.int_in(0), "N")] = 200
    """Random observation/mask pairs compared between onnxruntime and torch (0: none)."""

    def kwargs(self) -> dict[str, Any] | None:
        """``--env-kwargs`` as a dict (None: not given)."""
        return None if self.env_kwargs is None else dict(json.loads(self.env_kwargs))
