"""Damaging buildings by fire and in melee (§19.4.2 with the digest's ruling).

A building is a single location with the armour of its construction type. Shooting at it
uses the Ranged Combat table as against a stationary target, not in cover, not fast-moving;
every hit rolls 2d6 against the weapon's Impact (pass 2: Impact, pass 1: 1, pass 0: nothing),
with no hit location and no critical. A mech in base contact may punch or kick it: the
building scores no successes; with at least one success the mech rolls 2d6 against its
successes (pass 2: the limb's damage, pass 1: 1). At 0 armour the building becomes rubble
(rough ground). The non-player side never targets buildings.
"""

from __future__ import annotations

from wargym.rules.dice import passed_dice, successes
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.melee import limb_damage, melee_dice
from wargym.rules.no_quarter.battle.ranged_combat import ranged_rep, to_hit
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import sight
from wargym.rules.no_quarter.forces.vocab import ItemType, Location, MeleeAttack, Status, Terrain
from wargym.rules.no_quarter.sight_movement.geometry import distance, in_arc, point_rect_distance
from wargym.rules.no_quarter.sight_movement.perception import bodies

CONTACT_SLACK = 0.05
"""A base within this many inches of a wall is in contact with the building."""
AIM_OFFSET = 0.05
"""Shots aim just outside the wall nearest the shooter."""


def rated_buildings(battle: Battle) -> list[int]:
    """Indices of buildings that still have armour (§19.4.2)."""
    return [
        i
        for i, feature in enumerate(battle.battlefield.features)
        if feature.kind is Terrain.BUILDING and battle.building_armor_of(i) > 0
    ]


def aim_point(battle: Battle, feature: int, shooter: tuple[float, float]) -> tuple[float, float]:
    """The point just outside the wall of ``feature`` nearest to ``shooter``."""
    f = battle.battlefield.features[feature]
    px = min(max(shooter[0], f.x0), f.x1)
    py = min(max(shooter[1], f.y0), f.y1)
    gap = distance((px, py), shooter)
    if gap == 0:
        return (px, py)
    return (px + AIM_OFFSET * (shooter[0] - px) / gap, py + AIM_OFFSET * (shooter[1] - py) / gap)


def can_fire_at(battle: Battle, shooter: Mech, weapon: int, feature: int, twist: int) -> bool:
    """Weapon in range of the wall, the wall in arc under ``twist`` and in LOS (§17.4)."""
    item = shooter.design.items[weapon]
    if item.range is None or weapon in shooter.inoperable:
        return False
    if item.item is ItemType.FLAMER and shooter.flamer_fired_turn:
        return False
    target = aim_point(battle, feature, shooter.pos)
    if distance(shooter.pos, target) > item.range:
        return False
    if not in_arc(shooter.pos, (shooter.heading + twist) % 360.0, target):
        return False
    others = [b for b in bodies(battle) if b.id != shooter.id]
    return sight(
        battle.battlefield,
        shooter.pos,
        target,
        observer_id=shooter.id,
        bodies=others,
        observer_has_ews=shooter.has_functioning_ews,
        base_radius=battle.options.base_radius,
    ).visible


def in_contact(battle: Battle, mech: Mech, feature: int) -> bool:
    """The mech's base touches the building (§19.4.2 ruling)."""
    f = battle.battlefield.features[feature]
    reach = battle.options.base_radius + CONTACT_SLACK
    return point_rect_distance(mech.pos, f.x0, f.y0, f.x1, f.y1) <= reach


def _damage(
    ctx: Ctx,
    feature: int,
    attacker: int,
    faces: tuple[int, ...],
    versus: int,
    passed: int,
    loss: int,
    melee: bool,
    damage_faces: tuple[int, ...] = (),
    strike: tuple[tuple[int, ...], Location, MeleeAttack, int] | None = None,
) -> None:
    """Log the damage; ``strike``: a melee attack's dice, limb, attack and weapon value."""
    before = ctx.battle.building_armor_of(feature)
    after = max(0, before - loss)  # stored clamped at 0, as a mech location's (§17.4.2)
    melee_faces, limb, attack, wv = strike if strike is not None else ((), None, None, 0)
    ctx.emit(
        ev.BuildingDamaged(
            feature,
            attacker,
            faces,
            versus,
            passed,
            before,
            after,
            melee,
            melee_faces=melee_faces,
            damage_faces=damage_faces,
            limb=limb,
            attack=attack,
            weapon_value=wv,
            damage=loss,
        )
    )
    if after <= 0:
        ctx.emit(ev.BuildingDestroyed(feature))


def fire_at_building(ctx: Ctx, shooter: Mech, weapon: int, feature: int, index: int) -> None:
    """One weapon's roll against a building and, on a hit, each shot's damage (§19.4.2)."""
    item = shooter.design.items[weapon]
    rep = ranged_rep(shooter.rep, shooter.pilot.attributes)
    (face,) = ctx.dice.roll(1)
    hit = to_hit(
        ctx.rules,
        rep + face,
        target_index=index,
        shooter_fast_moving=shooter.moved >= 10.0,
        crack_shot=any(a.value == "crack_shot" for a in shooter.pilot.attributes),
    )
    ctx.emit(
        ev.ShotFired(
            shooter.id,
            weapon,
            -1 - feature,
            face,
            rep,
            rep + face,
            index,
            False,
            shooter.moved >= 10.0,
            False,
            False,
            False,
            hit,
        )
    )
    if item.item is ItemType.FLAMER:
        ctx.emit(ev.FlameLaid(shooter.id, shooter.pos, aim_point(ctx.battle, feature, shooter.pos)))
    if not hit:
        return
    for _shot in range(item.target):
        if ctx.battle.building_armor_of(feature) <= 0:
            return
        faces = ctx.dice.roll(2)
        passed = passed_dice(faces, item.impact)
        loss = item.impact if passed == 2 else passed
        _damage(
            ctx, feature, shooter.id, faces, item.impact, passed, loss, False, damage_faces=faces
        )


def strike_building(
    ctx: Ctx, mech: Mech, feature: int, attack: MeleeAttack, limb: Location
) -> None:
    """Punch or kick a building; it scores no successes (§19.4.2 ruling, §18.3)."""
    weapon = 0
    if attack is MeleeAttack.PUNCH:
        weapon = max(
            (
                it.wv
                for i, it in enumerate(mech.design.items)
                if it.item is ItemType.MELEE_WEAPON
                and it.location is limb
                and i not in mech.inoperable
            ),
            default=0,
        )
    n = melee_dice(
        ctx.rules,
        mech.rep,
        race=mech.pilot.race,
        attributes=mech.pilot.attributes,
        melee_weapon=weapon > 0,
        attacking_prone=False,
        jump_attack=False,
        leaving=mech.status is Status.LEAVE_BATTLEFIELD,
    )
    melee_faces = ctx.dice.roll(n)
    wins = successes(melee_faces)
    strike = (melee_faces, limb, attack, weapon)
    if wins <= 0:
        _damage(ctx, feature, mech.id, melee_faces, 0, 0, 0, True, strike=strike)
        return
    faces = ctx.dice.roll(2)
    passed = passed_dice(faces, wins)
    damage = limb_damage(max(0, mech.armor_at(limb)), weapon)
    loss = damage if passed == 2 else passed
    _damage(ctx, feature, mech.id, melee_faces + faces, wins, passed, loss, True, faces, strike)


__all__ = [
    "aim_point",
    "can_fire_at",
    "fire_at_building",
    "in_contact",
    "rated_buildings",
    "strike_building",
]
