"""Opponent server transports: HTTP (FastAPI TestClient), JSON lines over a subprocess, ONNX."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from server_cases import P, catalogue, state, valid_request  # noqa: E402

from wargym.server import Handler  # noqa: E402

CASES = catalogue()
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture(scope="module")
def client():  # type: ignore[no-untyped-def]
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from wargym.server.http import create_app

    return TestClient(create_app(Handler(), timeout_s=30.0))


def test_http_happy_path_openapi_and_health(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/healthz").json()["status"] == "ok"
    info = client.get("/v1/info").json()
    assert info["type"] == "info_result" and "no_quarter" in info["systems"]
    game = client.post("/v1", json={"protocol": P, "type": "new_game", "system": "no_quarter",
                                    "seed": 4})  # fmt: skip
    assert game.status_code == 200 and game.json()["decision"]["side"] in ("blue", "red")
    api = client.get("/openapi.json").json()
    body = api["paths"]["/v1"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Request"}
    assert api["components"]["schemas"]["Request"]["discriminator"]["propertyName"] == "type"


def test_http_bad_request_catalogue_gets_4xx_and_keeps_serving(client) -> None:  # type: ignore[no-untyped-def]
    from wargym.server.validation import HTTP_STATUS

    for name, raw, code in CASES:
        reply = client.post("/v1", content=raw, headers={"content-type": "application/json"})
        assert reply.status_code == HTTP_STATUS[code], (name, reply.text[:200])
        assert 400 <= reply.status_code < 500, name
        assert reply.json()["error"]["code"] == code, name
        ok = client.post("/v1", content=valid_request())
        assert ok.status_code == 200 and ok.json()["id"] == "ok", name


def test_http_refuses_a_declared_oversized_body_before_reading_it(client) -> None:  # type: ignore[no-untyped-def]
    reply = client.post("/v1", content=b"{}", headers={"content-length": "999999999"})
    assert reply.status_code == 413


def test_http_time_limit_answers_503(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("fastapi")
    import time

    from fastapi.testclient import TestClient

    from wargym.server.http import create_app

    handler = Handler()
    monkeypatch.setattr(handler, "handle_bytes", lambda raw: time.sleep(1.0) or {})
    reply = TestClient(create_app(handler, timeout_s=0.1)).post("/v1", content=valid_request())
    assert reply.status_code == 503 and reply.json()["error"]["code"] == "timeout"


def test_stdio_mode_answers_each_line_and_survives_bad_ones() -> None:
    picked = [c for c in CASES[:22] if c[1].strip()]  # blank lines are skipped, not answered
    lines = [raw.replace(b"\n", b" ") for _, raw, _ in picked]
    lines.insert(3, valid_request())
    lines.append(b"x" * 2_000_000)  # oversized line, skipped to its end
    lines.append(valid_request())
    command = [sys.executable, "-m", "wargym.server", "--stdio"]
    feed = b"\n".join(lines) + b"\n"
    proc = subprocess.run(command, input=feed, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(lines)
    assert replies[3]["id"] == "ok" and "error" not in replies[3]
    assert replies[-2]["error"]["code"] == "too_large"
    assert replies[-1]["id"] == "ok" and replies[-1]["legal_actions"]
    codes = [r["error"]["code"] for i, r in enumerate(replies[:-2]) if i != 3]
    assert codes == [code for _, _, code in picked]


@pytest.fixture(scope="module")
def nq_policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random-init MaskablePPO on the No Quarter skirmish env, exported (no training)."""
    for name in ("torch", "sb3_contrib", "onnx", "onnxruntime", "onnxscript"):
        pytest.importorskip(name)
    import warnings

    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401
    from wargym.export_onnx import export

    folder = tmp_path_factory.mktemp("nq")
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})  # fmt: skip
    model.save(folder / "nq.zip")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        onnx_path, _ = export(folder / "nq.zip", folder / "nq.onnx", check=20)
    return onnx_path


def test_onnx_opponent_plays_legal_moves_at_every_tier(nq_policy: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    handler = Handler(OnnxOpponent(nq_policy))
    info = handler.handle({"protocol": P, "type": "info"})
    assert info["policy"]["observation_version"] == "nq-obs-v3"
    current = state()
    for step, tier in enumerate([None, "easy", "medium", "hard", "expert"] * 4):
        legal = handler.handle({"protocol": P, "type": "legal", "state": current})
        assert "error" not in legal, legal
        if legal["over"]:
            break
        reply = handler.handle({"protocol": P, "type": "opponent_move", "state": current,
                                "tier": tier, "seed": step})  # fmt: skip
        assert "error" not in reply, reply
        assert reply["action"] in legal["legal_actions"]
        assert reply["chosen_by"].startswith(("onnx", "rules (tier"))
        current = reply["state"]


def test_server_refuses_non_onnx_models(tmp_path: Path) -> None:
    from wargym.server.policy import OnnxOpponent

    pickle_file = tmp_path / "model.zip"
    pickle_file.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ValueError, match=".onnx policies only"):
        OnnxOpponent(pickle_file)
