"""The scripted captain's arithmetic: expected damage, the turn's ranges, velocity and power plans.

Everything here is a pure function of public state (positions, velocities, facings, intact
boxes) and the tables; the captain (:mod:`~wargym.rules.pentagon_war.captain`) turns it into
decisions.

* :func:`expected_damage`: mean damage of one shot after screens, over the 36 rolls (§2.1-2.7).
* :func:`turn_ranges`: the range to an enemy on every remaining impulse of the turn; both
  velocities are fixed for the turn (PW-R3, R5), so this is exact.
* :func:`wanted_velocity`: the velocity to hold next turn: close on the enemy's predicted hex
  at a speed that can still brake (thrust rating per turn) and never carry the ship within
  ``EDGE_MARGIN`` hexes of the map edge (PW-R21).
* :func:`thrust_wish`: the directions of this turn's remaining thrust points that bring the
  velocity closest to that wish (PW-R5).
* :func:`power_plan`: the impulse-1 allocation (ECM, ECCM, invisibility, reinforcement, magnetic
  beam) with the best expected damage dealt minus damage taken, the charges left going to the
  weapons with the best damage per charge (PW-R10, R11, R16, R17).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from wargym.rules.hexgrid import AXIAL_DIRECTIONS, Hex, distance, pixel
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.movement import impulse_steps
from wargym.rules.pentagon_war.records import Category, RuleSet, ScreenType, SystemSpec
from wargym.rules.pentagon_war.state import BattleState, ShipState
from wargym.rules.pentagon_war.weapons import range_penalty, relative_bearing_qr

STANDOFF = 1.0
"""Range (hexes) the captain closes to and holds."""
MAX_CLOSING = 3.0
"""Fastest closing speed (hexes per turn) it asks for."""
MAX_SPEED = 4.0
"""Fastest enemy velocity (hexes per turn) it matches before adding its closing speed."""
EDGE_MARGIN = 10
"""Hexes it keeps between itself and the map edge."""
OFFENCE = 1.5
"""Weight of damage dealt against damage taken in the power plan (a hit now also shortens the
fight: every box lost is a box the enemy no longer fires from or steers with)."""
ECM_BELIEF = 0.75
"""How far the power plan trusts its guess that the enemy buys ECM (it cannot see the enemy's
allocation before its own: PW-R2)."""
HEX = math.sqrt(3.0)
"""Pixel distance between neighbouring hex centres (size 1)."""


_EXPECTED: dict[tuple[int, str, int, int, int, int], float] = {}
_RULES: dict[int, RuleSet] = {}
"""Rule sets seen, by id (kept alive so that an id in a cache key is never reused)."""


def _key(rules: RuleSet) -> int:
    _RULES.setdefault(id(rules), rules)
    return id(rules)


def _expected(
    rules: RuleSet, weapon: str, size_class: int, rng: int, ecm: int, screen: int
) -> float:
    key = (_key(rules), weapon, size_class, rng, ecm, screen)
    value = _EXPECTED.get(key)
    if value is None:
        value = _EXPECTED[key] = _mean_damage(rules, weapon, size_class, rng, ecm, screen)
    return value


def _mean_damage(
    rules: RuleSet, weapon: str, size_class: int, rng: int, ecm: int, screen: int
) -> float:
    spec = rules.weapon_types[weapon]
    if rng > rules.max_fire_range:
        return 0.0
    penalty = range_penalty(rules, rng)
    total = 0.0
    for a, b in itertools.product(range(1, 7), repeat=2):
        roll = a + b + size_class - penalty - ecm
        if spec.roll_table is not None:
            total += max(0, int(spec.roll_table.lookup(roll)) - screen)
        elif spec.hit_number is not None and roll >= spec.hit_number:
            if spec.range_table:
                total += max(0, spec.range_band(rng).damage - screen)
            else:  # acid gum: only the first packet meets the screens
                packets = [spec.damage_per_impulse] * spec.impulses
                total += sum(
                    max(0, p - (screen if i < spec.screened_packets else 0))
                    for i, p in enumerate(packets)
                )
    return total / 36.0


def expected_damage(
    rules: RuleSet, weapon: str, size_class: int, rng: int, ecm: int = 0, screen: int = 0
) -> float:
    """Mean damage of one ``weapon`` shot at ``rng`` after ``ecm`` and ``screen`` (§2.1-2.7)."""
    return _expected(rules, weapon, size_class, max(0, rng), ecm, screen)


def cartesian(h: Hex) -> tuple[float, float]:
    """Centre of ``h`` in hex units (neighbours 1 apart)."""
    x, y = pixel(h)
    return x / HEX, y / HEX


def velocity_xy(va: int, vc: int) -> tuple[float, float]:
    """A velocity (hexes per turn) in the plane, hex units (PW-R1: a·A + c·C = axial (c, -a))."""
    return cartesian(Hex(vc, -va))


DIRECTION_XY = tuple(cartesian(Hex(dq, dr)) for dq, dr in AXIAL_DIRECTIONS)


_PATHS: dict[tuple[int, int, int, int, int, int], tuple[Hex, ...]] = {}


def _path(rules: RuleSet, q: int, r: int, va: int, vc: int, impulse: int) -> tuple[Hex, ...]:
    """Hexes after the movement of impulses ``impulse + 1 .. 12`` from ``(q, r)``."""
    key = (_key(rules), q, r, va, vc, impulse)
    cached = _PATHS.get(key)
    if cached is not None:
        return cached
    if len(_PATHS) > 200_000:
        _PATHS.clear()
    out = []
    here = Hex(q, r)
    for k in range(impulse + 1, rules.impulses_per_turn + 1):
        for step in impulse_steps(rules, va, vc, k):
            here = here.neighbour(step)
        out.append(here)
    _PATHS[key] = tuple(out)
    return _PATHS[key]


def turn_hexes(state: BattleState, rules: RuleSet, ship: ShipState) -> tuple[Hex, ...]:
    """The ship's hex now and after each remaining impulse's movement this turn (PW-R3)."""
    host = state.ships[ship.linked_to] if ship.linked_to is not None else ship
    return (ship.hex, *_path(rules, ship.q, ship.r, host.va, host.vc, state.impulse))


def turn_ranges(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState
) -> tuple[int, ...]:
    """Range to ``enemy`` now and on each remaining impulse of the turn."""
    mine, theirs = turn_hexes(state, rules, ship), turn_hexes(state, rules, enemy)
    return tuple(distance(a, b) for a, b in zip(mine, theirs, strict=True))


def thrust_rating(state: BattleState, ship: ShipState) -> int:
    """Thrust points per turn (PW-R5)."""
    return power.thrust_points(ship, state.design_of(ship))


def next_velocity_xy(ship: ShipState) -> tuple[float, float]:
    """Next turn's velocity with the thrust already recorded this turn (PW-R5)."""
    va = ship.va + sum(a for a, _ in ship.accelerations)
    vc = ship.vc + sum(c for _, c in ship.accelerations)
    return velocity_xy(va, vc)


