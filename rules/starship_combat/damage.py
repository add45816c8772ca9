"""The hit pipeline and damage application (§2.4-§2.11, TR-R10, TR-R11, TR-R13, TR-R17).

:func:`resolve_battery` reads a snapshot of the battle and rolls armour penetration and the
damage tables for one penetrating battery, returning events and pending :class:`Effect` s;
:func:`apply_effect` writes one effect into the live state in the fixed order of TR-R3.
"""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat.events import (
    ArmorRolled,
    BoxChosen,
    ComponentDamaged,
    CriticalRolled,
    DamageRolled,
    FuelLeaked,
    FuelLeakStarted,
    HullShareRolled,
)
from wargym.rules.starship_combat.records import Critical, HitResult, TableName, Warhead
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import (
    BattleState,
    Options,
    ShipState,
    design_of,
    hull_inop,
    hull_limits,
    record_of,
)


@dataclass(frozen=True, slots=True)
class Effect:
    """A pending result to apply to ``target`` (TR-R10 step 6, TR-R11)."""

    target: int
    what: str
    """A :class:`HitResult` value, or ``hull``, ``armor`` or ``pool`` (squadron)."""
    dp: int
    ucp: int
    exceptional: bool = False
    radiation: bool = False


@dataclass(frozen=True, slots=True)
class Shot:
    """What one penetrating battery brings to the pipeline (TR-R10)."""

    firer: int
    weapon: str
    factor: int
    warhead: Warhead
    radiation: bool
    meson: bool
    spinal: bool
    exceptional: bool


