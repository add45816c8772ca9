"""Action codec, observations with fog of war, and event filtering for the Pentagon War envs.

Action space: one flat ``Discrete(n)`` with ``n = 11 + 3 * max_ships`` (see :class:`ActionCodec`).
Observation: ``Dict({"observation": Box(float32, (obs_size,)), "action_mask": Box(0, 1, (n,),
int8)})``. The vector is ego-centric (digest D-3): offsets and velocities are rotated so that
the deciding ship (or the viewer's first ship in play) faces A. It shows public state, the
viewer's own ships in full and the viewer's own secret plot; enemies beyond the radar range of
every viewer ship (PW-R12; 4 hexes when radar-invisible, PW-R17) are marked undetected and
zeroed. The other side's plot never enters it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.rules.events import Event
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import (
    Action,
    ActionKind,
    Decision,
    hex_gap,
    planned,
    planned_charges,
)
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.records import Category, RuleSet, ShipDesign
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase, ShipState
from wargym.rules.pentagon_war.weapons import relative_bearing_qr

CHOICES = 7
"""CHOOSE 0..6: power levels, screen row 1..6, thrust 0/1 (or direction 1..6), link 0/1."""
KINDS = tuple(DecisionKind)
WEAPON_TYPES = (
    "laser",
    "radiation_gun",
    "proton_cannon",
    "electron_cannon",
    "liquid_metal_gun",
    "acid_gum_gun",
)
CATEGORIES = (
    Category.LASER,
    Category.GUN,
    Category.PROTON_CANNON,
    Category.ELECTRON_CANNON,
    Category.MISSILE,
    Category.POINT_DEFENSE,
    Category.ENGINE,
    Category.CAPACITOR,
    Category.SCREEN,
    Category.MAGNETIC_BEAM,
)
GLOBAL_FEATURES = 5 + len(KINDS) + 1 + len(WEAPON_TYPES) + 4
SHIP_FEATURES = 21 + 6 + 6 + len(CATEGORIES) + 9
OBS_BOUND = 10.0
"""Every observation value is clipped to [-10, 10] (offsets are scaled by 1/20)."""
HIDDEN_EVENTS = frozenset({"ThrustRecorded", "CapacitorsCharged", "PowerLost"})
"""Events about the enemy's own record forms, never shown to the other side."""


@dataclass(frozen=True)
class ActionCodec:
    """Flat action indices for ``max_ships`` ships.

    ====================  ==========================================
    index                 action
    ====================  ==========================================
    0..6                  CHOOSE 0..6
    7, 8, 9               ROTATE -1 (left), 0, +1 (right)
    10                    HOLD (do not fire / launch)
    11 .. 11+N-1          FIRE at ship i
    11+N .. 11+2N-1       LAUNCH a missile at ship i
    11+2N .. 11+3N-1      RAIL_LAUNCH a missile at ship i
    ====================  ==========================================
    """

    max_ships: int

    @property
    def n(self) -> int:
        """Size of the action space."""
        return 11 + 3 * self.max_ships

    def encode(self, action: Action) -> int:
        """Index of ``action``."""
        kind, value = action.kind, action.value
        if kind is ActionKind.CHOOSE:
            return value
        if kind is ActionKind.ROTATE:
            return 8 + value
        if kind is ActionKind.HOLD:
            return 10
        if kind is ActionKind.FIRE:
            return 11 + value
        if kind is ActionKind.LAUNCH:
            return 11 + self.max_ships + value
        if kind is ActionKind.RAIL_LAUNCH:
            return 11 + 2 * self.max_ships + value
        raise KeyError(kind)

    def decode(self, index: int) -> Action:
        """The action at ``index``."""
        if not 0 <= index < self.n:
            raise ValueError(f"action index {index} outside 0..{self.n - 1}")
        if index < CHOICES:
            return Action(ActionKind.CHOOSE, index)
        if index < 10:
            return Action(ActionKind.ROTATE, index - 8)
        if index == 10:
            return Action(ActionKind.HOLD)
        base, ship = divmod(index - 11, self.max_ships)
        kind = (ActionKind.FIRE, ActionKind.LAUNCH, ActionKind.RAIL_LAUNCH)[base]
        return Action(kind, ship)

    def mask(self, decision: Decision | None) -> np.ndarray:
        """int8 mask of the legal options; all zero when there is no decision."""
        out = np.zeros(self.n, dtype=np.int8)
        if decision is not None:
            encode = self.encode
            out[[encode(action) for action in decision.options]] = 1
        return out


def obs_size(max_ships: int) -> int:
    """Length of the observation vector."""
    return GLOBAL_FEATURES + SHIP_FEATURES * max_ships


