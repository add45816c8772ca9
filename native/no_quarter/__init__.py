"""Python glue for the native No Quarter mirrors: battlefields, bases and states handed to the core.

The core never reads a YAML file: :func:`sight_terrain` hands it a battlefield's rectangles and
the line-of-sight table (:func:`~.terrain_tables.sight_config`), and every
call passes the base radius, as the reference :func:`~.sight.sight` takes
them.

>>> from wargym.rules.no_quarter.battlefield.terrain import Battlefield
>>> terrain = sight_terrain(Battlefield())
>>> sight(terrain, (1.0, 1.0), (5.0, 1.0), base_radius=0.5).clear_lines
3

A battle state crosses in the reference's versioned JSON (:meth:`~.state.Battle.to_dict`):
:func:`battle_from_dict` hands the core the bounds of :mod:`~.validity` with it.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> data = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0)).to_dict()
>>> battle_from_dict(data).clone().to_dict() == data
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from wargym.native import _core
from wargym.rules.no_quarter.battle import validity
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.battlefield.terrain_tables import (
    SightConfig,
    sight_config,
    terrain_config,
)
from wargym.rules.no_quarter.sight_movement.sight import Sight

core: Any = _core.no_quarter
"""The compiled mirrors (``wargym.native._core.no_quarter``)."""


def _rects(rects: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    return np.array(rects, dtype=np.float64).reshape(len(rects), 4)


def sight_terrain(bf: Battlefield, config: SightConfig | None = None) -> Any:
    """The native ``SightTerrain`` of a battlefield (its index) and the line-of-sight table."""
    idx = bf.index
    crests = np.zeros((len(idx.hills), 5), dtype=np.float64)
    for i, hill in enumerate(idx.hills):
        if hill.crest is not None:
            (ax, ay), (bx, by) = hill.crest
            crests[i] = (1.0, ax, ay, bx, by)
    return core.SightTerrain(
        buildings=_rects(idx.building_rects),
        hills=_rects([h.rect for h in idx.hills]),
        crests=crests,
        woods=_rects(idx.wood_rects),
        deep_core=_rects(idx.deep_core),
        well_lit=_rects([f.rect for f in idx.well_lit]),
        night=bf.night,
        inclement_weather=bf.inclement_weather,
        config=sight_config() if config is None else config,
    )


def native_bodies(bodies: Sequence[Body]) -> Any:
    """The native ``Bodies`` of a sequence of :class:`~.terrain.Body`."""
    ids = np.array([b.id for b in bodies], dtype=np.int64)
    xyr = np.array([(b.pos[0], b.pos[1], b.radius) for b in bodies], dtype=np.float64)
    return core.Bodies(ids, xyr.reshape(len(bodies), 3))


def sight(
    terrain: Any,
    observer: tuple[float, float],
    target: tuple[float, float],
    *,
    base_radius: float,
    observer_id: int = -1,
    target_id: int = -1,
    bodies: Any = None,
    observer_has_ews: bool = False,
) -> Sight:
    """The native three-line LOS, as the reference's :class:`~.sight.Sight` (ruling D11)."""
    return Sight(
        *core.sight(
            terrain,
            observer,
            target,
            base_radius,
            observer_id,
            target_id,
            bodies,
            observer_has_ews,
        )
    )


MAX_JSON_DEPTH = 64
"""Deepest nesting the native state reads in its plain-JSON parts (frames, np, mission): a
native bound, so that hostile data cannot exhaust the C++ stack. The engine writes 4 or less."""

LIMITS: Any = core.StateLimits(validity, terrain_config(), MAX_JSON_DEPTH)
"""The bounds of :mod:`~.validity` (``MAX_MECHS``, ...) and the building table of
:func:`~.terrain_tables.terrain_config` (sizes, armour ratings), as the native state reads them."""


class NativeBattle(Protocol):
    """What ``_core.no_quarter.Battle`` answers.

    Typed here because the submodule is ``Any`` in ``_core.pyi``; ``test_state_agreement.py``
    checks that the two name the same members.
    """

    @property
    def turn(self) -> int:
        """The turn number."""

    @property
    def over(self) -> bool:
        """The battle has ended."""

    @property
    def mech_ids(self) -> list[int]:
        """Every mech's id, in id order."""

    @property
    def decision(self) -> tuple[str, str, int | None] | None:
        """``to_dict()["decision"]`` as ``(side, kind, mech)``, or None: without the document."""

    @property
    def winner(self) -> str | None:
        """``to_dict()["winner"]``: a ``Side`` value, or None (a draw, or still running)."""

    @property
    def end_reason(self) -> str:
        """``to_dict()["end_reason"]`` ("" while the battle runs)."""

    def mech_sides(self) -> dict[int, tuple[str, bool]]:
        """``{id: (side, still in play)}`` of every mech."""

    def to_dict(self) -> dict[str, Any]:
        """The reference's versioned JSON data (equal to ``Battle.to_dict()``)."""

    def clone(self) -> NativeBattle:
        """An independent copy (a C++ struct copy; the records are shared)."""

    @staticmethod
    def from_dict(data: Any, limits: Any, check: bool = True) -> NativeBattle:
        """The battle of a ``Battle.to_dict()`` document (``limits``: :data:`LIMITS`)."""


def battle_from_dict(data: Any, *, check: bool = True) -> NativeBattle:
    """The native ``Battle`` of a ``Battle.to_dict()`` document.

    ``check``: also the checks of :func:`~.validity.check_battle` that the core mirrors
    (docs/native.md). A malformed or hostile document raises
    :class:`~wargym.native.errors.NativeStateError` naming the field.
    """
    battle: NativeBattle = core.Battle.from_dict(data, LIMITS, check)
    return battle
