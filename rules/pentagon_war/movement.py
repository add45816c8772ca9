"""Vector movement: the 12-impulse chart, steps per impulse, thrust and velocity (PW-R3..R5).

>>> from wargym.rules.pentagon_war.data import load_rules
>>> rules = load_rules()
>>> moves_on_impulses(rules, 5)
(3, 5, 8, 10, 12)
>>> [step_names(impulse_steps(rules, 3, -2, k)) for k in (4, 6, 12)]
['A', 'F', 'AF']
"""

from __future__ import annotations

from collections.abc import Iterable

from wargym.rules.hexgrid import DIRECTION_NAMES, Hex
from wargym.rules.pentagon_war.records import OppositeSignOrder, RuleSet

DIR_A, DIR_B, DIR_C, DIR_D, DIR_E, DIR_F = range(6)


def chart_move_number(rules: RuleSet, speed: int, impulse: int) -> int:
    """The chart cell for component magnitude ``speed`` on ``impulse``; 0 is a dash (§2.10)."""
    if speed == 0:
        return 0
    return rules.impulse_chart[impulse - 1][abs(speed) - 1]


def closed_form_moves(speed: int, impulse: int, impulses: int = 12) -> bool:
    """Closed form of the chart: moves iff floor(k|v|/12) > floor((k-1)|v|/12) (§2.10)."""
    v = abs(speed)
    return (impulse * v) // impulses > ((impulse - 1) * v) // impulses


def moves_on_impulses(rules: RuleSet, speed: int) -> tuple[int, ...]:
    """Impulses on which a component of magnitude ``speed`` moves (§2.10)."""
    return tuple(
        k for k in range(1, rules.impulses_per_turn + 1) if chart_move_number(rules, speed, k) > 0
    )


def impulse_steps(
    rules: RuleSet, va: int, vc: int, impulse: int, order: OppositeSignOrder = "a_then_c"
) -> tuple[int, ...]:
    """Direction indices of the one-hex steps made on ``impulse`` (movement rule, PW-R3).

    One component moving gives A/D or C/F; both with the same sign give B or E; opposite signs
    give two steps, A-axis first by default (option ``c_then_a``).
    """
    a_moves = chart_move_number(rules, va, impulse) > 0
    c_moves = chart_move_number(rules, vc, impulse) > 0
    a_step = DIR_A if va > 0 else DIR_D
    c_step = DIR_C if vc > 0 else DIR_F
    if a_moves and c_moves:
        if va > 0 and vc > 0:
            return (DIR_B,)
        if va < 0 and vc < 0:
            return (DIR_E,)
        return (a_step, c_step) if order == "a_then_c" else (c_step, a_step)
    if a_moves:
        return (a_step,)
    if c_moves:
        return (c_step,)
    return ()


def step_names(steps: Iterable[int]) -> str:
    """Direction letters of ``steps``, e.g. ``"AF"``."""
    return "".join(DIRECTION_NAMES[s] for s in steps)


def walk(start: Hex, steps: Iterable[int]) -> tuple[Hex, ...]:
    """The hexes entered by ``steps`` from ``start``."""
    path, here = [], start
    for step in steps:
        here = here.neighbour(step)
        path.append(here)
    return tuple(path)


def net_displacement(va: int, vc: int) -> Hex:
    """Net axial displacement of one turn: ``(vC, -vA)`` (PW-R1, PW-R3)."""
    return Hex(vc, -va)


def thrust_rating(intact_engines: int, mass_class: int) -> int:
    """Thrust points per turn: floor(intact Engine boxes / mass class), class 0 as 1 (PW-R5)."""
    return intact_engines // max(1, mass_class)


def thrust_vector(rules: RuleSet, direction: int) -> tuple[int, int]:
    """Acceleration ``(dA, dC)`` of one thrust point along ``direction`` (PW-R5)."""
    return rules.thrust_by_facing[direction % 6]


def total_acceleration(accelerations: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """Record rows 15/16: the turn's total acceleration along A and C (§2.9.3)."""
    da = dc = 0
    for a, c in accelerations:
        da += a
        dc += c
    return da, dc


def next_velocity(
    velocity: tuple[int, int], accelerations: Iterable[tuple[int, int]]
) -> tuple[int, int]:
    """Velocity for the next turn: add the turn's total acceleration (PW-R5, D-8)."""
    da, dc = total_acceleration(accelerations)
    return velocity[0] + da, velocity[1] + dc


def thrust_within_cap(
    rules: RuleSet,
    velocity: tuple[int, int],
    accelerations: Iterable[tuple[int, int]],
    direction: int,
) -> bool:
    """Whether one more thrust along ``direction`` keeps both components within ±12 (PW-R3)."""
    va, vc = next_velocity(velocity, [*accelerations, thrust_vector(rules, direction)])
    return abs(va) <= rules.max_velocity and abs(vc) <= rules.max_velocity
