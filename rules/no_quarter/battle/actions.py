"""*5150: No Quarter* decisions and actions (sections 14-18).

The engine stops only at *decision points*: a :class:`Decision` says which side decides, what
kind of decision it is and which mech it concerns; ``legal_actions`` lists the exact options.
Compound orders are consecutive decisions (mech, then action, then one weapon at a time), so
every option is small and masks are exact. ``str(action)`` reads in the rulebook's words.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, TypeAlias

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack, Side
from wargym.rules.serial import from_jsonable, to_jsonable

Point = tuple[float, float]


class DecisionKind(enum.Enum):
    """What a decision is about."""

    ACTIVATE_GROUP = "activate_group"
    """Pick the next eligible group to activate, or decline one (§14.0)."""
    CHOOSE_MECH = "choose_mech"
    """Pick which mech of the active group acts next (§14.0, §18.3.4)."""
    MECH_ACTION = "mech_action"
    """Move, reverse, stay (facing), charge, or fire first (§15.0, ruling D6)."""
    CONTINUE_MOVE = "continue_move"
    """Finish a move interrupted by an In Sight with the remaining allowance (ruling D8)."""
    ASSIGN_FIRE = "assign_fire"
    """Assign one weapon to a target, or finish firing (§17.3, ruling D14)."""
    FREE_MOVE = "free_move"
    """The free 2" move of the triggering force before an In Sight roll (§16.1.3)."""
    CHARGE_TARGET = "charge_target"
    """An In Sight winner that cannot fire picks whom to charge (§16.1.4)."""
    FREE_WILL = "free_will"
    """A Star chooses to have passed 2, 1 or 0 d6 (§9.2 Free Will, ruling D29)."""
    MELEE_DECLARE = "melee_declare"
    """Declare punch or kick and the limb for a melee round (§18.3, ruling D33)."""
    MELEE_TARGET = "melee_target"
    """An engaged mech picks which contacted enemy to fight (ruling D33)."""
    CHOOSE_OBJECTIVE = "choose_objective"
    """The attacker picks its Attack objective: destroy or break through (§22.2.1)."""
    FACE = "face"
    """Final leg heading and torso twist after a move or a stay (§6.2, §6.2.1, D2, D5)."""
    LUCKY_REROLL = "lucky_reroll"
    """A Lucky pilot keeps a roll of his mech or spends the mission's re-roll (§9.6.4, D26)."""
    MARKSMAN_LOCATION = "marksman_location"
    """A Marksman keeps one of his two hit locations (§9.6.4)."""
    LEAD_TEAMS = "lead_teams"
    """A higher leader takes a group of his formation in his command radius, or is done (§12.2)."""
    SPLIT_GROUP = "split_group"
    """The active side splits one mech off a group, or keeps its groups (§13.1)."""


@dataclass(frozen=True)
class Decision:
    """A decision point: who decides, what kind, about which mech (None: the side)."""

    side: Side
    kind: DecisionKind
    mech: int | None = None


@dataclass(frozen=True)
class ActivateGroup:
    """Activate the group led by ``leader`` (§14.0)."""

    leader: int

    def __str__(self) -> str:
        return f"activate the group of mech {self.leader}"


@dataclass(frozen=True)
class SkipGroup:
    """Do not activate the group led by ``leader`` this turn (§14.0)."""

    leader: int

    def __str__(self) -> str:
        return f"do not activate the group of mech {self.leader}"


@dataclass(frozen=True)
class ChooseMech:
    """Let ``mech`` of the active group act next."""

    mech: int

    def __str__(self) -> str:
        return f"mech {self.mech} acts"


@dataclass(frozen=True)
class Move:
    """Move ``mech`` in a straight line to ``to`` (§15.2.1); ``reverse`` backs up (§15.2.2).

    A forward move ends facing the direction of travel; a reverse keeps the facing. ``jump``
    uses the jump jets over obstacles on the way (§10.6.1, ruling D28).
    """

    mech: int
    to: Point
    reverse: bool = False
    jump: bool = False

    def __str__(self) -> str:
        how = "reverses" if self.reverse else ("jumps" if self.jump else "moves")
        return f"mech {self.mech} {how} to ({self.to[0]:.1f}, {self.to[1]:.1f})"


