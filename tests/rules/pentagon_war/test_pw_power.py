"""Capacitors and the capacitor record (PW-R11, pw-cap-1), screens (PW-R10), control (PW-R12)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import Action, ActionKind
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.game import decision_for, new_battle, play
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase, ShipState

RULES = load_rules()


def _duel() -> BattleState:
    state, _ = new_battle("duel", np.random.default_rng(0))
    return state


def test_pw_cap_1_fighter_spends_six_charges_then_r3_laser_is_illegal() -> None:
    ship = _duel().ships[0]
    assert ship.charges == 6
    for line in ("ecm", "fire_laser", "fire_laser", "fire_proton_cannon", "fire_electron_cannon"):
        power.spend(ship, RULES, line)
    assert ship.charges == 0
    assert power.total_discharged(ship.power) == 6 == ship.power["capacitors_available"]
    with pytest.raises(IllegalActionError):
        power.spend(ship, RULES, "fire_laser")


def test_pw_cap_1_in_the_engine_options_track_the_plotted_charges() -> None:
    """ECM and four 1-charge shots leave 1: the 2-charge F3 proton is then illegal."""
    state = _duel()
    state.ships[1].q, state.ships[1].r = 0, 7  # dead ahead of ship 0 at range 3
    dice = ScriptedDice([])
    ecm_only = [1, 0, 0, 0, 0]  # side 0 power: ecm 1, eccm 0, invisibility 0, reinforce 0, mag 0
    for value in ecm_only:
        play(state, Action(ActionKind.CHOOSE, value), dice, side=0)
    while state.phase is Phase.POWER:
        play(state, Action(ActionKind.CHOOSE, 0), dice, side=1)
    assert state.ships[0].charges == 5 and state.ships[0].ecm
    play(state, Action(ActionKind.ROTATE, 0), dice, side=0)
    play(state, Action(ActionKind.CHOOSE, 0), dice, side=0)
    fire = Action(ActionKind.FIRE, 1)
    hold = Action(ActionKind.HOLD)
    expected = {  # weapon -> (options contain fire?, what we do)
        "f2_liquid_metal_gun": hold,
        "f2_laser": fire,
        "l3_laser": fire,
        "r3_laser": fire,
        "f2_electron": fire,
    }
    for weapon, action in expected.items():
        d = decision_for(state, 0)
        assert d is not None and d.kind is DecisionKind.FIRE and d.subject == weapon
        assert fire in d.options
        play(state, action, dice, side=0)
    d = decision_for(state, 0)  # f3 proton costs 2, only 1 left: forced hold, skipped
    assert d is None or d.subject != "f3_proton"
    proton = next(
        o for o in state.plots[0].orders if o.slot.kind is DecisionKind.FIRE and o.slot.index == 5
    )
    assert proton.action_kind == "hold"


def test_pw_r11_alert_status_sets_turn_1_charges() -> None:
    assert power.turn_charges(RULES, 6, 1, 0) == 0
    assert power.turn_charges(RULES, 5, 1, 1) == 3
    assert power.turn_charges(RULES, 6, 1, 2) == 6
    assert power.turn_charges(RULES, 6, 2, 0) == 6


def test_pw_r10_screens_normal_directional_reinforced_and_lost() -> None:
    state, _ = new_battle("fleet", np.random.default_rng(0))
    fighter, zelta = state.ships[0], state.ships[1]
    d_f, d_z = state.design_of(fighter), state.design_of(zelta)
    assert [power.screen_strength(fighter, d_f, RULES, r) for r in range(1, 7)] == [1] * 6
    zelta.screen_row, zelta.reinforce = 3, 2
    assert [power.screen_strength(zelta, d_z, RULES, r) for r in range(1, 7)] == [0, 0, 4, 0, 0, 0]
    fighter.intact["screens"] = 0
    assert power.screen_strength(fighter, d_f, RULES, 1) == 0


def test_pw_r12_control_lost_with_both_control_systems() -> None:
    ship: ShipState = _duel().ships[0]
    design = RULES.designs[ship.design]
    ship.intact["main_ctrl"] = 0
    assert power.in_control(ship, design)
    ship.intact["aux_ctrl"] = 0
    assert not power.in_control(ship, design)


def test_pw_thrust_1_engine_loss_lowers_thrust_at_once() -> None:
    ship = _duel().ships[0]
    design = RULES.designs[ship.design]
    assert power.thrust_points(ship, design) == 2
    ship.intact["engines"] = 3
    assert power.thrust_points(ship, design) == 1
