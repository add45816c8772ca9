"""Every served game family plays to its end over HTTP and ``--stdio``, the shipped policy on blue.

Every request sends the state the server returned last, so every state the engine produced
passes the server's validation (``validity.check_battle``), and every message validates against
the protocol's pydantic models (tests/server/families.py); a ``legal`` request (the same state
again, its legal actions compared) goes with every third move over HTTP and every fifth over
stdio: it costs about as much as the move (both load and validate the state), and the move
already sends every state back. Before armour was clamped at 0 (§17.4.2) the first hit beyond
a location's armour stopped such a game with ``invalid_state`` (``state.mechs.5.armor.3: -2 is
outside 0..3``); the games here deal such hits and the armour stays within 0..design. HTTP goes
through FastAPI's TestClient; stdio to one ``python -m wargym.server --stdio`` subprocess (the
shipped policy is its default ``--model``). The families include one Cestus V mission.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES, SEEDS, checked_send, play  # noqa: E402

from wargym.server import Handler  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


def _check_end(played: dict[str, Any]) -> None:
    reply = played["reply"]
    for mech in reply["state"]["mechs"].values():
        assert all(0 <= a <= d for a, d in zip(mech["armor"], mech["design"]["armor"], strict=True))
    assert played["chosen_by"], "the opponent never moved"


@pytest.fixture(scope="module")
def http_send() -> Iterator[Any]:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from wargym.agents.learned import shipped_model
    from wargym.server.http import create_app
    from wargym.server.policy import OnnxOpponent

    client = TestClient(create_app(Handler(OnnxOpponent(shipped_model(".onnx"))), timeout_s=60))

    def send(request: dict[str, Any]) -> dict[str, Any]:
        reply = client.post("/v1", content=json.dumps(request))
        assert reply.status_code == 200, reply.text[:300]
        data: dict[str, Any] = reply.json()
        return data

    yield checked_send(send)
    client.close()


@pytest.mark.parametrize("family", FAMILIES)
def test_full_game_of_every_family_over_http(http_send: Any, family: str) -> None:
    played = play(http_send, family, SEEDS[family], legal_every=3)
    _check_end(played)
    if family == "default skirmish":  # the policy's own game: it plays, no fallback
        assert played["chosen_by"].get("onnx", 0) > 0, played["chosen_by"]


def test_full_game_of_every_family_over_stdio(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "wargym.server", "--stdio", "--timeout", "60"]
    log = (tmp_path / "stderr.txt").open("w+b")  # a pipe nobody drains would fill and block
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
    assert proc.stdin is not None and proc.stdout is not None

    def send(request: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line, "the server closed its output"
        data: dict[str, Any] = json.loads(line)
        return data

    overkill = 0
    try:
        for family in FAMILIES:
            played = play(checked_send(send), family, SEEDS[family], legal_every=5)
            _check_end(played)
            overkill += played["overkill"]
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        log.seek(0)
        stderr = log.read().decode(errors="replace")
        log.close()
    assert proc.returncode == 0, stderr[-2000:]
    assert "could not play" not in stderr  # a fallback is said in chosen_by, not logged loudly
    assert overkill > 0  # damage beyond the armour left happened and was clamped
