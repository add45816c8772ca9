"""Bad-input catalogue (issue 9): ONNX files and sidecars (docs/bad_input.md).

``OnnxPolicy`` (agents/onnx_runner.py) and ``validate_sidecar`` / ``read_sidecar``
(src/wargym/export_onnx.py) raise ``SidecarError`` (a ``ValueError`` whose ``field`` names
the offending key) for a missing, damaged or mismatched sidecar or graph, and never touch
the files.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.agents.learned import shipped_model

pytest.importorskip("onnxruntime")

from wargym.agents.onnx_runner import OnnxPolicy  # noqa: E402
from wargym.export_onnx import SidecarError  # noqa: E402


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    """A copy of the shipped ONNX policy and its sidecar."""
    source = shipped_model(".onnx")
    target = tmp_path / "p.onnx"
    shutil.copy(source, target)
    side = json.loads(Path(f"{source}.json").read_text(encoding="utf-8"))
    side["onnx_file"] = target.name
    (tmp_path / "p.onnx.json").write_text(json.dumps(side), encoding="utf-8")
    return target


def _edit(**changes: Any) -> Callable[[dict[str, Any]], None]:
    def apply(side: dict[str, Any]) -> None:
        for key, value in changes.items():
            if value is _DROP:
                del side[key]
            else:
                side[key] = value

    return apply


_DROP = object()
SIDECAR_ROWS = [
    ("format_v2", _edit(format="wargym-onnx-sidecar/2"), "format"),
    ("format_int", _edit(format=1), "format"),
    ("unknown_field", _edit(zz_extra=1), "zz_extra"),
    ("missing_n_actions", _edit(n_actions=_DROP), "n_actions"),
    ("missing_env_id", _edit(env_id=_DROP), "env_id"),
    ("sha256_not_hex", _edit(sha256="xyz"), "sha256"),
    ("sha256_other_digest", _edit(sha256="0" * 64), "sha256"),
    ("obs_shape_empty", _edit(obs_shape=[]), "obs_shape"),
    ("obs_shape_negative", _edit(obs_shape=[-1]), "obs_shape"),
    ("obs_shape_str", _edit(obs_shape=["x"]), "obs_shape"),
    ("obs_shape_wrong_width", _edit(obs_shape=[1692]), "obs_shape"),
    ("n_actions_zero", _edit(n_actions=0), "n_actions"),
    ("n_actions_bool", _edit(n_actions=True), "n_actions"),
    ("n_actions_wrong_width", _edit(n_actions=368), "n_actions"),
    ("obs_dtype", _edit(obs_dtype="float64"), "obs_dtype"),
    ("mask_dtype", _edit(mask_dtype="int8"), "mask_dtype"),
    ("inputs_swapped", _edit(inputs=["action_mask", "observation"]), "inputs"),
    ("outputs_missing", _edit(outputs=["action"]), "outputs"),
    ("env_id_empty", _edit(env_id=""), "env_id"),
    ("env_kwargs_list", _edit(env_kwargs=[]), "env_kwargs"),
    ("observation_version_int", _edit(observation_version=1), "observation_version"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [pytest.param(e, f, id=f"OnnxPolicy:{i}") for i, e, f in SIDECAR_ROWS]
)
def test_bad_sidecar_field_is_named(exported: Path, edit: Any, field: str) -> None:
    side_path = exported.with_name(exported.name + ".json")
    side = json.loads(side_path.read_text(encoding="utf-8"))
    edit(side)
    side_path.write_text(json.dumps(side), encoding="utf-8")
    before = (side_path.read_bytes(), exported.read_bytes())
    with pytest.raises(SidecarError) as info:
        OnnxPolicy(exported)
    assert info.value.field == field and field in str(info.value)
    assert (side_path.read_bytes(), exported.read_bytes()) == before


def test_missing_sidecar(exported: Path) -> None:
    exported.with_name(exported.name + ".json").unlink()
    with pytest.raises(SidecarError, match="no sidecar p.onnx.json") as info:
        OnnxPolicy(exported)
    assert info.value.field == "<file>"


def test_sidecar_not_json(exported: Path) -> None:
    exported.with_name(exported.name + ".json").write_text("{broken", encoding="utf-8")
    with pytest.raises(SidecarError, match="not readable JSON") as info:
        OnnxPolicy(exported)
    assert info.value.field == "<file>"


def test_sidecar_json_list(exported: Path) -> None:
    exported.with_name(exported.name + ".json").write_text("[]", encoding="utf-8")
    with pytest.raises(SidecarError, match="JSON object") as info:
        OnnxPolicy(exported)
    assert info.value.field == "<root>"


def test_missing_onnx_file(exported: Path) -> None:
    exported.unlink()
    with pytest.raises(SidecarError, match="does not exist") as info:
        OnnxPolicy(exported)
    assert info.value.field == "onnx_file"


def test_tampered_onnx_file_fails_the_digest(exported: Path) -> None:
    data = bytearray(exported.read_bytes())
    data[-1] ^= 0xFF
    exported.write_bytes(bytes(data))
    with pytest.raises(SidecarError, match="digest") as info:
        OnnxPolicy(exported)
    assert info.value.field == "sha256"


def test_garbage_graph_with_matching_digest(exported: Path) -> None:
    exported.write_bytes(b"not an onnx graph")
    side_path = exported.with_name(exported.name + ".json")
    side = json.loads(side_path.read_text(encoding="utf-8"))
    side["sha256"] = hashlib.sha256(b"not an onnx graph").hexdigest()
    side_path.write_text(json.dumps(side), encoding="utf-8")
    with pytest.raises(SidecarError, match="not a loadable ONNX graph") as info:
        OnnxPolicy(exported)
    assert info.value.field == "onnx_file"


@pytest.fixture(scope="module")
def policy() -> OnnxPolicy:
    return OnnxPolicy(shipped_model(".onnx"))


ACT_ROWS = [
    ("obs_too_short", lambda p: (np.zeros(5), np.ones(p.n_actions)), "observation has 5 values"),
    ("obs_empty", lambda p: (np.zeros(0), np.ones(p.n_actions)), "observation has 0 values"),
    ("mask_too_short", lambda p: (np.zeros(p.obs_size), np.ones(3)), "action_mask has 3 values"),
    ("mask_all_zero", lambda p: (np.zeros(p.obs_size), np.zeros(p.n_actions)), "allows no action"),
    ("obs_str", lambda p: ("abc", np.ones(p.n_actions)), "could not convert"),
]


@pytest.mark.parametrize(
    ("make", "words"), [pytest.param(m, w, id=f"OnnxPolicy.act:{i}") for i, m, w in ACT_ROWS]
)
def test_bad_act_inputs(policy: OnnxPolicy, make: Any, words: str) -> None:
    observation, mask = make(policy)
    with pytest.raises(ValueError, match=words):
        policy.act(observation, mask)
    assert policy.fallbacks == 0


def test_server_refuses_a_sidecar_of_another_action_layout(exported: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    side_path = exported.with_name(exported.name + ".json")
    side = json.loads(side_path.read_text(encoding="utf-8"))
    side["action_version"] = "nq-act-v0"
    side_path.write_text(json.dumps(side), encoding="utf-8")
    with pytest.raises(SidecarError) as info:
        OnnxOpponent(exported)
    assert info.value.field == "action_version" and "nq-act-v0" in str(info.value)


def test_server_refuses_a_sidecar_of_another_observation_layout(exported: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    side_path = exported.with_name(exported.name + ".json")
    side = json.loads(side_path.read_text(encoding="utf-8"))
    side["observation_version"] = "nq-obs-v0"
    side_path.write_text(json.dumps(side), encoding="utf-8")
    with pytest.raises(SidecarError) as info:
        OnnxOpponent(exported)
    assert info.value.field == "observation_version"


def test_server_refuses_a_pickle(tmp_path: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    with pytest.raises(ValueError, match=r"\.onnx policies only"):
        OnnxOpponent(tmp_path / "model.zip")


def test_server_refuses_an_unknown_tier(exported: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    with pytest.raises(ValueError, match="unknown tier 'godlike'"):
        OnnxOpponent(exported, default_tier="godlike")
