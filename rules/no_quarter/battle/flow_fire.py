"""Firing: weapon assignment and the resolution of one firing (§15.1, §17.3-§17.4, ruling D18).

A *fire* frame serves Active Fire, In Sight fire, reaction fire (Fire / Rush Shot at the
cause) and fire during a Charge into Melee test. Active and In Sight fire assign one weapon
at a time (consecutive decisions); reaction and charge fire use every weapon that reaches
the cause. All weapons are then resolved in order, and every target takes one set of tests.
"""

from __future__ import annotations

from collections.abc import Callable

from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    AssignFire,
    DecisionKind,
    EndFire,
    FireAtBuilding,
)
from wargym.rules.no_quarter.battle.consequences import (
    caused_by,
    critical_hit,
    duck_back,
    queue_tests,
)
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.luck import marksman_pick, offer_lucky
from wargym.rules.no_quarter.battle.ranged_combat import (
    hit_location,
    ranged_damage,
    ranged_rep,
    to_hit,
)
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.buildings import (
    can_fire_at,
    fire_at_building,
    rated_buildings,
)
from wargym.rules.no_quarter.battlefield.terrain import protected_locations
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Attribute, ItemType, Location
from wargym.rules.no_quarter.sight_movement.geometry import distance, in_arc
from wargym.rules.no_quarter.sight_movement.perception import (
    TWISTS,
    able_to_fire,
    engaged_with,
    in_cover_from,
    is_fast_moving,
    line_between,
    weapon_can_engage,
)

Assignment = tuple[int, int]


def fire_frame(
    shooter: int,
    mode: str,
    *,
    targets: list[int] | None = None,
    cause: int | None = None,
    rush: bool = False,
) -> Frame:
    """A new fire frame; ``mode`` is active, in_sight, reaction or charge."""
    return {
        "kind": "fire",
        "shooter": shooter,
        "mode": mode,
        "targets": targets,
        "cause": cause,
        "rush": rush,
        "assigned": [],
        "twist": None,
    }


def _candidates(battle: Battle, frame: Frame) -> list[Mech]:
    shooter = battle.mechs[frame["shooter"]]
    allowed = frame["targets"]
    return [
        enemy
        for enemy in battle.mechs_of(shooter.side.other)
        if allowed is None or enemy.id in allowed
    ]


def _twists(frame: Frame) -> tuple[int, ...]:
    return TWISTS if frame["twist"] is None else (frame["twist"],)


def _engage_table(battle: Battle, frame: Frame) -> Callable[[int], list[int]]:
    """For any weapon, the targets it can engage under some allowed twist, work shared.

    ``weapon_can_engage(weapon, target, twist)`` is (the weapon works and reaches the target)
    and (the target is in the arc of ``twist``) and (the target is in LOS), so "some twist
    works" splits into a per-weapon range test and a per-target arc-and-LOS test.
    """
    shooter = battle.mechs[frame["shooter"]]
    twists = _twists(frame)
    pos = shooter.pos
    seen: list[tuple[int, float]] = []
    for target in _candidates(battle, frame):
        if (
            any(in_arc(pos, (shooter.heading + t) % 360.0, target.pos) for t in twists)
            and line_between(battle, shooter, target).visible
        ):
            seen.append((target.id, distance(pos, target.pos)))

    def engageable(weapon: int) -> list[int]:
        item = shooter.design.items[weapon]
        if item.range is None or weapon in shooter.inoperable:
            return []
        if item.item.value == "flamer" and shooter.flamer_fired_turn:
            return []
        reach = item.range
        return [target for target, gap in seen if not gap > reach]

    return engageable


