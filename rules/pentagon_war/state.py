"""Mutable battle state of *The Pentagon War*: plain data, versioned dicts, cheap clones.

The state holds the ship displays as they stand (intact boxes per system, armor rows, radar,
Final Damage), the three record forms of the current turn (capacitor lines, guns fired,
accelerations per impulse), missiles and acid gum in flight, and each side's hidden plot.
"""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field
from typing import Any

from wargym.rules.errors import StateError
from wargym.rules.hexgrid import Hex
from wargym.rules.pentagon_war.records import Options, ShipDesign
from wargym.rules.serial import from_jsonable, to_jsonable
from wargym.rules.state_checks import bounded, counters, in_range, refer

STATE_VERSION = 1


class Phase(enum.Enum):
    """Where a battle stands (PW-R2)."""

    POWER = "power"
    """Impulse 1 power allocation, plotted by both sides in secret."""
    ORDERS = "orders"
    """Rotation, thrust, fire and launch orders, plotted by both sides in secret."""
    OVER = "over"
    """The battle has ended."""


class DecisionKind(enum.Enum):
    """The kind of one plotted decision (compound orders become consecutive decisions)."""

    ECM = "ecm"
    """Buy ECM for the turn (PW-R17)."""
    ECCM = "eccm"
    """Buy ECCM for the turn (PW-R17)."""
    INVISIBILITY = "invisibility"
    """Buy radar invisibility for the turn (PW-R17)."""
    REINFORCE = "reinforce"
    """Reinforce screens by 0..2 (PW-R10)."""
    SCREEN_ROW = "screen_row"
    """Designate the directional screen row 1..6 (PW-R10)."""
    MAG_BEAM = "mag_beam"
    """Arm magnetic-beam defence: 0 off, 1 single, 2 double (PW-R16)."""
    LINK = "link"
    """Link to or unlink from a host (optional PW-R19): 0 keep, 1 change."""
    ROTATE = "rotate"
    """Rotate -1, 0 or +1 hexside (PW-R4)."""
    THRUST = "thrust"
    """Thrust 0..``max_thrust_points_per_impulse`` points along the facing (PW-R5: 0 or 1);
    with omnidirectional thrust one point, 1..6 = direction A..F."""
    FIRE = "fire"
    """Target (or hold) for one weapon system (PW-R8)."""
    LAUNCH = "launch"
    """Target (or hold) for one missile launcher, normal or rail (PW-R15)."""


class Termination(enum.Enum):
    """How a battle ended (PW-R21)."""

    DEFEAT = "defeat"
    """One side was defeated; the other wins."""
    MUTUAL = "mutual"
    """Both sides were defeated in the same impulse: a draw."""
    TRUNCATED = "truncated"
    """The turn limit was reached: no winner."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Result of a finished battle (PW-R21)."""

    termination: Termination
    winner: int | None


@dataclass(frozen=True, slots=True)
class Slot:
    """One pending decision of a side's plot: ship, kind and index (weapon or launcher)."""

    ship: int
    kind: DecisionKind
    index: int = 0


@dataclass(frozen=True, slots=True)
class Order:
    """A plotted decision: the slot and the chosen action ``(kind, value)``."""

    slot: Slot
    action_kind: str
    value: int


@dataclass
class Plot:
    """A side's secret plot for the current phase: decisions left and orders given."""

    queue: list[Slot] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    committed: dict[int, int] = field(default_factory=dict)
    """Charges the plotted orders will cost, per ship (PW-R11)."""


@dataclass
class ShipState:
    """One ship as its SSD and record forms stand (PW-R2..R21)."""

    id: int
    side: int
    design: str
    q: int
    r: int
    facing: int
    va: int
    vc: int
    intact: dict[str, int]
    armor: list[int]
    radar_destroyed: int
    final_damage: int
    alert_status: int = 2
    destroyed: bool = False
    disengaged: bool = False
    charges: int = 0
    power: dict[str, int] = field(default_factory=dict)
    accelerations: list[tuple[int, int]] = field(default_factory=list)
    thrust_used: int = 0
    fired: list[str] = field(default_factory=list)
    launched: int = 0
    missiles_left: int | None = None
    ecm: bool = False
    eccm: bool = False
    invisible: bool = False
    reinforce: int = 0
    screen_row: int = 1
    mag_beam: int = 0
    linked_to: int | None = None
    berth: int | None = None

    @property
    def hex(self) -> Hex:
        """Current hex."""
        return Hex(self.q, self.r)

    @property
    def alive(self) -> bool:
        """Neither destroyed nor disengaged."""
        return not (self.destroyed or self.disengaged)


