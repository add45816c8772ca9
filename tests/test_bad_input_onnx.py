"""Bad-input catalogue (issues 9, 21): ONNX files, sidecars, checkpoints (docs/bad_input.md 5).

``OnnxPolicy`` (agents/onnx_runner.py) and ``validate_sidecar`` / ``read_sidecar``
(src/wargym/export_onnx.py) raise ``SidecarError`` (a ``ValueError`` whose ``field`` names
the offending key) for a missing, damaged or mismatched sidecar or graph, and never touch
the files. A sidecar, model card or checkpoint never chooses code to run: hooks are named
entry points (``os:abort`` or a module in the working folder is refused, not imported) and
a checkpoint's pickled ``data`` is never unpickled.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.agents.learned import shipped_model

pytest.importorskip("onnxruntime")

from wargym.agents.onnx_runner import OnnxPolicy  # noqa: E402
from wargym.export_onnx import SidecarError, sidecar_digest  # noqa: E402


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    """A copy of the shipped ONNX policy and its sidecar (digest updated for the new name)."""
    source = shipped_model(".onnx")
    target = tmp_path / "p.onnx"
    shutil.copy(source, target)
    side = json.loads(Path(f"{source}.json").read_text(encoding="utf-8"))
    side["onnx_file"] = target.name
    side["digest"] = sidecar_digest(side)
    (tmp_path / "p.onnx.json").write_text(json.dumps(side), encoding="utf-8")
    return target


def _rewrite(onnx: Path, digest: bool = True, **changes: Any) -> Path:
    """Edit the sidecar beside ``onnx`` (``env_kwargs__advisor=...`` edits a kwarg)."""
    side_path = onnx.with_name(onnx.name + ".json")
    side = json.loads(side_path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        head, _, sub = key.partition("__")
        target = side[head] if sub else side
        name = sub or head
        if value is _DROP:
            del target[name]
        else:
            target[name] = value
    if digest:  # a consistent file, as whoever wrote a hostile one would make it
        side["digest"] = sidecar_digest(side)
    side_path.write_text(json.dumps(side), encoding="utf-8")
    return side_path


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
    ("format_v3", _edit(format="wargym-onnx-sidecar/3"), "format"),
    ("digest_missing", _edit(digest=_DROP), "digest"),
    ("digest_not_hex", _edit(digest="xyz"), "digest"),
    ("edited_after_export", _edit(policy="OtherPolicy"), "digest"),
    (
        "advisor_os_abort",
        _edit(env_kwargs={"action_features": True, "advisor": "os:abort"}),
        "env_kwargs.advisor",
    ),
    (
        "factory_import_path",
        _edit(env_kwargs={"battle_factory": "wargym.agents.envspecs:MirrorSkirmish"}),
        "env_kwargs.battle_factory",
    ),
    ("advisor_not_a_name", _edit(env_kwargs={"advisor": ["os", "abort"]}), "env_kwargs.advisor"),
    ("env_id_module_prefix", _edit(env_id="os:wargym/NoQuarter-Skirmish-v1"), "env_id"),
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
    if field != "digest":  # re-signed: the field's own check must catch it, not the digest
        side["digest"] = sidecar_digest(side)
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


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param(b" " * (1 << 20) + b"{}", "over", id="over_1_MiB"),
        pytest.param(b'{"format": "\xff"}', "not readable JSON", id="not_utf8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, "not readable JSON", id="deep_nesting"),
    ],
)
def test_sidecar_file_too_big_or_unreadable(exported: Path, content: bytes, words: str) -> None:
    side = exported.with_name(exported.name + ".json")
    side.write_bytes(content)
    with pytest.raises(SidecarError, match=words) as info:
        OnnxPolicy(exported)
    assert info.value.field == "<file>" and len(str(info.value)) < 400
    assert side.read_bytes() == content


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
    _rewrite(exported, sha256=hashlib.sha256(b"not an onnx graph").hexdigest())
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

    _rewrite(exported, action_version="nq-act-v0")
    with pytest.raises(SidecarError) as info:
        OnnxOpponent(exported)
    assert info.value.field == "action_version" and "nq-act-v0" in str(info.value)


def test_server_refuses_a_sidecar_of_another_observation_layout(exported: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    _rewrite(exported, observation_version="nq-obs-v0")
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


# -- issue 21: a model file never chooses code to run ------------------------------------
EVIL = "wargym_evil_module"
"""A module in the working folder that a hostile sidecar names; importing it leaves a marker."""
SKIRMISH = "wargym/NoQuarter-Skirmish-v1"


@pytest.fixture
def evil(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``EVIL.py`` in the working folder and on ``sys.path`` (as under ``python -m``)."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    marker = tmp_path / "IMPORTED"
    (folder / f"{EVIL}.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\nclass Advisor: ...\ndef factory(*a): ...\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    yield marker
    sys.modules.pop(EVIL, None)


def _not_run(marker: Path) -> None:
    assert not marker.exists(), "a module named by the file was imported"
    assert EVIL not in sys.modules


EVIL_SIDECARS = [
    ("advisor", {"env_kwargs__advisor": f"{EVIL}:Advisor"}, "env_kwargs.advisor"),
    (
        "battle_factory",
        {"env_kwargs__battle_factory": f"{EVIL}:factory"},
        "env_kwargs.battle_factory",
    ),
    ("env_id_prefix", {"env_id": f"{EVIL}:{SKIRMISH}"}, "env_id"),
]


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=i) for i, c, f in EVIL_SIDECARS]
)
def test_server_imports_no_module_a_sidecar_names(
    exported: Path, evil: Path, changes: dict[str, Any], field: str
) -> None:
    from wargym.server.policy import OnnxOpponent

    side_path = _rewrite(exported, **changes)
    before = side_path.read_bytes()
    with pytest.raises(SidecarError) as info:
        OnnxOpponent(exported)
    assert info.value.field == field and EVIL in str(info.value)
    assert side_path.read_bytes() == before
    _not_run(evil)


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=i) for i, c, f in EVIL_SIDECARS[:2]]
)
def test_learned_agent_imports_no_module_its_model_card_names(
    exported: Path, evil: Path, changes: dict[str, Any], field: str
) -> None:
    from wargym.agents.learned import LearnedAgent

    card = json.loads(shipped_model(".json").read_text(encoding="utf-8"))
    card["env_kwargs"][field.split(".")[1]] = next(iter(changes.values()))
    (exported.parent / "p.json").write_text(json.dumps(card), encoding="utf-8")
    with pytest.raises(SidecarError) as info:
        LearnedAgent(exported)
    assert info.value.field == field
    _not_run(evil)


def test_resolve_and_the_envs_import_no_named_module(evil: Path) -> None:
    import gymnasium

    from wargym.agents.envspecs import EntryPointError, resolve, resolve_callables
    from wargym.agents.evaluation import make_env
    from wargym.envs.base import EnvArgumentError

    with pytest.raises(EntryPointError, match=EVIL):
        resolve(f"{EVIL}:Advisor")
    with pytest.raises(EntryPointError, match="advisor"):
        resolve_callables({"advisor": f"{EVIL}:Advisor"})
    with pytest.raises(EntryPointError, match="battle_factory"):
        make_env("no_quarter", {"battle_factory": f"{EVIL}:factory"})
    with pytest.raises(EnvArgumentError, match=EVIL):
        gymnasium.make(SKIRMISH, action_features=True, advisor=f"{EVIL}:Advisor")
    _not_run(evil)


def test_a_sidecar_naming_os_abort_does_not_kill_the_server(exported: Path) -> None:
    _rewrite(exported, env_kwargs__advisor="os:abort")
    done = subprocess.run(
        [sys.executable, "-m", "wargym.server", "--model", str(exported), "--stdio"],
        input=b"",
        capture_output=True,
        timeout=120,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, err)
    assert "Traceback" not in err and "env_kwargs.advisor" in err and "os:abort" in err


SERVE_ROWS = [
    ("unknown_kwarg", {"env_kwargs__zz_unknown": 1}, ["env_kwargs", "zz_unknown"]),
    ("unknown_env_id", {"env_id": "wargym/Nope-v0"}, ["env_id", "wargym/Nope-v0"]),
    (
        "not_no_quarter",
        {"env_id": "wargym/PentagonWar-Duel-v0", "env_kwargs": {}},
        ["env_id", "No Quarter"],
    ),
    ("bad_kwarg_value", {"env_kwargs__cell": "x"}, ["env_kwargs"]),
    (
        "advisor_object_path",
        {"env_kwargs__advisor": "wargym.agents.advisor:ADVICE_ROWS"},
        ["env_kwargs.advisor"],
    ),
]


@pytest.mark.parametrize(
    ("changes", "words"), [pytest.param(c, w, id=f"serve:{i}") for i, c, w in SERVE_ROWS]
)
def test_serve_model_with_a_bad_sidecar_exits_2(
    exported: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, Any], words: list[str]
) -> None:
    from wargym.cli import main

    side_path = _rewrite(exported, **changes)
    before = (side_path.read_bytes(), exported.read_bytes())
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--model", str(exported), "--stdio"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("wargym serve: error: --model")
    for word in words:
        assert word in err, (word, err)
    assert (side_path.read_bytes(), exported.read_bytes()) == before


DEMO_ROWS = [
    ("garbage_onnx", "bad.onnx", b"not a graph", ["bad.onnx", "onnx_file"]),
    ("garbage_zip", "bad.zip", b"not a zip", ["bad.zip", "not a readable SB3 checkpoint"]),
    ("zip_without_data", "empty.zip", None, ["empty.zip", "no 'data' member"]),
]


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [pytest.param(n, c, w, id=f"demo:{i}") for i, n, c, w in DEMO_ROWS],
)
def test_demo_policy_bad_file_exits_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes | None,
    words: list[str],
) -> None:
    from wargym.cli import main

    path = tmp_path / name
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("other", "x")
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    code = main(["demo", "--policy", str(path), "--html", ""])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err, (word, err)
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


# -- a checkpoint's pickled data is never unpickled ------------------------------------
PW = "wargym/PentagonWar-Duel-v0"


class _Payload:
    """Unpickling this opens (creates) ``marker``: the stand-in for arbitrary code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real MaskablePPO zip (Pentagon War duel, random weights)."""
    for name in ("torch", "sb3_contrib", "onnx", "onnxscript"):
        pytest.importorskip(name)
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401

    path = tmp_path_factory.mktemp("ckpt") / "policy.zip"
    model = MaskablePPO("MultiInputPolicy", gymnasium.make(PW), n_steps=32, batch_size=32,
                        seed=0, device="cpu", policy_kwargs={"net_arch": [16, 16]})  # fmt: skip
    model.save(path)
    return path


def _with_payload(source: Path, target: Path, key: str, marker: Path, **text: str) -> Path:
    """``source`` with ``data[key]`` a ``:serialized:`` blob that creates ``marker``."""
    with zipfile.ZipFile(source) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    data = json.loads(members["data"])
    old = data.get(key)
    entry = {k: v for k, v in old.items() if k != ":serialized:"} if isinstance(old, dict) else {}
    entry.update(text)
    entry[":serialized:"] = base64.b64encode(pickle.dumps(_Payload(marker))).decode()
    data[key] = entry
    members["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(target, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return target


PAYLOADS = [
    ("extra_key", "zz_payload", {":type:": "<class 'object'>"}),
    ("policy_class", "policy_class", {}),
    ("observation_space", "observation_space", {}),
    ("policy_kwargs", "policy_kwargs", {":type:": "<class 'dict'>", "net_arch": "[16, 16]"}),
]


def test_the_payload_is_live_under_a_plain_sb3_load(checkpoint: Path, tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    marker = tmp_path / "RAN"
    evil = _with_payload(checkpoint, tmp_path / "evil.zip", "zz_payload", marker)
    MaskablePPO.load(evil, device="cpu")  # what export-onnx and LearnedAgent used to do
    assert marker.exists()


@pytest.mark.filterwarnings("ignore:.*axis name:UserWarning", "ignore:.*LeafSpec:FutureWarning")
@pytest.mark.parametrize(("key", "text"), [pytest.param(k, t, id=i) for i, k, t in PAYLOADS])
def test_export_onnx_never_unpickles_a_checkpoint(
    checkpoint: Path, tmp_path: Path, key: str, text: dict[str, str]
) -> None:
    from wargym.cli import main

    marker = tmp_path / "RAN"
    evil = _with_payload(checkpoint, tmp_path / "evil.zip", key, marker, **text)
    out = tmp_path / "out.onnx"
    code = main(["export-onnx", str(evil), str(out), "--env-id", PW, "--check", "0"])
    assert code == 0 and out.is_file() and not marker.exists()


@pytest.mark.parametrize(("key", "text"), [pytest.param(k, t, id=i) for i, k, t in PAYLOADS])
def test_learned_agent_never_unpickles_a_checkpoint(
    checkpoint: Path, tmp_path: Path, key: str, text: dict[str, str]
) -> None:
    from wargym.agents.learned import LearnedAgent

    marker = tmp_path / "RAN"
    agent = LearnedAgent(_with_payload(checkpoint, tmp_path / "evil.zip", key, marker, **text))
    assert agent.act(np.zeros(131, dtype=np.float32), np.ones(17, dtype=np.int8)) in range(17)
    assert not marker.exists()


CHECKPOINT_ROWS = [
    ("policy_class_elsewhere", "policy_class", {"__module__": "os"}, "policy class"),
    (
        "kwarg_class_elsewhere",
        "policy_kwargs",
        {":type:": "<class 'dict'>", "activation_fn": "<class 'os.system'>"},
        "os.system",
    ),
    (
        "kwarg_not_literal",
        "policy_kwargs",
        {":type:": "<class 'dict'>", "x": "__import__('os')"},
        "not a literal",
    ),
    ("space_unknown_type", "action_space", {":type:": "<class 'os.Evil'>"}, "space type"),
]


@pytest.mark.parametrize(
    ("key", "text", "words"), [pytest.param(k, t, w, id=i) for i, k, t, w in CHECKPOINT_ROWS]
)
def test_export_onnx_refuses_what_it_cannot_rebuild_without_unpickling(
    checkpoint: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    key: str,
    text: dict[str, str],
    words: str,
) -> None:
    from wargym.cli import main

    marker = tmp_path / "RAN"
    evil = _with_payload(checkpoint, tmp_path / "evil.zip", key, marker, **text)
    before = evil.read_bytes()
    code = main(["export-onnx", str(evil), str(tmp_path / "out.onnx"), "--env-id", PW])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "CheckpointError" in err and words in err
    assert len(err.strip().splitlines()) == 1
    assert not marker.exists() and evil.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.zip"]


def test_demo_policy_of_another_layout_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from wargym.cli import main

    shutil.copy(shipped_model(".onnx"), tmp_path / "p.onnx")
    (tmp_path / "p.json").write_text(json.dumps({"env_kwargs": {}}), encoding="utf-8")
    code = main(["demo", "--policy", str(tmp_path / "p.onnx"), "--html", ""])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "obs_shape" in err and "5002" in err
