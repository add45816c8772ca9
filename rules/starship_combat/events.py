"""Events of the starship combat engine: one frozen record per resolved rule, with its dice.

Every event serialises with ``to_dict()``; :data:`REGISTRY` rebuilds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.events import Event, EventRegistry


@dataclass(frozen=True)
class OrdersRevealed(Event):
    """A ship's hidden orders, revealed when the round resolves (TR-R3)."""

    ship: int
    heading: int
    accel_dir: int
    accel_mag: int
    flicker_pct: int
    fire: tuple[tuple[str, int, int], ...]
    board_target: int | None


@dataclass(frozen=True)
class ShipMoved(Event):
    """Vector movement of one ship (TR-R4)."""

    ship: int
    start: tuple[int, int]
    end: tuple[int, int]
    velocity: tuple[int, int]
    heading: int
    disengaged: bool


@dataclass(frozen=True)
class DetectionRolled(Event):
    """An optional sensor detection task (§2.14, TR-R5 option)."""

    observer: int
    target: int
    faces: tuple[int, ...]
    dm: int
    target_number: int
    detected: bool


@dataclass(frozen=True)
class FireCancelled(Event):
    """Ordered fire that the rules do not allow at resolution (TR-R16, TR-R19, TR-R20)."""

    ship: int
    weapon: str
    target: int
    batteries: int
    reason: str


@dataclass(frozen=True)
class ToHitRolled(Event):
    """The batched (or per-battery) to-hit task of one weapon type at one target (§2.1)."""

    ship: int
    weapon: str
    target: int
    batteries: int
    faces: tuple[int, ...]
    dm: int
    modified: int
    target_number: int
    tenths: int
    hits: int
    exceptional: bool


@dataclass(frozen=True)
class PenetrationRolled(Event):
    """Penetration of one defence by the batteries that hit (§2.2, TR-R8)."""

    ship: int
    weapon: str
    target: int
    defence: str
    batteries: int
    defence_batteries: int
    ratio_dm: int
    faces: tuple[int, ...]
    modified: int
    target_number: int
    tenths: int
    penetrating: int


@dataclass(frozen=True)
class ArmorRolled(Event):
    """Armour penetration task of one battery (§2.6)."""

    ship: int
    weapon: str
    target: int
    faces: tuple[int, ...]
    need: int
    penetrated: bool


@dataclass(frozen=True)
class DamageRolled(Event):
    """One roll on a damage table (§2.7)."""

    target: int
    table: str
    faces: tuple[int, ...]
    dm: int
    modified: int
    result: str
    dp: int
    ucp: int


@dataclass(frozen=True)
class HullShareRolled(Event):
    """The hull share of an interior hit, with the 1D for DP 1-2 (§2.4, TR-R10)."""

    target: int
    dp: int
    faces: tuple[int, ...]
    hull_points: int
    interior_dp: int


@dataclass(frozen=True)
class ComponentDamaged(Event):
    """Damage written to a track or boxes (TR-R11); ``before``/``after`` are the counters."""

    ship: int
    component: str
    amount: int
    before: int
    after: int


@dataclass(frozen=True)
class CriticalRolled(Event):
    """A roll on the critical hit table (TR-R13)."""

    ship: int
    faces: tuple[int, ...]
    result: str


@dataclass(frozen=True)
class BoxChosen(Event):
    """A uniform random choice among boxes or types (TR-R11, D-11)."""

    ship: int
    among: tuple[str, ...]
    faces: tuple[int, ...]
    chosen: str


@dataclass(frozen=True)
class FuelLeakStarted(Event):
    """A fuel leak begins (§2.11, TR-R17)."""

    ship: int
    hull_rate: bool
    faces: tuple[int, ...]
    turns: int


@dataclass(frozen=True)
class FuelLeaked(Event):
    """End-of-round fuel loss of a leak (§2.11, TR-R17)."""

    ship: int
    faces: tuple[int, ...]
    days: int
    remaining: int


@dataclass(frozen=True)
class FrozenWatchRevived(Event):
    """Frozen-watch segments replace lost crew (TR-R14)."""

    ship: int
    segments: int


@dataclass(frozen=True)
class BoardingResolved(Event):
    """A quick boarding action (§2.17, TR-R22)."""

    attackers: tuple[int, ...]
    target: int
    attacking_troops: int
    defending_troops: int
    faces: tuple[int, ...]
    modified: int
    target_number: int
    level: str
    attacker_loss: int
    defender_loss: int
    crew_segments_lost: int
    captured: bool


@dataclass(frozen=True)
class ExplosionHit(Event):
    """A craft near a vaporised captured ship is hit by the blast (§2.17, TR-R23)."""

    source: int
    target: int
    ucp: int


@dataclass(frozen=True)
class ShipOut(Event):
    """A ship or squadron leaves the fight (TR-R25)."""

    ship: int
    reason: str


@dataclass(frozen=True)
class RoundEnded(Event):
    """End of a combat round (TR-R3)."""

    round: int


@dataclass(frozen=True)
class BattleEnded(Event):
    """The battle is over (TR-R25); ``winner`` None is a draw."""

    winner: int | None
    reason: str


REGISTRY = EventRegistry(
    [
        OrdersRevealed, ShipMoved, DetectionRolled, FireCancelled, ToHitRolled,
        PenetrationRolled, ArmorRolled, DamageRolled, HullShareRolled, ComponentDamaged,
        CriticalRolled, BoxChosen, FuelLeakStarted, FuelLeaked, FrozenWatchRevived,
        BoardingResolved, ExplosionHit, ShipOut, RoundEnded, BattleEnded,
    ]
)  # fmt: skip
"""Every starship combat event class, for ``from_dict``."""
