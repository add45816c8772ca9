"""Fuzz: mutated sidecars and model cards load, or fail typed, and never choose code to run.

A valid copy of the shipped ONNX sidecar gets one to three random edits (a field set to a
random JSON value or a hostile string, a field dropped, an ``env_kwargs`` entry set), half
of the time re-signed with a fresh ``digest`` (as whoever wrote a hostile file would), and
is loaded by the server's :class:`~wargym.server.policy.OnnxOpponent`. The invariant
(issue 21): it loads, or raises :class:`~wargym.export_onnx.SidecarError`; never another
exception, never an import of a module the data names (a module in the working folder that
would leave a marker), and the files are left as they were.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wargym.agents.learned import read_meta, shipped_model  # noqa: E402
from wargym.export_onnx import SidecarError, make_sidecar_env, sidecar_digest  # noqa: E402

EVIL = "wargym_fuzz_evil"
SKIRMISH = "wargym/NoQuarter-Skirmish-v1"
HOSTILE = [
    "os:abort",
    "builtins:exec",
    f"{EVIL}:Advisor",
    f"{EVIL}:factory",
    f"{EVIL}:{SKIRMISH}",
    "wargym.agents.envspecs:MirrorSkirmish",
    "wargym.agents.envspecs:mirror_skirmish",
    "wargym.agents.advisor:TacticalAdvisor",
    "mirror_skirmish",
    "tactical_advisor",
    SKIRMISH,
    "wargym/PentagonWar-Duel-v0",
    "wargym-onnx-sidecar/1",
    "",
]
FIELDS = [
    "format", "onnx_file", "sha256", "env_id", "env_kwargs", "observation_version",
    "action_version", "obs_shape", "obs_dtype", "n_actions", "inputs", "outputs",
    "mask_dtype", "policy", "dict_observation", "wargym_version", "source", "digest", "zz_new",
]  # fmt: skip
KWARGS = ["advisor", "battle_factory", "action_features", "cell", "opponent", "mirror", "zz"]
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(width=32)
    | st.text(max_size=10)
    | st.sampled_from(HOSTILE)
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
EDITS = st.one_of(
    st.tuples(st.just("set"), st.sampled_from(FIELDS), VALUES),
    st.tuples(st.just("drop"), st.sampled_from(FIELDS), st.none()),
    st.tuples(st.just("kwarg"), st.sampled_from(KWARGS), VALUES),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The policy copy and a would-be-imported module in the working folder (on sys.path)."""
    import os

    root = tmp_path_factory.mktemp("fuzz")
    shutil.copy(shipped_model(".onnx"), root / "p.onnx")
    (root / f"{EVIL}.py").write_text(
        f"open({str(root / 'IMPORTED')!r}, 'w').write('ran')\n"
        "class Advisor: ...\ndef factory(*a): ...\n",
        encoding="utf-8",
    )
    cwd = os.getcwd()
    os.chdir(root)
    sys.path.insert(0, str(root))
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        os.chdir(cwd)
        sys.modules.pop(EVIL, None)


def _mutated(base: dict[str, Any], edits: list[tuple[str, str, Any]], resign: bool) -> Any:
    data = json.loads(json.dumps(base))
    for kind, key, value in edits:
        if kind == "set":
            data[key] = value
        elif kind == "drop":
            data.pop(key, None)
        elif isinstance(data.get("env_kwargs"), dict):
            data["env_kwargs"][key] = value
    if resign:
        with contextlib.suppress(SidecarError):  # a value JSON cannot hold: left unsigned
            data["digest"] = sidecar_digest(data)
    return data


def _check_nothing_ran(folder: Path) -> None:
    assert not (folder / "IMPORTED").exists(), "a module named by the data was imported"
    assert EVIL not in sys.modules


SHIPPED_SIDECAR = json.loads(Path(f"{shipped_model('.onnx')}.json").read_text(encoding="utf-8"))
SHIPPED_CARD = json.loads(shipped_model(".json").read_text(encoding="utf-8"))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=st.lists(EDITS, min_size=1, max_size=3), resign=st.booleans())
def test_a_mutated_sidecar_loads_or_fails_typed_and_runs_nothing(
    folder: Path, edits: list[tuple[str, str, Any]], resign: bool
) -> None:
    from wargym.server.policy import OnnxOpponent

    onnx = folder / "p.onnx"
    side = folder / "p.onnx.json"
    side.write_text(json.dumps(_mutated(SHIPPED_SIDECAR, edits, resign)), encoding="utf-8")
    before = (side.read_bytes(), onnx.read_bytes())
    try:
        OnnxOpponent(onnx)
    except SidecarError as error:
        assert error.field and error.field in str(error)
        assert len(str(error)) < 1200  # quotes values briefly
    assert (side.read_bytes(), onnx.read_bytes()) == before
    _check_nothing_ran(folder)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=st.lists(EDITS, min_size=1, max_size=3))
def test_a_mutated_model_card_loads_or_fails_typed_and_runs_nothing(
    folder: Path, edits: list[tuple[str, str, Any]]
) -> None:
    card = folder / "p.json"
    card.write_text(json.dumps(_mutated(SHIPPED_CARD, edits, False)), encoding="utf-8")
    before = card.read_bytes()
    try:
        meta = read_meta(folder / "p.onnx")
        env_id = meta.get("env_id", SKIRMISH)
        if isinstance(env_id, str):
            make_sidecar_env(env_id, meta["env_kwargs"]).close()
    except SidecarError as error:
        assert error.field and error.field in str(error)
    assert card.read_bytes() == before
    _check_nothing_ran(folder)
