"""Charge into Melee and melee combat in play (§18.2-§18.3, ruling D33).

A *charge* frame moves the charger to 3" from its target, takes the Charge into Melee test
(a target charged by several mechs in one In Sight rolls once, §18.2.1), lets the target fire
as the test says (no reaction tests), then moves the charger into contact and starts a
*melee* frame. A melee frame runs rounds (declarations are decisions of each side, the
defender's being a reaction decision) until a winner's damage roll passes at least 1d6.
"""

from __future__ import annotations

import math

from wargym.rules.dice import passed_dice, successes
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Action, DecisionKind, DeclareMelee
from wargym.rules.no_quarter.battle.consequences import (
    caused_by,
    critical_hit,
    queue_tests,
)
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler, nearest_frame
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.luck import lucky_melee, offer_lucky
from wargym.rules.no_quarter.battle.melee import (
    ChargeOutcome,
    charge_outcome,
    charge_target_dice,
    limb_damage,
    melee_damage,
    melee_dice,
    melee_hit_location,
)
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import path_cost, path_problem
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Aspect, ItemType, Location, MeleeAttack, Status
from wargym.rules.no_quarter.sight_movement.geometry import aspect, distance, heading_to
from wargym.rules.no_quarter.sight_movement.perception import bodies, engaged_with, in_cover_from

MAX_TIED_ROUNDS = 50
"""Safety valve: after this many tied rounds in a row the exchange ends without a winner."""


def charge_frame(
    charger: int,
    target: int,
    allowance: float | None = None,
    start: tuple[float, float] | None = None,
) -> Frame:
    """A new charge of ``charger`` at ``target`` (§18.2).

    ``allowance``: movement left; ``start``: where the charger's movement this activation
    began (the aspect counts from there, §6.2, ruling D4).
    """
    frame: Frame = {"kind": "charge", "charger": charger, "target": target, "stage": "declare"}
    if allowance is not None:
        frame["allowance"] = allowance
    if start is not None:
        frame["start"] = [start[0], start[1]]
    return frame


def _move_start(battle: Battle, charger: Mech, frame: Frame) -> tuple[float, float]:
    """Where the charger's movement began: its activation's start if it is moving (D4)."""
    if "start" in frame:
        return (float(frame["start"][0]), float(frame["start"][1]))
    active = nearest_frame(battle, "mech")
    if active is not None and active["mech"] == charger.id and "start" in active:
        return (float(active["start"][0]), float(active["start"][1]))  # an In Sight charge
    return charger.pos


def room_for_attacker(battle: Battle, rules: NoQuarterRules, target: Mech) -> bool:
    """Fewer than ``max_attackers_per_target`` (3) enemies melee or charge ``target`` (§18.3.4).

    The charges of the In Sight being resolved that wait for the other winners count too
    (§18.2.1 step 5).
    """
    insight = nearest_frame(battle, "insight")
    charging = [c for c in (insight or {}).get("charges", []) if c["target"] == target.id]
    taken = len(engaged_with(battle, target)) + len(charging)
    return taken < rules.multiple_melee.max_attackers_per_target


def _several_chargers(battle: Battle) -> Frame | None:
    """The In Sight whose winners' charges wait for each other (§18.2.1 step 5), if any.

    With ``several_chargers="split"`` every charge of an In Sight's winners is staged and
    tested when its winner acts; the target's fire (its weapons split among its chargers) and
    the melees follow once every winner has acted (``flow_charges``).
    """
    if battle.options.several_chargers != "split":
        return None
    insight = nearest_frame(battle, "insight")
    return insight if insight is not None and insight.get("stage") == "act" else None


def charge_stage(
    battle: Battle, rules: NoQuarterRules, charger: Mech, target: Mech, allowance: float
) -> tuple[float, float] | None:
    """The point the charger moves to before the test, or None if out of reach (§18.2, D5).

    The stage distance is read from the rules (``stage_distance_inches``); the point must be
    free, reachable in a straight line and its path's movement cost within ``allowance``.
    """
    gap = float(rules.charge.stage_distance_inches)
    if distance(charger.pos, target.pos) <= gap:
        return charger.pos
    return _free_point(battle, charger, target, gap, allowance)


def melee_frame(attacker: int, defender: int, *, jump_attack: bool = False) -> Frame:
    """A new melee exchange between an attacker and a defender (§18.3)."""
    return {
        "kind": "melee",
        "attacker": attacker,
        "defender": defender,
        "jump": jump_attack,
        "decl": {},
        "stage": "declare",
        "ties": 0,
    }


