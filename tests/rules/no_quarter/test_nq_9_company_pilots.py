"""Campaign Company pilots (§9.3, §9.6, §10.8.1, §24): the player's attribute picks, a Free
Company's races rolled once, and every pilot die in a campaign event."""

from __future__ import annotations

import dataclasses

from wargym.rules.dice import RandomDice, ScriptedDice, TallyDice
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_aftermath import company_races, new_company_pilot
from wargym.rules.no_quarter.campaigns.campaign_events import CAMPAIGN_EVENTS
from wargym.rules.no_quarter.campaigns.campaign_play import start_campaign
from wargym.rules.no_quarter.forces import setup_events as sev
from wargym.rules.no_quarter.forces.pilots import AttributePick, PickKind
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Race

FC = Faction.FREE_COMPANY


def _generic(**changes: object):  # type: ignore[no-untyped-def]
    return dataclasses.replace(load_definition("generic"), **changes)


def test_9_6_star_second_attribute_choice_of_the_campaign_player() -> None:
    asked: list[AttributePick] = []

    def chooser(pick: AttributePick) -> Attribute:
        asked.append(pick)
        return pick.options[-1]  # the player's own call: the last option offered

    definition = _generic(stars=1, company={Faction.STAR_ARMY: ("star_army_c3",)})
    # Star (Basic): 1,1 Agile and 3,6 Quick Reflexes -> keeps Agile (last option); the
    # second is the last option too (Dumbass). Then the control roll (§23.3).
    dice = TallyDice(ScriptedDice([1, 1, 3, 6, 6, 1]), [])
    campaign, events = start_campaign(definition, dice, chooser=chooser)
    (pilot,) = campaign.pilots
    assert pilot.attributes == (Attribute.AGILE, Attribute.DUMBASS)
    assert [p.kind for p in asked] == [PickKind.KEEP_BETTER, PickKind.STAR_SECOND]
    (created,) = [e for e in events if isinstance(e, sev.PilotCreated)]
    assert isinstance(created, sev.CompanyPilotCreated) and created.pilot_id == pilot.id
    assert created.mech is None and created.attribute_faces == ((1, 1), (3, 6))
    assert created.picks == (("keep_better", "agile"), ("star_second", "dumbass"))
    assert [CAMPAIGN_EVENTS.from_dict(e) for e in campaign.events] == events


def test_9_3_free_company_race_roll_for_a_campaign_company() -> None:
    definition = _generic(
        sides=(FC, Faction.HISHEN), playable=(FC,), stars=0, use_attributes=False,
        company={FC: ("free_company_c3", "free_company_c3")},
    )  # fmt: skip
    # race 6 Xeog, mixing 4: one race; Reps 1, 6 on the Xeog row; then the control roll
    campaign, events = start_campaign(definition, ScriptedDice([6, 4, 1, 6, 6, 1]))
    assert [p.race for p in campaign.pilots] == [Race.XEOG, Race.XEOG]
    assert [p.rep for p in campaign.pilots] == [4, 5]
    (company,) = [e for e in events if isinstance(e, sev.FreeCompanyRaces)]
    assert isinstance(company, sev.CompanyRacesRolled)
    assert company.races == (Race.XEOG,) and company.side is None
    # a later recruit (§23.9.4) is of the Company's race and rolls only his Rep
    assert company_races(campaign) == company
    log: list[object] = []
    recruit = new_company_pilot(campaign, ScriptedDice([2]), log=log)  # type: ignore[arg-type]
    assert (recruit.race, recruit.rep) == (Race.XEOG, 4)
    assert isinstance(log[0], sev.CompanyPilotCreated) and log[0].race_faces == ()
    assert log[0].pilot_id == recruit.id


def test_9_campaign_start_records_every_pilot_die() -> None:
    tally = TallyDice(RandomDice.from_seed(3), [])
    campaign, events = start_campaign(load_definition("generic"), tally)
    created = [e for e in events if isinstance(e, sev.PilotCreated)]
    assert len(created) == len(campaign.pilots)
    pilot_faces = [
        [
            *e.race_faces,
            *([e.rep_face] if e.rep_face else []),
            *(f for p in e.attribute_faces for f in p),
        ]
        for e in created
    ]
    flat = [f for group in pilot_faces for f in group]
    assert tally.faces[: len(flat)] == flat  # the generic Company is listed: pilots roll first
