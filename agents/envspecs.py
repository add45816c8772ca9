"""Named environment set-ups for training and evaluation (No Quarter mirror forces).

The No Quarter envs accept a ``battle_factory`` hook (``(setup_rng, dice) -> Battle``).
:class:`MirrorSkirmish` is such a factory: both sides field the *same* pre-generated designs
of one faction, so that a win measures play, not the luck of the force draw. It is a frozen
dataclass (picklable, so it travels to ``SubprocVecEnv`` workers) and YAML presets, model
cards and sidecars name it ``"mirror_skirmish"``: an entry point of
:mod:`wargym.agents.entry_points`, whose :func:`resolve_callables` turns such names into
objects (never importing a module a file names). :data:`NAMED_OBJECTS` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.agents.entry_points import (
    CALLABLE_KEYS,
    ENTRY_POINTS,
    Allow,
    EntryPointError,
    canonical_name,
    resolve_callables,
    resolve_entry_point,
)
from wargym.rules.dice import Dice
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import generate_battlefield
from wargym.rules.no_quarter.forces.data import RulesOptions, load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side

__all__ = [
    "CALLABLE_KEYS",
    "EntryPointError",
    "MirrorSkirmish",
    "mirror_skirmish",
    "resolve",
    "resolve_callables",
]


@dataclass(frozen=True)
class MirrorSkirmish:
    """Battle factory: both sides field the same random designs of ``faction``.

    The set-up generator draws the battlefield, then ``mechs_per_side`` designs of the
    faction's pool; blue and red get that same tuple (pilots are rolled separately with the
    dice, as in any battle). ``max_turns`` is the battle's turn limit (the env's own
    ``max_turns`` is not passed to factories, so keep both equal).
    """

    faction: str = "star_army"
    """Faction of both sides (``vocab.Faction`` value)."""
    mechs_per_side: int = 3
    """Mechs per side (a Team is three)."""
    max_turns: int = 20
    """Turn limit of the battle (ruling D37: a draw when reached)."""

    def __call__(self, setup_rng: np.random.Generator, dice: Dice) -> Battle:
        """A new battle, not yet advanced to its first decision."""
        options = BattleOptions(max_turns=self.max_turns, rules=RulesOptions())
        rules = load_rules(options.rules)
        field = generate_battlefield(setup_rng)
        faction = Faction(self.faction)
        pool = [d.id for d in rules.mechs_of(faction)]
        picks = setup_rng.integers(0, len(pool), size=self.mechs_per_side)
        designs = tuple(str(pool[int(i)]) for i in picks)
        forces = [ForceSpec(Side.BLUE, faction, designs), ForceSpec(Side.RED, faction, designs)]
        return new_battle(forces, field, setup_rng, dice, options)


mirror_skirmish = MirrorSkirmish()
"""The default mirror factory: three Star Army mechs a side, 20 turns."""


def resolve(spec: str, allow: Allow | None = None) -> Any:
    """The object an entry-point name (or a legacy ``"wargym...:attr"`` path) stands for.

    Only :data:`~wargym.agents.entry_points.ENTRY_POINTS` and the caller's ``allow``
    (``{name: object}``) are searched; no module named by ``spec`` is imported.

    Raises:
        EntryPointError: (a ``ValueError``) ``spec`` names no entry point.
    """
    for key, names in ENTRY_POINTS.items():
        try:
            name = canonical_name(key, spec, allow)
        except EntryPointError:
            continue
        if name in names or (allow is not None and name in allow):
            return resolve_entry_point(key, name, allow)
    known = sorted({n for names in ENTRY_POINTS.values() for n in names} | set(allow or {}))
    raise EntryPointError("entry point", spec, f"not registered (known: {known})")


def __getattr__(name: str) -> Any:
    if name == "NAMED_OBJECTS":  # built on first use (resolving imports the advisor module)
        return {n: resolve_entry_point(k, n) for k, names in ENTRY_POINTS.items() for n in names}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
