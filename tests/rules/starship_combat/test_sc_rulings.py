"""Rulings of issue 19: one batch per weapon and target, boarding, explosions, frozen watch,
leaks, and YAML keys that the engine reads (§2.1, TR-R7, TR-R14, TR-R17, TR-R22, TR-R23)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, ScriptedDice
from wargym.rules.errors import StateError
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.actions import Accelerate, DecisionKind, Fire, SetHeading
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.events import ToHitRolled
from wargym.rules.starship_combat.state import BattleState, FireOrder, Options, ShipOrders

RULES = load_rules()
OPTS = Options()


def _to_fire(state: BattleState, side: int) -> None:
    """Plot heading and no thrust for ``side``'s ship: its next decision is its first fire."""
    ship = state.side_ships(side)[0]
    game.play(state, side, SetHeading(ship.heading), FallbackDice([], np.random.default_rng(0)))
    game.play(state, side, Accelerate(0, 0), FallbackDice([], np.random.default_rng(0)))


def test_2_1_tr_r7_each_weapon_and_target_is_offered_once_a_round() -> None:
    state = game.new_battle("duel")
    _to_fire(state, 0)
    d = game.decision(state, 0)
    assert d is not None and d.kind is DecisionKind.FIRE and d.weapon == "missile"
    assert Fire(1, 1) in d.options and Fire(1, 10) in d.options
    game.play(state, 0, Fire(1, 1), ScriptedDice([]))
    d = game.decision(state, 0)
    assert d is not None and d.weapon != "missile"
    assert [f.batteries for f in state.orders[0].fire if f.weapon == "missile"] == [1]


def test_2_1_tr_r7_two_orders_on_one_target_are_one_batch() -> None:
    state = game.new_battle("duel")
    state.orders[0] = ShipOrders(0, 0, 0, None, [FireOrder("missile", 1, 1)] * 4)
    state.orders[1] = ShipOrders(3, 0, 0)
    from wargym.rules.starship_combat.fire import fire_step

    _events, _effects = fire_step(state, state.clone(), ScriptedDice([1, 1]), RULES, OPTS)
    rolls = [e for e in _events if isinstance(e, ToHitRolled)]
    assert [(e.weapon, e.batteries) for e in rolls] == [("missile", 4)]


def test_tr_r14_frozen_watch_refills_a_crew_that_reached_zero() -> None:
    from wargym.rules.starship_combat.round import resolve_rest

    state = game.new_battle("duel")
    state.ships[1].crew = 0  # all 20 segments lost in this round's fire
    resolve_rest(state, ScriptedDice([]), RULES, 30)
    ship = state.ships[1]
    assert (ship.crew, ship.frozen_watch, ship.out, state.over) == (10, 0, "", False)


def test_tr_r17_a_hull_rate_leak_replaces_a_running_halved_leak() -> None:
    from wargym.rules.starship_combat.damage import start_leak

    ship = game.new_battle("duel").ships[0]
    ship.leak, ship.leak_turns = "hull_halved", 0
    events = start_leak(ship, True, ScriptedDice([2]), RULES)
    assert (ship.leak, ship.leak_turns, len(events)) == ("hull", 4, 1)
    assert start_leak(ship, False, ScriptedDice([]), RULES) == []  # 1 day < halved 2D


def test_tr_r23_explosion_interior_result_rolls_the_interior_table() -> None:
    from wargym.rules.starship_combat.boarding import explosion
    from wargym.rules.starship_combat.events import DamageRolled, HullShareRolled

    state = game.new_battle("duel")
    source, other = state.ships
    other.pos = (source.pos[0] + 1, source.pos[1])  # adjacent: UCP 20000 / 1000 = 20
    # surface 2D 10 + DM 1 (UCP 20, tr-boom) = 11: Interior; hull 20 // 3 = 6;
    # interior 2D 4 + 1 = 5: power plant, 20 DP
    events = explosion(state, source, ScriptedDice([5, 5, 2, 2]), RULES, OPTS)
    rolls = [e for e in events if isinstance(e, DamageRolled)]
    assert [(e.table, e.dm, e.modified, e.result) for e in rolls] == [
        ("surface", 1, 11, "interior"),
        ("interior", 1, 5, "power_plant"),
    ]
    assert [e.hull_points for e in events if isinstance(e, HullShareRolled)] == [6]
    assert (other.hull_dmg, other.power_dmg) == (6, 20)


def _same_hex_orders(state: BattleState, fire: list[FireOrder], tenths: int = 10) -> None:
    """Ship 0 and 1 end movement in hex (1, 0) with velocities (1, 0) and (2, 0)."""
    a, b = state.ships
    a.pos, a.vel, b.pos, b.vel = (0, 0), (1, 0), (-1, 0), (2, 0)
    keys = [w for w in a.weapons]
    state.orders[0] = ShipOrders(0, 0, 0, None, fire, keys, True, 1, board_tenths=tenths)
    state.orders[1] = ShipOrders(0, 0, 0, None, [], keys, True, None)
    state.touch()