def charge_step(ctx: Ctx, frame: Frame) -> None:
    """Stage, test, target fire, contact, melee (§18.2.1).

    Both legs are walked like any move (§16.1.2, D27): an enemy group first seen on the way
    pauses the charge for an In Sight (stage ``staging`` or ``closing``); the charger goes on
    afterwards if it still may move (D8) and its goal is still in reach, else it stops there.
    """
    battle = ctx.battle
    charger, target = battle.mechs[frame["charger"]], battle.mechs[frame["target"]]
    if charger.removed is not None or target.removed is not None:
        ctx.pop(frame)
        return
    if frame["stage"] in ("declare", "staging"):
        if frame["stage"] == "staging" and not _goes_on(battle, charger):
            ctx.pop(frame)  # ducked back, leaving, prone or engaged after the In Sight (D8)
            return
        start = _move_start(battle, charger, frame)
        frame.setdefault("start", [start[0], start[1]])
        allowance = float(frame.get("allowance", charger.speed)) - float(frame.get("spent", 0.0))
        stage = charge_stage(battle, ctx.rules, charger, target, allowance)
        if stage is None and frame["stage"] == "staging":
            ctx.pop(frame)  # the In Sight put the 3" point out of reach: the charge ends here
            return
        stage = stage or charger.pos
        if stage != charger.pos:
            frame["stage"] = "staging"
            spent, paused = _charge_leg(ctx, charger, stage, target)
            frame["spent"] = float(frame.get("spent", 0.0)) + spent
            if paused or battle.frames[-1] is not frame or _stopped(charger):
                if battle.frames[-1] is frame and _stopped(charger):
                    ctx.pop(frame)  # flames on the way stopped it (ruling D27)
                return
        side_on = aspect(target.pos, target.heading, start, stage)
        ctx.emit(ev.ChargeDeclared(charger.id, target.id, side_on))
        waiting = _several_chargers(battle)
        outcome = _charge_test(ctx, frame, charger, target, side_on, fire=waiting is None)
        if waiting is not None:  # the target's fire and the melee wait for the other winners
            ctx.pop(frame)
            entry = {"charger": charger.id, "target": target.id, "outcome": outcome.value}
            waiting.setdefault("charges", []).append({**entry, "jump": bool(frame["jump"])})
            return
        frame["stage"] = "contact"
        return
    if frame["stage"] == "closing" and distance(charger.pos, target.pos) > _gap(ctx) + 1e-6:
        ctx.pop(frame)  # the target moved away during the In Sight: no contact
        return
    if _stopped(charger) or not _goes_on(battle, charger):
        ctx.pop(frame)  # stopped, ducked back, leaving or engaged: no contact
        return
    if not room_for_attacker(battle, ctx.rules, target):
        ctx.pop(frame)  # three enemies already melee the target (§18.3.4)
        return
    contact = _free_point(battle, charger, target, 2 * battle.options.base_radius)
    if contact is None:
        ctx.pop(frame)  # no room beside the target: no contact (bases never overlap, D5)
        return
    if contact != charger.pos:
        frame["stage"] = "closing"
        _spent, paused = _charge_leg(ctx, charger, contact, target)
        if paused or battle.frames[-1] is not frame:
            return  # an In Sight on the way: go on after it
    ctx.pop(frame)
    if _stopped(charger) or distance(charger.pos, contact) > 1e-6:
        return  # flames on the way stopped it (ruling D27)
    ctx.push(melee_frame(charger.id, target.id, jump_attack=frame.get("jump", False)))


def mid_charge(battle: Battle, mech_id: int) -> bool:
    """``mech_id`` is on a leg of its charge, paused for an In Sight (§16.1.2)."""
    return any(
        f["kind"] == "charge" and f["charger"] == mech_id and f["stage"] in ("staging", "closing")
        for f in battle.frames
    )


def _gap(ctx: Ctx) -> float:
    return float(ctx.rules.charge.stage_distance_inches)


def _stopped(charger: Mech) -> bool:
    return charger.removed is not None or charger.prone or charger.speed <= 0


def _goes_on(battle: Battle, charger: Mech) -> bool:
    """May still move on: carrying on, standing, not engaged (ruling D8, D33)."""
    return (
        charger.status is Status.CARRY_ON
        and not _stopped(charger)
        and not engaged_with(battle, charger)
    )


def _charge_leg(
    ctx: Ctx, charger: Mech, to: tuple[float, float], target: Mech
) -> tuple[float, bool]:
    """One leg of the charge, walked like any move: flames (D27), In Sight (§16.1.2).

    Returns (allowance spent, paused short of ``to``).
    """
    from wargym.rules.no_quarter.battle.flow_move import walk  # flow_move starts charges

    return walk(ctx, charger, to, heading_to(to, target.pos), "charge")


