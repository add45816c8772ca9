"""PEFs: placement, building PEFs, movement, detection, resolution, NP Enemy Mechs (§20)."""

from __future__ import annotations

import math

import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.no_quarter.battlefield.sections import section_of
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.vocab import Faction, Race, Terrain
from wargym.rules.no_quarter.non_player.pef import (
    PefMarker,
    PefOptions,
    Spotter,
    building_pef_point,
    building_pef_triggers,
    contact_multiplier,
    np_enemy_class,
    np_enemy_mechs,
    pef_detected,
    pef_may_move,
    pef_move,
    pef_order,
    place_pefs,
    resolve_pef,
)
from wargym.rules.no_quarter.non_player.pef_tables import parse_class_table, parse_pef_config
from wargym.rules.no_quarter.sight_movement.geometry import distance, point_rect_distance
from wargym.rules.tables import load_config, parse_yaml

OPEN = Battlefield()
NIGHT = Battlefield(night=True)  # LOS limited to 12" (19.11)
BUILDING = Feature(Terrain.BUILDING, 16, 16, 20, 20)


def _spot(i: int, x: float, y: float, group: int = 0) -> Spotter:
    return Spotter(i, (x, y), group)


# -- placement (§20.0) -----------------------------------------------------------------------
def test_20_0_pef_hidden_behind_building_farthest_from_player_edge() -> None:
    bf = Battlefield(features=(BUILDING,))
    viewer = [_spot(0, 18, 4)]
    (placed,) = place_pefs(bf, viewer, ScriptedDice([5]), count=1)
    assert placed.section == 5 and placed.face == 5
    assert placed.hidden
    # farthest from the south edge inside section 5 (y < 24), nearest the centre line
    assert placed.pos == (18.0, 23.0)
    assert pef_detected(bf, placed.pos, viewer) == ()


def test_20_0_no_hiding_place_means_section_centre() -> None:
    placed = place_pefs(OPEN, [_spot(0, 18, 4)], ScriptedDice([5, 3, 1]))
    assert [p.section for p in placed] == [5, 3, 1]  # three PEFs by default
    assert placed[0].pos == (18.0, 18.0) and not placed[0].hidden
    assert placed[1].pos == (30.0, 30.0)


def test_20_0_hidden_from_every_player_mech() -> None:
    bf = Battlefield(features=(BUILDING,))
    viewers = [_spot(0, 18, 4), _spot(1, 2, 14)]
    (placed,) = place_pefs(bf, viewers, ScriptedDice([5]), count=1)
    assert placed.hidden and pef_detected(bf, placed.pos, viewers) == ()
    assert section_of(placed.pos) == 5


# -- building PEFs (§20.1) -------------------------------------------------------------------
def test_20_1_building_pef_one_inch_behind_far_wall() -> None:
    assert building_pef_point(OPEN, BUILDING, (18, 8)) == pytest.approx((18.0, 21.0))
    assert building_pef_point(OPEN, BUILDING, (8, 18)) == pytest.approx((21.0, 18.0))


def test_20_1_building_triggers_once_within_12_with_los() -> None:
    bf = Battlefield(features=(BUILDING,))
    (trigger,) = building_pef_triggers(bf, [_spot(3, 18, 8)])
    assert (trigger.building, trigger.mech) == (0, 3)
    assert trigger.pos == pytest.approx((18.0, 21.0))
    assert building_pef_triggers(bf, [_spot(3, 18, 2)]) == ()  # 14" away
    assert building_pef_triggers(bf, [_spot(3, 18, 8)], used={0}) == ()
    assert building_pef_triggers(bf, [_spot(3, 18, 8)], excluded_sections={5}) == ()


def test_20_1_building_behind_another_is_not_seen() -> None:
    front = Feature(Terrain.BUILDING, 15, 9, 21, 12)
    bf = Battlefield(features=(front, BUILDING))
    found = building_pef_triggers(bf, [_spot(0, 18, 6)])
    assert [t.building for t in found] == [0]


# -- movement (§20.2) ------------------------------------------------------------------------
def test_20_2_d1_one_pass_moves_four_inches_toward_closest_group() -> None:
    move = pef_move(NIGHT, (18, 34), ScriptedDice([3, 5]), [_spot(0, 18, 2), _spot(1, 2, 2, 1)])
    assert (move.passes, move.allowance, move.toward) == (1, 4.0, 0)
    assert move.end == pytest.approx((18.0, 30.0))
    assert move.contact == ()


def test_20_2_zero_passes_does_not_move() -> None:
    move = pef_move(NIGHT, (18, 34), ScriptedDice([5, 6]), [_spot(0, 18, 2)])
    assert move.allowance == 0 and move.end == (18, 34) and move.path == ((18, 34),)


