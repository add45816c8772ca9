"""What results do to a mech: Duck Back, Leave the Battlefield, removal, criticals (§15-§17).

These carry out a result immediately (§16.2.1 step 5) through events, and queue the
reaction tests the result causes (Mech Down, §16.2) on the nearest reaction frame.
"""

from __future__ import annotations

from wargym.rules.dice import Dice, passed_dice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, insight_frame, nearest_frame, roll_index
from wargym.rules.no_quarter.battle.luck import offer_lucky
from wargym.rules.no_quarter.battle.ranged_combat import (
    CriticalKind,
    chest_explosion,
    critical_kind,
    halved_speed,
    hit_location,
    pilot_test_rep,
    ranged_damage,
)
from wargym.rules.no_quarter.battle.reaction import duck_back_becomes
from wargym.rules.no_quarter.battle.state import Mech
from wargym.rules.no_quarter.battlefield.terrain import (
    flame_area_hits,
    nearest_edge_away,
)
from wargym.rules.no_quarter.forces.leaders import successor
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    ItemType,
    Location,
    Rank,
    ReactionResult,
    Removal,
    Status,
)
from wargym.rules.no_quarter.sight_movement.flames import flames_at
from wargym.rules.no_quarter.sight_movement.geometry import distance, heading_to
from wargym.rules.no_quarter.sight_movement.movement_geometry import duck_back_move, leave_move_to
from wargym.rules.no_quarter.sight_movement.perception import (
    bodies,
    concealed,
    in_cover_from,
    line_between,
    new_sightings,
    visible_enemies,
)

DUCK_BACK_MAX = 6.0
"""Duck Back moves at most min(6", current Speed) (§15.2.4.1)."""


def queue_tests(ctx: Ctx, entries: list[Frame]) -> None:
    """Queue reaction tests: deferred on an In Sight being resolved, else a new react frame."""
    if not entries:
        return
    top = ctx.battle.frames[-1] if ctx.battle.frames else None
    insight = nearest_frame(ctx.battle, "insight")
    if ctx.collecting is not None:
        ctx.collecting.extend(entries)  # a firing or blow being resolved gathers them
    elif insight is not None and insight.get("stage") == "act":
        insight.setdefault("deferred", []).extend(entries)  # after all winners acted (§16.1.6)
    elif top is not None and top["kind"] == "react":
        top["entries"].extend(entries)
    else:
        ctx.push({"kind": "react", "entries": list(entries)})


def cross_flames(
    ctx: Ctx, mech: Mech, path: list[tuple[float, float]], *, goes_on: bool = False
) -> None:
    """Each flame area a move enters: hit location, then 2d6 vs the flamer's Impact (D27).

    ``goes_on``: the path continues a move paused by an In Sight; the flame areas it starts
    in were entered (and rolled for) before the pause, once per move.
    """
    if not ctx.battle.flames or mech.removed is not None:
        return
    impact = ctx.rules.item_profile(ItemType.FLAMER).impact or 0
    radius = ctx.battle.options.base_radius
    crossed = flame_area_hits(path, ctx.battle.flames, base_radius=radius)
    if goes_on:
        started_in = set(flames_at(path[0], ctx.battle.flames, base_radius=radius))
        crossed = [k for k in crossed if k not in started_in]
    for flame in crossed:
        if mech.removed is not None:
            return
        ctx.emit(ev.FlameCrossed(mech.id, flame))
        faces = ctx.dice.roll(2)
        location = hit_location(ctx.rules, (faces[0], faces[1]))
        ctx.emit(ev.HitLocated(mech.id, faces, location, False))
        if location in mech.lost_limbs:
            continue
        dmg = ctx.dice.roll(2)
        before = mech.armor_at(location)
        outcome = ranged_damage(ctx.rules, (dmg[0], dmg[1]), impact, before)
        ctx.emit(
            ev.DamageRolled(
                mech.id,
                location,
                (dmg[0], dmg[1]),
                impact,
                outcome.passed,
                before,
                outcome.armor_after,
                outcome.critical,
                False,
                outcome.armor_loss,
            )
        )
        if outcome.critical:
            critical_hit(ctx, mech, location)
        if outcome.armor_loss > 0 and mech.removed is None:
            queue_tests(ctx, [{"mech": mech.id, "test": "takes_damage", "causes": []}])


