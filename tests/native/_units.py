"""Engine units recorded from the reference, for unit-by-unit agreement tests of the native flow.

The reference runs a battle as a sequence of *units* (``game._act``): one frame's ``step``, or
one ``act`` with the action chosen at that frame's decision (each under ``luck.run_unit``).
:func:`record_units` plays real games with the reference and records, for chosen frame kinds,
every unit it runs: the battle document before it, the action, the d6 faces it rolled, the
events it emitted and the battle document after it. A native handler is then checked on each
unit alone: load ``before``, run the same unit with ``ScriptedDice(faces)``, and compare the
document, the events and the faces consumed (:func:`check_unit`). Units are self-contained:
what a unit keeps between its calls (``ctx.collecting``, luck's guard) starts and ends inside it.

The procedures ``game._run`` calls between units are recorded the same way under their own
names: ``np_decides`` (the rules playing the non-player side), ``check_pefs``, ``withdraw_np``,
``mission_over`` and ``eliminated``.

>>> units = record_units(skirmish_games(1, seed=3), kinds={"turn"}, per_kind=2)
>>> [u.kind for u in units["turn"]], units["turn"][0].action is None
(['turn', 'turn'], True)
"""

from __future__ import annotations

import contextlib
import dataclasses
import typing
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.rules.dice import Dice, RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import action_to_dict
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission

PROCEDURES = ("np_decides", "check_pefs", "withdraw_np", "mission_over", "eliminated")
"""The procedures of ``game._run`` recorded besides the frame kinds (module docstring)."""


@dataclass(frozen=True)
class Unit:
    """One engine unit as the reference ran it."""

    label: str
    """Where it ran: game, decision and unit index."""
    kind: str
    """The top frame's kind (``turn``, ``mech``, ...) or a procedure name (PROCEDURES)."""
    action: dict[str, Any] | None
    """``action_to_dict`` of the action acted on, or None for a step."""
    before: dict[str, Any]
    faces: tuple[int, ...]
    """Every d6 face the unit rolled, in order."""
    events: tuple[dict[str, Any], ...]
    after: dict[str, Any]
    result: Any = None
    """What a procedure returned (``mission_over``, ``eliminated``: a bool); None for a unit."""