def test_20_2_stops_at_once_when_los_opens() -> None:
    move = pef_move(NIGHT, (18, 34), ScriptedDice([1, 1]), [_spot(0, 18, 16)])
    assert move.allowance == 8.0
    assert move.end == pytest.approx((18.0, 28.0))  # 12" night limit reached after 6"
    assert move.contact == (0,)


def test_20_2_ends_in_cover_within_two_inches() -> None:
    wood = Feature(Terrain.WOODS, 19.5, 28, 24, 32)
    bf = Battlefield(features=(wood,), night=True)
    move = pef_move(bf, (18, 34), ScriptedDice([3, 5]), [_spot(0, 18, 2)])
    assert move.end == pytest.approx((19.5, 30.5))
    assert move.in_cover and distance((18, 34), move.end) <= 4.0


def test_20_2_1_goes_around_buildings_detour_free() -> None:
    block = Feature(Terrain.BUILDING, 15, 24, 21, 28)
    bf = Battlefield(features=(block,), night=True)
    move = pef_move(bf, (18, 30), ScriptedDice([2, 2]), [_spot(0, 18, 6)])
    assert move.contact == ()
    assert move.end == pytest.approx((18.0, 22.0))  # 8" straight, past the building
    assert len(move.path) > 2  # around a corner
    for a, b in zip(move.path, move.path[1:], strict=False):
        for k in range(21):
            p = (a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20)
            assert point_rect_distance(p, *block.rect) >= 0.5 - 1e-6
    walked = sum(distance(a, b) for a, b in zip(move.path, move.path[1:], strict=False))
    assert walked > 8.0  # the detour does not count against the 8"


def test_20_2_straight_move_stays_within_its_distance() -> None:
    """An 8" move whose end falls in a building stops short, never beyond 8" (§20.2)."""
    block = Feature(Terrain.BUILDING, 15, 22, 21, 28)
    bf = Battlefield(features=(block,), night=True)
    move = pef_move(bf, (18, 30), ScriptedDice([2, 2]), [_spot(0, 18, 6)])
    assert move.allowance == 8.0
    assert distance((18, 30), move.end) <= 8.0 + 1e-9  # before: (18, 21.5), 8.5" away
    assert point_rect_distance(move.end, *block.rect) >= 0.5 - 1e-6


def test_20_2_order_farthest_first_ties_by_section() -> None:
    pefs = [PefMarker(1, (18, 20)), PefMarker(2, (30, 34)), PefMarker(3, (6, 34))]
    order = pef_order(pefs, OPEN, [_spot(0, 18, 2)])
    assert order == (3, 2, 1)  # 3 and 2 equally far: section 1 before section 3


def test_20_2_pefs_move_on_activation_die_4_or_less() -> None:
    assert pef_may_move(4) and not pef_may_move(5)
    assert pef_may_move(6, PefOptions(needs_activation_die=False))


# -- detection (§20.3) -----------------------------------------------------------------------
def test_20_3_detection_ignores_arcs_unless_asked() -> None:
    back = Spotter(0, (18, 10), 0, facing=270.0)  # facing away from the PEF
    assert pef_detected(OPEN, (18, 20), [back]) == (0,)
    assert pef_detected(OPEN, (18, 20), [back], options=PefOptions(detection_uses_arcs=True)) == ()
    assert pef_detected(NIGHT, (18, 30), [back]) == ()  # beyond the 12" night limit


# -- resolution (§20.3) ----------------------------------------------------------------------
def test_20_3_d2_contact_triggering_plus_two() -> None:
    res = resolve_pef(ScriptedDice([2, 4, 6]), triggering=3, last_pef=False, contact_so_far=False)
    assert (res.result, res.passes, res.contact_face, res.enemies) == ("contact", 2, 6, 5)


def test_20_3_d3_false_alarm() -> None:
    res = resolve_pef(ScriptedDice([5, 6]), triggering=3, last_pef=False, contact_so_far=False)
    assert res.result == "false_alarm" and res.enemies == 0 and not res.next_keep_lowest_two


def test_20_3_d4_last_pef_counts_as_contact_minimum_one() -> None:
    res = resolve_pef(ScriptedDice([5, 6, 1]), triggering=2, last_pef=True, contact_so_far=False)
    assert (res.result, res.last_pef_rule, res.enemies) == ("contact", True, 1)
    done = resolve_pef(ScriptedDice([5, 6]), triggering=2, last_pef=True, contact_so_far=True)
    assert done.result == "false_alarm"


def test_20_3_d5_keep_lowest_two_of_three() -> None:
    dice = ScriptedDice([6, 4, 2, 3])
    res = resolve_pef(
        dice, triggering=4, last_pef=False, contact_so_far=False, keep_lowest_two=True
    )
    assert res.faces == (6, 4, 2) and res.kept == (2, 4)
    assert (res.result, res.enemies) == ("contact", 4)


