"""Order decisions: compound orders split into consecutive choices (TR-R3, style guide §5.4).

Per ship and round: heading, acceleration, black-globe flicker (if any), then for each offensive
weapon type a run of ``Fire`` choices closed by ``HoldFire``, then the boarding declaration and,
after a declared boarding, the share of the troops committed to it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wargym.rules.starship_combat.hexmap import DIRECTION_NAMES


class DecisionKind(enum.Enum):
    """What is being decided (TR-R3)."""

    HEADING = "heading"
    """The ship's heading for the round (TR-R4)."""
    ACCEL = "accel"
    """Acceleration direction and magnitude (TR-R4)."""
    FLICKER = "flicker"
    """Black globe flicker rate (TR-R24)."""
    FIRE = "fire"
    """Fire allocation of one weapon type (TR-R3, TR-R20)."""
    BOARD = "board"
    """Boarding declaration (TR-R22)."""
    BOARD_TROOPS = "board_troops"
    """Troops committed to a declared boarding: up to all of them (TR-R22)."""


@dataclass(frozen=True, slots=True)
class SetHeading:
    """Face direction ``direction`` (0-5 = A-F) this round (TR-R4)."""

    direction: int

    def __str__(self) -> str:
        return f"heading {DIRECTION_NAMES[self.direction]}"


@dataclass(frozen=True, slots=True)
class Accelerate:
    """Accelerate ``magnitude`` G in ``direction``; (0, 0) is no thrust (TR-R4)."""

    direction: int
    magnitude: int

    def __str__(self) -> str:
        if self.magnitude == 0:
            return "no thrust"
        return f"accelerate {self.magnitude}G toward {DIRECTION_NAMES[self.direction]}"


@dataclass(frozen=True, slots=True)
class SetFlicker:
    """Black globe flicker rate in percent (TR-R24)."""

    pct: int

    def __str__(self) -> str:
        return f"black globe flicker {self.pct}%"


@dataclass(frozen=True, slots=True)
class Fire:
    """Fire ``batteries`` batteries of the current weapon type at ship ``target`` (TR-R3)."""

    target: int
    batteries: int

    def __str__(self) -> str:
        return f"fire {self.batteries} batteries at ship {self.target}"


@dataclass(frozen=True, slots=True)
class HoldFire:
    """No (further) fire with the current weapon type."""

    def __str__(self) -> str:
        return "hold fire"


@dataclass(frozen=True, slots=True)
class Board:
    """Declare a boarding of ship ``target``, or none (TR-R22)."""

    target: int | None

    def __str__(self) -> str:
        return "no boarding" if self.target is None else f"board ship {self.target}"


@dataclass(frozen=True, slots=True)
class CommitTroops:
    """Commit ``ceil(troops x tenths / 10)`` of the ship's troops to its boarding (TR-R22)."""

    tenths: int

    def __str__(self) -> str:
        return f"commit {10 * self.tenths}% of the troops"


Action = SetHeading | Accelerate | SetFlicker | Fire | HoldFire | Board | CommitTroops
"""Any order decision."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision point: who decides, about which ship and weapon, and the legal options."""

    side: int
    ship: int
    kind: DecisionKind
    weapon: str | None
    options: tuple[Action, ...]
