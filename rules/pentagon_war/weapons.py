"""Direct fire: range modifier, arcs, armor row struck and shot resolution (§2.1-2.7, PW-R7, R9).

>>> from wargym.rules.dice import ScriptedDice
>>> from wargym.rules.pentagon_war.data import load_rules
>>> rules = load_rules()
>>> shot = resolve_shot(rules, "laser", ScriptedDice([4, 5]), size_class=2, rng=6)
>>> shot.modified_roll, shot.damage
(7, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError
from wargym.rules.hexgrid import SQRT3, Hex, bearing_deg
from wargym.rules.pentagon_war.records import Arc, RuleSet, WeaponMode

EPS = 1e-7


def range_penalty(rules: RuleSet, rng: int) -> int:
    """Universal range modifier: the penalty at ``rng`` hexes (§2.1); beyond 256 is illegal."""
    if rng < 0 or rng > rules.max_fire_range:
        raise IllegalActionError(f"range {rng} is outside the universal range modifier (0..256)")
    penalty = rules.urm.lookup(rng)
    assert isinstance(penalty, int)
    return penalty


def relative_bearing(origin: Hex, facing: int, target: Hex) -> float:
    """Bearing of ``target`` from ``origin`` clockwise from the facing, in [0, 360) (PW-R7)."""
    angle = (bearing_deg(origin, target) - 60.0 * facing) % 360.0
    return 0.0 if angle >= 360.0 - 1e-9 else round(angle, 9)


def relative_bearing_qr(dq: int, dr: int, facing: int) -> float:
    """:func:`relative_bearing` of the offset ``(dq, dr)`` = target - origin (PW-R7).

    The same arithmetic as ``hexgrid.bearing_deg`` and :func:`relative_bearing`, step by step,
    without building hexes (a hot path of legality and observations).
    """
    x, y = 1.5 * dq, -SQRT3 * (dr + dq / 2.0)
    if x == 0.0 and y == 0.0:
        bearing = 0.0
    else:
        bearing = round(math.degrees(math.atan2(x, y)) % 360.0, 9)
        if bearing >= 360.0:
            bearing = 0.0
    angle = (bearing - 60.0 * facing) % 360.0
    return 0.0 if angle >= 360.0 - 1e-9 else round(angle, 9)


def _angular_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 360.0
    return min(gap, 360.0 - gap)


def in_interval(theta: float, centre: int, half: int) -> bool:
    """Whether ``theta`` lies in the closed interval ``[centre - half, centre + half]``."""
    return half >= 180 or _angular_gap(theta, centre) <= half + EPS


def in_arc(arc: Arc, theta: float, same_hex: bool = False) -> bool:
    """Whether relative bearing ``theta`` is inside ``arc``; same hex is in every arc (PW-R7)."""
    if same_hex:
        return True
    return any(in_interval(theta, centre, half) for centre, half in arc.parts)


def armor_row_struck(
    rules: RuleSet, target: Hex, target_facing: int, firer: Hex, armor: list[int] | tuple[int, ...]
) -> int:
    """Row (1..6) struck by fire from ``firer``: nearest centre, ties nearer the bow (PW-R9).

    At range 0 the row with the fewest intact boxes is struck, the lowest number on a tie.
    """
    if target == firer:
        fewest = min(armor)
        return armor.index(fewest) + 1
    theta = relative_bearing_qr(firer.q - target.q, firer.r - target.r, target_facing)
    return armor_row_at(rules, theta)


def armor_row_at(rules: RuleSet, theta: float) -> int:
    """Row (1..6) struck from relative bearing ``theta``, range > 0 (PW-R9).

    The row whose centre is nearest ``theta``; ties go to the row nearer the bow.
    """
    centres = rules.armor_centres
    gaps = []
    for centre in centres:  # _angular_gap(theta, centre), inlined
        gap = abs(theta - centre) % 360.0
        gaps.append(min(gap, 360.0 - gap))
    best = min(gaps) + EPS
    tied = [i for i, gap in enumerate(gaps) if gap <= best]
    if len(tied) > 1:
        tied.sort(key=lambda i: (_angular_gap(centres[i], 0), i))
    return tied[0] + 1


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """Result of one direct-fire roll, before screens and armor (§2.1-2.7)."""

    weapon_type: str
    faces: tuple[int, ...]
    size_class: int
    rng: int
    penalty: int
    ecm: int
    modified_roll: int
    hit: bool
    damage: int
    kill: bool
    packets: tuple[int, ...] = ()


def resolve_shot(
    rules: RuleSet, weapon_type: str, dice: Dice, size_class: int, rng: int, ecm: int = 0
) -> ShotOutcome:
    """Roll 2d6 + size class - range penalty - ECM and read the weapon's table (§2.1-2.7).

    Against size class 0 the result is a kill or nothing (``kill``); otherwise ``damage``
    (acid gum: ``packets`` per impulse).
    """
    spec = rules.weapon_types[weapon_type]
    penalty = range_penalty(rules, rng)
    faces = dice.roll(2)
    roll = sum(faces) + size_class - penalty - ecm
    hit, damage, kill = False, 0, False
    packets: tuple[int, ...] = ()
    if spec.mode is WeaponMode.ROLL_TABLE:
        assert spec.roll_table is not None and spec.size_class_0_kill_at_least is not None
        if size_class == 0:
            kill = roll >= spec.size_class_0_kill_at_least
            hit = kill
        else:
            damage = int(spec.roll_table.lookup(roll))
            hit = damage > 0
    else:
        assert spec.hit_number is not None
        hit = roll >= spec.hit_number
        if spec.mode is WeaponMode.HIT_THEN_RANGE_TABLE:
            band = spec.range_band(rng)
            if size_class == 0:
                kill = hit and not band.cannot_hit_size_class_0
                hit = kill
            elif hit:
                damage = band.damage
        else:  # acid gum: damage over several impulses
            if size_class == 0:
                kill = hit
            elif hit:
                packets = (spec.damage_per_impulse,) * spec.impulses
                damage = sum(packets)
    return ShotOutcome(
        weapon_type, faces, size_class, rng, penalty, ecm, roll, hit, damage, kill, packets
    )


def radar_rating(track: tuple[int, ...], destroyed: int) -> int:
    """Current radar rating: the first intact box of the track, 0 when none (PW-R12)."""
    return track[destroyed] if 0 <= destroyed < len(track) else 0


def radar_range(rating: int) -> int:
    """Maximum fire and launch range ``2 ** rating`` (PW-R12)."""
    return int(2**rating)


def missile_flight_impulses(rng: int, speed: int) -> int:
    """Flight time ``max(1, ceil(range / speed))`` impulses (PW-R15)."""
    return max(1, -(-rng // speed))


def global_impulse(turn: int, impulse: int, per_turn: int = 12) -> int:
    """The global impulse counter ``g = 12 (turn - 1) + k`` (§1)."""
    return per_turn * (turn - 1) + impulse


def turn_and_impulse(g: int, per_turn: int = 12) -> tuple[int, int]:
    """Inverse of :func:`global_impulse`."""
    return (g - 1) // per_turn + 1, (g - 1) % per_turn + 1
