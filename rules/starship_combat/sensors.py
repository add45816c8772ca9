"""Optional sensor rules: detection tasks with §2.14's shifts and DMs (TR-R5 option).

Ruling (TR-R5 option, project): after movement each ship with a sensor box left rolls one detection
task per enemy. The task is the observer's UCP active object scan, one level easier in an adjacent
hex; one harder when the target is inside a gas giant, when the line passes a hex where a nuclear
missile exploded last round, or when the target carries an EMS jammer; one harder for a line
through a planet (size 5+) or a planetoid belt when the observer relies on its densitometer (each
condition one level, as listed in ``sensors.yaml``'s ``active_level_shift_plus_1`` and
``densitometer_level_shift_plus_1``). DMs: neutrino by the target's EM level, densitometer by its
size, and the to-hit range DMs (``detection_range_dm``). A natural 12 always detects. A side sees
what any ship of it detected; the battle begins in contact (every enemy detected).
"""

from __future__ import annotations

from wargym.rules.dice import Dice
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.events import DetectionRolled
from wargym.rules.starship_combat.records import DIFFICULTY_ORDER, Difficulty, SizeClass
from wargym.rules.starship_combat.ruleset import RuleSet, Scenario
from wargym.rules.starship_combat.state import BattleState, ShipState, design_of


def shift(difficulty: Difficulty, levels: int) -> Difficulty:
    """Move ``levels`` rows on the difficulty ladder, clamped (TR-R1)."""
    index = DIFFICULTY_ORDER.index(difficulty) + levels
    return DIFFICULTY_ORDER[max(0, min(len(DIFFICULTY_ORDER) - 1, index))]


def detection_task(
    state: BattleState, scenario: Scenario, observer: ShipState, target: ShipState,
    rules: RuleSet,
) -> tuple[int, int]:  # fmt: skip
    """(target number, DM) of one detection task (§2.14, TR-R5 option)."""
    obs, tgt = design_of(observer), design_of(target)
    rng = hexmap.distance(observer.pos, target.pos)
    levels = rules.sensor_adjacent_shift if rng <= 1 else 0
    path = set(hexmap.line(observer.pos, target.pos)[1:])
    active = {
        "target_in_gas_giant": target.pos in scenario.gas_giants,
        "through_nuclear_explosion_hex": bool(path & set(state.nuke_hexes)),
        "target_jamming": tgt.has_sensor("ems_jammer") and target.sensors > 0,
    }
    levels += sum(1 for c in rules.active_shift_conditions if active[c])
    dm = 0
    if obs.has_sensor("neutrino"):
        dm += rules.neutrino_dm[tgt.em_level]
    if obs.has_sensor("densitometer"):
        size = SizeClass.SMALL if target.craft else tgt.size
        dm += rules.densitometer_dm[size]
        through = {
            "through_planet_or_moon_size_5_plus": bool(path & set(scenario.planets)),
            "through_planetoid_belt": bool(path & set(scenario.belts)),
        }
        levels += sum(1 for c in rules.densitometer_shift_conditions if through[c])
    if rules.detection_range_dm:
        rng_dm = cb.range_dm(rng, rules)
        dm += rules.detection_beyond_range_dm if rng_dm is None else rng_dm
    difficulty = shift(obs.sensor_task("act_obj_scan"), levels)
    return rules.target(difficulty), dm


def detect(
    state: BattleState, scenario: Scenario, dice: Dice, rules: RuleSet
) -> list[DetectionRolled]:
    """Roll every detection task and record what each side sees (TR-R5 option)."""
    events = []
    seen: dict[int, set[int]] = {0: set(), 1: set()}
    for observer in state.ships:
        if observer.out or observer.sensors <= 0:
            continue
        for target in state.ships:
            if target.side == observer.side or target.out:
                continue
            number, dm = detection_task(state, scenario, observer, target, rules)
            faces = dice.roll(2)
            ok = sum(faces) == 12 or sum(faces) + dm >= number
            events.append(DetectionRolled(observer.id, target.id, faces, dm, number, ok))
            if ok:
                seen[observer.side].add(target.id)
    state.detected = {side: sorted(ids) for side, ids in seen.items()}
    return events
