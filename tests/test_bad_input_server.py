"""Bad-input catalogue (issue 9): opponent server gaps (docs/bad_input.md).

tests/server/server_cases.py holds the main catalogue of bad requests; these rows add what
the catalogue review found missing (repeated keys, non-finite numbers inside a state, a
UTF-8 BOM, numbers of the wrong kind in int fields). Each reply is an error naming the field
(or the key) and the handler keeps serving.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_cases import P, state, valid_request  # noqa: E402

from wargym.server import Handler  # noqa: E402


def _raw(data: Any) -> bytes:
    return json.dumps(data).encode()


def _legal_with(path: str, value: Any) -> bytes:
    data = state()
    node: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return _raw({"protocol": P, "type": "legal", "state": data})


def _mission_state() -> dict[str, Any]:
    """The state of a shipped Defend mission (np and mission blocks, an NP default group)."""
    reply = Handler().handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                              "scenario": "defend_pdf_vs_hishen", "seed": 1})  # fmt: skip
    assert "error" not in reply, reply
    data: dict[str, Any] = reply["state"]
    assert data["np"] is not None and data["mission"] is not None
    return data


def _mission_with(change: Any) -> bytes:
    data = _mission_state()
    change(data)
    return _raw({"protocol": P, "type": "legal", "state": data})


def _issue_21_cases() -> list[Any]:
    """Client mistakes that were answered ``internal`` (issue 21, item 10)."""
    p = P.encode()
    legal = b'{"protocol": "%s", "type": "legal", "id": %s, "state": %s}'
    state_text = json.dumps(state()).encode()
    top = len(state()["frames"]) - 1
    return [
        (
            "frame without its kind",
            _legal_with(f"frames.{top}.kind", None),
            "invalid_state",
            f"state.frames.{top}",
        ),
        (
            "frame with a dangling mech id",
            _legal_with(
                "frames.0",
                {
                    "kind": "mech",
                    "mech": 99,
                    "stage": "begin",
                    "spent": 0.0,
                    "moved": False,
                    "fired": False,
                },
            ),
            "invalid_state",
            "state.frames.0.mech",
        ),  # fmt: skip
        (
            "frame stack of 10**4 frames",
            _legal_with("frames", [{"kind": "turn"}] * 10_000),
            "invalid_state",
            "state.frames",
        ),  # fmt: skip
        (
            "np without pefs",
            _mission_with(lambda d: d["np"].pop("pefs")),
            "invalid_state",
            "state.np.pefs",
        ),
        (
            "np side unknown",
            _mission_with(lambda d: d["np"].update(side=-1)),
            "invalid_state",
            "state.np.side",
        ),
        (
            "np default group garbled",
            _mission_with(lambda d: d["np"]["default"].update(posture="nap")),
            "invalid_state",
            "state.np.default",
        ),  # fmt: skip
        (
            "mission without kind",
            _mission_with(lambda d: d["mission"].pop("kind")),
            "invalid_state",
            "state.mission.kind",
        ),  # fmt: skip
        (
            "mission options garbled",
            _mission_with(lambda d: d["mission"]["options"].update(ratio_rounding=7)),
            "invalid_state",
            "state.mission.options",
        ),  # fmt: skip
        (
            "heading 10**400",
            _legal_with("mechs.0.heading", 10**400),
            "bad_request",
            "state.mechs.0.heading",
        ),
        (
            "seed with 5000 digits",
            b'{"protocol": "%s", "type": "new_game", "system": "no_quarter", "seed": 1%s}'
            % (p, b"0" * 4999),
            "bad_request",
            "seed",
        ),  # fmt: skip
        (
            "float overflowing to infinity",
            legal % (p, b"1", state_text.replace(b'"turn": 1', b'"turn": 1e400', 1)),
            "bad_request",
            "state.turn",
        ),  # fmt: skip
        ("lone surrogate id", legal % (p, b'"\\ud800"', state_text), "bad_request", "id"),
        (
            "lone surrogate field name",
            b'{"protocol": "%s", "type": "info", "\\udc00x": 1}' % p,
            "bad_request",
            "\\udc00x",
        ),  # fmt: skip
        (
            "lone surrogate inside the state",
            _legal_with("mechs.0.pilot", "\ud800"),
            "bad_request",
            "state.mechs.0.pilot",
        ),  # fmt: skip
        ("float id", _raw({"protocol": P, "type": "info", "id": 1.5}), "bad_request", "id"),
    ]


def _cases() -> list[Any]:
    p = P.encode()
    state_text = json.dumps(state()).encode()
    return _issue_21_cases() + [
        (
            "duplicate top-level key",
            b'{"protocol": "%s", "type": "new_game", "type": "legal", "system": "no_quarter"}' % p,
            "bad_json",
            "type",
        ),
        (
            "duplicate key inside the state",
            b'{"protocol": "%s", "type": "legal", "state": %s}'
            % (p, state_text.replace(b'"turn": ', b'"turn": 1, "turn": ', 1)),
            "bad_json",
            "turn",
        ),
        (
            "NaN inside the state",
            b'{"protocol": "%s", "type": "legal", "state": %s}'
            % (p, state_text.replace(b'"turn": 1', b'"turn": NaN', 1)),
            "bad_json",
            "NaN",
        ),
        (
            "UTF-8 BOM",
            b"\xef\xbb\xbf" + _raw({"protocol": P, "type": "legal", "state": state()}),
            "bad_json",
            "BOM",
        ),
        (
            "seed with 500 digits",
            b'{"protocol": "%s", "type": "new_game", "system": "no_quarter", '
            b'"seed": 1%s}' % (p, b"0" * 500),
            "bad_request",
            "seed",
        ),
        (
            "seed float",
            _raw({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 1.5}),
            "bad_request",
            "seed",
        ),
        (
            "seed bool",
            _raw({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": True}),
            "bad_request",
            "seed",
        ),
        (
            "system int",
            _raw({"protocol": P, "type": "new_game", "system": 3}),
            "bad_request",
            "system",
        ),
        (
            "tier int",
            _raw({"protocol": P, "type": "opponent_move", "state": state(), "tier": 3}),
            "bad_request",
            "tier",
        ),
        (
            "action leader float",
            _raw(
                {
                    "protocol": P,
                    "type": "act",
                    "state": state(),
                    "action": {"type": "ActivateGroup", "leader": 0.0},
                }
            ),
            "invalid_action",
            "leader",
        ),
        (
            "action leader bool",
            _raw(
                {
                    "protocol": P,
                    "type": "act",
                    "state": state(),
                    "action": {"type": "ActivateGroup", "leader": False},
                }
            ),
            "invalid_action",
            "leader",
        ),
        ("turn float", _legal_with("turn", 1.5), "invalid_state", "turn"),
        ("turn bool", _legal_with("turn", True), "invalid_state", "turn"),
        ("armor float", _legal_with("mechs.0.armor.0", 1.5), "invalid_state", "armor"),
        ("pos string", _legal_with("mechs.0.pos", "a,b"), "invalid_state", "pos"),
        (
            "protocol 2",
            _raw({"protocol": "wargym-protocol/2", "type": "legal", "state": state()}),
            "unsupported_protocol",
            "wargym-protocol/2",
        ),
    ]


CASES = _cases()


@pytest.mark.parametrize(
    ("raw", "code", "word"), [pytest.param(r, c, w, id=f"server:{n}") for n, r, c, w in CASES]
)
def test_server_gap_rows(raw: bytes, code: str, word: str) -> None:
    handler = Handler()
    reply = handler.handle_bytes(raw)
    error = reply["error"]
    assert error["code"] == code, error
    assert word in error["message"] or word == error.get("field"), error
    assert len(error["message"]) <= 300, error
    json.dumps(reply, ensure_ascii=False).encode("utf-8")  # writable: no lone surrogate echoed
    ok = handler.handle_bytes(valid_request())
    assert "error" not in ok and ok["legal_actions"]
