"""§2.4-§2.17 vectors: hull share, radiation, power, maneuver, leaks, squadrons, boarding."""

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, ScriptedDice
from wargym.rules.starship_combat import boarding as bd
from wargym.rules.starship_combat.damage import (
    Effect,
    Shot,
    apply_effect,
    hull_share_roll,
    leak_fuel,
    resolve_battery,
    start_leak,
)
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.events import BoardingResolved, DamageRolled, HullShareRolled
from wargym.rules.starship_combat.fire import _defence_batteries, weapon_usable
from wargym.rules.starship_combat.game import new_battle
from wargym.rules.starship_combat.records import Difficulty, SuccessLevel, Warhead
from wargym.rules.starship_combat.state import (
    Options,
    current_g,
    drive_destroyed,
    hull_limits,
    operational_craft,
    power_steps,
)

RULES = load_rules()
OPTS = Options()


@pytest.mark.parametrize(
    ("dp", "face", "hull", "interior"), [(1, 5, 1, 0), (1, 4, 0, 1), (2, 2, 0, 2), (2, 3, 1, 1)]
)
def test_2_4_tr_hull_small(dp: int, face: int, hull: int, interior: int) -> None:
    h, i, _ = hull_share_roll(1, dp, ScriptedDice([face]), RULES)
    assert (h, i) == (hull, interior)


def test_2_5_tr_rad_1_through_the_pipeline() -> None:
    state = new_battle("duel")
    target = state.ships[1]
    shot = Shot(0, "bay", 9, Warhead.NUCLEAR, True, False, False, False)
    # armour: need 7 - 3 + 6 = 10 -> [5, 5]; radiation roll 4 -> crew; surface 6 + 1 -> weapon
    events, effects = resolve_battery(shot, target, 0, ScriptedDice([5, 5, 2, 2, 3, 3]), RULES)
    rolls = [e for e in events if isinstance(e, DamageRolled)]
    assert [(r.table, r.dp, r.result) for r in rolls] == [
        ("radiation", 9, "crew"),
        ("surface", 27, "weapon"),
    ]
    events = apply_effect(state, effects[0], ScriptedDice([]), RULES, OPTS)
    assert target.crew == 18


def test_2_6_meson_hits_never_touch_the_hull() -> None:
    state = new_battle("duel")
    shot = Shot(0, "meson_gun", 9, Warhead.CONVENTIONAL, True, True, False, False)
    events, effects = resolve_battery(shot, state.ships[1], 0, ScriptedDice([1, 1, 6, 6]), RULES)
    assert not any(isinstance(e, HullShareRolled) for e in events)
    assert [e.table for e in events if isinstance(e, DamageRolled)][-1] == "interior"
    assert all(e.what != "hull" for e in effects)


def test_2_4_surface_interior_result_adds_hull_share() -> None:
    state = new_battle("duel")
    shot = Shot(0, "missile", 10, Warhead.CONVENTIONAL, False, False, False, False)
    # armour [5, 5] = 10 ok; surface 5 + 6 + 1 = 12 interior; interior 2 + 2 + 1 = 5 power
    _, effects = resolve_battery(shot, state.ships[1], 0, ScriptedDice([5, 5, 5, 6, 2, 2]), RULES)
    assert [(e.what, e.dp) for e in effects] == [("hull", 3), ("power_plant", 10)]


@pytest.mark.parametrize(
    ("counter", "steps"), [(27, 5), (30, 6), (35, 7), (49, 9), (50, 10), (90, 10)]
)
def test_2_4_tr_power_steps(counter: int, steps: int) -> None:
    ship = new_battle("duel").ships[0]
    ship.power_dmg = counter
    assert power_steps(ship, RULES, OPTS) == steps


def test_tr_r16_power_effects_in_play() -> None:
    state = new_battle("duel_kestrel")
    kestrel, liik = state.ships
    kestrel.power_dmg = 15  # 5 steps of 3
    assert not weapon_usable(state, kestrel, "particle_accelerator", 0, RULES, OPTS)
    liik.power_dmg = 30  # 6 steps: energy xor maneuver
    assert weapon_usable(state, liik, "fusion_gun", 0, RULES, OPTS)
    assert not weapon_usable(state, liik, "fusion_gun", 1, RULES, OPTS)
    assert weapon_usable(state, liik, "missile", 1, RULES, OPTS)
    liik.power_dmg = 35  # 7 steps: G 0, defences off except sandcasters
    assert current_g(liik, RULES, OPTS) == 0
    assert _defence_batteries(liik, "repulsor", RULES, OPTS) == (0, 0)
    assert _defence_batteries(liik, "sandcaster", RULES, OPTS) == (3, 9)


def test_2_4_tr_man_counter_to_g() -> None:
    ship = new_battle("duel").ships[0]
    assert drive_destroyed(ship, "maneuver", OPTS) == 42
    assert drive_destroyed(ship, "maneuver", Options(ecp_rounded_rows=True)) == 44
    for counter, g in ((9, 2), (22, 0), (42, 0)):
        ship.maneuver_dmg = counter
        assert current_g(ship, RULES, OPTS) == g