def _free_point(
    battle: Battle, charger: Mech, target: Mech, gap: float, allowance: float = math.inf
) -> tuple[float, float] | None:
    """A free point ``gap`` from the target, reachable in a straight line (ruling D5).

    Tried on the charger's line first, then turned around the target; with an ``allowance``
    the path's movement cost (half-speed terrain: 2" per inch) must fit in it.
    """
    others = [b for b in bodies(battle) if b.id not in (charger.id, target.id)]
    radius = battle.options.base_radius
    base = heading_to(target.pos, charger.pos)
    for turn in (0, 20, -20, 40, -40, 60, -60, 90, -90):
        angle = math.radians(base + turn)
        point = (target.pos[0] + gap * math.cos(angle), target.pos[1] + gap * math.sin(angle))
        if point == charger.pos:
            return point
        if (
            path_problem(
                battle.battlefield,
                [charger.pos, point],
                mover_id=charger.id,
                bodies=others,
                radius=radius,
            )
            is None
            and path_cost(battle.battlefield, [charger.pos, point]) <= allowance + 1e-6
        ):
            return point
    return None


def _charge_test(
    ctx: Ctx, frame: Frame, charger: Mech, target: Mech, side_on: Aspect, *, fire: bool = True
) -> ChargeOutcome:
    """The test (§18.2.1); with ``fire`` the target's fire it allows follows at once.

    A target charged by several winners of one In Sight rolls once (step 5): each comparison
    reads the first ``target_dice`` faces of that roll, which grows by the dice a charger
    needs beyond them (cover from it, or its aspect, can change the count).
    """
    battle, rules = ctx.battle, ctx.rules
    charger_faces = ctx.dice.roll(2)
    charger_passed = passed_dice(charger_faces, charger.rep)
    if charger_passed < 2:  # a Lucky charger may re-roll its test (D26)
        charger_faces = offer_lucky(
            ctx, charger, "charge_test", charger_faces, True, target.id, passed=charger_passed
        )
        charger_passed = passed_dice(charger_faces, charger.rep)
    insight = nearest_frame(battle, "insight")
    cache: dict[str, list[int]] = insight.setdefault("charge_rolls", {}) if insight else {}
    key = str(target.id)
    reused = key in cache
    dice = charge_target_dice(
        rules, target_in_cover=in_cover_from(battle, charger, target), aspect=side_on
    )
    rolled = list(cache.get(key, []))
    if len(rolled) < dice:
        rolled.extend(ctx.dice.roll(dice - len(rolled)))
    first = passed_dice(rolled[:dice], target.rep)
    if not reused and first < 2:  # a Lucky target may re-roll its one roll (D26)
        rolled = list(offer_lucky(ctx, target, "charge_test", tuple(rolled), True, charger.id,
                                  passed=first))  # fmt: skip
    if insight is not None:
        cache[key] = rolled
    target_faces = tuple(rolled[:dice])
    target_passed = passed_dice(target_faces, target.rep)
    outcome = charge_outcome(charger_passed, target_passed)
    ctx.emit(
        ev.ChargeTested(
            charger.id,
            target.id,
            charger_faces,
            charger_passed,
            target_faces,
            target_passed,
            dice,
            outcome.value,
            reused,
        )
    )
    frame["jump"] = outcome is ChargeOutcome.TARGET_HOLDS_FIRE and charger.has_jump_jets
    if (
        fire
        and outcome is not ChargeOutcome.TARGET_HOLDS_FIRE
        and target.status is not Status.LEAVE_BATTLEFIELD
        and not engaged_with(battle, target)  # an engaged mech may not fire (ruling D33)
    ):
        ctx.push(
            fire_frame(
                target.id,
                "charge",
                cause=charger.id,
                rush=outcome is ChargeOutcome.TARGET_RUSH_SHOT,
            )
        )
    return outcome


def _limbs(mech: Mech) -> list[DeclareMelee]:
    options = []
    for attack, limbs in (
        (MeleeAttack.PUNCH, (Location.ARM_L, Location.ARM_R)),
        (MeleeAttack.KICK, (Location.LEG_L, Location.LEG_R)),
    ):
        for limb in limbs:
            if limb not in mech.lost_limbs:
                options.append(DeclareMelee(mech.id, attack, limb))
    return options


def melee_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Punch with an arm or kick with a leg still attached (§18.3, ruling D33)."""
    who = frame["attacker"] if str(frame["attacker"]) not in frame["decl"] else frame["defender"]
    return list(_limbs(battle.mechs[who]))


def melee_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Record a declaration."""
    assert isinstance(action, DeclareMelee)
    frame["decl"][str(action.mech)] = [action.attack.value, action.limb.value]
    ctx.emit(ev.MeleeDeclared(action.mech, action.attack, action.limb))


