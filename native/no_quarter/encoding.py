"""Glue of the native observation encoder: a reference encoder's sizes and tables, handed over.

:class:`NativeObservationEncoder` wraps an
:class:`~wargym.envs.no_quarter.encoding.ObservationEncoder` ("nq-obs-v3", every cell size,
flattened or not, mirrored or not) and encodes a native battle
(:func:`~wargym.native.no_quarter.battle_from_dict`) into the same float32 values, bit for bit.
Every size and scale comes from the reference encoder object and its module, every terrain
number from :func:`~.terrain_tables.terrain_config` and :func:`~.terrain_tables.cover_config`
(:func:`encoder_config`): the C++ holds none. :meth:`~NativeObservationEncoder.encode_into`
writes into a buffer the caller owns (``float32``, C-contiguous, shape ``(size,)``), for
instance one row of a batch's observation array.

The static planes (terrain, cover, concealment, move cost) are computed once per battlefield
and reused while the battlefield lives (the battlefield of a native battle is shared by its
clones and never changes).

>>> import numpy as np
>>> from wargym.envs.no_quarter.encoding import ObservationEncoder, visible_enemies
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> from wargym.rules.no_quarter.forces.vocab import Side
>>> from wargym.native.no_quarter import battle_from_dict
>>> battle = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
>>> reference = ObservationEncoder(3)
>>> native = NativeObservationEncoder(reference)
>>> seen = visible_enemies(battle, Side.RED)
>>> obs = native.encode(battle_from_dict(battle.to_dict()), Side.RED, seen)
>>> bool(np.array_equal(obs, reference.encode(battle, Side.RED, seen)))
True

With ``action_features=True`` the per-action block ("nq-af-v1") is written too; the caller
passes the encoder's action table (``actions=``, the codec's ``{index: legal action}``),
which :func:`feature_actions` turns into plain rows. A
:class:`~.mission_encoding.MissionObservationEncoder` ("nq-obs-v4") adds the mission globals
and, by default, the PEF markers, both read from the state's mission and NP data. Not
mirrored yet: the advisor rows (such an encoder is refused). Another ``markers`` hook and a
custom ``slots`` hook (the missions' ``SightingOrder``) are Python functions of a reference
battle: the caller passes their results (``markers=``, ``slots=``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.rules.no_quarter.battle.actions import DecisionKind, FireFirst, FreeMove, Move, Stay
from wargym.rules.no_quarter.battlefield.terrain_tables import (
    cover_config,
    sight_config,
    terrain_config,
)
from wargym.rules.no_quarter.forces.vocab import ItemType, Rank, Side, Terrain

if TYPE_CHECKING:  # the env layer imports gymnasium, which native/ must not load on import
    from wargym.envs.no_quarter import encoding as ref
    from wargym.envs.no_quarter.codec import Slots

core: Any = _core.no_quarter.encoding
"""The compiled encoder (``wargym.native._core.no_quarter.encoding``)."""

INLINE_SCALES = {
    "twist_scale": 90.0,
    "class_scale": 5.0,
    "rank_scale": 4.0,
    "ews_scale": 2.0,
    "dice_scale": 6.0,
    "contact_slack": 1e-6,
    "grid_slack": 1e-9,
    "mirror_turn": 180.0,
}
"""The numbers written inline in :mod:`~wargym.envs.no_quarter.encoding` and
``codec.battle_slots`` (``mech.twist / 90.0``, ``design.mech_class / 5.0``, the rank's ``/ 4.0``,
the EWS's ``/ 2.0``, the dice's ``/ 6.0``, the contact's ``+ 1e-6``, ``math.ceil``'s ``- 1e-9``,
the mirrored red's 180 degrees); ``test_encoding_agreement.py`` changes each and checks that
the arrays then differ, so a change on one side shows."""

EWS_LEVEL = {ItemType.EWS_2: 2}
"""``_design_info``'s EWS bonus: 2 for an ``ews_2``, else 1 for any EWS."""


def _reference() -> Any:
    """``wargym.envs.no_quarter.encoding``, imported when an encoder is first wrapped."""
    return importlib.import_module("wargym.envs.no_quarter.encoding")


def encoder_config(encoder: ref.ObservationEncoder) -> dict[str, Any]:
    """The core's ``EncoderConfig`` of a reference encoder: its sizes, scales and tables."""
    ref = _reference()
    cover = cover_config().inside_stationary
    multiplier = terrain_config().move_multiplier
    concealing = cover_config().concealing()
    return {
        "max_mechs": encoder.max_mechs,
        "max_weapons": encoder.max_weapons,
        "max_turns": encoder.max_turns,
        "width": encoder.width,
        "height": encoder.height,
        "cell": encoder.cell,
        "rows": encoder.rows,
        "cols": encoder.cols,
        "mirror": bool(encoder.mirror),
        "planes": len(ref.PLANES),
        "terrain_planes": [list(Terrain).index(t) for t in ref.TERRAIN_PLANES],
        "unit_fields": len(ref.UNIT_FIELDS),
        "weapon_fields": len(ref.WEAPON_FIELDS),
        "unit_size": encoder.unit_size,
        "global_size": encoder.global_size,
        "kinds": len(ref.KINDS),
        "size": encoder.size,
        "speed_scale": ref.SPEED_SCALE,
        "range_scale": ref.RANGE_SCALE,
        "impact_scale": ref.IMPACT_SCALE,
        "rep_scale": ref.REP_SCALE,
        "moved_scale": ref.MOVED_SCALE,
        **INLINE_SCALES,
        "cover": ["cover" in cover.get(t, frozenset()) for t in Terrain],
        "move_multiplier": [float(multiplier[t]) for t in Terrain],
        "concealing": [t in concealing for t in Terrain],
        "ranged": [t.is_ranged_weapon for t in ItemType],
        "jump_jets": [t.value == "jump_jets" for t in ItemType],
        "ews": [EWS_LEVEL.get(t, 1) if t.is_ews else 0 for t in ItemType],
        "rank_order": [r.order for r in Rank],
        "reach_cache_size": ref.REACH_CACHE_SIZE,
        "shore_band": terrain_config().deep_water_shore_band,
        "sight": {f: getattr(sight_config(), f) for f in sight_config().__dataclass_fields__},
        "action_features": encoder.action_table is not None,
        **(_feature_config(encoder) if encoder.action_table is not None else {}),
        "mission": _is_mission(encoder),
        **(_mission_config(encoder) if _is_mission(encoder) else {}),
    }


def _mission_module() -> Any:
    return importlib.import_module("wargym.envs.no_quarter.mission_encoding")


def _is_mission(encoder: Any) -> bool:
    return isinstance(encoder, _mission_module().MissionObservationEncoder)


MISSION_EDGES = {"far": "north", "home": "south", "mirror_edges": 2}
"""``mission_features``' inline edges: the far and home edge of an unmirrored viewer, and the
turn (in ``EDGES`` steps) of a mirrored red viewer."""


def _mission_config(encoder: Any) -> dict[str, Any]:
    """The mission globals' part of the config (``mission_encoding.py`` and its tables)."""
    mission = _mission_module()
    codec = importlib.import_module("wargym.envs.no_quarter.codec")
    play = importlib.import_module("wargym.rules.no_quarter.mission.mission_play")
    missions = importlib.import_module("wargym.rules.no_quarter.mission.missions")
    exits = [play.PLAYER_EXITS[missions.MissionType(kind)] for kind in mission.MISSION_KINDS]
    return {
        "base_global_size": encoder.base_global_size,
        "pef_markers": encoder.markers is mission.pef_markers,
        "mission_tables": {
            "kinds": list(mission.MISSION_KINDS),
            "objectives": list(mission.OBJECTIVES),
            "sections": list(mission.SECTIONS),
            "edges": list(codec.EDGES),
            "player_exits": [[codec.EDGES.index(e) for e in edges] for edges in exits],
            **MISSION_EDGES,
            "turn_scale": mission.TURN_SCALE,
            "pef_scale": mission.PEF_SCALE,
            "morale_scale": mission.MORALE_SCALE,
            "fields": len(mission.MISSION_FIELDS),
        },
    }


def _feature_config(encoder: ref.ObservationEncoder) -> dict[str, Any]:
    """The per-action block's part of the config (``action_features.py`` and its tables)."""
    features = importlib.import_module("wargym.envs.no_quarter.action_features")
    cover = cover_config()
    return {
        "n_actions": encoder.n_actions,
        "af_rows": encoder.af_rows,
        "table_size": features.TABLE_SIZE,
        "behind_building_cover": cover.behind_building_cover,
        "behind_mech_cover": cover.behind_mech_cover,
        "cover_moving": ["cover" in cover.inside_moving.get(t, frozenset()) for t in Terrain],
    }


_KINDS = ((Move, "move"), (FreeMove, "free_move"), (Stay, "stay"), (FireFirst, "fire_first"))


def feature_actions(table: Mapping[int, Any]) -> list[tuple[Any, ...]]:
    """The codec's ``{index: action}`` in the core's plain form.

    One ``(index, kind, mech, to, target)`` per action: ``kind`` names the class that
    ``action_features`` tells apart (``other`` for the rest), ``to`` the end point of a move,
    ``target`` the action's ``target`` when it is an int (as the reference reads it).
    """
    rows = []
    for index, action in table.items():
        kind = next((name for cls, name in _KINDS if isinstance(action, cls)), "other")
        to = getattr(action, "to", None) if kind in ("move", "free_move") else None
        target = getattr(action, "target", None)
        rows.append((
            index,
            kind,
            getattr(action, "mech", None) if kind != "other" else None,
            None if to is None else (to[0], to[1]),
            int(target) if isinstance(target, int) else None,
        ))  # fmt: skip
    return rows


def _refuse(encoder: Any) -> None:
    ref = _reference()
    if not isinstance(encoder, ref.ObservationEncoder):
        raise NativeTypeError("encoder", f"expected an ObservationEncoder, got {type(encoder)}")
    if type(encoder) not in (ref.ObservationEncoder, _mission_module().MissionObservationEncoder):
        raise NativeArgumentError(
            "encoder",
            f"{type(encoder).__name__} is not mirrored "
            "(ObservationEncoder and MissionObservationEncoder are)",
        )
    if encoder.advisor is not None:
        raise NativeArgumentError("encoder", "the advisor rows are not mirrored")
    if len(ref.KINDS) != len(DecisionKind):
        raise NativeArgumentError("encoder", "KINDS is not DecisionKind")


class NativeObservationEncoder:
    """The native twin of a reference :class:`~.encoding.ObservationEncoder`."""

    def __init__(self, encoder: ref.ObservationEncoder) -> None:
        _refuse(encoder)
        self.reference = encoder
        """The reference encoder whose layout this one writes."""
        self.size: int = encoder.size
        self.flatten = bool(encoder.flatten)
        self.version = encoder.version
        codec = importlib.import_module("wargym.envs.no_quarter.codec")
        self._default_slots = encoder.slot_fn is codec.battle_slots
        self._default_markers = encoder.markers is _reference().no_markers or (
            _is_mission(encoder) and encoder.markers is _mission_module().pef_markers
        )
        self._features = encoder.action_table is not None
        self._core = core.ObservationEncoder(encoder_config(encoder))

    def encode_into(
        self,
        battle: Any,
        viewer: Side | str,
        visible: Iterable[int] | None,
        out: np.ndarray,
        *,
        slots: Slots | None = None,
        markers: Sequence[tuple[float, float]] | None = None,
        actions: Mapping[int, Any] | None = None,
    ) -> None:
        """Writes the flat observation (``encode()`` with ``flatten=True``) into ``out``.

        ``visible``: the enemies in sight (the env's set); ``None``: :meth:`visible_enemies`,
        as the reference computes them then. ``slots`` and ``markers``: what the encoder's
        ``slots`` and ``markers`` hooks return for this battle, required when those hooks are
        not the defaults. ``actions``: with ``action_features``, the encoder's ``action_table``
        for this battle and viewer (the codec's ``{index: legal action}``; ``{}`` when the
        viewer does not decide). Raises ``NativeTypeError``/``NativeArgumentError`` naming a
        bad argument; ``out`` is then unchanged.
        """
        if actions is None and self._features:
            raise NativeArgumentError("actions", "the encoder has action_features: pass its table")
        if slots is None and not self._default_slots:
            raise NativeArgumentError("slots", "the encoder's slots hook is not battle_slots")
        if markers is None and not self._default_markers:
            raise NativeArgumentError("markers", "the encoder's markers hook is not no_markers")
        side = viewer.value if isinstance(viewer, Side) else viewer
        parts = None if slots is None else (slots.own, slots.enemy, slots.turn)
        table = None if actions is None else feature_actions(actions)
        self._core.encode(battle, side, visible, out, parts, markers, table)

    def encode(
        self,
        battle: Any,
        viewer: Side | str,
        visible: Iterable[int] | None = None,
        *,
        slots: Slots | None = None,
        markers: Sequence[tuple[float, float]] | None = None,
        actions: Mapping[int, Any] | None = None,
    ) -> np.ndarray | dict[str, np.ndarray]:
        """A new observation in the reference encoder's layout (flattened or a dict)."""
        flat = np.empty(self.size, dtype=np.float32)
        self.encode_into(
            battle, viewer, visible, flat, slots=slots, markers=markers, actions=actions
        )
        if self.flatten:
            return flat
        enc = self.reference
        planes = int(np.prod(enc.plane_shape))
        units_end = planes + 2 * enc.max_mechs * enc.unit_size
        units = flat[planes:units_end].reshape(2 * enc.max_mechs, enc.unit_size)
        glob_end = units_end + enc.global_size
        out: dict[str, np.ndarray] = {
            "planes": flat[:planes].reshape(enc.plane_shape),
            "units": units,
            "unit_mask": (units[:, 0] > 0).astype(np.int8),
            "globals": flat[units_end:glob_end],
        }
        if self._features:
            out["action_features"] = flat[glob_end:].reshape(enc.af_rows, enc.n_actions)
        return out

    def visible_enemies(self, battle: Any, viewer: Side | str) -> frozenset[int]:
        """:func:`~.encoding.visible_enemies` of a native battle (``bumping.enemies_in_sight``)."""
        side = viewer.value if isinstance(viewer, Side) else viewer
        found: frozenset[int] = self._core.visible_enemies(battle, side)
        return found

    def static_planes(self, battle: Any) -> np.ndarray:
        """``encoding.static_planes(battle.battlefield, cell)`` of a native battle (a copy)."""
        planes: np.ndarray = self._core.static_planes(battle)
        return planes
