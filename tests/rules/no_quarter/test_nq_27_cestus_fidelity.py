"""Cestus V fidelity (issue 15, item 19): starting Company, standalone force size, The Troll,
Mission 8 set-up (§27.3, §27.8, §19.3.1)."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter import campaign_events as cev
from wargym.rules.no_quarter.campaign import load_definition
from wargym.rules.no_quarter.campaign_play import start_campaign
from wargym.rules.no_quarter.cestus_v import campaign_definition, force_table
from wargym.rules.no_quarter.cestus_v_rolls import force_class_for
from wargym.rules.no_quarter.data import load_rules
from wargym.rules.no_quarter.mission_play import new_mission
from wargym.rules.no_quarter.vocab import Faction, Side


def test_27_3_company_rolled_per_team() -> None:
    definition = load_definition("cestus_v")
    rules = load_rules()
    table = force_table(campaign_definition().mission(1), "player")
    seen: set[tuple[int, ...]] = set()
    for seed in range(6):
        campaign, events = start_campaign(definition, RandomDice.from_seed(seed))
        rolled = [e for e in events if isinstance(e, cev.CompanyRolled)]
        assert len(rolled) == 1
        event = rolled[0]
        assert event.table == "27 mission 1 star_army_force" and len(event.classes) == 12
        for faces, split, cls in zip(event.faces, event.splits, event.classes, strict=True):
            assert force_class_for(table, sum(faces), split) == cls  # each Team's own 2d6
        classes = [rules.mech(m.design).mech_class for m in campaign.mechs]
        assert len(classes) == 36
        # three Mechs per Team, all of the Team's rolled Class (§27.3 ruling)
        assert classes == [c for c in event.classes for _ in range(3)]
        seen.add(event.classes)
        stars = [p for p in campaign.pilots if p.star]
        assert len(stars) == 1 and stars[0].rep == 5
        assert all(rules.mech(m.design).faction is Faction.STAR_ARMY for m in campaign.mechs)
    assert len(seen) > 1  # rolled, not a fixed cycle


def test_27_8_standalone_missions_3_to_10_field_the_whole_company() -> None:
    for n in range(3, 11):
        mission = campaign_definition().mission(n)
        sc = mission.scenario("gaea_prime")
        assert len(sc.player.mechs) == 36 == sc.force_limit  # "the whole Company" (N.0.2)
    battle = new_mission(
        campaign_definition().mission(3).scenario("gaea_prime"),
        np.random.default_rng(1),
        RandomDice.from_seed(1),
    )
    assert len(battle.mechs_of(Side.BLUE)) == 36
