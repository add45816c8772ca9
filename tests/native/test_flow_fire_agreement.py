"""The native FIRE handler (flow_fire.cpp, consequences.cpp) agrees with the reference unit by unit.

Every recorded fire unit (tests/native/_units.py: a fire_step or a fire_act) of skirmishes over
every option variant and of the shipped missions runs natively from its ``before`` document with
its faces: the events, the document after and the faces consumed must equal the reference's.
Units the core does not run yet must raise NotImplementedError, and only those: a Lucky or
Marksman choice inside the roll (the reference pushed a pause frame: luck's guard is not
ported). The legal options at every assign_fire decision are compared in
order. WARGYM_FIRE_SWEEP=<games> plays more skirmishes (for the lead; CI plays the default).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.fire import core, fire_tables
from wargym.rules.dice import ScriptedDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import action_from_dict, action_to_dict
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import NoQuarterRules, RulesOptions, load_rules
from wargym.rules.no_quarter.forces.data_loaders import frozen
from wargym.rules.no_quarter.forces.vocab import Location

sys.path.insert(0, str(Path(__file__).parent))
from _units import (  # noqa: E402
    Game,
    Unit,
    check_unit,
    mission_games,
    option_variants,
    record_units,
    skirmish_games,
)

SWEEP = int(os.environ.get("WARGYM_FIRE_SWEEP", "0"))
GAMES = SWEEP or len(option_variants())  # every option variant once (skirmish_games cycles them)
DECISIONS = 60  # decisions per skirmish in CI
PAD = (3, 5, 2, 6, 1, 4) * 10  # faces after a unit's own, for a unit replayed under edited tables


_TABLES: dict[tuple[str, str], Any] = {}


def tables_of(before: dict[str, Any]) -> Any:
    """The FireTables of a document's battlefield and rules options (built once per pair)."""
    key = (json.dumps(before["battlefield"]), json.dumps(before["options"].get("rules")))
    if key not in _TABLES:
        reference = Battle.from_dict(before, check=False)
        _TABLES[key] = fire_tables(reference.battlefield, load_rules(reference.options.rules))
    return _TABLES[key]


