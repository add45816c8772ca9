"""Reaction tests in play: shared group rolls, Star Free Will, results carried out (§16.2).

A *react* frame holds queued tests ``{"mech", "test", "causes"}``. It takes them one batch
at a time: all queued tests of the same kind for mechs of one group share one roll (§16.2.1,
pooled per ruling D16). Stars choose their passes (§9.2). Each mech reads every cause from
the same dice and the worst result applies (§16.2.2); Fire and Rush Shot results start
reaction fire at the causes that ordered them.
"""

from __future__ import annotations

from wargym.rules.dice import passed_dice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Action, DecisionKind, FreeWill
from wargym.rules.no_quarter.battle.consequences import duck_back, leave_battlefield, may_use_lucky
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.luck import offer_lucky
from wargym.rules.no_quarter.battle.reaction import (
    is_outgunned,
    reaction_dice,
    reaction_rep,
    reaction_result,
    read_pooled_dice,
    twice_as_many_friendly_losses,
    worst_result,
)
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Attribute, ReactionResult, ReactionTest, Status
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.no_quarter.sight_movement.perception import (
    cause_in_range,
    engaged_with,
    in_cover_from,
    line_between,
)


def _may_test(mech: Mech) -> bool:
    """In play and not Leaving: a Leave result is permanent, nothing can change it (§16.3.3)."""
    return mech.removed is None and mech.status is not Status.LEAVE_BATTLEFIELD


def _batch(battle: Battle, frame: Frame) -> list[Frame]:
    """The next batch: first queued entry's test, every entry of that test in its group."""
    entries = [e for e in frame["entries"] if _may_test(battle.mechs[e["mech"]])]
    frame["entries"] = entries
    if not entries:
        return []
    first = entries[0]
    group = battle.group_of.get(first["mech"], first["mech"])
    batch: dict[int, Frame] = {}
    for entry in entries:
        same_group = battle.group_of.get(entry["mech"], entry["mech"]) == group
        if entry["test"] == first["test"] and same_group:
            merged = batch.setdefault(
                entry["mech"],
                {"mech": entry["mech"], "test": entry["test"], "causes": [], "enemies": []},
            )
            for key in ("causes", "enemies"):
                for cause in entry.get(key, []):
                    if cause not in merged[key]:
                        merged[key].append(cause)
    return list(batch.values())


def _is_star_choice(battle: Battle, mech: Mech) -> bool:
    return battle.options.star_free_will and mech.pilot.star


def react_step(ctx: Ctx, frame: Frame) -> None:
    """Take the next batch of tests, asking Stars for Free Will first."""
    battle = ctx.battle
    batch = _batch(battle, frame)
    if not batch:
        ctx.pop(frame)
        return
    choices: dict[str, int] = frame.setdefault("free_will", {})
    for entry in batch:
        mech = battle.mechs[entry["mech"]]
        if _is_star_choice(battle, mech) and str(mech.id) not in choices:
            frame["asking"] = mech.id
            ctx.ask(mech.side, DecisionKind.FREE_WILL, mech.id)
            return
    frame["entries"] = [
        e
        for e in frame["entries"]
        if not any(e["mech"] == b["mech"] and e["test"] == b["test"] for b in batch)
    ]
    frame["free_will"] = {}
    _take_batch(ctx, batch, choices)


def react_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """A Star chooses to have passed 2, 1 or 0 d6 (§9.2)."""
    mech = frame["asking"]
    return [FreeWill(mech, passed) for passed in (2, 1, 0)]


def react_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """Record the Star's choice; the batch is taken when every Star has chosen."""
    assert isinstance(action, FreeWill)
    frame["free_will"][str(action.mech)] = action.passed
    frame.pop("asking", None)


def _take_batch(ctx: Ctx, batch: list[Frame], choices: dict[str, int]) -> None:
    battle, rules = ctx.battle, ctx.rules
    test = ReactionTest(batch[0]["test"])
    rolled = [battle.mechs[e["mech"]] for e in batch if str(e["mech"]) not in choices]
    cover = {
        e["mech"]: _in_cover(battle, m, _threats(battle, m, e))
        for e in batch
        for m in (battle.mechs[e["mech"]],)
    }
    needs = {
        m.id: reaction_dice(
            rules, test, m.design.faction, in_cover=cover[m.id], attributes=m.pilot.attributes
        )
        for m in rolled
    }
    pool = ctx.dice.roll(max(needs.values(), default=0))
    for entry in batch:
        mech = battle.mechs[entry["mech"]]
        if mech.removed is not None:
            continue
        causes = [battle.mechs[c] for c in entry["causes"]]
        threats = _threats(battle, mech, entry)
        friendly, enemy = battle.losses[mech.side], battle.losses[mech.side.other]
        rep = reaction_rep(
            rules,
            mech.rep,
            weapons_out_of_action=mech.weapons_out_of_action,
            twice_as_many_friendly_losses=twice_as_many_friendly_losses(friendly, enemy),
        )
        if str(mech.id) in choices:
            faces: tuple[int, ...] = ()
            passed, free_will = choices[str(mech.id)], True
        else:
            faces = read_pooled_dice(pool, needs[mech.id])
            passed, free_will = passed_dice(faces, rep), False
            if passed == 0 and faces and may_use_lucky(ctx, mech):
                new = ctx.dice.roll(len(faces))
                ctx.emit(ev.LuckyReroll(mech.id, test.value, faces, new))
                faces, passed = new, passed_dice(new, rep)
            elif passed < 2:  # lucky="choose": the pilot's side may re-roll (D26)
                new = offer_lucky(ctx, mech, test.value, faces, True, passed=passed)
                faces, passed = new, passed_dice(new, rep) if new != faces else passed
        _apply_result(
            ctx, mech, test, causes, threats, faces, rep, passed, free_will, cover[mech.id]
        )


