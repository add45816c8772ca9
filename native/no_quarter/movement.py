"""Python glue for the native movement mirrors (``_core.no_quarter.movement``, issue 16).

The core reads no YAML: :func:`move_terrain` hands it a battlefield's index (buildings,
half-speed rectangles with their cost per inch, deep water, roads, the cover and concealment
rectangles of :func:`~.sight._rects`), its line-of-sight terrain, and :func:`move_tables`: the
numbers of :func:`~.terrain_tables.terrain_config`, :func:`~.terrain_tables.cover_config` and
the engine's move constants (``REVERSE_FRACTION``, ``NEAR``, ``LANDING_STEP``, ``BUMP_GAP``,
``JUMP_BACKOFF``).

>>> from wargym.rules.no_quarter.battlefield.terrain import Battlefield
>>> terrain = move_terrain(Battlefield())
>>> core.move_cost(terrain, (1.0, 1.0), (4.0, 5.0))
5.0

The move options of a native battle come back as ``(mech, (x, y), reverse, jump)`` tuples in
the reference's order (:func:`move_options`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.native.no_quarter import sight_terrain
from wargym.rules.no_quarter.battle import flow_mech, game
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.battlefield.terrain_tables import (
    CoverConfig,
    TerrainConfig,
    cover_config,
    terrain_config,
)
from wargym.rules.no_quarter.sight_movement import bumping, jump_landing
from wargym.rules.no_quarter.sight_movement.sight import _rects as _sight_rects

core: Any = _core.no_quarter.movement
"""The compiled movement mirrors (``wargym.native._core.no_quarter.movement``)."""

Move = tuple[int, tuple[float, float], bool, bool]
"""A Move option: ``(mech, to, reverse, jump)``."""

_MEMO_KEY = ("native", "move_terrain")


def move_tables(
    terrain: TerrainConfig | None = None, cover: CoverConfig | None = None
) -> dict[str, Any]:
    """The numbers the native movement reads, from the reference's tables and modules."""
    terrain = terrain_config() if terrain is None else terrain
    cover = cover_config() if cover is None else cover
    return {
        "deep_water_inches_per_turn": terrain.deep_water_inches_per_turn,
        "road_per_inch": terrain.road_per_inch,
        "behind_building_cover": cover.behind_building_cover,
        "behind_mech_cover": cover.behind_mech_cover,
        "reverse_fraction": flow_mech.REVERSE_FRACTION,
        "near": game.NEAR,
        "landing_step": jump_landing.LANDING_STEP,
        "bump_gap": bumping.BUMP_GAP,
        "jump_backoff": bumping.JUMP_BACKOFF,
    }


def _rects(rects: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    return np.array(rects, dtype=np.float64).reshape(len(rects), 4)


def move_terrain(bf: Battlefield, tables: dict[str, Any] | None = None) -> Any:
    """The native ``MoveTerrain`` of a battlefield (memoised on its index unless ``tables``)."""
    memo = bf.index.memo
    if tables is None:
        found = memo.get(_MEMO_KEY)
        if found is not None:
            return found
    idx = bf.index
    water = {f.rect for f in (*idx.rivers, *idx.deep)}
    half = np.array(
        [(*rect, rate, 1.0 if rect in water else 0.0) for rect, rate in idx.half_speed],
        dtype=np.float64,
    ).reshape(len(idx.half_speed), 6)
    made = core.MoveTerrain(
        bf.width,
        bf.height,
        _rects(idx.building_rects),
        half,
        _rects(idx.deep_core),
        _rects([f.rect for f in idx.roads]),
        _rects(_sight_rects(bf, "concealing")),
        _rects(_sight_rects(bf, "cover_moving")),
        _rects(_sight_rects(bf, "cover_stationary")),
        sight_terrain(bf),
        move_tables() if tables is None else tables,
    )
    if tables is None:
        memo.put(_MEMO_KEY, made)
    return made


def bases(bodies: Sequence[Body]) -> list[tuple[int, float, float, float]]:
    """``(id, x, y, radius)`` rows of :class:`~.terrain.Body` bases, as the core takes them."""
    return [(b.id, b.pos[0], b.pos[1], b.radius) for b in bodies]


def move_options(native_battle: Any, frame: dict[str, Any], terrain: Any) -> list[Move]:
    """The Move options of ``frame``'s mech (``flow_mech._moves`` after ``game._distinct``)."""
    found: list[Move] = core.move_options(terrain, native_battle, frame)
    return found


def move_problem(
    native_battle: Any,
    frame: dict[str, Any],
    terrain: Any,
    to: tuple[float, float],
    *,
    reverse: bool = False,
    jump: bool = False,
) -> str | None:
    """``flow_mech.move_problem`` of the move ``to`` (None: legal)."""
    problem: str | None = core.move_problem(terrain, native_battle, frame, to, reverse, jump)
    return problem


def move_toward_edge(
    terrain: Any,
    pos: tuple[float, float],
    edge: str,
    dist: float,
    *,
    mover_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
) -> tuple[tuple[float, float], bool]:
    """``movement_geometry.move_toward_edge``: ``leave_move_to`` on foot, ``(position, exited)``."""
    end, exited, _ = core.leave_move_to(terrain, pos, edge, dist, mover_id, bases(bodies), radius)
    return end, exited


def duck_back_destination(
    terrain: Any, pos: tuple[float, float], cause: tuple[float, float], **options: Any
) -> tuple[float, float]:
    """``movement_geometry.duck_back_destination``: where :func:`duck_back_move` takes the mech."""
    return duck_back_move(terrain, pos, cause, **options)[0]


def duck_back_move(
    terrain: Any,
    pos: tuple[float, float],
    cause: tuple[float, float],
    *,
    max_dist: float,
    speed: float,
    mover_id: int,
    cause_id: int,
    bodies: Sequence[Body],
    radius: float = 0.5,
    cause_has_ews: bool = False,
    moved_this_turn: bool = False,
    step: float = 0.5,
    jump_jets: bool = False,
) -> tuple[tuple[float, float], bool]:
    """``movement_geometry.duck_back_move`` with the reference's keywords (§15.2.4.1, D9, D28)."""
    found: tuple[tuple[float, float], bool] = core.duck_back_move(
        terrain, pos, cause, max_dist, speed, mover_id, cause_id, bases(bodies), radius,
        cause_has_ews, moved_this_turn, step, jump_jets,
    )  # fmt: skip
    return found
