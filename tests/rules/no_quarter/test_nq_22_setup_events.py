"""The set-up's events reach the caller (§14.0 turn-1 activation, §20.0 PEF rolls, §22.3.1).

``new_skirmish_logged`` / ``new_mission_logged`` / ``setup_mission`` return the events that
``new_skirmish`` / ``new_mission`` used to drop; the mission env's first ``info`` and its
replays hold them (docs/events.md, "Set-up events").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from wargym.envs.no_quarter.mission import NoQuarterMissionEnv
from wargym.replay import frames_of
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.forces.setup import new_skirmish, new_skirmish_logged
from wargym.rules.no_quarter.mission.mission_play import (
    new_mission,
    new_mission_logged,
    setup_mission,
)
from wargym.rules.no_quarter.non_player import np_events as npev

DEFEND = "defend_star_army_vs_hishen"


def _mission(seed: int, name: str = DEFEND) -> tuple[object, list[object]]:
    rng = np.random.default_rng(seed)
    return new_mission_logged(name, rng, RandomDice(np.random.default_rng(seed + 100)))


def test_14_0_new_skirmish_logged_returns_the_turn_1_activation_roll() -> None:
    battle, events = new_skirmish_logged(np.random.default_rng(3), RandomDice.from_seed(4))
    rolled = [e for e in events if isinstance(e, ev.ActivationRolled)]
    assert rolled and battle.turn == 1
    # the same game as new_skirmish
    plain = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(4))
    assert plain.to_dict() == battle.to_dict()


def test_20_0_and_22_3_1_new_mission_logged_returns_pef_and_objective_rolls() -> None:
    battle, events = _mission(5)
    placed = [e for e in events if isinstance(e, npev.PefPlaced)]
    assert placed and all(e.section is not None and e.face is not None for e in placed)
    assert battle.np is not None and len(battle.np["pefs"]) <= len(placed)
    objective = [e for e in events if isinstance(e, npev.NpTableRolled) and e.table == "22.3.1"]
    assert len(objective) == 1
    assert battle.mission is not None
    assert objective[0].result == battle.mission["np_objective"]
    assert any(isinstance(e, ev.ActivationRolled) for e in events)
    plain = new_mission(DEFEND, np.random.default_rng(5), RandomDice(np.random.default_rng(105)))
    assert plain.to_dict() == battle.to_dict()


def test_22_setup_mission_stops_before_play_and_advance_continues_the_same_game() -> None:
    dice = RandomDice(np.random.default_rng(107))
    battle, setup = setup_mission(DEFEND, np.random.default_rng(7), dice)
    assert not any(isinstance(e, ev.ActivationRolled) for e in setup)
    assert any(isinstance(e, npev.PefPlaced) for e in setup)
    ahead = game.advance(battle, dice)
    logged, events = _mission(7)
    assert battle.to_dict() == logged.to_dict()
    assert [e.to_dict() for e in setup + ahead] == [e.to_dict() for e in events]


def test_22_mission_env_first_info_and_replay_hold_the_setup_events(tmp_path: Path) -> None:
    env = NoQuarterMissionEnv(scenario=DEFEND, max_turns=3, info_events=True)
    _obs, info = env.reset(seed=11)
    kinds = [e["type"] for e in info["events"]]
    assert "PefPlaced" in kinds and "ActivationRolled" in kinds
    # the NP's secret objective stays hidden from the player
    assert not any(e["type"] == "NpTableRolled" and e["table"] == "22.3.1" for e in info["events"])
    path = tmp_path / "replay.json"
    env.save_replay(path)
    data = json.loads(path.read_text())
    first, second = data["steps"][0], data["steps"][1]
    assert first["agent"] == "setup" and second["agent"] == "rules"
    assert any(e["type"] == "NpTableRolled" and e["table"] == "22.3.1" for e in first["events"])
    assert any(e["type"] == "ActivationRolled" for e in second["events"])
    view = frames_of(data)
    assert not view["warnings"] and len(view["frames"]) == len(data["steps"]) + 1
    # the set-up frame's PEFs are not placed twice
    assert view["frames"][1]["pefs"] == view["frames"][0]["pefs"]
    env.close()


def test_22_replay_setup_step_events_are_still_checked(tmp_path: Path) -> None:
    env = NoQuarterMissionEnv(scenario=DEFEND, max_turns=3)
    env.reset(seed=12)
    path = tmp_path / "replay.json"
    env.save_replay(path)
    env.close()
    data = json.loads(path.read_text())
    assert data["steps"][0]["agent"] == "setup"
    data["steps"][0]["events"][0] = {"type": "PefPlaced", "pef": "first"}
    before = json.dumps(data)
    view = frames_of(data)  # shown, not applied, and named in a warning like any bad event
    assert len(view["warnings"]) == 1 and view["warnings"][0].startswith("step 1: PefPlaced")
    assert json.dumps(data) == before