class _CountingDice:
    """The game's dice, with every face kept in ``used``."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.used: list[int] = []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.inner.roll(n)
        self.used.extend(faces)
        return faces


@dataclass
class Game:
    """A battle to play, its dice and the generator that picks the actions."""

    label: str
    battle: Battle
    dice: Dice
    rng: np.random.Generator
    max_decisions: int = 250


def option_variants() -> list[BattleOptions]:
    """The defaults, then every other choice of every option, one change at a time."""
    out = [BattleOptions()]
    hints = typing.get_type_hints(BattleOptions)
    for f in dataclasses.fields(BattleOptions):
        tp, default = hints[f.name], getattr(BattleOptions(), f.name)
        if tp is bool:
            out.append(dataclasses.replace(BattleOptions(), **{f.name: not default}))
        elif typing.get_origin(tp) is typing.Literal:
            for choice in typing.get_args(tp):
                if choice != default:
                    out.append(dataclasses.replace(BattleOptions(), **{f.name: choice}))
    rules_hints = typing.get_type_hints(RulesOptions)
    for f in dataclasses.fields(RulesOptions):
        tp, default = rules_hints[f.name], getattr(RulesOptions(), f.name)
        others = tuple(c for c in typing.get_args(tp) if c != default)
        for choice in (not default,) if tp is bool else others:
            rules = dataclasses.replace(RulesOptions(), **{f.name: choice})
            out.append(dataclasses.replace(BattleOptions(), rules=rules))
    return out


def skirmish_games(games: int, seed: int = 0) -> Iterator[Game]:
    """Skirmishes over every option variant, 1-5 mechs a side, stars, every faction."""
    variants, factions = option_variants(), list(vocab.Faction)
    for g in range(games):
        per_side = 1 + g % 5
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(
            rng, dice, blue=factions[g % len(factions)], red=factions[(g * 5 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1), options=variants[g % len(variants)],
        )  # fmt: skip
        yield Game(f"skirmish {g} (seed {seed + g})", battle, dice, rng)


def mission_games(seed: int = 0, decisions: int = 60) -> Iterator[Game]:
    """The shipped mission scenarios (PEFs, NP groups, reinforcements, objectives)."""
    for name in ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen"):
        rng = np.random.default_rng(seed)
        dice = RandomDice.from_seed(seed)
        yield Game(f"{name} (seed {seed})", new_mission(name, rng, dice), dice, rng, decisions)


def record_units(
    games: Iterable[Game], kinds: set[str] | None = None, per_kind: int = 200
) -> dict[str, list[Unit]]:
    """Play ``games`` with random legal actions; record up to ``per_kind`` units of each kind.

    ``kinds`` None records every frame kind and procedure. Recording stops early once every
    wanted kind has ``per_kind`` units.
    """
    found: dict[str, list[Unit]] = defaultdict(list)

    def wanted(kind: str) -> bool:
        return (kinds is None or kind in kinds) and len(found[kind]) < per_kind

    for g in games:
        def done() -> bool:
            return kinds is not None and not any(wanted(k) for k in kinds)

        _record_game(g, found, wanted, done)
        if done():
            break
    return dict(found)


def _record_game(
    g: Game,
    found: dict[str, list[Unit]],
    wanted: Callable[[str], bool],
    done: Callable[[], bool],
) -> None:
    counting = _CountingDice(g.dice)
    where = {"decision": 0, "unit": 0}
    current_action: dict[str, Any] = {}

    def around(kind: str, run: Callable[[], Any], ctx: Any) -> Any:
        where["unit"] += 1
        if not wanted(kind):
            return run()
        before, log0, face0 = ctx.battle.to_dict(), len(ctx.log), len(counting.used)
        action = current_action.get("action")
        result = run()
        found[kind].append(
            Unit(
                f"{g.label} decision {where['decision']} unit {where['unit']}",
                kind,
                action,
                before,
                tuple(counting.used[face0:]),
                tuple(e.to_dict() for e in ctx.log[log0:]),
                ctx.battle.to_dict(),
                result,
            )
        )
        return result

    with _patched(around, current_action):
        battle = g.battle
        for step in range(g.max_decisions):
            where["decision"] = step
            if battle.over or done():
                break
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(g.rng.integers(len(legal)))], counting)


@contextlib.contextmanager
def _patched(
    around: Callable[[str, Callable[[], Any], Any], Any], current: dict[str, Any]
) -> Iterator[None]:
    """Route game._act and the _run procedures through ``around`` while recording."""
    real_act = game._act
    saved = {name: getattr(game, name) for name in ("_np_decides", "check_pefs", "withdraw_np",
                                                     "mission_over", "_eliminated")}  # fmt: skip

    def act(ctx: Any, frame: Any, action: Any) -> None:
        current["action"] = None if action is None else action_to_dict(action)
        around(frame["kind"], lambda: real_act(ctx, frame, action), ctx)

    def procedure(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def run(ctx: Any, *args: Any, **kwargs: Any) -> Any:
            current["action"] = None
            return around(name, lambda: real(ctx, *args, **kwargs), ctx)

        return run

    game._act = act  # type: ignore[assignment]
    for attr, name in (("_np_decides", "np_decides"), ("check_pefs", "check_pefs"),
                       ("withdraw_np", "withdraw_np"), ("mission_over", "mission_over"),
                       ("_eliminated", "eliminated")):  # fmt: skip
        setattr(game, attr, procedure(name, saved[attr]))
    try:
        yield
    finally:
        game._act = real_act  # type: ignore[assignment]
        for attr, real in saved.items():
            setattr(game, attr, real)


def check_unit(
    unit: Unit,
    run_native: Callable[[Unit], tuple[dict[str, Any], list[dict[str, Any]], int, Any]],
) -> str | None:
    """Run ``unit`` natively; None if it agrees, else the first difference in words.

    ``run_native(unit)`` loads ``unit.before``, runs the unit with the scripted ``unit.faces``
    and returns (the battle document after, the events' dicts, the faces it consumed, the
    procedure's result or None).
    """
    after, events, consumed, result = run_native(unit)
    if consumed != len(unit.faces):
        return f"{unit.label} ({unit.kind}): rolled {consumed} faces, not {len(unit.faces)}"
    for i, (mine, ref) in enumerate(zip(events, unit.events, strict=False)):
        if mine != ref:
            return f"{unit.label} ({unit.kind}): event {i} is {mine}, the reference's {ref}"
    if len(events) != len(unit.events):
        return f"{unit.label} ({unit.kind}): {len(events)} events, the reference {len(unit.events)}"
    if result != unit.result:
        return f"{unit.label} ({unit.kind}): returned {result!r}, the reference {unit.result!r}"
    if after != unit.after:
        keys = [k for k in unit.after if after.get(k) != unit.after[k]]
        return f"{unit.label} ({unit.kind}): the state after differs in {keys}"
    return None
