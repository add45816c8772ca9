"""The nine sections (§0.2) and the campaign terrain generator (§19.2-19.10)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import RulesError, StateError
from wargym.rules.no_quarter.battlefield.sections import (
    all_sections,
    edge_segments,
    entry_zone,
    exit_section,
    exits_through,
    render_ascii_sections,
    section_centre,
    section_of,
    section_rect,
    setup_zone,
)
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature, deployment_points
from wargym.rules.no_quarter.battlefield.terrain_generator import (
    GeneratorOptions,
    OverallType,
    SectionTerrain,
    generate_terrain,
    overall_type_for_roll,
    section_row,
)
from wargym.rules.no_quarter.forces.vocab import Terrain

C, H, W = OverallType.CLEAR, OverallType.HILLY, OverallType.WOODED
ST = SectionTerrain


# -- §0.2 sections ----------------------------------------------------------------------------
def test_0_2_section_table_rows_match_the_digest() -> None:
    expected = {
        1: ((0, 24, 12, 36), "far", "left", {"north", "west"}),
        2: ((12, 24, 24, 36), "far", "centre", {"north"}),
        3: ((24, 24, 36, 36), "far", "right", {"north", "east"}),
        4: ((0, 12, 12, 24), "middle", "left", {"west"}),
        5: ((12, 12, 24, 24), "middle", "centre", set()),
        6: ((24, 12, 36, 24), "middle", "right", {"east"}),
        7: ((0, 0, 12, 12), "near", "left", {"south", "west"}),
        8: ((12, 0, 24, 12), "near", "centre", {"south"}),
        9: ((24, 0, 36, 12), "near", "right", {"south", "east"}),
    }
    for s in all_sections():
        rect, row, col, edges = expected[s.number]
        assert s.rect == tuple(float(v) for v in rect)
        assert (s.row, s.column, {e.edge for e in s.edges}) == (row, col, edges)


def test_0_2_formula_and_boundaries_go_to_the_larger_cell() -> None:
    assert section_of((18, 30)) == 2
    assert section_of((12.0, 12.0)) == 5  # internal boundary: larger x and y
    assert section_of((11.999, 11.999)) == 7
    assert section_of((36, 36)) == 3 and section_of((36, 0)) == 9  # far/right edges
    assert section_of((24, 0)) == 9 and section_of((0, 24)) == 1
    with pytest.raises(StateError):
        section_of((-1, 5))
    with pytest.raises(StateError):
        section_rect(10)


def test_0_2_formula_on_other_tables() -> None:
    assert section_of((40, 60), 60, 90) == 3 and section_of((40, 50), 60, 90) == 6
    assert section_centre(5, 48, 36) == (24.0, 18.0)
    assert section_rect(3, 48, 36).rect == (32.0, 24.0, 48.0, 36.0)


def test_0_2_corner_sections_exit_through_both_edges() -> None:
    assert {(e.edge, e.start, e.end) for e in edge_segments([1])} == {
        ("north", 0.0, 12.0),
        ("west", 24.0, 36.0),
    }
    assert exits_through((5, 36), "north", [1])
    assert exits_through((0, 30), "west", [1])
    assert not exits_through((0, 20), "west", [1])
    assert exits_through((18, 36), "north", [1, 2, 3]) and not exits_through((18, 0), "south", [2])
    assert exit_section((20, 37), "north") == 2
    assert exit_section((-0.5, 5), "west") == 7


def test_22_0_entry_and_setup_zones() -> None:
    assert entry_zone() == ((0, 0, 12, 1), (12, 0, 24, 1), (24, 0, 36, 1))
    assert entry_zone([8, 5]) == ((12, 0, 24, 1),)
    assert entry_zone([1, 2], edge="north") == ((0, 35, 12, 36), (12, 35, 24, 36))
    assert setup_zone([7, 8]) == ((0, 0, 12, 12), (12, 0, 24, 12))


def test_render_ascii_sections_overlays_numbers_and_grid() -> None:
    bf = Battlefield(features=(Feature(Terrain.WOODS, 0, 0, 4, 4),))
    text = render_ascii_sections(bf)
    lines = text.split("\n")
    assert len(lines) == 36 and all(len(line) == 36 for line in lines)
    assert lines[35 - 30][6] == "1" and lines[35 - 6][30] == "9" and lines[35 - 18][18] == "5"
    assert lines[0][12] == "|" and lines[35 - 24][0] == "-" and lines[35 - 24][12] == "+"
    assert lines[35][0] == "T"  # terrain kept
    assert "|" not in render_ascii_sections(bf, grid=False)


# -- §19.2 / §19.3.1 tables -------------------------------------------------------------------
def test_19_2_book_example_b4_roll_4_is_hilly() -> None:
    assert overall_type_for_roll(4) is H
    faces = [overall_type_for_roll(f) for f in range(1, 7)]
    assert faces == [C, C, C, H, H, W]
    gen = generate_terrain(ScriptedDice([4, 3, 1, 1, 1, 1, 1, 1, 1, 1]))
    assert gen.overall is H and gen.overall_roll == 4
    assert gen.sections[0].terrain is ST.HILL  # a 3 in the Hilly column


def test_19_3_1_terrain_generator_table() -> None:
    table = {
        1: (ST.CLEAR, ST.CLEAR, ST.CLEAR),
        2: (ST.CLEAR, ST.CLEAR, ST.CLEAR),
        3: (ST.CLEAR, ST.HILL, ST.WOODS),
        4: (ST.CLEAR, ST.HILL, ST.WOODS),
        5: (ST.HILL, ST.HILL, ST.WOODS),
        6: (ST.WOODS, ST.WOODS, ST.WOODED_HILL),
    }
    buildings = {(4, C), (5, H), (5, W)}
    for face, row in table.items():
        for kind, terrain in zip((C, H, W), row, strict=True):
            cell = section_row(kind, face)
            assert cell.terrain is terrain
            assert cell.buildings == ((face, kind) in buildings)
    with pytest.raises(RulesError):
        section_row(C, 7)


def test_19_3_1_book_example_b5_clear_sections_1_and_2() -> None:
    # Clear chosen; section 1 rolls 3 -> clear; section 2 rolls 4 -> clear (B), 1/2d6 = 5 -> 3.
    dice = ScriptedDice([3, 4, 5, 1, 1, 1, 1, 1, 1, 1])
    gen = generate_terrain(dice, options=GeneratorOptions(overall=C))
    s1, s2 = gen.sections[0], gen.sections[1]
    assert (s1.terrain, s1.building_roll, s1.buildings) == (ST.CLEAR, None, 0)
    assert (s2.terrain, s2.building_roll, s2.buildings) == (ST.CLEAR, 5, 3)
    assert gen.overall_roll is None and dice.remaining == 0
    assert section_row(C, 3).buildings is False and section_row(C, 4).buildings is True


def test_19_3_1_derived_d40_d41() -> None:
    assert section_row(W, 6).terrain is ST.WOODED_HILL and not section_row(W, 6).buildings
    assert section_row(H, 5).terrain is ST.HILL and section_row(H, 5).buildings


# -- placement rulings ------------------------------------------------------------------------
def _features(gen_faces: list[int], **opts: object) -> tuple[Feature, ...]:
    dice = ScriptedDice(gen_faces)
    gen = generate_terrain(dice, options=GeneratorOptions(**opts))  # type: ignore[arg-type]
    assert dice.remaining == 0, "the generator must use exactly the scripted dice"
    return gen.battlefield.features


def test_19_3_1_one_centred_feature_covering_75_percent_hill_crest_east_west() -> None:
    feats = _features([4, 1, 3, 1, 1, 1, 1, 1, 1, 1])  # hilly; section 2 rolls 3 -> hill
    assert len(feats) == 1
    hill = feats[0]
    assert hill.kind is Terrain.HILL
    assert hill.rect == pytest.approx((12.8, 24.8, 23.2, 35.2))
    assert (hill.x1 - hill.x0) * (hill.y1 - hill.y0) >= 0.75 * 144
    assert hill.crest == ((12.8, 30.0), (23.2, 30.0))
    ns = _features([4, 1, 3, 1, 1, 1, 1, 1, 1, 1], hill_crest="north_south")[0]
    assert ns.crest == ((18.0, 24.8), (18.0, 35.2))


def test_19_3_1_wooded_hill_is_a_hill_and_woods_on_one_rectangle() -> None:
    feats = _features([6, 1, 1, 1, 1, 1, 1, 1, 1, 6])  # wooded; section 9 rolls 6
    assert sorted(f.kind.value for f in feats) == ["hill", "woods"]
    assert feats[0].rect == feats[1].rect == pytest.approx((24.8, 0.8, 35.2, 11.2))
    rough = _features([6, 1, 1, 1, 1, 1, 1, 1, 1, 6], woods_as_rough=True)
    assert sorted(f.kind.value for f in rough) == ["hill", "rough"]


def test_19_4_generated_buildings_size_spacing_and_armour() -> None:
    # Clear; section 5 rolls 4 -> (B); 1/2d6 of 6 -> 3 buildings.
    feats = _features([1, 1, 1, 1, 1, 4, 6, 1, 1, 1, 1])
    buildings = [f for f in feats if f.kind is Terrain.BUILDING]
    assert len(buildings) == 3 and len(feats) == 3
    for b in buildings:
        assert (b.x1 - b.x0, b.y1 - b.y0) == (4.0, 4.0)
        assert b.building_armor == 3  # concrete (19.4.2)
        assert 12 <= b.x0 < b.x1 <= 24 and 12 <= b.y0 < b.y1 <= 24
    for a, b in itertools.combinations(buildings, 2):
        gap = max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1)
        assert gap >= 2.0 - 1e-9
    bunker = _features([1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1], building_construction="bunker")
    assert [f.building_armor for f in bunker] == [5]
    assert bunker[0].rect == (16.0, 16.0, 20.0, 20.0)  # one building: centred


def test_19_4_buildings_stand_on_the_hill_of_a_hill_b_section() -> None:
    feats = _features([4, 5, 3, 1, 1, 1, 1, 1, 1, 1, 1])  # hilly; section 1: 5 -> hill (B), 2
    kinds = sorted(f.kind.value for f in feats)
    assert kinds == ["building", "building", "hill"]
    hill = next(f for f in feats if f.kind is Terrain.HILL)
    for b in (f for f in feats if f.kind is Terrain.BUILDING):
        assert hill.x0 <= b.x0 and b.x1 <= hill.x1


def test_19_7_19_8_extras_road_river_lake() -> None:
    # clear, all sections clear; road die 3 -> centre column; river die 5 -> middle/far; lake
    # die 3 -> section 5, moved east to 6 because the road runs through section 5.
    dice = ScriptedDice([1] * 10 + [3, 5, 3])
    gen = generate_terrain(dice, options=GeneratorOptions(road=True, river=True, lake=True))
    assert dice.remaining == 0
    assert gen.road_column == 1 and gen.river_y == 24.0 and gen.lake_section == 6
    kinds = {f.kind: f for f in gen.battlefield.features}
    assert kinds[Terrain.ROAD].rect == (17.0, 0.0, 19.0, 36.0)
    assert kinds[Terrain.RIVER].rect == (0.0, 23.25, 36.0, 24.75)
    assert kinds[Terrain.DEEP_WATER].rect == pytest.approx((24.8, 12.8, 35.2, 23.2))
    assert gen.sections[5].lake


def test_19_4_buildings_keep_off_roads_and_rivers() -> None:
    # clear; section 8 rolls 4 -> (B) 6 -> 3 buildings; road in the centre column; river 1-3.
    dice = ScriptedDice([1] * 8 + [4, 6, 1, 3, 1])
    gen = generate_terrain(dice, options=GeneratorOptions(road=True, river=True))
    road = next(f for f in gen.battlefield.features if f.kind is Terrain.ROAD)
    river = next(f for f in gen.battlefield.features if f.kind is Terrain.RIVER)
    buildings = [f for f in gen.battlefield.features if f.kind is Terrain.BUILDING]
    assert len(buildings) == 3 == gen.sections[7].buildings
    for b in buildings:
        assert b.x1 <= road.x0 or b.x0 >= road.x1
        assert b.y1 <= river.y0
        assert b.x1 - b.x0 >= 2.0


def test_19_1_table_at_least_three_feet() -> None:
    with pytest.raises(RulesError):
        generate_terrain(ScriptedDice([1] * 10), width=24)
    with pytest.raises(RulesError):
        GeneratorOptions(building_size=7)
    with pytest.raises(RulesError):
        GeneratorOptions(building_construction="straw")


# -- determinism and legality -----------------------------------------------------------------
def test_19_2_generator_is_deterministic_for_given_dice() -> None:
    a = generate_terrain(RandomDice.from_seed(11), options=GeneratorOptions(road=True))
    b = generate_terrain(RandomDice.from_seed(11), options=GeneratorOptions(road=True))
    assert a == b and a.battlefield.to_dict() == b.battlefield.to_dict()


def _overlap(a: Feature, b: Feature) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_19_2_property_200_seeds_always_legal() -> None:
    rng = np.random.default_rng(2024)
    for seed in range(200):
        road, river, lake, rough = (bool(v) for v in rng.random(4) < 0.5)
        options = GeneratorOptions(road=road, river=river, lake=lake, woods_as_rough=rough)
        size = (36.0, 36.0) if seed % 4 else (48.0, 36.0 + seed % 3 * 12)
        gen = generate_terrain(
            RandomDice.from_seed(seed),
            width=size[0],
            height=size[1],
            options=options,
        )
        bf = gen.battlefield
        assert Battlefield.from_dict(bf.to_dict()) == bf
        for f in bf.features:
            assert 0 <= f.x0 < f.x1 <= bf.width and 0 <= f.y0 < f.y1 <= bf.height
        buildings = bf.index.buildings
        for b in buildings:
            assert b.x1 - b.x0 <= 6 and b.y1 - b.y0 <= 6 and b.building_armor == 3
        for a, b in itertools.combinations(buildings, 2):
            assert not _overlap(a, b)
        for b in buildings:
            assert not any(_overlap(b, o) for o in (*bf.index.roads, *bf.index.rivers))
            assert not any(_overlap(b, o) for o in bf.index.deep)
        assert sum(s.buildings for s in gen.sections) == len(buildings)
        assert all(math.isfinite(f.x0) for f in bf.features)
        for edge in ("south", "north"):
            points = deployment_points(bf, edge, 12, np.random.default_rng(seed))
            assert len(points) == 12


def test_19_3_1_generated_buildings_2in_from_section_edges_where_possible() -> None:
    # 42" table (14" sections): clear; section 5 rolls 4 -> (B), 1/2d6 of 3 -> 2 buildings.
    # Two 4" buildings, 2" apart and 2" from both section edges, fit exactly: 2+4+2+4+2 = 14.
    dice = ScriptedDice([1, 1, 1, 1, 1, 4, 3, 1, 1, 1, 1])
    gen = generate_terrain(dice, width=42.0, height=42.0)
    s = section_rect(5, 42.0, 42.0)
    buildings = [f for f in gen.battlefield.features if f.kind is Terrain.BUILDING]
    assert len(buildings) == 2
    for b in buildings:
        assert (b.x1 - b.x0, b.y1 - b.y0) == (4.0, 4.0)
        edge_gap = min(b.x0 - s.x0, s.x1 - b.x1, b.y0 - s.y0, s.y1 - b.y1)
        assert edge_gap >= 2.0 - 1e-9
    a, b = buildings
    assert max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1) >= 2.0 - 1e-9