@dataclass(frozen=True)
class VelocityWish:
    """Velocity to hold next turn and whether the map edge forced it."""

    x: float
    y: float
    edge: bool


def wanted_velocity(
    state: BattleState, rules: RuleSet, ship: ShipState, enemy: ShipState
) -> VelocityWish:
    """Close on the enemy at a speed that can brake in time; stay off the map edge (PW-R21)."""
    accel = max(1, thrust_rating(state, ship))
    px, py = cartesian(ship.hex)
    ex, ey = cartesian(enemy.hex)
    evx, evy = velocity_xy(enemy.va, enemy.vc)
    dx, dy = ex + evx - px, ey + evy - py  # where the enemy will be a turn from now
    gap = math.hypot(dx, dy)
    closing = min(MAX_CLOSING, math.sqrt(accel * max(0.0, gap - STANDOFF)))
    enemy_speed = math.hypot(evx, evy)
    if enemy_speed > MAX_SPEED:  # match a fast enemy only up to MAX_SPEED, then close
        evx, evy = evx / enemy_speed * MAX_SPEED, evy / enemy_speed * MAX_SPEED
    wx, wy = evx, evy
    if gap > 1e-9:
        wx, wy = evx + dx / gap * closing, evy + dy / gap * closing
    edge = False
    radius = state.options.map_radius
    dist = math.hypot(px, py)
    if radius is not None and dist > 1e-9:
        ux, uy = px / dist, py / dist
        room = max(0.0, radius - EDGE_MARGIN - dist)
        allowed = math.sqrt(room * accel / 2)  # brakes at half its rating: the rest is aiming
        outward = wx * ux + wy * uy
        if outward > allowed:
            wx, wy = wx - (outward - allowed) * ux, wy - (outward - allowed) * uy
        nvx, nvy = next_velocity_xy(ship)
        edge = nvx * ux + nvy * uy > allowed + 0.5
    return VelocityWish(wx, wy, edge)


