"""The scripted captain: a deterministic opponent with documented tactics (TR-R3 orders).

Tactics, in order of the decisions it answers:

1. **Heading**: turn toward the nearest enemy it knows about (keeps the spinal arc on target);
   ties go to the smaller turn.
2. **Acceleration**: pick the legal thrust that brings its next position closest to the enemy's
   projected next position (enemy position + enemy velocity), aiming for range 1 where the
   to-hit range DM is 0 (TR-R6); it never leaves a 3-hex margin inside the map edge; ties go
   to the smaller thrust and then the lower direction.
3. **Black globe**: the highest flicker rate available.
4. **Fire**: every legal battery at the nearest enemy (projected range), heaviest first; hold
   when nothing is left. It never splits a weapon type.
5. **Boarding**: declares a boarding of an enemy it shares a hex with when its troops
   outnumber the defenders 2:1; otherwise none.

Pure function of the state; never rolls dice.
"""

from __future__ import annotations

from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.actions import (
    Accelerate,
    Action,
    Board,
    DecisionKind,
    Fire,
    SetFlicker,
    SetHeading,
)
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.game import decision
from wargym.rules.starship_combat.movement import new_velocity
from wargym.rules.starship_combat.state import BattleState, ShipState


def _projected(ship: ShipState) -> tuple[int, int]:
    return hexmap.add(ship.pos, ship.vel)


def _enemies(state: BattleState, ship: ShipState) -> list[ShipState]:
    known = state.detected.get(ship.side, [])
    return [
        s for s in state.ships
        if s.side != ship.side and not s.out and (not state.options.sensors or s.id in known)
    ]  # fmt: skip


def _nearest(state: BattleState, ship: ShipState) -> ShipState | None:
    enemies = _enemies(state, ship)
    if not enemies:
        return None
    return min(enemies, key=lambda e: (hexmap.distance(ship.pos, _projected(e)), e.id))


def choose(state: BattleState, side: int) -> Action:
    """The captain's order for the current decision of ``side`` (module docstring tactics)."""
    d = decision(state, side)
    if d is None:
        raise ValueError(f"side {side} has nothing to decide")
    ship = state.ship(d.ship)
    enemy = _nearest(state, ship)
    options = d.options
    if d.kind is DecisionKind.HEADING:
        if enemy is None or enemy.pos == ship.pos:
            return options[0]
        want = hexmap.bearing_deg(ship.pos, enemy.pos) / 60.0

        def turn(a: Action) -> tuple[float, int]:
            assert isinstance(a, SetHeading)
            diff = abs(a.direction - want) % 6
            return (min(diff, 6 - diff), abs(a.direction - ship.heading))

        return min(options, key=turn)
    if d.kind is DecisionKind.ACCEL:
        goal = _projected(enemy) if enemy is not None else ship.pos
        margin = load_rules().map_radius - 3

        def score(a: Action) -> tuple[int, int, int, int]:
            assert isinstance(a, Accelerate)
            v = new_velocity(ship.vel, a.direction, a.magnitude)
            nxt = hexmap.add(ship.pos, v)
            edge = max(0, hexmap.distance((0, 0), nxt) - margin)
            return (edge, abs(hexmap.distance(nxt, goal) - 1), a.magnitude, a.direction)

        return min(options, key=score)
    if d.kind is DecisionKind.FLICKER:
        return max(options, key=lambda a: a.pct if isinstance(a, SetFlicker) else -1)
    if d.kind is DecisionKind.FIRE:
        fires = [a for a in options if isinstance(a, Fire)]
        if not fires:
            return options[0]
        rank = {e.id: hexmap.distance(ship.pos, _projected(e)) for e in _enemies(state, ship)}
        return min(fires, key=lambda a: (rank.get(a.target, 99), -a.batteries, a.target))
    for a in options:
        if isinstance(a, Board) and a.target is not None:
            t = state.ship(a.target)
            if t.pos == ship.pos and ship.troops >= 2 * max(1, t.troops):
                return a
    return Board(None) if Board(None) in options else options[0]
