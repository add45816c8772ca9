"""Choices made inside a roll: Lucky's re-roll (§9.6.4, D26) and Marksman's location (§9.6.4).

Both choices come *after* dice are rolled, in the middle of a rule (a firing, a batch of
reaction tests, a melee round). The engine keeps such rules as plain procedures, so a choice
inside one is played by *re-execution* (engine choice E21 in ``docs/no_quarter.md``):

1. while a battle has a pilot who may choose (:func:`watching`), every engine unit (one
   frame's ``step``, or one ``act`` with its action) runs under a guard that records every
   dice roll and keeps a copy of the battle from before the unit;
2. a choice point (:func:`offer_lucky`, :func:`marksman_pick`) that has no answer yet stops
   the unit: the battle is put back as it was before the unit, and a ``pause`` frame on top
   of the stack holds the unit, the faces rolled so far, the answers given so far and what is
   asked; the decision (``lucky_reroll`` / ``marksman_location``) goes to the pilot's side;
3. the answer re-runs the unit from the copy: the recorded faces are read again in order (so
   nothing is rolled twice), the answers are given to the choice points in order, and the
   unit goes on with the live dice from there, possibly to a later choice point.

Frames are data, so a battle paused at such a decision serialises and resumes exactly. Events
of the unit appear once, after the decision. Outside a guard (a rule called directly, not
through ``game``) a choice point answers by the automatic rule: Lucky is kept, Marksman takes
the fixed preference order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wargym.rules.dice import Dice, successes
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ChooseLocation,
    DecisionKind,
    LuckyChoice,
    action_from_dict,
    action_to_dict,
)
from wargym.rules.no_quarter.battle.ranged_combat import better_location
from wargym.rules.no_quarter.forces.vocab import Attribute, Location, Side

if TYPE_CHECKING:
    from wargym.rules.no_quarter.battle.flow import Ctx, Frame
    from wargym.rules.no_quarter.battle.state import Battle, Mech
    from wargym.rules.no_quarter.forces.data import NoQuarterRules

LUCKY_WHAT = frozenset(
    {"to_hit", "hit_location", "damage", "fired_on", "takes_damage", "mech_down",
     "pilot_test", "melee", "charge_test"}
)  # fmt: skip
"""The rolls a Lucky pilot may re-roll (the ``what`` of ``LuckyReroll`` and of the pause)."""

KILL_FRACTION = 1.0 / 3.0
"""Automatic Lucky rule: a miss is re-rolled against a target with at most this fraction of
its armour left (a likely kill)."""


class _ChoicePendingError(Exception):
    """A choice point without an answer: the unit stops here (module docstring)."""

    def __init__(self, ask: dict[str, Any]) -> None:
        super().__init__(ask["stage"])
        self.ask = ask


@dataclass
class _Recorder:
    """Dice that replay ``prefix`` first, then roll ``live``; every roll is kept in ``rolls``."""

    live: Dice
    prefix: list[list[int]]
    rolls: list[list[int]] = field(default_factory=list)

    def roll(self, n: int) -> tuple[int, ...]:
        if len(self.rolls) < len(self.prefix):
            faces = self.prefix[len(self.rolls)]
            if len(faces) != n:
                raise StateError(
                    f"battle.frames: a paused roll does not replay ({len(faces)} dice kept, "
                    f"{n} rolled)"
                )
            out = tuple(faces)
        else:
            out = self.live.roll(n)
        self.rolls.append(list(out))
        return out


@dataclass
class Guard:
    """The answers of one unit's choice points, in order, and how many were read."""

    answers: list[Any]
    used: int = 0


def watching(battle: Battle) -> bool:
    """Whether a pilot in play may still make a choice inside a roll (cheap; every unit)."""
    opts = battle.options
    lucky, marksman = opts.lucky == "choose", opts.marksman == "choose"
    if not (lucky or marksman):
        return False
    for mech in battle.mechs.values():
        if mech.removed is None and mech.pilot.attributes:
            attributes = mech.pilot.attributes
            if marksman and Attribute.MARKSMAN in attributes:
                return True
            if lucky and not mech.lucky_used and Attribute.LUCKY in attributes:
                return True
    return False