def detected(state: BattleState, viewer: int, ship: ShipState, rules: RuleSet) -> bool:
    """Whether ``viewer``'s radar shows ``ship`` (PW-R12, R17); own ships always."""
    return _seen(viewer, _radars(state, viewer, rules), ship, rules)


def _radars(state: BattleState, viewer: int, rules: RuleSet) -> list[tuple[ShipState, int]]:
    """The viewer's ships in play with their radar reach (PW-R12)."""
    return [
        (own, power.ship_radar_range(own, state.design_of(own), rules))
        for own in state.ships
        if own.side == viewer and not (own.destroyed or own.disengaged)
    ]


def _seen(
    viewer: int, radars: list[tuple[ShipState, int]], ship: ShipState, rules: RuleSet
) -> bool:
    """:func:`detected` with the viewer's radars computed once."""
    if ship.side == viewer or ship.destroyed or ship.disengaged:
        return True
    for own, reach in radars:
        if ship.invisible:
            reach = min(reach, rules.systems.invisibility_max_range)
        if hex_gap(own, ship) <= reach:
            return True
    return False


def ego_ship(state: BattleState, viewer: int, decision: Decision | None) -> ShipState:
    """The deciding ship, else the viewer's first ship in play, else its first ship."""
    if decision is not None:
        return state.ships[decision.ship]
    own = state.side_ships(viewer)
    return next((s for s in own if s.alive), own[0])


@dataclass(frozen=True, slots=True)
class _DesignTotals:
    """Per-design constants of the ship block (capacity, boxes per category, armor)."""

    design: ShipDesign
    cap: int
    names: tuple[str, ...]
    """The system names of every category of :data:`CATEGORIES`, category after category."""
    groups: tuple[tuple[int, int, int], ...]
    """Per category: its slice ``names[start:end]`` and its total boxes."""
    armor: tuple[int, ...]
    final_damage: int
    weapons: int
    size: float


_TOTALS: dict[str, _DesignTotals] = {}


def _totals(design: ShipDesign) -> _DesignTotals:
    cached = _TOTALS.get(design.key)
    if cached is None or cached.design is not design:
        cached = _DesignTotals(
            design,
            max(1, sum(s.boxes for s in design.systems if s.category is Category.CAPACITOR)),
            tuple(n for c in CATEGORIES for n in power.category_names(design, c)),
            _groups(design),
            tuple(max(1, design.armor[i]) for i in range(6)),
            max(1, design.final_damage),
            max(1, len(design.weapons)),
            design.size_class / 3.0,
        )
        _TOTALS[design.key] = cached
    return cached


def _groups(design: ShipDesign) -> tuple[tuple[int, int, int], ...]:
    out = []
    start = 0
    for category in CATEGORIES:
        end = start + len(power.category_names(design, category))
        total = sum(s.boxes for s in design.systems if s.category is category)
        out.append((start, end, total))
        start = end
    return tuple(out)


_ZEROS = (0.0,) * SHIP_FEATURES
_FACING_ONE_HOT = tuple(tuple(float(f == i) for i in range(6)) for f in range(6))


def _rotated(q: int, r: int, facing: int) -> tuple[int, int]:
    """``rotate_ccw(Hex(q, r), facing)`` as a pair (PW-R1)."""
    for _ in range(-facing % 6):
        q, r = -r, q + r
    return q, r


