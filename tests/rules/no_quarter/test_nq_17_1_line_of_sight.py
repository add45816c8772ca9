"""Line of sight, cover, concealment and protection (§16.1.1, §17.1-17.2.1, rulings D11-D13)."""

from __future__ import annotations

import pytest

from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Body,
    Feature,
    in_cover,
    is_concealed,
    protected_locations,
    sight,
)
from wargym.rules.no_quarter.forces.vocab import Location, Terrain

GUT_LEGS = frozenset({Location.GUT, Location.LEG_L, Location.LEG_R})
OPEN = Battlefield()


def bf_with(*features: Feature, night: bool = False, weather: bool = False) -> Battlefield:
    return Battlefield(features=features, night=night, inclement_weather=weather)


# -- clear, buildings and mechs (D11) ----------------------------------------------------------


def test_17_1_open_table_is_clear_at_any_range() -> None:
    s = sight(OPEN, (1.0, 1.0), (35.0, 35.0))
    assert s.visible and s.clear_lines == 3
    assert s.building_blocked_lines == s.mech_blocked_lines == 0
    assert s.blocked_side is None
    assert s.distance == pytest.approx(34.0 * 2**0.5)
    assert sight(OPEN, (5.0, 5.0), (5.0, 5.0)).visible


def test_d11_building_blocks_all_three_lines() -> None:
    bf = bf_with(Feature(Terrain.BUILDING, 10.0, 10.0, 14.0, 14.0, building_armor=3))
    s = sight(bf, (5.0, 12.0), (20.0, 12.0))
    assert not s.visible
    assert s.clear_lines == 0 and s.building_blocked_lines == 3
    # passing just under the building is clear
    assert sight(bf, (5.0, 9.0), (20.0, 9.0)).clear_lines == 3


def test_d11_partial_building_gives_cover_and_blocked_side() -> None:
    bf = bf_with(Feature(Terrain.BUILDING, 10.0, 12.2, 14.0, 16.0))
    s = sight(bf, (5.0, 12.0), (20.0, 12.0))
    # the target faces the observer (west): its right side is north, where the building is
    assert s.visible and s.clear_lines == 2
    assert s.building_blocked_lines == 1 and s.mech_blocked_lines == 0
    assert s.blocked_side == "right"
    assert in_cover(bf, s, (20.0, 12.0), target_moved=True)
    assert in_cover(bf, s, (20.0, 12.0), target_moved=False)
    mirrored = bf_with(Feature(Terrain.BUILDING, 10.0, 8.0, 14.0, 11.8))
    assert sight(mirrored, (5.0, 12.0), (20.0, 12.0)).blocked_side == "left"


def test_d11_other_mechs_block_observer_and_target_do_not() -> None:
    me, it = Body(1, (5.0, 5.0)), Body(2, (15.0, 5.0))
    blocker = Body(3, (10.0, 5.0))
    s = sight(OPEN, me.pos, it.pos, observer_id=1, target_id=2, bodies=[me, it, blocker])
    assert not s.visible and s.mech_blocked_lines == 3
    s = sight(OPEN, me.pos, it.pos, observer_id=1, target_id=2, bodies=[me, it])
    assert s.clear_lines == 3
    # a friend or foe slightly off the line hides one side of the target only
    side = Body(3, (10.0, 5.6))
    s = sight(OPEN, me.pos, it.pos, observer_id=1, target_id=2, bodies=[me, it, side])
    assert s.visible and s.clear_lines == 2 and s.mech_blocked_lines == 1
    assert s.blocked_side == "right"
    assert in_cover(OPEN, s, it.pos, target_moved=True)  # behind mechs: cover (17.2)
    assert protected_locations(OPEN, s, it.pos, 180.0) == frozenset()  # mechs: cover only


# -- hills (19.6 via D11) ----------------------------------------------------------------------


def test_19_6_hill_crest_blocks_unless_within_1_inch() -> None:
    bf = bf_with(Feature(Terrain.HILL, 10.0, 5.0, 14.0, 30.0))  # crest x = 12
    assert not sight(bf, (5.0, 15.0), (20.0, 15.0)).visible
    assert not sight(bf, (20.0, 15.0), (5.0, 15.0)).visible
    # observer on the crest band sees over, both ways
    assert sight(bf, (11.2, 15.0), (20.0, 15.0)).visible
    assert sight(bf, (20.0, 15.0), (11.2, 15.0)).visible
    assert sight(bf, (5.0, 15.0), (12.9, 15.0)).visible
    assert not sight(bf, (10.9, 15.0), (20.0, 15.0)).visible  # 1.1" back: blocked
    # same side of the crest: the hill does not matter
    assert sight(bf, (5.0, 15.0), (10.5, 20.0)).visible
    # past the end of the crest
    assert sight(bf, (5.0, 32.0), (20.0, 32.0)).visible


# -- woods (17.1, 19.10) -----------------------------------------------------------------------