def run_unit(
    ctx: Ctx,
    unit: Callable[[], None],
    action: Action | None,
    prefix: list[list[int]] | None = None,
    answers: list[Any] | None = None,
) -> None:
    """Run one engine unit, under a guard while a pilot may choose (module docstring)."""
    battle = ctx.battle
    if ctx.guard is not None or (prefix is None and not watching(battle)):
        unit()
        return
    before = battle.clone()
    log_len, collecting, live = len(ctx.log), ctx.collecting, ctx.dice
    recorder = _Recorder(live, list(prefix or []))
    guard = Guard(list(answers or []))
    ctx.dice, ctx.guard = recorder, guard
    try:
        unit()
    except _ChoicePendingError as pause:
        battle.__dict__.clear()
        battle.__dict__.update(before.__dict__)  # the battle as before the unit
        del ctx.log[log_len:]
        ctx.collecting = collecting
        frame = {"kind": "pause", **unit_spec(action), "rolls": recorder.rolls}
        frame["answers"] = guard.answers
        frame.update(pause.ask)
        battle.frames.append(frame)
        kind = (
            DecisionKind.LUCKY_REROLL if pause.ask["stage"] == "lucky"
            else DecisionKind.MARKSMAN_LOCATION
        )  # fmt: skip
        ctx.ask(battle.mechs[pause.ask["mech"]].side, kind, pause.ask["mech"])
    finally:
        ctx.dice, ctx.guard = live, None


def unit_spec(action: Action | None) -> dict[str, Any]:
    """What a pause frame keeps of its unit: a step of the top frame, or an act."""
    if action is None:
        return {"unit": "step", "action": None}
    return {"unit": "act", "action": action_to_dict(action)}


def resume(ctx: Ctx, frame: Frame, action: Action, run: Callable[[Action | None], None]) -> None:
    """Answer the pause ``frame`` with ``action`` and re-run its unit with ``run``."""
    battle = ctx.battle
    before = battle.clone()
    ctx.pop(frame)
    if isinstance(action, LuckyChoice):
        answer: Any = action.reroll
    else:
        assert isinstance(action, ChooseLocation)
        answer = action.location.value
    answers = [*frame["answers"], answer]
    log_len = len(ctx.log)
    try:
        again = None if frame["action"] is None else action_from_dict(frame["action"])
        run_unit(ctx, lambda: run(again), again, prefix=frame["rolls"], answers=answers)
    except StateError:  # a pause frame that does not replay (not the engine's): no change
        battle.__dict__.clear()
        battle.__dict__.update(before.__dict__)
        del ctx.log[log_len:]
        pause_step(ctx, battle.frames[-1])  # the decision stays pending
        raise


def _answer(ctx: Ctx, ask: dict[str, Any]) -> Any:
    guard = ctx.guard
    if guard is None:
        return None  # not under game: the automatic answer
    if guard.used < len(guard.answers):
        guard.used += 1
        return guard.answers[guard.used - 1]
    raise _ChoicePendingError(ask)


def offer_lucky(
    ctx: Ctx,
    mech: Mech,
    what: str,
    faces: tuple[int, ...],
    wanted: bool,
    target: int | None = None,
    **info: Any,
) -> tuple[int, ...]:
    """Lucky (D26, ``lucky="choose"``): the pilot's side may re-roll ``faces``.

    After a roll of ``mech`` that its side could want re-rolled (``wanted``), its controller
    may spend the mission's one re-roll; the new faces stand. Returns the faces that stand
    (new ones after a re-roll, in a ``LuckyReroll`` event).
    """
    if (
        not wanted
        or not faces
        or ctx.battle.options.lucky != "choose"
        or mech.lucky_used
        or Attribute.LUCKY not in mech.pilot.attributes
    ):
        return faces
    ask = {"stage": "lucky", "mech": mech.id, "what": what, "faces": list(faces),
           "target": target, "choices": [], **info}  # fmt: skip
    if not _answer(ctx, ask):
        return faces
    new = ctx.dice.roll(len(faces))
    ctx.emit(ev.LuckyReroll(mech.id, what, faces, new))
    return new


def marksman_pick(
    ctx: Ctx,
    shooter: Mech,
    target: Mech,
    first: Location,
    second: Location,
    shielded: frozenset[Location],
) -> Location:
    """Marksman (§9.6.4, ``marksman="choose"``): the shooter keeps one of his two locations.

    Equal locations (or ``marksman="auto"``) need no decision: the fixed preference order.
    """
    auto = better_location(first, second, rules=ctx.rules)
    if first is second or ctx.battle.options.marksman != "choose":
        return auto
    choices = [first.value, second.value]
    ask = {"stage": "marksman", "mech": shooter.id, "what": "hit_location",
           "faces": [], "target": target.id, "choices": choices,
           "shielded": [c for c in choices if Location(c) in shielded]}  # fmt: skip
    answer = _answer(ctx, ask)
    return auto if answer is None else Location(answer)


