"""Movement chart, vector movement and thrust test vectors (digest §2.10, §5.1, §5.2, §5.7)."""

from __future__ import annotations

import pytest

from wargym.rules.hexgrid import Hex, distance
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.movement import (
    chart_move_number,
    closed_form_moves,
    impulse_steps,
    moves_on_impulses,
    net_displacement,
    next_velocity,
    step_names,
    thrust_rating,
    thrust_vector,
    thrust_within_cap,
    walk,
)

RULES = load_rules()
MOVES = {
    0: [],
    1: [12],
    2: [6, 12],
    3: [4, 8, 12],
    4: [3, 6, 9, 12],
    5: [3, 5, 8, 10, 12],
    6: [2, 4, 6, 8, 10, 12],
    7: [2, 4, 6, 7, 9, 11, 12],
    8: [2, 3, 5, 6, 8, 9, 11, 12],
    9: [2, 3, 4, 6, 7, 8, 10, 11, 12],
    10: [2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
    11: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    12: list(range(1, 13)),
}


def test_pw_chart_5_v5_moves_on_3_5_8_10_12() -> None:
    assert moves_on_impulses(RULES, 5) == (3, 5, 8, 10, 12)
    assert moves_on_impulses(RULES, -5) == (3, 5, 8, 10, 12)


@pytest.mark.parametrize("v", range(13))
def test_pw_chart_regularity_v_moves_exactly_v_times_evenly(v: int) -> None:
    impulses = moves_on_impulses(RULES, v)
    assert list(impulses) == MOVES[v]
    assert len(impulses) == v
    if v:
        assert impulses[-1] == 12
        numbers = [chart_move_number(RULES, v, k) for k in impulses]
        assert numbers == list(range(1, v + 1))
        gaps = [b - a for a, b in zip((0, *impulses), impulses, strict=False)]
        assert max(gaps[1:], default=0) - min(gaps[1:], default=0) <= 1
    for k in range(1, 13):
        assert (chart_move_number(RULES, v, k) > 0) == closed_form_moves(v, k)
        if chart_move_number(RULES, v, k):
            assert chart_move_number(RULES, v, k) == (k * v) // 12


def _trace(va: int, vc: int) -> tuple[dict[int, str], dict[int, Hex], Hex]:
    here, steps, after = Hex(0, 0), {}, {}
    for k in range(1, 13):
        s = impulse_steps(RULES, va, vc, k)
        if s:
            steps[k] = step_names(s)
            here = walk(here, s)[-1]
            after[k] = here
    return steps, after, here


def test_pw_mv_1_a3_c_minus2_path_with_opposite_signs() -> None:
    steps, after, end = _trace(3, -2)
    assert steps == {4: "A", 6: "F", 8: "A", 12: "AF"}
    assert after == {4: Hex(0, -1), 6: Hex(-1, -1), 8: Hex(-1, -2), 12: Hex(-2, -3)}
    assert walk(Hex(-1, -2), impulse_steps(RULES, 3, -2, 12))[0] == Hex(-1, -3)
    assert end == net_displacement(3, -2) == Hex(-2, -3)
    assert distance(Hex(0, 0), end) == 5


def test_pw_mv_1_option_c_then_a_keeps_the_end_hex() -> None:
    steps = impulse_steps(RULES, 3, -2, 12, "c_then_a")
    assert step_names(steps) == "FA"
    assert walk(Hex(-1, -2), steps) == (Hex(-2, -2), Hex(-2, -3))


def test_pw_mv_2_a4_c2_moves_b_when_both_move() -> None:
    steps, after, end = _trace(4, 2)
    assert steps == {3: "A", 6: "B", 9: "A", 12: "B"}
    assert after == {3: Hex(0, -1), 6: Hex(1, -2), 9: Hex(1, -3), 12: Hex(2, -4)}
    assert distance(Hex(0, 0), end) == 4


def test_pw_mv_3_both_negative_moves_e_once() -> None:
    steps, _, end = _trace(-1, -1)
    assert steps == {12: "E"}
    assert end == Hex(-1, 1)


def test_pw_mv_4_c12_moves_every_impulse() -> None:
    steps, _, end = _trace(0, 12)
    assert steps == {k: "C" for k in range(1, 13)}
    assert end == Hex(12, 0)


@pytest.mark.parametrize("va", range(-12, 13, 5))
@pytest.mark.parametrize("vc", range(-12, 13, 3))
def test_pw_r3_net_displacement_per_turn_is_vc_minus_va(va: int, vc: int) -> None:
    _, _, end = _trace(va, vc)
    assert end == Hex(vc, -va)
    same = va * vc >= 0
    assert distance(Hex(0, 0), end) == (max(abs(va), abs(vc)) if same else abs(va) + abs(vc))


def test_pw_vel_1_thrust_totals_update_next_turn_velocity() -> None:
    accels = [thrust_vector(RULES, 0), thrust_vector(RULES, 1)]
    assert accels == [(1, 0), (1, 1)]
    assert next_velocity((3, -2), accels) == (5, -1)


def test_pw_vel_2_speed_cap_masks_thrust_past_12() -> None:
    legal = {d: thrust_within_cap(RULES, (12, 0), [], i) for i, d in enumerate("ABCDEF")}
    assert legal == {"A": False, "B": False, "C": True, "D": True, "E": True, "F": True}


def test_pw_thrust_1_rating_is_engines_over_mass_class() -> None:
    assert thrust_rating(4, 2) == 2
    assert thrust_rating(3, 2) == 1
    assert thrust_rating(3, 0) == 3