def test_20_3_d6_something_out_there_sets_flag() -> None:
    res = resolve_pef(ScriptedDice([4, 6]), triggering=2, last_pef=False, contact_so_far=False)
    assert res.result == "something_out_there" and res.next_keep_lowest_two


def test_20_3_last_pef_pass_1_option() -> None:
    ruled = resolve_pef(ScriptedDice([4, 6, 3]), triggering=2, last_pef=True, contact_so_far=False)
    assert ruled.result == "contact" and ruled.enemies == 2
    literal = resolve_pef(
        ScriptedDice([4, 6]),
        triggering=2,
        last_pef=True,
        contact_so_far=False,
        options=PefOptions(last_pef_on_pass_1=False),
    )
    assert literal.result == "something_out_there"


def test_20_3_platoon_scaling_and_mission_table() -> None:
    assert contact_multiplier(0) == 1 and contact_multiplier(1) == 2
    res = resolve_pef(
        ScriptedDice([1, 1, 1]), triggering=3, last_pef=False, contact_so_far=False, multiplier=2
    )
    assert res.enemies == 2  # max(1, 3 - 2) x 2
    own = resolve_pef(
        ScriptedDice([1, 1, 2]),
        triggering=3,
        last_pef=False,
        contact_so_far=False,
        contact_deltas={f: (1 if f == 2 else 0) for f in range(1, 7)},
    )
    assert own.enemies == 4  # D13-style "one more" on a 2


# -- NP Enemy Mechs (§20.4) ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("faction", "cm", "mission", "face", "score", "cls"),
    [
        (Faction.HISHEN, 4, "attack", 3, 8, 2),  # D7
        (Faction.FREE_COMPANY, 3, "patrol", 1, 3, 5),  # D8
        (Faction.PDF, 3, "defend", 4, 7, 3),  # D9
        (Faction.STAR_ARMY, 7, "attack", 6, 12, 1),  # D10: 14 clamped to 12
        (Faction.ISS, None, "defend", 4, 7, 2),  # ISS reads Star Army, no campaign CM 3
    ],
)
def test_20_4_d7_d10_class_rolls(
    faction: Faction, cm: int | None, mission: str, face: int, score: int, cls: int
) -> None:
    roll = np_enemy_class(faction, face, enemy_cm=cm, mission=mission)  # type: ignore[arg-type]
    assert (roll.score, roll.mech_class) == (score, cls)


def test_20_4_one_roll_per_block_of_three_then_reps() -> None:
    # block 1: class die 3 -> 8 -> Class 2; three Rep dice; block 2: die 1 -> 6 -> Class 3
    dice = ScriptedDice([3, 1, 2, 3, 1, 4, 6])
    force = np_enemy_mechs(5, Faction.HISHEN, dice, enemy_cm=4, mission="attack")
    assert [(r.mech_class, r.mechs) for r in force.rolls] == [(2, 3), (3, 2)]
    assert [m.design for m in force.mechs] == ["hishen_c2"] * 3 + ["hishen_c3"] * 2
    assert all(m.race is Race.HISHEN for m in force.mechs)
    assert dice.remaining == 0
    reps = [m.rep for m in force.mechs]
    assert force.leader == reps.index(max(reps))


def test_20_4_free_company_rolls_race_before_rep() -> None:
    dice = ScriptedDice([4, 1, 1])  # class, race, rep
    force = np_enemy_mechs(1, Faction.FREE_COMPANY, dice)
    assert dice.remaining == 0 and force.mechs[0].mech_class == 3


# -- tables ----------------------------------------------------------------------------------
def test_20_tables_reject_broken_yaml() -> None:
    good = load_config("rules/no_quarter/pef.yaml").value
    broken = dict(good, rep="four")
    with pytest.raises(TableError, match=r"pef.yaml: rep"):
        parse_pef_config(parse_yaml(__import__("yaml").safe_dump(broken), "pef.yaml"))
    rows = dict(good["contact_size"]["rows"])
    del rows[6]
    broken = dict(good, contact_size={"minimum_enemies": 1, "rows": rows})
    with pytest.raises(TableError, match="contact_size"):
        parse_pef_config(parse_yaml(__import__("yaml").safe_dump(broken), "pef.yaml"))
    cls = load_config("rules/no_quarter/np_enemy_mechs.yaml").value
    cls["rows"][4] = dict(cls["rows"][4], extra=1)
    with pytest.raises(TableError, match=r"np_enemy_mechs.yaml: rows.4: unknown keys"):
        parse_class_table(parse_yaml(__import__("yaml").safe_dump(cls), "np_enemy_mechs.yaml"))
    assert math.isfinite(1.0)
