"""Turn structure of a Pentagon War battle: turn start, impulse movement, turn end (PW-R2).

Recharge and record forms at turn start (PW-R11), chart movement with linked craft riding
along and disengagement at the map edge (PW-R3, R19, R21), velocity update and the optional
repair rule at turn end (PW-R5, R18).
"""

from __future__ import annotations

from wargym.rules.events import Event
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.events import (
    CapacitorsCharged,
    ShipDisengaged,
    ShipMoved,
    SystemRepaired,
    TurnStarted,
    VelocityUpdated,
)
from wargym.rules.pentagon_war.movement import impulse_steps, next_velocity, step_names, walk
from wargym.rules.pentagon_war.records import Category, RuleSet
from wargym.rules.pentagon_war.state import BattleState, ShipState


def start_turn(state: BattleState, rules: RuleSet) -> list[Event]:
    """Recharge capacitors and open a fresh column of every record form (PW-R2, R11)."""
    events: list[Event] = [TurnStarted(state.turn)]
    for ship in state.ships:
        if not ship.alive:
            continue
        design = state.design_of(ship)
        cap = power.capacity(ship, design)
        ship.charges = power.turn_charges(rules, cap, state.turn, ship.alert_status)
        ship.power = power.new_record(ship.charges)
        ship.accelerations, ship.thrust_used, ship.fired, ship.launched = [], 0, [], 0
        ship.ecm = ship.eccm = ship.invisible = False
        ship.reinforce = ship.mag_beam = 0
        alert = ship.alert_status if state.turn == 1 else None
        events.append(CapacitorsCharged(ship.id, ship.charges, cap, alert))
    return events


def end_turn(state: BattleState, rules: RuleSet) -> list[Event]:
    """Add each ship's total acceleration to its velocity; optional repair (PW-R5, R18)."""
    events: list[Event] = []
    for ship in state.ships:
        if not ship.alive:
            continue
        if ship.linked_to is not None:
            continue
        before = (ship.va, ship.vc)
        after = next_velocity(before, ship.accelerations)
        ship.va, ship.vc = after
        total = (after[0] - before[0], after[1] - before[1])
        events.append(VelocityUpdated(ship.id, before, total, after))
        for craft in state.ships:
            if craft.linked_to == ship.id:
                craft.va, craft.vc = after
        if state.options.repair:
            events += _repair(state, ship)
    return events


def _repair(state: BattleState, ship: ShipState) -> list[Event]:
    """Restore one destroyed non-armor, non-Final-Damage box (PW-R18), radar included.

    The first damaged system in SSD order is repaired; the radar track comes last on the SSD,
    so a radar box is restored when every other system is whole (the box destroyed last).
    """
    design = state.design_of(ship)
    if power.intact_in(ship, design, Category.REPAIR) == 0:
        return []
    for spec in design.systems:
        if ship.intact[spec.name] < spec.boxes:
            ship.intact[spec.name] += 1
            return [SystemRepaired(ship.id, spec.name)]
    if ship.radar_destroyed > 0:
        ship.radar_destroyed -= 1
        return [SystemRepaired(ship.id, "radar")]
    return []


def move(state: BattleState, rules: RuleSet) -> list[Event]:
    """Impulse movement from the chart, linked craft riding with their host (PW-R3, R21)."""
    events: list[Event] = []
    radius = state.options.map_radius
    for ship in state.ships:
        if not ship.alive or ship.linked_to is not None:
            continue
        steps = impulse_steps(
            rules, ship.va, ship.vc, state.impulse, state.options.opposite_sign_order
        )
        if not steps:
            continue
        path = walk(ship.hex, steps)
        ship.q, ship.r = path[-1].q, path[-1].r
        events.append(
            ShipMoved(
                ship.id,
                state.turn,
                state.impulse,
                step_names(steps),
                tuple(h.as_tuple() for h in path),
            )
        )
        for craft in state.ships:
            if craft.linked_to == ship.id:
                craft.q, craft.r = ship.q, ship.r
    if radius is not None:
        for ship in state.ships:
            if ship.alive and ship.hex.length() > radius:
                ship.disengaged = True
                events.append(ShipDisengaged(ship.id, ship.hex.as_tuple()))
    return events