def thrust_wish(
    state: BattleState, rules: RuleSet, ship: ShipState, wish: VelocityWish
) -> list[int]:
    """Directions (0..5) of the thrust points still worth spending this turn (PW-R5)."""
    left = max(0, thrust_rating(state, ship) - ship.thrust_used)
    vx, vy = next_velocity_xy(ship)
    gx, gy = wish.x - vx, wish.y - vy
    out: list[int] = []
    for _ in range(left):
        error = math.hypot(gx, gy)
        best, best_error = -1, error - 0.35
        for d, (ux, uy) in enumerate(DIRECTION_XY):
            e = math.hypot(gx - ux, gy - uy)
            if e < best_error:
                best, best_error = d, e
        if best < 0:
            break
        out.append(best)
        gx, gy = gx - DIRECTION_XY[best][0], gy - DIRECTION_XY[best][1]
    return out


def facing_towards(ship: ShipState, target: Hex) -> int:
    """The facing (0..5) that puts ``target`` nearest the bow."""
    dq, dr = target.q - ship.q, target.r - ship.r
    if not (dq or dr):
        return ship.facing
    return min(range(6), key=lambda f: _gap(relative_bearing_qr(dq, dr, f)))


def _gap(theta: float) -> float:
    return min(theta, 360.0 - theta)


def turns_between(a: int, b: int) -> int:
    """Hexside rotations from facing ``a`` to ``b`` (PW-R4)."""
    d = (b - a) % 6
    return min(d, 6 - d)


# -- power ----------------------------------------------------------------------------------


def screen_of(state: BattleState, rules: RuleSet, ship: ShipState, extra: int = 0) -> int:
    """Screen strength the enemy's shots will meet (the designated row for directional)."""
    design = state.design_of(ship)
    if design.screens is ScreenType.NONE or power.intact_in(ship, design, Category.SCREEN) == 0:
        return 0
    if design.screens is ScreenType.NORMAL:
        return rules.systems.normal_screen + extra
    return rules.systems.directional_screen + extra


def ready_weapons(state: BattleState, ship: ShipState) -> list[SystemSpec]:
    """The ship's weapons with an intact box that have not fired this turn (PW-R8)."""
    design = state.design_of(ship)
    return [w for w in design.weapons if ship.intact[w.name] > 0 and w.name not in ship.fired]


def weapon_cost(rules: RuleSet, weapon: SystemSpec) -> int:
    """Capacitor charges of one shot (PW-R11)."""
    line = rules.weapon_types[weapon.weapon or ""].capacitor_line
    return rules.systems.costs[line] if line else 0


def volley(
    rules: RuleSet,
    weapons: list[SystemSpec],
    charges: int,
    size_class: int,
    rng: int,
    ecm: int,
    screen: int,
    deflect: float = 0.0,
) -> tuple[float, list[str]]:
    """Best expected damage of ``weapons`` within ``charges`` (best damage per charge first)."""
    scored = []
    for w in weapons:
        spec = rules.weapon_types[w.weapon or ""]
        value = expected_damage(rules, spec.name, size_class, rng, ecm, screen)
        if spec.deflectable_by_magnetic_beam:
            value *= 1.0 - deflect
        if value > 0:
            scored.append((value, weapon_cost(rules, w), w.name))
    scored.sort(key=lambda t: (-t[0] / max(t[1], 0.5), t[2]))
    total, chosen = 0.0, []
    for value, cost, name in scored:
        if cost <= charges:
            charges -= cost
            total += value
            chosen.append(name)
    return total, chosen


def _deflect(rules: RuleSet, level: int) -> float:
    if level == 0:
        return 0.0
    need = rules.systems.mag_double_deflect if level >= 2 else rules.systems.mag_deflect
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need) / 36.0


@dataclass(frozen=True)
class PowerPlan:
    """The impulse-1 allocation: ECM, ECCM, invisibility, reinforcement, magnetic beam."""

    ecm: int = 0
    eccm: int = 0
    invisibility: int = 0
    reinforce: int = 0
    mag_beam: int = 0


