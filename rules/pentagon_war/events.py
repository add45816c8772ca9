"""Typed events of *The Pentagon War*: every resolved rule with its inputs and dice faces."""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.events import Event, EventRegistry


@dataclass(frozen=True)
class TurnStarted(Event):
    """A new turn begins (PW-R2)."""

    turn: int


@dataclass(frozen=True)
class CapacitorsCharged(Event):
    """Capacitors refilled: line 1 of the capacitor record (PW-R11)."""

    ship: int
    charges: int
    capacity: int
    alert_status: int | None


@dataclass(frozen=True)
class PowerAllocated(Event):
    """A ship's impulse-1 power allocation, revealed (PW-R10, R11, R16, R17)."""

    ship: int
    ecm: bool
    eccm: bool
    invisible: bool
    reinforce: int
    screen_row: int
    mag_beam: int
    charges_spent: int


@dataclass(frozen=True)
class ShipMoved(Event):
    """One impulse of movement from the chart (§2.10, PW-R3)."""

    ship: int
    turn: int
    impulse: int
    steps: str
    path: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ShipDisengaged(Event):
    """A ship left the map disc and counts as destroyed (PW-R21)."""

    ship: int
    at: tuple[int, int]


@dataclass(frozen=True)
class LinkChanged(Event):
    """A small craft linked to or unlinked from its host (optional PW-R19)."""

    ship: int
    host: int
    linked: bool
    berth: int | None


@dataclass(frozen=True)
class ShipRotated(Event):
    """A ship turned one hexside (PW-R4)."""

    ship: int
    facing_before: int
    facing_after: int


@dataclass(frozen=True)
class ThrustRecorded(Event):
    """A thrust point recorded as an acceleration of this impulse (PW-R5)."""

    ship: int
    impulse: int
    direction: int
    da: int
    dc: int


@dataclass(frozen=True)
class ShotFired(Event):
    """A direct-fire shot with its roll (§2.1-2.7, PW-R8)."""

    firer: int
    weapon: str
    weapon_type: str
    target: int
    range: int
    faces: tuple[int, ...]
    size_class: int
    penalty: int
    ecm: int
    modified_roll: int
    hit: bool
    damage: int
    kill: bool
    charges: int
    capacitor_line: str | None


@dataclass(frozen=True)
class MagneticDeflection(Event):
    """A magnetic-beam deflection roll against a liquid-metal-gun hit (PW-R16)."""

    target: int
    faces: tuple[int, ...]
    needed: int
    deflected: bool


@dataclass(frozen=True)
class MissileLaunched(Event):
    """A missile launch; it arrives on global impulse ``arrive`` (PW-R15)."""

    missile: int
    firer: int
    target: int
    rail: bool
    range: int
    arrive: int
    charges: int


@dataclass(frozen=True)
class MissileArrived(Event):
    """A missile reached its target; point defence may have engaged it (PW-R15)."""

    missile: int
    target: int
    pd_faces: tuple[int, ...]
    intercepted: bool


@dataclass(frozen=True)
class MissileLost(Event):
    """A missile whose target is gone (PW-R15)."""

    missile: int
    target: int


@dataclass(frozen=True)
class DamageApplied(Event):
    """One hit through screens and armor (PW-R9)."""

    target: int
    source: str
    row: int
    damage: int
    screen: int
    after_screen: int
    absorbed: int
    internal: int


@dataclass(frozen=True)
class DamageAllocated(Event):
    """One internal point on the damage allocation chart (§2.8).

    ``rolls`` are the (dark, light) pairs in order, ``discarded`` the identical repeats,
    ``system`` the system that lost a box (None for Final Damage or destruction).
    """

    target: int
    rolls: tuple[tuple[int, int], ...]
    discarded: tuple[tuple[int, int], ...]
    results: tuple[str, ...]
    result: str
    system: str | None
    pick_faces: tuple[int, ...]


@dataclass(frozen=True)
class PowerLost(Event):
    """Unspent charge lost with a destroyed capacitor box: line 12 (PW-R11)."""

    ship: int
    charges: int


@dataclass(frozen=True)
class ShipDestroyed(Event):
    """A ship is destroyed (§2.8 Final Damage exhausted, or a kill)."""

    ship: int
    cause: str


@dataclass(frozen=True)
class VelocityUpdated(Event):
    """End of turn: the total acceleration is added to the velocity (PW-R5)."""

    ship: int
    before: tuple[int, int]
    acceleration: tuple[int, int]
    after: tuple[int, int]


@dataclass(frozen=True)
class SystemRepaired(Event):
    """Optional repair rule: one box restored at turn end (PW-R18)."""

    ship: int
    system: str


@dataclass(frozen=True)
class BattleEnded(Event):
    """The battle is over (PW-R21)."""

    termination: str
    winner: int | None
    turn: int
    impulse: int


EVENT_CLASSES: tuple[type[Event], ...] = (
    TurnStarted,
    CapacitorsCharged,
    PowerAllocated,
    ShipMoved,
    ShipDisengaged,
    LinkChanged,
    ShipRotated,
    ThrustRecorded,
    ShotFired,
    MagneticDeflection,
    MissileLaunched,
    MissileArrived,
    MissileLost,
    DamageApplied,
    DamageAllocated,
    PowerLost,
    ShipDestroyed,
    VelocityUpdated,
    SystemRepaired,
    BattleEnded,
)

REGISTRY = EventRegistry(EVENT_CLASSES)
"""Rebuilds Pentagon War events from their dicts."""
