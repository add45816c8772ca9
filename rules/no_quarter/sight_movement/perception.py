"""*5150: No Quarter* queries about what mechs see, reach and command (§12, §13, §16.1, §17).

Pure functions over a :class:`~wargym.rules.no_quarter.battle.state.Battle`; they never write.
"""

from __future__ import annotations

from typing import Any

from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import Body, Sight, in_cover, is_concealed, sight
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.leaders import commands
from wargym.rules.no_quarter.forces.vocab import Side, Status
from wargym.rules.no_quarter.sight_movement.geometry import distance, heading_to, in_arc

Point = tuple[float, float]

IN_SIGHT_CHARGE_RANGE = 6.0
"""An In Sight winner that cannot fire charges an enemy this close (§16.1.4)."""
TWISTS = (0, -90, 90)
"""Torso twists, preferring none (§6.2.1)."""


def _cache(battle: Battle) -> dict[Any, Any]:
    """Per-position cache, dropped by ``Battle.apply`` whenever anything moves or changes."""
    cache = battle.geometry_cache
    if cache is None:
        cache = battle.geometry_cache = {}
    return cache  # type: ignore[no-any-return]


def bodies(battle: Battle) -> list[Body]:
    """Bases of every mech in play, plus wrecks (ruling D22 option)."""
    return list(_bodies(battle))


def _bodies(battle: Battle) -> tuple[Body, ...]:
    """:func:`bodies` as the cached tuple itself (no copy; callers must not keep it)."""
    cache = _cache(battle)
    found: tuple[Body, ...] | None = cache.get("bodies")
    if found is None:
        radius = battle.options.base_radius
        listed = [Body(m.id, m.pos, radius) for m in battle.mechs.values() if m.removed is None]
        listed.extend(Body(-1000 - i, pos, radius) for i, pos in enumerate(battle.wrecks))
        found = cache["bodies"] = tuple(listed)
    return found


def hidden_pair(a: Mech, b: Mech) -> bool:
    """One ducked back into cover from the other: neither sees the other (§15.2.4.1)."""
    return (a.status is Status.DUCK_BACK and b.id in a.hidden_from) or (
        b.status is Status.DUCK_BACK and a.id in b.hidden_from
    )


def line_between(battle: Battle, observer: Mech, target: Mech) -> Sight:
    """LOS from ``observer`` to ``target`` ignoring arcs (§17.1, ruling D11, §15.2.4.1)."""
    cache = _cache(battle)
    key = ("line", observer.id, target.id, observer.pos, target.pos)
    found: Sight | None = cache.get(key)
    if found is None:
        if hidden_pair(observer, target):
            d, bearing = distance(observer.pos, target.pos), heading_to(target.pos, observer.pos)
            found = cache[key] = Sight(False, 0, 0, 0, None, d, bearing)
        else:
            found = cache[key] = _line(battle, observer, target)
    return found


def _line(battle: Battle, observer: Mech, target: Mech) -> Sight:
    return sight(
        battle.battlefield,
        observer.pos,
        target.pos,
        observer_id=observer.id,
        target_id=target.id,
        bodies=_bodies(battle),
        observer_has_ews=observer.has_functioning_ews,
        base_radius=battle.options.base_radius,
    )


def sees(battle: Battle, observer: Mech, target: Mech, *, twist: int | None = None) -> bool:
    """``observer`` has ``target`` in its front arc and in LOS (§16.1.1, ruling D3)."""
    facing = observer.facing if twist is None else (observer.heading + twist) % 360.0
    if not in_arc(observer.pos, facing, target.pos):
        return False
    return line_between(battle, observer, target).visible


def in_cover_from(battle: Battle, shooter: Mech, target: Mech) -> bool:
    """``target`` is in cover against ``shooter`` (§17.2, ruling D12)."""
    line = line_between(battle, shooter, target)
    return in_cover(battle.battlefield, line, target.pos, target_moved=target.moved > 0)


def concealed(battle: Battle, mech: Mech) -> bool:
    """Concealed by woods or rough ground (§17.2)."""
    return is_concealed(battle.battlefield, mech.pos)


def is_fast_moving(rules: NoQuarterRules, mech: Mech) -> bool:
    """Moved ``fast_moving_inches`` (10") or more this turn (§17.4, ruling D7)."""
    return mech.moved >= rules.ranged_combat.fast_moving_inches


def able_to_fire(mech: Mech) -> bool:
    """Not ducked back, leaving, prone or without an operable ranged weapon (ruling D17)."""
    return (
        mech.removed is None
        and mech.status is Status.CARRY_ON
        and not mech.prone
        and bool(mech.operable_ranged_weapons)
    )


def engaged_with(battle: Battle, mech: Mech) -> list[int]:
    """Enemies in base contact: an engaged mech melees instead of moving or firing (D33)."""
    contact = 2 * battle.options.base_radius + 1e-6
    return [
        other.id
        for other in battle.mechs_of(mech.side.other)
        if distance(other.pos, mech.pos) <= contact
    ]


def weapon_can_engage(
    battle: Battle, shooter: Mech, weapon: int, target: Mech, twist: int | None = None
) -> bool:
    """Weapon in range, target in arc with ``twist`` (current if None) and LOS (§17.4)."""
    item = shooter.design.items[weapon]
    if item.range is None or weapon in shooter.inoperable:
        return False
    if distance(shooter.pos, target.pos) > item.range:
        return False
    if item.item.value == "flamer" and shooter.flamer_fired_turn:
        return False
    return sees(battle, shooter, target, twist=twist)


