"""The orchestrator's plumbing: context, frames and the handler protocol (§14-§18).

The engine is a stack of *frames*, plain JSON objects that say which procedure is running
and how far it got (turn, side phase, group, mech, move, In Sight, fire, reactions, charge,
melee). ``step`` advances the top frame by one resolvable piece or sets a decision; ``act``
feeds a decision to the frame that asked. Frames are data, so a battle paused at any decision
serialises, clones and resumes exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.actions import Action, Decision, DecisionKind
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Side

Frame = dict[str, Any]


@dataclass
class Ctx:
    """One call into the engine: the battle, the dice, the rules and the events so far."""

    battle: Battle
    dice: Dice
    rules: NoQuarterRules
    log: list[Event] = field(default_factory=list)
    collecting: list[Frame] | None = None
    """While a firing or a melee blow resolves, the tests it causes gather here."""
    guard: Any = None
    """While a unit runs under ``luck.run_unit``: the answers of its choice points."""

    def emit(self, event: Event) -> None:
        """Apply ``event`` to the battle and record it."""
        self.battle.apply(event)
        self.log.append(event)

    def push(self, frame: Frame) -> None:
        """Start a sub-procedure on top of the stack."""
        self.battle.frames.append(frame)

    def pop(self, frame: Frame) -> None:
        """Finish ``frame`` (which must be on top)."""
        top = self.battle.frames.pop()
        if top is not frame:
            raise RuntimeError(f"frame stack corrupted: popped {top['kind']}, not {frame['kind']}")

    def ask(self, side: Side, kind: DecisionKind, mech: int | None = None) -> None:
        """Stop at a decision point."""
        self.battle.decision = Decision(side, kind, mech)


class Handler(Protocol):
    """What every frame kind implements."""

    def step(self, ctx: Ctx, frame: Frame) -> None:
        """Advance the frame: resolve rules, push/pop frames, or ask for a decision."""

    def options(self, battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
        """The legal options of the decision this frame asked for."""

    def act(self, ctx: Ctx, frame: Frame, action: Action) -> None:
        """Carry out a legal ``action`` chosen at this frame's decision."""


@dataclass(frozen=True)
class FunctionHandler:
    """A handler assembled from three functions."""

    step_fn: Callable[[Ctx, Frame], None]
    options_fn: Callable[[Battle, NoQuarterRules, Frame], list[Action]] = lambda b, r, f: []
    act_fn: Callable[[Ctx, Frame, Action], None] | None = None

    def step(self, ctx: Ctx, frame: Frame) -> None:
        """Advance the frame."""
        self.step_fn(ctx, frame)

    def options(self, battle: Battle, rules: NoQuarterRules, frame: Frame) -> list[Action]:
        """Legal options at this frame's decision."""
        return self.options_fn(battle, rules, frame)

    def act(self, ctx: Ctx, frame: Frame, action: Action) -> None:
        """Carry out the chosen action."""
        if self.act_fn is None:
            raise RuntimeError(f"frame {frame['kind']} takes no decisions")
        self.act_fn(ctx, frame, action)


def nearest_frame(battle: Battle, kind: str) -> Frame | None:
    """The topmost frame of ``kind`` on the stack, if any."""
    for frame in reversed(battle.frames):
        if frame["kind"] == kind:
            found: Frame = frame
            return found
    return None


def insight_frame(mover_id: int, side: Side, enemy_groups: list[int]) -> Frame:
    """A new In Sight started by ``mover_id`` against ``enemy_groups`` (§16.1.3)."""
    return {
        "kind": "insight",
        "side": side.value,
        "mover": mover_id,
        "group": mover_id,
        "enemy_groups": enemy_groups,
        "stage": "free",
        "free": None,
        "winners": [],
        "opponents": {},
        "deferred": [],
    }


def roll_index(dice: Dice, count: int) -> tuple[int, tuple[int, ...]]:
    """Pick one of ``count`` items uniformly with d6 rolls; returns (index, faces) (ruling D24).

    One d6 with re-rolls for up to six items, 2d6 read as 36 outcomes beyond that.
    """
    if count <= 0:
        raise ValueError("nothing to choose from")
    faces: list[int] = []
    if count == 1:
        return 0, ()
    while True:
        if count <= 6:
            (face,) = dice.roll(1)
            faces.append(face)
            if face <= count:
                return face - 1, tuple(faces)
        else:
            first, second = dice.roll(2)
            faces.extend((first, second))
            value = (first - 1) * 6 + (second - 1)
            if value < count * (36 // count):
                return value % count, tuple(faces)