def _entry(batch: list[Frame], mech_id: int) -> Frame:
    found: Frame = next(e for e in batch if e["mech"] == mech_id)
    return found


def _threats(battle: Battle, mech: Mech, entry: Frame) -> list[Mech]:
    """The enemies a test's cover die and Duck Back are judged against (§16.2, §15.2.4.1).

    Fired On and Takes Damage: the causes. Mech Down: the enemies that caused the loss, not
    the lost friend; where none is known or left in play (a flame area), every enemy with LOS
    to the tester (choice E8).
    """
    mech_down = entry["test"] == ReactionTest.MECH_DOWN.value
    ids = entry.get("enemies", []) if mech_down else entry["causes"]
    found = [battle.mechs[i] for i in ids if battle.mechs[i].removed is None]
    if mech_down and not found:
        found = [
            e for e in battle.mechs_of(mech.side.other) if line_between(battle, e, mech).visible
        ]
    return found


def _in_cover(battle: Battle, mech: Mech, threats: list[Mech]) -> bool:
    return any(in_cover_from(battle, threat, mech) for threat in threats)


def _apply_result(
    ctx: Ctx,
    mech: Mech,
    test: ReactionTest,
    causes: list[Mech],
    threats: list[Mech],
    faces: tuple[int, ...],
    rep: int,
    passed: int,
    free_will: bool,
    in_cover: bool | None = None,
) -> None:
    battle, rules = ctx.battle, ctx.rules
    nerves = Attribute.NERVES_OF_STEEL in mech.pilot.attributes
    outgunned = tuple(
        is_outgunned(mech.mech_class, c.mech_class, nerves_of_steel=nerves) for c in causes
    )
    in_range = tuple(c.removed is None and cause_in_range(battle, mech, c) for c in causes)
    outcomes = [
        reaction_result(
            rules,
            test,
            mech.design.faction,
            passed,
            outgunned=og,
            in_range=ir,
            damaged=mech.damaged,
            attributes=mech.pilot.attributes,
        )
        for og, ir in (zip(outgunned, in_range, strict=True) if causes else [(False, False)])
    ]
    results = tuple(o.result for o in outcomes)
    final = worst_result(list(results))
    rep_change = min((o.rep_change for o in outcomes), default=0)
    ctx.emit(
        ev.ReactionTaken(
            mech.id,
            test,
            tuple(c.id for c in causes),
            faces,
            rep,
            passed,
            free_will,
            results,
            final,
            rep_change,
            outgunned,
            in_range,
            in_cover,
            len(faces),
        )
    )
    if rep_change:
        ctx.emit(ev.RepChanged(mech.id, mech.rep + rep_change, f"{test.value} result"))
    worst_cause = next(
        (c for c, r in zip(causes, results, strict=False) if r is final),
        causes[0] if causes else None,
    )
    if test is ReactionTest.MECH_DOWN:  # away from the enemies, not the lost friend
        worst_cause = min(threats, key=lambda t: (distance(t.pos, mech.pos), t.id), default=None)
    if final is ReactionResult.LEAVE_BATTLEFIELD:
        leave_battlefield(ctx, mech, f"{test.value} result", [t.id for t in threats])
    elif final is ReactionResult.DUCK_BACK:
        away_from = worst_cause if worst_cause and worst_cause.removed is None else None
        duck_back(ctx, mech, away_from, f"{test.value} result")
    elif final in (ReactionResult.FIRE, ReactionResult.RUSH_SHOT):
        if mech.status is Status.DUCK_BACK:
            ctx.emit(ev.StatusChanged(mech.id, Status.CARRY_ON, "ordered to fire"))
        _reaction_fire(ctx, mech, causes, results)


def _reaction_fire(
    ctx: Ctx, mech: Mech, causes: list[Mech], results: tuple[ReactionResult, ...]
) -> None:
    """Fire (or Rush Shot) at each cause that ordered it, once per enemy (ruling D15)."""
    battle = ctx.battle
    if mech.prone or engaged_with(battle, mech):  # ruling D25, D33: counts as Carry On
        return
    for cause, result in zip(causes, results, strict=False):
        if result not in (ReactionResult.FIRE, ReactionResult.RUSH_SHOT):
            continue
        if cause.removed is not None:
            continue
        if battle.options.reaction_fire_once_per_enemy and cause.id in mech.reaction_fired_at:
            continue
        mech.reaction_fired_at.append(cause.id)
        ctx.push(
            fire_frame(mech.id, "reaction", cause=cause.id, rush=result is ReactionResult.RUSH_SHOT)
        )


REACT = FunctionHandler(react_step, react_options, react_act)