def test_tr_r22_boarding_eligibility_is_tested_at_the_end_of_movement() -> None:
    from wargym.rules.starship_combat.events import BoardingResolved

    state = game.new_battle("duel")
    state.ships[1].maneuver_dmg = 21  # 1 G left at the end of movement
    _same_hex_orders(state, [FireOrder("missile", 1, 1)])
    # to-hit 6 + 5 = 11 (10 %, 1 battery); penetration 12 - 1: 1; armour 10 >= 10;
    # surface 3 + 1 = 4: maneuver +10 -> 31, 0 G after the fire step
    dice = FallbackDice([3, 3, 6, 6, 5, 5, 1, 2], np.random.default_rng(1))
    events = game.advance(state, dice)
    assert state.ships[1].maneuver_dmg == 31
    assert not any(isinstance(e, BoardingResolved) for e in events)


def test_tr_r22_boarding_of_a_target_at_zero_g_after_movement() -> None:
    from wargym.rules.starship_combat.events import BoardingResolved

    state = game.new_battle("duel")
    state.ships[1].maneuver_dmg = 42  # destroyed drive: 0 G
    _same_hex_orders(state, [])
    events = game.advance(state, FallbackDice([], np.random.default_rng(1)))
    assert [e.target for e in events if isinstance(e, BoardingResolved)] == [1]


def test_tr_r22_a_ship_out_of_the_fight_can_still_be_boarded() -> None:
    from wargym.rules.starship_combat.boarding import eligible

    state = game.new_battle("fleet")
    att, target = state.ships[0], state.ships[3]
    target.pos, target.vel, target.out, target.computer = att.pos, att.vel, "no computer", 0
    assert eligible(state, att, target, RULES, OPTS)
    target.captured = True
    assert not eligible(state, att, target, RULES, OPTS)


def test_tr_r22_the_attacker_commits_up_to_all_of_its_troops() -> None:
    from wargym.rules.starship_combat.actions import Board, CommitTroops
    from wargym.rules.starship_combat.game import troop_options

    state = game.new_battle("duel")
    dice = FallbackDice([], np.random.default_rng(0))
    while (d := game.decision(state, 0)) is not None and d.kind is not DecisionKind.BOARD:
        game.play(state, 0, d.options[0], dice)
    game.play(state, 0, Board(1), dice)
    d = game.decision(state, 0)
    assert d is not None and d.kind is DecisionKind.BOARD_TROOPS
    assert d.options == tuple(CommitTroops(k) for k in range(1, 11))  # 20 troops: 2, 4, ... 20
    game.play(state, 0, CommitTroops(5), dice)
    assert state.orders[0].board_tenths == 5
    restored = BattleState.from_dict(state.to_dict())
    assert restored.orders[0].board_tenths == 5
    assert troop_options(3) == (CommitTroops(1), CommitTroops(4), CommitTroops(7))  # 1, 2, 3


def test_tr_r22_losses_come_out_of_the_committed_troops() -> None:
    from wargym.rules.starship_combat.events import BoardingResolved

    state = game.new_battle("duel")
    state.ships[1].maneuver_dmg = 42  # 0 G: eligible
    _same_hex_orders(state, [], tenths=5)
    # boarding 2D 2: extreme failure, the attacker loses 80 % of the 10 committed
    events = game.advance(state, FallbackDice([1, 1], np.random.default_rng(1)))
    ev = [e for e in events if isinstance(e, BoardingResolved)]
    assert [(e.attacking_troops, e.attacker_loss, e.level) for e in ev] == [
        (10, 8, "extreme_failure")
    ]
    assert state.ships[0].troops == 12


def test_tr_r22_saved_troop_share_out_of_range_is_a_state_error() -> None:
    state = game.new_battle("duel")
    state.orders[0] = ShipOrders(board_done=True, board_target=1, board_tenths=3)
    data = state.to_dict()
    data["orders"]["0"]["board_tenths"] = 11
    with pytest.raises(StateError, match="board_tenths"):
        BattleState.from_dict(data)
    assert state.orders[0].board_tenths == 3


def test_tr_r22_a_troop_share_not_offered_is_illegal() -> None:
    from wargym.rules.errors import IllegalActionError
    from wargym.rules.starship_combat.actions import Board, CommitTroops

    state = game.new_battle("duel")
    state.ships[0].troops = 3
    dice = FallbackDice([], np.random.default_rng(0))
    while (d := game.decision(state, 0)) is not None and d.kind is not DecisionKind.BOARD:
        game.play(state, 0, d.options[0], dice)
    game.play(state, 0, Board(1), dice)
    before = state.to_dict()
    for bad in (CommitTroops(2), CommitTroops(11)):  # 2 tenths of 3 = 1 troop, as 1 tenth
        with pytest.raises(IllegalActionError, match="commit"):
            game.play(state, 0, bad, dice)
    assert state.to_dict() == before
