"""*5150: No Quarter* events: one typed record per resolved rule (sections 14-18).

Each event records the rule's inputs and the dice faces it used, so a battle's log can be
audited and replayed. ``MechState``-changing events are written into the battle only by
:meth:`wargym.rules.no_quarter.battle.state.Battle.apply`. The schema is documented in
``docs/events.md``; every event serialises as ``{"type": <class name>, ...fields}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wargym.rules.events import Event, EventRegistry
from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Location,
    MeleeAttack,
    ReactionResult,
    ReactionTest,
    Removal,
    Side,
    Status,
)

Point = tuple[float, float]


@dataclass(frozen=True)
class TurnStarted(Event):
    """A new turn begins; inches moved are reset (§14.0, ruling D7)."""

    turn: int


@dataclass(frozen=True)
class ActivationRolled(Event):
    """Both sides rolled their activation d6; doubles are re-rolled (§14.0)."""

    blue: int
    red: int
    rerolled: tuple[tuple[int, int], ...]
    first: Side


@dataclass(frozen=True)
class GroupsFormed(Event):
    """Groups recomputed at the start of a side's activation phase (§13.2, ruling D30)."""

    side: Side
    groups: tuple[tuple[int, ...], ...]
    leaders: tuple[int, ...]


@dataclass(frozen=True)
class LeaderAppointed(Event):
    """A leader was lost and his successor took over (§12.0)."""

    mech: int
    rank: str
    replaces: int


@dataclass(frozen=True)
class GroupActivated(Event):
    """A group activates on its leader's activation Rep (§14.0)."""

    side: Side
    leader: int
    members: tuple[int, ...]
    activation_rep: int
    die: int


@dataclass(frozen=True)
class GroupSkipped(Event):
    """The owner chose not to activate an eligible group, or it was not eligible (§14.0)."""

    side: Side
    leader: int
    eligible: bool


@dataclass(frozen=True)
class MechMoved(Event):
    """A mech moved along ``path`` (§15.2); ``cost`` is the allowance spent."""

    mech: int
    path: tuple[Point, ...]
    heading: float
    cost: float
    inches: float
    kind: str
    """voluntary, reverse, jump, free (In Sight), duck_back, leave or charge."""
    jumped: bool = False
    """A Duck Back or Leave the Battlefield move made as a jump (§10.6.1, D28)."""


@dataclass(frozen=True)
class MoveBlocked(Event):
    """A move planned to ``planned`` met the unseen base of ``blocker`` and ended at ``at``.

    Only with ``unseen_bases="bump"`` (choice E5); the ``MechMoved`` before it shows the part
    that was moved.
    """

    mech: int
    blocker: int
    planned: Point
    at: Point


@dataclass(frozen=True)
class MechFaced(Event):
    """A mech changed its leg heading and/or torso twist (§6.2, §6.2.1)."""

    mech: int
    heading: float
    twist: int


@dataclass(frozen=True)
class MechLeftTable(Event):
    """A Leaving mech crossed the table edge and is removed (§16.3.3, ruling D10)."""

    mech: int
    edge: str


@dataclass(frozen=True)
class StoodUp(Event):
    """A prone mech spent its activation standing up (§15.2.3, ruling D25)."""

    mech: int


@dataclass(frozen=True)
class InSightTaken(Event):
    """An In Sight test between a moving and a non-moving group (§16.1.3)."""

    moving_leader: int
    moving_faces: tuple[int, ...]
    moving_successes: int
    nonmoving_leader: int
    nonmoving_faces: tuple[int, ...]
    nonmoving_successes: int
    moving_wins: bool


@dataclass(frozen=True)
class InSightAction(Event):
    """What an In Sight winner does: fire, charge, duck back or carry on (§16.1.4)."""

    mech: int
    action: str


@dataclass(frozen=True)
class ShotFired(Event):
    """One weapon's Ranged Combat roll (§17.4): 1d6 + Rep against the table."""

    shooter: int
    weapon: int
    target: int
    face: int
    rep: int
    total: int
    target_index: int
    rush_shot: bool
    shooter_fast: bool
    target_fast: bool
    target_in_cover: bool
    target_prone: bool
    hit: bool
    rerolled: tuple[int, ...] = ()


@dataclass(frozen=True)
class HitLocated(Event):
    """Hit location of one shot (§17.4.1) or melee blow (§18.3.1)."""

    target: int
    faces: tuple[int, ...]
    location: Location
    protected: bool
    alternatives: tuple[Location, ...] = ()


@dataclass(frozen=True)
class DamageRolled(Event):
    """2d6 against Impact (§17.4.2) or the success margin (§18.3.2)."""

    target: int
    location: Location
    faces: tuple[int, int]
    versus: int
    passed: int
    armor_before: int
    armor_after: int
    """Armour left, clamped at 0 (§17.4.2 ruling: a location holds 0..its design value)."""
    critical: bool
    melee: bool
    damage: int = 0
    """Armour points the roll removes, raw (may exceed ``armor_before``); 0 on pass 0."""