def test_2_10_tr_inop_crew_hit_with_exceptional_kills_4_segments() -> None:
    state = new_battle("duel")
    ship = state.ships[1]
    ship.hull_dmg = 20
    apply_effect(state, Effect(1, "crew", 9, 9, True), ScriptedDice([]), RULES, OPTS)
    assert ship.crew == 16


def test_2_10_hull_inoperative_starts_hull_rate_leak_and_limits_g() -> None:
    state = new_battle("duel")
    ship = state.ships[1]
    apply_effect(state, Effect(1, "hull", 20, 9), ScriptedDice([3]), RULES, OPTS)
    assert (ship.leak, ship.leak_turns) == ("hull", 5)
    assert current_g(ship, RULES, OPTS) == 1
    apply_effect(state, Effect(1, "hull", 30, 9), ScriptedDice([]), RULES, OPTS)
    assert ship.destroyed


def test_2_11_tr_leak_1_normal_leak_4_days() -> None:
    ship = new_battle("duel").ships[0]
    start_leak(ship, False, ScriptedDice([3]), RULES)
    lost = 0
    while ship.leak:
        before = ship.fuel
        leak_fuel(ship, ScriptedDice([]), RULES)
        lost += before - ship.fuel
    assert (lost, ship.fuel) == (4, 43)


def test_2_11_tr_leak_2_hull_inop_leak_47_21_16() -> None:
    ship = new_battle("duel").ships[0]
    start_leak(ship, True, ScriptedDice([2]), RULES)
    assert ship.leak_turns == 4
    leak_fuel(ship, ScriptedDice([3, 4, 2, 3, 4, 4, 3, 3][:2]), RULES)
    for faces in ([2, 3], [4, 4], [3, 3]):
        leak_fuel(ship, ScriptedDice(faces), RULES)
    assert ship.fuel == 21 and ship.leak == "hull_halved"
    leak_fuel(ship, ScriptedDice([4, 5]), RULES)
    assert ship.fuel == 16


def test_tr_r17_new_leak_replaces_only_a_lower_rate() -> None:
    ship = new_battle("duel").ships[0]
    start_leak(ship, True, ScriptedDice([1]), RULES)
    assert start_leak(ship, False, ScriptedDice([]), RULES) == []
    assert ship.leak == "hull"


def test_2_15_tr_sq_squadron_pool() -> None:
    state = new_battle("fleet")
    sq = state.ships[2]
    assert hull_limits(sq, OPTS) == (10, 30)
    shot = Shot(3, "missile", 9, Warhead.NUCLEAR, True, False, False, False)
    _, effects = resolve_battery(shot, sq, 0, ScriptedDice([2, 2]), RULES)  # need 4
    assert [(e.what, e.dp) for e in effects] == [("pool", 27)]
    apply_effect(state, effects[0], ScriptedDice([]), RULES, OPTS)
    assert operational_craft(sq, OPTS) == 0 and not sq.destroyed
    sq.hull_dmg = 3
    assert operational_craft(sq, OPTS) == 7


def test_2_17_tr_board_1_success_captures() -> None:
    state = new_battle("duel")
    att, dfn = state.ships
    att.troops, att.tactics, att.troop_quality = 40, 2, "veteran"
    dfn.pos = att.pos
    dice = FallbackDice([4, 5, 3, 4], np.random.default_rng(0))  # 9; critical 7
    events = bd.resolve_boarding(state, [att], dfn, dice, RULES, OPTS)
    ev = events[0]
    assert isinstance(ev, BoardingResolved)
    assert (ev.modified, ev.target_number, ev.level) == (12, 11, "success")
    assert (ev.attacker_loss, ev.defender_loss, ev.crew_segments_lost) == (16, 12, 5)
    assert dfn.captured and (att.troops, dfn.troops, dfn.crew) == (24, 8, 15)


def test_2_17_tr_board_2_crew_as_troops_routine() -> None:
    assert bd.crew_as_troops(268, 20, 15, RULES) == 100
    _, tn = bd.boarding_task(1, 1, 1, 1, 40, 100, False, RULES)
    assert tn == 7


def test_2_17_tr_surv_pc_survival() -> None:
    assert bd.survival(SuccessLevel.SUCCESS, True, RULES) == (Difficulty.DIFFICULT, ("hazardous",))
    assert bd.survival(SuccessLevel.EXTREME_SUCCESS, False, RULES) == (Difficulty.SIMPLE, ())


def test_2_17_tr_boom_explosion_ucp() -> None:
    assert (bd.explosion_ucp(20000, False, RULES), bd.explosion_ucp(20000, True, RULES)) == (
        200,
        20,
    )
    assert (bd.explosion_ucp(50, False, RULES), bd.explosion_ucp(50, True, RULES)) == (1, 1)


def test_2_17_quality_by_d6() -> None:
    assert [bd.quality_for_d6(f, RULES).value for f in range(1, 7)] == [
        "recruit",
        "regular",
        "regular",
        "veteran",
        "veteran",
        "elite",
    ]


def test_tr_r13_critical_vaporized_destroys() -> None:
    from wargym.rules.starship_combat.damage import critical_hit

    state = new_battle("duel")
    critical_hit(state, state.ships[1], ScriptedDice([6, 6]), RULES, OPTS)
    assert state.ships[1].destroyed and state.ships[1].armor == 69
