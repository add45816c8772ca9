"""Export a trained MaskablePPO policy to ONNX with a validated sidecar JSON.

``python -m wargym.export_onnx CHECKPOINT OUT.onnx [--env-id ID] [--env-kwargs JSON]``
(and ``wargym export-onnx`` once the top-level CLI dispatches here) loads an sb3-contrib
``MaskablePPO`` zip (torch and sb3-contrib are imported lazily, extra ``[train]``), writes a
graph whose inputs are ``observation`` (float32, ``(batch, obs)``) and ``action_mask``
(float32 0/1, ``(batch, n)``) and whose outputs are ``action`` (int64, the arg-max of the
masked logits) and ``logits`` (masked: illegal entries are -1e8); the batch dimension is
dynamic. The graph is built by :mod:`wargym.agents.neural.export` (shared with
``training/ship_model.py`` and :class:`wargym.agents.learned.LearnedAgent`, which feed the
input named ``observation``).

Beside ``OUT.onnx`` it writes ``OUT.onnx.json`` (:data:`SIDECAR_FORMAT`): the observation and
action layout versions read from the env, shapes and dtypes, the env id and keyword
arguments, the wargym version, the sha256 of the ONNX file and the ``digest`` of the sidecar
itself (:func:`sidecar_digest`, which covers the graph's sha256 too). :func:`validate_sidecar`
checks one strictly (needs only the standard library) and raises :class:`SidecarError`
naming the offending field; the torch-free runner (:mod:`wargym.agents.onnx_runner`) and the
opponent server call it before loading a graph.

A sidecar is data a user may download: its ``env_kwargs`` name hooks (``battle_factory``,
``advisor``) by entry-point name (``"mirror_skirmish"``, :mod:`wargym.agents.entry_points`),
never by import path, and nothing it says is imported or called. The checkpoint zip is read
without unpickling its ``data`` (:mod:`wargym.agents.sb3_zip`).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargym import cli_args
from wargym.rules.errors import short_repr

SIDECAR_FORMAT = "wargym-onnx-sidecar/2"
"""Value of the sidecar's ``format`` field; bumped on any incompatible change."""
READABLE_FORMATS = ("wargym-onnx-sidecar/1", SIDECAR_FORMAT)
"""Formats this reader accepts: /1 had no ``digest`` and named the package's own hooks by
import path (read through :data:`wargym.agents.entry_points.LEGACY_NAMES`)."""

INPUT_NAMES = ("observation", "action_mask")
"""Graph inputs, in order."""
OUTPUT_NAMES = ("action", "logits")
"""Graph outputs, in order."""
MASKED_LOGIT = -1e8
"""Value the graph writes into the logits of illegal indices."""
MAX_SIDECAR_BYTES = 1 << 20
"""Largest sidecar or model card read (the shipped ones are under 2 kB)."""
DEFAULT_ENV_ID = "wargym/NoQuarter-Skirmish-v1"
"""Env assumed when neither ``--env-id`` nor a checkpoint sidecar names one."""

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "onnx_file": str,
    "sha256": str,
    "env_id": str,
    "env_kwargs": dict,
    "observation_version": str,
    "action_version": str,
    "obs_shape": list,
    "obs_dtype": str,
    "n_actions": int,
    "inputs": list,
    "outputs": list,
    "mask_dtype": str,
    "policy": str,
    "dict_observation": bool,
    "wargym_version": str,
    "source": dict,
    "digest": str,
}
_OPTIONAL = {"source", "digest"}


class SidecarError(ValueError):
    """A sidecar JSON is malformed; ``field`` names the offending key (dotted path)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"sidecar field {field!r}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Sidecar:
    """A validated sidecar: what a runner needs to feed an exported policy."""

    env_id: str
    """Gymnasium id of the env the policy plays."""
    env_kwargs: Mapping[str, Any]
    """Keyword arguments of ``gymnasium.make`` for that env."""
    observation_version: str
    """Layout of the observation vector (e.g. ``nq-obs-v3``)."""
    action_version: str
    """Layout of the action indices (e.g. ``nq-act-v2``)."""
    obs_shape: tuple[int, ...]
    """Shape of one observation (without the batch dimension)."""
    n_actions: int
    """Length of the action mask and of the logits."""
    sha256: str
    """Digest of the ONNX file."""
    onnx_file: str
    """File name of the graph (same folder as the sidecar)."""
    wargym_version: str
    """Version of wargym that exported it."""
    digest: str | None
    """:func:`sidecar_digest` of the sidecar (``None`` in format /1, which had none)."""
    raw: Mapping[str, Any]
    """The whole JSON object."""


def sha256_of(path: str | Path) -> str:
    """Hex sha256 digest of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def sidecar_path(onnx_path: str | Path) -> Path:
    """``OUT.onnx`` -> ``OUT.onnx.json``."""
    path = Path(onnx_path)
    return path.with_name(path.name + ".json")


