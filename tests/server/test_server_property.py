"""Property: the server accepts back every state it returns (every game family, any play).

Hypothesis picks a family (the default skirmish or a shipped scenario), a seed and a line of
play (legal actions chosen by the test, or the rules' opponent); after every answer the state
goes back to the server (``legal``) through the JSON wire format and must be accepted with the
same legal actions. Every message validates against the protocol's models; the last answer also
against the committed JSON Schema. A small example budget keeps CI modest; the full games of
tests/server/test_server_full_game.py play each family to its end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES, P, checked_send, new_game  # noqa: E402

from wargym.server import Handler  # noqa: E402

HANDLER = Handler()


def _wire(request: dict[str, Any]) -> dict[str, Any]:
    """The handler behind JSON bytes both ways, as a transport sees it."""
    reply: dict[str, Any] = json.loads(json.dumps(HANDLER.handle_bytes(json.dumps(request))))
    return reply


SEND = checked_send(_wire)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)  # fmt: skip
@given(
    family=st.sampled_from(FAMILIES),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 30),
    data=st.data(),
)
def test_every_state_the_server_returns_it_accepts_back(
    family: str, seed: int, steps: int, data: st.DataObject
) -> None:
    reply = SEND(new_game(family, seed))
    for step in range(steps):
        assert "error" not in reply, (family, seed, step, reply.get("error"))
        back = SEND({"protocol": P, "type": "legal", "state": reply["state"]})
        assert "error" not in back, (family, seed, step, back.get("error"))
        assert back["legal_actions"] == reply["legal_actions"] and back["over"] == reply["over"]
        if reply["over"]:
            break
        if data.draw(st.booleans(), label="the test picks the action"):
            action = data.draw(st.sampled_from(reply["legal_actions"]), label="action")
            request = {"protocol": P, "type": "act", "state": reply["state"], "action": action}
        else:
            request = {"protocol": P, "type": "opponent_move", "state": reply["state"],
                       "policy": "rules"}  # fmt: skip
        reply = SEND({**request, "seed": data.draw(st.integers(0, 2**63 - 1), label="seed")})
    jsonschema = pytest.importorskip("jsonschema")
    from wargym.server.validation import load_schema

    jsonschema.Draft202012Validator(load_schema("response")).validate(reply)