def involuntary_in_sight(ctx: Ctx, mech: Mech, seen_before: set[int]) -> None:
    """An involuntary move that brings new enemy groups into sight starts an In Sight (D8)."""
    if mech.removed is not None:
        return
    now = visible_enemies(ctx.battle, mech, mech.pos, mech.facing)
    groups = new_sightings(ctx.battle, mech, now - seen_before)
    if groups:
        ctx.push(insight_frame(mech.id, mech.side, groups))


def ignores_duck_back(ctx: Ctx, mech: Mech) -> bool:
    """Nerves of Steel: every Duck Back, of any source, is Carry On (§9.6.4 ruling)."""
    return duck_back_becomes(ctx.rules, mech.pilot.attributes) is ReactionResult.CARRY_ON


def duck_back(ctx: Ctx, mech: Mech, cause: Mech | None, reason: str) -> None:
    """Duck Back: nearest cover vs the cause within min(6", Speed), face away (§15.2.4.1, D9)."""
    if mech.removed is not None or mech.prone or mech.status is Status.LEAVE_BATTLEFIELD:
        return  # a prone mech ignores Duck Back (D25); Leave is permanent (§16.3.3)
    if ignores_duck_back(ctx, mech):
        return  # it carries on (§9.6.4)
    ctx.emit(ev.StatusChanged(mech.id, Status.DUCK_BACK, reason))
    if cause is None:
        return
    if mech.speed <= 0:
        _ducked_back(ctx, mech, cause)  # it stays where it is: cover there counts
        return
    others = [b for b in bodies(ctx.battle) if b.id != mech.id]
    target, jumped = duck_back_move(
        ctx.battle.battlefield,
        mech.pos,
        cause.pos,
        max_dist=min(DUCK_BACK_MAX, float(mech.speed)),
        speed=float(mech.speed),
        mover_id=mech.id,
        cause_id=cause.id,
        bodies=others,
        radius=ctx.battle.options.base_radius,
        jump_jets=mech.has_jump_jets,  # it may jump over what is in the way (§10.6.1, D28)
    )
    away = heading_to(cause.pos, mech.pos)  # even after a jump: away from the cause (D9)
    inches = distance(mech.pos, target)
    seen = visible_enemies(ctx.battle, mech, mech.pos, mech.facing)
    start = mech.pos
    path = (mech.pos, target)
    ctx.emit(ev.MechMoved(mech.id, path, away, inches, inches, "duck_back", jumped))
    cross_flames(ctx, mech, [start, target])
    _ducked_back(ctx, mech, cause)
    involuntary_in_sight(ctx, mech, seen)


def _ducked_back(ctx: Ctx, mech: Mech, cause: Mech) -> None:
    """In cover from the cause (D9: out of LOS, in cover or concealed): hidden (§15.2.4.1)."""
    if mech.removed is not None or cause.removed is not None:
        return
    battle = ctx.battle
    covered = (
        not line_between(battle, cause, mech).visible
        or in_cover_from(battle, cause, mech)
        or concealed(battle, mech)
    )
    ctx.emit(ev.DuckedBack(mech.id, cause.id, covered))


def caused_by(entries: list[Frame], enemies: list[int]) -> list[Frame]:
    """Mark the Mech Down tests among ``entries`` with the enemies that caused the loss."""
    for entry in entries:
        if entry["test"] == "mech_down" and not entry.get("enemies"):
            entry["enemies"] = list(enemies)
    return entries


