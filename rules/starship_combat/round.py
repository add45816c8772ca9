"""Automatic steps of a combat round: movement, detection, fire, damage, end of round (TR-R3).

Also the TR-R25 "out" and victory checks.
"""

from __future__ import annotations

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.starship_combat import fire as fr
from wargym.rules.starship_combat.boarding import committed_troops, eligible, resolve_boarding
from wargym.rules.starship_combat.damage import apply_effect, leak_fuel
from wargym.rules.starship_combat.events import (
    BattleEnded,
    FrozenWatchRevived,
    OrdersRevealed,
    RoundEnded,
    ShipOut,
)
from wargym.rules.starship_combat.movement import move_ship
from wargym.rules.starship_combat.records import DEFENSIVE_WEAPONS
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.sensors import detect
from wargym.rules.starship_combat.state import (
    BattleState,
    ShipOrders,
    ShipState,
    design_of,
    hull_limits,
    mount,
    power_steps,
)


def out_reason(state: BattleState, ship: ShipState, rules: RuleSet) -> str:
    """Why a ship is out of the fight, or empty (TR-R25, TR-R14, TR-R21)."""
    opts = state.options
    if ship.destroyed:
        return "destroyed"
    if ship.captured:
        return "captured"
    if ship.disengaged:
        return "disengaged"
    if ship.craft:
        return "squadron inoperative" if ship.hull_dmg >= hull_limits(ship, opts)[0] else ""
    if ship.crew <= 0:
        return "no crew"
    if ship.computer <= 0:
        return "no computer"
    if power_steps(ship, rules, opts) >= rules.power_no_weapons:
        return "power lost"
    if not any(
        v > 0 for k, v in ship.weapons.items() if mount(ship, k).kind not in DEFENSIVE_WEAPONS
    ):
        return "no offensive weapons"
    if not fr.has_sensor_data(state, ship, opts):
        return "blind"
    return ""


def update_out(state: BattleState, rules: RuleSet) -> list[Event]:
    """Mark newly out ships (TR-R25)."""
    events: list[Event] = []
    changed = True
    while changed:
        changed = False
        for ship in state.ships:
            if ship.out:
                continue
            reason = out_reason(state, ship, rules)
            if reason:
                ship.out = reason
                events.append(ShipOut(ship.id, reason))
                changed = True
    return events


def resolve_movement(state: BattleState, dice: Dice, rules: RuleSet) -> list[Event]:
    """Reveal the orders, move every ship and roll detection (TR-R3 steps 1-2, TR-R5)."""
    events: list[Event] = []
    for ship in state.ships:
        if ship.out:
            continue
        o = state.orders.get(ship.id) or ShipOrders()
        heading = ship.heading if o.heading is None else o.heading
        ship.flicker = o.flicker or 0
        events.append(OrdersRevealed(
            ship.id, heading, o.accel_dir or 0, o.accel_mag or 0, ship.flicker,
            tuple((f.weapon, f.target, f.batteries) for f in o.fire), o.board_target,
        ))  # fmt: skip
        events.append(move_ship(ship, heading, o.accel_dir or 0, o.accel_mag or 0, rules))
    if state.options.sensors:
        events.extend(detect(state, rules.scenarios[state.scenario], dice, rules))
    events.extend(update_out(state, rules))
    return events


def resolve_rest(state: BattleState, dice: Dice, rules: RuleSet, max_rounds: int) -> list[Event]:
    """Fire, damage application and the end of the round (TR-R3 steps 3-5, TR-R25)."""
    opts = state.options
    events: list[Event] = []
    for ship in state.ships:
        o = state.orders.get(ship.id)
        if o is not None and state.phase == "fire_orders" and o.fire:
            events.append(OrdersRevealed(
                ship.id, ship.heading, 0, 0, ship.flicker,
                tuple((f.weapon, f.target, f.batteries) for f in o.fire), o.board_target,
            ))  # fmt: skip
    state.nuke_hexes = []
    parties = _boarding_parties(state, rules) if opts.boarding else {}
    snap = state.clone()
    fire_events, effects = fr.fire_step(state, snap, dice, rules, opts)
    events.extend(fire_events)
    for effect in effects:
        events.extend(apply_effect(state, effect, dice, rules, opts))
    for ship in state.ships:
        if not ship.destroyed and not ship.captured:
            events.extend(leak_fuel(ship, dice, rules))
    for ship in state.ships:
        lost = design_of(ship).crew_segments - ship.crew
        revive = min(lost, ship.frozen_watch)
        if revive > 0 and not ship.destroyed and not ship.captured:  # also from 0 (TR-R14)
            ship.crew += revive
            ship.frozen_watch -= revive
            events.append(FrozenWatchRevived(ship.id, revive))
    if opts.boarding:
        events.extend(_boardings(state, parties, dice, rules))
    events.extend(update_out(state, rules))
    events.append(RoundEnded(state.round))
    events.extend(_victory(state, max_rounds))
    state.round += 1
    state.orders = {}
    state.phase = "orders"
    return events


def _boarding_parties(state: BattleState, rules: RuleSet) -> dict[int, list[int]]:
    """Declared boardings that are eligible at the end of movement, by target (TR-R22)."""
    by_target: dict[int, list[int]] = {}
    for ship in state.ships:
        o = state.orders.get(ship.id)
        if o is None or o.board_target is None:
            continue
        target = state.ship(o.board_target)
        if eligible(state, ship, target, rules, state.options):
            by_target.setdefault(target.id, []).append(ship.id)
    return by_target


def _boardings(
    state: BattleState, parties: dict[int, list[int]], dice: Dice, rules: RuleSet
) -> list[Event]:
    """Resolve the parties found after movement (TR-R3, TR-R22).

    A destroyed or captured attacker, or one left without troops, does not board.
    """
    events: list[Event] = []
    for target_id in sorted(parties):
        target = state.ship(target_id)
        attackers = [
            state.ship(i) for i in parties[target_id]
            if not state.ship(i).destroyed and not state.ship(i).captured
            and state.ship(i).troops > 0
        ]  # fmt: skip
        if attackers and not target.captured and not target.destroyed:
            commit = [committed_troops(a.troops, _tenths(state, a)) for a in attackers]
            events.extend(resolve_boarding(state, attackers, target, dice, rules,
                                           state.options, commit))  # fmt: skip
    return events


def _tenths(state: BattleState, ship: ShipState) -> int | None:
    o = state.orders.get(ship.id)
    return o.board_tenths if o is not None else None


def _victory(state: BattleState, max_rounds: int) -> list[Event]:
    defeated = [all(s.out for s in state.side_ships(side)) for side in (0, 1)]
    if defeated[0] or defeated[1]:
        state.over = True
        state.winner = None if all(defeated) else (1 if defeated[0] else 0)
        state.end_reason = "mutual destruction" if all(defeated) else "defeat"
    elif state.round >= max_rounds:
        state.over, state.winner, state.end_reason = True, None, "max_rounds"
    if state.over:
        return [BattleEnded(state.winner, state.end_reason)]
    return []
