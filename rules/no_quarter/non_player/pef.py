"""Possible Enemy Forces: placement, movement, detection and resolution (§20, campaign digest).

Pure functions with explicit inputs and typed, frozen results that carry their dice faces, so
the orchestrator can turn each into a logged event. What a PEF holds is decided only by the
dice passed to :func:`resolve_pef` at resolution time: a :class:`PefMarker` stores a position
and nothing about its contents.

Section geometry comes from :mod:`~wargym.rules.no_quarter.battlefield.sections` (§0.2: player edge
south, sections 1-3 the far row).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from wargym.rules.dice import Dice, passed_dice
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.sections import section_of as _section_of
from wargym.rules.no_quarter.battlefield.sections import section_rect
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body, Feature
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player.pef_tables import (
    ClassRoll,
    EnemyMech,
    MissionKind,
    NpEnemyForce,
    PefConfig,
    np_enemy_class,
    np_enemy_mechs,
    pef_config,
)
from wargym.rules.no_quarter.sight_movement.geometry import (
    EPS,
    Point,
    distance,
    in_arc,
    point_rect_distance,
    segment_rect_distance,
)
from wargym.rules.no_quarter.sight_movement.sight import in_cover, is_concealed, sight

__all__ = [
    "BuildingPefTrigger",
    "ClassRoll",
    "EnemyMech",
    "MissionKind",
    "NpEnemyForce",
    "PefConfig",
    "PefMarker",
    "PefMove",
    "PefOptions",
    "PefPlacement",
    "PefResolution",
    "Spotter",
    "building_pef_point",
    "building_pef_triggers",
    "contact_multiplier",
    "covered",
    "np_enemy_class",
    "np_enemy_mechs",
    "pef_config",
    "pef_detected",
    "pef_may_move",
    "pef_move",
    "pef_order",
    "place_pefs",
    "resolve_pef",
    "spotters_of",
]

PEF_RADIUS = 0.5
"""A PEF marker is treated as a mech base for LOS and for going around buildings (D1)."""


def _section(bf: Battlefield, p: Point) -> int:
    return _section_of(p, bf.width, bf.height)


# -- records ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Spotter:
    """A player mech as the PEF rules see it: who, where, which group, EWS, facing (§20.3)."""

    id: int
    pos: Point
    group: int = -1
    ews: bool = False
    facing: float = 0.0


@dataclass(frozen=True, slots=True)
class PefMarker:
    """An unresolved PEF on the table: a position only, never its contents (§20.0)."""

    id: int
    pos: Point
    building: int | None = None
    """Index in ``battlefield.features`` of the building that generated it (§20.1), if any."""


@dataclass(frozen=True, slots=True)
class PefOptions:
    """Readings of §20; every default is the digest's ruling."""

    detection_uses_arcs: bool = False
    """Ruling 20.3: detection ignores the 180 degree front arc. True: only the front arc sees."""
    last_pef_on_pass_1: bool = True
    """Ruling 20.3: the last-PEF rule turns a pass-1 result into contact too."""
    go_around_buildings: bool = True
    """Ruling 20.2.1: a PEF goes around buildings (detour free). False: it stops at the wall."""
    needs_activation_die: bool = True
    """Ruling 20.2: PEFs move only when the NP activation die is at most their Rep 4."""


@dataclass(frozen=True, slots=True)
class PefPlacement:
    """One PEF placed at mission start (§20.0): the section die, the spot and whether hidden."""

    face: int
    section: int
    pos: Point
    hidden: bool


@dataclass(frozen=True, slots=True)
class BuildingPefTrigger:
    """A building PEF is generated (§20.1): which building, which mech, where."""

    building: int
    mech: int
    pos: Point


@dataclass(frozen=True, slots=True)
class PefMove:
    """A PEF's move (§20.2): dice, allowance, path and any contact it caused."""

    faces: tuple[int, ...]
    passes: int
    allowance: float
    toward: int | None
    """The player mech it moved toward (nearest mech of the closest group), if any."""
    path: tuple[Point, ...]
    end: Point
    contact: tuple[int, ...]
    """Player mechs with LOS to it where it stopped (non-empty: resolve it now, §20.3)."""
    in_cover: bool


