"""The fire step: legality, to-hit, penetration and the hit pipeline (§2.1-§2.2, TR-R6-TR-R10).

Everything is resolved against a snapshot of the battle taken at the start of the fire step
(TR-R3); the pending effects are applied afterwards in the fixed order by :mod:`.game`.
"""

from __future__ import annotations

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.starship_combat import combat as cb
from wargym.rules.starship_combat import hexmap
from wargym.rules.starship_combat.damage import Effect, Shot, resolve_battery
from wargym.rules.starship_combat.events import FireCancelled, PenetrationRolled, ToHitRolled
from wargym.rules.starship_combat.records import (
    DEFENSIVE_WEAPONS,
    SizeClass,
    Warhead,
    WeaponKind,
)
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import (
    BattleState,
    FireOrder,
    Options,
    ShipState,
    battery_count,
    bearing_count,
    def_dm,
    design_of,
    hull_inop,
    mount,
    power_steps,
    weapon_factor,
)


def weapon_kind(state: BattleState, ship: ShipState, key: str) -> WeaponKind:
    """Kind of a weapon type, with the scenario's nuclear-missile switch (TR-R9)."""
    kind = mount(ship, key).kind
    if kind is WeaponKind.MISSILE and state.nuclear_missiles:
        return WeaponKind.NUCLEAR_MISSILE
    return kind


def is_fighter(ship: ShipState) -> bool:
    """A craft under 100 tons or a squadron (TR-R19)."""
    return ship.craft > 0 or design_of(ship).displacement < 100


def relative_bearing(firer: ShipState, target: ShipState) -> float:
    """Bearing of ``target`` clockwise from the firer's heading, in [0, 360) (TR-R19)."""
    if firer.pos == target.pos:
        return 0.0
    return (hexmap.bearing_deg(firer.pos, target.pos) - 60.0 * firer.heading) % 360.0


def in_spinal_arc(firer: ShipState, target: ShipState) -> bool:
    """Inside the 60-degree hexside arc of the heading, closed; range 0 is inside (TR-R19)."""
    rel = relative_bearing(firer, target)
    return min(rel, 360.0 - rel) <= 30.0 + 1e-6


def arc_of(firer: ShipState, target: ShipState) -> int:
    """Hexside arc (0 = ahead, clockwise) nearest the target; ties nearer the heading (TR-R20)."""
    rel = relative_bearing(firer, target)
    best, best_key = 0, (0.0, 0)
    for i in range(6):  # min(range(6), key=(gap rounded to 1e-6, hexsides off the heading))
        d = abs(rel - 60.0 * i) % 360.0
        key = (round(min(d, 360.0 - d), 6), _OFF_HEADING[i])
        if i == 0 or key < best_key:
            best, best_key = i, key
    return best


_OFF_HEADING = (0, 1, 2, 3, 2, 1)
"""``min(i, 6 - i)``: hexsides between arc ``i`` and the heading."""


def has_sensor_data(state: BattleState, ship: ShipState, options: Options) -> bool:
    """Own sensors, or remote fire guidance from a friend with sensors (§2.18, TR-R14)."""
    if ship.sensors > 0:
        return True
    return options.remote_fire_guidance and any(
        s.sensors > 0 and not s.out and s.id != ship.id for s in state.side_ships(ship.side)
    )


def can_fire(state: BattleState, ship: ShipState, rules: RuleSet, options: Options) -> bool:
    """Whether the ship may fire at all this round (TR-R14, TR-R16, TR-R13 bridge hit)."""
    if ship.out or ship.computer <= 0 or ship.bridge_hit_round == state.round:
        return False
    if power_steps(ship, rules, options) >= rules.power_no_weapons:
        return False
    return has_sensor_data(state, ship, options)


def weapon_usable(
    state: BattleState, ship: ShipState, key: str, accel_mag: int, rules: RuleSet,
    options: Options,
) -> bool:  # fmt: skip
    """Whether weapon type ``key`` may fire given the power, hull and acceleration (TR-R16)."""
    m = mount(ship, key)
    if m.kind in DEFENSIVE_WEAPONS or battery_count(ship, key, options) <= 0:
        return False
    steps = power_steps(ship, rules, options)
    no_spinal = hull_inop(ship, options) and rules.hull_inop_has("no_spinal")
    if m.spinal and (steps >= rules.power_no_spinal or no_spinal):
        return False
    energy = rules.weapon_props[weapon_kind(state, ship, key)].energy
    return not (energy and steps >= rules.power_xor and accel_mag > 0)


