"""Table geometry, battlefield records and terrain tables (§6, rulings D1-D4, Appendix A)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargym.rules.errors import StateError, TableError
from wargym.rules.no_quarter.battlefield import terrain_tables
from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Body,
    Feature,
    building_armor_for,
    deployment_points,
    generate_battlefield,
    path_problem,
    terrain_config,
)
from wargym.rules.no_quarter.forces.vocab import Aspect, Terrain
from wargym.rules.no_quarter.sight_movement.geometry import (
    angle_between,
    aspect,
    distance,
    heading_to,
    in_arc,
    normalize,
    path_length,
    point_along,
    segment_hits_circle,
    step_toward,
)
from wargym.rules.tables import parse_yaml, read_config_text

coord = st.floats(-100.0, 100.0, allow_nan=False)
point = st.tuples(coord, coord)
heading = st.floats(-720.0, 720.0, allow_nan=False)


# -- headings and arcs (§6.2, D3) --------------------------------------------------------------


def test_6_2_headings_are_degrees_counter_clockwise_from_east() -> None:
    assert heading_to((0.0, 0.0), (1.0, 0.0)) == 0.0
    assert heading_to((0.0, 0.0), (0.0, 1.0)) == 90.0
    assert heading_to((0.0, 0.0), (-1.0, 0.0)) == 180.0
    assert heading_to((0.0, 0.0), (0.0, -1.0)) == 270.0
    assert heading_to((2.0, 2.0), (2.0, 2.0)) == 0.0
    assert normalize(-90.0) == 270.0
    assert normalize(720.0) == 0.0
    assert angle_between(350.0, 10.0) == pytest.approx(20.0)
    assert angle_between(0.0, 180.0) == pytest.approx(180.0)
    assert angle_between(-30.0, 30.0) == pytest.approx(60.0)


def test_d3_arc_boundary_counts_as_front() -> None:
    origin = (0.0, 0.0)
    assert in_arc(origin, 0.0, (0.0, 5.0))  # exactly 90 degrees: inside
    assert in_arc(origin, 0.0, (0.0, -5.0))
    assert not in_arc(origin, 0.0, (-0.001, 5.0))
    assert in_arc(origin, 0.0, (5.0, 4.9))
    assert in_arc(origin, 90.0, (5.0, 0.0))
    assert not in_arc(origin, 90.0, (5.0, -0.01))
    assert in_arc(origin, 0.0, origin)  # a point on the origin is inside
    assert in_arc(origin, 0.0, (3.0, 3.0), half_angle=45.0)
    assert not in_arc(origin, 0.0, (3.0, 3.1), half_angle=45.0)


@given(point, point)
def test_d1_distance_is_symmetric(a: tuple[float, float], b: tuple[float, float]) -> None:
    assert distance(a, b) == distance(b, a)
    assert distance(a, b) >= 0.0


@given(point, heading, point)
def test_d3_arc_mirror_symmetry_and_cover_of_plane(
    origin: tuple[float, float], facing: float, p: tuple[float, float]
) -> None:
    # mirror p across the facing axis: same angle from the facing, same answer
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    rx, ry = p[0] - origin[0], p[1] - origin[1]
    along = rx * fx + ry * fy
    mirrored = (origin[0] + 2 * along * fx - rx, origin[1] + 2 * along * fy - ry)
    if abs(along) > 1e-6 * (1.0 + math.hypot(rx, ry)):
        assert in_arc(origin, facing, p) == in_arc(origin, facing, mirrored)
    # front and rear half-planes together cover the whole table (6.2)
    assert in_arc(origin, facing, p) or in_arc(origin, facing + 180.0, p)


@given(heading, heading)
def test_6_2_angle_between_is_symmetric_and_bounded(h1: float, h2: float) -> None:
    a = angle_between(h1, h2)
    assert a == pytest.approx(angle_between(h2, h1))
    assert 0.0 <= a <= 180.0
    assert 0.0 <= normalize(h1) < 360.0


# -- aspect (§6.2, D4) -------------------------------------------------------------------------


def test_d4_aspect_front_flank_rear() -> None:
    t = (0.0, 0.0)
    assert aspect(t, 0.0, (5.0, 0.0), (5.0, 0.0)) is Aspect.FRONT
    assert aspect(t, 0.0, (3.0, 3.0), (3.0, 3.0)) is Aspect.FRONT  # 45 degrees exactly
    assert aspect(t, 0.0, (3.0, 3.1), (3.0, 3.1)) is Aspect.FLANK
    assert aspect(t, 0.0, (0.0, 5.0), (0.0, 5.0)) is Aspect.FLANK  # 90: not rear
    assert aspect(t, 0.0, (-5.0, 1.0), (-5.0, 1.0)) is Aspect.REAR
    assert aspect(t, 90.0, (0.0, -5.0), (0.0, -5.0)) is Aspect.REAR


def test_6_2_rear_needs_start_and_end_behind() -> None:
    t = (0.0, 0.0)
    # started in front, ended behind: not rear, and behind the flank line: flank
    assert aspect(t, 0.0, (5.0, 0.0), (-5.0, 0.0)) is Aspect.FLANK
    # started behind, ended in front: front
    assert aspect(t, 0.0, (-5.0, 0.0), (5.0, 0.0)) is Aspect.FRONT
    assert aspect(t, 0.0, (-5.0, 0.0), (-4.0, -2.0)) is Aspect.REAR


# -- polylines and circles (D1, D5) ------------------------------------------------------------


def test_d5_polyline_helpers() -> None:
    path = [(0.0, 0.0), (3.0, 4.0), (3.0, 10.0)]
    assert path_length(path) == pytest.approx(11.0)
    assert point_along(path, 2.5) == pytest.approx((1.5, 2.0))
    assert point_along(path, 7.0) == pytest.approx((3.0, 6.0))
    assert point_along(path, 50.0) == (3.0, 10.0)
    assert point_along(path, -1.0) == (0.0, 0.0)
    assert step_toward((0.0, 0.0), (0.0, 10.0), 4.0) == pytest.approx((0.0, 4.0))
    assert step_toward((1.0, 1.0), (1.0, 1.0), 4.0) == (1.0, 1.0)


def test_d11_segment_hits_circle_ignores_tangents() -> None:
    assert segment_hits_circle((0.0, 0.0), (10.0, 0.0), (5.0, 0.4), 0.5)
    assert not segment_hits_circle((0.0, 0.0), (10.0, 0.0), (5.0, 0.5), 0.5)
    assert not segment_hits_circle((0.0, 0.0), (4.0, 0.0), (5.0, 0.0), 0.5)
    assert segment_hits_circle((0.0, 0.0), (4.6, 0.0), (5.0, 0.0), 0.5)


# -- records, tables and serialisation (App. A, §19.4.2) ----------------------------------------


def test_19_4_2_building_armor_from_yaml() -> None:
    assert building_armor_for("bunker") == 5
    assert building_armor_for("reinforced_concrete") == 4
    assert building_armor_for("concrete") == 3
    assert building_armor_for("light_construction") == 2
    with pytest.raises(StateError, match="straw"):
        building_armor_for("straw")
    cfg = terrain_config()
    assert cfg.cost_per_inch(Terrain.WOODS) == 2.0
    assert cfg.cost_per_inch(Terrain.ROAD) == 1.0
    assert cfg.deep_water_shore_band == 2.0
    assert cfg.building_max_size == (6.0, 6.0)


def test_app_a_bad_yaml_is_reported_with_file_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    text = read_config_text("rules/no_quarter/terrain.yaml")
    bad = text.replace("woods: {move_multiplier: 0.5}", "woods: {move_multiplier: fast}")
    monkeypatch.setattr(terrain_tables, "load_config", lambda path: parse_yaml(bad, path))
    with pytest.raises(TableError, match=r"terrain\.yaml: terrain\.woods\.move_multiplier"):
        terrain_tables.terrain_config.__wrapped__()
    bad = text.replace("woods: {move_multiplier: 0.5}", "woods: {move_multiplier: 0.5, x: 1}")
    monkeypatch.setattr(terrain_tables, "load_config", lambda path: parse_yaml(bad, path))
    with pytest.raises(TableError, match=r"terrain\.woods: unknown keys \['x'\]"):
        terrain_tables.terrain_config.__wrapped__()


def test_17_1_bad_sight_and_cover_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    los = read_config_text("rules/no_quarter/line_of_sight.yaml")
    bad = los.replace("night: 12", "night: -12")
    monkeypatch.setattr(terrain_tables, "load_config", lambda path: parse_yaml(bad, path))
    with pytest.raises(TableError, match=r"limits_without_ews\.night: must be positive"):
        terrain_tables.sight_config.__wrapped__()
    cover = read_config_text("rules/no_quarter/cover.yaml")
    bad = cover.replace("river: [gut, leg_l, leg_r]", "river: [gut, tail]")
    monkeypatch.setattr(terrain_tables, "load_config", lambda path: parse_yaml(bad, path))
    with pytest.raises(TableError, match=r"cover\.yaml: protected_locations\.river\[1\]"):
        terrain_tables.cover_config.__wrapped__()


def test_19_6_hill_crest_defaults_to_long_centre_line() -> None:
    wide = Feature(Terrain.HILL, 2.0, 4.0, 12.0, 8.0)
    assert wide.crest == ((2.0, 6.0), (12.0, 6.0))
    tall = Feature(Terrain.HILL, 2.0, 4.0, 6.0, 14.0)
    assert tall.crest == ((4.0, 4.0), (4.0, 14.0))
    assert wide == Feature(Terrain.HILL, 2.0, 4.0, 12.0, 8.0, crest=((2.0, 6.0), (12.0, 6.0)))


def test_d1_feature_validation_names_the_field() -> None:
    with pytest.raises(StateError, match="x1"):
        Feature(Terrain.WOODS, 5.0, 0.0, 4.0, 3.0)
    with pytest.raises(StateError, match="19.4.1"):
        Feature(Terrain.BUILDING, 0.0, 0.0, 7.0, 3.0)
    with pytest.raises(StateError, match="building_armor"):
        Feature(Terrain.BUILDING, 0.0, 0.0, 3.0, 3.0, building_armor=9)
    with pytest.raises(StateError, match="building_armor"):
        Feature(Terrain.WOODS, 0.0, 0.0, 3.0, 3.0, building_armor=3)
    with pytest.raises(StateError, match="crest"):
        Feature(Terrain.WOODS, 0.0, 0.0, 3.0, 3.0, crest=((0.0, 0.0), (1.0, 1.0)))
    with pytest.raises(StateError, match="outside the hill"):
        Feature(Terrain.HILL, 0.0, 0.0, 3.0, 3.0, crest=((0.0, 0.0), (5.0, 1.0)))
    with pytest.raises(StateError, match="off the table"):
        Battlefield(10.0, 10.0, (Feature(Terrain.WOODS, 8.0, 8.0, 12.0, 9.0),))


def test_d1_battlefield_round_trip_and_bad_input() -> None:
    bf = generate_battlefield(np.random.default_rng(7), night=True)
    data = bf.to_dict()
    again = Battlefield.from_dict(data)
    assert again == bf
    assert hash(again) == hash(bf)
    assert again.to_dict() == data
    with pytest.raises(StateError, match=r"battlefield\.width"):
        Battlefield.from_dict({**data, "width": -3})
    with pytest.raises(StateError, match=r"battlefield: unknown keys \['size'\]"):
        Battlefield.from_dict({**data, "size": 3})
    feature = {"kind": "lava", "x0": 0, "y0": 0, "x1": 1, "y1": 1}
    with pytest.raises(StateError, match=r"battlefield\.features\[0\]\.kind"):
        Battlefield.from_dict({"features": [feature]})
    feature = {"kind": "woods", "x0": 3, "y0": 0, "x1": 1, "y1": 1}
    with pytest.raises(StateError, match=r"battlefield\.features\[0\]\.x1"):
        Battlefield.from_dict({"features": [feature]})
    feature = {"kind": "hill", "x0": 0, "y0": 0, "x1": 4, "y1": 1, "crest": [[0, 0]]}
    with pytest.raises(StateError, match=r"battlefield\.features\[0\]\.crest"):
        Battlefield.from_dict({"features": [feature]})
    with pytest.raises(StateError, match=r"battlefield\.night"):
        Battlefield.from_dict({"night": "yes"})


def test_d1_terrain_queries() -> None:
    woods = Feature(Terrain.WOODS, 0.0, 0.0, 10.0, 10.0)
    road = Feature(Terrain.ROAD, 4.0, 0.0, 6.0, 36.0)
    bf = Battlefield(features=(woods, road))
    assert bf.terrain_at((5.0, 5.0)) == frozenset({Terrain.WOODS, Terrain.ROAD})
    assert bf.terrain_at((20.0, 20.0)) == frozenset({Terrain.CLEAR})
    assert bf.features_at((1.0, 1.0)) == (woods,)
    assert bf.is_on_table((0.0, 36.0))
    assert not bf.is_on_table((0.3, 5.0), margin=0.5)
    assert not bf.is_on_table((-0.1, 5.0))


def test_19_ascii_map_glyphs() -> None:
    bf = Battlefield(
        12.0,
        6.0,
        (
            Feature(Terrain.BUILDING, 0.0, 4.0, 2.0, 6.0, building_armor=3),
            Feature(Terrain.WOODS, 2.0, 4.0, 4.0, 6.0),
            Feature(Terrain.HILL, 4.0, 4.0, 6.0, 6.0),
            Feature(Terrain.RIVER, 6.0, 4.0, 8.0, 6.0),
            Feature(Terrain.DEEP_WATER, 8.0, 4.0, 10.0, 6.0),
            Feature(Terrain.ROAD, 10.0, 0.0, 11.0, 6.0),
            Feature(Terrain.ROUGH, 0.0, 0.0, 2.0, 2.0),
        ),
    )
    text = bf.ascii(bodies=(Body(3, (5.5, 2.5)), Body(12, (8.5, 0.5))))
    lines = text.split("\n")
    assert len(lines) == 6 and all(len(line) == 12 for line in lines)
    assert lines[0] == "##TT^^~~==:."  # north is the top row
    assert lines[3][5] == "3"
    assert lines[5][8] == "c"
    assert lines[5][:2] == "%%"
    assert len(bf.ascii(cell=2.0).split("\n")) == 3


# -- generated battlefields and deployment ------------------------------------------------------


def test_d1_generate_battlefield_is_deterministic() -> None:
    a = generate_battlefield(np.random.default_rng(42))
    b = generate_battlefield(np.random.default_rng(42))
    assert a == b and a.to_dict() == b.to_dict()
    others = {generate_battlefield(np.random.default_rng(s)).to_dict().__repr__() for s in range(5)}
    assert len(others) > 1
    assert generate_battlefield(np.random.default_rng(1), n_features=0).features == ()


@pytest.mark.parametrize("seed", range(12))
def test_d1_generated_battlefields_leave_deployment_strips_and_deploy(seed: int) -> None:
    bf = generate_battlefield(np.random.default_rng(seed))
    assert bf.features
    for f in bf.features:
        if f.kind is not Terrain.ROAD:
            assert f.y0 >= 6.0 - 1e-9 and f.y1 <= bf.height - 6.0 + 1e-9
        if f.kind is Terrain.BUILDING:
            assert f.building_armor in (2, 3, 4, 5)
    rng = np.random.default_rng(seed)
    south = deployment_points(bf, "south", 6, rng)
    north = deployment_points(bf, "north", 6, rng)
    bodies = [Body(i, p) for i, p in enumerate(south + north)]
    assert len(bodies) == 12
    for body in bodies:
        assert path_problem(bf, [body.pos], mover_id=body.id, bodies=bodies) is None
    assert all(p[1] <= 6.0 for p in south)
    assert all(p[1] >= bf.height - 6.0 for p in north)


def test_d1_deployment_points_refuse_impossible_requests() -> None:
    bf = Battlefield(4.0, 4.0)
    with pytest.raises(StateError, match="fit"):
        deployment_points(bf, "west", 50, np.random.default_rng(0))
    with pytest.raises(StateError, match="edge"):
        deployment_points(bf, "up", 1, np.random.default_rng(0))
    east = deployment_points(Battlefield(), "east", 4, np.random.default_rng(0))
    assert all(30.0 <= p[0] <= 35.5 for p in east)