@dataclass(frozen=True, slots=True)
class Missile:
    """An abstract missile in flight (PW-R15)."""

    id: int
    firer: int
    target: int
    launched_from: tuple[int, int]
    arrive: int


@dataclass(frozen=True, slots=True)
class AcidGum:
    """A pending acid gum packet: target, row, damage, global impulse due (PW-R9)."""

    source: int
    target: int
    row: int
    damage: int
    due: int
    packet: int
    screened: bool


@dataclass
class BattleState:
    """The whole battle; ``to_dict``/``from_dict`` give a stable versioned form."""

    scenario: str
    options: Options
    designs: dict[str, ShipDesign]
    ships: list[ShipState]
    turn: int = 1
    impulse: int = 1
    phase: Phase = Phase.POWER
    plots: list[Plot] = field(default_factory=lambda: [Plot(), Plot()])
    missiles: list[Missile] = field(default_factory=list)
    acid: list[AcidGum] = field(default_factory=list)
    next_missile: int = 0
    outcome: Outcome | None = None

    def design_of(self, ship: ShipState | int) -> ShipDesign:
        """The SSD of ``ship``."""
        record = self.ships[ship] if isinstance(ship, int) else ship
        return self.designs[record.design]

    @property
    def global_impulse(self) -> int:
        """``g = 12 (turn - 1) + impulse`` (§1)."""
        return 12 * (self.turn - 1) + self.impulse

    def side_ships(self, side: int) -> list[ShipState]:
        """Ships of ``side`` in id order."""
        return [s for s in self.ships if s.side == side]

    def clone(self) -> BattleState:
        """A deep copy sharing only the immutable designs and options."""
        twin = copy.copy(self)
        twin.ships = [copy.deepcopy(s) for s in self.ships]
        twin.plots = [Plot(list(p.queue), list(p.orders), dict(p.committed)) for p in self.plots]
        twin.missiles = list(self.missiles)
        twin.acid = list(self.acid)
        return twin

    def to_dict(self) -> dict[str, Any]:
        """Versioned JSON-compatible form (designs included, so it is self-contained)."""
        data = to_jsonable(self)
        assert isinstance(data, dict)
        return {"version": STATE_VERSION, **data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleState:
        """Rebuild a state from :meth:`to_dict` output; rejects other versions."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise StateError(f"expected a battle state of version {STATE_VERSION}")
        body = {k: v for k, v in data.items() if k != "version"}
        bounded("state", body)
        state = from_jsonable(cls, body, "state")
        assert isinstance(state, BattleState)
        check_state(state)
        return state


def check_state(state: BattleState) -> None:
    """Raise StateError naming the first field of ``state`` outside the rules (issue 21).

    Designs must be the packaged SSDs, every ship's boxes, armour and counters within its
    design, and every reference (ship ids of plots, missiles, acid gum and links; system names)
    must resolve. Numbers are bounded before (:func:`~wargym.rules.state_checks.bounded`).
    """
    from wargym.rules.pentagon_war.data import load_rules

    rules = load_rules()
    for key, design in state.designs.items():
        if rules.designs.get(key) != design:
            raise StateError(f"state.designs.{key}: not the packaged design of that name")
    o = state.options
    in_range("state.options.max_turns", o.max_turns, 1, 1000)
    in_range("state.options.map_radius", o.map_radius, 1, 1000, none=True)
    in_range("state.options.missile_magazine", o.missile_magazine, 0, 1000, none=True)
    ids = range(len(state.ships))
    if not 2 <= len(state.ships) <= 64:
        raise StateError(f"state.ships: {len(state.ships)} ships (2..64)")
    for i, ship in enumerate(state.ships):
        _check_ship(state, i, ship, ids)
    in_range("state.turn", state.turn, 1, o.max_turns + 1)
    in_range("state.impulse", state.impulse, 1, 12)
    if len(state.plots) != 2:
        raise StateError(f"state.plots: {len(state.plots)} plots; expected one per side")
    for side, plot in enumerate(state.plots):
        where = f"state.plots[{side}]"
        for k, slot in enumerate([*plot.queue, *(order.slot for order in plot.orders)]):
            refer(f"{where}.slot[{k}].ship", slot.ship, ids, "ship id")
            in_range(f"{where}.slot[{k}].index", slot.index, 0, 64)
        for ship_id, charges in plot.committed.items():
            refer(f"{where}.committed.{ship_id}", ship_id, ids, "ship id")
            in_range(f"{where}.committed.{ship_id}", charges, 0, 1000)
    for k, missile in enumerate(state.missiles):
        refer(f"state.missiles[{k}].firer", missile.firer, ids, "ship id")
        refer(f"state.missiles[{k}].target", missile.target, ids, "ship id")
    for k, gum in enumerate(state.acid):
        refer(f"state.acid[{k}].source", gum.source, ids, "ship id")
        refer(f"state.acid[{k}].target", gum.target, ids, "ship id")
        in_range(f"state.acid[{k}].row", gum.row, 1, 6)
    if (state.phase is Phase.OVER) != (state.outcome is not None):
        raise StateError("state.outcome: present exactly when the phase is over")
    if state.outcome is not None and state.outcome.winner is not None:
        in_range("state.outcome.winner", state.outcome.winner, 0, 1)


def _check_ship(state: BattleState, i: int, ship: ShipState, ids: range) -> None:
    where = f"state.ships[{i}]"
    in_range(f"{where}.id", ship.id, i, i)
    in_range(f"{where}.side", ship.side, 0, 1)
    refer(f"{where}.design", ship.design, state.designs, "design")
    design = state.designs[ship.design]
    boxes = {spec.name: spec.boxes for spec in design.systems}
    if set(ship.intact) != set(boxes):
        raise StateError(f"{where}.intact: the systems are not those of {design.key}")
    counters(f"{where}.intact", ship.intact, boxes, "system")
    for line, charges in ship.power.items():  # record-form lines, not systems
        in_range(f"{where}.power.{line}", charges, -1000, 1000)
    for k, name in enumerate(ship.fired):
        refer(f"{where}.fired[{k}]", name, boxes, "system")
    if len(ship.armor) != len(design.armor):
        raise StateError(
            f"{where}.armor: {len(ship.armor)} rows; {design.key} has {len(design.armor)}"
        )
    for row, (value, full) in enumerate(zip(ship.armor, design.armor, strict=True)):
        in_range(f"{where}.armor[{row}]", value, 0, full)
    in_range(f"{where}.radar_destroyed", ship.radar_destroyed, 0, len(design.radar_track))
    in_range(f"{where}.final_damage", ship.final_damage, 0, design.final_damage)
    in_range(f"{where}.facing", ship.facing, 0, 5)
    in_range(f"{where}.alert_status", ship.alert_status, 0, 2)
    in_range(f"{where}.screen_row", ship.screen_row, 1, 6)
    in_range(f"{where}.mag_beam", ship.mag_beam, 0, 2)
    in_range(f"{where}.reinforce", ship.reinforce, 0, 2)
    in_range(f"{where}.berth", ship.berth, 1, 6, none=True)
    for name in ("charges", "thrust_used", "launched"):
        in_range(f"{where}.{name}", getattr(ship, name), 0, 1000)
    in_range(f"{where}.missiles_left", ship.missiles_left, 0, 1000, none=True)
    if ship.linked_to is not None:
        refer(f"{where}.linked_to", ship.linked_to, [j for j in ids if j != i], "ship id")
    if len(ship.accelerations) > 64:
        raise StateError(f"{where}.accelerations: more than 64")