def test_17_1_woods_block_lines_through_them() -> None:
    bf = bf_with(Feature(Terrain.WOODS, 10.0, 10.0, 20.0, 20.0))
    assert not sight(bf, (5.0, 15.0), (25.0, 15.0)).visible
    assert sight(bf, (5.0, 21.0), (25.0, 21.0)).visible


def test_17_1_woods_edge_band_sees_and_is_seen() -> None:
    bf = bf_with(Feature(Terrain.WOODS, 10.0, 10.0, 20.0, 20.0))
    s = sight(bf, (5.0, 15.0), (10.5, 15.0))
    assert s.visible and s.clear_lines == 3
    assert sight(bf, (10.5, 15.0), (5.0, 15.0)).visible
    assert not sight(bf, (5.0, 15.0), (13.0, 15.0)).visible  # 3" deep
    assert not sight(bf, (13.0, 15.0), (5.0, 15.0)).visible
    # in the band near a corner, an oblique line that stays in the band
    assert sight(bf, (5.0, 25.0), (10.8, 19.5)).visible


def test_17_1_both_inside_woods_12_by_day_6_by_night() -> None:
    woods = Feature(Terrain.WOODS, 2.0, 2.0, 34.0, 12.0)
    day, night = bf_with(woods), bf_with(woods, night=True)
    assert sight(day, (4.0, 7.0), (15.0, 7.0)).visible  # 11"
    assert sight(day, (4.0, 7.0), (16.0, 7.0)).visible  # 12" exactly
    assert not sight(day, (4.0, 7.0), (17.0, 7.0)).visible  # 13"
    assert sight(day, (4.0, 7.0), (17.0, 7.0), observer_has_ews=True).visible
    assert sight(night, (4.0, 7.0), (9.0, 7.0)).visible  # 5"
    assert not sight(night, (4.0, 7.0), (11.0, 7.0)).visible  # 7"
    assert sight(night, (4.0, 7.0), (11.0, 7.0), observer_has_ews=True).visible


def test_19_10_two_woods_each_mech_looks_out_of_its_own_band() -> None:
    bf = bf_with(
        Feature(Terrain.WOODS, 0.0, 0.0, 10.0, 10.0),
        Feature(Terrain.WOODS, 14.0, 0.0, 24.0, 10.0),
    )
    assert sight(bf, (9.5, 5.0), (14.5, 5.0)).visible
    assert not sight(bf, (5.0, 5.0), (14.5, 5.0)).visible


# -- night, weather, well-lit, deep water (17.1, 19.7.1, 19.11) ----------------------------------


def test_17_1_night_limit_ews_and_well_lit() -> None:
    night = bf_with(night=True)
    assert sight(night, (0.0, 5.0), (12.0, 5.0)).visible
    assert not sight(night, (0.0, 5.0), (12.5, 5.0)).visible
    assert sight(night, (0.0, 5.0), (30.0, 5.0), observer_has_ews=True).visible
    lit = bf_with(Feature(Terrain.ROAD, 18.0, 0.0, 22.0, 36.0, well_lit=True), night=True)
    assert sight(lit, (0.0, 5.0), (20.0, 5.0)).visible
    assert not sight(lit, (20.0, 5.0), (0.0, 5.0)).visible  # the viewer's light does not help


def test_17_1_inclement_weather_12_by_day_6_by_night() -> None:
    rain = bf_with(weather=True)
    assert sight(rain, (0.0, 5.0), (12.0, 5.0)).visible
    assert not sight(rain, (0.0, 5.0), (12.5, 5.0)).visible
    assert sight(rain, (0.0, 5.0), (20.0, 5.0), observer_has_ews=True).visible
    rain_night = bf_with(weather=True, night=True)
    assert sight(rain_night, (0.0, 5.0), (6.0, 5.0)).visible
    assert not sight(rain_night, (0.0, 5.0), (7.0, 5.0)).visible
    lit = bf_with(
        Feature(Terrain.ROAD, 6.0, 0.0, 10.0, 36.0, well_lit=True), weather=True, night=True
    )
    assert not sight(lit, (0.0, 5.0), (8.0, 5.0)).visible  # well-lit lifts the night limit only


def test_19_7_1_deep_water_beyond_2_inches_is_out_of_sight() -> None:
    bf = bf_with(Feature(Terrain.DEEP_WATER, 10.0, 10.0, 20.0, 20.0))
    assert not sight(bf, (15.0, 25.0), (15.0, 15.0)).visible
    assert not sight(bf, (15.0, 15.0), (15.0, 25.0)).visible
    s = sight(bf, (15.0, 25.0), (15.0, 19.0))  # 1" from the shore
    assert s.visible
    assert protected_locations(bf, s, (15.0, 19.0), 0.0) == GUT_LEGS
    # a line over deep water is not blocked
    assert sight(bf, (5.0, 15.0), (25.0, 15.0)).visible


# -- cover and concealment (17.2, D12) ---------------------------------------------------------


