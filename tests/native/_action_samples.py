"""Decision points of real games for the action and codec agreement tests.

The same set-ups as ``test_state_agreement.skirmish_states`` (its ``VARIANTS``, every
``BattleOptions`` choice, 1-5 mechs a side, Stars, every faction) and the shipped missions, but
each point hands over the live reference battle with the legal options the game was played
from, so no ``Battle.from_dict`` is paid per state. Consume a point before asking for the next:
the battle moves on.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission

sys.path.insert(0, str(Path(__file__).parent))
from test_state_agreement import FACTIONS, VARIANTS  # noqa: E402

GAMES = int(os.environ.get("WARGYM_ACTION_GAMES", str(len(VARIANTS))))
"""Skirmishes played (default: one per option variant)."""
MAX_DECISIONS = int(os.environ.get("WARGYM_ACTION_DECISIONS", "40"))
"""Decisions played per skirmish at most."""
MISSIONS = ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen")

Point = tuple[str, Battle, list[Action]]


def skirmish_points(games: int = GAMES, seed: int = 0) -> Iterator[Point]:
    """(label, battle, legal options) at every decision of ``games`` random skirmishes."""
    for g in range(games):
        options = VARIANTS[g % len(VARIANTS)]
        per_side = 1 + g % 5
        stars = g % (per_side + 1)
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, blue=blue, red=red, mechs_per_side=per_side,
                              stars=stars, options=options)  # fmt: skip
        for step in range(MAX_DECISIONS):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            yield f"game {g} ({per_side} a side) decision {step}", battle, legal
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def mission_points(seed: int = 0, steps: int = 40) -> Iterator[Point]:
    """(label, battle, legal options) at the first ``steps`` decisions of the shipped missions."""
    for name in MISSIONS:
        rng = np.random.default_rng(seed)
        dice = RandomDice.from_seed(seed)
        battle = new_mission(name, rng, dice)
        for step in range(steps):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            yield f"{name} decision {step}", battle, legal
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)
