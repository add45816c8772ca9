"""Shared fixtures data of the server tests: a valid game and the adversarial catalogue."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from wargym.server import PROTOCOL, Handler

P = PROTOCOL


@cache
def start() -> dict[str, Any]:
    """A seeded new game's response (state at blue's first decision)."""
    reply = Handler().handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 5})
    assert "error" not in reply, reply
    return reply


def state() -> dict[str, Any]:
    """A fresh deep copy of the start state."""
    return copy.deepcopy(start()["state"])


def legal_action() -> dict[str, Any]:
    return dict(start()["legal_actions"][0])


def valid_request() -> bytes:
    return json.dumps({"protocol": P, "type": "legal", "state": state(), "id": "ok"}).encode()


def _tampered(change: Any) -> dict[str, Any]:
    data = state()
    change(data)
    return {"protocol": P, "type": "legal", "state": data}


def _act(action: Any, **extra: Any) -> dict[str, Any]:
    return {"protocol": P, "type": "act", "state": state(), "action": action, **extra}


def _set(path: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        keys = path.split(".")
        node: Any = data
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _drop(path: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = data
        for key in head:
            node = node[key]
        del node[last]

    return change


def catalogue() -> list[tuple[str, bytes, str]]:
    """(name, raw request, expected error code): at least 50 bad requests."""
    big_armor = start()["state"]["mechs"]["0"]["design"]["armor"][0] + 1
    cases: list[tuple[str, Any, str]] = [
        ("empty body", b"", "bad_json"),
        ("whitespace", b"   \n ", "bad_json"),
        ("not json", b"hello", "bad_json"),
        ("truncated json", b'{"protocol": "wargym-protocol/1", "type": ', "bad_json"),
        ("trailing garbage", b'{"protocol": "wargym-protocol/1"} x', "bad_json"),
        ("invalid utf-8", b'{"protocol": "\xff\xfe"}', "bad_json"),
        (
            "NaN literal",
            b'{"protocol": "wargym-protocol/1", "type": "info", "id": NaN}',
            "bad_json",
        ),
        ("Infinity literal", b'{"protocol": "wargym-protocol/1", "x": -Infinity}', "bad_json"),
        ("oversized body", b'{"pad": "' + b"x" * 1_100_000 + b'"}', "too_large"),
        ("deep nesting arrays", b"[" * 5000 + b"]" * 5000, "too_deep"),
        ("deep nesting objects", b'{"a":' * 100 + b"1" + b"}" * 100, "too_deep"),
        ("nesting just over the limit", b"[" * 65 + b"]" * 65, "too_deep"),
        ("array root", [], "bad_request"),
        ("string root", "info", "bad_request"),
        ("number root", 42, "bad_request"),
        ("null root", None, "bad_request"),
        ("missing protocol", {"type": "info"}, "bad_request"),
        ("protocol wrong type", {"protocol": 1, "type": "info"}, "bad_request"),
        ("old protocol", {"protocol": "wargym-protocol/0", "type": "info"}, "unsupported_protocol"),
        ("missing type", {"protocol": P}, "bad_request"),
        ("type wrong type", {"protocol": P, "type": ["info"]}, "bad_request"),
        ("unknown message", {"protocol": P, "type": "resign"}, "unknown_type"),
        ("dunder message", {"protocol": P, "type": "__init__"}, "unknown_type"),
        ("unknown field", {"protocol": P, "type": "info", "debug": True}, "bad_request"),
        ("overlong id", {"protocol": P, "type": "info", "id": "x" * 500}, "bad_request"),
        ("new_game no system", {"protocol": P, "type": "new_game"}, "bad_request"),
        (
            "new_game unknown system",
            {"protocol": P, "type": "new_game", "system": "chess"},
            "unsupported_system",
        ),
        (
            "new_game space system",
            {"protocol": P, "type": "new_game", "system": "pentagon_war"},
            "unsupported_system",
        ),
        (
            "negative seed",
            {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": -1},
            "bad_request",
        ),
        (
            "huge seed",
            {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 2**80},
            "bad_request",
        ),
        (
            "float seed",
            {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 1.5},
            "bad_request",
        ),
        (
            "bool seed",
            {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": True},
            "bad_request",
        ),
        (
            "unknown scenario",
            {
                "protocol": P,
                "type": "new_game",
                "system": "no_quarter",
                "scenario": "../../etc/passwd",
            },
            "unknown_scenario",
        ),
        (
            "scenario and skirmish",
            {
                "protocol": P,
                "type": "new_game",
                "system": "no_quarter",
                "scenario": "skirmish",
                "skirmish": {},
            },
            "bad_request",
        ),
        (
            "skirmish 99 mechs",
            {
                "protocol": P,
                "type": "new_game",
                "system": "no_quarter",
                "skirmish": {"mechs_per_side": 99},
            },
            "bad_request",
        ),
        (
            "skirmish zero mechs",
            {
                "protocol": P,
                "type": "new_game",
                "system": "no_quarter",
                "skirmish": {"mechs_per_side": 0},
            },
            "bad_request",
        ),
        (
            "skirmish bad faction",
            {
                "protocol": P,
                "type": "new_game",
                "system": "no_quarter",
                "skirmish": {"blue": "orcs"},
            },
            "bad_request",
        ),
        (
            "skirmish unknown key",
            {"protocol": P, "type": "new_game", "system": "no_quarter", "skirmish": {"cheat": 1}},
            "bad_request",
        ),
        ("legal without state", {"protocol": P, "type": "legal"}, "bad_request"),
        ("state is a string", {"protocol": P, "type": "legal", "state": "x"}, "bad_request"),
        ("state empty object", {"protocol": P, "type": "legal", "state": {}}, "invalid_state"),
        ("state from another version", _tampered(_set("version", 2)), "invalid_state"),
        ("state version as string", _tampered(_set("version", "1")), "invalid_state"),
        ("state missing mechs", _tampered(_drop("mechs")), "invalid_state"),
        ("state unknown key", _tampered(_set("god_mode", True)), "invalid_state"),
        ("armor above design", _tampered(_set("mechs.0.armor.0", big_armor)), "invalid_state"),
        ("negative armor", _tampered(_set("mechs.0.armor.1", -1)), "invalid_state"),
        ("armor wrong length", _tampered(_set("mechs.0.armor", [1, 1])), "invalid_state"),
        ("armor as strings", _tampered(_set("mechs.0.armor.0", "2")), "invalid_state"),
        (
            "tampered design armor",
            _tampered(_set("mechs.0.design.armor", [9] * 7)),
            "invalid_state",
        ),
        ("unknown design", _tampered(_set("mechs.0.design.id", "death_star")), "invalid_state"),
        ("mech off the table", _tampered(_set("mechs.0.pos", [500.0, 3.0])), "invalid_state"),
        ("negative position", _tampered(_set("mechs.0.pos", [-3.0, 3.0])), "invalid_state"),
        ("mech id mismatch", _tampered(_set("mechs.0.id", 7)), "invalid_state"),
        (
            "negative mech id",
            _tampered(lambda d: d["mechs"].update({"-1": {**d["mechs"]["0"], "id": -1}})),
            "invalid_state",
        ),
        ("unknown side", _tampered(_set("mechs.0.side", "green")), "invalid_state"),
        ("huge table", _tampered(_set("battlefield.width", 1e9)), "invalid_state"),
        ("zero-width table", _tampered(_set("battlefield.width", 0)), "invalid_state"),
        ("turn limit 10^6", _tampered(_set("options.max_turns", 10**6)), "invalid_state"),
        (
            "move directions 10^4",
            _tampered(_set("options.move_directions", 10000)),
            "invalid_state",
        ),
        ("negative turn", _tampered(_set("turn", -4)), "invalid_state"),
        ("decision for unknown mech", _tampered(_set("decision.mech", 99)), "invalid_state"),
        ("decision kind unknown", _tampered(_set("decision.kind", "win_now")), "invalid_state"),
        ("running with no decision", _tampered(_set("decision", None)), "invalid_state"),
        ("decision without frames", _tampered(_set("frames", [])), "invalid_state"),
        (
            "building armour on no feature",
            _tampered(_set("building_armor", {"999": 3})),
            "invalid_state",
        ),
        ("act without action", {"protocol": P, "type": "act", "state": state()}, "bad_request"),
        ("action not an object", _act("fire!"), "bad_request"),
        ("action without type", _act({"leader": 0}), "invalid_action"),
        ("unknown action type", _act({"type": "Nuke"}), "invalid_action"),
        ("action missing field", _act({"type": "ActivateGroup"}), "invalid_action"),
        ("action extra field", _act({**legal_action(), "extra": 1}), "invalid_action"),
        (
            "action wrong field type",
            _act({"type": "ActivateGroup", "leader": "zero"}),
            "invalid_action",
        ),
        ("illegal action: other kind", _act({"type": "EndFire", "mech": 0}), "illegal_action"),
        (
            "illegal action: enemy leader",
            _act({"type": "ActivateGroup", "leader": 3}),
            "illegal_action",
        ),
        (
            "illegal action: negative leader",
            _act({"type": "ActivateGroup", "leader": -5}),
            "illegal_action",
        ),
        (
            "opponent bad policy",
            {"protocol": P, "type": "opponent_move", "state": state(), "policy": "pickle"},
            "bad_request",
        ),
        (
            "opponent onnx without model",
            {"protocol": P, "type": "opponent_move", "state": state(), "policy": "onnx"},
            "no_policy",
        ),
        (
            "opponent unknown tier",
            {"protocol": P, "type": "opponent_move", "state": state(), "tier": "godlike"},
            "bad_request",
        ),
    ]
    out = []
    for name, request, code in cases:
        raw = request if isinstance(request, bytes) else json.dumps(request).encode()
        out.append((name, raw, code))
    return out
