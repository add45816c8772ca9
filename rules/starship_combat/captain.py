"""The scripted captain: a deterministic opponent with documented tactics (TR-R3 orders).

Tactics, in order of the decisions it answers (``enemy`` = the target it closes on: the
nearest live enemy by projected range, the most damaged first among equals):

1. **Heading**: face where the enemy will be after this round's movement (the spinal arc,
   TR-R19, is the heading's hexside); ties go to the smaller turn.
2. **Acceleration**: plan the thrust that brings it onto the enemy's projected hex with the
   enemy's velocity (range 0, where the to-hit range DM is 0 and a boarding is possible, TR-R6,
   TR-R22). Each legal thrust is scored by where the ship would end up relative to the enemy if
   it braked at full G from then on (a double-integrator "stopping point"), so it brakes in time
   instead of overshooting; a stopping point beyond half the map radius and its own speed cost a
   little, so that a damaged drive does not leave it drifting off the map. Thrusts whose
   stopping point lies within 3 hexes of the map edge are refused while a safe one exists: it
   never flies off the map (TR-R4). With 60 % of its power lost it keeps its energy weapons
   rather than thrust, unless the enemy would be out of range or the map edge is near (TR-R16).
3. **Black globe**: the highest flicker rate available (TR-R24: no cost is modelled).
4. **Fire**: every legal battery; the target with the best to-hit DM (then the most damaged
   hull) first, the rest of the weapon type at the next target in another arc (TR-R20).
5. **Boarding**: declares a boarding of every enemy it will share a hex with after movement
   with equal velocities (or an enemy at 0 G), and commits all its troops (the best ratio DM):
   a boarding always costs the defender crew segments (§2.17), its troops have no other use,
   and a success captures the ship.

With the sensor option it closes on the enemies its side has detected; having lost contact it
searches the enemy side's deployment area (the scenario is public) and the map centre in turn.
Pure function of the state; never rolls dice.
"""

from __future__ import annotations

from wargym.rules.starship_combat import fire as fr
from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.actions import (
    Accelerate,
    Action,
    Board,
    CommitTroops,
    DecisionKind,
    Fire,
    SetFlicker,
    SetHeading,
)
from wargym.rules.starship_combat.boarding import eligible
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.game import decision
from wargym.rules.starship_combat.movement import legal_accelerations, new_velocity
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import (
    BattleState,
    ShipState,
    current_g,
    hull_limits,
    limited_heading,
    power_steps,
)

EDGE_MARGIN = 3
"""Hexes the captain keeps between its stopping point and the map edge."""

SEARCH_ROUNDS = 5
"""Rounds a captain that lost contact searches one place before trying the other."""
SPEED_COST = 0.5
"""Cost per hex a round of the captain's own speed (against drifting off with a dead drive)."""
Vec = tuple[float, float]
"""A fractional axial vector."""


def _projected(ship: ShipState) -> tuple[int, int]:
    return hexmap.add(ship.pos, ship.vel)


def _enemies(state: BattleState, ship: ShipState) -> list[ShipState]:
    known = state.detected.get(ship.side, [])
    return [
        s for s in state.ships
        if s.side != ship.side and not s.out and (not state.options.sensors or s.id in known)
    ]  # fmt: skip


def _damage_left(state: BattleState, ship: ShipState) -> int:
    return hull_limits(ship, state.options)[1] - ship.hull_dmg


def _nearest(state: BattleState, ship: ShipState) -> ShipState | None:
    enemies = _enemies(state, ship)
    if not enemies:
        return None
    return min(
        enemies,
        key=lambda e: (hexmap.distance(_projected(ship), _projected(e)),
                       _damage_left(state, e), e.id),
    )  # fmt: skip


def _hexlen(q: float, r: float) -> float:
    """Hex length of a fractional axial vector (TR-R2 metric)."""
    return (abs(q) + abs(r) + abs(q + r)) / 2.0


def _stop_distance(speed: float, g: int) -> float:
    """Hexes covered while braking at ``g`` from ``speed`` (moving after each thrust)."""
    total, s = 0.0, speed - g
    while s > 0:
        total += s
        s -= g
    return total


def _braked(rel: Vec, vel: Vec, g: int) -> Vec:
    """``rel`` minus the braking path of velocity ``vel`` at ``g``: where it ends."""
    speed = _hexlen(*vel)
    if speed < 1e-9:
        return rel
    k = _stop_distance(speed, g) / speed
    return rel[0] - vel[0] * k, rel[1] - vel[1] * k


def _energy(state: BattleState, ship: ShipState, key: str, rules: RuleSet) -> bool:
    props = rules.weapon_props.get(fr.weapon_kind(state, ship, key))
    return props is not None and props.energy