def fire_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Weapon-to-target assignments allowed now, plus finishing (§17.3, ruling D14)."""
    shooter = battle.mechs[frame["shooter"]]
    used = {entry[0] for entry in frame["assigned"]}
    chosen = [entry[1] for entry in frame["assigned"] if len(entry) == 2]
    options: list[Action] = []
    buildings = rated_buildings(battle) if frame["mode"] == "active" else []
    if able_to_fire(shooter) and not engaged_with(battle, shooter):
        engageable = _engage_table(battle, frame)
        for weapon in shooter.operable_ranged_weapons:
            if weapon in used:
                continue
            reachable = engageable(weapon)
            fresh = [t for t in reachable if t not in chosen]
            spread = battle.options.spread_fire_rule == "per_shooter"
            allowed = fresh if (spread and fresh) else reachable
            options.extend(AssignFire(shooter.id, weapon, t) for t in allowed)
            options.extend(
                FireAtBuilding(shooter.id, weapon, f)
                for f in buildings
                if any(can_fire_at(battle, shooter, weapon, f, t) for t in _twists(frame))
            )
    # In Sight fire is mandatory (§16.1.4, ruling D32): every weapon that can reach one of the
    # In Sight enemies fires; the controller picks targets and twist, and holds only the rest
    # so is the fire of a target split among several chargers (§18.2.1 step 5)
    mandatory = frame["mode"] in ("in_sight", "charge")
    if not mandatory or not any(isinstance(o, AssignFire) for o in options):
        options.append(EndFire(shooter.id))
    return options


def fire_step(ctx: Ctx, frame: Frame) -> None:
    """Assign weapons (automatically for reaction and charge fire), then resolve."""
    battle = ctx.battle
    shooter = battle.mechs[frame["shooter"]]
    automatic = frame["mode"] == "reaction" or (
        frame["mode"] == "charge" and frame["cause"] is not None
    )
    if automatic and not frame["assigned"]:  # a split among several chargers asks (§18.2.1)
        cause = battle.mechs[frame["cause"]]
        for twist in TWISTS:  # twist the torso if needed (§15.2.4.3)
            weapons = [
                w
                for w in shooter.operable_ranged_weapons
                if weapon_can_engage(battle, shooter, w, cause, twist)
            ]
            if weapons and able_to_fire(shooter):
                _set_twist(ctx, shooter, twist, frame)
                frame["assigned"] = [[w, cause.id] for w in weapons]
                break
        resolve_firing(ctx, frame)
        return
    options = fire_options(battle, ctx.rules, frame)
    if len(options) == 1 and isinstance(options[0], EndFire):
        resolve_firing(ctx, frame)
    elif len(options) == 1:
        fire_act(ctx, frame, options[0])  # mandatory In Sight fire with one way to do it
    else:
        ctx.ask(shooter.side, DecisionKind.ASSIGN_FIRE, shooter.id)
        # nothing changes before the options are asked for: keep them (see game.legal_actions)
        battle.options_cache = (battle.decision, tuple(options))


def fire_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Record one assignment, or resolve the firing on EndFire."""
    if isinstance(action, EndFire):
        resolve_firing(ctx, frame)
        return
    if isinstance(action, FireAtBuilding):
        shooter = ctx.battle.mechs[action.mech]
        if frame["twist"] is None:
            twist = next(
                t
                for t in TWISTS
                if can_fire_at(ctx.battle, shooter, action.weapon, action.feature, t)
            )
            _set_twist(ctx, shooter, twist, frame)
        frame["assigned"].append([action.weapon, action.feature, "building"])
        return
    assert isinstance(action, AssignFire)
    battle = ctx.battle
    shooter, target = battle.mechs[action.mech], battle.mechs[action.target]
    if frame["twist"] is None:
        twist = next(
            t for t in TWISTS if weapon_can_engage(battle, shooter, action.weapon, target, t)
        )
        _set_twist(ctx, shooter, twist, frame)
    frame["assigned"].append([action.weapon, action.target])


def _set_twist(ctx: Ctx, shooter: Mech, twist: int, frame: Frame) -> None:
    frame["twist"] = twist
    if shooter.twist != twist:
        ctx.emit(ev.MechFaced(shooter.id, shooter.heading, twist))


def resolve_firing(ctx: Ctx, frame: Frame) -> None:
    """Resolve every assigned weapon, then queue one set of tests per target (ruling D18)."""
    battle = ctx.battle
    shooter = battle.mechs[frame["shooter"]]
    ctx.pop(frame)
    weapons = tuple(int(entry[0]) for entry in frame["assigned"])
    firing = bool(weapons) and shooter.removed is None  # else nothing fires: no bracket
    twist = shooter.twist if frame["twist"] is None else int(frame["twist"])
    if firing:
        ctx.emit(ev.FiringStarted(shooter.id, frame["mode"], frame["cause"], twist, weapons))
    shots_before = len(ctx.log)
    ctx.collecting = []
    if frame["mode"] == "active" or (
        frame["mode"] == "in_sight" and shooter.side is battle.active_side
    ):
        shooter.fired_this_activation = True  # the active side's In Sight fire (ruling D6)
    tests: dict[int, set[str]] = {}
    order: list[int] = []
    for entry in frame["assigned"]:
        weapon, target_id = entry[0], entry[1]
        if len(entry) == 3:  # a building (§19.4.2)
            key = -1 - target_id
            if key not in order:
                order.append(key)
            if battle.building_armor_of(target_id) > 0 and shooter.removed is None:
                fire_at_building(ctx, shooter, weapon, target_id, order.index(key) + 1)
            continue
        target = battle.mechs[target_id]
        if target.removed is not None or shooter.removed is not None:
            continue
        if target_id not in order:
            order.append(target_id)
        _resolve_weapon(ctx, frame, shooter, weapon, target, order.index(target_id) + 1, tests)
    collected, ctx.collecting = ctx.collecting, None
    shots = sum(isinstance(e, ev.ShotFired) for e in ctx.log[shots_before:])
    if firing:
        ctx.emit(ev.FiringEnded(shooter.id, frame["mode"], shots))
    caused_by(collected, [shooter.id])  # Mech Down cover is judged against the shooter
    if frame["mode"] == "charge":  # no reaction tests, Mech Down included (§16.2, §18.2.1)
        queue_tests(ctx, [e for e in collected if e["test"] != "mech_down"])
        return
    entries = [
        {"mech": t, "test": test, "causes": [shooter.id]}
        for t, names in tests.items()
        for test in ("fired_on", "takes_damage")
        if test in names and battle.mechs[t].removed is None
    ]
    queue_tests(ctx, entries + collected)