def test_d12_woods_cover_only_when_stationary_concealment_always() -> None:
    bf = bf_with(
        Feature(Terrain.WOODS, 10.0, 10.0, 20.0, 20.0), Feature(Terrain.ROUGH, 0.0, 0.0, 5.0, 5.0)
    )
    target = (10.5, 15.0)
    s = sight(bf, (2.0, 15.0), target)
    assert s.visible
    assert in_cover(bf, s, target, target_moved=False)
    assert not in_cover(bf, s, target, target_moved=True)
    assert is_concealed(bf, target)
    rough = (2.0, 2.0)
    s = sight(bf, (2.0, 8.0), rough)
    assert is_concealed(bf, rough)
    assert not in_cover(bf, s, rough, target_moved=False)  # rough: concealment, no cover
    clear = (30.0, 30.0)
    s = sight(bf, (25.0, 30.0), clear)
    assert not is_concealed(bf, clear)
    assert not in_cover(bf, s, clear, target_moved=False)


# -- protected locations (17.2.1, D13) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("target_heading", "arm"),
    [
        (180.0, Location.ARM_R),  # facing the observer: right side towards the building
        (0.0, Location.ARM_L),  # back turned: its left arm is on the building side
        (90.0, Location.ARM_R),  # side-on: no nearer arm; the one turned away is covered
        (270.0, Location.ARM_L),  # side-on, back to the building: again the arm turned away
        (135.0, Location.ARM_R),
        (45.0, Location.ARM_L),
    ],
)
def test_d13_partial_building_protects_gut_legs_and_arm_on_blocked_side(
    target_heading: float, arm: Location
) -> None:
    bf = bf_with(Feature(Terrain.BUILDING, 10.0, 12.2, 14.0, 16.0))
    target = (20.0, 12.0)
    s = sight(bf, (5.0, 12.0), target)
    assert s.blocked_side == "right"
    assert protected_locations(bf, s, target, target_heading) == GUT_LEGS | {arm}


def test_d13_hill_crest_band_and_river_protect_gut_and_legs() -> None:
    bf = bf_with(
        Feature(Terrain.HILL, 10.0, 5.0, 14.0, 30.0),
        Feature(Terrain.RIVER, 0.0, 32.0, 36.0, 34.0),
        Feature(Terrain.ROAD, 30.0, 0.0, 32.0, 36.0),
    )
    on_crest = (12.8, 15.0)
    s = sight(bf, (20.0, 15.0), on_crest)
    assert protected_locations(bf, s, on_crest, 0.0) == GUT_LEGS
    back = (10.5, 15.0)  # 1.5" from the crest: no protection (and hidden from the far side)
    assert protected_locations(bf, sight(bf, (5.0, 15.0), back), back, 0.0) == frozenset()
    in_river = (20.0, 33.0)
    s = sight(bf, (20.0, 25.0), in_river)
    assert protected_locations(bf, s, in_river, 90.0) == GUT_LEGS
    on_bridge = (31.0, 33.0)
    s = sight(bf, (31.0, 25.0), on_bridge)
    assert protected_locations(bf, s, on_bridge, 90.0) == frozenset()
    assert protected_locations(OPEN, sight(OPEN, (0.0, 0.0), (5.0, 5.0)), (5.0, 5.0), 0.0) == (
        frozenset()
    )


def test_17_1_unrolled_rectangle_crossing_agrees_with_geometry_clipping() -> None:
    """sight._crosses_rect is clip_segment_to_rect unrolled for speed: the same verdicts.

    Random segments against random rectangles, plus segments that only touch an edge or a
    corner (a touching point is not a crossing) and segments parallel to an edge.
    """
    import math
    import random

    from wargym.rules.no_quarter.sight_movement.geometry import clip_segment_to_rect
    from wargym.rules.no_quarter.sight_movement.sight import _crosses_rect

    def reference(ax: float, ay: float, bx: float, by: float, *rect: float) -> bool:
        span = clip_segment_to_rect((ax, ay), (bx, by), *rect)
        return span is not None and (span[1] - span[0]) * math.hypot(bx - ax, by - ay) > 1e-7

    rng = random.Random(17)
    cases = []
    for _ in range(5000):
        x0, y0 = rng.uniform(0, 40), rng.uniform(0, 40)
        rect = (x0, y0, x0 + rng.uniform(0.5, 8), y0 + rng.uniform(0.5, 8))
        cases.append((*(rng.uniform(-4, 52) for _ in range(4)), *rect))
    cases += [
        (0.0, 0.0, 10.0, 0.0, 2.0, 0.0, 4.0, 3.0),  # along the bottom edge
        (0.0, 0.0, 2.0, 2.0, 2.0, 2.0, 4.0, 4.0),  # ends on the corner
        (1.0, 5.0, 1.0, -5.0, 1.0, 0.0, 3.0, 2.0),  # along the left edge, vertical
        (0.0, 1.0, 10.0, 1.0, 2.0, 0.0, 4.0, 3.0),  # straight through
        (5.0, 5.0, 5.0, 5.0, 2.0, 0.0, 4.0, 3.0),  # a point outside
    ]
    verdicts = [_crosses_rect(*case) for case in cases]
    assert verdicts == [reference(*case) for case in cases]
    assert any(verdicts) and not all(verdicts)