@dataclass(frozen=True)
class Stay:
    """Stay in place, optionally turning to ``heading`` (§15.0, §6.2.1)."""

    mech: int
    heading: float | None = None

    def __str__(self) -> str:
        turn = "" if self.heading is None else f", facing {self.heading:.0f} deg"
        return f"mech {self.mech} stays in place{turn}"


@dataclass(frozen=True)
class FireFirst:
    """Take Active Fire now, before the action (ruling D6)."""

    mech: int

    def __str__(self) -> str:
        return f"mech {self.mech} fires before acting"


@dataclass(frozen=True)
class Charge:
    """Charge into melee with ``target`` (§18.2)."""

    mech: int
    target: int

    def __str__(self) -> str:
        return f"mech {self.mech} charges mech {self.target}"


@dataclass(frozen=True)
class AssignFire:
    """Fire weapon ``weapon`` (item index) of ``mech`` at ``target`` (§17.3, §17.4)."""

    mech: int
    weapon: int
    target: int

    def __str__(self) -> str:
        return f"mech {self.mech} fires weapon {self.weapon} at mech {self.target}"


@dataclass(frozen=True)
class EndFire:
    """Finish assigning weapons; the firing is resolved (§17.4)."""

    mech: int

    def __str__(self) -> str:
        return f"mech {self.mech} holds its remaining weapons"


@dataclass(frozen=True)
class FreeMove:
    """Take the free In Sight move to ``to`` (None: stay put) (§16.1.3)."""

    mech: int
    to: Point | None

    def __str__(self) -> str:
        if self.to is None:
            return f"mech {self.mech} holds position"
        return f"mech {self.mech} takes its free move to ({self.to[0]:.1f}, {self.to[1]:.1f})"


@dataclass(frozen=True)
class FreeWill:
    """A Star chooses to have passed ``passed`` d6 (§9.2)."""

    mech: int
    passed: int

    def __str__(self) -> str:
        return f"Star in mech {self.mech} chooses to pass {self.passed}d6"


@dataclass(frozen=True)
class DeclareMelee:
    """Declare a punch or kick with ``limb`` for the coming melee round (§18.3)."""

    mech: int
    attack: MeleeAttack
    limb: Location

    def __str__(self) -> str:
        return f"mech {self.mech} will {self.attack.value} with {self.limb.value}"


@dataclass(frozen=True)
class FightMech:
    """An engaged mech fights ``target`` this activation (ruling D33)."""

    mech: int
    target: int

    def __str__(self) -> str:
        return f"mech {self.mech} fights mech {self.target}"


@dataclass(frozen=True)
class FireAtBuilding:
    """Fire weapon ``weapon`` of ``mech`` at building ``feature`` (§19.4.2 ruling)."""

    mech: int
    weapon: int
    feature: int

    def __str__(self) -> str:
        return f"mech {self.mech} fires weapon {self.weapon} at building {self.feature}"


@dataclass(frozen=True)
class AttackBuilding:
    """Punch or kick a building in base contact with ``limb`` (§19.4.2 ruling)."""

    mech: int
    feature: int
    attack: MeleeAttack
    limb: Location

    def __str__(self) -> str:
        return (
            f"mech {self.mech} {self.attack.value}s building {self.feature} with {self.limb.value}"
        )


@dataclass(frozen=True)
class ExitTable:
    """Move off the table across ``edge``: a voluntary exit of a mission (§22.0 rulings)."""

    mech: int
    edge: str

    def __str__(self) -> str:
        return f"mech {self.mech} leaves the table across the {self.edge} edge"


@dataclass(frozen=True)
class ChooseObjective:
    """Take ``objective`` (destroy or break_through) as the mission's goal (§22.2.1)."""

    objective: str

    def __str__(self) -> str:
        return f"the objective is to {self.objective.replace('_', ' ')}"


