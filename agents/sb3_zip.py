"""Load an SB3 / sb3-contrib checkpoint zip for inference without unpickling anything.

A checkpoint's ``data`` member is JSON in which SB3 stores what JSON cannot hold (the policy
class, its keyword arguments, the spaces, schedules, buffers) as base64 *cloudpickle* blobs
(``":serialized:"``). ``PPO.load`` unpickles them, and unpickling runs whatever code the file
chose. :func:`load_checkpoint` instead passes SB3 a ``custom_objects`` entry for **every**
serialized key, so SB3 deserializes none of them (``json_to_data`` uses a custom object in
place of the blob). The replacements are rebuilt from the plain text SB3 writes beside each
blob, through allow-lists only:

* the policy class from ``__module__`` and its methods' names, among :data:`POLICY_CLASSES`;
* ``policy_kwargs`` from literals (``ast.literal_eval``) and classes in :data:`KWARG_CLASSES`;
* the spaces (``Box``, ``Discrete``, a ``Dict`` of those) from shapes, dtypes and bounds;
* schedules from their constant (``ConstantSchedule(val=...)``), else 0: no training here;
* anything else (buffers, the last observation, episode buffers) as ``None``.

The weights (``policy.pth``) are read by SB3 with ``torch.load(weights_only=True)``, which
builds tensors only. A file that needs anything outside the allow-lists is refused with
:class:`CheckpointError` (docs/bad_input.md, section 5). torch and SB3 are imported lazily.
"""

from __future__ import annotations

import ast
import json
import math
import re
import zipfile
from pathlib import Path
from typing import Any

from wargym.rules.errors import short_repr

MAX_DATA_BYTES = 64 << 20
"""Largest ``data`` member read (the shipped policy's is about 40 kB)."""

POLICY_CLASSES: dict[tuple[str, str], tuple[str, str]] = {
    (mod, name): (mod, name)
    for mod, names in (
        ("wargym.agents.neural.af_policy", ("ActionFeaturePolicy",)),
        (
            "sb3_contrib.common.maskable.policies",
            (
                "MaskableActorCriticPolicy",
                "MaskableActorCriticCnnPolicy",
                "MaskableMultiInputActorCriticPolicy",
            ),
        ),
        (
            "stable_baselines3.common.policies",
            ("ActorCriticPolicy", "ActorCriticCnnPolicy", "MultiInputActorCriticPolicy"),
        ),
    )
    for name in names
}
"""``(module, class)`` pairs a checkpoint's ``policy_class`` may be (imported from here)."""