def target_problem(
    state: BattleState, firer: ShipState, key: str, target: ShipState, rules: RuleSet,
    options: Options,
) -> str:  # fmt: skip
    """Why ``target`` cannot be fired at now (empty when it can) (TR-R6, TR-R19, TR-R5)."""
    if target.side == firer.side or target.out:
        return "not a live enemy"
    if hexmap.distance(firer.pos, target.pos) > rules.max_range:
        return "out of range"
    if mount(firer, key).spinal and (is_fighter(target) or not in_spinal_arc(firer, target)):
        return "outside the spinal arc or a fighter"
    if options.sensors and target.id not in state.detected.get(firer.side, []):
        return "not detected"
    return ""


def _defence_batteries(
    target: ShipState, system: str, rules: RuleSet, options: Options
) -> tuple[int, int]:
    """(bearing batteries, factor) of a defensive battery type; (0, 0) if off (TR-R8)."""
    steps = power_steps(target, rules, options)
    if steps >= rules.power_no_weapons or (
        steps >= rules.power_screens_off and system != WeaponKind.SANDCASTER.value
    ):
        return 0, 0
    for m in design_of(target).weapons:
        if m.kind.value == system:
            n = bearing_count(target, m.key, options)
            return n, weapon_factor(target, m.key)
    return 0, 0


def _screen(target: ShipState, system: str, rules: RuleSet, options: Options) -> int:
    if power_steps(target, rules, options) >= rules.power_screens_off:
        return 0
    return target.screens.get(system, 0)


def _batch(
    n: int, dm: int, target_number: int, dice: Dice, rules: RuleSet, options: Options
) -> tuple[tuple[int, ...], int, int, int]:
    """(faces, modified, tenths, successes) of one batched or per-battery task (§2.1, TR-R7)."""
    if options.batched:
        faces = dice.roll(2)
        modified = sum(faces) + dm
        tenths = cb.batch_tenths(modified, target_number, sum(faces), rules,
                                 options.literal_bare_success)  # fmt: skip
        return faces, modified, tenths, cb.batteries_succeeding(n, tenths)
    all_faces: list[int] = []
    ok = 0
    for _ in range(n):
        f = dice.roll(2)
        all_faces.extend(f)
        ok += sum(f) + dm >= target_number or sum(f) == 12
    return tuple(all_faces), dm, 0, ok


def to_hit_dm(
    state: BattleState, firer: ShipState, target: ShipState, rules: RuleSet, options: Options
) -> int:
    """All DMs of the to-hit task (TR-R6)."""
    size = SizeClass.SMALL if target.craft else design_of(target).size
    rng = cb.range_dm(hexmap.distance(firer.pos, target.pos), rules)
    dm = firer.gunnery + firer.computer - def_dm(target, rules, options) + rules.size_dm[size]
    dm += rng if rng is not None else 0
    return dm + (rules.remote_guidance_dm if firer.sensors <= 0 else 0)