@dataclass(frozen=True)
class CriticalHit(Event):
    """A critical hit and its effect (§17.4.3); ``face`` is the chest/random-item roll if any."""

    mech: int
    location: Location
    kind: str
    faces: tuple[int, ...]
    item_lost: int | None
    items_lost: tuple[int, ...]
    speed_after: int
    removal: Removal | None
    armor: int | None = None
    """The location's armour the critical table was read with (None in older logs)."""
    candidates: tuple[int, ...] = ()
    """Arm weapon / random item lost: the items the die chose among, in order; ``faces``
    picked ``items_lost[0]`` from them (one d6 with re-rolls, 2d6 beyond six; ruling D24)."""


@dataclass(frozen=True)
class PilotTested(Event):
    """Pilot Test: 1d6 against Rep (Agile +1, Slow -1) (§17.4.3.1)."""

    mech: int
    face: int
    rep: int
    passed: bool
    knocked_down: bool
    rep_after: int
    resilient_used: bool
    rerolled: tuple[int, ...] = ()


@dataclass(frozen=True)
class MechRemoved(Event):
    """A mech left play: destroyed, inoperable, off the table or Cheating Death (§17.4.3)."""

    mech: int
    reason: Removal
    side: Side
    mech_class: int


@dataclass(frozen=True)
class CheatedDeath(Event):
    """A Star cheated death: removed alive, Rep -1, mech lost (§9.2)."""

    mech: int
    rep_after: int
    via: str


@dataclass(frozen=True)
class ReactionTaken(Event):
    """One mech's reaction test and its result (§16.2)."""

    mech: int
    test: ReactionTest
    causes: tuple[int, ...]
    faces: tuple[int, ...]
    rep: int
    passed: int
    free_will: bool
    results: tuple[ReactionResult, ...]
    result: ReactionResult
    rep_change: int
    outgunned: tuple[bool, ...]
    in_range: tuple[bool, ...]
    in_cover: bool | None = None
    """Whether the tester counted as in cover from the threats (the cover die; None: old log)."""
    dice: int | None = None
    """How many d6 the test rolled (0 for a Star's Free Will; None: old log)."""


@dataclass(frozen=True)
class StatusChanged(Event):
    """A mech's status changed (§16.3)."""

    mech: int
    status: Status
    reason: str


@dataclass(frozen=True)
class RepChanged(Event):
    """A pilot's Rep changed for the rest of the mission (§16.2 "Rep -1", §17.4.3.1)."""

    mech: int
    rep: int
    reason: str


@dataclass(frozen=True)
class ChargeDeclared(Event):
    """A mech declared a charge and moved to 3" from its target (§18.2)."""

    charger: int
    target: int
    aspect: Aspect


@dataclass(frozen=True)
class ChargeTested(Event):
    """The Charge into Melee test of charger and target (§18.2.1)."""

    charger: int
    target: int
    charger_faces: tuple[int, ...]
    charger_passed: int
    target_faces: tuple[int, ...]
    target_passed: int
    target_dice: int
    outcome: str
    reused_target_roll: bool


@dataclass(frozen=True)
class MeleeDeclared(Event):
    """Punch or kick and the limb used, declared for a melee round (§18.3, ruling D33)."""

    mech: int
    attack: MeleeAttack
    limb: Location


@dataclass(frozen=True)
class MeleeRound(Event):
    """One melee round: successes of both, winner and margin (§18.3)."""

    attacker: int
    defender: int
    attacker_faces: tuple[int, ...]
    attacker_successes: int
    defender_faces: tuple[int, ...]
    defender_successes: int
    winner: int | None
    margin: int


@dataclass(frozen=True)
class ItemDisabled(Event):
    """A weapon or item became inoperable (critical hit or limb loss) (§17.4.3)."""

    mech: int
    items: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class FlameLaid(Event):
    """A flamer shot left a flame template on the table (§10.4.2, ruling D27)."""

    shooter: int
    start: Point
    end: Point


@dataclass(frozen=True)
class BuildingDamaged(Event):
    """A building hit by fire or struck in melee lost armour (§19.4.2 ruling)."""

    feature: int
    attacker: int
    faces: tuple[int, ...]
    versus: int
    passed: int
    armor_before: int
    armor_after: int
    melee: bool
    melee_faces: tuple[int, ...] = ()
    """Melee: the attack's melee dice (``versus`` is their successes); ranged: empty."""
    damage_faces: tuple[int, ...] = ()
    """The 2d6 vs ``versus`` (empty when a melee attack scored no success)."""
    limb: Location | None = None
    """Melee: the punching arm or kicking leg."""
    attack: MeleeAttack | None = None
    """Melee: punch or kick."""
    weapon_value: int = 0
    """Melee: the WV of the melee weapon on the punching arm (0: none)."""
    damage: int = 0
    """Armour points the roll removes, raw (may exceed ``armor_before``); ``armor_after`` is
    clamped at 0: "at 0 or less" the building is destroyed (§19.4.2 ruling)."""