@dataclass(frozen=True, slots=True)
class PefResolution:
    """The 20.3 resolution: dice kept, result, contact roll and the enemy count (§20.3)."""

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    passes: int
    result: Literal["contact", "something_out_there", "false_alarm"]
    last_pef_rule: bool
    contact_face: int | None
    enemies: int
    next_keep_lowest_two: bool


# -- detection (§20.3) -----------------------------------------------------------------------
def spotters_of(battle: Battle, side: Side) -> tuple[Spotter, ...]:
    """The mechs of ``side`` still in play as :class:`Spotter` records (§20.3)."""
    return tuple(
        Spotter(m.id, m.pos, battle.group_of.get(m.id, m.id), m.has_functioning_ews, m.facing)
        for m in battle.mechs_of(side)
    )


def pef_detected(
    bf: Battlefield,
    pos: Point,
    spotters: Sequence[Spotter],
    *,
    bodies: Sequence[Body] = (),
    options: PefOptions = PefOptions(),
) -> tuple[int, ...]:
    """Ids of the spotters with valid LOS to a PEF at ``pos``: the triggering force (§20.3).

    Terrain LOS with the night, weather and woods limits (19.11); arcs are ignored unless
    ``options.detection_uses_arcs``. A PEF in cover is seen; one behind cover is not.
    """
    found = []
    for s in spotters:
        if options.detection_uses_arcs and not in_arc(s.pos, s.facing, pos):
            continue
        line = sight(bf, s.pos, pos, observer_id=s.id, bodies=bodies, observer_has_ews=s.ews)
        if line.visible:
            found.append(s.id)
    return tuple(found)


def _blocked(bf: Battlefield, p: Point) -> bool:
    return not bf.is_on_table(p, PEF_RADIUS) or any(
        point_rect_distance(p, *f.rect) < PEF_RADIUS - EPS for f in bf.index.buildings
    )


# -- placement (§20.0, §20.1) ----------------------------------------------------------------
def _edge_distance(bf: Battlefield, p: Point, edge: str) -> float:
    return {"south": p[1], "north": bf.height - p[1], "west": p[0], "east": bf.width - p[0]}[edge]


def place_pefs(
    bf: Battlefield,
    spotters: Sequence[Spotter],
    dice: Dice,
    *,
    count: int | None = None,
    bodies: Sequence[Body] = (),
    player_edge: str = "south",
    options: PefOptions = PefOptions(),
) -> tuple[PefPlacement, ...]:
    """Roll a section per PEF and hide it there if possible (§20.0, ruling 20.0).

    Candidates lie on the 1" grid inside the rolled section. Among those hidden from every
    spotter the one farthest from the player's edge wins, ties to the nearest to the section
    centre (then lower x, lower y); with none hidden the PEF goes to the section centre (or the
    free grid point nearest to it when a building stands there).
    """
    cfg = pef_config()
    out = []
    for _ in range(cfg.pefs if count is None else count):
        (face,) = dice.roll(1)
        x0, y0, x1, y1 = section_rect(face, bf.width, bf.height).rect
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        points = [
            (float(x), float(y))
            for x in np.arange(math.ceil(x0), x1 + EPS, cfg.grid)
            for y in np.arange(math.ceil(y0), y1 + EPS, cfg.grid)
        ]
        free = [p for p in points if _section(bf, p) == face and not _blocked(bf, p)]
        hidden = [
            p for p in free if not pef_detected(bf, p, spotters, bodies=bodies, options=options)
        ]
        if hidden:
            pos = min(
                hidden,
                key=lambda p: (-_edge_distance(bf, p, player_edge), distance(p, centre), p),
            )
        elif not _blocked(bf, centre) or not free:
            pos = centre
        else:
            pos = min(free, key=lambda p: (distance(p, centre), p))
        out.append(PefPlacement(face, face, pos, bool(hidden)))
    return tuple(out)