def twists_to_engage(battle: Battle, shooter: Mech, target: Mech) -> list[int]:
    """Torso twists under which some operable weapon can engage ``target`` (§6.2.1)."""
    return [
        twist
        for twist in TWISTS
        if any(
            weapon_can_engage(battle, shooter, w, target, twist)
            for w in shooter.operable_ranged_weapons
        )
    ]


def cause_in_range(battle: Battle, tester: Mech, cause: Mech) -> bool:
    """Fired On "in range": able to fire and some weapon reaches the cause (ruling D17)."""
    if not able_to_fire(tester) or engaged_with(battle, tester):
        return False
    return bool(twists_to_engage(battle, tester, cause))


def linked(
    battle: Battle, a: Mech, b: Mech, inches: float = 8.0, *, requires_los: bool = True
) -> bool:
    """Within ``inches`` with an unobstructed line either way, arcs ignored (§13.2, D3)."""
    if distance(a.pos, b.pos) > inches:
        return False
    if not requires_los:
        return True
    return line_between(battle, a, b).visible or line_between(battle, b, a).visible


def form_groups(battle: Battle, side: Side, rules: NoQuarterRules | None = None) -> list[list[int]]:
    """Groups of ``side``: connected components of cohesion links (§13.2, ruling D30).

    By default links are only followed inside a Team; with ``command_groups=command_radius``
    Teams linked to a higher leader within his command radius join his group (§12.2). Link
    lengths and LOS requirements: ``leaders.yaml`` (``rules``, else the battle's tables).
    """
    rules = rules or load_rules(battle.options.rules)
    table = rules.leaders
    cohesion = (float(table.cohesion_link_inches), table.cohesion_link_requires_los)
    command = (float(table.command_radius_inches), table.command_radius_requires_los)
    mechs = battle.mechs_of(side)
    by_id = {m.id: m for m in mechs}
    unseen = set(by_id)
    groups: list[list[int]] = []
    merge = battle.options.command_groups == "command_radius"
    for mech in mechs:
        if mech.id not in unseen:
            continue
        component, stack = [], [mech.id]
        unseen.discard(mech.id)
        while stack:
            current = by_id[stack.pop()]
            component.append(current.id)
            for other_id in sorted(unseen):
                other = by_id[other_id]
                inches, los = cohesion
                if other.team != current.team:
                    under = commands(rules, current, other) or commands(rules, other, current)
                    if not (merge and under):
                        continue
                    inches, los = command
                if linked(battle, current, other, inches, requires_los=los):
                    unseen.discard(other_id)
                    stack.append(other_id)
        groups.append(sorted(component))
    return groups


def group_leader(battle: Battle, members: list[int]) -> int:
    """Highest-ranking leader, else highest Rep, ties the lowest id (ruling D30)."""

    def key(mech_id: int) -> tuple[int, int, int]:
        mech = battle.mechs[mech_id]
        return (mech.rank.order if mech.rank else -1, mech.rep, -mech.id)

    return max(members, key=key)


def visible_from(
    battle: Battle, mech: Mech, pos: tuple[float, float], facing: float, enemy: Mech
) -> bool:
    """``mech`` placed at ``pos`` sees ``enemy`` or is seen by it (§16.1.1)."""
    # ``mech``'s own base is the observer or the target of both lines, so sight() skips it
    # wherever it stands: the bases of the battle can be passed as they are.
    if hidden_pair(mech, enemy):
        return False
    if pos == mech.pos:  # the lines of the current positions, cached per position
        if in_arc(pos, facing, enemy.pos) and line_between(battle, mech, enemy).visible:
            return True
        return in_arc(enemy.pos, enemy.facing, pos) and line_between(battle, enemy, mech).visible
    found = _bodies(battle)
    radius = battle.options.base_radius
    if (
        in_arc(pos, facing, enemy.pos)
        and sight(
            battle.battlefield,
            pos,
            enemy.pos,
            observer_id=mech.id,
            target_id=enemy.id,
            bodies=found,
            observer_has_ews=mech.has_functioning_ews,
            base_radius=radius,
        ).visible
    ):
        return True
    return (
        in_arc(enemy.pos, enemy.facing, pos)
        and sight(
            battle.battlefield,
            enemy.pos,
            pos,
            observer_id=enemy.id,
            target_id=mech.id,
            bodies=found,
            observer_has_ews=enemy.has_functioning_ews,
            base_radius=radius,
        ).visible
    )


def visible_enemies(
    battle: Battle, mech: Mech, pos: tuple[float, float], facing: float
) -> set[int]:
    """Enemies in sight of ``mech`` at ``pos`` either way (§16.1.1)."""
    return {
        enemy.id
        for enemy in battle.mechs_of(mech.side.other)
        if visible_from(battle, mech, pos, facing, enemy)
    }


def new_sightings(battle: Battle, mech: Mech, fresh: set[int]) -> list[int]:
    """Enemy groups newly in sight and not yet tested this phase; marks them seen (D8)."""
    own = battle.group_of.get(mech.id, mech.id)
    groups: list[int] = []
    for enemy_id in sorted(fresh):
        theirs = battle.group_of.get(enemy_id, enemy_id)
        pair = (own, theirs) if mech.side is Side.BLUE else (theirs, own)
        if pair not in battle.seen_pairs:
            battle.seen_pairs.append(pair)
            groups.append(theirs)
    return groups