@dataclass(frozen=True)
class FiringStarted(Event):
    """A mech's firing begins: its assigned weapons are about to be resolved (§15.2.4, §17).

    ``mode`` is active, in_sight, reaction or charge; ``cause`` the mech it reacts to or
    charges (reaction and charge fire); ``twist`` the torso twist it fires with; ``weapons``
    the assigned weapons in order (a weapon may appear once per target).
    """

    shooter: int
    mode: str
    cause: int | None
    twist: int
    weapons: tuple[int, ...]


@dataclass(frozen=True)
class FiringEnded(Event):
    """The firing of ``shooter`` is resolved; reaction tests it caused are queued next."""

    shooter: int
    mode: str
    shots: int
    """Ranged Combat rolls made (``ShotFired`` events since ``FiringStarted``)."""


@dataclass(frozen=True)
class BuildingDestroyed(Event):
    """A building at 0 armour is destroyed; its footprint becomes rough rubble (§19.4.2)."""

    feature: int


@dataclass(frozen=True)
class FlameCrossed(Event):
    """A mech moved through a flame template and rolls damage vs Impact 3 (§10.4.2, D27)."""

    mech: int
    flame: int


@dataclass(frozen=True)
class LuckyReroll(Event):
    """A Lucky pilot re-rolled one result this mission (§9.6.4, ruling D26)."""

    mech: int
    what: str
    old: tuple[int, ...]
    new: tuple[int, ...]


@dataclass(frozen=True)
class DuckedBack(Event):
    """Where a Duck Back ended relative to its cause (§15.2.4.1, ruling D9).

    ``in_cover``: out of the cause's LOS, in cover or concealed from it; then, while the mech
    stays ducked back, it and the cause neither see nor are seen by each other.
    """

    mech: int
    cause: int
    in_cover: bool

    def apply_to(self, battle: Any) -> None:
        """Remember (or forget) the cause the mech is hidden from."""
        battle.mechs[self.mech].hidden_from = (self.cause,) if self.in_cover else ()


@dataclass(frozen=True)
class TeamJoined(Event):
    """A higher leader took a group of his formation in his command radius (§12.2, D30).

    ``joined``: the mechs that came in; ``members``: his whole group now, led by ``leader``.
    """

    side: Side
    leader: int
    joined: tuple[int, ...]
    members: tuple[int, ...]

    def apply_to(self, battle: Any) -> None:
        """Every member now belongs to the leader's group."""
        for member in self.members:
            battle.group_of[member] = self.leader


@dataclass(frozen=True)
class MechSplitOff(Event):
    """``mech`` split off its group (§13.1); ``groups``/``leaders``: what the group became.

    The rest of the old group re-forms into its connected components (§13.2).
    """

    side: Side
    mech: int
    groups: tuple[tuple[int, ...], ...]
    leaders: tuple[int, ...]

    def apply_to(self, battle: Any) -> None:
        """Each mech of the old group belongs to its new group."""
        for members, leader in zip(self.groups, self.leaders, strict=True):
            for member in members:
                battle.group_of[member] = leader


@dataclass(frozen=True)
class BattleEnded(Event):
    """The battle ended: a side has no mech left, or the turn limit (ruling D37)."""

    winner: Side | None
    reason: str
    turn: int


from wargym.rules.no_quarter.forces.setup_events import SETUP_EVENTS  # noqa: E402
from wargym.rules.no_quarter.non_player.np_events import NP_EVENTS  # noqa: E402 - below the core events

NO_QUARTER_EVENTS = EventRegistry(
    [
        *NP_EVENTS,
        *SETUP_EVENTS,
        TurnStarted,
        ActivationRolled,
        GroupsFormed,
        LeaderAppointed,
        GroupActivated,
        GroupSkipped,
        MechMoved,
        MechFaced,
        MoveBlocked,
        MechLeftTable,
        StoodUp,
        InSightTaken,
        InSightAction,
        ShotFired,
        HitLocated,
        DamageRolled,
        CriticalHit,
        PilotTested,
        MechRemoved,
        CheatedDeath,
        ReactionTaken,
        StatusChanged,
        RepChanged,
        ChargeDeclared,
        ChargeTested,
        MeleeDeclared,
        MeleeRound,
        ItemDisabled,
        FlameLaid,
        FlameCrossed,
        BuildingDamaged,
        BuildingDestroyed,
        FiringStarted,
        FiringEnded,
        LuckyReroll,
        DuckedBack,
        TeamJoined,
        MechSplitOff,
        BattleEnded,
    ]
)
"""Every No Quarter event class, for deserialising logs."""
