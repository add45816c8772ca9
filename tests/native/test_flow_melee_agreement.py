"""The native CHARGE, MELEE and CHARGES handlers (flow_melee.cpp, flow_charges.cpp) agree.

Every recorded charge, melee and charges unit (tests/native/_units.py) of close-quarters
skirmishes over every option variant (tests/native/_close_quarters.py: open field, the sides
4-7" apart, some ranged weapons knocked out) runs natively from its ``before`` document with
its faces: the events, the document after and the faces consumed must equal the reference's.
Units the core does not run yet must raise NotImplementedError, and only those: a charge leg
walked by flow_move.walk (not ported) and a Lucky choice inside a roll (a pause frame). The legal
options at every melee_declare decision and at the charges frame's choose_mech decisions are
compared in order. WARGYM_MELEE_SWEEP=<games> plays more games (for the lead).
"""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _close_quarters import close_games, several_chargers_games  # noqa: E402
from _flow_melee_units import (  # noqa: E402
    compare_options,
    run_native,
    tables_of,
)
from _units import Unit, check_unit, option_variants, record_units  # noqa: E402

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.melee_flow import core

KINDS = {"charge", "melee", "charges"}
GAMES = int(os.environ.get("WARGYM_MELEE_SWEEP", "0")) or len(option_variants())


@functools.cache
def _units() -> tuple[Unit, ...]:
    found = record_units(close_games(GAMES, seed=101), kinds=KINDS, per_kind=10_000)
    several = record_units(several_chargers_games(12, seed=0), kinds=KINDS, per_kind=10_000)
    return tuple(u for f in (found, several) for kind in sorted(KINDS) for u in f.get(kind, []))


def test_every_charge_melee_and_charges_unit_agrees() -> None:
    units = _units()
    seen: Counter[str] = Counter()
    problems = []
    for unit in units:
        problem = check_unit(unit, run_native)
        if problem is not None:
            problems.append(problem)
        stage = unit.before["frames"][-1].get("stage", "")
        seen[f"{unit.kind} {stage} {(unit.action or {}).get('type', 'step')}"] += 1
    assert not problems, f"{len(problems)} of {len(units)} units differ; first: {problems[:3]}"
    for wanted in ("charge declare step", "melee declare step", "melee declare DeclareMelee"):
        assert seen[wanted], seen
    assert any(k.startswith("charges ") for k in seen) and seen["charges  ChooseMech"], seen
    # both several_chargers choices were played
    assert {u.before["options"]["several_chargers"] for u in units} == {"split", "one_by_one"}


def test_the_options_at_every_melee_and_charges_decision() -> None:
    compared = compare_options(_units(), {"melee_declare", "choose_mech"}, {"melee", "charges"})
    assert compared["melee_declare"] > 0 and compared["choose_mech"] > 0, compared


def test_a_wrong_table_number_is_caught() -> None:
    """The comparison can fail: a 0" stage distance changes a declared charge's outcome."""
    units = [u for u in _units() if u.kind == "charge" and u.events]
    assert units
    assert check_unit(units[0], run_native) is None
    wrong = core.with_charge_numbers(tables_of(units[0].before), 0.0, 0, 3)
    differs = 0
    for unit in units:
        battle = battle_from_dict(unit.before, check=False)
        dice = _core.ScriptedDice([*unit.faces, *[1] * 20])
        try:
            events = core.unit(battle, wrong, unit.action, dice)
        except NotImplementedError:
            differs += 1
            continue
        same = [e.to_dict() for e in events] == list(unit.events)
        differs += not same or battle.to_dict() != unit.after
    assert differs > 0


def test_bad_input() -> None:
    unit = next(u for u in _units() if u.kind == "melee")
    tables = tables_of(unit.before)
    battle = battle_from_dict(unit.before, check=False)
    dice = _core.ScriptedDice(list(unit.faces))
    with pytest.raises(TypeError, match="battle"):
        core.unit(None, tables, None, dice)
    with pytest.raises(TypeError, match="tables"):
        core.unit(battle, 1, None, dice)
    with pytest.raises(TypeError, match="dice"):
        core.unit(battle, tables, None, [1, 2])
    with pytest.raises((TypeError, ValueError), match="action"):
        core.unit(battle, tables, {"type": "Nope"}, dice)
    with pytest.raises(TypeError, match="tables"):
        core.options(battle, None)
    with pytest.raises(TypeError, match="battle"):
        core.options(3, tables)
    empty = battle_from_dict({**unit.before, "frames": []}, check=False)
    with pytest.raises(ValueError, match="battle"):
        core.options(empty, tables)
    with pytest.raises(ValueError, match="battle"):
        core.unit(empty, tables, None, dice)
    with pytest.raises(TypeError, match="tables"):
        core.with_charge_numbers(None, 3.0, 3, 3)
    with pytest.raises(TypeError, match="stage_distance_inches"):
        core.with_charge_numbers(tables, "3", 3, 3)
    with pytest.raises(ValueError, match="stage_distance_inches"):
        core.with_charge_numbers(tables, -1.0, 3, 3)
    with pytest.raises(ValueError, match="max_attackers_per_target"):
        core.with_charge_numbers(tables, 3.0, -1, 3)
    with pytest.raises(TypeError, match="max_attackers_per_target"):
        core.with_charge_numbers(tables, 3.0, None, 3)
    with pytest.raises(ValueError, match="success_face"):
        core.with_charge_numbers(tables, 3.0, 3, 7)