def leave_move(ctx: Ctx, mech: Mech) -> None:
    """Move a Leaving mech its full Speed toward its edge; off the table it is removed (D10)."""
    if mech.removed is not None or mech.prone or mech.speed <= 0:
        return
    enemies = ctx.battle.mechs_of(mech.side.other)
    nearest = min(enemies, key=lambda e: distance(e.pos, mech.pos)).pos if enemies else None
    edge = nearest_edge_away(
        ctx.battle.battlefield, mech.pos, nearest, ctx.battle.home_edges.get(mech.side)
    )
    others = [b for b in bodies(ctx.battle) if b.id != mech.id]
    target, exited, jumped = leave_move_to(
        ctx.battle.battlefield,
        mech.pos,
        edge,
        float(mech.speed),
        mover_id=mech.id,
        bodies=others,
        radius=ctx.battle.options.base_radius,
        jump_jets=mech.has_jump_jets,  # it may jump over what is in the way (§10.6.1, D28)
    )
    inches = distance(mech.pos, target)
    start = mech.pos
    seen = visible_enemies(ctx.battle, mech, mech.pos, mech.facing)
    # a jump lands facing as before (§10.6.1, D28); a walk faces its way
    heading = heading_to(mech.pos, target) if inches and not jumped else mech.heading
    ctx.emit(ev.MechMoved(mech.id, (start, target), heading, inches, inches, "leave", jumped))
    cross_flames(ctx, mech, [start, target])  # flames on the way off the table burn too (D27)
    if exited:
        if mech.removed is None:
            ctx.emit(ev.MechLeftTable(mech.id, edge))
            remove(ctx, mech, Removal.LEFT_TABLE)
        return
    involuntary_in_sight(ctx, mech, seen)


def leave_battlefield(
    ctx: Ctx, mech: Mech, reason: str, enemies: tuple[int, ...] | list[int] = ()
) -> None:
    """Give the Leave the Battlefield result: lost for Mech Down at once, then move (§16.3.3).

    ``enemies`` caused the result; the Mech Down tests it starts judge cover against them.
    """
    if mech.removed is not None or mech.status is Status.LEAVE_BATTLEFIELD:
        return
    ctx.emit(ev.StatusChanged(mech.id, Status.LEAVE_BATTLEFIELD, reason))
    queue_tests(ctx, caused_by(mech_down_entries(ctx, mech), list(enemies)))
    if not mech.prone:  # a prone mech leaves after it stands (ruling D25)
        leave_move(ctx, mech)


def mech_down_entries(ctx: Ctx, downed: Mech) -> list[Frame]:
    """Mech Down tests: friends within 4" and in LOS, of class >= the downed mech's (§16.2).

    Radius and LOS requirement: ``reaction_tests.yaml`` (``mech_down_radius_inches``, ...).

    The caller marks the enemies that caused the loss (:func:`caused_by`), if it knows them.
    """
    entries: list[Frame] = []
    for friend in ctx.battle.mechs_of(downed.side):
        if friend.id == downed.id or friend.mech_class < downed.mech_class:
            continue
        if distance(friend.pos, downed.pos) > ctx.rules.reaction.mech_down_radius_inches:
            continue
        if not ctx.rules.reaction.mech_down_requires_los or (
            line_between(ctx.battle, friend, downed).visible
        ):
            entries.append({"mech": friend.id, "test": "mech_down", "causes": [downed.id]})
    return entries


def remove(ctx: Ctx, mech: Mech, reason: Removal) -> None:
    """Remove a mech from play, queue Mech Down and appoint a successor leader (§12, §16.2)."""
    if mech.removed is not None:
        return
    was_leaving = mech.status is Status.LEAVE_BATTLEFIELD
    entries = [] if was_leaving else mech_down_entries(ctx, mech)
    ctx.emit(ev.MechRemoved(mech.id, reason, mech.side, mech.mech_class))
    queue_tests(ctx, entries)
    if mech.rank is not None:
        _succession(ctx, mech)


def _succession(ctx: Ctx, lost: Mech) -> None:
    """His Team gets a new Team Leader, then his own rank passes on (§12.0, ``leaders.yaml``)."""
    friends = ctx.battle.mechs_of(lost.side)
    ranks = [Rank.TEAM_LEADER]
    if lost.rank is not None and lost.rank is not Rank.TEAM_LEADER:
        ranks.append(lost.rank)
    for rank in ranks:
        heir = successor(ctx.rules, lost, rank, friends)
        if heir is not None:
            ctx.emit(ev.LeaderAppointed(heir.id, rank.value, lost.id))


def pilot_killed(ctx: Ctx, mech: Mech, how: str) -> None:
    """Pilot dead: a Star (or Hard as Nails, once) cheats death instead (§9.2, §9.6.4)."""
    via = None
    if mech.pilot.star:
        via = "star"
    elif Attribute.HARD_AS_NAILS in mech.pilot.attributes and not mech.hard_as_nails_used:
        via = "hard_as_nails"
    if via is not None:
        ctx.emit(ev.CheatedDeath(mech.id, mech.rep - 1, via))
        remove(ctx, mech, Removal.CHEATED_DEATH)
    else:
        remove(ctx, mech, Removal.DESTROYED)


