"""The action mask offers each (weapon type, target) once a round (§2.1, TR-R7; issue 19)."""

from __future__ import annotations

import numpy as np

from wargym.envs.starship_combat.encoding import ACTION_VERSION, default_codec
from wargym.rules.dice import FallbackDice
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.actions import Accelerate, DecisionKind, Fire, SetHeading


def test_2_1_tr_r7_mask_drops_a_target_once_ordered() -> None:
    codec = default_codec()
    state = game.new_battle("fleet")
    dice = FallbackDice([], np.random.default_rng(0))
    game.play(state, 0, SetHeading(0), dice)
    game.play(state, 0, Accelerate(0, 0), dice)
    d = game.decision(state, 0)
    assert d is not None and d.kind is DecisionKind.FIRE and d.weapon == "missile"

    def slot(j: int) -> slice:
        return slice(codec.fire0 + j * codec.batteries, codec.fire0 + (j + 1) * codec.batteries)

    mask = codec.mask(state, 0)
    assert mask[slot(0)].sum() == 10 and mask[slot(1)].sum() == 10
    game.play(state, 0, codec.decode(codec.fire0 + 1, state, 0) or Fire(3, 2), dice)  # 2 at slot 0
    d = game.decision(state, 0)
    assert d is not None and d.weapon == "missile"
    mask = codec.mask(state, 0)
    assert mask[slot(0)].sum() == 0 and mask[slot(1)].sum() == 8 and mask[codec.hold] == 1
    assert ACTION_VERSION == "sc-act-v1" and codec.n == 99
