"""A full default game plays to its end over the server's HTTP and ``--stdio`` interfaces.

Every request sends the state the server returned last, so every state the engine produced
passes the server's validation (``validity.check_battle``). Before armour was clamped at 0
(§17.4.2) the first hit beyond a location's armour stopped such a game (seed 3: at move
61, ``invalid_state: state.mechs.5.armor.3: -2 is outside 0..3``). HTTP goes to a real
uvicorn server on a loopback port (tests/server/loopback.py); stdio to a
``python -m wargym.server --stdio`` subprocess, request by request.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from server_cases import P  # noqa: E402

from wargym.server import Handler  # noqa: E402

MAX_REQUESTS = 3000
"""Far more decisions than a default skirmish takes (about 120); a guard, not a target."""


def _play_to_the_end(send: Callable[[dict[str, Any]], dict[str, Any]], seed: int) -> dict:
    """new_game, then opponent_move (the rules' choice) for whichever side decides."""
    reply = send({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": seed})
    overkill = 0
    for step in range(MAX_REQUESTS):
        assert "error" not in reply, (step, reply.get("error"))
        if reply["over"]:
            break
        legal = send({"protocol": P, "type": "legal", "state": reply["state"]})
        assert "error" not in legal, (step, legal.get("error"))
        reply = send({"protocol": P, "type": "opponent_move", "state": reply["state"],
                      "policy": "rules", "seed": step})  # fmt: skip
        overkill += sum(
            e["type"] == "DamageRolled" and e["damage"] > e["armor_before"]
            for e in reply.get("events", ())
        )
    assert reply["over"] and reply["outcome"] is not None, "the game did not end"
    for mech in reply["state"]["mechs"].values():
        assert all(0 <= a <= d for a, d in zip(mech["armor"], mech["design"]["armor"], strict=True))
    return {"reply": reply, "overkill": overkill, "requests": step}


def test_full_default_game_over_http() -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    from loopback import serving

    with serving(Handler(), timeout_s=60.0) as post:

        def send(request: dict[str, Any]) -> dict[str, Any]:
            status, data = post(json.dumps(request).encode())
            assert status == 200, str(data)[:300]
            assert isinstance(data, dict)
            return data

        for seed in range(3, 9):  # until a game had damage beyond the armour left
            played = _play_to_the_end(send, seed=seed)
            if played["overkill"]:
                break
    assert played["overkill"] > 0  # damage beyond the armour left happened and was clamped


def test_full_default_game_over_stdio() -> None:
    command = [sys.executable, "-m", "wargym.server", "--stdio", "--timeout", "60"]
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(request: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line, "the server closed its output"
        data: dict[str, Any] = json.loads(line)
        return data

    try:
        played = _play_to_the_end(send, seed=3)
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == 0, stderr[-2000:]
    assert played["overkill"] > 0
