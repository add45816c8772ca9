"""§2.1-§2.9 test vectors: batched to-hit, penetration ratio, DP, radiation, armour, tables."""

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, ScriptedDice
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.events import PenetrationRolled, ToHitRolled
from wargym.rules.starship_combat.fire import resolve_fire, to_hit_dm
from wargym.rules.starship_combat.game import new_battle
from wargym.rules.starship_combat.records import Warhead

RULES = load_rules()


@pytest.mark.parametrize(
    ("vid", "modified", "natural", "n", "tenths", "hit"),
    [
        ("tr-hit-1", 15, 7, 10, 4, 4),
        ("tr-hit-1b", 15, 7, 3, 4, 2),
        ("tr-hit-1c", 15, 7, 2, 4, 1),
        ("tr-hit-2", 9, 12, 10, 1, 1),
        ("tr-hit-2/3", 9, 12, 3, 1, 1),
        ("tr-hit-3", 25, 12, 10, 10, 10),
        ("tr-hit-4", 11, 8, 10, 1, 1),
    ],
)
def test_2_1_batched_to_hit_vectors(
    vid: str, modified: int, natural: int, n: int, tenths: int, hit: int
) -> None:
    t = cb.batch_tenths(modified, 11, natural, RULES)
    assert (t, cb.batteries_succeeding(n, t)) == (tenths, hit), vid


def test_2_1_tr_hit_4_literal_source_gives_zero() -> None:
    assert cb.batch_tenths(11, 11, 8, RULES, literal=True) == 0
    assert cb.batch_tenths(10, 11, 8, RULES) == 0


def test_2_1_tr_hit_1_exceptional_40_percent_and_one_armor_loss_per_batch() -> None:
    state = new_battle("duel")
    a, b = state.ships
    a.pos, b.pos = (0, 1), (0, 0)  # range 1: DM 2 + 9 - 7 + 1 + 0 = 5
    dice = FallbackDice([4, 6], np.random.default_rng(0))  # 10 + 5 = 15 vs 11
    events, effects = resolve_fire(state, a, "missile", b, 10, dice, RULES, state.options)
    hit = events[0]
    assert isinstance(hit, ToHitRolled)
    assert (hit.modified, hit.tenths, hit.hits, hit.exceptional) == (15, 4, 4, True)
    assert [e.what for e in effects].count("armor") == 1


def test_tr_r6_tr_hit_5_liikargi_vs_liikargi_range_5() -> None:
    state = new_battle("duel")
    a, b = state.ships
    a.pos, b.pos = (0, 5), (0, 0)
    assert to_hit_dm(state, a, b, RULES, state.options) == 2 + 9 - 7 + 1 - 2
    dice = FallbackDice([4, 6], np.random.default_rng(1))
    events, _ = resolve_fire(state, a, "missile", b, 10, dice, RULES, state.options)
    hit = events[0]
    assert isinstance(hit, ToHitRolled)
    assert (hit.modified, hit.tenths, hit.hits) == (13, 2, 2)


def test_2_2_tr_pen_1_four_missiles_vs_three_repulsors() -> None:
    state = new_battle("duel")
    a, b = state.ships
    a.pos, b.pos = (0, 1), (0, 0)
    dice = FallbackDice([4, 6, 3, 3], np.random.default_rng(2))
    events, _ = resolve_fire(state, a, "missile", b, 10, dice, RULES, state.options)
    pen = events[1]
    assert isinstance(pen, PenetrationRolled)
    assert (pen.batteries, pen.defence_batteries, pen.ratio_dm) == (4, 3, 0)
    assert (pen.modified, pen.target_number, pen.tenths, pen.penetrating) == (7, 7, 1, 1)


@pytest.mark.parametrize(
    ("off", "dfn", "dm"),
    [
        (4, 1, 3),
        (3, 1, 2),
        (2, 1, 1),
        (1, 1, 0),
        (1, 2, -1),
        (1, 3, -2),
        (1, 4, -3),
        (12, 2, 3),
        (1, 9, -3),
        (10, 3, 2),
        (2, 3, 0),
        (5, 2, 1),
        (4, 3, 0),
    ],
)
def test_2_2_tr_ratio(off: int, dfn: int, dm: int) -> None:
    assert cb.ratio_dm(off, dfn) == dm


def test_2_2_ratio_table_agrees_with_tr_r8_formula() -> None:
    for key, dm in RULES.ratio_dm_table.items():
        off, dfn = (int(x) for x in key.split(":"))
        assert cb.ratio_dm(off, dfn) == dm


