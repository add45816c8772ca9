"""Golden traces of every No Quarter scenario, skirmish set-up and battle option (issue 16, item 5).

``tests/golden/nq_golden.json.gz`` (skirmishes of 3 a side and the five missions),
``nq_missions.json`` and ``nq_cestus_v.json`` leave out the ``skirmish`` scenario file, the
other skirmish sizes and faction pairs, Stars, and every ``BattleOptions`` /
``RulesOptions`` choice but the defaults. :data:`TRACES` names one game for each; the
records are in ``tests/golden/nq_scenarios.json`` (``test_nq_scenario_traces.py``).

A game: the reference sets the battle up (``new_skirmish`` or ``new_mission``, seeded), the
battle is handed to the backend through its ``Battle`` JSON, and seeded random legal
decisions are played with a fixed d6 script (:class:`perft.CursorDice`), so a backend that
rolls scripted faces in the reference's order plays the same game. Every option list
(``action_to_dict`` JSON) and every event (``to_dict`` JSON) is hashed; a record holds the
start position's digest, the decision count, whether the battle ended, and one hash per
:data:`CHUNK` decisions (the first differing chunk brackets a divergence).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.mission.scenario import scenario_names

sys.path.insert(0, str(Path(__file__).resolve().parent))  # perft.py, next to this file
from perft import PYTHON, Backend, CursorDice, options_json  # noqa: E402

CHUNK = 25
SCRIPT_FACES = 40_000
"""Faces of a game's dice script (a long game rolls a few thousand)."""

Setup = Callable[[np.random.Generator, RandomDice], Battle]


@dataclasses.dataclass(frozen=True)
class Trace:
    """One golden game: its key, set-up, seed and length."""

    key: str
    setup: Setup
    seed: int
    max_decisions: int = 300


def _skirmish(**kwargs: Any) -> Setup:
    def build(rng: np.random.Generator, dice: RandomDice) -> Battle:
        return new_skirmish(rng, dice, **kwargs)

    return build


def _mission(name: str) -> Setup:
    def build(rng: np.random.Generator, dice: RandomDice) -> Battle:
        return new_mission(name, rng, dice)

    return build


def option_variants() -> list[tuple[str, BattleOptions]]:
    """One ``BattleOptions`` per non-default choice of every Literal or bool field.

    Fields of ``RulesOptions`` too (as ``rules.<field>``); the numeric ones get one other
    value each (``base_radius``, ``move_directions``, ``move_fractions``). ``max_turns`` is
    left to the set-ups.
    """
    out: list[tuple[str, BattleOptions]] = []
    for cls, prefix in ((BattleOptions, ""), (RulesOptions, "rules.")):
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            if typing.get_origin(hint) is typing.Literal:
                values: tuple[Any, ...] = typing.get_args(hint)
            elif hint is bool:
                values = (False, True)
            else:
                continue
            for value in values:
                if value == f.default:
                    continue
                if prefix:
                    options = BattleOptions(rules=RulesOptions(**{f.name: value}))
                else:
                    options = BattleOptions(**{f.name: value})
                out.append((f"{prefix}{f.name}={value}", options))
    numeric = {"base_radius": 0.8, "move_directions": 8, "move_fractions": (0.5, 1.0)}
    for name, value in numeric.items():
        out.append((f"{name}={value}", BattleOptions(**{name: value})))
    return out


_FACTIONS = tuple(Faction)
FACTION_PAIRS = tuple((f, _FACTIONS[(k + 1) % len(_FACTIONS)]) for k, f in enumerate(_FACTIONS))
"""Each faction plays blue once and red once."""


def traces() -> list[Trace]:
    """Every golden game of ``nq_scenarios.json`` (module docstring)."""
    out = [Trace("scenario/skirmish/0", _mission("skirmish"), 0, 400)]
    out += [Trace(f"scenario/{name}/1", _mission(name), 1, 400) for name in scenario_names()]
    out += [
        Trace(f"setup/mechs_per_side={n}", _skirmish(mechs_per_side=n), 10 + n)
        for n in (1, 2, 3, 4, 5, 6)
    ]
    out += [
        Trace(f"setup/{blue.value}_vs_{red.value}", _skirmish(blue=blue, red=red), 20 + k)
        for k, (blue, red) in enumerate(FACTION_PAIRS)
    ]
    out += [Trace(f"setup/stars={s}", _skirmish(mechs_per_side=3, stars=s), 30 + s) for s in (1, 3)]
    out += [
        Trace(f"options/{name}", _skirmish(mechs_per_side=2, stars=1, options=o), 40 + k, 150)
        for k, (name, o) in enumerate(option_variants())
    ]
    return out


def _digest(h: Any, events: list[Any]) -> None:
    for event in events:
        h.update(json.dumps(event.to_dict(), sort_keys=True, default=repr).encode())
        h.update(b"\n")


def start_of(trace: Trace, backend: Backend = PYTHON) -> tuple[Any, CursorDice]:
    """The trace's set-up (by the reference) loaded into ``backend``, and its dice script."""
    battle = trace.setup(np.random.default_rng(trace.seed), RandomDice.from_seed(1000 + trace.seed))
    faces = np.random.default_rng(5000 + trace.seed).integers(1, 7, size=SCRIPT_FACES)
    return backend.load(PYTHON.dump(battle)), CursorDice(tuple(int(f) for f in faces))


def record(trace: Trace, backend: Backend = PYTHON) -> dict[str, Any]:
    """Play ``trace`` on ``backend``; its golden record (module docstring)."""
    battle, dice = start_of(trace, backend)
    start = json.dumps(backend.dump(battle), sort_keys=True, default=repr)
    chooser = np.random.default_rng(2000 + trace.seed)
    h = hashlib.sha256(start.encode())
    chunks: list[str] = []
    n = 0
    while n < trace.max_decisions:
        options = backend.legal_actions(battle)
        if not options:
            break
        h.update(options_json(options))
        _digest(h, backend.play(battle, options[int(chooser.integers(len(options)))], dice))
        n += 1
        if n % CHUNK == 0:
            chunks.append(h.hexdigest()[:16])
    chunks.append(h.hexdigest())
    return {
        "start": hashlib.sha256(start.encode()).hexdigest()[:16],
        "decisions": n,
        "over": bool(battle.over),
        "faces": dice.pos,
        "chunks": chunks,
    }
