"""Perft-style option counts of the No Quarter engine, for any backend (issue 16, item 5).

``perft(position, depth)`` counts the decision sequences of length ``depth`` from a position:
the number of legal options summed over every sequence of ``depth - 1`` decisions (chess
engines pin their move generators this way). A finished battle has no options. The counts
also carry a signature: a SHA-256 over every option list met, in order (``action_to_dict``
JSON), so a different order or a different option with the same count is caught too.

**Dice are part of the position.** A :class:`Position` holds the battle and a fixed script
of d6 faces with a cursor; a child gets the parent's script with the cursor moved past the
faces its decision rolled (:class:`CursorDice`: ``ScriptedDice`` semantics over a shared
tuple, so no list is copied per node). The same position therefore gives the same counts on
every run and on every backend that rolls scripted faces in the reference's order.

**Backends.** Everything goes through a :class:`Backend`: ``legal_actions``, ``play``,
``clone``, ``load``/``dump`` (the versioned ``Battle`` JSON). :data:`PYTHON` is the
reference engine. A native backend plugs in by providing the same five functions; its
positions come from the reference's ``to_dict`` (``load(PYTHON.dump(battle))``), so the
set-up code need not be mirrored first.

The fixed positions live in :data:`POSITIONS` (recipes: a set-up, then a prefix of seeded
random decisions up to a wanted decision kind); ``test_nq_perft.py`` checks their committed
counts in ``tests/golden/nq_perft.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.errors import DiceScriptExhaustedError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action, action_to_dict
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.mission.mission_play import new_mission

SCRIPT_FACES = 4096
"""Faces in each position's dice script (a depth-3 search never needs more on one path)."""


@dataclass
class CursorDice:
    """``ScriptedDice`` over a shared tuple: faces from ``pos`` on; running out raises."""

    faces: tuple[int, ...]
    pos: int = 0

    def roll(self, n: int) -> tuple[int, ...]:
        """The next ``n`` faces of the script."""
        if n <= 0:
            return ()
        if self.pos + n > len(self.faces):
            raise DiceScriptExhaustedError(
                f"script ran out: wanted {n}d6, {len(self.faces) - self.pos} left"
            )
        out = self.faces[self.pos : self.pos + n]
        self.pos += n
        return out


class Backend(Protocol):
    """What perft and the scenario traces need of an engine."""

    name: str

    def legal_actions(self, battle: Any) -> list[Action]:
        """The legal options in the engine's order (empty when the battle is over)."""
        ...

    def play(self, battle: Any, action: Action, dice: CursorDice) -> list[Any]:
        """Play ``action`` (and the rules up to the next decision); returns the events."""
        ...

    def clone(self, battle: Any) -> Any:
        """An independent copy."""
        ...

    def load(self, data: dict[str, Any]) -> Any:
        """A battle from ``Battle.to_dict`` JSON."""
        ...

    def dump(self, battle: Any) -> dict[str, Any]:
        """``Battle.to_dict`` JSON."""
        ...


@dataclass(frozen=True)
class PythonBackend:
    """The reference engine (``wargym.rules.no_quarter.battle.game``)."""

    name: str = "python"

    def legal_actions(self, battle: Battle) -> list[Action]:
        return game.legal_actions(battle)

    def play(self, battle: Battle, action: Action, dice: CursorDice) -> list[Any]:
        return game.play(battle, action, dice)

    def clone(self, battle: Battle) -> Battle:
        return battle.clone()

    def load(self, data: dict[str, Any]) -> Battle:
        return Battle.from_dict(data)

    def dump(self, battle: Battle) -> dict[str, Any]:
        return battle.to_dict()


PYTHON = PythonBackend()


@dataclass
class Position:
    """A battle and its dice script (with the cursor): what perft starts from."""

    battle: Any
    dice: CursorDice


@dataclass
class Count:
    """Perft result: leaves per depth (``nodes[d - 1]`` for depth ``d``) and the signature."""

    nodes: list[int]
    signature: str
    max_faces: int = 0
    """Most faces rolled along one path (how much of the script the search used)."""

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "signature": self.signature, "max_faces": self.max_faces}


@dataclass
class _Walk:
    backend: Backend
    nodes: list[int]
    digest: Any = field(default_factory=hashlib.sha256)
    max_faces: int = 0


def options_json(options: Sequence[Action]) -> bytes:
    """The option list as canonical JSON bytes (backend-neutral)."""
    return json.dumps([action_to_dict(a) for a in options], sort_keys=True).encode()


def perft(position: Position, depth: int, backend: Backend = PYTHON) -> Count:
    """Decision sequences of length 1..``depth`` from ``position`` (module docstring).

    ``position`` is not changed: every child is played on a clone with a copy of the dice.
    """
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    walk = _Walk(backend, [0] * depth)
    start = position.dice.pos
    _walk(walk, position.battle, position.dice, 0, depth, start)
    return Count(walk.nodes, walk.digest.hexdigest(), walk.max_faces)


def _walk(walk: _Walk, battle: Any, dice: CursorDice, level: int, depth: int, start: int) -> None:
    options = walk.backend.legal_actions(battle)
    walk.digest.update(options_json(options))
    walk.nodes[level] += len(options)
    for action in options:
        child = walk.backend.clone(battle)
        faces = CursorDice(dice.faces, dice.pos)
        walk.backend.play(child, action, faces)
        walk.max_faces = max(walk.max_faces, faces.pos - start)
        if level + 1 < depth:
            _walk(walk, child, faces, level + 1, depth, start)


