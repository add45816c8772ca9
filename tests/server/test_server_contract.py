"""The protocol's contract: pydantic models, the committed JSON Schemas, OpenAPI, /docs, the CLI.

The models (``wargym.server.models``) type every request and response, the state, every
action kind and every event kind; the JSON Schemas under ``wargym/server/schemas`` are
generated from them (``python -m wargym.server.models --write``) and must equal what they
generate now; ``/openapi.json`` carries them as components, so a client generated from it
knows every field; Swagger UI at ``/docs`` loads nothing from outside the server.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from server_cases import P  # noqa: E402

from wargym.server import Handler  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
jsonschema = pytest.importorskip("jsonschema")


def _schema(name: str) -> dict[str, Any]:
    from wargym.server.validation import load_schema

    return load_schema(name)


def _fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls) if not f.metadata.get("cache")}


# -- the committed schemas --------------------------------------------------------------------
def test_committed_schemas_equal_what_the_models_generate() -> None:
    from wargym.server.models import SCHEMA_DIR, main, schema_text

    for name in ("request", "response"):
        assert (SCHEMA_DIR / f"{name}.json").read_text("utf-8") == schema_text(name), (
            f"schemas/{name}.json is stale: run python -m wargym.server.models --write"
        )
    assert main(["--check"]) == 0


def test_schemas_type_the_state_every_action_and_every_event() -> None:
    from wargym.rules.no_quarter.battle.actions import ACTION_CLASSES
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
    from wargym.rules.no_quarter.battle.state import Battle, Mech
    from wargym.server.engine_models import event_classes

    defs = _schema("response")["$defs"]
    for name, cls in [("Battle", Battle), ("Mech", Mech)]:
        assert set(defs[name]["properties"]) == _fields(cls), name
        assert set(defs[name]["required"]) == _fields(cls), name
    mechs = defs["Battle"]["properties"]["mechs"]
    assert list(mechs["patternProperties"].values()) == [{"$ref": "#/$defs/Mech"}]
    assert mechs["additionalProperties"] is False  # keys spell integers
    for name, cls in ACTION_CLASSES.items():
        assert set(defs[name]["properties"]) == {"type", *_fields(cls)}, name
        assert defs[name]["properties"]["type"]["const"] == name
    events = {cls.__name__: cls for cls in event_classes()}
    assert set(NO_QUARTER_EVENTS.names) <= set(events)
    for name, cls in events.items():
        assert set(defs[name]["properties"]) == {"type", *_fields(cls)}, name
    request_defs = _schema("request")["$defs"]
    act = request_defs["ActRequest"]["properties"]["action"]
    assert set(act["discriminator"]["mapping"]) == set(ACTION_CLASSES)


def test_models_refuse_what_the_contract_does_not_allow() -> None:
    from pydantic import ValidationError

    from wargym.server.models import adapters

    models = adapters()
    good = Handler().handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                             "seed": 2})  # fmt: skip
    models["response"].validate_json(json.dumps(good))
    validator = jsonschema.Draft202012Validator(_schema("response"))
    validator.validate(good)
    for path, value in [
        (("state", "mechs", "0", "armor"), "x"),
        (("state", "mechs", "0", "speed"), "6"),  # no coercion of strings
        (("legal_actions", 0, "type"), "Teleport"),
        (("events", 0, "type"), "NoSuchEvent"),
        (("state", "mechs", "0", "extra_field"), 1),
    ]:
        bad = json.loads(json.dumps(good))
        node = bad
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        with pytest.raises(ValidationError):
            models["response"].validate_json(json.dumps(bad))
        assert not validator.is_valid(bad), path


def test_schema_cli_check_and_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wargym.server import models

    monkeypatch.setattr(models, "SCHEMA_DIR", tmp_path)
    assert models.main(["--check"]) == 1  # missing: out of date
    assert not list(tmp_path.iterdir())  # --check writes nothing
    assert models.main(["--write"]) == 0
    assert models.main(["--check"]) == 0
    assert models.main(["--bogus"]) == 2


# -- OpenAPI and /docs ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():  # type: ignore[no-untyped-def]
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from wargym.server.http import create_app

    return TestClient(create_app(Handler(), timeout_s=30.0))


def test_openapi_components_describe_and_validate_real_messages(client) -> None:  # type: ignore[no-untyped-def]
    from wargym.rules.no_quarter.battle.actions import ACTION_CLASSES

    api = client.get("/openapi.json").json()
    components = api["components"]["schemas"]
    post = api["paths"]["/v1"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Request"}
    answer = post["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/Response"}
    for name in (
        "Battle",
        "Mech",
        "MechDesign",
        "Pilot",
        "Decision",
        "NpBlock",
        "MissionBlock",
        *ACTION_CLASSES,
        "MechMoved",
        "DamageRolled",
        "PefPlaced",
        "PilotCreated",
    ):
        assert name in components and components[name].get("properties"), name  # fmt: skip
    refs = set(re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(api)))
    assert refs <= set(components), refs - set(components)

    # a client reading only /openapi.json checks messages with its components
    def validator(name: str) -> Any:
        root = {"$ref": f"#/components/schemas/{name}", "components": api["components"]}
        return jsonschema.Draft202012Validator(root)

    requests, responses = validator("Request"), validator("Response")
    game = client.post("/v1", json={"protocol": P, "type": "new_game", "system": "no_quarter",
                                    "seed": 3}).json()  # fmt: skip
    responses.validate(game)
    act = {"protocol": P, "type": "act", "state": game["state"],
           "action": game["legal_actions"][0], "seed": 1}  # fmt: skip
    requests.validate(act)
    responses.validate(client.post("/v1", json=act).json())
    responses.validate(client.post("/v1", json={"protocol": P, "type": "legal"}).json())
    assert not requests.is_valid({**act, "action": {"type": "ActivateGroup", "leader": "0"}})


def test_docs_page_loads_only_local_assets(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.text
    assert "SwaggerUIBundle" in html
    assert "://" not in html, re.findall(r"\S*://\S*", html)  # no CDN, no other host
    urls = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: '([^']+)'", html)
    assert {u for u in urls if u.endswith((".js", ".css"))}, urls
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        asset = client.get(url)
        assert asset.status_code == 200 and asset.content, url
    assert client.get("/redoc").status_code == 404  # ReDoc only loads from a CDN: off


# -- the command line: the shipped policy by default ------------------------------------------
def _info(*flags: str) -> dict[str, Any]:
    line = json.dumps({"protocol": P, "type": "info"}) + "\n"
    command = [sys.executable, "-m", "wargym.server", "--stdio", *flags]
    done = subprocess.run(command, input=line.encode(), capture_output=True, timeout=120,
                          check=True)  # fmt: skip
    reply: dict[str, Any] = json.loads(done.stdout)
    return reply


def test_serve_plays_the_shipped_policy_by_default_and_none_turns_it_off() -> None:
    default = _info()
    assert default["policy"]["file"] == "nq_skirmish_ppo.onnx"
    assert _info("--model", "shipped")["policy"] == default["policy"]
    assert _info("--model", "none")["policy"] is None


def test_serve_bad_model_exits_2_with_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.onnx"
    done = subprocess.run([sys.executable, "-m", "wargym.server", "--stdio", "--model",
                           str(missing)], capture_output=True, timeout=120)  # fmt: skip
    err = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "--model" in err and "nope.onnx" in err
    assert not missing.exists()


# -- fallback reasons in words ----------------------------------------------------------------
@pytest.fixture(scope="module")
def shipped():  # type: ignore[no-untyped-def]
    from wargym.agents.learned import shipped_model
    from wargym.server.policy import OnnxOpponent

    return OnnxOpponent(shipped_model(".onnx"))


def test_fallback_reason_says_why_in_words(shipped) -> None:  # type: ignore[no-untyped-def]
    """More mechs than the policy's slots: it decides in a local view, else says why not."""
    handler = Handler(shipped)
    game = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 1,
                           "skirmish": {"mechs_per_side": 6}})  # fmt: skip
    slots = shipped.codec.max_mechs
    state, said = game["state"], collections.Counter()
    for seed in range(40):
        moved = handler.handle({"protocol": P, "type": "opponent_move", "state": state,
                                "seed": seed})  # fmt: skip
        said[moved["chosen_by"]] += 1
        state = moved["state"]
    assert said["onnx (local view)"] > 0, said  # the policy plays battles beyond its slots
    fallback = f"rules (fallback: the policy has {slots} mech slots, this side has 6 mechs, " \
        "and this choice lies outside the policy's local view)"  # fmt: skip
    assert set(said) <= {"onnx (local view)", fallback}, said


