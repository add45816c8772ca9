"""Damage: screens, armor rows, the damage allocation chart and destruction (§2.8, PW-R9, R13).

>>> screen_and_armor(8, screen=1, row_boxes=2)
(7, 2, 5)
"""

from __future__ import annotations

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.pentagon_war.events import (
    DamageAllocated,
    DamageApplied,
    PowerLost,
    ShipDestroyed,
)
from wargym.rules.pentagon_war.power import lose_power, screen_strength
from wargym.rules.pentagon_war.records import Category, Options, RuleSet, ShipDesign
from wargym.rules.pentagon_war.state import BattleState, ShipState

FINAL_DAMAGE = "final_damage"
DESTROYED = "destroyed"


def screen_and_armor(damage: int, screen: int, row_boxes: int) -> tuple[int, int, int]:
    """One hit through screens then armor: ``(after_screen, absorbed, internal)`` (PW-R9)."""
    after = max(0, damage - screen)
    absorbed = min(after, row_boxes)
    return after, absorbed, after - absorbed


def uniform_pick(dice: Dice, count: int) -> tuple[int, tuple[int, ...]]:
    """Pick an index in ``range(count)`` uniformly with d6 rolls (PW-R13, D-10).

    One die for up to 6 choices, two for up to 36 and so on; faces beyond the largest multiple
    of ``count`` are re-rolled. No dice are rolled when there is a single choice (nor, in
    :func:`allocate_point`, when every candidate box belongs to one system).
    """
    if count <= 1:
        return 0, ()
    n_dice = 1
    while 6**n_dice < count:
        n_dice += 1
    span = 6**n_dice
    limit = span - span % count
    faces: list[int] = []
    while True:
        rolled = dice.roll(n_dice)
        faces.extend(rolled)
        value = 0
        for face in rolled:
            value = value * 6 + face - 1
        if value < limit:
            return value % count, tuple(faces)


def boxes_of(ship: ShipState, design: ShipDesign, rules: RuleSet, category: Category) -> list[str]:
    """System name of every intact box a chart result may take, in SSD order (PW-R13)."""
    wanted = rules.weapon_categories if category is Category.ANY_WEAPON else frozenset({category})
    if category is Category.RADAR:
        remaining = len(design.radar_track) - ship.radar_destroyed
        return ["radar"] * max(0, remaining)
    names: list[str] = []
    for spec in design.systems:
        if spec.category in wanted:
            names.extend([spec.name] * ship.intact[spec.name])
    return names


def allocate_point(
    state: BattleState, target: int, rules: RuleSet, dice: Dice, options: Options
) -> list[Event]:
    """Allocate one internal damage point on the chart, re-rolling as ruled (§2.8).

    Up to four accepted rolls; an identical repeat of an earlier accepted roll is discarded.
    When all four are unavailable the point goes to Final Damage, and with none left the
    target is destroyed.
    """
    ship = state.ships[target]
    design = state.design_of(ship)
    accepted: list[tuple[int, int]] = []
    discarded: list[tuple[int, int]] = []
    results: list[str] = []
    while len(accepted) < rules.max_accepted_rolls:
        dark, light = dice.roll(2)
        roll = (dark, light)
        if roll in accepted:
            discarded.append(roll)
            continue
        accepted.append(roll)
        category = rules.chart[roll]
        results.append(category.value)
        boxes = boxes_of(ship, design, rules, category)
        if boxes:
            if options.box_choice == "random" and len(set(boxes)) > 1:
                index, pick = uniform_pick(dice, len(boxes))
            else:
                index, pick = 0, ()
            system = boxes[index]
            events: list[Event] = [
                DamageAllocated(
                    target,
                    tuple(accepted),
                    tuple(discarded),
                    tuple(results),
                    category.value,
                    system,
                    pick,
                )
            ]
            events.extend(_destroy_box(ship, design, rules, system))
            return events
    if ship.final_damage > 0:
        ship.final_damage -= 1
        return [
            DamageAllocated(
                target, tuple(accepted), tuple(discarded), tuple(results), FINAL_DAMAGE, None, ()
            )
        ]
    ship.destroyed = True
    return [
        DamageAllocated(
            target, tuple(accepted), tuple(discarded), tuple(results), DESTROYED, None, ()
        ),
        ShipDestroyed(target, "final_damage_exhausted"),
    ]


def _destroy_box(ship: ShipState, design: ShipDesign, rules: RuleSet, system: str) -> list[Event]:
    if system == "radar":
        ship.radar_destroyed += 1
        return []
    ship.intact[system] -= 1
    if design.system(system).category is Category.CAPACITOR and ship.charges > 0:
        return [PowerLost(ship.id, lose_power(ship, rules))]
    return []


def apply_hit(
    state: BattleState,
    target: int,
    source: str,
    row: int,
    damage: int,
    rules: RuleSet,
    dice: Dice,
    options: Options,
    screened: bool = True,
    screens: tuple[int, ...] | None = None,
) -> list[Event]:
    """Apply one hit of ``damage`` to armor row ``row`` of ``target`` (PW-R9).

    Screens first (unless ``screened`` is False: acid gum packets after the first), then the
    row's armor, then one chart allocation per remaining point until the target is destroyed.
    ``screens`` gives the strength per row as it stood at the start of the fire step (PW-R2);
    without it the screens are read from the ship as it stands.
    """
    ship = state.ships[target]
    if not ship.alive:
        return []
    design = state.design_of(ship)
    if not screened:
        screen = 0
    elif screens is not None:
        screen = screens[row - 1]
    else:
        screen = screen_strength(ship, design, rules, row)
    after, absorbed, internal = screen_and_armor(damage, screen, ship.armor[row - 1])
    ship.armor[row - 1] -= absorbed
    events: list[Event] = [
        DamageApplied(target, source, row, damage, screen, after, absorbed, internal)
    ]
    for _ in range(internal):
        if ship.destroyed:
            break
        events.extend(allocate_point(state, target, rules, dice, options))
    return events
