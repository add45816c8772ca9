"""Named entry points (issue 21): files name hooks from a registry, never by import path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wargym.agents.advisor import TacticalAdvisor
from wargym.agents.entry_points import (
    ENTRY_POINTS,
    LEGACY_NAMES,
    EntryPointError,
    entry_point_name,
    named_kwargs,
    resolve_callables,
)
from wargym.agents.envspecs import MirrorSkirmish, mirror_skirmish
from wargym.agents.learned import shipped_model
from wargym.export_onnx import SidecarError, sidecar_digest, validate_sidecar


def test_the_registry_names_the_package_objects() -> None:
    from wargym.agents import envspecs

    named = envspecs.NAMED_OBJECTS
    assert named == {
        "mirror_skirmish": mirror_skirmish,
        "tactical_advisor": TacticalAdvisor,
    }
    assert {n for names in ENTRY_POINTS.values() for n in names} == set(named)
    resolved = resolve_callables(
        {"battle_factory": "mirror_skirmish", "advisor": "tactical_advisor"}
    )
    assert resolved == {"battle_factory": mirror_skirmish, "advisor": TacticalAdvisor}


def test_legacy_paths_of_the_package_objects_map_onto_names() -> None:
    for path, name in LEGACY_NAMES.items():
        key = next(k for k, names in ENTRY_POINTS.items() if name in names)
        assert resolve_callables({key: path})[key] is resolve_callables({key: name})[key]


@pytest.mark.parametrize(
    "value",
    [
        "os:abort",
        "os.path:join",
        "wargym.agents.envspecs:MirrorSkirmish",  # a real package object, but not registered
        "wargym.agents.envspecs:mirror_skirmish ",
        "tactical_advisor",  # registered for the other keyword
        "",
        "x" * 10_000,
    ],
)
def test_anything_else_is_refused_by_name(value: str) -> None:
    with pytest.raises(EntryPointError) as info:
        resolve_callables({"battle_factory": value})
    assert info.value.key == "battle_factory" and "battle_factory" in str(info.value)
    assert len(str(info.value)) < 400  # the value is quoted briefly


def test_objects_pass_through_and_a_caller_may_allow_its_own() -> None:
    own = MirrorSkirmish(mechs_per_side=2)
    assert resolve_callables({"battle_factory": own})["battle_factory"] is own
    allow = {"two_a_side": own}
    assert resolve_callables({"battle_factory": "two_a_side"}, allow)["battle_factory"] is own
    with pytest.raises(EntryPointError, match="two_a_side"):
        resolve_callables({"battle_factory": "two_a_side"})
    assert named_kwargs({"battle_factory": own, "cell": 4.0}, allow) == {
        "battle_factory": "two_a_side",
        "cell": 4.0,
    }
    assert entry_point_name("battle_factory", mirror_skirmish) == "mirror_skirmish"
    with pytest.raises(EntryPointError, match="not a registered"):
        entry_point_name("battle_factory", own)


def _shipped_sidecar() -> dict[str, Any]:
    return json.loads(Path(f"{shipped_model('.onnx')}.json").read_text(encoding="utf-8"))


def test_the_shipped_sidecar_names_entry_points_and_carries_its_digest() -> None:
    side = validate_sidecar(_shipped_sidecar(), shipped_model(".onnx"))
    assert side.env_kwargs["advisor"] == "tactical_advisor"
    assert side.env_kwargs["battle_factory"] == "mirror_skirmish"
    assert side.digest == sidecar_digest(side.raw)


def test_a_format_1_sidecar_is_read_with_its_legacy_paths_mapped() -> None:
    old = _shipped_sidecar()
    old["format"] = "wargym-onnx-sidecar/1"
    del old["digest"]
    old["env_kwargs"]["advisor"] = "wargym.agents.advisor:TacticalAdvisor"
    old["env_kwargs"]["battle_factory"] = "wargym.agents.envspecs:mirror_skirmish"
    side = validate_sidecar(old, shipped_model(".onnx"))
    assert side.env_kwargs["advisor"] == "tactical_advisor" and side.digest is None
    old["env_kwargs"]["advisor"] = "os:abort"
    with pytest.raises(SidecarError) as info:
        validate_sidecar(old)
    assert info.value.field == "env_kwargs.advisor" and "os:abort" in str(info.value)


def test_a_sidecar_may_name_a_callers_own_entry_point_when_allowed() -> None:
    data = _shipped_sidecar()
    data["env_kwargs"]["battle_factory"] = "two_a_side"
    data["digest"] = sidecar_digest(data)
    with pytest.raises(SidecarError) as info:
        validate_sidecar(data)
    assert info.value.field == "env_kwargs.battle_factory"
    side = validate_sidecar(data, allow={"two_a_side": MirrorSkirmish(mechs_per_side=2)})
    assert side.env_kwargs["battle_factory"] == "two_a_side"