def melee_step(ctx: Ctx, frame: Frame) -> None:
    """Declarations (attacker first), then rounds until a damaging blow (§18.3)."""
    battle = ctx.battle
    attacker, defender = battle.mechs[frame["attacker"]], battle.mechs[frame["defender"]]
    if attacker.removed is not None or defender.removed is not None:
        ctx.pop(frame)
        return
    for mech in (attacker, defender):
        if str(mech.id) not in frame["decl"]:
            ctx.ask(mech.side, DecisionKind.MELEE_DECLARE, mech.id)
            return
    _melee_round(ctx, frame, attacker, defender)


def _dice_for(ctx: Ctx, frame: Frame, mech: Mech, foe: Mech, jump: bool) -> int:
    attack, limb = frame["decl"][str(mech.id)]
    weapon = attack == "punch" and _melee_weapon(mech, Location(limb)) > 0
    return melee_dice(
        ctx.rules,
        mech.rep,
        race=mech.pilot.race,
        attributes=mech.pilot.attributes,
        melee_weapon=weapon,
        attacking_prone=foe.prone,
        jump_attack=jump,
        leaving=mech.status is Status.LEAVE_BATTLEFIELD,
    )


def _melee_weapon(mech: Mech, limb: Location) -> int:
    return max(
        (
            item.wv
            for i, item in enumerate(mech.design.items)
            if item.item is ItemType.MELEE_WEAPON
            and item.location is limb
            and i not in mech.inoperable
        ),
        default=0,
    )


def _melee_round(ctx: Ctx, frame: Frame, attacker: Mech, defender: Mech) -> None:
    jump = bool(frame["jump"])
    a_dice = _dice_for(ctx, frame, attacker, defender, jump)
    d_dice = _dice_for(ctx, frame, defender, attacker, False)
    a_faces, d_faces = ctx.dice.roll(a_dice), ctx.dice.roll(d_dice)
    a_faces, d_faces = lucky_melee(ctx, attacker, defender, a_faces, d_faces)  # D26
    a_succ, d_succ = successes(a_faces), successes(d_faces)
    winner = None if a_succ == d_succ else (attacker if a_succ > d_succ else defender)
    margin = abs(a_succ - d_succ)
    ctx.emit(
        ev.MeleeRound(
            attacker.id,
            defender.id,
            a_faces,
            a_succ,
            d_faces,
            d_succ,
            None if winner is None else winner.id,
            margin,
        )
    )
    if winner is None:
        frame["ties"] += 1  # refight at once with the same declarations (§18.3 step 3)
        if frame["ties"] >= MAX_TIED_ROUNDS or (a_dice <= 0 and d_dice <= 0):
            ctx.pop(frame)
        return
    frame["ties"] = 0
    loser = defender if winner is attacker else attacker
    attack, limb = frame["decl"][str(winner.id)]
    punch_column = MeleeAttack.PUNCH if (jump and winner is attacker) else MeleeAttack(attack)
    (face,) = ctx.dice.roll(1)
    location = melee_hit_location(
        ctx.rules, face, punch_column, jump_attack=jump and winner is attacker
    )
    shielded = location in loser.lost_limbs  # a blown-off arm: a protected hit (ruling D19)
    ctx.emit(ev.HitLocated(loser.id, (face,), location, shielded))
    if shielded:  # no effect, like a damage roll passing 0d6: a new round at once (E15)
        frame["jump"] = False
        frame["decl"] = {}
        return
    limb_loc = Location(limb)
    damage = limb_damage(
        max(0, winner.armor_at(limb_loc)),
        _melee_weapon(winner, limb_loc) if attack == "punch" else 0,
    )
    faces = ctx.dice.roll(2)
    before = loser.armor_at(location)
    outcome = melee_damage(ctx.rules, (faces[0], faces[1]), margin, damage, before)
    ctx.emit(
        ev.DamageRolled(
            loser.id,
            location,
            (faces[0], faces[1]),
            margin,
            outcome.passed,
            before,
            outcome.armor_after,
            outcome.critical,
            True,
            outcome.armor_loss,
        )
    )
    frame["jump"] = False
    if outcome.refight:  # pass 0: straight into a new round, fresh declarations (ruling D33)
        frame["decl"] = {}
        return
    ctx.pop(frame)
    ctx.collecting = []
    if outcome.critical:
        critical_hit(ctx, loser, location)
    collected, ctx.collecting = ctx.collecting, None
    entries = caused_by(list(collected), [winner.id])
    if outcome.armor_loss > 0 and loser.removed is None:
        entries.insert(0, {"mech": loser.id, "test": "takes_damage", "causes": [winner.id]})
    queue_tests(ctx, entries)


CHARGE = FunctionHandler(charge_step)
MELEE = FunctionHandler(melee_step, melee_options, melee_act)