@pytest.mark.parametrize(
    ("factor", "warhead", "exc", "dp"),
    [
        ("A", Warhead.CONVENTIONAL, False, 10),
        ("9", Warhead.NUCLEAR, False, 36),
        ("5", Warhead.ANTIMATTER, False, 25),
        ("A", Warhead.CONVENTIONAL, True, 11),
    ],
)
def test_2_3_tr_dp(factor: str, warhead: Warhead, exc: bool, dp: int) -> None:
    assert cb.damage_points(cb.ucp_from_ehex(factor, RULES), warhead, exc, RULES) == dp


def test_2_5_tr_rad_1_nuclear_bay_9_radiation_points_2_crew_segments() -> None:
    dp = cb.damage_points(9, Warhead.NUCLEAR, False, RULES)
    rad = cb.radiation_points(dp, RULES)
    assert (dp, rad, dp - rad, cb.box_hits(rad, RULES)) == (36, 9, 27, 2)


@pytest.mark.parametrize(
    ("ucp", "armor", "wdm", "adm", "need"),
    [
        (10, 70, 3, 6, 10),
        (9, 33, 3, -1, 3),
        (26, 120, 8, 16, 15),
        (27, 120, 9, 16, 14),
        (1, 0, 0, -8, -1),
    ],
)
def test_2_6_tr_arm(ucp: int, armor: int, wdm: int, adm: int, need: int) -> None:
    assert (cb.weapon_dm(ucp, RULES), cb.armor_dm(armor, RULES)) == (wdm, adm)
    assert cb.armor_need(ucp, armor, RULES) == need


def test_2_6_natural_12_always_penetrates() -> None:
    assert cb.armor_penetrates(12, 15) and not cb.armor_penetrates(11, 15)
    assert cb.armor_penetrates(2, -1)


@pytest.mark.parametrize(
    ("ucp", "armor", "meson", "rolls"),
    [
        (27, 70, False, 9),
        (10, 40, False, 2),
        (9, 120, False, 1),
        (27, 70, True, 19),
        (20, 43, False, 11),
    ],
)
def test_2_7_tr_spin(ucp: int, armor: int, meson: bool, rolls: int) -> None:
    assert cb.spinal_rolls(ucp, armor, meson, RULES) == rolls


@pytest.mark.parametrize(
    ("ucp", "big", "globe", "dm"),
    [(3, False, False, -1), (9, True, False, 1), (10, True, False, 2), (2, False, True, -2)],
)
def test_2_7_tr_dm(ucp: int, big: bool, globe: bool, dm: int) -> None:
    assert cb.damage_table_dm(ucp, big, globe, RULES) == dm


def test_2_7_tr_dm_roll_of_2_at_minus_2_clamps_to_no_effect() -> None:
    assert cb.clamp_roll(0, RULES) == 1
    assert RULES.tables[next(iter(RULES.tables))][1].value == "no_effect"


def test_2_7_tables_read_as_printed() -> None:
    surface = [
        RULES.tables[t][r].value for t in RULES.tables for r in (2, 11, 13) if t.value == "surface"
    ]
    assert surface == ["weapon", "interior", "critical"]


@pytest.mark.parametrize(("dp", "hull"), [(27, 9), (10, 3), (9, 3)])
def test_2_4_tr_hullshare(dp: int, hull: int) -> None:
    assert cb.hull_share(dp, RULES) == hull


@pytest.mark.parametrize(("ucp", "boxes"), [(1, 1), (4, 1), (5, 2), (9, 2), (10, 3), (27, 3)])
def test_2_4_box_hits_by_ucp(ucp: int, boxes: int) -> None:
    assert cb.box_hits(ucp, RULES) == boxes


def test_2_8_tr_bg_black_globe_40_percent() -> None:
    assert 10 - cb.globe_absorbed(10, 40) == 6
    assert cb.globe_armor_bonus(40, RULES) == 24


def test_tr_r6_range_dms() -> None:
    assert [cb.range_dm(r, RULES) for r in (0, 1, 2, 3, 4, 6, 7, 10, 11)] == [
        0,
        0,
        -1,
        -1,
        -2,
        -2,
        -3,
        -3,
        None,
    ]


def test_2_1_per_battery_mode_counts_each_roll() -> None:
    from wargym.rules.starship_combat.state import Options

    state = new_battle("duel", Options(batched=False))
    a, b = state.ships
    a.pos, b.pos = (0, 1), (0, 0)
    dice = FallbackDice([3, 3, 1, 1, 6, 6], np.random.default_rng(3))  # +5: 11 hit, 7 miss, 17 hit
    events, _ = resolve_fire(state, a, "missile", b, 3, dice, RULES, state.options)
    assert isinstance(events[0], ToHitRolled) and events[0].hits == 2
    _ = ScriptedDice
