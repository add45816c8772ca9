"""A whole Cestus V campaign played by scripted controllers, checked after every mission (§27).

The player side is the documented scripted controller of ``wargym.campaign_cli``; the other
side is the rules' non-player AI. Golden record: ``tests/golden/nq_cestus_v.json`` holds the
per-mission outcomes and morale for the fixed seed; regenerate on purpose only with
``WARGYM_REGEN_GOLDEN=1 pytest tests/rules/no_quarter/test_nq_27_cestus_campaign.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from wargym.campaign_cli import scripted
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.campaigns.campaign import Campaign, load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame
from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition
from wargym.rules.no_quarter.forces.vocab import Faction

GOLDEN = Path(__file__).parents[2] / "golden" / "nq_cestus_v.json"
ORDER = [m.stem.split("_", 2)[2] for m in campaign_definition().missions]


def _play(
    faction: Faction, seed: int, max_missions: int | None = None
) -> tuple[CampaignGame, list[dict]]:
    dice = RandomDice.from_seed(seed)
    game = CampaignGame.start(
        load_definition("cestus_v"), dice, np.random.default_rng(seed), faction=faction
    )
    after: list[dict] = []
    played = 0
    steps = 0
    while game.decider() is not None:
        game.play(scripted(game, game.legal_actions()), dice)
        steps += 1
        assert steps < 200_000
        if game.campaign.played != played:
            played = game.campaign.played
            state = game.campaign.to_dict()
            # the campaign state after each mission is valid and survives a JSON round trip
            assert Campaign.from_dict(json.loads(json.dumps(state))).to_dict() == state
            after.append(state)
            if max_missions is not None and played >= max_missions:
                break
    return game, after


def test_27_cestus_v_campaign_as_gaea_prime_reaches_an_end_condition() -> None:
    game, after = _play(Faction.STAR_ARMY, 11)
    campaign = game.campaign
    assert campaign.over, "a fixed-order campaign ends at its last mission at the latest (§27.5)"
    assert campaign.end_reason
    names = [record.name for record in campaign.history]
    assert names == ORDER[: len(names)]  # the printed order, whatever the results (§27.2)
    for record in campaign.history:
        assert record.status in ("success", "failure")
        assert min(record.player_cm[1], record.enemy_cm[1]) >= 0
    ended_early = len(names) < len(ORDER)
    final = (campaign.player_cm, campaign.enemy_cm)
    assert not ended_early or 0 in final or not campaign.available_mechs()
    record = {
        "missions": [
            [r.name, r.status, list(r.player_cm), list(r.enemy_cm)] for r in campaign.history
        ],
        "end": campaign.end_reason,
        "result": campaign.result,
    }
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else None
    if os.environ.get("WARGYM_REGEN_GOLDEN") == "1" or golden is None:
        GOLDEN.write_text(json.dumps(record, indent=1))
        golden = record
    assert record == golden
    assert len(after) == len(campaign.history)


@pytest.mark.parametrize("faction", [Faction.HISHEN])
def test_27_1_cestus_v_is_playable_as_the_hishen(faction: Faction) -> None:
    game, after = _play(faction, 5, max_missions=2)
    assert game.campaign.player is Faction.HISHEN and game.campaign.enemy is Faction.STAR_ARMY
    assert [r.name for r in game.campaign.history] == ORDER[: len(game.campaign.history)]
    assert after
