"""The native REACT handler (flow_react.cpp, consequences.cpp) agrees with the reference per unit.

Every recorded react unit (tests/native/_units.py: a react_step or a FreeWill act) of skirmishes
over every option variant, of close-quarters skirmishes (tests/native/_close_quarters.py: melee
damage and charges cause tests too) and of the shipped missions runs natively from its
``before`` document with its faces: the events, the document after and the faces consumed must
equal the reference's. A Lucky choice inside a roll (the reference pushed a pause frame) must
raise NotImplementedError. The legal options at every free_will decision are compared in order.
WARGYM_REACT_SWEEP=<games> plays more skirmishes (for the lead).
"""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _close_quarters import close_games  # noqa: E402
from _flow_melee_units import compare_options, run_native, tables_of  # noqa: E402
from _units import Unit, check_unit, mission_games, option_variants, record_units, skirmish_games  # noqa: E402

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.melee_flow import core

GAMES = int(os.environ.get("WARGYM_REACT_SWEEP", "0")) or len(option_variants())


@functools.cache
def _units() -> tuple[Unit, ...]:
    kinds = {"react"}
    found = record_units(skirmish_games(GAMES, seed=21), kinds=kinds, per_kind=10_000)
    close = record_units(close_games(GAMES, seed=301), kinds=kinds, per_kind=10_000)
    missions = record_units(mission_games(seed=7), kinds=kinds, per_kind=10_000)
    return (*found.get("react", []), *close.get("react", []), *missions.get("react", []))


def test_every_react_unit_agrees() -> None:
    units = _units()
    seen: Counter[str] = Counter()
    problems = []
    for unit in units:
        problem = check_unit(unit, run_native)
        if problem is not None:
            problems.append(problem)
        seen["step" if unit.action is None else unit.action["type"]] += 1
        for e in unit.events:
            if e["type"] == "ReactionTaken":
                seen[f"{e['test']} {e['result']}{' free will' if e['free_will'] else ''}"] += 1
    assert not problems, f"{len(problems)} of {len(units)} units differ; first: {problems[:3]}"
    assert seen["step"] and seen["FreeWill"], seen
    # every choice of the options the handler reads was played
    for option, values in (("star_free_will", {True, False}), ("lucky", {"choose", "auto", "off"}),
                           ("reaction_fire_once_per_enemy", {True, False})):  # fmt: skip
        assert {u.before["options"][option] for u in units} == values, option
    for result in ("carry_on", "duck_back", "fire"):
        assert any(k.endswith(result) or f" {result} " in f"{k} " for k in seen), (result, seen)


def test_the_options_at_every_free_will_decision() -> None:
    compared = compare_options(_units(), {"free_will"}, {"react"})
    assert compared["free_will"] > 0, compared


def test_a_wrong_table_number_is_caught() -> None:
    """The comparison can fail: other dice faces change some reaction's outcome."""
    units = [u for u in _units() if u.events and u.faces]
    assert units and check_unit(units[0], run_native) is None
    differs = 0
    for unit in units[:50]:
        battle = battle_from_dict(unit.before, check=False)
        dice = _core.ScriptedDice([7 - f for f in unit.faces] + [3] * 40)
        try:
            events = core.unit(battle, tables_of(unit.before), unit.action, dice)
        except NotImplementedError:
            continue
        differs += [e.to_dict() for e in events] != list(unit.events)
    assert differs > 0


def test_bad_input_at_a_react_frame() -> None:
    unit = next(u for u in _units() if u.action is not None)
    tables = tables_of(unit.before)
    battle = battle_from_dict(unit.before, check=False)
    with pytest.raises((TypeError, ValueError), match="action"):
        core.unit(battle, tables, {"type": "EndFire"}, _core.ScriptedDice([]))
    with pytest.raises((TypeError, ValueError), match="action"):
        core.unit(battle, tables, 5, _core.ScriptedDice([]))
    assert battle.to_dict() == unit.before  # a refused unit leaves the battle unchanged
