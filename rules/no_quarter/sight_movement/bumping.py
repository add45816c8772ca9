"""Moves planned around the bases a side can see (fog of war, choice E5).

On the tabletop every model is in view, so every base limits the moves a player may make
(``BattleOptions.unseen_bases = "block"``, the default). An environment that hides the enemies
out of sight cannot do that without leaking them through the legal options. With
``unseen_bases = "bump"`` the options of a side are worked out around the bases it knows of:
its own mechs, the enemies some mech of the side has a line of sight to (arcs ignored, as for
the non-player side, §22.4) and wrecks. A move that then meets an unseen base stops just short
of it (:data:`BUMP_GAP`) and ends there, announced by a ``MoveBlocked`` event; a jump that would
land on one comes down short along its line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import Body
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.geometry import EPS, distance, point_rect_distance
from wargym.rules.no_quarter.sight_movement.perception import _bodies, _cache, line_between

Point = tuple[float, float]

BUMP_GAP = 0.01
"""Inches left between the bases when a move stops at an unseen one (choice E5)."""
JUMP_BACKOFF = 0.25
"""Step, in inches, by which a jump onto an unseen base is shortened until it lands free."""


def fog_moves(battle: Battle) -> bool:
    """Whether sides plan their moves around the bases they can see (``unseen_bases``)."""
    return battle.options.unseen_bases == "bump"


def enemies_in_sight(battle: Battle, side: Side) -> frozenset[int]:
    """Enemy mechs in play that some mech of ``side`` has a line of sight to (§17.1, D11)."""
    cache = _cache(battle)
    key = ("in_sight", side)
    found: frozenset[int] | None = cache.get(key)
    if found is None:
        own = battle.mechs_of(side)
        found = cache[key] = frozenset(
            enemy.id
            for enemy in battle.mechs_of(side.other)
            if any(line_between(battle, mech, enemy).visible for mech in own)
        )
    return found


def known_bodies(battle: Battle, side: Side) -> tuple[Body, ...]:
    """The bases ``side`` plans its moves around: all of them under ``unseen_bases=block``."""
    everything = _bodies(battle)
    if not fog_moves(battle):
        return everything
    cache = _cache(battle)
    key = ("known_bodies", side)
    found: tuple[Body, ...] | None = cache.get(key)
    if found is None:
        seen = enemies_in_sight(battle, side)
        mechs = battle.mechs
        found = cache[key] = tuple(
            b for b in everything if b.id < 0 or mechs[b.id].side is side or b.id in seen
        )
    return found


def planning_bodies(battle: Battle, mech: Mech, *also_not: int) -> list[Body]:
    """The bases that limit ``mech``'s offered moves (its own and ``also_not`` left out)."""
    skip = {mech.id, *also_not}
    return [b for b in known_bodies(battle, mech.side) if b.id not in skip]


def _unseen(battle: Battle, mech: Mech) -> list[Body]:
    known = {b.id for b in known_bodies(battle, mech.side)}
    return [b for b in _bodies(battle) if b.id not in known and b.id != mech.id]


def bump(battle: Battle, mech: Mech, to: Point, *, jump: bool = False) -> tuple[Point, int] | None:
    """Where a planned move of ``mech`` to ``to`` stops on an unseen base, and that base's id.

    None when fog moves are off or nothing unseen is in the way. Walking, the mech stops
    :data:`BUMP_GAP` short of the first unseen base its path would touch; jumping, it lands
    on the furthest free point of its line, tried every :data:`JUMP_BACKOFF` inches back from
    ``to`` (its start if none is free).
    """
    if not fog_moves(battle):
        return None
    unseen = _unseen(battle, mech)
    if not unseen:
        return None
    radius = battle.options.base_radius
    if jump:
        return _jump_landing(battle, mech, to, unseen, radius)
    return _first_contact(mech.pos, to, unseen, radius)


def _first_contact(
    start: Point, to: Point, unseen: Sequence[Body], radius: float
) -> tuple[Point, int] | None:
    sx, sy = start
    dx, dy = to[0] - sx, to[1] - sy
    a = dx * dx + dy * dy
    if a <= EPS:
        return None
    best: tuple[float, int] | None = None
    for body in unseen:
        reach = radius + body.radius - EPS
        fx, fy = sx - body.pos[0], sy - body.pos[1]
        c = fx * fx + fy * fy - reach * reach
        b = 2.0 * (fx * dx + fy * dy)
        disc = b * b - 4.0 * a * c
        if c < 0.0 or disc <= 0.0:
            continue  # already touching at the start (never offered), or the line misses it
        t = (-b - math.sqrt(disc)) / (2.0 * a)
        if 0.0 <= t <= 1.0 and (best is None or t < best[0]):
            best = (t, body.id)
    if best is None:
        return None
    t = max(0.0, best[0] - BUMP_GAP / math.sqrt(a))
    return (round(sx + dx * t, 3), round(sy + dy * t, 3)), best[1]


def _jump_landing(
    battle: Battle, mech: Mech, to: Point, unseen: Sequence[Body], radius: float
) -> tuple[Point, int] | None:
    hit = [b for b in unseen if distance(to, b.pos) < radius + b.radius - EPS]
    if not hit:
        return None
    start = mech.pos
    length = distance(start, to)
    everyone = [b for b in _bodies(battle) if b.id != mech.id]
    rects = battle.battlefield.index.building_rects
    steps = int(length / JUMP_BACKOFF)
    for k in range(1, steps + 1):
        t = 1.0 - k * JUMP_BACKOFF / length
        p = (
            round(start[0] + (to[0] - start[0]) * t, 3),
            round(start[1] + (to[1] - start[1]) * t, 3),
        )
        if any(point_rect_distance(p, *r) < radius - EPS for r in rects):
            continue
        if any(distance(p, b.pos) < radius + b.radius - EPS for b in everyone):
            continue
        return p, hit[0].id
    return start, hit[0].id
