"""Several chargers against one target in an In Sight (§18.2.1 step 5, §18.3.4, ruling D33).

With ``BattleOptions.several_chargers="split"`` (the default) each In Sight winner's charge
is staged (3") and tested when the winner acts, and waits in the In Sight frame's
``charges``. Once every winner has acted, a *charges* frame resolves them target by target:
the target fires once at every charger the test lets it fire at, its weapons split among them
(a decision of its side, ``assign_fire``; a rush shot at a charger it tied with), then each
charger closes and fights its melee, one at a time in §18.3.4 order (class, then Rep); a Star
charger, or one tied with the next in that order, may be chosen to go first by its side
(``choose_mech``: "Stars choose when they attack", ties are the owner's). Fire during the test
causes no reaction tests (§16.2 not-triggers), and an engaged target does not fire (D33).
"""

from __future__ import annotations

from wargym.rules.errors import IllegalActionError
from wargym.rules.no_quarter.battle.actions import Action, ChooseMech, DecisionKind
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.melee import ChargeOutcome, melee_attack_order
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Status
from wargym.rules.no_quarter.sight_movement.perception import able_to_fire, engaged_with


def start_waiting_charges(ctx: Ctx, insight: Frame) -> bool:
    """After the last winner acted: resolve the charges that waited (True if any did)."""
    waiting = insight.pop("charges", [])
    if not waiting:
        return False
    ctx.push({"kind": "charges", "entries": _ordered(ctx.battle, waiting), "fired": []})
    return True


def _ordered(battle: Battle, entries: list[Frame]) -> list[Frame]:
    """Targets in the order first charged; each target's chargers in §18.3.4 order."""
    targets: list[int] = []
    for entry in entries:
        if entry["target"] not in targets:
            targets.append(entry["target"])
    ordered: list[Frame] = []
    for target in targets:
        mine = {e["charger"]: e for e in entries if e["target"] == target}
        order = melee_attack_order(
            [(c, battle.mechs[c].mech_class, battle.mechs[c].rep) for c in mine]
        )
        ordered.extend(mine[c] for c in order)
    return ordered


def charges_step(ctx: Ctx, frame: Frame) -> None:
    """The next target's split fire, else the next charger's contact and melee."""
    battle = ctx.battle
    entries: list[Frame] = frame["entries"]
    if not entries:
        ctx.pop(frame)
        return
    target = battle.mechs[entries[0]["target"]]
    if target.id not in frame["fired"]:
        frame["fired"].append(target.id)
        _target_fire(ctx, [e for e in entries if e["target"] == target.id])
        return
    if frame.pop("picked", None) is None and len(charges_options(battle, ctx.rules, frame)) > 1:
        ctx.ask(battle.mechs[entries[0]["charger"]].side, DecisionKind.CHOOSE_MECH)
        return
    entry = entries.pop(0)
    contact: Frame = {"kind": "charge", "charger": entry["charger"], "target": target.id}
    ctx.push({**contact, "stage": "contact", "jump": bool(entry["jump"])})


def _target_fire(ctx: Ctx, entries: list[Frame]) -> None:
    """One firing of the target at the chargers it may fire at (§18.2.1 steps 4-5)."""
    battle = ctx.battle
    target = battle.mechs[entries[0]["target"]]
    if (
        target.removed is not None
        or target.status is Status.LEAVE_BATTLEFIELD  # may not fire (§15.2.4.2)
        or not able_to_fire(target)
        or engaged_with(battle, target)  # an engaged mech may not fire (ruling D33)
    ):
        return
    held = ChargeOutcome.TARGET_HOLDS_FIRE.value
    rush = ChargeOutcome.TARGET_RUSH_SHOT.value
    at = [e for e in entries if e["outcome"] != held and battle.mechs[e["charger"]].removed is None]
    if not at:
        return
    if len(at) == 1:  # one charger: every weapon that reaches it fires, as before
        only = at[0]
        ctx.push(
            fire_frame(target.id, "charge", cause=only["charger"], rush=only["outcome"] == rush)
        )
        return
    fire = fire_frame(target.id, "charge", targets=[e["charger"] for e in at])
    fire["rush_at"] = [e["charger"] for e in at if e["outcome"] == rush]
    ctx.push(fire)


def charges_options(battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
    """Who closes next on the current target: the next in §18.3.4 order, a Star, or a tie."""
    entries: list[Frame] = frame["entries"]
    if not entries:
        return []
    mine = [e["charger"] for e in entries if e["target"] == entries[0]["target"]]
    head = battle.mechs[mine[0]]
    choices = [mine[0]] + [
        c
        for c in mine[1:]
        if battle.mechs[c].pilot.star
        or (battle.mechs[c].mech_class, battle.mechs[c].rep) == (head.mech_class, head.rep)
    ]
    return [ChooseMech(c) for c in choices]


def charges_act(ctx: Ctx, frame: Frame, action: Action) -> None:
    """The chosen charger closes next (it moves to the front of the target's chargers)."""
    if action not in charges_options(ctx.battle, ctx.rules, frame):
        raise IllegalActionError(f"{action} is not a charger that may close now")
    assert isinstance(action, ChooseMech)
    entries: list[Frame] = frame["entries"]
    chosen = next(i for i, e in enumerate(entries) if e["charger"] == action.mech)
    entries.insert(0, entries.pop(chosen))
    frame["picked"] = action.mech


CHARGES = FunctionHandler(charges_step, charges_options, charges_act)
