"""Campaign events of *No Quarter*: one frozen record per resolved campaign rule (§23, §24).

Each event records its inputs, the dice faces and the result; :data:`CAMPAIGN_EVENTS` rebuilds
them from ``Event.to_dict`` output (a campaign keeps them in ``Campaign.events``).
"""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.events import Event, EventRegistry
from wargym.rules.no_quarter.forces.setup_events import COMPANY_SETUP_EVENTS
from wargym.rules.no_quarter.forces.vocab import Faction


@dataclass(frozen=True)
class CampaignStarted(Event):
    """A campaign began with both sides' starting Campaign Morale (§23.3, §24 steps 1-7)."""

    name: str
    player: Faction
    enemy: Faction
    player_cm: int
    enemy_cm: int


@dataclass(frozen=True)
class CompanyRolled(Event):
    """The starting Company's Class per Team, 2d6 (+ a split 1d6) on ``table`` (§27.3 ruling)."""

    faction: Faction
    table: str
    faces: tuple[tuple[int, int], ...]
    splits: tuple[int | None, ...]
    classes: tuple[int, ...]
    designs: tuple[str, ...]
    """One design per Team (faction list 10.8); each Team fields ``team_size`` of it."""
    team_size: int


@dataclass(frozen=True)
class ControlRolled(Event):
    """1d6 + starting CM each; the higher total contests, the lower controls (§23.4)."""

    player: Faction
    enemy: Faction
    player_face: int
    enemy_face: int
    player_total: int
    enemy_total: int
    rerolls: tuple[tuple[int, int], ...]
    controls: str
    """``player`` or ``enemy``."""


@dataclass(frozen=True)
class MechSelected(Event):
    """The player sends Company Mech ``mech`` on the next mission (§23.2)."""

    mech: int


@dataclass(frozen=True)
class PilotAssigned(Event):
    """A spare pilot takes over a Mech; its old pilot (if any) becomes a spare (§23.9.4)."""

    pilot: int
    mech: int
    displaced: int | None


@dataclass(frozen=True)
class MissionLaunched(Event):
    """A mission starts with these Company Mechs and pilots (§24 steps 8-9)."""

    number: int
    name: str
    scenario: str
    kind: str
    mechs: tuple[int, ...]
    pilots: tuple[int, ...]
    state_applied_before_play: bool
    """False when the rules acted before the Company's damage could be written (see report)."""


@dataclass(frozen=True)
class MissionFinished(Event):
    """The mission's result for the player (§22, feeds §23.5 and §23.9)."""

    number: int
    status: str
    reason: str
    turns: int


@dataclass(frozen=True)
class MoraleChanged(Event):
    """Both sides' Campaign Morale rolls and the change (§23.5)."""

    player_faces: tuple[int, ...]
    enemy_faces: tuple[int, ...]
    player_before: int
    enemy_before: int
    player_passes: int
    enemy_passes: int
    player_after: int
    enemy_after: int


@dataclass(frozen=True)
class NextMissionChosen(Event):
    """The next mission, by the Next Mission table or the campaign's order (§23.6, §27.5)."""

    last: str
    success: bool
    next: str


@dataclass(frozen=True)
class CampaignEnded(Event):
    """The campaign is decided; ``carry_over`` modifies the next campaign's CM (§23.3.1)."""

    result: str
    reason: str
    player_cm: int
    enemy_cm: int
    carry_over: int


@dataclass(frozen=True)
class PilotRecovered(Event):
    """After the Battle recovery roll of one pilot (§23.9.1)."""

    pilot: int
    rep: int
    faces: tuple[int, ...]
    passes: int
    rep_restored: bool
    outcome: str
    """``stays`` (only injured), ``returns``, ``returns_failed`` or ``lost``."""


@dataclass(frozen=True)
class RepChecked(Event):
    """Rep increase or decrease after a personal success or failure (§23.9.2-23.9.3)."""

    pilot: int
    personal: str
    face: int | None
    rep_before: int
    rep_after: int


@dataclass(frozen=True)
class ReplacementPilotRolled(Event):
    """1d6 vs CM for a Mech without a pilot; ``pilot`` is the new one, if any (§23.9.4)."""

    mech: int
    faces: tuple[int, ...]
    passed: bool
    pilot: int | None
    rep: int | None


@dataclass(frozen=True)
class MechRecovered(Event):
    """Whether a Mech of the mission was recovered from the field (§23.9.5)."""

    mech: int
    recovered: bool
    reason: str


@dataclass(frozen=True)
class MechRepaired(Event):
    """The repair roll of one damaged, recovered Mech (§23.9.5)."""

    mech: int
    cm: int
    faces: tuple[int, ...]
    passes: int
    class_face: int | None
    half_face: int | None
    unavailable: int
    """Missions the Mech must sit out (0: ready for the next one)."""


@dataclass(frozen=True)
class MechsReplaced(Event):
    """The replacement roll (§23.9.6); ``replaced``: lost Mech ids, ``new_mechs``: new ids."""

    cm: int
    faces: tuple[int, ...]
    passes: int
    pick_faces: tuple[int, ...]
    replaced: tuple[int, ...]
    new_mechs: tuple[int, ...]


@dataclass(frozen=True)
class AftermathSkipped(Event):
    """No replacement pilots, repairs or replacement Mechs after this mission (§27.7)."""

    number: int
    reason: str


CAMPAIGN_EVENT_CLASSES: tuple[type[Event], ...] = (
    CampaignStarted,
    CompanyRolled,
    ControlRolled,
    MechSelected,
    PilotAssigned,
    MissionLaunched,
    MissionFinished,
    MoraleChanged,
    NextMissionChosen,
    CampaignEnded,
    PilotRecovered,
    RepChecked,
    ReplacementPilotRolled,
    MechRecovered,
    MechRepaired,
    MechsReplaced,
    AftermathSkipped,
    *COMPANY_SETUP_EVENTS,
)
CAMPAIGN_EVENTS = EventRegistry(CAMPAIGN_EVENT_CLASSES)
"""Registry rebuilding campaign events from their ``to_dict`` form."""

__all__ = [
    "CAMPAIGN_EVENTS",
    "CAMPAIGN_EVENT_CLASSES",
    "CampaignStarted",
    "CompanyRolled",
    "ControlRolled",
    "MechSelected",
    "PilotAssigned",
    "MissionLaunched",
    "MissionFinished",
    "MoraleChanged",
    "NextMissionChosen",
    "CampaignEnded",
    "PilotRecovered",
    "RepChecked",
    "ReplacementPilotRolled",
    "MechRecovered",
    "MechRepaired",
    "MechsReplaced",
    "AftermathSkipped",
]
