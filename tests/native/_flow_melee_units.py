"""Running recorded units natively at the REACT, CHARGE, MELEE and CHARGES frames (shared by tests).

``run_native`` is :func:`_units.check_unit`'s callback over ``_core.no_quarter.melee_flow.unit``;
Every unit runs natively: a charge's legs through flow_move.walk, a Lucky choice inside a
roll (a pause frame) under luck's guard.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from _units import Unit

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.melee_flow import core, melee_flow_tables
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import action_to_dict
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import RulesOptions, load_rules

_BATTLEFIELDS: dict[str, dict[str, Any]] = {}


@functools.cache
def _tables(battlefield: str, rules: RulesOptions) -> Any:
    reference = Battle.from_dict(_BATTLEFIELDS[battlefield], check=False)
    return melee_flow_tables(reference.battlefield, load_rules(rules))


def tables_of(doc: dict[str, Any]) -> Any:
    """The native tables of a battle document's battlefield and rules (cached)."""
    key = json.dumps(doc["battlefield"], sort_keys=True)
    _BATTLEFIELDS.setdefault(key, doc)
    return _tables(key, Battle.from_dict(doc, check=False).options.rules)


def run_native(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    battle = battle_from_dict(unit.before, check=False)
    dice = _core.ScriptedDice(list(unit.faces))
    events = core.unit(battle, tables_of(unit.before), unit.action, dice)
    return battle.to_dict(), [e.to_dict() for e in events], len(dice.used), None


def compare_options(units: Iterable[Unit], decisions: set[str], kinds: set[str]) -> Counter[str]:
    """Native options == game.legal_actions at every such decision of the units' documents."""
    compared: Counter[str] = Counter()
    for unit in units:
        for doc in (unit.before, unit.after):
            decision = doc.get("decision")
            frames = doc.get("frames") or []
            if not decision or decision["kind"] not in decisions or frames[-1]["kind"] not in kinds:
                continue
            reference = Battle.from_dict(doc, check=False)
            legal = [action_to_dict(a) for a in game.legal_actions(reference)]
            native = core.options(battle_from_dict(doc, check=False), tables_of(doc))
            assert [action_to_dict(a) for a in native] == legal, unit.label
            compared[decision["kind"]] += 1
    return compared
