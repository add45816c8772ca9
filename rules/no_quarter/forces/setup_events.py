"""Set-up events of force creation: each pilot's rolls and picks, a Free Company's races.

Pilot generation (§9) runs before the battle; its dice are kept in these events so a set-up
can be audited like play (docs/events.md, "Set-up events"). ``setup.new_battle_logged`` and
``new_skirmish_logged`` / ``mission_play.setup_mission`` return them first.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from wargym.rules.events import Event
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Race, Side

__all__ = [
    "COMPANY_SETUP_EVENTS",
    "SETUP_EVENTS",
    "CompanyPilotCreated",
    "CompanyRacesRolled",
    "FreeCompanyRaces",
    "PilotCreated",
    "company_pilot_created",
    "company_races_rolled",
]


@dataclass(frozen=True)
class FreeCompanyRaces(Event):
    """A Free Company force rolled its race and whether it mixes races (§10.8.1, E25).

    ``race_face`` read on the race roll, ``mixing_face`` on the mixing roll, ``count_face``
    (mixed companies only) on the race count; ``extra_faces`` are the rolls for the further
    races (a race already held is re-rolled). ``races``: the company's races, rolled one first.
    """

    side: Side | None
    """None: a campaign Company (no battle side yet)."""
    race_face: int
    mixing_face: int
    count_face: int | None
    extra_faces: tuple[int, ...]
    races: tuple[Race, ...]
    members: tuple[int, ...]
    """The force's mech ids (empty outside a battle)."""

    @property
    def mixed(self) -> bool:
        """Whether the company's pilots roll their race (one of ``races``) each."""
        return len(self.races) > 1


@dataclass(frozen=True)
class PilotCreated(Event):
    """One pilot was generated (§9): every die rolled for him and every attribute pick.

    ``race_faces``: his race roll(s) (a Free Company pilot; re-rolls of a race not of his
    company included); ``rep_face``: his Pilot Rep die (None for a Star, who starts at
    ``star_rep``); ``attribute_faces``: each 2d6 attribute roll (sub-table, row) in order,
    a Star's re-rolls of Hard as Nails included; ``rolled``: the attribute each kept roll gave;
    ``picks``: ``(kind, attribute)`` of each choice made (``keep_better``, ``choice``,
    ``star_second``; by the force's chooser, D35 by default).
    """

    mech: int | None
    """The mech he pilots (None outside a battle: a campaign Company pilot)."""
    name: str
    faction: Faction
    star: bool
    race: Race
    race_faces: tuple[int, ...]
    rep: int
    rep_face: int | None
    attribute_faces: tuple[tuple[int, int], ...]
    rolled: tuple[Attribute, ...]
    picks: tuple[tuple[str, str], ...]
    attributes: tuple[Attribute, ...]


SETUP_EVENTS = (FreeCompanyRaces, PilotCreated)
"""A battle's set-up events (``NO_QUARTER_EVENTS``)."""


@dataclass(frozen=True)
class CompanyRacesRolled(FreeCompanyRaces):
    """A campaign's Free Company rolled its races (§10.8.1, §24), in ``Campaign.events``."""


@dataclass(frozen=True)
class CompanyPilotCreated(PilotCreated):
    """A campaign Company pilot was generated (§9, §24, §23.9.4), in ``Campaign.events``."""

    pilot_id: int = -1
    """His id in the Company."""


COMPANY_SETUP_EVENTS = (CompanyRacesRolled, CompanyPilotCreated)
"""The campaign's copies (``CAMPAIGN_EVENTS``): a campaign env tells them from a battle's."""


def company_races_rolled(event: FreeCompanyRaces) -> CompanyRacesRolled:
    """``event`` as the campaign's record."""
    return CompanyRacesRolled(**{f.name: getattr(event, f.name) for f in fields(event)})


def company_pilot_created(event: PilotCreated, pilot_id: int) -> CompanyPilotCreated:
    """``event`` as the campaign's record of pilot ``pilot_id``."""
    values = {f.name: getattr(event, f.name) for f in fields(PilotCreated)}
    return CompanyPilotCreated(**values, pilot_id=pilot_id)