# -- the fixed positions -----------------------------------------------------------------


@dataclass(frozen=True)
class Recipe:
    """How to reach a fixed position with the reference engine (deterministic).

    ``setup`` builds the battle from a set-up generator and dice; then seeded random legal
    decisions are played until the decision kind is one of ``kinds`` (the ``skip``-th such
    decision; empty ``kinds``: the first decision). The chooser picks among the options whose
    class is named in ``prefer`` when there are any (to reach a charge and its melee). The
    perft dice script comes from ``numpy.random.default_rng(script_seed or seed)``.
    """

    name: str
    setup: Callable[[np.random.Generator, RandomDice], Battle]
    seed: int
    depth: int
    kinds: tuple[str, ...] = ()
    skip: int = 0
    script_seed: int = 0
    max_prefix: int = 600
    prefer: tuple[str, ...] = ()


def _skirmish(per_side: int, **extra: Any) -> Callable[[np.random.Generator, RandomDice], Battle]:
    def build(rng: np.random.Generator, dice: RandomDice) -> Battle:
        return new_skirmish(rng, dice, mechs_per_side=per_side, **extra)

    return build


def _mission(name: str) -> Callable[[np.random.Generator, RandomDice], Battle]:
    def build(rng: np.random.Generator, dice: RandomDice) -> Battle:
        return new_mission(name, rng, dice)

    return build


POSITIONS: tuple[Recipe, ...] = (
    Recipe("skirmish_1v1_start", _skirmish(1), seed=1, depth=3),
    Recipe("skirmish_3v3_mech_action", _skirmish(3), seed=2, depth=2, kinds=("mech_action",)),
    Recipe("skirmish_5v5_group_order", _skirmish(5), seed=3, depth=3),
    Recipe("skirmish_5v5_mech_action", _skirmish(5), seed=3, depth=2, kinds=("mech_action",)),
    Recipe(
        "skirmish_3v3_stars_bump_mech_action",
        _skirmish(3, stars=2, options=BattleOptions(unseen_bases="bump")),
        seed=4,
        depth=3,
        kinds=("mech_action",),
    ),
    Recipe(
        "reaction_free_move",
        _skirmish(3, blue=Faction.FREE_COMPANY, red=Faction.PDF),
        seed=5,
        depth=2,
        kinds=("free_move", "free_will", "charge_target"),
    ),
    Recipe(
        "melee_declare",
        _skirmish(2),
        seed=2,
        depth=3,
        kinds=("melee_declare", "melee_target"),
        prefer=("Charge", "DeclareMelee", "FightMech"),
    ),
    Recipe("assign_fire", _skirmish(2), seed=8, depth=3, kinds=("assign_fire",)),
    Recipe("patrol_lead_teams", _mission("patrol_star_army_vs_hishen"), seed=9, depth=3),
    Recipe(
        "defend_mech_action",
        _mission("defend_pdf_vs_hishen"),
        seed=10,
        depth=2,
        kinds=("mech_action",),
    ),  # fmt: skip
)
"""The fixed positions of ``tests/golden/nq_perft.json``."""


def build_position(recipe: Recipe, backend: Backend = PYTHON) -> Position:
    """The position of ``recipe``: set up and walked by the reference, then ``backend.load``.

    Raises:
        LookupError: the prefix never reached one of the recipe's decision kinds.
    """
    dice = RandomDice.from_seed(10_000 + recipe.seed)
    battle = recipe.setup(np.random.default_rng(recipe.seed), dice)
    chooser = np.random.default_rng(20_000 + recipe.seed)
    found = 0
    for _ in range(recipe.max_prefix):
        decision = battle.decision
        if battle.over or decision is None:
            break
        if not recipe.kinds or decision.kind.value in recipe.kinds:
            if found == recipe.skip:
                faces = np.random.default_rng(recipe.script_seed or recipe.seed)
                script = tuple(int(f) for f in faces.integers(1, 7, size=SCRIPT_FACES))
                loaded = backend.load(PYTHON.dump(battle))
                return Position(loaded, CursorDice(script))
            found += 1
        options = game.legal_actions(battle)
        liked = [a for a in options if type(a).__name__ in recipe.prefer] or options
        game.play(battle, liked[int(chooser.integers(len(liked)))], dice)
    raise LookupError(f"{recipe.name}: no {recipe.kinds} decision within {recipe.max_prefix}")


def position_digest(position: Position, backend: Backend = PYTHON) -> str:
    """SHA-256 of the position's battle JSON (tells a set-up change from a rules change)."""
    text = json.dumps(backend.dump(position.battle), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def record(recipe: Recipe, backend: Backend = PYTHON) -> dict[str, Any]:
    """The committed record of one position: its digest, decision and perft counts."""
    position = build_position(recipe, backend)
    decision = backend.dump(position.battle)["decision"]  # any backend's battle: its JSON
    count = perft(position, recipe.depth, backend)
    return {
        "position": position_digest(position, backend),
        "decision": None if decision is None else [decision["side"], decision["kind"]],
        "depth": recipe.depth,
        **count.to_dict(),
    }