def choose_uniform(dice: Dice, n: int) -> tuple[int, tuple[int, ...]]:
    """Uniform index in ``0..n-1`` from d6 rolls by rejection (D-11); returns the faces used."""
    if n <= 1:
        return 0, ()
    m = 1
    while 6**m < n:
        m += 1
    limit = (6**m // n) * n
    used: list[int] = []
    while True:
        faces = dice.roll(m)
        used.extend(faces)
        value = sum((f - 1) * 6**i for i, f in enumerate(faces))
        if value < limit:
            return value % n, tuple(used)


def roll_table(
    target: int, table: TableName, dm: int, dp: int, ucp: int, dice: Dice, rules: RuleSet
) -> tuple[DamageRolled, HitResult]:
    """One 2D roll on a damage table, clamped to 1..13 (§2.7, TR-R10)."""
    faces = dice.roll(2)
    modified = cb.clamp_roll(sum(faces) + dm, rules)
    result = rules.tables[table][modified]
    event = DamageRolled(target, table.value, faces, dm, modified, result.value, dp, ucp)
    return event, result


def resolve_battery(
    shot: Shot, target: ShipState, flicker: int, dice: Dice, rules: RuleSet
) -> tuple[list[Event], list[Effect]]:
    """Armour, radiation split and damage rolls of one penetrating battery (TR-R10)."""
    events: list[Event] = []
    effects: list[Effect] = []
    dp = cb.damage_points(shot.factor, shot.warhead, shot.exceptional, rules)
    dp -= cb.globe_absorbed(dp, flicker)
    armor = target.armor + cb.globe_armor_bonus(flicker, rules)
    if not shot.meson:
        faces = dice.roll(2)
        need = cb.armor_need(shot.factor, armor, rules)
        ok = cb.armor_penetrates(sum(faces), need)
        events.append(ArmorRolled(shot.firer, shot.weapon, target.id, faces, need, ok))
        if not ok:
            return events, effects
    if target.craft:
        pool = dp if shot.warhead is Warhead.CONVENTIONAL else dp * 3 // 4
        effects.append(Effect(target.id, "pool", pool, shot.factor, shot.exceptional))
        return events, effects
    rad = cb.radiation_points(dp, rules) if shot.radiation else 0
    main = dp - rad
    globe = flicker > 0
    if rad >= 1:
        dm = cb.damage_table_dm(rad, False, globe, rules)
        event, result = roll_table(target.id, TableName.RADIATION, dm, rad, rad, dice, rules)
        events.append(event)
        effects.append(Effect(target.id, result.value, rad, rad, shot.exceptional, True))
    big = shot.warhead is not Warhead.CONVENTIONAL or shot.spinal
    dm = cb.damage_table_dm(shot.factor, big, globe, rules)
    rolls = cb.spinal_rolls(shot.factor, armor, shot.meson, rules) if shot.spinal else 1
    table = TableName.INTERIOR if shot.meson else TableName.SURFACE
    for _ in range(rolls):
        ev, ef = main_roll(target.id, table, dm, main, shot.factor, shot.exceptional, dice, rules)
        events.extend(ev)
        effects.extend(ef)
    return events, effects


def main_roll(
    target: int, table: TableName, dm: int, dp: int, ucp: int, exceptional: bool, dice: Dice,
    rules: RuleSet,
) -> tuple[list[Event], list[Effect]]:  # fmt: skip
    """One main damage roll (§2.4, TR-R10 step 5, TR-R23).

    A surface Interior result adds the hull share and rolls the interior table, same DMs.
    """
    event, result = roll_table(target, table, dm, dp, ucp, dice, rules)
    events: list[Event] = [event]
    effects: list[Effect] = []
    dp_in = dp
    if result is HitResult.INTERIOR:
        hull, dp_in, share_events = hull_share_roll(target, dp, dice, rules)
        events.extend(share_events)
        if hull:
            effects.append(Effect(target, "hull", hull, ucp))
        if dp_in == 0:
            return events, effects
        event, result = roll_table(target, TableName.INTERIOR, dm, dp_in, ucp, dice, rules)
        events.append(event)
    effects.append(Effect(target, result.value, dp_in, ucp, exceptional))
    return events, effects


def hull_share_roll(
    target: int, dp: int, dice: Dice, rules: RuleSet
) -> tuple[int, int, list[Event]]:
    """(hull points, interior DP, events) of an interior hit (§2.4, TR-R10 step 5)."""
    faces: tuple[int, ...] = ()
    if dp == 1:
        faces = dice.roll(1)
        hull, interior = (1, 0) if faces[0] >= rules.dp1_hull_on_d6 else (0, 1)
    elif dp == 2:
        faces = dice.roll(1)
        hull, interior = (1, 1) if faces[0] >= rules.dp2_hull_on_d6 else (0, 2)
    else:
        hull, interior = cb.hull_share(dp, rules), dp
    return hull, interior, [HullShareRolled(target, dp, faces, hull, interior)]


def _boxes(ship: ShipState, name: str, amount: int, events: list[Event]) -> None:
    if name.startswith("weapon:"):
        store, key = ship.weapons, name[7:]
    elif name.startswith("screen:"):
        store, key = ship.screens, name[7:]
    else:
        before = getattr(ship, name)
        after = max(0, before - amount)
        setattr(ship, name, after)
        events.append(ComponentDamaged(ship.id, name, amount, before, after))
        return
    before = store.get(key, 0)
    store[key] = max(0, before - amount)
    events.append(ComponentDamaged(ship.id, name, amount, before, store[key]))


def _track(ship: ShipState, name: str, amount: int, events: list[Event]) -> None:
    before = getattr(ship, name + "_dmg")
    setattr(ship, name + "_dmg", before + amount)
    events.append(ComponentDamaged(ship.id, name, amount, before, before + amount))


def start_leak(ship: ShipState, hull_rate: bool, dice: Dice, rules: RuleSet) -> list[Event]:
    """Start a fuel leak; a running leak is replaced only by a higher rate (§2.11, TR-R17).

    Rates, lowest first: normal (1 day), halved hull rate (ceil(2D / 2)), hull rate (2D).
    """
    if ship.leak == "hull" or (ship.leak and not hull_rate):
        return []
    _dice, _fixed, turn_dice, plus = rules.leak_hull if hull_rate else rules.leak_normal
    faces = dice.roll(turn_dice)
    ship.leak, ship.leak_turns = ("hull" if hull_rate else "normal"), sum(faces) + plus
    return [FuelLeakStarted(ship.id, hull_rate, faces, ship.leak_turns)]


def leak_fuel(ship: ShipState, dice: Dice, rules: RuleSet) -> list[Event]:
    """End-of-round fuel loss: 1 day, 2D days, then ceil(2D / 2) days until empty (TR-R17)."""
    if not ship.leak or ship.fuel <= 0:
        ship.leak, ship.leak_turns = "", 0
        return []
    n_dice, fixed, _turn_dice, _plus = (
        rules.leak_normal if ship.leak == "normal" else rules.leak_hull
    )
    faces = dice.roll(n_dice)
    days = sum(faces) + fixed
    if ship.leak == "hull_halved":
        days = -(-days // 2)
    else:
        ship.leak_turns -= 1
        if ship.leak_turns <= 0:
            ship.leak = "hull_halved" if ship.leak == "hull" else ""
    ship.fuel = max(0, ship.fuel - days)
    if ship.fuel == 0:
        ship.leak, ship.leak_turns = "", 0
    return [FuelLeaked(ship.id, faces, days, ship.fuel)]


def _pick(ship: ShipState, among: list[tuple[str, int]], dice: Dice, ev: list[Event]) -> str:
    index, faces = choose_uniform(dice, len(among))
    names = tuple(name for name, _w in among)
    ev.append(BoxChosen(ship.id, names, faces, names[index]))
    return names[index]


def _weapon_box(ship: ShipState, dice: Dice, events: list[Event]) -> str | None:
    boxes = [(k, v) for k, v in ship.weapons.items() for _ in range(v)]
    if not boxes:
        return None
    index, faces = choose_uniform(dice, len(boxes))
    names = tuple(dict.fromkeys(k for k, _v in boxes))
    events.append(BoxChosen(ship.id, names, faces, boxes[index][0]))
    return boxes[index][0]


def apply_effect(
    state: BattleState, effect: Effect, dice: Dice, rules: RuleSet, options: Options
) -> list[Event]:
    """Write one pending effect into the live state (TR-R11, TR-R13)."""
    ship = state.ship(effect.target)
    events: list[Event] = []
    if ship.destroyed:
        return events
    what = effect.what
    if what in ("pool", "hull"):
        was_inop = hull_inop(ship, options)
        _track(ship, "hull", effect.dp, events)
        _check_hull(ship, was_inop, dice, rules, options, events)
        return events
    if what == "armor":
        _boxes(ship, "armor", effect.dp, events)
        return events
    plus_one = rules.hull_inop_has("plus_one_damage_except_hull")
    bonus = 1 if plus_one and hull_inop(ship, options) else 0
    result = HitResult(what)
    n_boxes = cb.box_hits(effect.ucp, rules) + bonus
    n_boxes += rules.exceptional_extra_box if effect.exceptional else 0
    if result in (HitResult.MANEUVER, HitResult.POWER_PLANT, HitResult.JUMP):
        track = {"maneuver": "maneuver", "power_plant": "power", "jump": "jump"}[what]
        if track == "jump" and design_of(ship).jump == 0:
            return events
        _track(ship, track, effect.dp + bonus, events)
    elif result is HitResult.WEAPON:
        key = _weapon_box(ship, dice, events)
        if key is not None:
            _boxes(ship, "weapon:" + key, n_boxes, events)
    elif result is HitResult.SCREEN:
        live = [("screen:" + k, v) for k, v in ship.screens.items() if v > 0]
        if live:
            _boxes(ship, _pick(ship, live, dice, events), n_boxes, events)
    elif result is HitResult.COMPUTER:
        if not (effect.radiation and design_of(ship).computer_fib):
            _boxes(ship, "computer", n_boxes, events)
    elif result in (HitResult.CREW, HitResult.SENSOR, HitResult.FUEL):
        name = {"crew": "crew", "sensor": "sensors", "fuel": "fuel"}[what]
        _boxes(ship, name, n_boxes, events)
    elif result is HitResult.FUEL_LEAK:
        events.extend(start_leak(ship, False, dice, rules))
    elif result is HitResult.CRITICAL:
        events.extend(critical_hit(state, ship, dice, rules, options))
    return events


def _check_hull(
    ship: ShipState, was_inop: bool, dice: Dice, rules: RuleSet, options: Options,
    events: list[Event],
) -> None:  # fmt: skip
    if ship.hull_dmg >= hull_limits(ship, options)[1]:
        ship.destroyed = True
    elif (
        not was_inop
        and hull_inop(ship, options)
        and ship.craft == 0
        and (rules.hull_inop_has("fuel_leak_hull_inop"))
    ):
        events.extend(start_leak(ship, True, dice, rules))


def critical_hit(
    state: BattleState, ship: ShipState, dice: Dice, rules: RuleSet, options: Options,
    faces: tuple[int, ...] | None = None,
) -> list[Event]:  # fmt: skip
    """Roll (or take ``faces``) on the critical table and apply it; armour -1 (TR-R13)."""
    faces = faces if faces is not None else dice.roll(2)
    crit = rules.critical_table[sum(faces)]
    events: list[Event] = [CriticalRolled(ship.id, faces, crit.value)]
    _boxes(ship, "armor", rules.armor_loss_per_critical, events)
    apply_critical(state, ship, crit, dice, rules, options, events)
    return events


def apply_critical(
    state: BattleState, ship: ShipState, crit: Critical, dice: Dice, rules: RuleSet,
    options: Options, events: list[Event],
) -> None:  # fmt: skip
    """Effect of one critical result (TR-R13)."""
    rec = record_of(ship.design)
    if crit is Critical.BRIDGE_HIT:
        ship.bridge_hit_round = state.round + 1
    elif crit is Critical.POWER_PLUS_3:
        _track(ship, "power", 3 * rec.power.per_unit, events)
    elif crit is Critical.COMPUTER_MINUS_3:
        _boxes(ship, "computer", 3, events)
    elif crit is Critical.MANEUVER_INOP:
        _track(ship, "maneuver", max(0, rec.maneuver.inop_total - ship.maneuver_dmg), events)
    elif crit is Critical.CREW_1D:
        _boxes(ship, "crew", sum(dice.roll(1)), events)
    elif crit is Critical.LOSE_WEAPON_TYPE:
        live = [(k, v) for k, v in ship.weapons.items() if v > 0]
        if live:
            key = _pick(ship, live, dice, events)
            _boxes(ship, "weapon:" + key, ship.weapons[key], events)
    elif crit is Critical.LOSE_SENSORS:
        _boxes(ship, "sensors", ship.sensors, events)
    elif crit is Critical.FUEL_LEAK_HULL:
        events.extend(start_leak(ship, True, dice, rules))
    elif crit is Critical.JUMP_INOP and rec.jump is not None:
        _track(ship, "jump", max(0, rec.jump.inop_total - ship.jump_dmg), events)
    elif crit is Critical.LOSE_SCREEN_TYPE:
        live = [("screen:" + k, v) for k, v in ship.screens.items() if v > 0]
        if live:
            name = _pick(ship, live, dice, events)
            _boxes(ship, name, ship.screens[name[7:]], events)
    elif crit is Critical.VAPORIZED:
        ship.destroyed = True
