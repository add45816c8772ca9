"""Damage allocation chart sequences pw-dmg-1..5 and the pipeline pw-pipe-1..3 (§2.8, PW-R9)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.pentagon_war.damage import (
    allocate_point,
    apply_hit,
    screen_and_armor,
    uniform_pick,
)
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.events import DamageAllocated, ShipDestroyed
from wargym.rules.pentagon_war.game import new_battle
from wargym.rules.pentagon_war.records import Category, Options
from wargym.rules.pentagon_war.state import BattleState

RULES = load_rules()
OPTS = Options()


def _ship(state: BattleState, design: str) -> int:
    return next(s.id for s in state.ships if s.design == design)


@pytest.fixture
def fleet() -> BattleState:
    state, _ = new_battle("fleet", np.random.default_rng(0))
    return state


def test_pw_dmg_1_magnetic_beam_available(fleet: BattleState) -> None:
    zd = _ship(fleet, "zelta_dee")
    dice = ScriptedDice([4, 5])  # both boxes belong to one system: no pick roll
    (event,) = allocate_point(fleet, zd, RULES, dice, OPTS)
    assert isinstance(event, DamageAllocated)
    assert (event.result, event.system) == ("magnetic_beam", "mag_beams")
    assert fleet.ships[zd].intact["mag_beams"] == 1
    assert dice.remaining == 0


def test_pw_dmg_2_four_unavailable_rolls_score_final_damage(fleet: BattleState) -> None:
    zd = _ship(fleet, "zelta_dee")
    (event,) = allocate_point(fleet, zd, RULES, ScriptedDice([2, 1, 2, 1, 5, 1, 5, 4, 2, 2]), OPTS)
    assert isinstance(event, DamageAllocated)
    assert event.rolls == ((2, 1), (5, 1), (5, 4), (2, 2))
    assert event.discarded == ((2, 1),)
    assert event.results == ("cargo", "drone", "repair", "cargo")
    assert event.result == "final_damage"
    assert fleet.ships[zd].final_damage == 3


def test_pw_dmg_3_no_final_damage_left_destroys(fleet: BattleState) -> None:
    zd = _ship(fleet, "zelta_dee")
    fleet.ships[zd].final_damage = 0
    events = allocate_point(fleet, zd, RULES, ScriptedDice([2, 1, 2, 1, 5, 1, 5, 4, 2, 2]), OPTS)
    assert [type(e) for e in events] == [DamageAllocated, ShipDestroyed]
    assert fleet.ships[zd].destroyed


def test_pw_dmg_4_fighter_without_forward_hull_takes_a_random_laser(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    fleet.ships[f].intact["fwd_hull"] = 0
    (event,) = allocate_point(fleet, f, RULES, ScriptedDice([1, 1, 1, 2, 3, 1, 2]), OPTS)
    assert isinstance(event, DamageAllocated)
    assert event.results == ("forward_hull", "forward_hull", "laser")
    assert event.system == "l3_laser" and event.pick_faces == (2,)
    assert fleet.ships[f].intact["l3_laser"] == 0


def test_pw_dmg_5_fighter_without_weapons_takes_aft_hull(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    ship = fleet.ships[f]
    for spec in fleet.design_of(ship).systems:
        if spec.category in RULES.weapon_categories:
            ship.intact[spec.name] = 0
    (event,) = allocate_point(fleet, f, RULES, ScriptedDice([6, 5, 6, 6, 6, 5, 1, 4]), OPTS)
    assert isinstance(event, DamageAllocated)
    assert event.rolls == ((6, 5), (6, 6), (1, 4))
    assert event.discarded == ((6, 5),)
    assert (event.result, event.system) == ("aft_hull", "aft_hull")
    assert ship.intact["aft_hull"] == 2


def test_pw_d10_ssd_order_option_takes_the_first_laser(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    opts = Options(box_choice="ssd_order")
    (event,) = allocate_point(fleet, f, RULES, ScriptedDice([3, 1]), opts)
    assert isinstance(event, DamageAllocated) and event.system == "f2_laser"


def test_pw_r13_uniform_pick_rejects_faces_beyond_a_multiple() -> None:
    assert uniform_pick(ScriptedDice([]), 1) == (0, ())
    assert uniform_pick(ScriptedDice([6, 5, 3]), 4) == (2, (6, 5, 3))
    index, faces = uniform_pick(ScriptedDice([2, 3]), 12)
    assert (index, faces) == (8 % 12, (2, 3))


def test_pw_r11_capacitor_box_lost_with_unspent_charge_costs_power(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    ship = fleet.ships[f]
    before = ship.charges
    events = allocate_point(fleet, f, RULES, ScriptedDice([3, 3]), OPTS)
    assert ship.intact["capacitors"] == 5
    assert ship.charges == before - 1 and ship.power["power_lost_to_damage"] == 1
    assert type(events[-1]).__name__ == "PowerLost"


def test_pw_pipe_1_laser_3_on_directional_screen_2_row_1() -> None:
    assert screen_and_armor(3, 2, 10) == (1, 1, 0)


def test_pw_pipe_2_proton_8_on_normal_screen_with_2_armor() -> None:
    assert screen_and_armor(8, 1, 2) == (7, 2, 5)


def test_pw_pipe_1_engine_directional_screen_row(fleet: BattleState) -> None:
    zd = _ship(fleet, "zelta_dee")
    fleet.ships[zd].screen_row = 1
    (event,) = apply_hit(fleet, zd, "laser", 1, 3, RULES, ScriptedDice([]), OPTS)
    assert (event.screen, event.after_screen, event.absorbed, event.internal) == (2, 1, 1, 0)
    assert fleet.ships[zd].armor[0] == 9


def test_pw_pipe_2_engine_five_chart_allocations(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    fleet.ships[f].armor[3] = 2
    dice = ScriptedDice([1, 1, 1, 1, 1, 2, 1, 4, 1, 5])  # hull hits; one system each
    events = apply_hit(fleet, f, "proton", 4, 8, RULES, dice, OPTS)
    assert events[0].to_dict()["internal"] == 5 and fleet.ships[f].armor[3] == 0
    allocs = [e for e in events if isinstance(e, DamageAllocated)]
    assert len(allocs) == 5
    assert fleet.ships[f].intact["fwd_hull"] == 0 and fleet.ships[f].intact["aft_hull"] == 1


def test_pw_pipe_3_acid_gum_screen_only_on_first_packet(fleet: BattleState) -> None:
    f = _ship(fleet, "alpha_centaurian_fighter")
    taken = []
    for packet in range(4):
        (event,) = apply_hit(
            fleet, f, "acid", 2, 2, RULES, ScriptedDice([]), OPTS, screened=packet == 0
        )
        taken.append(event.to_dict()["after_screen"])
    assert taken == [1, 2, 2, 2] and sum(taken) == 7
    assert fleet.ships[f].armor[1] == 3


def test_pw_r12_chart_frequencies() -> None:
    counts: dict[Category, int] = {}
    for result in RULES.chart.values():
        counts[result] = counts.get(result, 0) + 1
    assert counts[Category.FORWARD_HULL] == 3 and counts[Category.ENGINE] == 1
    assert counts[Category.ANY_WEAPON] == 2 and sum(counts.values()) == 36