def pilot_test(ctx: Ctx, mech: Mech) -> None:
    """Pilot Test: 1d6 vs Rep; failing knocks the mech down and costs 1 Rep (§17.4.3.1)."""
    rep = pilot_test_rep(mech.rep, mech.pilot.attributes)
    faces = ctx.dice.roll(1)
    rerolled: tuple[int, ...] = ()
    if passed_dice(faces, rep) == 0 and _may_use_lucky(ctx, mech):
        rerolled, faces = faces, ctx.dice.roll(1)
        ctx.emit(ev.LuckyReroll(mech.id, "pilot_test", rerolled, faces))
    elif passed_dice(faces, rep) == 0:  # lucky="choose": the pilot's side may re-roll (D26)
        unused = not mech.lucky_used
        new = offer_lucky(ctx, mech, "pilot_test", faces, True)
        rerolled, faces = (faces, new) if unused and mech.lucky_used else ((), faces)
    passed = passed_dice(faces, rep) > 0
    resilient = (
        not passed and Attribute.RESILIENT in mech.pilot.attributes and not mech.resilient_used
    )
    rep_after = mech.rep if passed or resilient else mech.rep - 1
    ctx.emit(
        ev.PilotTested(mech.id, faces[0], rep, passed, not passed, rep_after, resilient, rerolled)
    )


def _may_use_lucky(ctx: Ctx, mech: Mech) -> bool:
    return (
        ctx.battle.options.lucky == "auto"
        and Attribute.LUCKY in mech.pilot.attributes
        and not mech.lucky_used
    )


def may_use_lucky(ctx: Ctx, mech: Mech) -> bool:
    """Lucky (auto policy): one re-roll per mission of a failed key roll (ruling D26)."""
    return _may_use_lucky(ctx, mech)


def critical_hit(ctx: Ctx, mech: Mech, location: Location) -> None:
    """Resolve a critical hit at ``location`` and apply it immediately (§17.4.3)."""
    armor = mech.armor_at(location)
    kind = critical_kind(ctx.rules, location, armor)
    dice: Dice = ctx.dice
    faces: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()
    pool: list[int] = []
    removal: Removal | None = None
    speed = mech.speed
    if kind is CriticalKind.ARM_BLOWN_OFF:
        lost = tuple(i for i, item in enumerate(mech.design.items) if item.location is location)
    elif kind in (CriticalKind.ARM_WEAPON_LOST, CriticalKind.RANDOM_ITEM_LOST):
        pool = [
            i
            for i, item in enumerate(mech.design.items)
            if i not in mech.inoperable
            and (kind is CriticalKind.RANDOM_ITEM_LOST or item.location is location)
            and (kind is CriticalKind.RANDOM_ITEM_LOST or item.is_weapon)
        ]
        if pool:
            index, faces = roll_index(dice, len(pool))
            lost = (pool[index],)
    elif kind is CriticalKind.CHEST_ROLL:
        faces = dice.roll(1)
        removal = chest_explosion(ctx.rules, faces[0])
    elif kind in (CriticalKind.GUT_INOPERABLE, CriticalKind.LEG_BLOWN_OFF):
        removal = Removal.INOPERABLE
    elif kind is CriticalKind.HEAD_BLOWN_OFF:
        removal = Removal.DESTROYED
    elif kind is CriticalKind.LEG_SPEED_HALVED:
        speed = halved_speed(mech.speed)
    ctx.emit(
        ev.CriticalHit(
            mech.id,
            location,
            kind.value,
            faces,
            lost[0] if lost else None,
            lost,
            speed,
            removal,
            armor,
            tuple(pool),
        )
    )
    if removal is Removal.DESTROYED:
        pilot_killed(ctx, mech, kind.value)
    elif removal is not None:
        remove(ctx, mech, removal)
    elif kind is CriticalKind.PILOT_TEST_HEAD or (
        kind is CriticalKind.LEG_SPEED_HALVED and mech.speed > 0
    ):
        pilot_test(ctx, mech)
