"""Where arriving NP contacts and reinforcements stand (§20.3 ruling, §23.8.5 ruling).

Nobody who arrives is ever dropped for want of room: a mech whose spot is taken (a base,
a building, impassable ground, the table edge) stands on the nearest legal spot instead,
searched on a grid of ``search_step_in`` inches outward from the spot it was given.

Contacts (§20.3 ruling): the leader on the PEF marker, the others within
``contact_spread_in`` of him, no nearer the triggering force than the marker, in cover from
the nearest triggering mech where possible; a group too big for that ring stands on the
nearest legal spots beyond it, still no nearer the triggering force where possible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import cache

from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Body, path_problem
from wargym.rules.no_quarter.non_player.pef import covered
from wargym.rules.no_quarter.non_player.pef_tables import PefConfig, pef_config
from wargym.rules.no_quarter.sight_movement.geometry import EPS, Point, distance
from wargym.rules.no_quarter.sight_movement.perception import bodies


def spot_rules() -> PefConfig:
    """The ``arrival`` numbers of pef.yaml (the contact spread, the search grid)."""
    return pef_config()


@cache
def _offsets(step: float, limit: float) -> tuple[Point, ...]:
    n = int(math.ceil(limit / step))
    points = [
        (i * step, j * step)
        for i in range(-n, n + 1)
        for j in range(-n, n + 1)
        if math.hypot(i, j) * step <= limit + EPS
    ]
    points.sort(key=lambda p: (math.hypot(p[0], p[1]), p))
    return tuple(points)


def _grid(centre: Point, step: float, limit: float) -> Iterator[Point]:
    """Grid points around ``centre`` ``step`` apart, nearest first, out to ``limit``."""
    for dx, dy in _offsets(step, limit):
        yield (centre[0] + dx, centre[1] + dy)


class Placer:
    """Legal spots on ``battle``'s table, remembering the ones already handed out."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.radius = battle.options.base_radius
        self.taken = bodies(battle)
        self.placed: list[Point] = []
        self.illegal: set[Point] = set()  # spots only get taken, so an illegal one stays so
        bf = battle.battlefield
        self.limit = math.hypot(bf.width, bf.height)

    def legal(self, p: Point) -> bool:
        """``p`` is on the table, on passable ground, clear of every base and of new spots."""
        if p in self.illegal:
            return False
        others = self.taken + [Body(-500 - i, q, self.radius) for i, q in enumerate(self.placed)]
        problem = path_problem(
            self.battle.battlefield, [p, p], mover_id=-1, bodies=others, radius=self.radius
        )
        if problem is not None:
            self.illegal.add(p)
        return problem is None

    def take(self, p: Point) -> Point:
        """Hand ``p`` out: later spots keep clear of it."""
        self.placed.append(p)
        return p

    def nearest(
        self, p: Point, accept: Callable[[Point], bool] = lambda q: True, limit: float = 0.0
    ) -> Point | None:
        """The nearest legal, accepted spot to ``p`` (``p`` itself first), out to ``limit``."""
        for q in _grid(p, spot_rules().search_step, limit or self.limit):
            if accept(q) and self.legal(q):
                return q
        return None

    def shifted(self, p: Point) -> Point | None:
        """``p`` if it is legal, else the nearest legal spot to it (None: a full table)."""
        q = p if self.legal(p) else self.nearest(p)
        return None if q is None else self.take(q)


def reinforcement_spots(battle: Battle, spots: Sequence[Point]) -> list[Point]:
    """Each arrival on its spot, or on the nearest legal one if it is taken (§23.8.5 ruling)."""
    placer = Placer(battle)
    out = []
    for p in spots:
        q = placer.shifted(p)
        if q is not None:
            out.append(q)
    return out


def contact_spots(
    battle: Battle, marker: Point, triggering: Sequence[Point], n: int
) -> list[Point]:
    """``n`` spots for a PEF contact: leader first (§20.3 ruling)."""
    placer = Placer(battle)
    rules = spot_rules()
    viewer = min(triggering, key=lambda t: distance(t, marker)) if triggering else None

    def gap(p: Point) -> float:
        return min((distance(p, t) for t in triggering), default=math.inf)

    floor = gap(marker) - EPS

    def not_nearer(p: Point) -> bool:
        return gap(p) >= floor

    spots: list[Point] = []
    leader = placer.nearest(marker)  # on the marker, or the nearest legal spot to it
    if leader is None:
        return spots
    spots.append(placer.take(leader))
    ring = [
        p
        for p in _grid(leader, rules.search_step, rules.contact_spread)
        if p != leader and not_nearer(p)
    ]
    body_list = placer.taken
    ring.sort(
        key=lambda p: (
            not (viewer is not None and covered(battle.battlefield, p, viewer, body_list)),
            distance(p, leader),
            p,
        )
    )
    for p in ring:
        if len(spots) == n:
            return spots
        if placer.legal(p):
            spots.append(placer.take(p))
    while len(spots) < n:
        q = placer.nearest(leader, not_nearer) or placer.nearest(leader)
        if q is None:
            break
        spots.append(placer.take(q))
    return spots


__all__ = ["Placer", "contact_spots", "reinforcement_spots", "spot_rules"]