def _ship_features(
    state: BattleState,
    viewer: int,
    ego: ShipState,
    ship: ShipState,
    rules: RuleSet,
    radars: list[tuple[ShipState, int]] | None = None,
) -> list[float]:
    design = state.design_of(ship)
    if radars is None:
        radars = _radars(state, viewer, rules)
    seen = _seen(viewer, radars, ship, rules)
    own = ship.side == viewer
    alive = not (ship.destroyed or ship.disengaged)
    head = [
        1.0,
        1.0 if own else 0.0,
        1.0 if ship.id == ego.id else 0.0,
        1.0 if alive else 0.0,
        1.0 if seen else 0.0,
    ]
    if not seen:
        return head + list(_ZEROS[5:])
    fixed = _totals(design)
    oq, orr = _rotated(ship.q - ego.q, ship.r - ego.r, ego.facing)
    vq, vr = _rotated(ship.vc, -ship.va, ego.facing)
    rng = hex_gap(ego, ship)
    if rng:
        theta = math.radians(relative_bearing_qr(ship.q - ego.q, ship.r - ego.r, ego.facing))
    else:
        theta = 0.0
    intact = ship.intact
    armor = ship.armor
    cap = fixed.cap
    feats = head + [
        oq / 20.0,
        orr / 20.0,
        (rng if rng < 128 else 128) / 64.0,
        math.sin(theta),
        math.cos(theta),
        vq / 12.0,
        vr / 12.0,
        fixed.size,
        1.0 if ship.destroyed else 0.0,
        1.0 if ship.disengaged else 0.0,
        1.0 if power.in_control(ship, design) else 0.0,
        power.ship_radar_rating(ship, design) / 6.0,
        ship.final_damage / fixed.final_damage,
        1.0 if ship.ecm else 0.0,
        1.0 if ship.eccm else 0.0,
        1.0 if ship.invisible else 0.0,
        *_FACING_ONE_HOT[(ship.facing - ego.facing) % 6],
        armor[0] / fixed.armor[0],
        armor[1] / fixed.armor[1],
        armor[2] / fixed.armor[2],
        armor[3] / fixed.armor[3],
        armor[4] / fixed.armor[4],
        armor[5] / fixed.armor[5],
    ]
    boxes = [intact[name] for name in fixed.names]
    feats += [sum(boxes[a:b]) / total if total else 0.0 for a, b, total in fixed.groups]
    feats += [
        len(ship.fired) / fixed.weapons,
        ship.mag_beam / 2.0,
        ship.reinforce / 2.0,
        ship.screen_row / 6.0,
        ship.thrust_used / 6.0,
    ]
    if own:  # the viewer's own record forms and secret plot
        rotation = planned(state, ship.id, DecisionKind.ROTATE) or 0
        thrust = planned(state, ship.id, DecisionKind.THRUST) or 0
        feats += [
            ship.charges / cap,
            planned_charges(state, ship, rules) / cap,
            rotation / 1.0,
            float(thrust > 0),
        ]
    else:
        feats += [0.0] * 4
    return feats


_KIND_FLAGS = {k._name_: tuple(float(k is other) for other in KINDS) for k in KINDS}
_NO_KIND = (0.0,) * len(KINDS)
_WTYPE_FLAGS = {w: tuple(float(w == other) for other in WEAPON_TYPES) for w in WEAPON_TYPES}
_NO_WTYPE = (0.0,) * len(WEAPON_TYPES)


def encode_observation(
    state: BattleState,
    viewer: int,
    decision: Decision | None,
    max_ships: int,
    max_turns: int,
    rules: RuleSet | None = None,
) -> np.ndarray:
    """The ego-centric float32 vector ``viewer`` may know (module docstring)."""
    rules = rules or load_rules()
    ego = ego_ship(state, viewer, decision)
    phase = state.phase
    glob: list[float] = [
        state.turn / max(1, max_turns),
        state.impulse / 12.0,
        float(phase is Phase.POWER),
        float(phase is Phase.ORDERS),
        float(decision is not None),
    ]
    wtype = ""
    if decision is not None:
        glob += _KIND_FLAGS[decision.kind._name_]
        glob.append(decision.index / 8.0)
        if decision.kind is DecisionKind.FIRE:
            wtype = state.design_of(decision.ship).weapons[decision.index].weapon or ""
    else:
        glob += _NO_KIND
        glob.append(0.0)
    glob += _WTYPE_FLAGS.get(wtype, _NO_WTYPE)
    glob += [
        float(state.side_ships(viewer)[0].side),
        len(state.missiles) / 8.0,
        len(state.acid) / 8.0,
        float(len(ego.fired) > 0),
    ]
    ego_id = ego.id
    order = sorted(state.ships, key=lambda s: (s.id != ego_id, s.side != viewer, s.id))
    radars = _radars(state, viewer, rules)
    vec = glob
    for ship in order[:max_ships]:
        vec += _ship_features(state, viewer, ego, ship, rules, radars)
    vec += [0.0] * (obs_size(max_ships) - len(vec))
    out = np.asarray(vec, dtype=np.float32)
    return np.clip(out, -OBS_BOUND, OBS_BOUND, out=out)


def event_dict(event: Event) -> dict[str, Any]:
    """``event.to_dict()`` (kept for callers; ``Event.to_dict`` is the fast form itself)."""
    return event.to_dict()


def visible_events(
    state: BattleState, viewer: int, events: list[Any], rules: RuleSet | None = None
) -> list[dict[str, Any]]:
    """Event dicts ``viewer`` may see: the enemy's record forms and undetected ships hidden."""
    if not events:
        return []
    rules = rules or load_rules()
    radars: list[tuple[ShipState, int]] | None = None
    shown = []
    for event in events:
        data = event_dict(event)
        ship_id = data.get("ship")
        if isinstance(ship_id, int) and state.ships[ship_id].side != viewer:
            if data["type"] in HIDDEN_EVENTS:
                continue
            if radars is None:
                radars = _radars(state, viewer, rules)
            if not _seen(viewer, radars, state.ships[ship_id], rules):
                continue
        shown.append(data)
    return shown