def _rush(frame: Frame, target: Mech) -> bool:
    """A Rush Shot: the whole firing's, or at a charger the target tied with (§18.2.1)."""
    return bool(frame["rush"]) or target.id in frame.get("rush_at", ())


def _resolve_weapon(
    ctx: Ctx,
    frame: Frame,
    shooter: Mech,
    weapon: int,
    target: Mech,
    index: int,
    tests: dict[int, set[str]],
) -> None:
    """One Ranged Combat roll and, on a hit, each shot's location and damage (§17.4)."""
    battle, rules = ctx.battle, ctx.rules
    item = shooter.design.items[weapon]
    attributes = shooter.pilot.attributes
    line = line_between(battle, shooter, target)
    cover = in_cover_from(battle, shooter, target)
    (face,) = ctx.dice.roll(1)
    rep = ranged_rep(shooter.rep, attributes)
    crack = Attribute.CRACK_SHOT in attributes

    def hits(face: int) -> bool:
        return to_hit(
            rules,
            rep + face,
            shooter_fast_moving=is_fast_moving(rules, shooter),
            rush_shot=_rush(frame, target),
            target_in_cover=cover,
            target_prone=target.prone,
            target_fast_moving=is_fast_moving(rules, target),
            target_index=index,
            crack_shot=crack,
        )

    hit, rerolled = hits(face), tuple[int, ...]()
    if not hit:  # Lucky may re-roll a miss (D26)
        unused = not shooter.lucky_used
        (new,) = offer_lucky(ctx, shooter, "to_hit", (face,), True, target.id)
        if unused and shooter.lucky_used:
            rerolled, face, hit = (face,), new, hits(new)
    ctx.emit(
        ev.ShotFired(
            shooter.id,
            weapon,
            target.id,
            face,
            rep,
            rep + face,
            index,
            _rush(frame, target),
            is_fast_moving(rules, shooter),
            is_fast_moving(rules, target),
            cover,
            target.prone,
            hit,
            rerolled,
        )
    )
    if item.item is ItemType.FLAMER:
        ctx.emit(ev.FlameLaid(shooter.id, shooter.pos, target.pos))
    if not hit:
        tests.setdefault(target.id, set()).add("fired_on")
        return
    protected = protected_locations(battle.battlefield, line, target.pos, target.heading)
    for _shot in range(item.target):
        if target.removed is not None:
            return
        blocked = frozenset(protected) | frozenset(target.lost_limbs)  # ruling D19
        faces = _location_roll(ctx, shooter, target, blocked)
        location = hit_location(rules, (faces[0], faces[1]))
        alternatives: tuple[Location, ...] = ()
        if Attribute.MARKSMAN in attributes:  # roll twice, the shooter keeps one (§9.6.4)
            second = _location_roll(ctx, shooter, target, blocked)
            other = hit_location(rules, (second[0], second[1]))
            alternatives = (location, other)
            faces = faces + second
            location = marksman_pick(ctx, shooter, target, location, other, blocked)
        shielded = location in blocked
        ctx.emit(ev.HitLocated(target.id, faces, location, shielded, alternatives))
        if shielded:
            tests.setdefault(target.id, set()).add("fired_on")
            continue
        dmg_faces = ctx.dice.roll(2)
        before = target.armor_at(location)
        outcome = ranged_damage(rules, (dmg_faces[0], dmg_faces[1]), item.impact, before)
        if outcome.passed < 2:  # Lucky may re-roll a damage roll short of pass 2 (D26)
            rolled = offer_lucky(ctx, shooter, "damage", dmg_faces, True, target.id)
            if rolled != dmg_faces:
                dmg_faces = rolled
                outcome = ranged_damage(rules, (rolled[0], rolled[1]), item.impact, before)
        ctx.emit(
            ev.DamageRolled(
                target.id,
                location,
                (dmg_faces[0], dmg_faces[1]),
                item.impact,
                outcome.passed,
                before,
                outcome.armor_after,
                outcome.critical,
                False,
                outcome.armor_loss,
            )
        )
        if outcome.armor_loss > 0:
            tests.setdefault(target.id, set()).add("takes_damage")
        if outcome.critical:
            critical_hit(ctx, target, location)
        if outcome.duck_back and target.removed is None:
            duck_back(ctx, target, shooter, "ranged damage pass 0")  # no test (§17.4.2)


def _location_roll(
    ctx: Ctx, shooter: Mech, target: Mech, blocked: frozenset[Location]
) -> tuple[int, ...]:
    """One 2d6 Hit Location roll of ``shooter``'s shot; Lucky may re-roll it (D26)."""
    faces = ctx.dice.roll(2)
    shielded = hit_location(ctx.rules, (faces[0], faces[1])) in blocked
    return offer_lucky(ctx, shooter, "hit_location", faces, True, target.id, shielded_hit=shielded)


FIRE = FunctionHandler(fire_step, fire_options, fire_act)
