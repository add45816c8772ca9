"""A scripted captain: documented rules-level tactics that always choose a legal option.

The captain answers one :class:`~wargym.rules.pentagon_war.actions.Decision` at a time and
reads only public state and its own side's plot, so it plays under the same secrecy as any
agent. Its tactics, decision by decision:

* **ECM** (impulse 1): bought when an enemy is within 16 hexes and at least 4 charges remain,
  so that the lasers can still fire. **ECCM** and **radar invisibility** are never bought.
* **Reinforce screens**: never (the charges go to weapons).
* **Directional screen row**: the row the nearest enemy would strike (PW-R9).
* **Magnetic beams**: armed (single) when the nearest enemy mounts a liquid metal gun within
  16 hexes and at least 3 charges remain.
* **Link**: never changes a link.
* **Rotation**: keep the nearest enemy within 60° of the bow (the F2 weapons' arc) and,
  among the rotations that do, present the armor row with the most intact boxes to it;
  otherwise turn towards it.
* **Thrust**: the captain wants a velocity towards the nearest enemy of
  ``min(3, (range - 4) / 2)`` hexes per turn (zero within 4 hexes); it thrusts when the thrust
  brings its velocity closer to that wish.
* **Fire**: each weapon fires at the nearest legal target when that target is within 16
  hexes, or on impulse 12 (its last chance this turn) at any range.
* **Missiles**: launched at the nearest legal target; rail launch beyond 16 hexes when at least
  2 charges remain.
"""

from __future__ import annotations

import math

from wargym.rules.hexgrid import Hex, pixel
from wargym.rules.pentagon_war.actions import (
    HOLD,
    Action,
    ActionKind,
    Decision,
    hex_gap,
    planned_charges,
)
from wargym.rules.pentagon_war.actions import planned_facing as _planned_facing
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.records import RuleSet
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, ShipState
from wargym.rules.pentagon_war.weapons import (
    armor_row_at,
    armor_row_struck,
    relative_bearing_qr,
)

CLOSE_RANGE = 4
FIRE_RANGE = 16
AWARE_RANGE = 16
CRUISE_SPEED = 3.0


def nearest_enemy(state: BattleState, ship: ShipState) -> ShipState | None:
    """The closest enemy still in play (lowest id on a tie)."""
    best: ShipState | None = None
    best_key = (0, 0)
    for s in state.ships:  # min over (range, id): the first of the closest in id order
        if s.side != ship.side and not (s.destroyed or s.disengaged):
            key = (hex_gap(ship, s), s.id)
            if best is None or key < best_key:
                best, best_key = s, key
    return best


def _gap(theta: float) -> float:
    return min(theta, 360.0 - theta)


def _velocity_xy(ship: ShipState) -> tuple[float, float]:
    x, y = pixel(Hex(ship.vc, -ship.va))
    return x, y


def _choice(decision: Decision, value: int) -> Action:
    wanted = Action(ActionKind.CHOOSE, value)
    return wanted if wanted in decision.options else decision.options[0]


def captain_action(state: BattleState, decision: Decision, rules: RuleSet | None = None) -> Action:
    """The captain's choice for ``decision``; always one of ``decision.options``."""
    rules = rules or load_rules()
    ship = state.ships[decision.ship]
    enemy = nearest_enemy(state, ship)
    kind = decision.kind
    if enemy is None:
        return HOLD if HOLD in decision.options else _keep(decision)
    rng = hex_gap(ship, enemy)
    left = planned_charges(state, ship, rules)
    if kind is DecisionKind.ECM:
        return _choice(decision, int(rng <= AWARE_RANGE and left >= 4))
    if kind is DecisionKind.SCREEN_ROW:
        row = armor_row_struck(rules, ship.hex, ship.facing, enemy.hex, ship.armor)
        return _choice(decision, row)
    if kind is DecisionKind.MAG_BEAM:
        lmg = any(w.weapon == "liquid_metal_gun" for w in state.design_of(enemy).weapons)
        return _choice(decision, int(lmg and rng <= AWARE_RANGE and left >= 3))
    if kind is DecisionKind.ROTATE:
        return _rotate(state, ship, enemy, decision)
    if kind is DecisionKind.THRUST:
        return _thrust(state, ship, enemy, decision)
    if kind is DecisionKind.FIRE:
        targets = [state.ships[a.value] for a in decision.options if a.kind is ActionKind.FIRE]
        if not targets:
            return HOLD
        best = min(targets, key=lambda s: (hex_gap(ship, s), s.id))
        if hex_gap(ship, best) <= FIRE_RANGE or state.impulse == rules.impulses_per_turn:
            return Action(ActionKind.FIRE, best.id)
        return HOLD
    if kind is DecisionKind.LAUNCH:
        launches = [a for a in decision.options if a.kind is not ActionKind.HOLD]
        if not launches:
            return HOLD
        target = min((state.ships[a.value] for a in launches), key=lambda s: hex_gap(ship, s))
        rail = Action(ActionKind.RAIL_LAUNCH, target.id)
        if hex_gap(ship, target) > AWARE_RANGE and left >= 2 and rail in decision.options:
            return rail
        return Action(ActionKind.LAUNCH, target.id)
    return _keep(decision)  # ECCM, invisibility, reinforce, link: never


def _keep(decision: Decision) -> Action:
    for wanted in (Action(ActionKind.CHOOSE, 0), Action(ActionKind.ROTATE, 0), HOLD):
        if wanted in decision.options:
            return wanted
    return decision.options[0]


def _rotate(state: BattleState, ship: ShipState, enemy: ShipState, decision: Decision) -> Action:
    rules = load_rules()
    best, best_score = _keep(decision), -1.0
    dq, dr = enemy.q - ship.q, enemy.r - ship.r
    for action in decision.options:
        facing = (ship.facing + action.value) % 6
        theta = relative_bearing_qr(dq, dr, facing)
        if dq or dr:  # armor_row_struck from the same bearing
            row = armor_row_at(rules, theta)
        else:
            row = armor_row_struck(rules, ship.hex, facing, enemy.hex, ship.armor)
        score = (100.0 if _gap(theta) <= 60.0 else -_gap(theta)) + ship.armor[row - 1]
        score += 0.5 if action.value == 0 else 0.0
        if score > best_score:
            best, best_score = action, score
    return best


def _thrust(state: BattleState, ship: ShipState, enemy: ShipState, decision: Decision) -> Action:
    if len(decision.options) == 1:
        return decision.options[0]
    rng = hex_gap(ship, enemy)
    vx, vy = _velocity_xy(ship)
    ex, ey = pixel(enemy.hex - ship.hex)
    norm = math.hypot(ex, ey) or 1.0
    speed = min(CRUISE_SPEED, max(0.0, (rng - CLOSE_RANGE) / 2.0)) * math.sqrt(3.0)
    want_x, want_y = ex / norm * speed - vx, ey / norm * speed - vy
    best, best_error = 0, math.hypot(want_x, want_y)
    for action in decision.options:
        if action.value == 0:
            continue
        direction = (
            action.value - 1
            if state.options.omnidirectional_thrust
            else (_planned_facing(state, ship))
        )
        fx, fy = pixel(Hex(0, 0).neighbour(direction))
        error = math.hypot(want_x - fx, want_y - fy)
        if error < best_error - 1e-9:
            best, best_error = action.value, error
    return _choice(decision, best)
