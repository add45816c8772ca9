"""The plain-JSON parts of a battle (frames, ``np``, ``mission``) in ``validity.check_battle``.

``validity_parts`` is part of the one definition of a valid battle: ``Battle.from_dict`` (env
snapshots, saves) and the opponent server's ``load_battle`` refuse the same tampered state,
naming the same field (``battle.`` there, ``state.`` on the server). The frame kinds it knows
are exactly the engine's procedures, and the pending decision must be the one the top frame
asks (the rules resume from it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battle.validity import InvalidBattleError
from wargym.rules.no_quarter.battle.validity_parts import ASKING, _frame_kinds, _Parts
from wargym.rules.no_quarter.campaigns.campaign import _scenario
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.server.validation import ProtocolError, load_battle


def _mission(steps: int) -> dict[str, Any]:
    """A Patrol mission after ``steps`` random legal decisions (frames, np and mission)."""
    dice = RandomDice.from_seed(3)
    battle = new_mission(_scenario("patrol_star_army_vs_hishen"), np.random.default_rng(3), dice)
    chooser = np.random.default_rng(3)
    for _ in range(steps):
        options = game.legal_actions(battle)
        game.play(battle, options[int(chooser.integers(len(options)))], dice)
    return battle.to_dict()


def _top(kind: str, key: str, value: Any) -> Callable[[dict[str, Any]], str]:
    def change(data: dict[str, Any]) -> str:
        i = max(i for i, f in enumerate(data["frames"]) if f["kind"] == kind)
        data["frames"][i][key] = value
        return f"frames.{i}.{key}"

    return change


def _phase_done(data: dict[str, Any]) -> str:
    i = max(i for i, f in enumerate(data["frames"]) if f["kind"] == "phase" and "done" in f)
    data["frames"][i]["done"] = [len(data["frames"][i]["groups"])]
    return f"frames.{i}.done.0"


def _top_popped(data: dict[str, Any]) -> str:
    data["frames"].pop()
    return f"frames.{len(data['frames']) - 1}"


def _np_gone(data: dict[str, Any]) -> str:
    data["np"] = None
    return "np"


CASES: dict[str, Callable[[dict[str, Any]], str]] = {
    "phase stage unknown": _top("phase", "stage", "nap"),
    "phase groups hold 0.5": lambda d: _top("phase", "groups", [[0.5]])(d) + ".0.0",
    "phase done index beyond its groups": _phase_done,
    "frame with an unknown key": _top("phase", "extra", 1),
    "top frame does not ask the decision": _top_popped,
    "mission without np": _np_gone,
    "pef off the table": lambda d: (d["np"]["pefs"][0].update(pos=[-1, 5]), "np.pefs.0.pos.0")[1],
    "ratio_denominator 0": lambda d: (
        d["mission"]["options"].update(ratio_denominator=0),
        "mission.options.ratio_denominator",
    )[1],
    "weather row 9": lambda d: (d["mission"]["weather"].update(row=9), "mission.weather.row")[1],
    "np group target no mech": lambda d: (
        d["np"]["default"].update(target=999),
        "np.default.target",
    )[1],
}


@pytest.fixture(scope="module")
def state() -> dict[str, Any]:
    data = _mission(3)
    assert data["np"]["pefs"] and any(f["kind"] == "phase" and "done" in f for f in data["frames"])
    return data


@pytest.mark.parametrize("name", sorted(CASES))
def test_from_dict_and_server_refuse_the_same_field(name: str, state: dict[str, Any]) -> None:
    Battle.from_dict(copy.deepcopy(state))  # the untouched state is valid
    data = copy.deepcopy(state)
    field = CASES[name](data)
    kept = copy.deepcopy(data)
    with pytest.raises(InvalidBattleError) as caught:
        Battle.from_dict(data)
    assert caught.value.path == f"battle.{field}", str(caught.value)
    assert data == kept  # the input is not changed
    with pytest.raises(ProtocolError) as refused:
        load_battle(copy.deepcopy(kept))
    assert refused.value.code == "invalid_state"
    assert refused.value.field == f"state.{field}", str(refused.value)


def test_frame_kinds_are_the_engine_procedures(state: dict[str, Any]) -> None:
    from wargym.rules.no_quarter.battle.actions import DecisionKind
    from wargym.rules.no_quarter.battle.game import HANDLERS

    battle = Battle.from_dict(copy.deepcopy(state))
    assert set(_frame_kinds(_Parts(battle, frozenset(battle.mechs)))) == set(HANDLERS)
    assert set(ASKING) == {kind.value for kind in DecisionKind}
