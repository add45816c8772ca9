"""Observation bounds when a side has more mechs than the encoder's slots (found by the fuzzer)."""

from __future__ import annotations

import numpy as np

from wargym.envs.no_quarter.encoding import ObservationEncoder, visible_enemies
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side


def test_globals_stay_in_the_box_with_more_mechs_than_slots() -> None:
    # A mission's reinforcements can give a side more mechs than ``max_mechs`` (the 1M-step
    # fuzz run of NoQuarter-Attack-v1 reached 41 mechs for 32 slots): the counts are capped.
    dice = RandomDice.from_seed(3)
    battle = new_skirmish(np.random.default_rng(3), dice, mechs_per_side=5)
    game.advance(battle, dice)
    encoder = ObservationEncoder(max_mechs=2, cell=4.0)
    rng = np.random.default_rng(3)
    crowded = 0
    for _ in range(300):
        if battle.over:
            break
        for viewer in (Side.BLUE, Side.RED):
            obs = encoder.encode(battle, viewer)
            assert isinstance(obs, np.ndarray)
            assert encoder.space.contains(obs), (float(obs.min()), float(obs.max()))
            crowded += len(visible_enemies(battle, viewer)) > 2
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    assert crowded > 0  # the capped case happened