KWARG_CLASSES: dict[str, tuple[str, str]] = {
    **{
        f"torch.nn.modules.activation.{n}": ("torch.nn", n)
        for n in ("Tanh", "ReLU", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Softplus")
    },
    **{f"torch.optim.{n.lower()}.{n}": ("torch.optim", n) for n in ("Adam", "AdamW", "RMSprop")},
    **{
        f"stable_baselines3.common.torch_layers.{n}": ("stable_baselines3.common.torch_layers", n)
        for n in ("FlattenExtractor", "CombinedExtractor", "NatureCNN")
    },
}
"""Classes a checkpoint's ``policy_kwargs`` may name (``"<class '...'>"`` in its text)."""

_DTYPES = {"float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8", "bool"}
_SCHEDULE_KEYS = {"learning_rate": 0.0, "lr_schedule": 0.0, "clip_range": 0.2}
_CLASS_TEXT = re.compile(r"<class '([A-Za-z0-9_.]+)'>")


class CheckpointError(ValueError):
    """A checkpoint zip cannot be loaded without running code from it, or is no checkpoint."""


def read_data(path: str | Path) -> dict[str, Any]:
    """The checkpoint's ``data`` member as JSON (nothing deserialized).

    Raises:
        CheckpointError: not a zip, no ``data`` member, too large, not a JSON object.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("data")
            if info.file_size > MAX_DATA_BYTES:
                raise CheckpointError(f"{path.name}: its data member is {info.file_size} bytes")
            data = json.loads(archive.read(info).decode("utf-8"))
    except KeyError:
        raise CheckpointError(f"{path.name}: no 'data' member; not an SB3 checkpoint") from None
    except (zipfile.BadZipFile, OSError, ValueError, RecursionError) as exc:
        if isinstance(exc, CheckpointError):
            raise
        raise CheckpointError(
            f"{path.name}: not a readable SB3 checkpoint zip: {short_repr(str(exc))}"
        ) from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path.name}: its data is not a JSON object")
    return data


def safe_custom_objects(data: dict[str, Any], where: str = "checkpoint") -> dict[str, Any]:
    """A replacement for every serialized entry of ``data`` (see the module docstring).

    Raises:
        CheckpointError: an entry needs a class outside the allow-lists, or unreadable text.
    """
    out: dict[str, Any] = {"n_steps": 1, "n_envs": 1}  # inference: no big rollout buffer
    for key, value in data.items():
        if not (isinstance(value, dict) and ":serialized:" in value):
            continue
        if key == "policy_class":
            out[key] = _policy_class(value, where)
        elif key == "policy_kwargs":
            out[key] = _policy_kwargs(value, where)
        elif key in ("observation_space", "action_space"):
            out[key] = _space(value, f"{where}: {key}")
        elif key in _SCHEDULE_KEYS:
            out[key] = _constant(value, _SCHEDULE_KEYS[key])
        else:  # buffers, last observation, clip_range_vf, ...: not needed to predict
            out[key] = None
    for key in ("policy_class", "observation_space", "action_space"):
        if key not in data:
            raise CheckpointError(f"{where}: no {key} in its data")
        if key not in out:
            raise CheckpointError(f"{where}: {key} is not a serialized entry")
    return out


def load_checkpoint(path: str | Path, algorithm: Any = None) -> Any:
    """``algorithm.load`` (default sb3-contrib ``MaskablePPO``) on CPU, nothing unpickled.

    Raises:
        CheckpointError: as :func:`read_data` and :func:`safe_custom_objects`, or SB3 could
            not build the model from it.
    """
    if algorithm is None:
        from sb3_contrib import MaskablePPO

        algorithm = MaskablePPO
    path = Path(path)
    custom = safe_custom_objects(read_data(path), path.name)
    try:
        return algorithm.load(path, device="cpu", custom_objects=custom)
    except Exception as exc:  # SB3/torch errors of a damaged or mismatched file
        raise CheckpointError(
            f"{path.name}: {algorithm.__name__} cannot load it: "
            f"{type(exc).__name__}: {short_repr(str(exc), 200)}"
        ) from None


# -- the allow-listed rebuilds ------------------------------------------------------------
def _import(module: str, name: str) -> Any:
    import importlib

    return getattr(importlib.import_module(module), name)  # constants of this file only


def _policy_class(entry: dict[str, Any], where: str) -> Any:
    module = str(entry.get("__module__"))
    owners = {
        m.group(1)
        for v in entry.values()
        if isinstance(v, str) and (m := re.match(r"<function (\w+)\.", v))
    }
    if len(owners) == 1 and (module, next(iter(owners))) in POLICY_CLASSES:
        return _import(*POLICY_CLASSES[(module, owners.pop())])
    raise CheckpointError(
        f"{where}: policy class {short_repr(module)}.{short_repr(sorted(owners))} is not one "
        "wargym loads without unpickling (agents/sb3_zip.py POLICY_CLASSES)"
    )


def _policy_kwargs(entry: dict[str, Any], where: str) -> dict[str, Any]:
    if entry.get(":type:") != "<class 'dict'>":
        raise CheckpointError(f"{where}: policy_kwargs is a {short_repr(entry.get(':type:'))}")
    out: dict[str, Any] = {}
    for key, text in entry.items():
        if key.startswith(":"):
            continue
        match = _CLASS_TEXT.fullmatch(str(text))
        if match is not None:
            if match.group(1) not in KWARG_CLASSES:
                raise CheckpointError(
                    f"{where}: policy_kwargs.{key} names {short_repr(match.group(1))}, not "
                    "an allowed class (agents/sb3_zip.py KWARG_CLASSES)"
                )
            out[key] = _import(*KWARG_CLASSES[match.group(1)])
            continue
        try:
            out[key] = ast.literal_eval(str(text))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise CheckpointError(
                f"{where}: policy_kwargs.{key} = {short_repr(text)} is not a literal"
            ) from None
    return out


def _constant(entry: dict[str, Any], default: float) -> float:
    match = re.fullmatch(r"ConstantSchedule\(val=([-+0-9.eE]+)\)", str(entry.get("value_schedule")))
    try:
        return float(match.group(1)) if match else default
    except ValueError:
        return default


def _space(entry: dict[str, Any], where: str) -> Any:
    from gymnasium import spaces

    kind = entry.get(":type:")
    if kind == "<class 'gymnasium.spaces.discrete.Discrete'>":
        return spaces.Discrete(
            _int(entry.get("n"), where), start=_int(entry.get("start", 0), where)
        )
    if kind == "<class 'gymnasium.spaces.box.Box'>":
        return _box(
            _shape(str(entry.get("_shape")), where),
            str(entry.get("dtype")),
            str(entry.get("low")),
            str(entry.get("high")),
            where,
        )
    if kind == "<class 'gymnasium.spaces.dict.Dict'>":
        text = str(entry.get("spaces"))
        part = r"'(\w+)': (?:Box\(([^,()]+), ([^,()]+), \(([\d, ]*)\), (\w+)\)|Discrete\((\d+)\))"
        if not re.fullmatch(r"\{(" + part + r"(, )?)*\}", text):
            raise CheckpointError(f"{where}: cannot read the Dict space {short_repr(text)}")
        subspaces: dict[str, Any] = {}
        for name, low, high, shape, dtype, n in re.findall(part, text):
            subspaces[name] = (
                spaces.Discrete(int(n))
                if n
                else _box(_shape(shape, where), dtype, low, high, where)
            )
        return spaces.Dict(subspaces)
    raise CheckpointError(f"{where}: space type {short_repr(kind)} is not Box, Discrete or Dict")


def _int(text: Any, where: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise CheckpointError(f"{where}: {short_repr(text)} is not an integer") from None


def _shape(text: str, where: str) -> tuple[int, ...]:
    text = text.strip()
    if not re.fullmatch(r"[(\[]?\s*(\d+\s*,?\s*)*[)\]]?", text):
        raise CheckpointError(f"{where}: cannot read the shape {short_repr(text)}")
    shape = tuple(int(d) for d in re.findall(r"\d+", text))
    if not shape or math.prod(shape) > 1 << 26:
        raise CheckpointError(f"{where}: shape {short_repr(text)} is empty or too large")
    return shape


def _box(shape: tuple[int, ...], dtype: str, low: str, high: str, where: str) -> Any:
    import numpy as np
    from gymnasium import spaces

    if dtype not in _DTYPES:
        raise CheckpointError(f"{where}: dtype {short_repr(dtype)} is not a plain numeric dtype")
    kind = np.dtype(dtype)
    if kind.kind == "f":
        lo_default, hi_default = -np.inf, np.inf
    elif kind.kind == "b":
        lo_default, hi_default = 0, 1
    else:
        lo_default, hi_default = np.iinfo(kind).min, np.iinfo(kind).max
    lo = _bound(low, shape, lo_default)
    hi = _bound(high, shape, hi_default)
    try:
        return spaces.Box(low=lo.astype(kind), high=hi.astype(kind), shape=shape, dtype=kind)
    except (ValueError, TypeError) as exc:
        raise CheckpointError(f"{where}: bounds do not fit: {short_repr(str(exc))}") from None


def _bound(text: str, shape: tuple[int, ...], default: float) -> Any:
    """A bound array from SB3's text (a scalar or a full array), else ``default`` everywhere."""
    import numpy as np

    tokens = text.replace("[", " ").replace("]", " ").split()
    try:
        values = [float(t) for t in tokens]
    except ValueError:  # "...", "None": numpy summarised the array
        values = []
    if len(values) == 1:
        return np.full(shape, values[0])
    if len(values) == math.prod(shape):
        return np.asarray(values).reshape(shape)
    return np.full(shape, default)
