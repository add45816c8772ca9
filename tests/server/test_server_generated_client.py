"""A client generated from the server's ``/openapi.json`` parses and builds real messages.

``datamodel-codegen`` (datamodel-code-generator, a [dev] tool) turns the OpenAPI document of
``wargym serve`` into pydantic models in ``tmp_path``, as a third-party front end would; the
test imports them and plays short games over HTTP: every request is built through the generated
``Request`` model, every response is parsed by the generated ``Response`` model into typed
objects (the state a generated ``Battle`` with ``Mech`` records, each action and event an
instance of the generated class of its ``type``) and dumps back to exactly what the server
sent. With opaque components (``state``, ``events``, ``legal_actions`` as bare objects, as
before session 7) the generated classes would be missing and the test fails: it also checks
that every action and event kind of the engine has a generated class with the engine's fields.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, RootModel

from wargym.server import Handler

P = "wargym-protocol/1"
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture(scope="module")
def client_and_models(tmp_path_factory: pytest.TempPathFactory) -> Any:
    pytest.importorskip("datamodel_code_generator", reason="pip install datamodel-code-generator")
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from wargym.agents.learned import shipped_model
    from wargym.server.http import create_app
    from wargym.server.policy import OnnxOpponent

    client = TestClient(create_app(Handler(OnnxOpponent(shipped_model(".onnx"))), timeout_s=60))
    folder = tmp_path_factory.mktemp("generated_client")
    module = _generate(client.get("/openapi.json").text, folder)
    yield client, module
    client.close()
    sys.modules.pop(module.__name__, None)


def _import(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves the forward references through it
    spec.loader.exec_module(module)
    return module


def _by_tag(module: ModuleType) -> dict[str, type[BaseModel]]:
    """Generated model classes by the constant of their ``type`` field (a record's tag).

    The generator may rename a class (an inline enum took ``FreeCompanyRaces``: the event class
    is ``FreeCompanyRacesModel``), so the tag, not the class name, identifies it.
    """
    found: dict[str, type[BaseModel]] = {}
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, BaseModel) and "type" in getattr(
            value, "model_fields", {}
        ):  # fmt: skip
            annotation = value.model_fields["type"].annotation
            if typing.get_origin(annotation) is typing.Literal:
                for tag in typing.get_args(annotation):
                    found[tag] = value
    return found


def _generate(spec_text: str, folder: Path) -> ModuleType:
    """The module datamodel-codegen writes from an OpenAPI document, imported."""
    spec = folder / "openapi.json"
    spec.write_text(spec_text, encoding="utf-8")
    out = folder / "wargym_client.py"
    command = [sys.executable, "-m", "datamodel_code_generator", "--input", str(spec),
               "--input-file-type", "openapi", "--output-model-type", "pydantic_v2.BaseModel",
               "--formatters", "builtin", "--target-python-version", "3.11",
               "--disable-timestamp", "--output", str(out)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return _import(out, f"wargym_generated_{folder.name}")


def _record_gaps(gen: ModuleType) -> list[str]:
    """What the generated client lacks of the engine's records (empty: every one, typed)."""
    from wargym.server.engine_models import engine_models

    tags = _by_tag(gen)
    engine = engine_models()
    gaps = []
    for model in [*engine["actions"], *engine["events"]]:
        tag = typing.get_args(model.model_fields["type"].annotation)[0]
        if tag not in tags:
            gaps.append(f"no class for {tag}")
        elif set(tags[tag].model_fields) != set(model.model_fields):
            gaps.append(f"{tag}: fields {sorted(set(tags[tag].model_fields))}")
    for name, fields in (
        ("Battle", {"mechs", "turn", "frames", "decision", "np", "mission", "battlefield"}),
        ("Mech", {"armor", "design", "pilot", "pos", "heading", "side"}),
        ("MechDesign", {"armor", "items"}),
        ("Pilot", {"rep", "attributes"}),
    ):
        generated = getattr(gen, name, None)
        if not (isinstance(generated, type) and issubclass(generated, BaseModel)):
            gaps.append(f"no class {name}")
        elif not fields <= set(generated.model_fields):
            gaps.append(f"{name}: fields {sorted(generated.model_fields)}")
    return gaps


def test_every_action_and_event_kind_has_a_generated_class_with_its_fields(
    client_and_models: Any,
) -> None:
    from wargym.server.engine_models import engine_models

    _, gen = client_and_models
    engine = engine_models()
    assert len(engine["actions"]) >= 20 and len(engine["events"]) >= 50
    assert _record_gaps(gen) == []


def test_the_check_fails_on_opaque_components(client_and_models: Any, tmp_path: Path) -> None:
    """The OpenAPI document as it was before the contract: state, actions, events bare objects."""
    client, _ = client_and_models
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    messages = {name for name in schemas if name.endswith(("Request", "Result", "Response"))}
    opaque = {"state", "events", "legal_actions", "action", "decision"}
    for name in messages:
        for field in opaque & set(schemas[name].get("properties", {})):
            schemas[name]["properties"][field] = {"type": "object"}
    kept, todo = set(), ["Request", "Response"]
    while todo:  # the components the opaque messages still reach
        name = todo.pop()
        if name not in kept:
            kept.add(name)
            todo += re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(schemas[name]))
    spec["components"]["schemas"] = {k: v for k, v in schemas.items() if k in kept}
    assert "Battle" not in kept and "Mech" not in kept
    gen = _generate(json.dumps(spec), tmp_path)
    gaps = _record_gaps(gen)
    assert any(g.startswith("no class") for g in gaps), gaps
    sys.modules.pop(gen.__name__, None)


