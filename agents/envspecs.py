"""Named environment set-ups for training and evaluation (No Quarter mirror forces).

The No Quarter envs accept a ``battle_factory`` hook (``(setup_rng, dice) -> Battle``).
:class:`MirrorSkirmish` is such a factory: both sides field the *same* pre-generated designs
of one faction, so that a win measures play, not the luck of the force draw. It is a frozen
dataclass (picklable, so it travels to ``SubprocVecEnv`` workers) and YAML presets name it as
``"wargym.agents.envspecs:mirror_skirmish"``; :func:`resolve_callables` turns such strings
into objects.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.rules.dice import Dice
from wargym.rules.no_quarter.data import RulesOptions, load_rules
from wargym.rules.no_quarter.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.state import Battle, BattleOptions
from wargym.rules.no_quarter.terrain import generate_battlefield
from wargym.rules.no_quarter.vocab import Faction, Side

CALLABLE_KEYS = ("battle_factory", "advisor")
"""Env keyword arguments whose string values name a ``module:attribute`` object."""


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


def resolve(spec: str) -> Any:
    """The object ``"package.module:attribute"`` names.

    Raises:
        ValueError: ``spec`` is not of that form or names nothing.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"expected 'module:attribute', got {spec!r}")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot resolve {spec!r}: {exc}") from exc


def resolve_callables(env_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``env_kwargs`` with the :data:`CALLABLE_KEYS` strings resolved."""
    out = dict(env_kwargs)
    for key in CALLABLE_KEYS:
        if isinstance(out.get(key), str):
            out[key] = resolve(out[key])
    return out
