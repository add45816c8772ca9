"""Reference battles sampled from random skirmishes and missions, for the perception tests.

The set-ups are those of ``test_state_agreement.skirmish_states`` (every ``BattleOptions``
choice of ``option_variants()``, 1-5 mechs a side, Stars, every faction), played shorter and
sampled every few decisions so that the CI tests stay fast; ``WARGYM_PERCEPTION_GAMES``
plays more games (each variant several times, with other seeds) for a longer sweep.
Each sample is read back with ``Battle.from_dict`` (no cache carried over), with its native
inputs (``PerceptionInputs``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np
from test_state_agreement import FACTIONS, VARIANTS

from wargym.native.no_quarter.perception import PerceptionInputs
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission

GAMES = int(os.environ.get("WARGYM_PERCEPTION_GAMES", str(len(VARIANTS))))
"""Games played (default: each option variant once)."""
DECISIONS = 60
STRIDE = 8


@dataclass
class Sample:
    label: str
    battle: Battle
    """The reference battle (read back from its document: empty caches)."""
    native: PerceptionInputs
    after: Battle | None = None
    """The live reference battle one decision on (for comparing what a choice did), or None."""


def sample(label: str, battle: Battle) -> Sample:
    fresh = Battle.from_dict(battle.to_dict())
    return Sample(label, fresh, PerceptionInputs.of(fresh))


def _play(label: str, battle: Battle, rng: np.random.Generator, dice: RandomDice,
          decisions: int, stride: int, every_group_order: bool) -> Iterator[Sample]:  # fmt: skip
    for step in range(decisions):
        if battle.over:
            return
        legal = game.legal_actions(battle)
        pending = battle.decision.kind.value if battle.decision is not None else ""
        if step % stride == 0 or (every_group_order and pending in ("lead_teams", "split_group")):
            yield sample(f"{label} decision {step}", battle)
        game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def skirmish_samples(
    games: int = GAMES,
    *,
    variants: list[BattleOptions] | None = None,
    decisions: int = DECISIONS,
    stride: int = STRIDE,
    every_group_order: bool = False,
    seed: int = 0,
    sizes: tuple[int, ...] = (1, 2, 3, 4, 5),
) -> Iterator[Sample]:
    """Samples of ``games`` skirmishes, the set-up of game ``g`` as in ``skirmish_states``.

    ``sizes``: mechs a side, game after game (the default is ``skirmish_states``'s).
    """
    chosen = VARIANTS if variants is None else variants
    for g in range(games):
        options = chosen[g % len(chosen)]
        per_side = sizes[g % len(sizes)]
        stars = g % (per_side + 1)
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, blue=blue, red=red, mechs_per_side=per_side,
                              stars=stars, options=options)  # fmt: skip
        label = f"game {g} ({per_side} a side, {stars} stars, variant {g % len(chosen)})"
        yield from _play(label, battle, rng, dice, decisions, stride, every_group_order)


def mission_samples(decisions: int = 20, stride: int = 5, seed: int = 0) -> Iterator[Sample]:
    """Samples of the shipped missions (PEFs, NP groups, mission bookkeeping)."""
    for name in ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen"):
        rng = np.random.default_rng(seed)
        dice = RandomDice.from_seed(seed)
        yield from _play(name, new_mission(name, rng, dice), rng, dice, decisions, stride, False)


@cache
def shared_skirmish_samples() -> tuple[Sample, ...]:
    """:func:`skirmish_samples` with the defaults, played once per test session.

    Tests must not change them (copy a battle before a call that writes, as new_sightings).
    """
    return tuple(skirmish_samples())