def _unwrap(value: Any) -> Any:
    """The record inside the generated union wrappers (``RootModel`` of a tagged union)."""
    while isinstance(value, RootModel):
        value = value.root
    return value


def _games(client: Any, gen: ModuleType) -> tuple[set[str], set[str], set[str]]:
    """Play short games over HTTP through the generated models; the kinds seen."""
    tags = _by_tag(gen)
    actions: set[str] = set()
    events: set[str] = set()
    replies: set[str] = set()

    def send(request: dict[str, Any]) -> Any:
        built = gen.Request.model_validate(request)  # the client builds its request
        body = built.model_dump(mode="json", exclude_unset=True)
        assert body == request
        raw = client.post("/v1", content=json.dumps(body))
        data = raw.json()
        parsed = gen.Response.model_validate(data).root
        assert parsed.model_dump(mode="json", exclude_unset=True) == data  # nothing lost
        replies.add(type(parsed).__name__)
        if hasattr(parsed, "state") and parsed.state is not None:
            assert isinstance(parsed.state, gen.Battle), type(parsed.state)
            assert all(isinstance(m, gen.Mech) for m in parsed.state.mechs.values())
        for event, raw_event in zip(getattr(parsed, "events", None) or (), data.get("events", ()),
                                    strict=True):  # fmt: skip
            assert isinstance(_unwrap(event), tags[raw_event["type"]]), raw_event["type"]
            events.add(raw_event["type"])
        for action, raw_action in zip(getattr(parsed, "legal_actions", None) or (),
                                      data.get("legal_actions", ()), strict=True):  # fmt: skip
            assert isinstance(_unwrap(action), tags[raw_action["type"]]), raw_action["type"]
            actions.add(raw_action["type"])
        return parsed, data

    send({"protocol": P, "type": "info", "id": 1})
    with pytest.raises(ValueError, match="state"):  # the client refuses a broken state itself
        gen.Request.model_validate({"protocol": P, "type": "legal", "state": {"turn": "x"}})
    _, error = send({"protocol": P, "type": "new_game", "system": "no_quarter",
                     "scenario": "no_such_scenario"})  # fmt: skip
    assert error["error"]["code"] == "unknown_scenario"
    starts = [
        {"skirmish": {"mechs_per_side": 2, "stars": 1, "max_turns": 3}, "seed": 4},
        {"scenario": "cestus_v_mission_02_the_troll", "seed": 0},
    ]
    for start in starts:
        _, data = send({"protocol": P, "type": "new_game", "system": "no_quarter", **start})
        for step in range(60):
            if data.get("over", True):
                break
            state = data["state"]
            send({"protocol": P, "type": "legal", "state": state})
            if step % 3 == 0:  # the client picks an action itself
                request = {"protocol": P, "type": "act", "state": state,
                           "action": data["legal_actions"][-1], "seed": step}  # fmt: skip
            else:
                policy = "onnx" if data["decision"]["side"] == "blue" else "rules"
                request = {"protocol": P, "type": "opponent_move", "state": state,
                           "policy": policy, "seed": step}  # fmt: skip
            _, data = send(request)
    return actions, events, replies


def test_generated_models_parse_and_build_every_message_of_short_games(
    client_and_models: Any,
) -> None:
    client, gen = client_and_models
    actions, events, replies = _games(client, gen)
    assert replies == {"InfoResult", "ErrorResponse", "NewGameResult", "LegalResult",
                       "ActResult", "OpponentMoveResult"}  # fmt: skip
    assert len(actions) >= 10, actions  # 17 kinds with these seeds
    assert len(events) >= 20, events  # 28 kinds
    assert {"Move", "AssignFire", "ActivateGroup", "Face"} <= actions, actions
    assert {"PefPlaced", "PilotCreated", "MechsArrived", "ShotFired", "DamageRolled",
            "MechMoved"} <= events, events  # fmt: skip
