"""Roads (§19.8 ruling): normal speed only for a move whose centre stays on the road throughout;
bridges (19.7 ruling): a Mech on a bridge is not in the water."""

from __future__ import annotations

import math

import pytest

from wargym.rules.errors import StateError, TableError
from wargym.rules.no_quarter.battlefield import terrain_tables
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature, move_cost, path_cost
from wargym.rules.no_quarter.campaigns.campaign import definition_from_dict, load_definition
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.serial import to_jsonable
from wargym.rules.tables import parse_yaml, read_config_text


def _field() -> Battlefield:
    return Battlefield(
        36.0,
        36.0,
        (
            Feature(Terrain.WOODS, 0.0, 10.0, 36.0, 20.0),
            Feature(Terrain.ROAD, 17.0, 0.0, 19.0, 36.0),
            Feature(Terrain.RIVER, 0.0, 22.0, 36.0, 28.0),
            Feature(Terrain.ROAD, 25.0, 21.0, 29.0, 29.0),  # a bridge (counts as road)
        ),
    )


def test_19_8_road_speed_for_a_whole_move_on_the_road() -> None:
    bf = _field()
    assert path_cost(bf, [(18.0, 12.0), (18.0, 18.0)]) == pytest.approx(6.0)  # all on the road
    # leaves the road into the woods: the whole move pays the woods' half speed (2" per inch)
    assert path_cost(bf, [(18.0, 12.0), (18.0, 18.0), (22.0, 18.0)]) == pytest.approx(20.0)
    diagonal = math.hypot(6.0, 6.0)
    assert move_cost(bf, (18.0, 12.0), (24.0, 18.0)) == pytest.approx(2.0 * diagonal)
    assert move_cost(bf, (10.0, 12.0), (18.0, 12.0)) == pytest.approx(16.0)  # onto the road


def test_19_7_bridge_is_not_water_even_for_a_move_that_leaves_it() -> None:
    bf = _field()
    assert path_cost(bf, [(27.0, 21.0), (27.0, 29.0)]) == pytest.approx(8.0)
    # 3" of river off the bridge at half speed, 2" on the bridge at normal speed
    assert move_cost(bf, (22.0, 24.0), (27.0, 24.0)) == pytest.approx(3.0 * 2.0 + 2.0)


def test_19_8_bad_road_speed_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    text = read_config_text("rules/no_quarter/terrain.yaml")
    bad = text.replace("speed: whole_move}", "speed: sometimes}")
    assert bad != text
    monkeypatch.setattr(terrain_tables, "load_config", lambda path: parse_yaml(bad, path))
    with pytest.raises(TableError, match=r"terrain\.yaml: terrain\.road\.speed.*sometimes"):
        terrain_tables.terrain_config.__wrapped__()
    assert terrain_tables.terrain_config().road_per_inch is False  # the cached tables unchanged


def test_27_3_bad_company_rolled_is_named() -> None:
    data = load_definition("cestus_v")
    raw = to_jsonable(data)
    raw["company_rolled"] = "often"
    with pytest.raises(StateError, match="company_rolled"):
        definition_from_dict(raw, "bad.yaml")
    assert load_definition("cestus_v").company_rolled is True