def run_native(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    battle = battle_from_dict(unit.before, check=False)
    dice = _core.ScriptedDice(list(unit.faces))
    events = core.fire_unit(battle, tables_of(unit.before), unit.action, dice)
    return battle.to_dict(), [e.to_dict() for e in events], len(dice.used), None


def _not_ported_reason(unit: Unit) -> str | None:
    frames = unit.after.get("frames") or []
    if frames and frames[-1]["kind"] == "pause":
        return "luck"
    return None


def _short(games: Iterator[Game], decisions: int) -> Iterator[Game]:
    for g in games:
        g.max_decisions = decisions
        yield g


@functools.cache
def _units() -> tuple[Unit, ...]:
    decisions = 250 if SWEEP else DECISIONS
    found = record_units(
        _short(skirmish_games(GAMES, seed=11), decisions), kinds={"fire"}, per_kind=10**6
    )
    missions = record_units(mission_games(seed=5, decisions=40), kinds={"fire"}, per_kind=10**6)
    return (*found.get("fire", []), *missions.get("fire", []))


def test_every_fire_unit_agrees() -> None:
    units = _units()
    kinds: Counter[str] = Counter()
    problems = []
    for unit in units:
        reason = _not_ported_reason(unit)
        if reason is not None:
            with pytest.raises(NotImplementedError):
                run_native(unit)
            kinds[reason] += 1
            continue
        problem = check_unit(unit, run_native)
        if problem is not None:
            problems.append(problem)
        kinds["step" if unit.action is None else unit.action["type"]] += 1
    assert not problems, f"{len(problems)} of {len(units)} units differ; first: {problems[:3]}"
    # every kind of fire unit was met: steps, assignments and the end of a firing
    assert kinds["step"] and kinds["AssignFire"] and kinds["EndFire"], kinds


def test_the_options_at_every_assign_fire_decision() -> None:
    compared = 0
    for unit in _units():
        for doc in (unit.after,):  # a step that asks (an act's before has no decision yet)
            decision = doc.get("decision")
            frames = doc.get("frames") or []
            if not decision or decision["kind"] != "assign_fire" or frames[-1]["kind"] != "fire":
                continue
            reference = Battle.from_dict(doc, check=False)
            legal = [action_to_dict(a) for a in game.legal_actions(reference)]
            native = core.fire_options(battle_from_dict(doc, check=False), tables_of(doc))
            assert [action_to_dict(a) for a in native] == legal, unit.label
            compared += 1
    assert compared > 0


def replay_in_reference(
    unit: Unit, rules: NoQuarterRules
) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    battle = Battle.from_dict(unit.before, check=False)
    dice = ScriptedDice(list(unit.faces))
    ctx = Ctx(battle, dice, rules)
    action = None if unit.action is None else action_from_dict(unit.action)
    game._act(ctx, battle.frames[-1], action)
    return battle.to_dict(), [e.to_dict() for e in ctx.log], len(dice.used), None


def test_edited_tables_change_both_engines_alike() -> None:
    """A wider Mech Down radius and every hit on the head change both engines the same way."""
    hurt = ("MechRemoved", "DamageRolled")
    losses = [
        u
        for u in _units()
        if _not_ported_reason(u) is None and any(e["type"] in hurt for e in u.events)
    ][:60]
    assert losses
    base = load_rules()
    edited = dataclasses.replace(
        base,
        reaction=dataclasses.replace(base.reaction, mech_down_radius_inches=40),
        hit_location=frozen({k: Location.HEAD for k in base.hit_location}),
    )
    changed = 0
    for unit in losses:
        options = Battle.from_dict(unit.before, check=False).options
        if options.rules != RulesOptions():
            continue
        tables = fire_tables(Battle.from_dict(unit.before, check=False).battlefield, edited)

        def native(
            u: Unit, tables: Any = tables
        ) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
            battle = battle_from_dict(u.before, check=False)
            dice = _core.ScriptedDice(list(u.faces))
            events = core.fire_unit(battle, tables, u.action, dice)
            return battle.to_dict(), [e.to_dict() for e in events], len(dice.used), None

        padded = Unit(unit.label, unit.kind, unit.action, unit.before, (*unit.faces, *PAD), (), {})
        after, events, used, _ = replay_in_reference(padded, edited)  # the edit may roll more
        again = Unit(
            unit.label,
            unit.kind,
            unit.action,
            unit.before,
            padded.faces[:used],
            tuple(events),
            after,
        )
        assert check_unit(again, native) is None
        changed += after != unit.after
    assert changed > 0


def test_bad_input() -> None:
    unit = next(u for u in _units() if _not_ported_reason(u) is None)
    tables = tables_of(unit.before)
    battle = battle_from_dict(unit.before, check=False)
    dice = _core.ScriptedDice(list(unit.faces))
    with pytest.raises(TypeError, match="battle"):
        core.fire_unit(None, tables, None, dice)
    with pytest.raises(TypeError, match="tables"):
        core.fire_unit(battle, 1, None, dice)
    with pytest.raises(TypeError, match="dice"):
        core.fire_unit(battle, tables, None, [1, 2])
    with pytest.raises((TypeError, ValueError), match="action"):
        core.fire_unit(battle, tables, {"type": "Nope"}, dice)
    assert battle.to_dict() == unit.before and not dice.used  # a call that raised changed nothing
    luck = next((u for u in _units() if _not_ported_reason(u) == "luck"), None)
    if luck is not None:  # a choice under luck's guard: the battle is left as it was
        held = battle_from_dict(luck.before, check=False)
        with pytest.raises(NotImplementedError):
            core.fire_unit(
                held, tables_of(luck.before), luck.action, _core.ScriptedDice(list(luck.faces))
            )
        assert held.to_dict() == luck.before
    with pytest.raises(TypeError, match="tables"):
        core.fire_options(battle, None)
    empty = battle_from_dict({**unit.before, "frames": []}, check=False)
    with pytest.raises(ValueError, match="battle"):
        core.fire_options(empty, tables)
    with pytest.raises(ValueError, match="battle"):
        core.fire_unit(empty, tables, None, dice)
    args = list(_table_args(unit.before))
    for i, name in enumerate(
        ("combat", "rules", "sight", "cover", "move", "protection", "numbers")
    ):
        bad = list(args)
        bad[i] = 1
        with pytest.raises(TypeError, match=name):
            core.FireTables(*bad)
    protection = list(args[5])
    protection[0] = ["elbow"]
    with pytest.raises(ValueError, match="protection.partial_building"):
        core.FireTables(*args[:5], tuple(protection), args[6])
    numbers = list(args[6])
    numbers[1] = -1.0
    with pytest.raises(ValueError, match="mech_down_radius_inches"):
        core.FireTables(*args[:6], tuple(numbers))


def _table_args(before: dict[str, Any]) -> tuple[Any, ...]:
    from wargym.native.no_quarter import fire

    captured: dict[str, tuple[Any, ...]] = {}
    real = fire.core.FireTables

    class Capture:
        def __init__(self, *args: Any) -> None:
            captured["args"] = args

    fire.core.FireTables = Capture
    try:
        fire.fire_tables(Battle.from_dict(before, check=False).battlefield)
    finally:
        fire.core.FireTables = real
    return captured["args"]
