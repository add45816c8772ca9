"""Games that reach the REACT, CHARGE, MELEE and CHARGES frames often (for the native flow tests).

Random skirmishes rarely charge: here each skirmish (every option variant in turn, 1-3 mechs a
side, Stars, every faction) is played on an open battlefield with the two sides set 1.6-5.5" apart
facing each other, and some mechs' ranged weapons knocked out, so that charges (several at one
target among them), melees and the reaction tests they cause come up in a few decisions.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from _units import Game, option_variants

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction, Side


def close_games(games: int, seed: int = 0, decisions: int = 120) -> Iterator[Game]:
    """``games`` close-quarters skirmishes (module docstring), seeds ``seed``.."""
    variants, factions = option_variants(), list(Faction)
    for g in range(games):
        per_side = 1 + g % 3
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(
            rng, dice, blue=factions[g % len(factions)], red=factions[(g * 5 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1), options=variants[g % len(variants)],
            battlefield=Battlefield(features=()),
        )  # fmt: skip
        blues = [m for m in battle.mechs.values() if m.side is Side.BLUE]
        reds = [m for m in battle.mechs.values() if m.side is Side.RED]
        for i, m in enumerate(blues):
            m.pos, m.heading = (12.0 + 3.0 * i, 20.0), 90.0
            if (g + i) % 2 == 0:
                m.inoperable.extend(m.operable_ranged_weapons)
        for i, m in enumerate(reds):
            gap = (1.6, 2.4, 4.0, 5.5)[g % 4]
            m.pos, m.heading = (12.0 + 3.0 * i + (g % 3) * 0.7, 20.0 + gap), 270.0
            if (g + i) % 3 == 0:
                m.inoperable.extend(m.operable_ranged_weapons)
        yield Game(f"close {g} (seed {seed + g})", battle, dice, rng, decisions)
