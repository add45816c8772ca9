"""The lockstep harness (issue 16, requirement 5): two engines, the same dice, every decision.

The reference plays random skirmishes; the other engine plays the same games decision by
decision from the same document. After every decision the harness compares, in this order:

1. the legal options (``action_to_dict`` of each, in the engine's order);
2. the events of the play (``to_dict`` of each) and the number of d6 faces it consumed: the
   other engine is handed exactly the faces the reference rolled for that play
   (``ScriptedDice`` semantics), so it must roll the same dice in the same order;
3. the battle document (``to_dict``).

The first difference ends the game and is reported with the game's seed, the decision index,
what differs and both values (:class:`Difference`). An engine plugs in through
:class:`Engine`; :data:`REFERENCE` is the Python engine itself (a reference-against-reference
run must agree, and the tests use it to check that the harness catches a planted difference).

Run it by hand (``--games 100000`` for the long run; figures go in benchmarks/RESULTS.md)::

    python tests/native/lockstep.py --games 2000 --engine native
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import tyro

from wargym.rules.dice import Dice, RandomDice, ScriptedDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import action_from_dict, action_to_dict
from wargym.rules.no_quarter.battle.state import Battle

sys.path.insert(0, str(Path(__file__).parent))
from _units import option_variants  # noqa: E402

Doc = dict[str, Any]


class Engine(Protocol):
    """What the harness needs of an engine (documents and action dicts cross the boundary)."""

    name: str

    def load(self, document: Doc) -> Any:
        """A battle of this engine from a ``Battle.to_dict()`` document."""
        ...

    def legal(self, battle: Any) -> list[Doc]:
        """The legal options, as action dicts, in the engine's order."""
        ...

    def play(self, battle: Any, action: Doc, faces: Sequence[int]) -> tuple[list[Doc], int]:
        """Play ``action`` with dice that replay ``faces``: (event dicts, faces consumed)."""
        ...

    def dump(self, battle: Any) -> Doc:
        """The battle's ``to_dict()`` document."""
        ...


class _Reference:
    """The Python engine behind the :class:`Engine` protocol."""

    name = "python"

    def load(self, document: Doc) -> Battle:
        return Battle.from_dict(document)

    def legal(self, battle: Battle) -> list[Doc]:
        return [action_to_dict(a) for a in game.legal_actions(battle)]

    def play(self, battle: Battle, action: Doc, faces: Sequence[int]) -> tuple[list[Doc], int]:
        dice = ScriptedDice(list(faces))
        events = game.play(battle, action_from_dict(action), dice)
        return [e.to_dict() for e in events], len(dice.used)

    def dump(self, battle: Battle) -> Doc:
        return battle.to_dict()


REFERENCE: Engine = _Reference()


@dataclass
class _NativeGame:
    battle: Any
    tables: Any


class _Native:
    """The native core's game API (wargym.native.no_quarter.game) behind :class:`Engine`.

    The rule tables are built once per game: the core builds the battlefield's sight, cover,
    move and protection tables from the native battle's own battlefield, and again the moment
    a building falls (battlefield/terrain_tables.hpp), so they never go stale.
    """

    name = "native"

    def __init__(self) -> None:
        from wargym.native import _core
        from wargym.native.no_quarter import battle_from_dict
        from wargym.native.no_quarter import game as native_game

        self._core, self._load, self._game = _core, battle_from_dict, native_game

    def load(self, document: Doc) -> _NativeGame:
        tables = self._game.game_tables(Battle.from_dict(document))
        return _NativeGame(self._load(document), tables)

    def legal(self, handle: _NativeGame) -> list[Doc]:
        return [action_to_dict(a) for a in self._game.legal_actions(handle.battle, handle.tables)]

    def play(self, handle: _NativeGame, action: Doc, faces: Sequence[int]) -> tuple[list[Doc], int]:
        dice = self._core.ScriptedDice(list(faces))
        events = self._game.play(
            handle.battle, handle.tables, action_from_dict(action), dice, events=True
        )
        return [e.to_dict() for e in events], len(dice.used)

    def dump(self, handle: _NativeGame) -> Doc:
        document: Doc = handle.battle.to_dict()
        return document


@dataclass(frozen=True)
class Difference:
    """The first place two engines disagree."""

    seed: int
    decision: int
    what: str
    reference: Any
    other: Any

    def __str__(self) -> str:
        def short(value: Any) -> str:
            text = repr(value)
            return text if len(text) <= 300 else text[:300] + "..."

        return (
            f"seed {self.seed}, decision {self.decision}: {self.what}\n"
            f"  reference: {short(self.reference)}\n  other:     {short(self.other)}"
        )


class _Counting:
    def __init__(self, inner: Dice) -> None:
        self.inner, self.used = inner, []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.inner.roll(n)
        self.used.extend(faces)
        return faces


@dataclass(frozen=True)
class GameSpec:
    """One random skirmish: its seed, size and options."""

    seed: int
    per_side: int
    stars: int
    variant: int
    max_decisions: int = 400
    overrides: tuple[tuple[str, Any], ...] = ()
    """BattleOptions fields set on top of the variant (e.g. (("lucky", "auto"),))."""