def _search_goal(state: BattleState, ship: ShipState, rules: RuleSet) -> tuple[int, int]:
    """Where to look for an enemy it has lost (sensor option, TR-R5).

    The enemy side's deployment area (TR-R26) and the map centre, ``SEARCH_ROUNDS`` each.
    """
    if (state.round // SEARCH_ROUNDS) % 2:
        return (0, 0)
    spots = [d.at for d in rules.scenarios[state.scenario].sides[1 - ship.side]]
    q = round(sum(p[0] for p in spots) / len(spots))
    r = round(sum(p[1] for p in spots) / len(spots))
    return (q, r)


def _plan(state: BattleState, ship: ShipState, heading: int, rules: RuleSet) -> Accelerate:
    """The thrust the captain wants this round with ``heading`` (module docstring, 2)."""
    opts = state.options
    g = 0 if ship.bridge_hit_round == state.round else current_g(ship, rules, opts)
    limited = limited_heading(ship, rules, opts)
    choices = legal_accelerations(ship.vel, g, heading, limited, rules)
    enemy = _nearest(state, ship)
    goal = _projected(enemy) if enemy is not None else _search_goal(state, ship, rules)
    goal_vel = enemy.vel if enemy is not None else (0, 0)
    brake_g = max(1, g)
    keep_energy = (
        power_steps(ship, rules, opts) >= rules.power_xor
        and any(n > 0 and _energy(state, ship, key, rules) for key, n in ship.weapons.items())
    )  # fmt: skip

    def score(acc: tuple[int, int]) -> tuple[float, float, int, int]:
        d, m = acc
        v = new_velocity(ship.vel, d, m)
        nxt = hexmap.add(ship.pos, v)
        stop = _braked((-nxt[0], -nxt[1]), v, brake_g)  # centre minus the stopping point
        edge = max(0.0, _hexlen(*stop) - (rules.map_radius - EDGE_MARGIN))
        rel = (goal[0] - nxt[0], goal[1] - nxt[1])
        rel_vel = (v[0] - goal_vel[0], v[1] - goal_vel[1])
        cost = _hexlen(*_braked(rel, rel_vel, brake_g)) + 0.25 * _hexlen(*rel)
        cost += max(0.0, _hexlen(*stop) - rules.map_radius / 2)  # drives may fail:
        cost += SPEED_COST * hexmap.length(v)  # a slow ship drifts off the map slowly
        if keep_energy and m > 0:
            in_range = enemy is not None and hexmap.distance(ship.pos, goal) <= rules.max_range
            cost += 50.0 if in_range and edge == 0.0 else 0.0
        return (round(edge, 6), round(cost, 6), m, d)

    best = min(choices, key=score)
    return Accelerate(best[0], best[1])


def _heading(state: BattleState, ship: ShipState, options: tuple[Action, ...],
             rules: RuleSet) -> Action:  # fmt: skip
    enemy = _nearest(state, ship)
    if enemy is None:
        return options[0]
    plan = _plan(state, ship, ship.heading, rules)
    here = hexmap.add(ship.pos, new_velocity(ship.vel, plan.direction, plan.magnitude))
    there = _projected(enemy)
    if here == there:
        there = enemy.pos if enemy.pos != here else hexmap.add(here, enemy.vel)
    if here == there:
        return SetHeading(ship.heading) if SetHeading(ship.heading) in options else options[0]
    want = hexmap.bearing_deg(here, there) / 60.0

    def turn(a: Action) -> tuple[float, int]:
        assert isinstance(a, SetHeading)
        diff = abs(a.direction - want) % 6
        off = abs(a.direction - ship.heading) % 6
        return (round(min(diff, 6 - diff), 6), min(off, 6 - off))

    return min(options, key=turn)


def _fire(state: BattleState, ship: ShipState, options: tuple[Action, ...],
          rules: RuleSet) -> Action:  # fmt: skip
    fires = [a for a in options if isinstance(a, Fire)]
    if not fires:
        return options[0]

    def rank(a: Fire) -> tuple[int, int, int, int]:
        target = state.ship(a.target)
        rng = hexmap.distance(_projected(ship), _projected(target))
        return (rng, _damage_left(state, target), -a.batteries, a.target)

    return min(fires, key=rank)


def _board(state: BattleState, ship: ShipState, options: tuple[Action, ...],
           rules: RuleSet) -> Action:  # fmt: skip
    here = ship.pos if state.phase == "fire_orders" else None
    for a in options:
        if not isinstance(a, Board) or a.target is None:
            continue
        t = state.ship(a.target)
        if state.options.sensors and t.id not in state.detected.get(ship.side, []):
            continue  # it plans only on what its side has detected
        if here is not None:
            if eligible(state, ship, t, rules, state.options):
                return a
            continue
        o = state.orders.get(ship.id)
        d, m = (o.accel_dir or 0, o.accel_mag or 0) if o is not None else (0, 0)
        v = new_velocity(ship.vel, d, m)
        same_hex = hexmap.add(ship.pos, v) == _projected(t)
        if same_hex and (v == t.vel or current_g(t, rules, state.options) == 0):
            return a
    return Board(None) if Board(None) in options else options[0]


def choose(state: BattleState, side: int) -> Action:
    """The captain's order for the current decision of ``side`` (module docstring tactics)."""
    d = decision(state, side)
    if d is None:
        raise ValueError(f"side {side} has nothing to decide")
    rules = load_rules()
    ship = state.ship(d.ship)
    options = d.options
    if d.kind is DecisionKind.HEADING:
        return _heading(state, ship, options, rules)
    if d.kind is DecisionKind.ACCEL:
        o = state.orders.get(ship.id)
        heading = o.heading if o is not None and o.heading is not None else ship.heading
        plan = _plan(state, ship, heading, rules)
        return plan if plan in options else options[0]
    if d.kind is DecisionKind.FLICKER:
        return max(options, key=lambda a: a.pct if isinstance(a, SetFlicker) else -1)
    if d.kind is DecisionKind.FIRE:
        return _fire(state, ship, options, rules)
    if d.kind is DecisionKind.BOARD_TROOPS:
        return max(options, key=lambda a: a.tenths if isinstance(a, CommitTroops) else -1)
    return _board(state, ship, options, rules)
