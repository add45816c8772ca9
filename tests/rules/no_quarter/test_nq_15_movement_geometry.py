"""Movement costs, legal paths, Duck Back, leaving, flames (§15.2, D5, D9, D10, D27, D28)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Body,
    Feature,
    deep_water_allowance,
    deployment_points,
    duck_back_destination,
    enters_deep_water,
    flame_area_hits,
    generate_battlefield,
    in_cover,
    is_concealed,
    move_candidates,
    move_cost,
    move_toward_edge,
    nearest_edge_away,
    path_cost,
    path_problem,
    sight,
)
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.no_quarter.sight_movement.geometry import distance, path_length

OPEN = Battlefield()
WOODS = Feature(Terrain.WOODS, 10.0, 0.0, 20.0, 10.0)


# -- costs (15.2.1, D5, D28, 19.7.1) -----------------------------------------------------------


def test_15_2_1_half_speed_terrain_costs_double() -> None:
    assert move_cost(OPEN, (0.0, 0.0), (10.0, 0.0)) == pytest.approx(10.0)
    bf = Battlefield(features=(WOODS,))
    assert move_cost(bf, (5.0, 5.0), (25.0, 5.0)) == pytest.approx(30.0)
    assert move_cost(bf, (12.0, 5.0), (14.0, 5.0)) == pytest.approx(4.0)
    for kind in (Terrain.ROUGH, Terrain.RIVER):
        other = Battlefield(features=(Feature(kind, 10.0, 0.0, 20.0, 10.0),))
        assert move_cost(other, (5.0, 5.0), (25.0, 5.0)) == pytest.approx(30.0)
    hill = Battlefield(features=(Feature(Terrain.HILL, 10.0, 0.0, 20.0, 10.0),))
    assert move_cost(hill, (5.0, 5.0), (25.0, 5.0)) == pytest.approx(20.0)


def test_19_8_road_removes_the_penalty_and_penalties_do_not_stack() -> None:
    road = Feature(Terrain.ROAD, 14.0, 0.0, 16.0, 36.0)
    bf = Battlefield(features=(WOODS, road))
    woods_only = move_cost(Battlefield(features=(WOODS,)), (5.0, 5.0), (25.0, 5.0))
    # crossing the road is no move on the road: the woods' penalty for all of it (ruling 19.8)
    assert move_cost(bf, (5.0, 5.0), (25.0, 5.0)) == pytest.approx(woods_only)
    assert move_cost(bf, (15.0, 1.0), (15.0, 9.0)) == pytest.approx(8.0)  # along the road
    stacked = Battlefield(features=(WOODS, Feature(Terrain.ROUGH, 12.0, 0.0, 18.0, 10.0)))
    assert move_cost(stacked, (5.0, 5.0), (25.0, 5.0)) == pytest.approx(30.0)


def test_d28_jump_ignores_terrain_but_costs_its_length() -> None:
    bf = Battlefield(features=(WOODS,))
    assert move_cost(bf, (5.0, 5.0), (25.0, 5.0), jumping=True) == pytest.approx(20.0)
    path = [(5.0, 5.0), (15.0, 5.0), (15.0, 15.0)]
    assert path_cost(bf, path) == pytest.approx(5.0 + 10.0 + 5.0 * 2 + 5.0)
    assert path_cost(bf, path, jump_segment=0) == pytest.approx(10.0 + 15.0)


def test_19_7_1_deep_water_shore_band_and_beyond() -> None:
    bf = Battlefield(features=(Feature(Terrain.DEEP_WATER, 10.0, 10.0, 20.0, 20.0),))
    assert move_cost(bf, (5.0, 15.0), (11.0, 15.0)) == pytest.approx(5.0 + 2.0)
    assert move_cost(bf, (5.0, 15.0), (15.0, 15.0)) == math.inf
    assert enters_deep_water(bf, [(5.0, 15.0), (15.0, 15.0)])
    assert not enters_deep_water(bf, [(5.0, 15.0), (11.0, 15.0)])
    assert deep_water_allowance(8.0) == 2.0
    assert deep_water_allowance(1.5) == 1.5
    # a candidate move into deep water is limited to 2" in total
    cands = move_candidates(bf, (11.0, 15.0), allowance=8.0, mover_id=0, bodies=())
    for c in cands:
        if enters_deep_water(bf, [(11.0, 15.0), c]):
            assert distance((11.0, 15.0), c) <= 2.0 + 1e-9


# -- legal paths (D5, D28) ---------------------------------------------------------------------


def test_d5_bases_may_not_pass_through_buildings_unless_jumping() -> None:
    bf = Battlefield(features=(Feature(Terrain.BUILDING, 10.0, 4.0, 12.0, 6.0),))
    kw = {"mover_id": 0, "bodies": ()}
    assert "passes through building" in str(path_problem(bf, [(5.0, 5.0), (15.0, 5.0)], **kw))
    assert path_problem(bf, [(5.0, 3.5), (15.0, 3.5)], **kw) is None  # base slides along
    assert path_problem(bf, [(5.0, 3.6), (15.0, 3.6)], **kw) is not None
    assert path_problem(bf, [(5.0, 5.0), (15.0, 5.0)], jump_segment=0, **kw) is None
    landing = path_problem(bf, [(5.0, 5.0), (11.0, 5.0)], jump_segment=0, **kw)
    assert landing is not None and "overlaps building" in landing
    mid = path_problem(bf, [(5.0, 5.0), (11.0, 5.0), (11.0, 9.0)], jump_segment=0, **kw)
    assert mid is not None and "on landing" in mid
    assert path_problem(bf, [(5.0, 5.0)], jump_segment=0, **kw) == "no segment 0 to jump"
    assert path_problem(bf, [], **kw) == "empty path"


def test_d5_bases_may_not_pass_through_or_end_on_other_bases() -> None:
    me, other = Body(0, (5.0, 5.0)), Body(3, (10.0, 5.0))
    bodies = [me, other]
    assert path_problem(OPEN, [(5.0, 5.0), (15.0, 5.0)], mover_id=0, bodies=bodies) == (
        "passes through mech 3"
    )
    assert path_problem(OPEN, [(5.0, 5.0), (9.5, 5.0)], mover_id=0, bodies=bodies) == (
        "overlaps mech 3 at the end"
    )
    assert path_problem(OPEN, [(5.0, 5.0), (9.0, 5.0)], mover_id=0, bodies=bodies) is None
    hop = [(5.0, 5.0), (15.0, 5.0)]
    assert path_problem(OPEN, hop, mover_id=0, bodies=bodies, jump_segment=0) is None
    # the mover's own base is not an obstacle
    assert path_problem(OPEN, [(5.0, 5.0), (5.2, 5.0)], mover_id=0, bodies=bodies) is None


def test_d5_bases_stay_on_the_table_unless_leaving() -> None:
    problem = path_problem(OPEN, [(5.0, 5.0), (5.0, -1.0)], mover_id=0, bodies=())
    assert problem is not None and "leaves the table" in problem
    assert path_problem(OPEN, [(5.0, 5.0), (5.0, 0.4)], mover_id=0, bodies=()) is not None
    assert path_problem(OPEN, [(5.0, 5.0), (5.0, 0.5)], mover_id=0, bodies=()) is None
    off = path_problem(OPEN, [(5.0, 5.0), (5.0, -1.0)], mover_id=0, bodies=(), allow_off_table=True)
    assert off is None


# -- candidate moves (D5) ----------------------------------------------------------------------


def test_d5_move_candidates_are_legal_affordable_and_shortened_by_terrain() -> None:
    bf = Battlefield(features=(Feature(Terrain.WOODS, 7.0, 0.0, 30.0, 30.0),))
    pos = (5.0, 5.0)
    cands = move_candidates(bf, pos, allowance=8.0, mover_id=0, bodies=())
    east = [c for c in cands if abs(c[1] - 5.0) < 1e-9 and c[0] > 5.0]
    assert east == [
        pytest.approx((7.0, 5.0)),
        pytest.approx((9.0, 5.0)),
        pytest.approx((10.0, 5.0)),
    ]
    west = [c for c in cands if abs(c[1] - 5.0) < 1e-9 and c[0] < 5.0]
    assert west == [
        pytest.approx((3.0, 5.0)),
        pytest.approx((1.0, 5.0)),
    ]  # 6" and 8" leave the table
    assert len({(round(x, 6), round(y, 6)) for x, y in cands}) == len(cands)
    assert cands == move_candidates(bf, pos, allowance=8.0, mover_id=0, bodies=())
    assert move_candidates(bf, pos, allowance=0.0, mover_id=0, bodies=()) == []


@pytest.mark.parametrize("seed", range(4))
def test_d5_move_candidates_on_generated_battlefields(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bf = generate_battlefield(rng)
    points = deployment_points(bf, "south", 6, rng) + deployment_points(bf, "north", 6, rng)
    bodies = [Body(i, p) for i, p in enumerate(points)]
    for body in bodies[:4]:
        cands = move_candidates(bf, body.pos, allowance=10.0, mover_id=body.id, bodies=bodies)
        assert cands
        for c in cands:
            path = [body.pos, c]
            assert path_problem(bf, path, mover_id=body.id, bodies=bodies) is None
            assert path_cost(bf, path) <= 10.0 + 1e-6 or path_length(path) <= 2.0 + 1e-9


def test_d5_move_candidates_skip_blocked_directions() -> None:
    bodies = [Body(0, (5.0, 5.0)), Body(1, (7.0, 5.0))]
    cands = move_candidates(OPEN, (5.0, 5.0), allowance=4.0, mover_id=0, bodies=bodies)
    assert not [c for c in cands if abs(c[1] - 5.0) < 1e-9 and c[0] > 6.0 + 1e-9]
    assert (6.0, 5.0) in cands  # bases in contact do not overlap
    assert (5.0 - 4.0, 5.0) in [(round(x, 9), round(y, 9)) for x, y in cands]


# -- Duck Back (15.2.4.1, D9) ------------------------------------------------------------------


def test_d9_duck_back_takes_the_nearest_concealment() -> None:
    bf = Battlefield(features=(Feature(Terrain.WOODS, 10.0, 0.0, 20.0, 10.0),))
    dest = duck_back_destination(
        bf, (9.5, 5.0), (0.0, 20.0), max_dist=6.0, speed=8.0, mover_id=0, cause_id=1, bodies=()
    )
    assert dest == pytest.approx((10.0, 5.0))


def test_d9_duck_back_ties_go_farther_from_the_cause() -> None:
    bf = Battlefield(
        features=(
            Feature(Terrain.WOODS, 0.0, 0.0, 14.5, 10.0),
            Feature(Terrain.WOODS, 15.5, 0.0, 30.0, 10.0),
        )
    )
    # (15.5, 5) and (14.5, 5) are both concealed 0.5" away; (14.5, 5) is farther from the cause
    dest = duck_back_destination(
        bf, (15.0, 5.0), (16.0, 30.0), max_dist=6.0, speed=8.0, mover_id=0, cause_id=1, bodies=()
    )
    assert dest == pytest.approx((14.5, 5.0))


def test_d9_duck_back_behind_a_building_is_out_of_sight_or_in_cover() -> None:
    bf = Battlefield(features=(Feature(Terrain.BUILDING, 10.0, 10.0, 14.0, 14.0),))
    cause, pos = (12.0, 2.0), (17.0, 13.0)
    assert sight(bf, cause, pos).clear_lines == 3
    dest = duck_back_destination(
        bf, pos, cause, max_dist=6.0, speed=8.0, mover_id=0, cause_id=1, bodies=()
    )
    assert 0.0 < distance(pos, dest) <= 6.0
    s = sight(bf, cause, dest)
    assert not s.visible or in_cover(bf, s, dest, target_moved=True)
    assert path_problem(bf, [pos, dest], mover_id=0, bodies=()) is None
    # no lattice point nearer than the answer qualifies
    step = 0.5
    for i in range(-12, 13):
        for j in range(-12, 13):
            c = (pos[0] + i * step, pos[1] + j * step)
            if distance(pos, c) < distance(pos, dest) - 1e-9 and (
                path_problem(bf, [pos, c], mover_id=0, bodies=()) is None
            ):
                sc = sight(bf, cause, c)
                assert sc.visible and not in_cover(bf, sc, c, target_moved=True)
                assert not is_concealed(bf, c)


def test_d9_duck_back_stays_when_already_hidden() -> None:
    bf = Battlefield(features=(Feature(Terrain.ROUGH, 0.0, 0.0, 10.0, 10.0),))
    dest = duck_back_destination(
        bf, (5.0, 5.0), (20.0, 5.0), max_dist=6.0, speed=8.0, mover_id=0, cause_id=1, bodies=()
    )
    assert dest == (5.0, 5.0)


def test_d9_duck_back_without_cover_runs_straight_away() -> None:
    kw = {"max_dist": 6.0, "speed": 8.0, "mover_id": 0, "cause_id": 1, "bodies": ()}
    assert duck_back_destination(OPEN, (18.0, 14.0), (18.0, 10.0), **kw) == pytest.approx(
        (18.0, 22.0)
    )
    # stops with its base at the table edge
    assert duck_back_destination(OPEN, (18.0, 32.0), (18.0, 10.0), **kw) == pytest.approx(
        (18.0, 35.5)
    )
    # stops at a building in the way (bases touch it)
    wall = Battlefield(features=(Feature(Terrain.BUILDING, 16.0, 17.0, 20.0, 19.0),))
    wall_dest = duck_back_destination(wall, (18.0, 14.0), (18.0, 10.0), **{**kw, "max_dist": 1.0})
    assert wall_dest == pytest.approx((18.0, 16.5), abs=1e-4)
    # half-speed terrain halves the run
    rough = Battlefield(features=(Feature(Terrain.RIVER, 0.0, 16.0, 36.0, 30.0),))
    dest = duck_back_destination(rough, (18.0, 14.0), (18.0, 10.0), **kw)
    assert dest == pytest.approx((18.0, 19.0))


def test_d9_duck_back_is_fast_on_a_crowded_table() -> None:
    rng = np.random.default_rng(3)
    bf = generate_battlefield(rng)
    points = deployment_points(bf, "south", 6, rng) + deployment_points(bf, "north", 6, rng)
    bodies = [Body(i, p) for i, p in enumerate(points)]
    for me in bodies[:6]:
        cause = bodies[6]
        dest = duck_back_destination(
            bf, me.pos, cause.pos, max_dist=6.0, speed=8.0, mover_id=me.id, cause_id=cause.id,
            bodies=bodies,
        )  # fmt: skip
        assert distance(me.pos, dest) <= 8.0 + 1e-9
        assert path_problem(bf, [me.pos, dest], mover_id=me.id, bodies=bodies) is None


# -- Leave the Battlefield (15.2.4.2, D10) -----------------------------------------------------


def test_d10_nearest_edge_away_from_the_enemy() -> None:
    assert nearest_edge_away(OPEN, (10.0, 5.0), (10.0, 20.0)) == "south"
    assert nearest_edge_away(OPEN, (10.0, 5.0), (10.0, 0.0)) == "west"
    assert nearest_edge_away(OPEN, (30.0, 30.0), (10.0, 10.0)) == "north"
    assert nearest_edge_away(OPEN, (10.0, 5.0), None) == "south"
    assert nearest_edge_away(OPEN, (10.0, 5.0), (10.0, 20.0), home_edge="north") == "north"
    with pytest.raises(Exception, match="home_edge"):
        nearest_edge_away(OPEN, (10.0, 5.0), None, home_edge="up")


def test_d10_move_toward_edge_exits_and_sidesteps() -> None:
    end, exited = move_toward_edge(OPEN, (10.0, 3.0), "south", 8.0, mover_id=0, bodies=())
    assert exited and end == pytest.approx((10.0, -5.0))
    end, exited = move_toward_edge(OPEN, (10.0, 20.0), "south", 8.0, mover_id=0, bodies=())
    assert not exited and end == pytest.approx((10.0, 12.0))
    # a base in the way: deflect by 60 degrees and still get off
    bodies = [Body(0, (10.0, 3.0)), Body(5, (10.0, 1.5))]
    end, exited = move_toward_edge(OPEN, (10.0, 3.0), "south", 8.0, mover_id=0, bodies=bodies)
    assert exited and end[1] < 0.0
    assert path_problem(
        OPEN, [(10.0, 3.0), end], mover_id=0, bodies=bodies, allow_off_table=True
    ) is (None)
    assert move_toward_edge(OPEN, (10.0, -1.0), "south", 8.0, mover_id=0, bodies=()) == (
        (10.0, -1.0),
        True,
    )


def test_d10_move_toward_edge_never_crashes_when_boxed_in() -> None:
    bf = Battlefield(features=(Feature(Terrain.BUILDING, 0.0, 0.0, 6.0, 2.0),))
    bodies = [Body(0, (0.5, 2.5)), Body(1, (1.5, 2.5)), Body(2, (0.5, 3.5))]
    end, exited = move_toward_edge(bf, (0.5, 2.5), "south", 8.0, mover_id=0, bodies=bodies)
    assert not exited
    assert path_problem(bf, [(0.5, 2.5), end], mover_id=0, bodies=bodies) is None
    # flat against a wide wall: no heading gains ground, the mech stays put
    end, exited = move_toward_edge(bf, (3.0, 2.5), "south", 8.0, mover_id=0, bodies=())
    assert (end, exited) == ((3.0, 2.5), False)


# -- flame areas (10.4.2, D27) -----------------------------------------------------------------


def test_d27_flame_strip_and_circle() -> None:
    flame = ((0.0, 0.0), (10.0, 0.0))
    assert flame_area_hits([(5.0, 3.0), (5.0, -3.0)], [flame]) == [0]
    assert flame_area_hits([(2.0, 0.6), (8.0, 0.6)], [flame]) == []
    assert flame_area_hits([(2.0, 0.5), (8.0, 0.5)], [flame]) == [0]  # touching counts
    assert flame_area_hits([(10.9, 3.0), (10.9, -3.0)], [flame]) == [0]  # circle, 1" radius
    assert flame_area_hits([(11.1, 3.0), (11.1, -3.0)], [flame]) == []
    assert flame_area_hits([(0.2, 1.0), (0.2, -1.0)], [flame]) == []  # inside the shooter's base
    assert flame_area_hits([(5.0, 0.0)], [flame]) == []  # no movement
    other = ((20.0, 20.0), (20.0, 5.0))
    crossing = [(0.0, 5.0), (5.0, 5.0), (5.0, -5.0), (30.0, 15.0)]
    assert flame_area_hits(crossing, [other, flame]) == [0, 1]
    assert flame_area_hits([(11.3, 3.0), (11.3, -3.0)], [flame], mover_radius=0.5) == [0]