def specs(games: int, first_seed: int = 0) -> Iterator[GameSpec]:
    """Games over every option variant, 1-5 mechs a side, Stars."""
    variants = len(option_variants())
    for g in range(games):
        per_side = 1 + g % 5
        yield GameSpec(first_seed + g, per_side, g % (per_side + 1), g % variants)


def first_difference(
    spec: GameSpec, engine: Engine, reference: Engine = REFERENCE
) -> tuple[Difference | None, int]:
    """Play ``spec`` in both engines; (the first difference or None, decisions played)."""
    from wargym.rules.no_quarter.forces import vocab
    from wargym.rules.no_quarter.forces.setup import new_skirmish

    factions = list(vocab.Faction)
    rng = np.random.default_rng(spec.seed)
    dice = _Counting(RandomDice.from_seed(spec.seed))
    battle = new_skirmish(
        rng,
        dice,
        blue=factions[spec.seed % len(factions)],
        red=factions[(spec.seed * 5 + 1) % len(factions)],
        mechs_per_side=spec.per_side,
        stars=spec.stars,
        options=dataclasses.replace(option_variants()[spec.variant], **dict(spec.overrides)),
    )
    other = engine.load(battle.to_dict())
    for decision in range(spec.max_decisions):

        def differ(what: str, ref: Any, theirs: Any) -> tuple[Difference, int]:
            return Difference(spec.seed, decision, what, ref, theirs), decision  # noqa: B023

        ref_doc, other_doc = battle.to_dict(), engine.dump(other)
        if ref_doc != other_doc:
            keys = sorted(k for k in ref_doc if other_doc.get(k) != ref_doc[k])
            mine = {k: ref_doc[k] for k in keys}
            return differ(f"the state differs in {keys}", mine, {k: other_doc.get(k) for k in keys})
        if battle.over:
            return None, decision
        legal = [action_to_dict(a) for a in game.legal_actions(battle)]
        try:
            theirs = engine.legal(other)
        except Exception as error:  # noqa: BLE001 - an engine that raises differs
            return differ("the other engine raised for the legal options", None, repr(error))
        if legal != theirs:
            at, a, b = _mismatch(legal, theirs)
            return differ(f"legal option {at} differs ({len(legal)} vs {len(theirs)})", a, b)
        action = legal[int(rng.integers(len(legal)))]
        start = len(dice.used)
        events = [e.to_dict() for e in game.play(battle, action_from_dict(action), dice)]
        faces = dice.used[start:]
        try:
            their_events, consumed = engine.play(other, action, faces)
        except Exception as error:  # noqa: BLE001 - an engine that raises differs
            return differ(f"the other engine raised playing {action}", events, repr(error))
        if consumed != len(faces):
            return differ(f"faces consumed playing {action}", len(faces), consumed)
        if events != their_events:
            at, a, b = _mismatch(events, their_events)
            return differ(f"event {at} of playing {action} differs", a, b)
    return None, spec.max_decisions


def _mismatch(mine: list[Doc], theirs: list[Doc]) -> tuple[int, Doc | None, Doc | None]:
    """The first index where two lists differ, and the two items there (None: past the end)."""
    for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            return i, a, b
    at = min(len(mine), len(theirs))
    return at, (mine[at] if at < len(mine) else None), (theirs[at] if at < len(theirs) else None)


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    differences: list[Difference] = dataclasses.field(default_factory=list)


def run(games: Iterator[GameSpec], engine: Engine, stop_after: int = 1) -> Report:
    """Lockstep every game; stop after ``stop_after`` differing games."""
    report = Report()
    start = time.perf_counter()
    for spec in games:
        difference, decisions = first_difference(spec, engine)
        report.games += 1
        report.decisions += decisions
        if difference is not None:
            report.differences.append(difference)
            if len(report.differences) >= stop_after:
                break
    report.seconds = time.perf_counter() - start
    return report


ENGINES: dict[str, Callable[[], Engine]] = {"python": lambda: REFERENCE, "native": _Native}
"""Engines by name."""


@dataclass
class Args:
    """Lockstep the reference against another engine over random skirmishes."""

    games: int = 2000
    """Games to play."""
    first_seed: int = 0
    """Seed of the first game (game g uses first_seed + g)."""
    engine: str = "python"
    """The engine to check against the reference (see ENGINES)."""
    stop_after: int = 1
    """Stop after this many differing games (each game stops at its first difference)."""


def main(argv: list[str] | None = None) -> int:
    args = tyro.cli(Args, args=argv)
    if args.engine not in ENGINES:
        known = sorted(ENGINES)
        print(f"--engine: unknown {args.engine!r}; choose from {known}", file=sys.stderr)
        return 2
    report = run(specs(args.games, args.first_seed), ENGINES[args.engine](), args.stop_after)
    print(
        f"lockstep python vs {args.engine}: {report.games} games, {report.decisions} decisions, "
        f"{report.seconds:.1f} s, {len(report.differences)} differing games"
    )
    for difference in report.differences:
        print(difference)
    return 1 if report.differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
