"""Quick boarding (§2.17) in play (TR-R22), its losses, the capture critical and the blast (TR-R23).

>>> from wargym.rules.starship_combat.data import load_rules
>>> crew_as_troops(268, 20, 15, load_rules())
100
"""

from __future__ import annotations

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.damage import Effect, apply_critical, apply_effect, main_roll
from wargym.rules.starship_combat.events import BoardingResolved, CriticalRolled, ExplosionHit
from wargym.rules.starship_combat.records import (
    Critical,
    Difficulty,
    SuccessLevel,
    TableName,
    TroopQuality,
)
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import (
    BattleState,
    Options,
    ShipState,
    current_g,
    design_of,
)


def crew_as_troops(persons: int, segments_initial: int, segments_left: int, rules: RuleSet) -> int:
    """Defending troops from the crew: 50 % of the crew persons left (§2.17, TR-R22)."""
    crew_now = persons * segments_left // segments_initial
    return crew_now * rules.crew_as_troops_pct // 100


def committed_troops(troops: int, tenths: int | None) -> int:
    """Troops a ship commits: ``ceil(troops x tenths / 10)``, all when None (TR-R22)."""
    return troops if tenths is None else -(-troops * tenths // 10)


def boarding_ratio_dm(attackers: int, defenders: int, rules: RuleSet) -> int:
    """Attacker's ratio DM: minus the defender-side DM of the troop ratio (§2.17, TR-R22).

    The ratio is floored and clamped as in TR-R8; no defenders count as 4:1.
    """
    key = "4:1" if defenders <= 0 else cb.ratio_key(attackers, defenders)
    return -rules.boarding_ratio_dm_def[key]


def quality_for_d6(face: int, rules: RuleSet) -> TroopQuality:
    """Troop quality when unknown: 1D on the quality table (§2.17)."""
    for quality, faces in rules.quality_d6.items():
        if face in faces:
            return quality
    raise ValueError(face)


def boarding_task(
    att_tactics: int, att_quality_dm: int, def_tactics: int, def_quality_dm: int,
    att_troops: int, def_troops: int, defender_has_troops: bool, rules: RuleSet,
) -> tuple[int, int]:  # fmt: skip
    """(DM, target number) of the capture task (§2.17, TR-R22)."""
    dm = att_tactics + att_quality_dm - def_tactics - def_quality_dm
    dm += boarding_ratio_dm(att_troops, def_troops, rules)
    diff = rules.boarding_difficulty if defender_has_troops else rules.boarding_no_troops_difficulty
    return dm, rules.target(diff)


def loss(count: int, pct: int) -> int:
    """Troop losses: ``ceil(count x pct / 100)`` (TR-R22)."""
    return -(-count * pct // 100)


def survival(
    level: SuccessLevel, pcs_defending: bool, rules: RuleSet
) -> tuple[Difficulty, tuple[str, ...]]:
    """PC survival task after a boarding; mirrored when the PCs defend (§2.17)."""
    row = rules.pc_mirror[level] if pcs_defending else level
    return rules.pc_survival[row]


def eligible(state: BattleState, attacker: ShipState, target: ShipState, rules: RuleSet,
             options: Options) -> bool:  # fmt: skip
    """Same hex after movement, and equal velocities or a target at 0 G (TR-R22).

    The target may be out of the fight (no crew, no computer, ...) but still there: only a
    destroyed, captured or disengaged ship cannot be boarded.
    """
    if attacker.out or attacker.troops <= 0 or target.craft or attacker.craft:
        return False
    if target.destroyed or target.captured or target.disengaged:
        return False
    if attacker.pos != target.pos:
        return False
    return attacker.vel == target.vel or current_g(target, rules, options) == 0


def resolve_boarding(
    state: BattleState, attackers: list[ShipState], target: ShipState, dice: Dice,
    rules: RuleSet, options: Options, commit: list[int] | None = None,
) -> list[Event]:  # fmt: skip
    """One boarding action by one or more ships against ``target`` (§2.17, TR-R22).

    ``commit`` is each attacker's committed troops (default: all); losses come out of them.
    """
    events: list[Event] = []
    committed = commit if commit is not None else [a.troops for a in attackers]
    att_troops = sum(committed)
    tactics = max(a.tactics for a in attackers)
    qdm = [rules.quality_dm[TroopQuality(a.troop_quality)] for a in attackers]
    att_q = int(sum(qdm) / len(qdm) + 0.5)
    has_troops = target.troops > 0
    design = design_of(target)
    def_troops = target.troops if has_troops else crew_as_troops(
        design.crew_persons, design.crew_segments, target.crew, rules)  # fmt: skip
    def_q = rules.quality_dm[TroopQuality(target.troop_quality)]
    dm, tn = boarding_task(tactics, att_q, target.tactics, def_q, att_troops, def_troops,
                           has_troops, rules)  # fmt: skip
    faces = dice.roll(2)
    modified = sum(faces) + dm
    level = rules.success_level(modified - tn)
    row = rules.boarding_losses[level]
    att_loss = loss(att_troops, row.attacker_pct)
    def_loss = loss(def_troops, row.defender_pct)
    crew_loss = row.defender_crew_segments + sum(dice.roll(row.defender_crew_dice))
    remaining = att_loss
    for a, n in zip(attackers, committed, strict=True):
        take = min(n, remaining)
        a.troops -= take
        remaining -= take
    if has_troops:
        target.troops = max(0, target.troops - def_loss)
    target.crew = max(0, target.crew - crew_loss)
    captured = level in (SuccessLevel.SUCCESS, SuccessLevel.EXTREME_SUCCESS)
    events.append(BoardingResolved(tuple(a.id for a in attackers), target.id, att_troops,
                                   def_troops, faces, modified, tn, level.value, att_loss,
                                   def_loss, crew_loss, captured))  # fmt: skip
    if captured:
        target.captured = True
        events.extend(_capture_critical(state, attackers, target, dice, rules, options))
    return events


def _capture_critical(
    state: BattleState, attackers: list[ShipState], target: ShipState, dice: Dice,
    rules: RuleSet, options: Options,
) -> list[Event]:  # fmt: skip
    """One critical roll after capture; vaporised is re-rolled once (§2.17)."""
    events: list[Event] = []
    faces = dice.roll(2)
    crit = rules.critical_table[sum(faces)]
    events.append(CriticalRolled(target.id, faces, crit.value))
    if crit is Critical.VAPORIZED:
        faces = dice.roll(2)
        crit = rules.critical_table[sum(faces)]
        events.append(CriticalRolled(target.id, faces, crit.value))
    if crit is not Critical.VAPORIZED:
        apply_critical(state, target, crit, dice, rules, options, events)
        return events
    target.destroyed = True
    for a in attackers:
        a.troops = 0
    events.extend(explosion(state, target, dice, rules, options))
    return events


def explosion_ucp(displacement: int, adjacent: bool, rules: RuleSet) -> int:
    """Blast UCP: displacement / 100 in the hex, / 1000 adjacent, at least 1 (TR-R23)."""
    div = rules.explosion_adjacent_divisor if adjacent else rules.explosion_same_hex_divisor
    return max(rules.explosion_min_ucp, displacement // div)


def explosion(
    state: BattleState, source: ShipState, dice: Dice, rules: RuleSet, options: Options
) -> list[Event]:
    """Surface rolls for every craft in or next to the vaporised ship's hex (TR-R23)."""
    events: list[Event] = []
    disp = design_of(source).displacement
    for ship in state.ships:
        if ship.id == source.id or ship.destroyed:
            continue
        d = hexmap.distance(ship.pos, source.pos)
        if d > 1:
            continue
        ucp = explosion_ucp(disp, d == 1, rules)
        events.append(ExplosionHit(source.id, ship.id, ucp))
        if ship.craft:
            events.extend(apply_effect(state, Effect(ship.id, "pool", ucp, ucp), dice, rules,
                                       options))  # fmt: skip
            continue
        dm = cb.damage_table_dm(ucp, False, False, rules)
        ev, effects = main_roll(ship.id, TableName.SURFACE, dm, ucp, ucp, False, dice, rules)
        events.extend(ev)
        for effect in effects:
            events.extend(apply_effect(state, effect, dice, rules, options))
    return events
