"""The fire step of an impulse: shots, missile launches and arrivals, acid gum (PW-R2 step 4).

Order (PW-R2): launches, then direct fire by ascending firer id and SSD weapon order, then
arriving missiles in launch order, then acid gum continuations. Each shot rolls, then its
damage is applied before the next shot rolls, so the dice are drawn in a fixed order.
The whole step is decided from the state at its start (PW-R2): :class:`FireStep` keeps every
ship's screen strength per row and its Point Defense boxes as they stood then, so damage done
earlier in the step changes only which chart boxes are left, never a later hit's screens or
the interceptions of arriving missiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.hexgrid import Hex, distance
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import ActionKind
from wargym.rules.pentagon_war.damage import apply_hit
from wargym.rules.pentagon_war.events import (
    MagneticDeflection,
    MissileArrived,
    MissileLaunched,
    MissileLost,
    ShipDestroyed,
    ShotFired,
)
from wargym.rules.pentagon_war.records import Category, RuleSet
from wargym.rules.pentagon_war.state import AcidGum, BattleState, DecisionKind, Missile, Order
from wargym.rules.pentagon_war.weapons import (
    armor_row_struck,
    missile_flight_impulses,
    resolve_shot,
)


@dataclass(frozen=True, slots=True)
class FireStep:
    """Screens per row and Point Defense boxes of every ship at the start of the fire step."""

    screens: dict[int, tuple[int, ...]]
    point_defense: dict[int, int]


def fire_step(state: BattleState, rules: RuleSet) -> FireStep:
    """Take the PW-R2 snapshot of screens and point defence before any shot is resolved."""
    screens: dict[int, tuple[int, ...]] = {}
    pd: dict[int, int] = {}
    for ship in state.ships:
        if not ship.alive:
            continue
        design = state.design_of(ship)
        rows = range(1, len(ship.armor) + 1)
        screens[ship.id] = tuple(power.screen_strength(ship, design, rules, r) for r in rows)
        pd[ship.id] = power.intact_in(ship, design, Category.POINT_DEFENSE)
    return FireStep(screens, pd)


def pay(state: BattleState, rules: RuleSet, order: Order) -> int:
    """Pay a declared shot or rail launch at the start of the fire step (PW-R2, R11).

    Every declared order is paid before any damage is applied, so a capacitor box lost to an
    earlier shot of the same impulse only drains unspent charge (project ruling).
    """
    ship = state.ships[order.slot.ship]
    if order.slot.kind is DecisionKind.LAUNCH:
        if order.action_kind == ActionKind.RAIL_LAUNCH.value:
            return power.spend(ship, rules, "rail_launch_missile")
        return 0
    weapon = state.design_of(ship).weapons[order.slot.index]
    line = rules.weapon_types[weapon.weapon or ""].capacitor_line
    return power.spend(ship, rules, line) if line else 0


def launch(state: BattleState, rules: RuleSet, order: Order, charges: int) -> list[Event]:
    """Launch one missile; flight time by range, rail launch faster for a charge (PW-R15)."""
    ship = state.ships[order.slot.ship]
    target = state.ships[order.value]
    rail = order.action_kind == ActionKind.RAIL_LAUNCH.value
    rng = distance(ship.hex, target.hex)
    speed = rules.systems.missile_rail_speed if rail else rules.systems.missile_speed
    arrive = state.global_impulse + missile_flight_impulses(rng, speed)
    missile = Missile(state.next_missile, ship.id, target.id, ship.hex.as_tuple(), arrive)
    state.next_missile += 1
    state.missiles.append(missile)
    ship.launched += 1
    if ship.missiles_left is not None:
        ship.missiles_left -= 1
    return [MissileLaunched(missile.id, ship.id, target.id, rail, rng, arrive, charges)]


def fire(
    state: BattleState,
    rules: RuleSet,
    order: Order,
    dice: Dice,
    charges: int,
    step: FireStep | None = None,
) -> list[Event]:
    """Resolve one declared shot and apply its damage (§2.1-2.7, PW-R8, R9, R16, R17)."""
    step = step or fire_step(state, rules)
    ship = state.ships[order.slot.ship]
    design = state.design_of(ship)
    weapon = design.weapons[order.slot.index]
    target = state.ships[order.value]
    tdesign = state.design_of(target)
    spec = rules.weapon_types[weapon.weapon or ""]
    ship.fired.append(weapon.name)
    rng = distance(ship.hex, target.hex)
    ecm = rules.systems.ecm_penalty if target.ecm and not ship.eccm else 0
    shot = resolve_shot(rules, spec.name, dice, tdesign.size_class, rng, ecm)
    events: list[Event] = [
        ShotFired(
            ship.id,
            weapon.name,
            spec.name,
            target.id,
            rng,
            shot.faces,
            shot.size_class,
            shot.penalty,
            ecm,
            shot.modified_roll,
            shot.hit,
            shot.damage,
            shot.kill,
            charges,
            spec.capacitor_line,
        )
    ]
    if not target.alive:
        return events
    if shot.kill:
        target.destroyed = True
        return [*events, ShipDestroyed(target.id, "killed")]
    if not shot.hit or shot.damage <= 0:
        return events
    if spec.deflectable_by_magnetic_beam and target.mag_beam > 0:
        needed = (
            rules.systems.mag_double_deflect if target.mag_beam >= 2 else rules.systems.mag_deflect
        )
        faces = dice.roll(2)
        deflected = sum(faces) >= needed
        events.append(MagneticDeflection(target.id, faces, needed, deflected))
        if deflected:
            return events
    row = armor_row_struck(rules, target.hex, target.facing, ship.hex, target.armor)
    if shot.packets:
        first_due = state.global_impulse + (
            0 if state.options.acid_gum_start == "hit_impulse" else 1
        )
        for n, packet in enumerate(shot.packets):
            state.acid.append(
                AcidGum(
                    ship.id, target.id, row, packet, first_due + n, n + 1, n < spec.screened_packets
                )
            )
        return events
    screens = step.screens.get(target.id)
    events += apply_hit(
        state, target.id, weapon.name, row, shot.damage, rules, dice, state.options, True, screens
    )
    return events


def missiles_arrive(
    state: BattleState, rules: RuleSet, dice: Dice, step: FireStep | None = None
) -> list[Event]:
    """Missiles due this impulse: point defence, then 6 damage each (PW-R15).

    Point defence engages with the boxes intact at the start of the fire step (PW-R2).
    """
    step = step or fire_step(state, rules)
    events: list[Event] = []
    due = [m for m in state.missiles if m.arrive == state.global_impulse]
    state.missiles = [m for m in state.missiles if m.arrive != state.global_impulse]
    pd_left: dict[int, int] = {}
    for missile in due:
        target = state.ships[missile.target]
        if not target.alive:
            events.append(MissileLost(missile.id, target.id))
            continue
        if target.id not in pd_left:
            pd_left[target.id] = step.point_defense.get(target.id, 0)
        faces: tuple[int, ...] = ()
        intercepted = False
        if pd_left[target.id] > 0:
            pd_left[target.id] -= 1
            faces = dice.roll(2)
            intercepted = sum(faces) >= rules.systems.point_defense_kill
        events.append(MissileArrived(missile.id, target.id, faces, intercepted))
        if intercepted:
            continue
        origin = Hex(*missile.launched_from)
        row = armor_row_struck(rules, target.hex, target.facing, origin, target.armor)
        events += apply_hit(
            state,
            target.id,
            "missile",
            row,
            rules.systems.missile_damage,
            rules,
            dice,
            state.options,
            True,
            step.screens.get(target.id),
        )
    return events


def acid_gum_packets(
    state: BattleState, rules: RuleSet, dice: Dice, step: FireStep | None = None
) -> list[Event]:
    """Acid gum packets due this impulse, on the row of the first hit (§2.5, PW-R9)."""
    step = step or fire_step(state, rules)
    events: list[Event] = []
    due = [a for a in state.acid if a.due == state.global_impulse]
    state.acid = [a for a in state.acid if a.due > state.global_impulse]
    for packet in due:
        if not state.ships[packet.target].alive:
            continue
        events += apply_hit(
            state,
            packet.target,
            f"acid_gum_packet_{packet.packet}",
            packet.row,
            packet.damage,
            rules,
            dice,
            state.options,
            screened=packet.screened,
            screens=step.screens.get(packet.target),
        )
    return events