@dataclass(frozen=True)
class Face:
    """End the action facing ``heading`` (None: keep it) with torso ``twist`` (§6.2, D2, D5).

    ``twist`` is the torso offset in degrees, -90, 0 or +90 (§6.2.1); it persists until changed.
    """

    mech: int
    heading: float | None
    twist: int = 0

    def __str__(self) -> str:
        turn = "keeps its heading" if self.heading is None else f"faces {self.heading:.0f} deg"
        torso = "" if self.twist == 0 else f", torso twisted {self.twist:+d} deg"
        return f"mech {self.mech} {turn}{torso}"


@dataclass(frozen=True)
class LuckyChoice:
    """Keep the roll just made for ``mech`` or, ``reroll``, spend Lucky on it (§9.6.4, D26)."""

    mech: int
    reroll: bool

    def __str__(self) -> str:
        if self.reroll:
            return f"the pilot of mech {self.mech} uses his luck: re-roll"
        return f"the pilot of mech {self.mech} keeps the roll"


@dataclass(frozen=True)
class ChooseLocation:
    """A Marksman in ``mech`` keeps ``location`` of his two hit locations (§9.6.4)."""

    mech: int
    location: Location

    def __str__(self) -> str:
        return f"the Marksman in mech {self.mech} hits the {self.location.value}"


@dataclass(frozen=True)
class LeadTeam:
    """Higher leader ``mech`` takes the group led by ``group`` into his own (§12.2, D30)."""

    mech: int
    group: int

    def __str__(self) -> str:
        return f"mech {self.mech} takes the group of mech {self.group} under his command"


@dataclass(frozen=True)
class LeadDone:
    """Higher leader ``mech`` takes no further group this activation phase (§12.2)."""

    mech: int

    def __str__(self) -> str:
        return f"mech {self.mech} takes no more groups"


@dataclass(frozen=True)
class SplitOff:
    """``mech`` leaves its group and activates alone this activation phase (§13.1)."""

    mech: int

    def __str__(self) -> str:
        return f"mech {self.mech} splits off its group"


@dataclass(frozen=True)
class KeepGroups:
    """Keep the groups as they are for this activation phase (§13.1)."""

    def __str__(self) -> str:
        return "keep the groups as they are"


Action: TypeAlias = (
    ActivateGroup
    | SkipGroup
    | ChooseMech
    | Move
    | Stay
    | FireFirst
    | Charge
    | AssignFire
    | EndFire
    | FreeMove
    | FreeWill
    | DeclareMelee
    | FightMech
    | FireAtBuilding
    | AttackBuilding
    | ExitTable
    | ChooseObjective
    | LuckyChoice
    | ChooseLocation
    | Face
    | LeadTeam
    | LeadDone
    | SplitOff
    | KeepGroups
)
"""Every decision a side can make."""

ACTION_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        ActivateGroup,
        SkipGroup,
        ChooseMech,
        Move,
        Stay,
        FireFirst,
        Charge,
        AssignFire,
        EndFire,
        FreeMove,
        FreeWill,
        DeclareMelee,
        FightMech,
        FireAtBuilding,
        AttackBuilding,
        ExitTable,
        ChooseObjective,
        Face,
        LuckyChoice,
        ChooseLocation,
        LeadTeam,
        LeadDone,
        SplitOff,
        KeepGroups,
    )
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """Serialise an action as ``{"type": <class name>, ...fields}``."""
    return {"type": type(action).__name__, **to_jsonable(action)}


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :func:`action_to_dict` output; errors name the problem."""
    if not isinstance(data, dict) or "type" not in data:
        raise StateError(f"an action must be an object with a 'type' key, got {data!r}")
    fields = dict(data)
    name = fields.pop("type")
    cls = ACTION_CLASSES.get(name)
    if cls is None:
        raise StateError(f"unknown action type {name!r}; known: {sorted(ACTION_CLASSES)}")
    action: Action = from_jsonable(cls, fields, where=name)
    return action
