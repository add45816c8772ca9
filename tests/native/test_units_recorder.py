"""The unit recorder (tests/native/_units.py) is sound: every recorded unit replays alone.

The native flow's handlers are checked unit by unit against these records, which only works
if a unit depends on nothing but the battle document and its dice faces. Here the reference
itself replays each recorded unit from its ``before`` document with ``ScriptedDice(faces)``
and must reach the same ``after`` document and events, consuming every face.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from wargym.rules.dice import ScriptedDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import action_from_dict
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.mission import mission_play
from wargym.rules.no_quarter.non_player import np_flow

sys.path.insert(0, str(Path(__file__).parent))
from _units import Unit, check_unit, mission_games, record_units, skirmish_games  # noqa: E402

PROCEDURE_CALLS = {
    "np_decides": lambda ctx: game._np_decides(ctx),
    "check_pefs": np_flow.check_pefs,
    "withdraw_np": mission_play.withdraw_np,
    "mission_over": mission_play.mission_over,
    "eliminated": lambda ctx: game._eliminated(ctx),
}


def replay_in_reference(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    battle = Battle.from_dict(unit.before, check=False)  # mid-run, no decision yet
    dice = ScriptedDice(list(unit.faces))
    ctx = Ctx(battle, dice, game.rules_of(battle))
    result = None
    if unit.kind in PROCEDURE_CALLS:
        result = PROCEDURE_CALLS[unit.kind](ctx)
    else:
        action = None if unit.action is None else action_from_dict(unit.action)
        if action is not None:
            battle.decision, battle.options_cache = None, None  # as game.play does
        game._act(ctx, battle.frames[-1], action)
    return battle.to_dict(), [e.to_dict() for e in ctx.log], len(dice.used), result


def test_every_recorded_unit_replays_alone_in_the_reference() -> None:
    units = record_units(skirmish_games(6, seed=21), per_kind=40)
    units_m = record_units(mission_games(seed=21, decisions=30), per_kind=40)
    seen = set()
    for found in (units, units_m):
        for kind, cases in found.items():
            for unit in cases:
                assert check_unit(unit, replay_in_reference) is None
                seen.add(kind)
    # the frame kinds and procedures random play reaches (charges and melee need set positions)
    assert {"turn", "phase", "group", "mech", "insight", "fire", "react"} <= seen, seen
    assert {"np_decides", "check_pefs", "withdraw_np", "mission_over", "eliminated"} <= seen, seen


def test_a_wrong_replay_is_reported() -> None:
    unit = record_units(skirmish_games(1, seed=4), kinds={"turn"}, per_kind=1)["turn"][0]

    def one_face_short(u: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
        after, events, consumed, result = replay_in_reference(u)
        return after, events, consumed - 1, result

    def other_state(u: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
        after, events, consumed, result = replay_in_reference(u)
        return {**after, "turn": after["turn"] + 1}, events, consumed, result

    assert "faces" in (check_unit(unit, one_face_short) or "")
    assert "turn" in (check_unit(unit, other_state) or "")