_PLANS: dict[int, tuple[BattleState, tuple[int, ...], PowerPlan]] = {}
"""Per ship id: the last plan, the state object and the situation it was made for (the five
power decisions of one impulse share a plan)."""


def power_plan(
    state: BattleState,
    rules: RuleSet,
    ship: ShipState,
    enemy: ShipState,
    predict_enemy: bool = True,
) -> PowerPlan:
    """The allocation with the best expected damage dealt minus taken this turn (PW-R11)."""
    situation = (
        _key(rules),
        state.global_impulse,
        enemy.id,
        ship.charges,
        sum(ship.intact.values()) + 100 * sum(enemy.intact.values()),
        ship.q,
        ship.r,
        enemy.q,
        enemy.r,
        int(predict_enemy),
    )
    cached = _PLANS.get(ship.id)
    if cached is not None and cached[0] is state and cached[1] == situation:
        return cached[2]
    plan = _power_plan(state, rules, ship, enemy, predict_enemy)
    if predict_enemy:
        _PLANS[ship.id] = (state, situation, plan)
    return plan


def _power_plan(
    state: BattleState,
    rules: RuleSet,
    ship: ShipState,
    enemy: ShipState,
    predict_enemy: bool,
) -> PowerPlan:
    design, edesign = state.design_of(ship), state.design_of(enemy)
    rng = min(turn_ranges(state, rules, ship, enemy))
    charges = ship.charges
    costs = rules.systems.costs
    mine = ready_weapons(state, ship)
    theirs = ready_weapons(state, enemy)
    echarges = power.capacity(enemy, edesign)
    reach = power.ship_radar_range(enemy, edesign, rules)
    if predict_enemy:
        guess = power_plan(state, rules, enemy, ship, predict_enemy=False)
    else:
        guess = PowerPlan()
    echarges -= guess.ecm + guess.eccm + 2 * guess.invisibility + guess.reinforce + guess.mag_beam
    beams = power.intact_in(ship, design, Category.MAGNETIC_BEAM)
    has_screen = design.screens is not ScreenType.NONE and power.intact_in(
        ship, design, Category.SCREEN
    )
    lmg = any(rules.weapon_types[w.weapon or ""].deflectable_by_magnetic_beam for w in theirs)
    best, best_score = PowerPlan(), -1e9
    penalty = rules.systems.ecm_penalty
    inv_range = rules.systems.invisibility_max_range
    my_reach = power.ship_radar_range(ship, design, rules)
    for ecm, eccm, inv in itertools.product((0, 1), repeat=3):
        for reinforce in range(rules.systems.max_reinforce_screens + 1 if has_screen else 1):
            for mag in range(3 if lmg else 1):
                if mag > beams or (mag == 2 and beams < rules.systems.mag_double_boxes):
                    continue
                spent = (
                    ecm * costs["ecm"]
                    + eccm * costs["eccm"]
                    + inv * costs["radar_invisibility"]
                    + reinforce * costs["reinforce_screens"]
                    + min(mag, 1) * costs["fire_mag_beam_at_lmgb"]
                    + max(0, mag - 1) * costs["double_magnetic_beam"]
                )
                if spent > charges:
                    continue
                in_ecm = penalty if ecm and not guess.eccm else 0
                blocked = (inv and rng > inv_range) or rng > my_reach
                dealt = 0.0
                if not blocked and not (guess.invisibility and rng > inv_range):
                    screen = screen_of(state, rules, enemy, guess.reinforce)
                    left = charges - spent
                    size = edesign.size_class
                    clear, _ = volley(rules, mine, left, size, rng, 0, screen)
                    dealt = clear
                    if guess.ecm and not eccm:  # the guess is a guess: hedge on it
                        jammed, _ = volley(rules, mine, left, size, rng, penalty, screen)
                        dealt = ECM_BELIEF * jammed + (1 - ECM_BELIEF) * clear
                taken = 0.0
                if not (inv and rng > inv_range) and rng <= reach:
                    taken, _ = volley(
                        rules,
                        theirs,
                        max(0, echarges),
                        design.size_class,
                        rng,
                        in_ecm,
                        screen_of(state, rules, ship, reinforce),
                        _deflect(rules, mag),
                    )
                score = OFFENCE * dealt - taken - 0.01 * spent
                if score > best_score + 1e-9:
                    best, best_score = PowerPlan(ecm, eccm, inv, reinforce, mag), score
    return best
