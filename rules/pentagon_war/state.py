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
    """Thrust 0 or 1 point (PW-R5); with omnidirectional thrust 1..6 = direction A..F."""
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
        state = from_jsonable(cls, body, "state")
        assert isinstance(state, BattleState)
        return state
