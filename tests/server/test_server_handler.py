"""Opponent server handler: happy paths, the bad-request catalogue, schema conformance."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from server_cases import P, catalogue, legal_action, start, state, valid_request  # noqa: E402

from wargym.server import Handler  # noqa: E402
from wargym.server.validation import load_schema  # noqa: E402

CASES = catalogue()


def _validator(name: str):  # type: ignore[no-untyped-def]
    jsonschema = pytest.importorskip("jsonschema")
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_catalogue_has_at_least_50_distinct_cases() -> None:
    assert len(CASES) >= 50
    assert len({name for name, _, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "raw", "code"), CASES, ids=[c[0] for c in CASES])
def test_bad_request_gets_a_clear_error_and_the_handler_keeps_serving(
    name: str, raw: bytes, code: str
) -> None:
    handler = Handler()
    reply = handler.handle_bytes(raw)
    assert "error" in reply, name
    error = reply["error"]
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert reply["protocol"] == P
    ok = handler.handle_bytes(valid_request())
    assert "error" not in ok and ok["id"] == "ok" and ok["legal_actions"]


def test_errors_name_the_field() -> None:
    handler = Handler()
    by_name = {name: raw for name, raw, _ in CASES}
    expect = {
        "armor above design": "state.mechs.0.armor.0",
        "mech off the table": "state.mechs.0.pos",
        "unknown field": "debug",
        "negative seed": "seed",
        "illegal action: enemy leader": "action",
        "unknown scenario": "scenario",
    }
    for name, field in expect.items():
        assert handler.handle_bytes(by_name[name])["error"]["field"] == field, name


def test_new_game_legal_act_round_trip_through_json() -> None:
    handler = Handler()
    game = start()
    assert game["type"] == "new_game_result" and game["decision"]["side"] == "blue"
    again = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 5})
    assert again["state"] == game["state"]  # seeded: same set-up
    legal = handler.handle({"protocol": P, "type": "legal", "state": state(), "id": 7})
    assert legal["id"] == 7 and legal["legal_actions"] == game["legal_actions"]
    assert "state" not in legal
    raw = json.dumps({"protocol": P, "type": "act", "state": state(), "action": legal_action(),
                      "seed": 1}).encode()  # fmt: skip
    one, two = handler.handle_bytes(raw), handler.handle_bytes(raw)
    assert one == two and one["type"] == "act_result" and one["events"]
    first = {"ActivateGroup": "GroupActivated", "SplitOff": "MechSplitOff"}
    assert one["events"][0]["type"] == first[legal_action()["type"]]  # a group order first (E19)
    assert one["state"] != game["state"]


def test_opponent_move_with_the_rules_plays_a_legal_action() -> None:
    handler = Handler()
    reply = handler.handle({"protocol": P, "type": "opponent_move", "state": state(), "seed": 2})
    assert reply["chosen_by"] == "rules" and reply["side"] == "blue"
    assert reply["action"] in start()["legal_actions"]


def test_a_whole_battle_over_the_protocol_ends_and_game_over_is_refused() -> None:
    handler = Handler()
    reply = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 3,
                            "skirmish": {"mechs_per_side": 1, "max_turns": 3}})  # fmt: skip
    for step in range(2000):
        if reply["over"]:
            break
        reply = handler.handle({"protocol": P, "type": "opponent_move", "state": reply["state"],
                                "seed": step})  # fmt: skip
        assert "error" not in reply, reply
    assert reply["over"] and reply["outcome"]["reason"] and reply["decision"] is None
    assert reply["legal_actions"] == []
    late = handler.handle({"protocol": P, "type": "act", "state": reply["state"],
                           "action": legal_action()})  # fmt: skip
    assert late["error"]["code"] == "game_over"


def test_missions_from_scenarios_validate() -> None:
    handler = Handler()
    info = handler.handle({"protocol": P, "type": "info"})
    for name in info["scenarios"]["no_quarter"]:
        reply = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                                "scenario": name, "seed": 1})  # fmt: skip
        assert "error" not in reply, (name, reply)
        again = handler.handle({"protocol": P, "type": "legal", "state": reply["state"]})
        assert "error" not in again, (name, again)


def test_responses_and_requests_follow_the_json_schemas() -> None:
    requests, responses = _validator("request"), _validator("response")
    handler = Handler()
    good = [
        {"protocol": P, "type": "info"},
        {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": 1},
        {"protocol": P, "type": "legal", "state": state()},
        {"protocol": P, "type": "act", "state": state(), "action": legal_action(), "seed": 0},
        {"protocol": P, "type": "opponent_move", "state": state(), "policy": "rules"},
    ]
    for request in good:
        requests.validate(request)
        responses.validate(handler.handle(request))
    for _, raw, _ in CASES:
        responses.validate(handler.handle_bytes(raw))
    schema_rejects = 0
    for _, raw, _ in CASES:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        schema_rejects += not requests.is_valid(data)
    assert schema_rejects >= 25  # the structural half of the catalogue fails the schema too


def test_unexpected_engine_failure_becomes_an_internal_error(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    handler = Handler()

    def boom(body: object) -> None:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(handler, "_legal", boom)
    reply = handler.handle_bytes(valid_request())
    assert reply["error"]["code"] == "internal" and "engine bug" in reply["error"]["message"]


def test_the_handler_never_writes_into_the_request_state() -> None:
    handler = Handler()
    current = state()
    before = json.dumps(current, sort_keys=True)
    for step in range(5):
        reply = handler.handle({"protocol": P, "type": "opponent_move", "state": current,
                                "seed": step})  # fmt: skip
        assert json.dumps(current, sort_keys=True) == before
        legal = handler.handle({"protocol": P, "type": "legal", "state": reply["state"]})
        assert legal["legal_actions"] == reply["legal_actions"]
        current, before = reply["state"], json.dumps(reply["state"], sort_keys=True)


def test_new_game_replies_with_the_set_up_events() -> None:
    handler = Handler()
    skirmish = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                               "seed": 3})  # fmt: skip
    kinds = [e["type"] for e in skirmish["events"]]
    assert kinds.index("TurnStarted") < kinds.index("ActivationRolled")  # turn 1's activation
    mission = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                              "scenario": "patrol_star_army_vs_hishen", "seed": 3})  # fmt: skip
    kinds = [e["type"] for e in mission["events"]]
    assert "PefPlaced" in kinds and kinds.index("PefPlaced") < kinds.index("ActivationRolled")