def building_pef_point(bf: Battlefield, building: Feature, trigger: Point) -> Point:
    """Where a building PEF goes: 1" beyond the far wall on the line trigger-centre (§20.1)."""
    cx, cy = (building.x0 + building.x1) / 2, (building.y0 + building.y1) / 2
    dx, dy = cx - trigger[0], cy - trigger[1]
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length > EPS else (0.0, 1.0)
    half_w, half_h = (building.x1 - building.x0) / 2, (building.y1 - building.y0) / 2
    t = min(
        half_w / abs(ux) if abs(ux) > EPS else math.inf,
        half_h / abs(uy) if abs(uy) > EPS else math.inf,
    )
    t += pef_config().beyond_wall
    x = min(max(cx + ux * t, PEF_RADIUS), bf.width - PEF_RADIUS)
    y = min(max(cy + uy * t, PEF_RADIUS), bf.height - PEF_RADIUS)
    return (x, y)


def building_pef_triggers(
    bf: Battlefield,
    spotters: Sequence[Spotter],
    *,
    used: Collection[int] = (),
    excluded_sections: Collection[int] = (),
    bodies: Sequence[Body] = (),
) -> tuple[BuildingPefTrigger, ...]:
    """Buildings that generate their PEF now: a player mech within 12" sees them (§20.1).

    ``used``: feature indices that already made their PEF; ``excluded_sections``: the player's
    set-up sections (their buildings never generate PEFs). LOS to a building = a clear line to
    its nearest point, a corner or a side midpoint (arcs ignored, limits applied).
    """
    cfg = pef_config()
    out = []
    for index, f in enumerate(bf.features):
        if f.kind.value != "building" or index in used:
            continue
        if _section(bf, ((f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2)) in excluded_sections:
            continue
        for s in sorted(spotters, key=lambda s: s.id):
            if point_rect_distance(s.pos, *f.rect) > cfg.trigger_range + EPS:
                continue
            near = (min(max(s.pos[0], f.x0), f.x1), min(max(s.pos[1], f.y0), f.y1))
            xm, ym = (f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2
            samples: list[Point] = [near, (f.x0, f.y0), (f.x1, f.y0), (f.x0, f.y1)]
            samples += [(f.x1, f.y1), (xm, f.y0), (xm, f.y1), (f.x0, ym), (f.x1, ym)]
            if any(
                sight(
                    bf,
                    s.pos,
                    q,
                    observer_id=s.id,
                    bodies=bodies,
                    observer_has_ews=s.ews,
                    base_radius=0.0,
                ).visible
                for q in samples
            ):
                out.append(BuildingPefTrigger(index, s.id, building_pef_point(bf, f, s.pos)))
                break
    return tuple(out)


# -- movement (§20.2, §20.2.1) ---------------------------------------------------------------
def pef_may_move(np_activation_die: int, options: PefOptions = PefOptions()) -> bool:
    """Ruling 20.2: PEFs act only when the NP die is at most their Rep 4 (§14.0, §20.2)."""
    return not options.needs_activation_die or np_activation_die <= pef_config().rep


def covered(bf: Battlefield, p: Point, viewer: Point | None, bodies: Sequence[Body] = ()) -> bool:
    """A marker at ``p`` is in cover or concealed against ``viewer`` (§17.2, ruling 20.2)."""
    if is_concealed(bf, p):
        return True
    if viewer is None:
        return False
    line = sight(bf, viewer, p, bodies=bodies)
    return line.building_blocked_lines > 0 or in_cover(bf, line, p, target_moved=False)


def _clear(bf: Battlefield, a: Point, b: Point) -> bool:
    return all(segment_rect_distance(a, b, *f.rect) >= PEF_RADIUS - EPS for f in bf.index.buildings)


def _route(bf: Battlefield, a: Point, b: Point) -> list[Point]:
    """Shortest path from ``a`` to ``b`` around buildings (visibility graph on corners)."""
    if _clear(bf, a, b):
        return [a, b]
    m = PEF_RADIUS + 0.05
    nodes = [a, b]
    for f in bf.index.buildings:
        for corner in (
            (f.x0 - m, f.y0 - m),
            (f.x1 + m, f.y0 - m),
            (f.x0 - m, f.y1 + m),
            (f.x1 + m, f.y1 + m),
        ):
            if not _blocked(bf, corner):
                nodes.append(corner)
    best = {0: 0.0}
    back: dict[int, int] = {}
    heap = [(0.0, 0)]
    while heap:
        cost, i = heapq.heappop(heap)
        if i == 1:
            path = [b]
            while i != 0:
                i = back[i]
                path.append(nodes[i])
            return path[::-1]
        if cost > best.get(i, math.inf):
            continue
        for j in range(1, len(nodes)):
            step = cost + distance(nodes[i], nodes[j])
            if step < best.get(j, math.inf) and _clear(bf, nodes[i], nodes[j]):
                best[j], back[j] = step, i
                heapq.heappush(heap, (step, j))
    return [a]


def _samples(path: Sequence[Point], step: float = 0.25) -> list[Point]:
    out: list[Point] = []
    for a, b in zip(path, path[1:], strict=False):
        n = max(1, math.ceil(distance(a, b) / step))
        out.extend(
            (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)
        )
    return out


def pef_move(
    bf: Battlefield,
    start: Point,
    dice: Dice,
    spotters: Sequence[Spotter],
    *,
    bodies: Sequence[Body] = (),
    options: PefOptions = PefOptions(),
) -> PefMove:
    """Roll 2d6 vs Rep 4 and move 8/4/0" toward the closest player group (§20.2, ruling 20.2).

    The straight-line end point toward the nearest mech of the closest group (never closer
    than base contact) snaps to the nearest point in cover within 2" of it (and within the
    allowance of the start) when it is not in cover itself; an end point inside a building
    moves to the nearest free point of the line (past the building when going around).
    Terrain penalties are ignored and buildings are walked around, the detour free
    (§20.2.1). The PEF stops at once where a player mech first gains LOS to it
    (``contact``).
    """
    cfg = pef_config()
    faces = dice.roll(cfg.move_dice)
    passes = passed_dice(faces, cfg.rep)
    allowance = cfg.move_in[passes]
    target = min(spotters, key=lambda s: (distance(s.pos, start), s.id), default=None)
    if target is None or allowance <= 0:
        toward, viewer = (None, None) if target is None else (target.id, target.pos)
        return PefMove(
            faces,
            passes,
            allowance,
            toward,
            (start,),
            start,
            (),
            covered(bf, start, viewer, bodies),
        )
    gap = distance(start, target.pos)
    reach = max(0.0, min(allowance, gap - 2 * PEF_RADIUS))
    ux, uy = ((target.pos[0] - start[0]) / gap, (target.pos[1] - start[1]) / gap) if gap else (0, 0)
    end = (start[0] + ux * reach, start[1] + uy * reach)
    cap = max(0.0, gap - 2 * PEF_RADIUS)

    def bad(r: float) -> bool:
        p = (start[0] + ux * r, start[1] + uy * r)
        return _blocked(bf, p) or (not options.go_around_buildings and not _clear(bf, start, p))

    if bad(reach):  # the nearest free point on the line; past a building only when going around
        tries = [reach - 0.25 * k for k in range(1, 4 * math.ceil(reach) + 1)]
        if options.go_around_buildings:
            ahead = [reach + 0.25 * k for k in range(1, 4 * math.ceil(reach) + 1)]
            tries = [r for pair in zip(tries, ahead, strict=True) for r in pair]
        top = min(cap, allowance)  # the straight move never exceeds its distance (§20.2)
        reach = next((r for r in tries if 0 <= r <= top + EPS and not bad(r)), 0.0)
    end = (start[0] + ux * reach, start[1] + uy * reach)
    if not covered(bf, end, target.pos, bodies):
        snap = cfg.cover_snap
        spots = [
            (end[0] + dx, end[1] + dy)
            for dx in np.arange(-snap, snap + EPS, 0.5)
            for dy in np.arange(-snap, snap + EPS, 0.5)
            if math.hypot(dx, dy) <= snap + EPS
        ]
        spots = [
            q
            for q in spots
            if distance(start, q) <= allowance + EPS
            and distance(q, target.pos) >= 2 * PEF_RADIUS
            and not _blocked(bf, q)
            and covered(bf, q, target.pos, bodies)
        ]
        if spots:
            end = min(
                spots,
                key=lambda q: (
                    bool(pef_detected(bf, q, spotters, bodies=bodies, options=options)),
                    distance(q, end),
                    q,
                ),
            )
    path = _route(bf, start, end) if end != start else [start]
    walked = [start]
    for p in _samples(path):
        walked.append(p)
        seen = pef_detected(bf, p, spotters, bodies=bodies, options=options)
        if seen:
            return PefMove(
                faces,
                passes,
                allowance,
                target.id,
                tuple(walked),
                p,
                seen,
                covered(bf, p, target.pos, bodies),
            )
    final = path[-1]
    return PefMove(
        faces,
        passes,
        allowance,
        target.id,
        tuple(path),
        final,
        (),
        covered(bf, final, target.pos, bodies),
    )


def pef_order(
    pefs: Sequence[PefMarker],
    bf: Battlefield,
    spotters: Sequence[Spotter],
    rng: np.random.Generator | None = None,
) -> tuple[int, ...]:
    """PEF ids in moving order: farthest from any player mech first (§20.2, ruling D8).

    Ties go to the lower section number, then at random with ``rng`` (by id without one).
    """
    tiebreak = {p.id: (float(rng.random()) if rng is not None else float(p.id)) for p in pefs}

    def key(p: PefMarker) -> tuple[float, int, float]:
        near = min((distance(p.pos, s.pos) for s in spotters), default=math.inf)
        return (-near, _section(bf, p.pos), tiebreak[p.id])

    return tuple(p.id for p in sorted(pefs, key=key))


# -- resolution (§20.3) ----------------------------------------------------------------------
def contact_multiplier(platoons_fielded: int) -> int:
    """Ruling 20.3: generic Attack/Defend contacts x2 per player Platoon fielded (else x1)."""
    return max(1, 2 * platoons_fielded)


def resolve_pef(
    dice: Dice,
    *,
    triggering: int,
    last_pef: bool,
    contact_so_far: bool,
    keep_lowest_two: bool = False,
    multiplier: int = 1,
    contact_deltas: Mapping[int, int] | None = None,
    options: PefOptions = PefOptions(),
) -> PefResolution:
    """Resolve a PEF with the dice rolled now (§20.3 table, rulings on 3d6 and the last PEF).

    ``triggering``: player mechs with LOS to it; ``last_pef``: no other unresolved marker on
    the table; ``contact_so_far``: a Contact! already happened this mission; ``keep_lowest_two``:
    the flag left by a "something's out there" result; ``contact_deltas``: a mission's own
    contact table (face -> delta), default the generic one; ``multiplier``: ruling 20.3 scaling.
    """
    cfg = pef_config()
    faces = dice.roll(cfg.boosted_dice if keep_lowest_two else cfg.resolution_dice)
    kept = tuple(sorted(faces)[: cfg.resolution_dice])
    passes = passed_dice(kept, cfg.rep)
    result = cfg.resolution[passes]
    rule = (
        last_pef
        and not contact_so_far
        and (passes == 0 or (passes == 1 and options.last_pef_on_pass_1))
    )
    if rule:
        result = "contact"
    contact_face, enemies = None, 0
    if result == "contact":
        (contact_face,) = dice.roll(1)
        delta = (contact_deltas or cfg.contact_delta)[contact_face]
        enemies = max(cfg.minimum_enemies, triggering + delta) * multiplier
    return PefResolution(
        faces,
        kept,
        passes,
        result,  # type: ignore[arg-type]
        rule,
        contact_face,
        enemies,
        result == "something_out_there",
    )
