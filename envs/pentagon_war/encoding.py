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

from wargym.rules.hexgrid import Hex, distance, rotate_ccw
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision, planned, planned_charges
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.records import Category, RuleSet
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase, ShipState
from wargym.rules.pentagon_war.weapons import relative_bearing

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
        base = {ActionKind.FIRE: 0, ActionKind.LAUNCH: 1, ActionKind.RAIL_LAUNCH: 2}[kind]
        return 11 + base * self.max_ships + value

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
            for action in decision.options:
                out[self.encode(action)] = 1
        return out


def obs_size(max_ships: int) -> int:
    """Length of the observation vector."""
    return GLOBAL_FEATURES + SHIP_FEATURES * max_ships


def detected(state: BattleState, viewer: int, ship: ShipState, rules: RuleSet) -> bool:
    """Whether ``viewer``'s radar shows ``ship`` (PW-R12, R17); own ships always."""
    if ship.side == viewer:
        return True
    if not ship.alive:
        return True
    for own in state.side_ships(viewer):
        if not own.alive:
            continue
        reach = power.ship_radar_range(own, state.design_of(own), rules)
        if ship.invisible:
            reach = min(reach, rules.systems.invisibility_max_range)
        if distance(own.hex, ship.hex) <= reach:
            return True
    return False


def ego_ship(state: BattleState, viewer: int, decision: Decision | None) -> ShipState:
    """The deciding ship, else the viewer's first ship in play, else its first ship."""
    if decision is not None:
        return state.ships[decision.ship]
    own = state.side_ships(viewer)
    return next((s for s in own if s.alive), own[0])


def _ship_features(
    state: BattleState, viewer: int, ego: ShipState, ship: ShipState, rules: RuleSet
) -> list[float]:
    design = state.design_of(ship)
    seen = detected(state, viewer, ship, rules)
    own = ship.side == viewer
    head = [1.0, float(own), float(ship.id == ego.id), float(ship.alive), float(seen)]
    if not seen:
        return head + [0.0] * (SHIP_FEATURES - len(head))
    offset = rotate_ccw(ship.hex - ego.hex, ego.facing)
    vel = rotate_ccw(Hex(ship.vc, -ship.va), ego.facing)
    rng = distance(ego.hex, ship.hex)
    theta = math.radians(relative_bearing(ego.hex, ego.facing, ship.hex)) if rng else 0.0
    cap = max(1, sum(s.boxes for s in design.systems if s.category is Category.CAPACITOR))
    feats = head + [
        offset.q / 20.0,
        offset.r / 20.0,
        min(rng, 128) / 64.0,
        math.sin(theta),
        math.cos(theta),
        vel.q / 12.0,
        vel.r / 12.0,
        design.size_class / 3.0,
        float(ship.destroyed),
        float(ship.disengaged),
        float(power.in_control(ship, design)),
        power.ship_radar_rating(ship, design) / 6.0,
        ship.final_damage / max(1, design.final_damage),
        float(ship.ecm),
        float(ship.eccm),
        float(ship.invisible),
    ]
    rel_facing = (ship.facing - ego.facing) % 6
    feats += [float(rel_facing == i) for i in range(6)]
    feats += [ship.armor[i] / max(1, design.armor[i]) for i in range(6)]
    for category in CATEGORIES:
        total = sum(s.boxes for s in design.systems if s.category is category)
        feats.append(power.intact_in(ship, design, category) / total if total else 0.0)
    weapons = design.weapons
    feats += [
        len(ship.fired) / max(1, len(weapons)),
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
    glob = [
        state.turn / max(1, max_turns),
        state.impulse / 12.0,
        float(state.phase is Phase.POWER),
        float(state.phase is Phase.ORDERS),
        float(decision is not None),
    ]
    glob += [float(decision is not None and decision.kind is k) for k in KINDS]
    glob.append(decision.index / 8.0 if decision is not None else 0.0)
    wtype = ""
    if decision is not None and decision.kind is DecisionKind.FIRE:
        wtype = state.design_of(decision.ship).weapons[decision.index].weapon or ""
    glob += [float(wtype == w) for w in WEAPON_TYPES]
    glob += [
        float(state.side_ships(viewer)[0].side),
        len(state.missiles) / 8.0,
        len(state.acid) / 8.0,
        float(len(ego.fired) > 0),
    ]
    order = sorted(state.ships, key=lambda s: (s.id != ego.id, s.side != viewer, s.id))
    vec = glob
    for ship in order[:max_ships]:
        vec += _ship_features(state, viewer, ego, ship, rules)
    vec += [0.0] * (obs_size(max_ships) - len(vec))
    return np.clip(np.asarray(vec, dtype=np.float32), -OBS_BOUND, OBS_BOUND)


def visible_events(
    state: BattleState, viewer: int, events: list[Any], rules: RuleSet | None = None
) -> list[dict[str, Any]]:
    """Event dicts ``viewer`` may see: the enemy's record forms and undetected ships hidden."""
    rules = rules or load_rules()
    shown = []
    for event in events:
        data = event.to_dict()
        ship_id = data.get("ship")
        if isinstance(ship_id, int) and state.ships[ship_id].side != viewer:
            if data["type"] in HIDDEN_EVENTS:
                continue
            if not detected(state, viewer, state.ships[ship_id], rules):
                continue
        shown.append(data)
    return shown
