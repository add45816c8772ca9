"""Cestus V §27.4: generated terrain instead of the mission map (the digest's ruling).

"Alternative when a mission map is unwanted — ruling: generate terrain with 19.2 on the
'clear' column, then force the named features (river, bridge, village) into the stated
sections." The mission map stays the default; ``terrain="generated"`` is the option.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import StateError, TableError
from wargym.rules.no_quarter.battle.game import legal_actions, play
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.battlefield.terrain_generator import (
    GeneratorOptions,
    OverallType,
    generate_terrain,
)
from wargym.rules.no_quarter.cestus.cestus_play import named_features, with_named_features
from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition, village_checked
from wargym.rules.no_quarter.cestus.cestus_v_data import parse_campaign
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.tables import load_config, parse_yaml


def _rect(f: Feature) -> tuple[float, float, float, float]:
    return (f.x0, f.y0, f.x1, f.y1)


def _overlap(a: Feature, b: Feature) -> bool:
    return not (a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0)


def test_27_4_generated_terrain_is_an_option_the_map_the_default() -> None:
    mission = campaign_definition().mission(2)
    assert mission.scenario("gaea_prime").features == mission.features()  # the map (27.4)
    generated = mission.scenario("gaea_prime", terrain="generated")
    assert generated.features is None
    assert generated.options.terrain.overall is OverallType.CLEAR  # 19.2 'clear' column
    assert generated.name == mission.scenario("gaea_prime").name  # still Cestus V mission 2


def test_27_4_generated_terrain_bad_choice_is_refused() -> None:
    mission = campaign_definition().mission(2)
    with pytest.raises(StateError, match=r"terrain: 'swamp' is not one of \['map', 'generated'\]"):
        mission.scenario("gaea_prime", terrain="swamp")
    with pytest.raises(StateError, match="terrain") as caught:
        mission.scenario("gaea_prime", terrain="x" * 500)
    assert len(str(caught.value)) < 160  # the value is quoted to about 80 characters


def test_27_4_named_features_are_those_the_mission_names() -> None:
    names = {
        n: {m.name for m in named_features(campaign_definition().mission(n))} for n in (1, 2, 4, 9)
    }
    assert names[1] == set()  # woods and hills only: all generated
    assert names[2] == {"river", "bridge", "road", "troll_hill"}  # the Troll's hill (2.0.6)
    assert {"village_a", "village_b", "village_c", "village_d", "road"} <= names[4]
    assert names[9] == {"river", "crest_hill"}


@pytest.mark.parametrize("number", range(1, 11))
def test_27_4_generated_terrain_forces_the_named_features_into_each_mission(number: int) -> None:
    mission = campaign_definition().mission(number)
    battle = new_mission(
        mission.scenario("gaea_prime", terrain="generated"),
        np.random.default_rng(number),
        RandomDice.from_seed(number),
    )
    features = battle.battlefield.features
    forced = [f for m in named_features(mission) for f in m.features]
    assert list(features[: len(forced)]) == forced  # where the map puts them, in map order
    for g in features[len(forced) :]:
        assert not any(_overlap(g, f) for f in forced)  # nothing generated on top of them
        assert g not in mission.features()  # the rest is generated, not the map's
    assert battle.mission is not None and battle.mission["cestus"] == number
    restored = Battle.from_dict(battle.to_dict())
    assert restored.battlefield.features == features
    dice = RandomDice.from_seed(100 + number)
    for _ in range(15):  # and it plays
        if battle.over:
            break
        play(battle, legal_actions(battle)[0], dice)


def test_27_4_generated_features_under_named_ones_are_dropped() -> None:
    mission = campaign_definition().mission(4)  # road north-south, the village in section 2
    gen = generate_terrain(
        ScriptedDice([6] * 9), options=GeneratorOptions(overall=OverallType.CLEAR)
    )  # clear column, 6: woods in every section
    assert all(f.kind is Terrain.WOODS for f in gen.battlefield.features)
    bf = with_named_features(mission, gen.battlefield)
    woods = [f for f in bf.features if f.kind is Terrain.WOODS]
    assert 0 < len(woods) < 9  # the woods of the road's and the village's sections are gone
    assert not any(
        _overlap(w, f) for w in woods for f in bf.features if f.kind is not Terrain.WOODS
    )


def test_27_4_village_buildings_are_found_where_they_stand() -> None:
    mission = campaign_definition().mission(4)
    village_a = mission.feature("village_a").features[0]
    woods = Feature(Terrain.WOODS, 1.0, 1.0, 9.0, 9.0)
    bf = Battlefield(features=(village_a, woods))  # feature 0 here; on the map, 1 (after the road)
    assert village_checked(mission, {0}, bf) == frozenset({"village_a"})
    assert village_checked(mission, {1}, bf) == frozenset()
    assert village_checked(mission, {1}) == frozenset({"village_a"})  # the map's own indices
    assert _rect(village_a) == (12.5, 25.0, 16.5, 29.0)


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [("keep_types", ["lava"], "lava"), ("overall", "marsh", "marsh")],
)
def test_27_4_generated_terrain_table_rejects_unknown_values(
    key: str, value: object, named: str
) -> None:
    good = load_config("campaigns/cestus_v/campaign.yaml").value
    broken = copy.deepcopy(good)
    broken["generated_terrain"][key] = value
    with pytest.raises(TableError, match=rf"campaign\.yaml.*{named}"):
        parse_campaign(parse_yaml(yaml.safe_dump(broken), "campaign.yaml"))
    missing = copy.deepcopy(good)
    del missing["generated_terrain"]
    with pytest.raises(TableError, match="generated_terrain"):
        parse_campaign(parse_yaml(yaml.safe_dump(missing), "campaign.yaml"))


def test_27_4_a_campaign_slot_may_ask_for_generated_terrain() -> None:
    from wargym.rules.no_quarter.campaigns.campaign import MissionSlot

    generated = MissionSlot("the_troll", "cestus_v:2:generated").load()
    assert generated.features is None and generated.options.terrain.overall is OverallType.CLEAR
    assert MissionSlot("the_troll", "cestus_v:2").load().features is not None  # the map
    assert MissionSlot("the_troll", "cestus_v:2:map").load().features is not None
    for bad in ("cestus_v:2:swamp", "cestus_v:x", "cestus_v:99"):
        with pytest.raises(
            TableError, match=r"expected cestus_v:<mission number>\[:map\|:generated\]"
        ):
            MissionSlot("m", bad).load()
