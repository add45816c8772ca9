"""A scripted captain: documented rules-level tactics that always choose a legal option.

The captain answers one :class:`~wargym.rules.pentagon_war.actions.Decision` at a time and
reads only the board (positions, velocities, facings, intact boxes: what both players see on
the table) and its own side's plot, never the other side's plot. The arithmetic is in
:mod:`~wargym.rules.pentagon_war.captain_plan`. Its tactics, decision by decision:

* **Power** (impulse 1: ECM, ECCM, radar invisibility, screen reinforcement, magnetic beam):
  of every allocation the charges allow, the one with the best expected damage dealt minus
  damage taken this turn at the closest range of the turn, the remaining charges going to the
  weapons with the best damage per charge. The enemy's allocation is predicted with the same
  reckoning. So it buys ECM and reinforcement when the enemy can fire, ECCM when the enemy
  should buy ECM, invisibility when the enemy outguns it beyond 4 hexes, and the (double)
  magnetic beam against a liquid metal gun when charges would otherwise go unused.
* **Directional screen row**: the row the nearest enemy would strike (PW-R9).
* **Link**: never changes a link.
* **Movement** (rotation, thrust): it wants next turn's velocity to close on the nearest
  enemy's predicted hex at ``sqrt(thrust rating x (distance - 1))`` hexes per turn (at most 4),
  so that it can still brake, and never to carry it within 10 hexes of the map edge. Each
  impulse it either *aims* (turns to the facing that keeps the best volley in arc, within
  ``AIM_SLACK``, and shows the enemy its strongest armor row, PW-R9) or *manoeuvres* (turns to the
  direction of the thrust it still needs and thrusts): it manoeuvres when the map edge forces
  it, when there is nothing worth firing this turn, when there is time to thrust and turn back
  before the turn's best moment to fire, or when the velocity is 2 or more hexes per turn off
  the wish and there is no time after firing.
* **Fire**: at the impulse of the turn where the volley does most (the range is exact: both
  velocities are fixed for the turn) or on the last impulse; the charges go to the weapons with
  the best expected damage per charge; each weapon fires at the target it harms most.
* **Missiles**: launched at once at the nearest legal target; rail launch when charges are
  left over after every ready weapon's shot.
"""

from __future__ import annotations

import math

from wargym.rules.pentagon_war import captain_plan as cp
from wargym.rules.pentagon_war.actions import (
    HOLD,
    Action,
    ActionKind,
    Decision,
    fire_blocker,
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
    in_arc,
    relative_bearing_qr,
)

URGENT = 2.0
"""Velocity error (hexes per turn) above which it manoeuvres rather than waits to fire."""
WORTH_FIRING = 0.5
"""Expected damage of the turn's volley below which it does not wait to aim."""
AIM_SLACK = 0.25
"""Expected damage it gives up from the best in-arc volley to show the enemy stronger armor."""


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


def _choice(decision: Decision, value: int) -> Action:
    """``CHOOSE value`` if legal, else the legal choice nearest below it."""
    for v in range(value, -1, -1):
        wanted = Action(ActionKind.CHOOSE, v)
        if wanted in decision.options:
            return wanted
    return decision.options[0]


def captain_action(state: BattleState, decision: Decision, rules: RuleSet | None = None) -> Action:
    """The captain's choice for ``decision``; always one of ``decision.options``."""
    rules = rules or load_rules()
    ship = state.ships[decision.ship]
    enemy = nearest_enemy(state, ship)
    kind = decision.kind
    if enemy is None:
        return HOLD if HOLD in decision.options else _keep(decision)
    if kind in _POWER:
        plan = cp.power_plan(state, rules, ship, enemy)
        return _choice(decision, getattr(plan, _POWER[kind]))
    if kind is DecisionKind.SCREEN_ROW:
        row = armor_row_struck(rules, ship.hex, ship.facing, enemy.hex, ship.armor)
        return _choice(decision, row)
    if kind is DecisionKind.ROTATE:
        return _rotate(state, rules, ship, enemy, decision)
    if kind is DecisionKind.THRUST:
        return _thrust(state, rules, ship, enemy, decision)
    if kind is DecisionKind.FIRE:
        return _fire(state, rules, ship, decision)
    if kind is DecisionKind.LAUNCH:
        return _launch(state, rules, ship, decision)
    return _keep(decision)  # link: never


_POWER = {
    DecisionKind.ECM: "ecm",
    DecisionKind.ECCM: "eccm",
    DecisionKind.INVISIBILITY: "invisibility",
    DecisionKind.REINFORCE: "reinforce",
    DecisionKind.MAG_BEAM: "mag_beam",
}


