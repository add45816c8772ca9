"""The combat tables of a rule set handed to the native core (§15-§18, issue 16).

The core holds no number of the books: :func:`combat_tables` reads a loaded
:class:`~wargym.rules.no_quarter.forces.data.NoQuarterRules` (any
:class:`~wargym.rules.no_quarter.forces.data.RulesOptions`, or an edited copy) into the plain
dict of :func:`combat_spec` and builds the native ``CombatTables`` from it
(``native/no_quarter/forces/data_combat_reader.cpp`` checks it), once per rule set.

>>> from wargym.rules.no_quarter.forces.data import load_rules
>>> combat_tables() is combat_tables(load_rules())
True
>>> combat_spec(load_rules())["hit_location"][7]
'chest'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from wargym.native import _core
from wargym.rules.dice import PASS_CAP
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules

core: Any = _core.no_quarter.combat
"""The compiled resolvers (``wargym.native._core.no_quarter.combat``)."""


def _values(mapping: Any) -> dict[Any, Any]:
    return {getattr(k, "value", k): getattr(v, "value", v) for k, v in mapping.items()}


def _damage(rows: Any) -> dict[int, tuple[Any, ...]]:
    return {
        passed: (
            row.passed,
            row.armor_loss,
            row.critical_on_doubles,
            row.critical_on_armor_le_0,
            row.duck_back,
            row.refight,
        )  # fmt: skip
        for passed, row in rows.items()
    }


def combat_spec(rules: NoQuarterRules) -> dict[str, Any]:
    """The combat tables of ``rules`` as plain data: the layout the core's reader expects."""
    ranged, reaction, in_sight = rules.ranged_combat, rules.reaction, rules.in_sight
    charge, melee, effects = rules.charge, rules.melee_combat, rules.attribute_effects
    return {
        "pass_cap": PASS_CAP,
        "ranged_rows": [
            (
                row.low,
                row.high,
                row.result,
                sorted(row.shooter_missed_if),
                sorted(row.target_missed_if),
                row.target_index_at_least,
            )  # fmt: skip
            for row in ranged.rows
        ],
        "ranged_rep_modifiers": _values(ranged.rep_modifiers),
        "crack_shot_ignores": sorted(ranged.crack_shot_ignores),
        "hit_location": _values(rules.hit_location),
        "marksman_preference": [loc.value for loc in rules.marksman_preference],
        "ranged_damage": _damage(rules.ranged_damage),
        "critical_armor_le_0": _values(rules.critical_hits.armor_le_0),
        "critical_armor_ge_1": _values(rules.critical_hits.armor_ge_1),
        "chest_roll": _values(rules.critical_hits.chest_roll),
        "pilot_test_rep_modifiers": _values(rules.pilot_test.rep_modifiers),
        "outgunned_by": {k: sorted(v) for k, v in rules.outgunned.outgunned_by.items()},
        "never_outgunned": sorted(a.value for a in rules.outgunned.never_outgunned),
        "in_sight_dice_per_rep": in_sight.dice_per_rep,
        "in_sight_tie_winner": in_sight.tie_winner,
        "in_sight_enemy_concealed_dice": in_sight.enemy_concealed_dice,
        "in_sight_race_dice": _values(in_sight.race_dice),
        "in_sight_attribute_dice": _values(in_sight.attribute_dice),
        "in_sight_bonus_successes": _values(in_sight.bonus_successes),
        "reaction_dice": reaction.dice,
        "per_weapon_out_of_action_rep": reaction.per_weapon_out_of_action_rep,
        "twice_as_many_friendly_losses_rep": reaction.twice_as_many_friendly_losses_rep,
        "in_cover_dice": dict(reaction.in_cover_dice),
        "star_army_row_dice": dict(reaction.star_army_row_dice),
        "fired_on_total_dice": _values(reaction.fired_on_total_dice),
        "severity": [r.value for r in reaction.severity],
        "cells": {
            (test, faction.value, passed): (
                cell.otherwise.value,
                *(
                    r.value if r is not None else None
                    for r in (cell.outgunned, cell.in_range, cell.if_damaged)
                ),
                cell.rep_change,
            )  # fmt: skip
            for (test, faction, passed), cell in reaction.cells.items()
        },
        "duck_back_becomes": {
            a.value: e.duck_back_becomes.value for a, e in effects.items() if e.duck_back_becomes
        },
        "fired_on_duck_back_becomes": {
            a.value: e.fired_on_duck_back_becomes.value
            for a, e in effects.items()
            if e.fired_on_duck_back_becomes
        },
        "charge_dice_each": charge.dice_each,
        "charge_in_cover": charge.in_cover,
        "charge_aspect": _values(charge.aspect),
        "charge_results": _values(charge.results),
        "melee_dice_per_rep": melee.dice_per_rep,
        "one_hand_melee_weapon": melee.one_hand_melee_weapon,
        "attacking_prone_opponent": melee.attacking_prone_opponent,
        "jump_attack": melee.jump_attack,
        "leaving_battlefield": melee.leaving_battlefield,
        "melee_race": _values(melee.race),
        "melee_attribute": _values(melee.attribute),
        "jump_attack_column": melee.jump_attack_column.value,
        "melee_hit_location": {
            face: _values(row) for face, row in rules.melee_hit_location.items()
        },
        "melee_damage": _damage(rules.melee_damage),
    }


@cache
def _tables(rules: NoQuarterRules) -> Any:
    return core.CombatTables(combat_spec(rules))


def combat_tables(rules: NoQuarterRules | None = None) -> Any:
    """The native ``CombatTables`` of ``rules`` (default: ``load_rules()``), built once per set."""
    return _tables(rules or load_rules())
