"""The §22.3.6 roll's event records its result and names the group (docs/events.md)."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.mission.mission_play import new_mission_logged
from wargym.rules.no_quarter.non_player import np_events as npev


def _pursuit_rolls(seed: int, limit: int = 200) -> tuple[object, list[npev.NpTableRolled]]:
    dice = RandomDice(np.random.default_rng(seed))
    scenario = "defend_star_army_vs_hishen"  # the NP attacks: 22.3.6 on each activation
    battle, events = new_mission_logged(scenario, np.random.default_rng(seed), dice)
    rng = np.random.default_rng(seed)
    rolls: list[npev.NpTableRolled] = []
    for _ in range(limit):
        rolls = [e for e in events if isinstance(e, npev.NpTableRolled) and e.table == "22.3.6"]
        if battle.over or any(e.passes == 2 for e in rolls):
            break
        legal = game.legal_actions(battle)
        events += game.play(battle, legal[int(rng.integers(len(legal)))], dice)
    return battle, rolls


def test_22_3_6_pursuit_roll_event_records_result_target_and_group() -> None:
    found = (_pursuit_rolls(seed) for seed in range(8))
    battle, rolls = next((b, r) for b, r in found if any(e.passes == 2 for e in r))
    np_side = battle.np["side"]  # type: ignore[attr-defined]
    for e in rolls:
        assert len(e.faces) == 2 and e.passes in (0, 1, 2)
        assert e.result != "None"
        assert e.result == ("objective" if e.target is None else str(e.target))
        if e.passes == 2:
            assert e.target is None and e.result == "objective"
        assert e.group_leader is not None and e.team is not None
        leader = battle.mechs[e.group_leader]  # type: ignore[attr-defined]
        assert leader.team == e.team and leader.side.value == np_side
        assert NO_QUARTER_EVENTS.from_dict(e.to_dict()) == e


def test_22_3_6_old_logs_without_leader_or_target_still_load() -> None:
    old = {"type": "NpTableRolled", "table": "22.3.7", "team": 200, "faces": [3, 4]}
    event = NO_QUARTER_EVENTS.from_dict({**old, "passes": 1, "result": "half"})
    assert isinstance(event, npev.NpTableRolled)
    assert event.group_leader is None and event.target is None