def _keep(decision: Decision) -> Action:
    for wanted in (Action(ActionKind.CHOOSE, 0), Action(ActionKind.ROTATE, 0), HOLD):
        if wanted in decision.options:
            return wanted
    return decision.options[0]


# -- movement ------------------------------------------------------------------------------


def _volley_by_impulse(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState
) -> list[float]:
    """Expected damage of the ready weapons on each remaining impulse (index 0 = now)."""
    weapons = cp.ready_weapons(state, ship)
    charges = planned_charges(state, ship, rules)
    ecm = rules.systems.ecm_penalty if enemy.ecm and not ship.eccm else 0
    screen = cp.screen_of(state, rules, enemy, enemy.reinforce)
    size = state.design_of(enemy).size_class
    return [
        cp.volley(rules, weapons, charges, size, rng, ecm, screen)[0]
        for rng in cp.turn_ranges(state, rules, ship, enemy)
    ]


def _manoeuvre_facing(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState
) -> int | None:
    """The facing to thrust along this impulse, or None to aim at the enemy instead."""
    wish = cp.wanted_velocity(state, rules, ship, enemy)
    dirs = cp.thrust_wish(state, rules, ship, wish)
    if not dirs:
        return None
    if wish.edge:
        return dirs[0]
    values = _volley_by_impulse(state, rules, ship, enemy)
    top = max(values)
    if top < WORTH_FIRING:
        return dirs[0]
    best_k = next(k for k, v in enumerate(values) if v >= top - 0.1)
    offset = cp.turn_hexes(state, rules, enemy)[best_k] - cp.turn_hexes(state, rules, ship)[best_k]
    aim = cp.facing_towards(ship, ship.hex + offset)
    need = max(1, cp.turns_between(ship.facing, dirs[0])) + len(dirs) - 1
    back = cp.turns_between(dirs[-1], aim)
    if best_k >= need + back:
        return dirs[0]
    after = len(values) - 1 - best_k
    if after >= cp.turns_between(aim, dirs[0]) + len(dirs):
        return None
    vx, vy = cp.next_velocity_xy(ship)
    if math.hypot(wish.x - vx, wish.y - vy) >= URGENT:
        return dirs[0]
    return None


def _rotate(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState, decision: Decision
) -> Action:
    goal = _manoeuvre_facing(state, rules, ship, enemy)
    if goal is None:
        goal = _aim_facing(state, rules, ship, enemy)
        aiming = True
    else:
        aiming = False
    dq, dr = enemy.q - ship.q, enemy.r - ship.r
    best, best_key = _keep(decision), (99.0, 0.0, 1)
    for action in decision.options:
        facing = (ship.facing + action.value) % 6
        key0 = float(cp.turns_between(facing, goal))
        armor = 0.0
        if aiming and (dq or dr):
            armor = -ship.armor[armor_row_at(rules, relative_bearing_qr(dq, dr, facing)) - 1]
        key = (key0, armor, 0 if action.value == 0 else 1)
        if key < best_key:
            best, best_key = action, key
    return best


def _aim_facing(state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState) -> int:
    """The facing to aim with: the enemy in the arcs of the best volley, behind strong armor.

    Every hit lands on the one armor row that faces the firer (PW-R9), so pointing the bow at
    the enemy turn after turn wears row 1 through to the controls. Of the facings whose in-arc
    volley at the present range is within :data:`AIM_SLACK` of the best (all facings, once every
    weapon has fired this turn), it takes the one that shows the enemy the most intact boxes;
    on a tie, the fewest hexside turns away, then the bow-on facing, then clockwise.

    Only one on one: against several enemy ships the hits come from several bearings, and a
    host's linked craft (PW-R19) turn with it, so then it keeps the bow on the nearest enemy
    (measured in the ``carrier`` scenario, captain against captain: with the armor aim for every
    ship the carrier's side won 92.5 % of the decided games; with the craft's volleys and armor
    counted with the host's, 71 %; bow-on in these cases, 60 % as before).
    """
    bow = cp.facing_towards(ship, enemy.hex)
    dq, dr = enemy.q - ship.q, enemy.r - ship.r
    if not (dq or dr) or not _one_on_one(state, ship):
        return bow
    weapons = cp.ready_weapons(state, ship)
    charges = planned_charges(state, ship, rules)
    ecm = rules.systems.ecm_penalty if enemy.ecm and not ship.eccm else 0
    screen = cp.screen_of(state, rules, enemy, enemy.reinforce)
    size = state.design_of(enemy).size_class
    rng = hex_gap(ship, enemy)
    volleys: list[float] = []
    for facing in range(6):
        theta = relative_bearing_qr(dq, dr, facing)
        in_view = [w for w in weapons if w.arc is not None and in_arc(w.arc, theta)]
        volleys.append(cp.volley(rules, in_view, charges, size, rng, ecm, screen)[0])
    floor = max(volleys) - AIM_SLACK

    def key(facing: int) -> tuple[int, int, int, int]:
        row = armor_row_at(rules, relative_bearing_qr(dq, dr, facing))
        turns = cp.turns_between(ship.facing, facing)
        clockwise = (facing - ship.facing) % 6  # the same choice for both sides of a mirror
        return (-ship.armor[row - 1], turns, 0 if facing == bow else 1, clockwise)

    return min((f for f in range(6) if volleys[f] >= floor), key=key)


