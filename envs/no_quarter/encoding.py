"""Observations of a No Quarter battle from one side's point of view ("nq-obs-v3").

:class:`ObservationEncoder` turns a :class:`~wargym.rules.no_quarter.battle.state.Battle` into what
one side may know: spatial planes of the table, a padded per-unit feature table with a
validity mask, and global features. Enemies appear only while some mech of the viewer's side
has a line of sight to them (:func:`visible_enemies`; arcs ignored, as the rules' own NP side
knows its enemies, §22.4). :func:`filter_events` keeps only the events a side may know. The
layout is documented in ``docs/encodings.md``; the terrain planes are computed once per
battlefield and cached.

With ``mirror=True`` (default) red sees the table turned by 180 degrees, so that both sides
see their own edge at row 0 and a self-play policy serves either side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.battle.state import LOCATIONS, Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import cover_config, terrain_config
from wargym.rules.no_quarter.forces.records import MechDesign
from wargym.rules.no_quarter.forces.vocab import Side, Status, Terrain
from wargym.rules.no_quarter.non_player import np_events as npev
from wargym.rules.no_quarter.sight_movement.bumping import enemies_in_sight
from wargym.rules.no_quarter.sight_movement.sight import concealing_rects

from .action_features import ACTION_FEATURES, AF_VERSION, action_features
from .codec import SlotsFn, battle_slots, ranged_weapons_of

OBS_VERSION = "nq-obs-v3"
"""Version of the observation layout; bumped on any change."""
TERRAIN_PLANES = (
    Terrain.BUILDING,
    Terrain.WOODS,
    Terrain.HILL,
    Terrain.RIVER,
    Terrain.DEEP_WATER,
    Terrain.ROAD,
    Terrain.ROUGH,
)
PLANES = (
    *(t.value for t in TERRAIN_PLANES),
    "cover",
    "concealment",
    "move_cost",
    "own_mechs",
    "acting_mech",
    "enemies_in_sight",
    "own_reach",
    "enemy_reach",
    "markers",
)
"""Plane names in channel order (docs/encodings.md)."""
UNIT_FIELDS = (
    "valid x y heading_sin heading_cos twist "
    + " ".join(f"armor_{loc.value}" for loc in LOCATIONS)
    + " armor_total class speed speed_ratio rep duck_back leaving prone moved fired rank star"
    " acting group_leader jump_jets ews engaged"
).split()
"""Per-unit columns before the weapon slots; each weapon slot adds WEAPON_FIELDS."""
WEAPON_FIELDS = ("present", "operable", "range", "impact")
KINDS = tuple(DecisionKind)
SPEED_SCALE, RANGE_SCALE, IMPACT_SCALE, REP_SCALE, MOVED_SCALE = 16.0, 48.0, 6.0, 6.0, 16.0
_STATIC_CACHE: dict[int, tuple[Battlefield, float, np.ndarray]] = {}

Markers = Callable[[Battle, Side], Sequence[tuple[float, float]]]
"""Hook for mission markers (PEFs, objectives) a side may see: ``(battle, viewer) -> points``."""


@dataclass(frozen=True)
class _DesignInfo:
    ranged: tuple[int, ...]
    weapons: np.ndarray
    armor_total: int
    armor_inv: tuple[float, ...]
    ranges: tuple[float, ...]
    jump_jets: tuple[int, ...]
    ews: tuple[tuple[int, int], ...]


_DESIGNS: dict[tuple[str, int], _DesignInfo] = {}


def _design_info(design: MechDesign, max_weapons: int) -> _DesignInfo:
    """Per-design constants of the unit table, computed once."""
    key = (design.id, max_weapons)
    info = _DESIGNS.get(key)
    if info is None or _DESIGN_OBJECTS.get(key) is not design:
        ranged = tuple(ranged_weapons_of(design)[:max_weapons])
        weapons = np.zeros(len(WEAPON_FIELDS) * max_weapons, dtype=np.float32)
        for slot, index in enumerate(ranged):
            item = design.items[index]
            weapons[4 * slot : 4 * slot + 4] = (
                1.0,
                1.0,
                (item.range or 0) / RANGE_SCALE,
                item.impact / IMPACT_SCALE,
            )
        items = list(enumerate(design.items))
        info = _DesignInfo(
            ranged,
            weapons,
            max(1, sum(design.armor)),
            tuple(1.0 / max(1, a) for a in design.armor),
            tuple(float(design.items[i].range or 0) for i in ranged),
            tuple(i for i, it in items if it.item.value == "jump_jets"),
            tuple((i, 2 if it.item.value == "ews_2" else 1) for i, it in items if it.item.is_ews),
        )
        _DESIGNS[key] = info
        _DESIGN_OBJECTS[key] = design
    return info


_DESIGN_OBJECTS: dict[tuple[str, int], MechDesign] = {}
ActionTable = Callable[[Battle, Side], Mapping[int, Any]]
"""``(battle, viewer) -> {index: legal action}`` of the viewer's pending decision (the codec's
table); given to the encoder, it adds the per-action features block ("nq-af-v1")."""
REACH_CACHE_SIZE = 512
"""Weapon-reach discs kept per encoder, keyed by position, facing and range (mechs that
have not moved since the last observation reuse theirs)."""


def no_markers(battle: Battle, viewer: Side) -> Sequence[tuple[float, float]]:
    """The default marker hook: a skirmish has no PEFs or objectives."""
    return ()


def visible_enemies(battle: Battle, viewer: Side) -> frozenset[int]:
    """Enemy mechs in play that some mech of ``viewer`` has a line of sight to (§17.1, D11).

    The engine's own set (``bumping.enemies_in_sight``, which also decides the bases a side
    plans its moves around), cached until something on the table changes.
    """
    return enemies_in_sight(battle, viewer)


def static_planes(battlefield: Battlefield, cell: float) -> np.ndarray:
    """Terrain, cover, concealment and move-cost planes in table coordinates (cached)."""
    key = id(battlefield)
    hit = _STATIC_CACHE.get(key)
    if hit is not None and hit[0] is battlefield and hit[1] == cell:
        return hit[2]
    rows = max(1, math.ceil(battlefield.height / cell - 1e-9))
    cols = max(1, math.ceil(battlefield.width / cell - 1e-9))
    ys = (np.arange(rows) + 0.5) * cell
    xs = (np.arange(cols) + 0.5) * cell
    planes = np.zeros((len(TERRAIN_PLANES) + 3, rows, cols), dtype=np.float32)
    cover = cover_config().inside_stationary
    cfg = terrain_config()
    for f in battlefield.features:
        inside = np.outer((ys >= f.y0) & (ys <= f.y1), (xs >= f.x0) & (xs <= f.x1))
        planes[TERRAIN_PLANES.index(f.kind)][inside] = 1.0
        if "cover" in cover.get(f.kind, frozenset()):
            planes[len(TERRAIN_PLANES)][inside] = 1.0
        multiplier = cfg.move_multiplier[f.kind]
        slow = 1.0 - multiplier if multiplier > 0 else 1.0  # 0 clear, 0.5 half speed, 1 blocked
        np.maximum(planes[-1], np.where(inside, slow, 0.0), out=planes[-1])
    concealed = planes[len(TERRAIN_PLANES) + 1]  # is_concealed at every cell centre
    for x0, y0, x1, y1 in concealing_rects(battlefield):
        concealed[np.outer((y0 <= ys) & (ys <= y1), (x0 <= xs) & (xs <= x1))] = 1.0
    if len(_STATIC_CACHE) > 16:
        _STATIC_CACHE.clear()
    _STATIC_CACHE[key] = (battlefield, cell, planes)
    return planes


class ObservationEncoder:
    """One side's view of a battle as arrays (module docstring, docs/encodings.md)."""

    version = OBS_VERSION
    """The layout this encoder produces."""

    def __init__(
        self,
        max_mechs: int = 6,
        max_weapons: int = 8,
        *,
        width: float = 36.0,
        height: float = 36.0,
        cell: float = 1.0,
        max_turns: int = 20,
        mirror: bool = True,
        flatten: bool = True,
        markers: Markers = no_markers,
        slots: SlotsFn | None = None,
        action_table: ActionTable | None = None,
        n_actions: int = 0,
        advisor: Any = None,
    ) -> None:
        self.slot_fn: SlotsFn = slots or battle_slots
        self.action_table, self.n_actions = action_table, n_actions
        self.advisor = advisor if action_table is not None else None
        self.af_rows = len(ACTION_FEATURES) + (len(advisor.rows) if self.advisor else 0)
        if action_table is not None:
            self.version = f"{type(self).version}+{AF_VERSION}"
            if self.advisor is not None:
                self.version += f"+{self.advisor.version}"
        self.max_mechs, self.max_weapons = max_mechs, max_weapons
        self.width, self.height, self.cell = float(width), float(height), float(cell)
        self.rows = max(1, math.ceil(self.height / self.cell - 1e-9))
        self.cols = max(1, math.ceil(self.width / self.cell - 1e-9))
        self.max_turns, self.mirror, self.flatten, self.markers = (
            max_turns,
            mirror,
            flatten,
            markers,
        )
        self.unit_size = len(UNIT_FIELDS) + len(WEAPON_FIELDS) * max_weapons
        self.global_size = 6 + len(KINDS) + max_mechs + 5
        self.plane_shape = (len(PLANES), self.rows, self.cols)
        self.af_size = self.af_rows * n_actions if action_table is not None else 0
        self.size = (
            int(np.prod(self.plane_shape))
            + 2 * max_mechs * self.unit_size
            + self.global_size
            + self.af_size
        )
        self._grid = (
            (np.arange(self.cols) + 0.5) * self.cell,
            (np.arange(self.rows) + 0.5) * self.cell,
        )
        self._reach_cache: dict[tuple[tuple[float, float], float, float], np.ndarray] = {}

    @property
    def space(self) -> spaces.Space[Any]:
        """``Box(-1, 1, (size,), float32)`` when flattened, else a ``Dict`` of the parts."""
        if self.flatten:
            return spaces.Box(-1.0, 1.0, (self.size,), np.float32)
        rows = 2 * self.max_mechs
        parts: dict[str, spaces.Space[Any]] = {
            "planes": spaces.Box(0.0, 1.0, self.plane_shape, np.float32),
            "units": spaces.Box(-1.0, 1.0, (rows, self.unit_size), np.float32),
            "unit_mask": spaces.Box(0, 1, (rows,), np.int8),
            "globals": spaces.Box(0.0, 1.0, (self.global_size,), np.float32),
        }
        if self.af_size:
            shape = (self.af_rows, self.n_actions)
            parts["action_features"] = spaces.Box(0.0, 1.0, shape, np.float32)
        return spaces.Dict(parts)

    def encode(
        self, battle: Battle, viewer: Side, visible: frozenset[int] | None = None
    ) -> np.ndarray | dict[str, np.ndarray]:
        """What ``viewer`` may know of ``battle`` now (``visible``: precomputed enemy set)."""
        seen = visible_enemies(battle, viewer) if visible is None else visible
        slots = self.slot_fn(battle, viewer, self.mirror)
        flip = slots.turn != 0.0
        deciding = battle.decision if (battle.decision and battle.decision.side is viewer) else None
        acting = deciding.mech if deciding is not None else None
        planes = np.zeros(self.plane_shape, dtype=np.float32)
        terrain = static_planes(battle.battlefield, self.cell)
        planes[: terrain.shape[0]] = terrain[:, ::-1, ::-1] if flip else terrain
        base = terrain.shape[0]
        units = np.zeros((2 * self.max_mechs, self.unit_size), dtype=np.float32)
        own_list = [battle.mechs[i] for i in slots.own[: self.max_mechs]]
        enemy_list = [battle.mechs[i] for i in slots.enemy[: self.max_mechs]]
        for row, mech in enumerate(own_list):
            if mech.removed is None:
                self._mark(planes[base], mech.pos, flip, 1.0)
                self._reach(planes[base + 3], mech)
                if mech.id == acting:
                    self._mark(planes[base + 1], mech.pos, flip, 1.0)
                self._unit(units[row], battle, mech, slots.turn, mech.id == acting, seen)
        for row, mech in enumerate(enemy_list):
            if mech.id in seen and mech.removed is None:
                self._mark(planes[base + 2], mech.pos, flip, 1.0)
                self._reach(planes[base + 4], mech)
                self._unit(units[self.max_mechs + row], battle, mech, slots.turn, False, seen)
        for r in (base + 3, base + 4):
            planes[r] = planes[r] / self.max_mechs
            if flip:
                planes[r] = planes[r][::-1, ::-1]
        for point in self.markers(battle, viewer):
            self._mark(planes[base + 5], point, flip, 1.0)
        glob = self._globals(battle, viewer, slots.own, seen, deciding is not None, acting)
        np.clip(units, -1.0, 1.0, out=units)
        feats = None
        if self.action_table is not None:
            table = self.action_table(battle, viewer) if deciding is not None else {}
            feats = action_features(battle, table, self.n_actions, seen)
            if self.advisor is not None:
                values, pick = self.advisor.advise(battle, table, viewer)
                advice = np.zeros((self.af_rows - len(ACTION_FEATURES), self.n_actions), np.float32)
                for index, value in values.items():
                    advice[0, index] = value
                if pick is not None:
                    advice[1, pick] = 1.0
                feats = np.concatenate([feats, advice])
        if not self.flatten:
            out: dict[str, np.ndarray] = {
                "planes": planes,
                "units": units,
                "unit_mask": (units[:, 0] > 0).astype(np.int8),
                "globals": glob,
            }
            if feats is not None:
                out["action_features"] = feats
            return out
        if feats is not None:
            return np.concatenate([planes.ravel(), units.ravel(), glob, feats.ravel()])
        return np.concatenate([planes.ravel(), units.ravel(), glob])

    # -- parts ---------------------------------------------------------------------------
    def _cell(self, pos: tuple[float, float], flip: bool) -> tuple[int, int]:
        x, y = (self.width - pos[0], self.height - pos[1]) if flip else pos
        c = min(self.cols - 1, max(0, int(x // self.cell)))
        r = min(self.rows - 1, max(0, int(y // self.cell)))
        return r, c

    def _mark(self, plane: np.ndarray, pos: tuple[float, float], flip: bool, value: float) -> None:
        r, c = self._cell(pos, flip)
        plane[r, c] = max(plane[r, c], value)

    def _reach(self, plane: np.ndarray, mech: Mech) -> None:
        """Adds 1 where an operable ranged weapon reaches in the front arc (table frame)."""
        if mech.status is not Status.CARRY_ON:
            return
        info = _design_info(mech.design, self.max_weapons)
        ranges = [
            r for i, r in zip(info.ranged, info.ranges, strict=True) if i not in mech.inoperable
        ]
        if not ranges:
            return
        key = (mech.pos, mech.facing, max(ranges))
        reach = self._reach_cache.get(key)
        if reach is None:
            xs, ys = self._grid
            dx, dy = xs - mech.pos[0], ys - mech.pos[1]
            rad = math.radians(mech.facing)
            front = (dx[None, :] * math.cos(rad) + dy[:, None] * math.sin(rad)) >= 0.0
            near = (dx * dx)[None, :] + (dy * dy)[:, None] <= key[2] ** 2
            reach = near & front
            if len(self._reach_cache) >= REACH_CACHE_SIZE:
                self._reach_cache.clear()
            self._reach_cache[key] = reach
        plane += reach

    def _unit(
        self,
        row: np.ndarray,
        battle: Battle,
        mech: Mech,
        turn: float,
        acting: bool,
        seen: frozenset[int],
    ) -> None:
        design = mech.design
        flip = turn != 0.0
        x, y = (self.width - mech.pos[0], self.height - mech.pos[1]) if flip else mech.pos
        heading = math.radians(mech.heading + turn)
        info = _design_info(design, self.max_weapons)
        armor = [a * inv for a, inv in zip(mech.armor, info.armor_inv, strict=True)]
        if mech.id in seen:  # an enemy: contact with the viewer's own mechs
            foes = battle.mechs_of(mech.side.other)
        else:  # an own mech: contact with enemies in sight only
            foes = [battle.mechs[i] for i in seen]
        contact = 2 * battle.options.base_radius + 1e-6
        engaged = any(math.dist(f.pos, mech.pos) <= contact for f in foes)
        broken = mech.inoperable
        values = [
            1.0,
            x / self.width,
            y / self.height,
            math.sin(heading),
            math.cos(heading),
            mech.twist / 90.0,
            *armor,
            sum(mech.armor) / info.armor_total,
            design.mech_class / 5.0,
            mech.speed / SPEED_SCALE,
            mech.speed / max(1, design.speed),
            mech.rep / REP_SCALE,
            float(mech.status is Status.DUCK_BACK),
            float(mech.status is Status.LEAVE_BATTLEFIELD),
            float(mech.prone),
            min(1.0, mech.moved / MOVED_SCALE),
            float(mech.fired_this_activation),
            0.0 if mech.rank is None else (mech.rank.order + 1) / 4.0,
            float(mech.pilot.star),
            float(acting),
            float(battle.group_of.get(mech.id) == mech.id),
            float(any(i not in broken for i in info.jump_jets)),
            max((b for i, b in info.ews if i not in broken), default=0) / 2.0,
            float(engaged),
        ]
        row[: len(values)] = values
        start = len(UNIT_FIELDS)
        row[start:] = info.weapons
        for slot, item_index in enumerate(info.ranged):
            if item_index in broken:
                row[start + 4 * slot + 1] = 0.0

    def _globals(
        self,
        battle: Battle,
        viewer: Side,
        own_ids: Iterable[int],
        seen: frozenset[int],
        deciding: bool,
        acting: int | None,
    ) -> np.ndarray:
        out = np.zeros(self.global_size, dtype=np.float32)
        m = self.max_mechs
        out[0] = min(1.0, battle.turn / max(1, self.max_turns))
        out[1] = battle.dice.get(viewer, 0) / 6.0
        out[2] = battle.dice.get(viewer.other, 0) / 6.0
        out[3] = float(battle.first_side is viewer)
        out[4] = float(battle.active_side is viewer)
        out[5] = float(deciding)
        if deciding and battle.decision is not None:
            out[6 + KINDS.index(battle.decision.kind)] = 1.0
            own = list(own_ids)
            if acting is not None and acting in own and own.index(acting) < m:
                out[6 + len(KINDS) + own.index(acting)] = 1.0
        tail = 6 + len(KINDS) + m
        out[tail] = float(battle.battlefield.night)
        out[tail + 1] = float(battle.battlefield.inclement_weather)
        out[tail + 2] = min(1.0, battle.losses.get(viewer, 0) / m)
        out[tail + 3] = min(1.0, len(battle.mechs_of(viewer)) / m)  # reinforcements: > m
        out[tail + 4] = min(1.0, len(seen) / m)
        return out


# -- events ---------------------------------------------------------------------------------
_ID_FIELDS = (
    "mech",
    "blocker",
    "shooter",
    "target",
    "charger",
    "attacker",
    "defender",
    "leader",
    "moving_leader",
    "nonmoving_leader",
    "replaces",
)
_ID_LIST_FIELDS = ("members", "causes", "leaders")
_SIGHT_EVENTS = (
    ev.MechMoved,
    ev.MechRemoved,
    ev.BuildingDestroyed,
    ev.CriticalHit,
    ev.ItemDisabled,
    npev.MechsArrived,
)
SECRET_TABLES = frozenset({"22.3.1"})
"""NP tables whose result the player never learns: the secret objective of a Defend."""


def mechs_named(event: Event) -> set[int]:
    """Mech ids an event refers to (every id field, lists and groups included)."""
    found: set[int] = set()
    for name in _ID_FIELDS:
        value = getattr(event, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            found.add(value)
    for name in _ID_LIST_FIELDS:
        found.update(int(v) for v in getattr(event, name, ()) or ())
    if isinstance(event, ev.GroupsFormed):
        found.update(i for group in event.groups for i in group)
    if isinstance(event, ev.MeleeRound) and event.winner is not None:
        found.add(event.winner)
    if isinstance(event, npev.MechsArrived):
        found.update(new.id for new in event.mechs)
    return found


def np_private(battle: Battle, event: Event, viewer: Side, seen: frozenset[int]) -> bool:
    """Whether ``event`` is the rules' NP bookkeeping that ``viewer`` may not know (§22).

    For a viewer other than the NP side: every ``NpGroupSet`` (NP orders, postures and the
    secret objective), an ``NpTableRolled`` of a secret table (22.3.1), of no group, or of a
    group with no mech in ``seen``, and the NP side's ``ReinforcementChecked`` (its mechs
    show up as ``MechsArrived`` once seen).
    """
    np_state = battle.np
    if np_state is None or viewer.value == np_state["side"]:
        return False
    if isinstance(event, npev.NpGroupSet):
        return True
    if isinstance(event, npev.NpTableRolled):
        if event.table in SECRET_TABLES or event.team is None:
            return True
        return not any(battle.mechs[i].team == event.team for i in seen if i in battle.mechs)
    if isinstance(event, npev.ReinforcementChecked):
        return bool(event.side.value == np_state["side"])
    return False


def filter_events(
    before: Battle,
    events: Sequence[Event],
    viewers: Sequence[Side],
    seen_before: Mapping[Side, frozenset[int]] | None = None,
) -> tuple[dict[Side, list[dict[str, Any]]], dict[Side, frozenset[int]]]:
    """Per viewer, the events (as dicts) that name no enemy mech it could not see then.

    ``before`` is a clone of the battle taken before ``events`` happened; the events are
    applied to it one by one (it is changed). An enemy counts as seen for an event if some
    own mech has a line of sight to it just after the event; a removed enemy keeps the
    status it had when it left. Events naming an unseen enemy are dropped whole.
    ``seen_before`` may give each viewer's :func:`visible_enemies` of ``before``. Also
    returns each viewer's enemies in sight after the last event. Arriving mechs
    (``MechsArrived``) count as named; the NP side's private bookkeeping is dropped for the
    other side (:func:`np_private`); PEF markers, resolved PEFs, weather and mission events
    name no mech and are kept.
    """
    sides = {m.id: m.side for m in before.mechs.values()}
    seen = {
        v: (seen_before[v] if seen_before and v in seen_before else visible_enemies(before, v))
        for v in viewers
    }
    out: dict[Side, list[dict[str, Any]]] = {v: [] for v in viewers}
    for event in events:
        before.apply(event)
        if isinstance(event, npev.MechsArrived):
            sides.update((new.id, event.side) for new in event.mechs)
        if isinstance(event, _SIGHT_EVENTS):
            for v in viewers:
                gone = {i for i in seen[v] if before.mechs[i].removed is not None}
                seen[v] = visible_enemies(before, v) | gone
        named = mechs_named(event)
        for v in viewers:
            if all(sides.get(i) is v or i in seen[v] for i in named) and not np_private(
                before, event, v, seen[v]
            ):
                out[v].append(event.to_dict())
    now = {v: frozenset(i for i in seen[v] if before.mechs[i].removed is None) for v in viewers}
    return out, now


def seen_after(
    before: Battle,
    events: Sequence[Event],
    viewers: Sequence[Side],
    seen_before: Mapping[Side, frozenset[int]] | None = None,
) -> dict[Side, frozenset[int]]:
    """The enemies-in-sight sets :func:`filter_events` returns, without its event dicts.

    The sets only change at a sight event, and every removal is one, so only the events up
    to the last sight event are applied to ``before`` (it is changed), and
    :func:`visible_enemies` runs once per viewer there (none if no event is a sight event).
    """
    last = max((k for k, e in enumerate(events) if isinstance(e, _SIGHT_EVENTS)), default=-1)
    if last < 0:
        seen = {
            v: seen_before[v] if seen_before and v in seen_before else visible_enemies(before, v)
            for v in viewers
        }
    else:
        for event in events[: last + 1]:
            before.apply(event)
        seen = {v: visible_enemies(before, v) for v in viewers}
    return {v: frozenset(i for i in seen[v] if before.mechs[i].removed is None) for v in viewers}
