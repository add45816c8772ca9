"""Games that reach the REACT, CHARGE, MELEE and CHARGES frames often (for the native flow tests).

Random skirmishes rarely charge: here each skirmish (every option variant in turn, 1-3 mechs a
side, Stars, every faction) is played on an open battlefield with the two sides set 1.6-5.5" apart
facing each other, and some mechs' ranged weapons knocked out, so that charges (several at one
target among them), melees and the reaction tests they cause come up in a few decisions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
from _units import Game, option_variants

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle, new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain


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


WALL = Feature(Terrain.BUILDING, 14.0, 19.5, 17.0, 21.5, building_armor=3)


def several_chargers_games(games: int, seed: int = 0, decisions: int = 40) -> Iterator[Game]:
    """tests/rules/no_quarter/test_nq_18_2_1_several_chargers.py's position, random play.

    Blue #0 steps out from behind a building; both blue mechs (no working ranged weapon, Rep 5,
    one class: tied in §18.3.4's order) may charge red #2 after an In Sight, so the charges
    frame's choose_mech decision comes up. Options alternate between the default and
    ``several_chargers="one_by_one"``.
    """
    for g in range(games):
        options = BattleOptions() if g % 3 else BattleOptions(several_chargers="one_by_one")
        forces = [
            ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * 2, use_attributes=False),
            ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
        ]
        dice = RandomDice.from_seed(seed + g)
        battle = new_battle(
            forces, Battlefield(features=(WALL,)), np.random.default_rng(0), dice, options=options
        )
        for mech in battle.mechs.values():
            mech.rep = 5
            mech.pilot = dataclasses.replace(mech.pilot, rep=5)
        for mech, pos, heading in ((0, (15.0, 18.0), 90.0), (1, (21.0, 18.0), 90.0)):
            battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading
            battle.mechs[mech].inoperable.extend(battle.mechs[mech].operable_ranged_weapons)
        battle.mechs[2].pos, battle.mechs[2].heading = (18.0, 23.0), 270.0
        game.advance(battle, dice)
        rng = np.random.default_rng(seed + g)
        yield Game(f"several chargers {g} (seed {seed + g})", battle, dice, rng, decisions)