def sidecar_digest(data: Mapping[str, Any]) -> str:
    """sha256 of the sidecar's canonical JSON without its ``digest`` (so of the graph's too)."""
    body = {k: v for k, v in data.items() if k != "digest"}
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SidecarError("<root>", f"not JSON data: {short_repr(str(exc))}") from None
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def validate_sidecar(
    data: Any, onnx_path: str | Path | None = None, *, allow: Mapping[str, Any] | None = None
) -> Sidecar:
    """Check a sidecar object strictly; with ``onnx_path``, also the file's sha256.

    ``env_kwargs`` hooks must be entry-point names (or, in format /1, the package's own
    legacy import paths); ``allow`` (``{name: object}``) adds a caller's own names. The
    returned ``env_kwargs`` hold the names; nothing is imported.

    Raises:
        SidecarError: a missing, unknown or mistyped field, a wrong format, a bad digest,
            an ``env_kwargs`` hook that names no entry point (field ``env_kwargs.<key>``).
    """
    if not isinstance(data, dict):
        raise SidecarError("<root>", f"expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise SidecarError(unknown[0], f"unknown field (known: {sorted(_FIELDS)})")
    for name, kind in _FIELDS.items():
        if name not in data:
            if name in _OPTIONAL:
                continue
            raise SidecarError(name, "missing")
        value = data[name]
        if isinstance(value, bool) and kind is not bool:
            raise SidecarError(name, f"expected {_kind_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise SidecarError(name, f"expected {_kind_name(kind)}, got {type(value).__name__}")
    if data["format"] not in READABLE_FORMATS:
        raise SidecarError(
            "format", f"{short_repr(data['format'])}; this reader knows {list(READABLE_FORMATS)}"
        )
    if not re.fullmatch(r"[0-9a-f]{64}", data["sha256"]):
        raise SidecarError("sha256", "expected 64 lowercase hex digits")
    shape = data["obs_shape"]
    if not shape or not all(_is_int(d) and d > 0 for d in shape):
        raise SidecarError("obs_shape", f"expected positive integers, got {short_repr(shape)}")
    if data["n_actions"] < 1:
        raise SidecarError("n_actions", f"expected >= 1, got {data['n_actions']}")
    if data["obs_dtype"] != "float32":
        raise SidecarError("obs_dtype", f"expected 'float32', got {short_repr(data['obs_dtype'])}")
    if data["mask_dtype"] != "float32":
        raise SidecarError(
            "mask_dtype", f"expected 'float32', got {short_repr(data['mask_dtype'])}"
        )
    if data["inputs"] != list(INPUT_NAMES):
        raise SidecarError(
            "inputs", f"expected {list(INPUT_NAMES)}, got {short_repr(data['inputs'])}"
        )
    if data["outputs"] != list(OUTPUT_NAMES):
        raise SidecarError(
            "outputs", f"expected {list(OUTPUT_NAMES)}, got {short_repr(data['outputs'])}"
        )
    for key in ("env_id", "observation_version", "action_version", "onnx_file"):
        if not data[key]:
            raise SidecarError(key, "must not be empty")
    if not re.fullmatch(r"[A-Za-z0-9_./-]{1,200}", data["env_id"]):  # gymnasium imports "m:id"
        raise SidecarError("env_id", f"{short_repr(data['env_id'])} is not a registered env id")
    if any(not isinstance(k, str) for k in data["env_kwargs"]):
        raise SidecarError("env_kwargs", "keys must be strings")
    env_kwargs = named_env_kwargs(data["env_kwargs"], allow)
    if onnx_path is not None:
        path = Path(onnx_path)
        if not path.is_file():
            raise SidecarError("onnx_file", f"{path} does not exist")
        actual = sha256_of(path)
        if actual != data["sha256"]:
            raise SidecarError("sha256", f"{path.name} has digest {actual}, sidecar says otherwise")
    if data["format"] == SIDECAR_FORMAT and "digest" not in data:
        raise SidecarError("digest", "missing")
    if "digest" in data:
        if not re.fullmatch(r"[0-9a-f]{64}", data["digest"]):
            raise SidecarError("digest", "expected 64 lowercase hex digits")
        if data["digest"] != sidecar_digest(data):
            raise SidecarError("digest", "the sidecar was changed after export (digest differs)")
    return Sidecar(
        env_id=data["env_id"],
        env_kwargs=env_kwargs,
        observation_version=data["observation_version"],
        action_version=data["action_version"],
        obs_shape=tuple(int(d) for d in shape),
        n_actions=int(data["n_actions"]),
        sha256=data["sha256"],
        onnx_file=data["onnx_file"],
        wargym_version=data["wargym_version"],
        digest=data.get("digest"),
        raw=data,
    )


def named_env_kwargs(
    env_kwargs: Mapping[str, Any], allow: Mapping[str, Any] | None = None, field: str = "env_kwargs"
) -> dict[str, Any]:
    """A copy of a file's env kwargs whose hooks are entry-point names (legacy paths mapped).

    Raises:
        SidecarError: a hook names no entry point (field ``<field>.<key>``); nothing imported.
    """
    from wargym.agents.entry_points import CALLABLE_KEYS, EntryPointError, canonical_name

    out = dict(env_kwargs)
    for key in CALLABLE_KEYS:
        if out.get(key) is not None:
            try:
                out[key] = canonical_name(key, out[key], allow)
            except EntryPointError as exc:
                raise SidecarError(f"{field}.{key}", str(exc)) from None
    return out


def make_sidecar_env(
    env_id: str,
    env_kwargs: Mapping[str, Any],
    allow: Mapping[str, Any] | None = None,
    field: str = "env_kwargs",
) -> Any:
    """``gymnasium.make`` of the env a sidecar (or model card) names, its hooks resolved.

    Raises:
        SidecarError: an unknown env id (field ``env_id``), a hook that names no entry
            point, or keyword arguments the env refuses (field ``env_kwargs``).
    """
    import gymnasium  # noqa: TID251 (a layer above envs)

    import wargym.envs  # noqa: F401  (registers the ids)
    from wargym.agents.entry_points import resolve_callables

    if not isinstance(env_id, str) or ":" in env_id or env_id not in gymnasium.registry:
        raise SidecarError("env_id", f"{short_repr(env_id)} is not a registered env id")
    kwargs = resolve_callables(named_env_kwargs(env_kwargs, allow, field), allow)
    try:
        return gymnasium.make(env_id, **kwargs)
    except gymnasium.error.Error as exc:  # NameNotFound, VersionNotFound, ...
        raise SidecarError("env_id", f"{short_repr(env_id)}: {_cut(exc)}") from None
    except (TypeError, ValueError) as exc:  # unknown keyword, EnvArgumentError, ...
        raise SidecarError(field, f"{short_repr(env_id)} refuses them: {_cut(exc)}") from None


def read_sidecar(onnx_path: str | Path, *, allow: Mapping[str, Any] | None = None) -> Sidecar:
    """Read and validate ``OUT.onnx.json`` against ``OUT.onnx`` (``allow``: see validate).

    Raises:
        SidecarError: missing, unreadable or invalid sidecar (``field`` ``<file>`` when the
            file itself is the problem).
    """
    side = sidecar_path(onnx_path)
    if not side.exists():
        raise SidecarError("<file>", f"no sidecar {side.name} beside the ONNX file")
    return validate_sidecar(read_json_file(side), onnx_path, allow=allow)


def read_json_file(path: str | Path) -> Any:
    """A small JSON file (sidecar, model card): at most :data:`MAX_SIDECAR_BYTES`.

    Raises:
        SidecarError: (field ``<file>``) unreadable, too large, not UTF-8 JSON.
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SIDECAR_BYTES + 1)
    except OSError as exc:
        raise SidecarError("<file>", f"{path.name} is not readable: {_cut(exc)}") from None
    if len(raw) > MAX_SIDECAR_BYTES:
        raise SidecarError("<file>", f"{path.name} is over {MAX_SIDECAR_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise SidecarError("<file>", f"{path.name} is not readable JSON: {_cut(exc)}") from None


def layout_versions(env: Any, env_id: str) -> tuple[str, str]:
    """(observation, action) layout versions of a made env.

    No Quarter envs name theirs (``encoder.version``, ``codec.ACTION_VERSION``); envs
    without a version string get ``"<env_id>:obs"`` / ``"<env_id>:act"`` (the env id's
    ``vN`` is then the version, as the registry's versioning rules say).
    """
    base = getattr(env, "unwrapped", env)
    encoder = getattr(base, "encoder", None)
    obs_version = getattr(encoder, "version", None)
    codec = getattr(base, "codec", None)
    act_version = None
    if codec is not None:
        module = sys.modules.get(type(codec).__module__)
        act_version = getattr(codec, "version", None) or getattr(module, "ACTION_VERSION", None)
    return (
        str(obs_version) if obs_version else f"{env_id}:obs",
        str(act_version) if act_version else f"{env_id}:act",
    )


def build_sidecar(
    onnx_path: str | Path,
    *,
    env_id: str,
    env_kwargs: Mapping[str, Any],
    observation_version: str,
    action_version: str,
    obs_shape: Sequence[int],
    n_actions: int,
    policy: str,
    dict_observation: bool,
    source: Mapping[str, Any] | None = None,
    allow: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The sidecar object of an exported graph (validated before it is returned).

    Hooks in ``env_kwargs`` (objects, names or legacy paths) are recorded by name.
    """
    from wargym import __version__
    from wargym.agents.entry_points import EntryPointError, named_kwargs

    data: dict[str, Any] = {
        "format": SIDECAR_FORMAT,
        "onnx_file": Path(onnx_path).name,
        "sha256": sha256_of(onnx_path),
        "env_id": env_id,
        "env_kwargs": {},
        "observation_version": observation_version,
        "action_version": action_version,
        "obs_shape": [int(d) for d in obs_shape],
        "obs_dtype": "float32",
        "n_actions": int(n_actions),
        "inputs": list(INPUT_NAMES),
        "outputs": list(OUTPUT_NAMES),
        "mask_dtype": "float32",
        "policy": policy,
        "dict_observation": bool(dict_observation),
        "wargym_version": __version__,
    }
    if source is not None:
        data["source"] = dict(source)
    try:
        data["env_kwargs"] = named_kwargs(env_kwargs, allow)
    except EntryPointError as exc:
        raise SidecarError(f"env_kwargs.{exc.key}", str(exc)) from None
    data["digest"] = sidecar_digest(data)
    validate_sidecar(data, onnx_path, allow=allow)
    return data


def export(
    checkpoint: str | Path,
    out: str | Path,
    *,
    env_id: str | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
    check: int = 200,
    seed: int = 0,
    allow: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Export ``checkpoint`` (a MaskablePPO zip) to ``out`` and write its sidecar.

    The env (``env_id`` / ``env_kwargs``, else the checkpoint's ``<stem>.json`` model card,
    else :data:`DEFAULT_ENV_ID`) is made once to read its layout versions and to check that
    its spaces match the policy's. ``check`` random observation/mask pairs are compared
    between onnxruntime and ``model.predict`` (0 skips).

    Returns:
        ``(onnx path, sidecar path)``.

    The checkpoint is read without unpickling anything
    (:func:`wargym.agents.sb3_zip.load_checkpoint`); the env's hooks are entry-point names
    (``allow`` adds a caller's own, ``{name: object}``).

    Returns:
        ``(onnx path, sidecar path)``.

    Raises:
        CheckpointError: (``wargym.agents.sb3_zip``) the zip is no loadable checkpoint, needs
            unpickling, or its spaces differ from the env's.
        SidecarError: the env id or keyword arguments (given or from the model card) name no
            registered env, no entry point, or arguments the env refuses.
        AssertionError: onnxruntime and torch disagree on a check input.
    """
    import numpy as np
    from gymnasium import spaces  # noqa: TID251 (a layer above envs)

    from wargym.agents.neural.export import export_onnx
    from wargym.agents.sb3_zip import CheckpointError, load_checkpoint

    checkpoint = Path(checkpoint)
    if not checkpoint.is_file() and checkpoint.with_name(checkpoint.name + ".zip").is_file():
        checkpoint = checkpoint.with_name(checkpoint.name + ".zip")
    card = _model_card(checkpoint)
    env_id = env_id or card.get("env_id") or DEFAULT_ENV_ID
    kwargs = dict(env_kwargs if env_kwargs is not None else card.get("env_kwargs") or {})
    if not isinstance(env_id, str):
        raise SidecarError("env_id", f"expected a string, got {short_repr(env_id)}")
    kwargs = named_env_kwargs(kwargs, allow)  # refused before anything is loaded
    model = load_checkpoint(checkpoint)
    space: Any = model.observation_space
    dict_obs = isinstance(space, spaces.Dict)
    obs_shape = tuple(int(d) for d in (space["observation"] if dict_obs else space).shape)
    n_actions = int(getattr(model.action_space, "n", -1))
    env = make_sidecar_env(env_id, kwargs, allow)
    try:
        env_space: Any = env.observation_space
        env_obs: Any = env_space["observation"] if isinstance(env_space, spaces.Dict) else env_space
        env_n = int(getattr(env.action_space, "n", -1))
        if tuple(env_obs.shape) != obs_shape or env_n != n_actions:
            raise CheckpointError(
                f"{env_id} with {short_repr(kwargs)} has observation {tuple(env_obs.shape)} "
                f"and {env_n} actions; the policy expects {obs_shape} and {n_actions}"
            )
        obs_version, act_version = layout_versions(env, env_id)
    finally:
        env.close()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(model, out, check=check, seed=seed)
    data = build_sidecar(
        out,
        env_id=env_id,
        env_kwargs=kwargs,
        observation_version=obs_version,
        action_version=act_version,
        obs_shape=(int(np.prod(obs_shape)),),
        n_actions=n_actions,
        policy=type(model.policy).__name__,
        dict_observation=dict_obs,
        source={"checkpoint": checkpoint.name, "num_timesteps": int(model.num_timesteps)},
        allow=allow,
    )
    side = sidecar_path(out)
    side.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return out, side


def _model_card(checkpoint: Path) -> dict[str, Any]:
    card = checkpoint.with_suffix(".json")
    if not card.is_file():
        return {}
    data = read_json_file(card)
    if not isinstance(data, dict):
        raise SidecarError("<root>", f"{card.name}: expected a JSON object")
    return data


def _cut(error: BaseException, limit: int = 200) -> str:
    """An error's message, at most ``limit`` characters (it may quote a file's values)."""
    text = str(error)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "string", int: "integer", dict: "object", list: "array", bool: "boolean"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m wargym.export_onnx CHECKPOINT OUT.onnx`` (exit 2: bad input)."""
    prog = "wargym export-onnx"
    from wargym.export_cli import ExportArgs  # tyro loads only for the command line

    args = cli_args.tyro_cli(ExportArgs, argv, prog=prog, description=ExportArgs.__doc__ or "")
    kwargs = args.kwargs()
    checkpoint = Path(args.checkpoint)
    if not (checkpoint.is_file() or checkpoint.with_name(checkpoint.name + ".zip").is_file()):
        print(f"{prog}: error: checkpoint {cli_args.shown(args.checkpoint)}: no such file",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        from wargym.agents.sb3_zip import CheckpointError

        onnx_path, side = export(
            args.checkpoint, args.out, env_id=args.env_id, env_kwargs=kwargs,
            check=args.check,
        )  # fmt: skip
    except ImportError as exc:  # torch / sb3-contrib / onnx missing: an install problem
        print(f"{prog}: error: {exc} (install the [train,export] extras)", file=sys.stderr)
        return 2
    except (SidecarError, CheckpointError, OSError) as exc:  # bad input: one line, status 2
        print(f"{prog}: error: {cli_args.one_line(f'{type(exc).__name__}: {exc}')}",
              file=sys.stderr)  # fmt: skip
        return 2
    print(json.dumps({"onnx": str(onnx_path), "sidecar": str(side)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
