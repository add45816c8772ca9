"""Flat action codec, observation encoder and renderers for the starship combat envs.

Action layout (``ActionCodec``, sizes from the scenario maxima, ``n`` = 89 for the shipped
scenarios):

======================  =====================================================
indices                 meaning
======================  =====================================================
``0..5``                heading A-F
``6``                   no thrust
``7..7+6*G-1``          thrust ``m`` G toward ``d``: ``7 + 6*(m-1) + d``
next 11                 black globe flicker 0 %, 10 %, ..., 100 %
next 1                  hold fire (close the current weapon type)
next ``S*B``            fire ``k`` batteries at enemy slot ``j``: ``j*B + (k-1)``
next ``1+S``            no boarding, then board enemy slot ``j``
next 10                 commit ``k`` tenths of the troops to the boarding
======================  =====================================================

``S`` is the most ships a side fields, ``B`` the most batteries one order may commit, ``G`` the
highest maneuver rating. Enemy slot ``j`` is the ``j``-th ship of the other side (id order).

The observation is a float32 vector, relative to the viewer: a block of features for each of
the viewer's ship slots, then each enemy slot, then the decision context. With the sensor
option, an enemy the viewer's side has not detected is encoded as zeros (fog of war).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from wargym.envs.starship_combat.render import render_rgb as render_rgb  # the frame, re-exported
from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.actions import (
    Accelerate,
    Action,
    Board,
    CommitTroops,
    Decision,
    DecisionKind,
    Fire,
    HoldFire,
    SetFlicker,
    SetHeading,
)
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.game import decision
from wargym.rules.starship_combat.state import (
    BattleState,
    ShipState,
    current_g,
    design_of,
    hull_limits,
    power_steps,
    record_of,
)

ACTION_VERSION = "sc-act-v1"
"""Action layout version: v1 adds the troop commitment block (TR-R22)."""
OBS_VERSION = "sc-obs-v1"
"""Observation layout version: v1 adds the ``board_troops`` decision kind."""
SHIP_FEATURES = 20
KINDS = tuple(DecisionKind)
MAX_WEAPONS = 6


@dataclass(frozen=True)
class ActionCodec:
    """Maps order decisions to flat integers and back (module docstring layout)."""

    slots: int
    batteries: int
    max_g: int

    @property
    def heading0(self) -> int:
        """First heading index."""
        return 0

    @property
    def accel0(self) -> int:
        """Index of "no thrust"."""
        return 6

    @property
    def flicker0(self) -> int:
        """Index of flicker 0 %."""
        return self.accel0 + 1 + 6 * self.max_g

    @property
    def hold(self) -> int:
        """Index of hold fire."""
        return self.flicker0 + 11

    @property
    def fire0(self) -> int:
        """First fire index."""
        return self.hold + 1

    @property
    def board0(self) -> int:
        """Index of "no boarding"."""
        return self.fire0 + self.slots * self.batteries

    @property
    def troops0(self) -> int:
        """Index of "commit 10 % of the troops"."""
        return self.board0 + 1 + self.slots

    @property
    def n(self) -> int:
        """Number of actions."""
        return self.troops0 + 10

    def encode(self, action: Action, state: BattleState, side: int) -> int:
        """Index of ``action`` for ``side``."""
        enemies = [s.id for s in state.side_ships(1 - side)]
        match action:
            case SetHeading(direction=d):
                return self.heading0 + d
            case Accelerate(direction=d, magnitude=m):
                return self.accel0 if m == 0 else self.accel0 + 1 + 6 * (m - 1) + d
            case SetFlicker(pct=p):
                return self.flicker0 + p // 10
            case HoldFire():
                return self.hold
            case Fire(target=t, batteries=k):
                return self.fire0 + enemies.index(t) * self.batteries + k - 1
            case Board(target=t):
                return self.board0 if t is None else self.board0 + 1 + enemies.index(t)
            case CommitTroops(tenths=k):
                return self.troops0 + k - 1
        raise ValueError(action)

    def decode(self, index: int, state: BattleState, side: int) -> Action | None:
        """The action at ``index`` for ``side`` (None for an unused slot)."""
        enemies = [s.id for s in state.side_ships(1 - side)]
        if index < self.accel0:
            return SetHeading(index)
        if index < self.flicker0:
            if index == self.accel0:
                return Accelerate(0, 0)
            m, d = divmod(index - self.accel0 - 1, 6)
            return Accelerate(d, m + 1)
        if index < self.hold:
            return SetFlicker(10 * (index - self.flicker0))
        if index == self.hold:
            return HoldFire()
        if index < self.board0:
            j, k = divmod(index - self.fire0, self.batteries)
            return Fire(enemies[j], k + 1) if j < len(enemies) else None
        if index >= self.troops0:
            return CommitTroops(index - self.troops0 + 1) if index < self.n else None
        j = index - self.board0 - 1
        if j < 0:
            return Board(None)
        return Board(enemies[j]) if j < len(enemies) else None

    def mask(self, state: BattleState, side: int) -> np.ndarray:
        """Exact int8 mask of the legal actions of ``side`` (zeros when not deciding)."""
        return self.mask_of(decision(state, side), state, side)

    def mask_of(self, d: Decision | None, state: BattleState, side: int) -> np.ndarray:
        """The mask of decision ``d`` of ``side`` (``decision(state, side)``)."""
        out = np.zeros(self.n, dtype=np.int8)
        if d is not None and d.options:
            out[self.indices(d.options, state, side)] = 1
        return out

    def indices(self, options: Iterable[Action], state: BattleState, side: int) -> list[int]:
        """``[encode(a, state, side) for a in options]``, with the layout looked up once."""
        enemies = {s.id: j for j, s in enumerate(state.side_ships(1 - side))}
        heading0, accel0, flicker0, hold = self.heading0, self.accel0, self.flicker0, self.hold
        fire0, board0, batteries = self.fire0, self.board0, self.batteries
        out = []
        for action in options:  # the cases of ``encode``, in its order
            if isinstance(action, SetHeading):
                out.append(heading0 + action.direction)
            elif isinstance(action, Accelerate):
                m = action.magnitude
                out.append(accel0 if m == 0 else accel0 + 1 + 6 * (m - 1) + action.direction)
            elif isinstance(action, SetFlicker):
                out.append(flicker0 + action.pct // 10)
            elif isinstance(action, HoldFire):
                out.append(hold)
            elif isinstance(action, Fire):
                out.append(fire0 + enemies[action.target] * batteries + action.batteries - 1)
            elif isinstance(action, Board):
                t = action.target
                out.append(board0 if t is None else board0 + 1 + enemies[t])
            elif isinstance(action, CommitTroops):
                out.append(self.troops0 + action.tenths - 1)
            else:
                out.append(self.encode(action, state, side))
        return out


class MaskCache:
    """Each side's mask, recomputed only when the engine hands out a new decision object.

    ``game.decision`` memoises its decision until the engine touches the state, so the same
    decision object means the same options. Returned arrays are shared: copy them before
    handing them to a user.
    """

    def __init__(self, codec: ActionCodec) -> None:
        self.codec = codec
        self._cache: list[tuple[Decision | None, BattleState, np.ndarray] | None] = [None, None]

    def get(self, state: BattleState, side: int) -> np.ndarray:
        """The (shared) int8 mask of ``side`` now."""
        d = decision(state, side)
        cached = self._cache[side]
        if cached is None or cached[0] is not d or cached[1] is not state:
            cached = self._cache[side] = (d, state, self.codec.mask_of(d, state, side))
        return cached[2]


@cache
def default_codec() -> ActionCodec:
    """The codec sized by the maxima of every shipped scenario and design."""
    rules = load_rules()
    slots = max(len(side) for sc in rules.scenarios.values() for side in sc.sides)
    batteries = 1
    for sc in rules.scenarios.values():
        for side in sc.sides:
            for dep in side:
                for w in rules.ships[dep.design].weapons:
                    batteries = max(batteries, w.bearing * max(1, dep.craft))
    max_g = max(d.maneuver_g for d in rules.ships.values())
    return ActionCodec(slots, batteries, max_g)


def obs_size(codec: ActionCodec) -> int:
    """Length of the observation vector."""
    return 2 * codec.slots * SHIP_FEATURES + len(KINDS) + codec.slots + MAX_WEAPONS + 3


@cache
def _fixed(design: str) -> tuple[int, int, int, int, int, int, int]:
    """Design constants of the ship block: weapons and screens totals, record maxima."""
    rec, troops = record_of(design), load_rules().ships[design].troops
    return (
        sum(v for _k, v in rec.weapons) or 1,
        sum(v for _k, v in rec.screens) or 1,
        max(1, rec.computer),
        max(1, rec.crew),
        max(1, rec.sensors),
        max(1, rec.fuel.total_days),
        max(1, troops),
    )


def _ship_features(state: BattleState, ship: ShipState) -> list[float]:
    rules, opts = load_rules(), state.options
    weapons0, screens0, computer, crew, sensors, fuel, troops = _fixed(ship.design)
    inop, dest = hull_limits(ship, opts)
    radius = float(rules.map_radius)
    return [
        1.0, 1.0 if ship.out else 0.0, ship.pos[0] / radius, ship.pos[1] / radius,
        ship.vel[0] / 10.0, ship.vel[1] / 10.0, ship.heading / 5.0, ship.armor / 120.0,
        ship.hull_dmg / dest, 1.0 if ship.hull_dmg >= inop else 0.0,
        current_g(ship, rules, opts) / 6.0, power_steps(ship, rules, opts) / 10.0,
        ship.computer / computer, ship.crew / crew,
        ship.sensors / sensors, ship.fuel / fuel,
        sum(ship.weapons.values()) / weapons0, sum(ship.screens.values()) / screens0,
        ship.troops / troops, ship.flicker / 100.0,
    ]  # fmt: skip


def encode_observation(state: BattleState, viewer: int, codec: ActionCodec) -> np.ndarray:
    """What ``viewer`` may know, as a float32 vector (fog of war with the sensor option)."""
    fog = state.options.sensors
    seen = set(state.detected.get(viewer, [])) if fog else set()
    vec: list[float] = []
    for side in (viewer, 1 - viewer):
        ships = state.side_ships(side)
        for slot in range(codec.slots):
            if slot < len(ships):
                ship = ships[slot]
                if side == viewer or not fog or ship.id in seen:
                    vec += _ship_features(state, ship)
                    continue
            vec += _ZEROS
    context = [0.0] * (len(KINDS) + codec.slots + MAX_WEAPONS)
    d = decision(state, viewer)
    if d is not None:
        context[KINDS.index(d.kind)] = 1.0
        own = [s.id for s in state.side_ships(viewer)]
        context[len(KINDS) + own.index(d.ship)] = 1.0
        if d.weapon is not None:
            keys = [w.key for w in design_of(state.ship(d.ship)).weapons]
            context[len(KINDS) + codec.slots + min(keys.index(d.weapon), MAX_WEAPONS - 1)] = 1.0
    vec += context
    rules = load_rules()
    vec.append(state.round / float(state.options.max_rounds or rules.max_rounds))
    vec.append(1.0 if state.phase == "fire_orders" else 0.0)
    vec.append(1.0 if fog else 0.0)
    out = np.array(vec, dtype=np.float32)
    return np.clip(out, -2.0, 2.0, out=out)


_ZEROS = (0.0,) * SHIP_FEATURES


def render_ansi(state: BattleState) -> str:
    """Text board: a hex map window with ship letters (side 0 upper case) and a status list."""
    ships = [s for s in state.ships if not s.destroyed and not s.disengaged]
    qs = [s.pos[0] for s in ships] or [0]
    rs = [s.pos[1] for s in ships] or [0]
    at = {s.pos: chr((65 if s.side == 0 else 97) + s.id) for s in ships}
    lines = [f"round {state.round} phase {state.phase}" + (" OVER" if state.over else "")]
    for r in range(min(rs) - 1, max(rs) + 2):
        row = " " * ((r - min(rs) + 1) % 2)
        row += " ".join(at.get((q, r - (q - min(qs)) // 2), ".")
                        for q in range(min(qs) - 1, max(qs) + 2))  # fmt: skip
        lines.append(row)
    for s in state.ships:
        lines.append(
            f"{chr((65 if s.side == 0 else 97) + s.id)} {s.design} side {s.side} at {s.pos} "
            f"v {s.vel} hdg {hexmap.DIRECTION_NAMES[s.heading]} armor {s.armor} hull {s.hull_dmg}"
            f" crew {s.crew} fuel {s.fuel} {s.out}"
        )
    return "\n".join(lines) + "\n"