def pause_options(frame: Frame) -> list[Action]:
    """The options of a pause: keep or re-roll; or one of the two locations."""
    mech = int(frame["mech"])
    if frame["stage"] == "lucky":
        return [LuckyChoice(mech, False), LuckyChoice(mech, True)]
    return [ChooseLocation(mech, Location(c)) for c in frame["choices"]]


def pause_step(ctx: Ctx, frame: Frame) -> None:
    """A pause frame only waits for its decision (set again after a load)."""
    lucky = frame["stage"] == "lucky"
    kind = DecisionKind.LUCKY_REROLL if lucky else DecisionKind.MARKSMAN_LOCATION
    ctx.ask(ctx.battle.mechs[int(frame["mech"])].side, kind, int(frame["mech"]))


# -- the automatic choices (NP AI and tactician) -----------------------------------------
def lucky_advice(battle: Battle) -> bool:
    """The automatic Lucky rule of the NP AI and the tactician (D26).

    Re-roll a test that passed 0d6 (a failed Pilot Test), a miss against a target with at
    most ``KILL_FRACTION`` of its armour left, a hit on a protected location, or a lost melee
    round; keep everything else.
    """
    frame = battle.frames[-1]
    what = frame["what"]
    if what in ("fired_on", "takes_damage", "mech_down", "charge_test"):
        return bool(frame.get("passed", 1) == 0)
    if what == "pilot_test":
        return True  # offered only when failed
    if what == "to_hit" and frame.get("target") is not None:
        target = battle.mechs[int(frame["target"])]
        return sum(target.armor) <= KILL_FRACTION * sum(target.design.armor)
    if what == "hit_location":
        return bool(frame.get("shielded_hit", False))
    if what == "melee":
        return bool(frame.get("lost", False))
    return False


def marksman_advice(battle: Battle, rules: NoQuarterRules) -> Location:
    """The automatic Marksman choice of the NP AI and the tactician (§9.6.4).

    The unprotected location with the least armour left (the likeliest to be blown off or to
    end the mech), ties by ``marksman_preference``.
    """
    frame = battle.frames[-1]
    target = battle.mechs[int(frame["target"])]
    shielded = set(frame.get("shielded", []))
    order = rules.marksman_preference

    def key(choice: str) -> tuple[bool, int, int]:
        loc = Location(choice)
        return (choice in shielded, target.armor_at(loc), order.index(loc))

    return Location(min(frame["choices"], key=key))


def side_of(battle: Battle, frame: Frame) -> Side:
    """The side deciding at a pause frame."""
    return battle.mechs[int(frame["mech"])].side


def lucky_melee(
    ctx: Ctx, attacker: Mech, defender: Mech, a_faces: tuple[int, ...], d_faces: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lucky on a melee round's dice (D26): returns the faces that stand.

    A mech that did not win the round may re-roll its dice, the attacker first.
    """
    a_lead = successes(a_faces) - successes(d_faces)
    a_faces = offer_lucky(
        ctx, attacker, "melee", a_faces, a_lead <= 0, defender.id, lost=a_lead < 0
    )
    d_lead = successes(d_faces) - successes(a_faces)
    d_faces = offer_lucky(
        ctx, defender, "melee", d_faces, d_lead <= 0, attacker.id, lost=d_lead < 0
    )
    return a_faces, d_faces


def choice_in_roll(battle: Battle, options: Sequence[Action]) -> Action:
    """The automatic answer at a pause (NP AI and tactician); always one of ``options``.

    :func:`lucky_advice` at a Lucky decision, :func:`marksman_advice` at a Marksman one.
    """
    from wargym.rules.no_quarter.forces.data import load_rules

    frame = battle.frames[-1]
    mech = int(frame["mech"])
    if frame["stage"] == "lucky":
        wanted: Action = LuckyChoice(mech, lucky_advice(battle))
    else:
        wanted = ChooseLocation(mech, marksman_advice(battle, load_rules(battle.options.rules)))
    return wanted if wanted in options else options[0]