def _one_on_one(state: BattleState, ship: ShipState) -> bool:
    """A single enemy ship in play and no craft linked to ``ship``."""
    enemies = 0
    for other in state.ships:
        if other.linked_to == ship.id:
            return False
        if other.side != ship.side and not (other.destroyed or other.disengaged):
            enemies += 1
    return enemies == 1


def _thrust(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState, decision: Decision
) -> Action:
    if len(decision.options) == 1:
        return decision.options[0]
    wish = cp.wanted_velocity(state, rules, ship, enemy)
    dirs = cp.thrust_wish(state, rules, ship, wish)
    if not dirs:
        return _choice(decision, 0)
    if state.options.omnidirectional_thrust:
        return _choice(decision, dirs[0] + 1)
    facing = _planned_facing(state, ship)
    points = 0
    for d in dirs:
        if d != facing:
            break
        points += 1
    return _choice(decision, points)


# -- fire ----------------------------------------------------------------------------------


def _shot_value(
    state: BattleState, rules: RuleSet, ship: ShipState, weapon_type: str, target: ShipState
) -> float:
    ecm = rules.systems.ecm_penalty if target.ecm and not ship.eccm else 0
    screen = cp.screen_of(state, rules, target, target.reinforce)
    size = state.design_of(target).size_class
    return cp.expected_damage(rules, weapon_type, size, hex_gap(ship, target), ecm, screen)


def _fire(state: BattleState, rules: RuleSet, ship: ShipState, decision: Decision) -> Action:
    targets = [state.ships[a.value] for a in decision.options if a.kind is ActionKind.FIRE]
    if not targets:
        return HOLD
    design = state.design_of(ship)
    weapon = design.weapons[decision.index]
    wtype = weapon.weapon or ""
    target = max(targets, key=lambda t: (_shot_value(state, rules, ship, wtype, t), -t.id))
    now = _shot_value(state, rules, ship, wtype, target)
    if now <= 0:
        return HOLD
    size = state.design_of(target).size_class
    if state.impulse < rules.impulses_per_turn:
        ranges = cp.turn_ranges(state, rules, ship, target)
        raw_now = cp.expected_damage(rules, wtype, size, ranges[0])
        raw_later = max(
            (cp.expected_damage(rules, wtype, size, r) for r in ranges[1:]), default=0.0
        )
        if raw_later > raw_now + 0.3:
            return HOLD  # it will do better later this turn
    # the charges go to the weapons with the best damage per charge among those still to decide
    rest = [
        w
        for i, w in enumerate(design.weapons)
        if i >= decision.index
        and w in cp.ready_weapons(state, ship)
        and fire_blocker(state, rules, ship, w, target, charges_left=99) is None
    ]
    charges = planned_charges(state, ship, rules)
    ecm = rules.systems.ecm_penalty if target.ecm and not ship.eccm else 0
    screen = cp.screen_of(state, rules, target, target.reinforce)
    _, chosen = cp.volley(rules, rest, charges, size, hex_gap(ship, target), ecm, screen)
    if weapon.name in chosen:
        return Action(ActionKind.FIRE, target.id)
    return HOLD


def _launch(state: BattleState, rules: RuleSet, ship: ShipState, decision: Decision) -> Action:
    launches = [a for a in decision.options if a.kind is not ActionKind.HOLD]
    if not launches:
        return HOLD
    target = min((state.ships[a.value] for a in launches), key=lambda s: (hex_gap(ship, s), s.id))
    rail = Action(ActionKind.RAIL_LAUNCH, target.id)
    spare = planned_charges(state, ship, rules) - sum(
        cp.weapon_cost(rules, w) for w in cp.ready_weapons(state, ship)
    )
    if spare >= rules.systems.costs["rail_launch_missile"] and rail in decision.options:
        return rail
    return Action(ActionKind.LAUNCH, target.id)
