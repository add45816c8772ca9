"""Vector movement and heading on the shared hex map (TR-R2, TR-R4, TR-R18).

>>> new_velocity((0, 0), 0, 2)
(0, -2)
"""

from __future__ import annotations

from functools import cache

from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.events import ShipMoved
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import ShipState


def new_velocity(vel: tuple[int, int], direction: int, magnitude: int) -> tuple[int, int]:
    """``v + m * d`` (TR-R4)."""
    return hexmap.add(vel, hexmap.scale(hexmap.DIRECTIONS[direction], magnitude))


def legal_headings(heading: int, limited: bool) -> tuple[int, ...]:
    """Headings allowed this round: any, or within one hexside when limited (TR-R18)."""
    if not limited:
        return tuple(range(6))
    return tuple(sorted({(heading - 1) % 6, heading, (heading + 1) % 6}))


def legal_accelerations(
    vel: tuple[int, int], g: int, heading: int, limited: bool, rules: RuleSet
) -> tuple[tuple[int, int], ...]:
    """(direction, magnitude) pairs under the G and velocity caps (TR-R4, TR-R18).

    Zero acceleration is ``(0, 0)``. With limited heading changes the direction must be the
    (new) heading or one of its neighbours.
    """
    return _accelerations(vel, g, heading, limited, rules.max_velocity)


@cache
def _accelerations(
    vel: tuple[int, int], g: int, heading: int, limited: bool, max_velocity: int
) -> tuple[tuple[int, int], ...]:
    out = [(0, 0)]
    directions = legal_headings(heading, True) if limited else tuple(range(6))
    for magnitude in range(1, g + 1):
        for direction in directions:
            v = new_velocity(vel, direction, magnitude)
            if hexmap.length(v) <= max_velocity:
                out.append((direction, magnitude))
    return tuple(out)


def move_ship(
    ship: ShipState, heading: int, direction: int, magnitude: int, rules: RuleSet
) -> ShipMoved:
    """Apply one ship's acceleration, move it and set its heading (TR-R4)."""
    start = ship.pos
    ship.vel = new_velocity(ship.vel, direction, magnitude)
    ship.pos = hexmap.add(ship.pos, ship.vel)
    ship.heading = heading
    gone = hexmap.distance((0, 0), ship.pos) > rules.map_radius
    if gone:
        ship.disengaged = True
    return ShipMoved(ship.id, start, ship.pos, ship.vel, heading, gone)
