"""Every Starship Combat YAML key changes play when edited (issue 19): the engine reads it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from wargym.rules import tables
from wargym.rules.dice import FallbackDice, ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.starship_combat import boarding as bd
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat import data, game
from wargym.rules.starship_combat.damage import Effect, apply_effect
from wargym.rules.starship_combat.events import PenetrationRolled
from wargym.rules.starship_combat.fire import resolve_fire
from wargym.rules.starship_combat.movement import legal_headings
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.sensors import detection_task
from wargym.rules.starship_combat.state import Options, current_g, def_dm, limited_heading

RULES = data.load_rules()
OPTS = Options()


def _edited(monkeypatch: pytest.MonkeyPatch, name: str, old: str, new: str) -> RuleSet:
    rel = f"rules/starship_combat/{name}.yaml"
    original: Callable[[str], str] = tables.read_config_text
    text = original(rel)
    assert old in text, old
    edited = text.replace(old, new, 1)
    monkeypatch.setattr(tables, "read_config_text", lambda r: edited if r == rel else original(r))
    rules: RuleSet = data.load_rules.__wrapped__()
    return rules


def test_2_1_batch_tenths_per_margin_point_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    assert cb.batch_tenths(13, 11, 7, RULES) == 2
    rules = _edited(monkeypatch, "core", "tenths_per_margin_point: 1", "tenths_per_margin_point: 2")
    assert cb.batch_tenths(13, 11, 7, rules) == 4
    assert cb.batch_tenths(17, 11, 7, rules) == 10  # capped at max_tenths


def _missile_volley(rules: RuleSet, options: Options) -> list[PenetrationRolled]:
    state = game.new_battle("duel", options)
    a, b = state.ships
    b.pos = a.pos
    # to-hit 12 + 5 = 17: 6 tenths, 6 of 10 missiles hit; penetration rolls 1+1 then random
    dice = FallbackDice([6, 6, 1, 1], np.random.default_rng(0))
    events, _ = resolve_fire(state, a, "missile", b, 10, dice, rules, options)
    return [e for e in events if isinstance(e, PenetrationRolled)]


def test_2_2_penetration_ratio_dm_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [e.ratio_dm for e in _missile_volley(RULES, OPTS)] == [1]  # 6 : 3 repulsors = 2:1
    rules = _edited(monkeypatch, "core", '"2:1": 1', '"2:1": 2')
    assert cb.ratio_dm(6, 3, rules.ratio_dm_table) == 2
    assert [e.ratio_dm for e in _missile_volley(rules, OPTS)] == [2]


def test_2_2_ratio_dm_applies_vs_screens_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    nuclear = Options(nuclear_missiles=True)
    rules = _edited(monkeypatch, "core", "ratio_dm_applies_vs_screens: false",
                    "ratio_dm_applies_vs_screens: true")  # fmt: skip
    state = game.new_battle("duel", nuclear)
    a, b = state.ships
    b.pos = a.pos
    for rs, want in ((RULES, 0), (rules, 3)):
        # to-hit 17: 6 hit; repulsors 12 + 1 + 1 = 14: 7 tenths, 5 pass; damper ratio 5:1
        dice = FallbackDice([6, 6, 6, 6, 1, 1], np.random.default_rng(0))
        events, _ = resolve_fire(state, a, "missile", b, 10, dice, rs, nuclear)
        pen = [e for e in events if isinstance(e, PenetrationRolled)]
        assert [(e.defence, e.ratio_dm) for e in pen] == [("repulsor", 1), ("nuclear_damper", want)]


def test_2_17_boarding_ratio_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bd.boarding_ratio_dm(40, 20, RULES) == 1 and bd.boarding_ratio_dm(5, 0, RULES) == 3
    rules = _edited(monkeypatch, "boarding", '"2:1": -1', '"2:1": -2')
    assert bd.boarding_ratio_dm(40, 20, rules) == 2


def test_2_10_hull_inoperative_effects_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game.new_battle("duel")
    ship = state.ships[1]
    ship.hull_dmg = 20  # inoperative
    assert current_g(ship, RULES, OPTS) == 1 and limited_heading(ship, RULES, OPTS)
    rules = _edited(monkeypatch, "damage_tables", "[max_g_1, hull_breached, agility_zero,",
                    "[hull_breached, ")  # fmt: skip
    assert current_g(ship, rules, OPTS) == 2
    assert def_dm(ship, rules, OPTS) == def_dm(ship, RULES, OPTS)  # Liikargi agility 0 anyway
    rules = _edited(monkeypatch, "damage_tables", "heading_change_limited, ", "")
    assert not limited_heading(ship, rules, OPTS)
    assert len(legal_headings(ship.heading, limited_heading(ship, rules, OPTS))) == 6
    apply_effect(state, Effect(1, "crew", 9, 9), ScriptedDice([]), RULES, OPTS)
    assert ship.crew == 17  # band 2 + 1 (hull inoperative)
    rules = _edited(monkeypatch, "damage_tables", ", plus_one_damage_except_hull]", "]")
    apply_effect(state, Effect(1, "crew", 9, 9), ScriptedDice([]), rules, OPTS)
    assert ship.crew == 15


def test_2_10_unknown_hull_inoperative_effect_is_a_table_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(TableError, match="hull_inoperative_effects"):
        _edited(monkeypatch, "damage_tables", "[max_g_1,", "[warp_core_breach,")


def test_2_14_sensor_shift_lists_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game.new_battle("fleet", Options(sensors=True))
    scenario = RULES.scenarios["fleet"]
    observer, target = state.ships[0], state.ships[3]
    target.pos = scenario.gas_giants[0]
    inside, _ = detection_task(state, scenario, observer, target, RULES)
    rules = _edited(monkeypatch, "sensors", "[target_in_gas_giant, ", "[")
    outside, _ = detection_task(state, scenario, observer, target, rules)
    assert inside == outside + 4  # one difficulty level (TR-R1 ladder steps of 4)
    target.pos = (0, -7)
    observer.pos = (0, 7)  # the line crosses the belt at (0, 0)
    with_belt, _ = detection_task(state, scenario, observer, target, RULES)
    rules = _edited(monkeypatch, "sensors", ", through_planetoid_belt]", "]")
    without, _ = detection_task(state, scenario, observer, target, rules)
    assert with_belt == without + 4


def test_2_14_unknown_sensor_condition_is_a_table_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TableError, match="active_level_shift_plus_1"):
        _edited(monkeypatch, "sensors", "[target_in_gas_giant,", "[target_in_nebula,")


def test_2_1_tenths_per_margin_point_out_of_range_is_a_table_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(TableError, match="tenths_per_margin_point"):
        _edited(monkeypatch, "core", "tenths_per_margin_point: 1", "tenths_per_margin_point: 11")


def test_tr_r5_detection_range_dm_is_0_at_range_0_and_1() -> None:
    state = game.new_battle("duel", Options(sensors=True))
    observer, target = state.ships
    scenario = RULES.scenarios["duel"]
    for pos, dm in (((0, 4), 1), ((0, 3), 1), ((0, 1), 0), ((0, -3), -2)):
        target.pos = pos  # densitometer +1 (large), neutrino 0 (moderate), range DM
        assert detection_task(state, scenario, observer, target, RULES)[1] == dm, pos


def test_tr_r5_detection_beyond_range_dm_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game.new_battle("duel", Options(sensors=True))
    observer, target = state.ships
    target.pos = (0, -8)  # range 12
    scenario = RULES.scenarios["duel"]
    assert detection_task(state, scenario, observer, target, RULES)[1] == 1 - 4
    rules = _edited(monkeypatch, "sensors", "detection_beyond_range_dm: -4",
                    "detection_beyond_range_dm: -6")  # fmt: skip
    assert detection_task(state, scenario, observer, target, rules)[1] == 1 - 6