def resolve_fire(
    snap: BattleState, firer: ShipState, key: str, target: ShipState, n: int, dice: Dice,
    rules: RuleSet, options: Options,
) -> tuple[list[Event], list[Effect]]:  # fmt: skip
    """To-hit, penetration and hit pipeline of ``n`` batteries at one target (§2.1, TR-R10)."""
    events: list[Event] = []
    effects: list[Effect] = []
    kind = weapon_kind(snap, firer, key)
    props = rules.weapon_props[kind]
    factor = weapon_factor(firer, key)
    tn = rules.target(rules.to_hit_difficulty)
    dm = to_hit_dm(snap, firer, target, rules, options)
    faces, modified, tenths, hits = _batch(n, dm, tn, dice, rules, options)
    exceptional = options.batched and modified >= tn + rules.exceptional_margin
    events.append(ToHitRolled(firer.id, key, target.id, n, faces, dm, modified, tn, tenths,
                              hits, exceptional))  # fmt: skip
    live = hits
    pen_tn = rules.target(rules.penetration_difficulty)
    for system, dkind in props.defences:
        if live <= 0:
            break
        if dkind == "battery":
            n_def, d_factor = _defence_batteries(target, system, rules, options)
        else:
            n_def, d_factor = (1, _screen(target, system, rules, options))
            n_def = n_def if d_factor > 0 else 0
        if n_def <= 0:
            events.append(PenetrationRolled(firer.id, key, target.id, system, live, 0, 0, (),
                                            0, pen_tn, 10, live))  # fmt: skip
            continue
        screen_ratio = dkind == "screen" and rules.ratio_dm_vs_screens
        ratio = 0
        if options.batched and (dkind == "battery" or screen_ratio):
            ratio = cb.ratio_dm(live, n_def, rules.ratio_dm_table)
        pdm = factor - d_factor + ratio
        pfaces, pmod, ptenths, passed = _batch(live, pdm, pen_tn, dice, rules, options)
        events.append(PenetrationRolled(firer.id, key, target.id, system, live, n_def, ratio,
                                        pfaces, pmod, pen_tn, ptenths, passed))  # fmt: skip
        live = passed
    if exceptional and hits > 0:
        effects.append(Effect(target.id, "armor", rules.exceptional_armor_loss, factor))
    shot = Shot(firer.id, key, factor, props.warhead, props.radiation, props.meson,
                mount(firer, key).spinal, exceptional)  # fmt: skip
    flicker = target.flicker if options.black_globes else 0
    for _ in range(live):
        ev, ef = resolve_battery(shot, target, flicker, dice, rules)
        events.extend(ev)
        effects.extend(ef)
    if live > 0 and props.warhead is Warhead.NUCLEAR:
        snap.nuke_hexes.append(target.pos)
    return events, effects


def merged_orders(orders: list[FireOrder], key: str) -> list[FireOrder]:
    """The orders of weapon ``key``, one per target, batteries summed (§2.1, TR-R7).

    One roll is made per (firing ship, weapon type, target): two orders on the same target
    are one batch, never two (the decisions offer each target once; this guards restored
    states).
    """
    merged: dict[int, FireOrder] = {}
    for o in orders:
        if o.weapon != key:
            continue
        if o.target in merged:
            merged[o.target] = FireOrder(key, o.target, merged[o.target].batteries + o.batteries)
        else:
            merged[o.target] = FireOrder(key, o.target, o.batteries)
    return list(merged.values())


def fire_step(
    state: BattleState, snap: BattleState, dice: Dice, rules: RuleSet, options: Options
) -> tuple[list[Event], list[Effect]]:
    """Resolve every ordered fire from the snapshot, in ship then weapon order (TR-R3)."""
    events: list[Event] = []
    effects: list[Effect] = []
    for firer in snap.ships:
        orders = state.orders.get(firer.id)
        if orders is None or not orders.fire:
            continue
        able = can_fire(snap, firer, rules, options)
        for m in design_of(firer).weapons:
            per_arc: dict[int, int] = {}
            used = 0
            for order in merged_orders(orders.fire, m.key):
                target = snap.ship(order.target)
                accel = orders.accel_mag or 0
                reason = ""
                if not able or not weapon_usable(snap, firer, m.key, accel, rules, options):
                    reason = "weapon cannot fire"
                else:
                    reason = target_problem(snap, firer, m.key, target, rules, options)
                arc = arc_of(firer, target)
                room = min(bearing_count(firer, m.key, options) - per_arc.get(arc, 0),
                           battery_count(firer, m.key, options) - used)  # fmt: skip
                n = min(order.batteries, max(0, room))
                if not reason and n <= 0:
                    reason = "no bearing batteries left in the arc"
                if reason:
                    events.append(FireCancelled(firer.id, m.key, order.target,
                                                order.batteries, reason))  # fmt: skip
                    continue
                per_arc[arc] = per_arc.get(arc, 0) + n
                used += n
                ev, ef = resolve_fire(snap, firer, m.key, target, n, dice, rules, options)
                events.extend(ev)
                effects.extend(ef)
    state.nuke_hexes = list(snap.nuke_hexes)
    return events, effects
