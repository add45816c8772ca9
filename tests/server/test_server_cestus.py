"""The Cestus V campaign's ten missions over the protocol (``scenario: "cestus_v_<stem>"``).

``info`` lists one name per mission of the campaign; ``new_game`` starts each as the campaign
plays it (Star Army on blue against the Hishen's PEFs), the state carries the mission and comes
back accepted; a name that is not listed (a path, a bare prefix, the internal scenario name of a
side) is refused with ``unknown_scenario``, its value clipped in the message; a state whose
mission number was tampered with is refused, not a crash (0: no campaign mission). The full
game of one mission over HTTP and ``--stdio`` is in tests/server/test_server_full_game.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
from wargym.server import Handler

P = "wargym-protocol/1"
HANDLER = Handler()
MISSIONS = campaign_definition().missions


def _new(scenario: Any, seed: int = 3) -> dict[str, Any]:
    return HANDLER.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                           "scenario": scenario, "seed": seed})  # fmt: skip


def test_info_lists_every_cestus_v_mission_after_the_shipped_scenarios() -> None:
    from wargym.rules.no_quarter.mission.scenario import scenario_names

    names = HANDLER.handle({"protocol": P, "type": "info"})["scenarios"]["no_quarter"]
    cestus = [f"cestus_v_{m.stem}" for m in MISSIONS]
    assert len(cestus) == 10
    assert names == [*scenario_names(), *cestus]  # the shipped ones first, as before


@pytest.mark.parametrize("mission", MISSIONS, ids=lambda m: m.stem)
def test_every_cestus_v_mission_starts_and_its_state_comes_back(mission: Any) -> None:
    reply = _new(f"cestus_v_{mission.stem}")
    assert "error" not in reply, reply.get("error")
    state = reply["state"]
    assert state["mission"]["cestus"] == mission.number  # the campaign's rules play on
    assert reply["decision"] is not None and reply["legal_actions"]
    sides = {m["side"] for m in state["mechs"].values()}
    assert "blue" in sides  # the player's mechs; the Hishen arrive as PEFs (§20)
    back = HANDLER.handle({"protocol": P, "type": "legal", "state": state})
    assert "error" not in back, back.get("error")
    assert back["legal_actions"] == reply["legal_actions"]
    again = _new(f"cestus_v_{mission.stem}")
    assert again["state"] == state  # the seed fixes the set-up


@pytest.mark.parametrize(
    "name",
    [
        "cestus_v_",
        "cestus_v_campaign",
        "cestus_v___init__",
        "cestus_v_../cestus_v/mission_01_trip_wire",
        "cestus_v_/etc/passwd",
        "cestus_v_mission_01_trip_wire.yaml",
        "cestus_v_mission_01_trip_wire_gaea_prime",  # the internal name of a side's scenario
        "cestus_v_mission_99_nothing",
        "CESTUS_V_MISSION_01_TRIP_WIRE",
        "cestus_v_" + "x" * 5000,
    ],
)
def test_a_cestus_v_name_not_listed_is_refused(name: str) -> None:
    reply = _new(name)
    assert reply["error"]["code"] == "unknown_scenario", reply
    assert reply["error"]["field"] == "scenario"
    message = reply["error"]["message"]
    assert "x" * 100 not in message  # the value is clipped
    assert "cestus_v_mission_01_trip_wire" in message  # the names that are served


@pytest.mark.parametrize("number", [11, -1, 10**30, "1", 2.5, [1], None])
def test_a_state_with_a_tampered_cestus_mission_number_is_refused(number: Any) -> None:
    reply = _new("cestus_v_mission_02_the_troll")
    state = copy.deepcopy(reply["state"])
    state["mission"]["cestus"] = number
    before = copy.deepcopy(state)
    back = HANDLER.handle({"protocol": P, "type": "legal", "state": state})
    assert back["error"]["code"] in ("invalid_state", "bad_request"), back  # not internal
    assert back["error"]["field"].startswith("state"), back
    assert state == before


@pytest.mark.parametrize("number", [0])
def test_a_state_without_a_cestus_mission_number_plays_the_generic_mission(number: Any) -> None:
    reply = _new("cestus_v_mission_02_the_troll")
    state = copy.deepcopy(reply["state"])
    state["mission"]["cestus"] = number  # falsy: no campaign mission (cestus_play.cestus_of)
    back = HANDLER.handle({"protocol": P, "type": "legal", "state": state})
    assert "error" not in back, back