def test_a_position_without_a_legal_index_falls_back_in_words(shipped) -> None:  # type: ignore[no-untyped-def]
    """The reason names what went wrong: here no legal action fits the policy's layout."""
    from wargym.server.protocol import _load

    handler = Handler(shipped)
    game = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 1})
    battle = _load({"state": game["state"]})
    legal = __import__("wargym.rules.no_quarter.battle.game", fromlist=["game"]).legal_actions(
        battle
    )
    original = shipped.codec.mask
    try:
        shipped.codec.mask = lambda b: np.zeros(shipped.codec.n, dtype=bool)
        moved = handler.handle({"protocol": P, "type": "opponent_move", "state": game["state"],
                                "seed": 0})  # fmt: skip
    finally:
        shipped.codec.mask = original
    n = len(legal)
    plural = "action fits" if n == 1 else "actions fits"
    assert moved["chosen_by"] == f"rules (fallback: none of the {n} legal {plural} the " \
        "policy's action layout)"  # fmt: skip


def test_no_memory_of_another_request_reaches_the_policy(shipped) -> None:  # type: ignore[no-untyped-def]
    from wargym.agents.heuristic import _sighting
    from wargym.server.protocol import _load

    handler = Handler(shipped)
    game = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 4})
    battle = _load({"state": game["state"]})
    side = battle.decision.side
    # another client's battle had a mech 40 this side remembers seeing
    stranger = dataclasses.replace(next(iter(battle.mechs.values())), id=40)
    shipped.encoder.advisor._tactician(side).last_seen[40] = _sighting(stranger, battle.turn)
    moved = handler.handle({"protocol": P, "type": "opponent_move", "state": game["state"],
                            "seed": 0})  # fmt: skip
    assert moved["chosen_by"] == "onnx", moved["chosen_by"]
