"""The codec's ``face`` block (§6.2, §6.2.1, D2, D5): exact masks, round trips, mirroring.

Slots: ``(1 + 8 headings) x 3 twists``: slot ``h * 3 + t``, ``h = 0`` keeps the heading,
``h = 1 + k`` faces ``45 k`` degrees in the viewer's frame, ``t`` indexes the twists (0, -90, +90).
Also an env smoke: seeded random games of the skirmish and a mission env run to their end
with the mask exactly the legal set at every step, ``face`` decisions included.
"""

from __future__ import annotations

import contextlib
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.no_quarter.codec import ActionCodec
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Decision, DecisionKind, Face
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.perception import TWISTS

CODEC = ActionCodec(max_mechs=3)


def _to_face(seed: int) -> Battle:
    """A skirmish played at random until some mech's side must choose its facing."""
    rng = np.random.default_rng(seed)
    battle = new_skirmish(rng, RandomDice.from_seed(seed), mechs_per_side=3)
    while not battle.over:
        assert battle.decision is not None
        if battle.decision.kind is DecisionKind.FACE:
            return battle
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], RandomDice(rng))
    raise AssertionError(f"seed {seed}: no face decision in a whole battle")


def _exact(codec: ActionCodec, battle: Battle) -> None:
    options = game.legal_actions(battle)
    mask = codec.mask(battle)
    indices = [codec.encode(o, battle) for o in options]
    assert len(set(indices)) == len(indices) == int(mask.sum())
    for option, index in zip(options, indices, strict=True):
        assert codec.decode(index, battle) == option
    for index in np.flatnonzero(mask == 0):
        with contextlib.suppress(ValueError):  # an empty slot names nothing
            assert codec.decode(int(index), battle) not in options


def test_nq_codec_face_block_is_exact_and_round_trips() -> None:
    assert CODEC.sizes["face"] == 9 * len(TWISTS)
    for seed in (0, 1, 2):
        battle = _to_face(seed)
        _exact(CODEC, battle)
        assert battle.decision is not None
        for index in np.flatnonzero(CODEC.mask(battle)):
            assert CODEC.block_of(int(index))[0] == "face"


def test_nq_codec_face_slots_keep_twist_and_mirror_red_headings() -> None:
    battle = _to_face(0)
    red = next(m for m in battle.mechs.values() if m.side is Side.RED)
    blue = next(m for m in battle.mechs.values() if m.side is Side.BLUE)
    start = CODEC.offsets["face"]
    battle.decision = Decision(Side.BLUE, DecisionKind.FACE, blue.id)
    assert CODEC.encode(Face(blue.id, None, 0), battle) == start
    assert CODEC.encode(Face(blue.id, None, 90), battle) == start + 2
    assert CODEC.encode(Face(blue.id, 90.0, -90), battle) == start + (1 + 2) * 3 + 1
    battle.decision = Decision(Side.RED, DecisionKind.FACE, red.id)
    # red sees the table turned by 180 degrees: its "north" (slot of 90) is the engine's south
    assert CODEC.encode(Face(red.id, 270.0, 0), battle) == start + (1 + 2) * 3
    assert CODEC._nominal(start + (1 + 2) * 3, battle) == Face(red.id, 270.0, 0)
    with pytest.raises(ValueError, match="twist"):
        CODEC.encode(Face(red.id, None, 45), battle)


def _run_masked(env: Any, seed: int) -> int:
    """Play ``env`` to its end at random; every mask equals the legal set. Face decisions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    faces = 0
    for _ in range(5000):
        inner = env.unwrapped
        battle, codec = inner.battle, inner.codec
        mask = inner.action_masks()
        legal = {codec.encode(o, battle) for o in game.legal_actions(battle)}
        assert set(np.flatnonzero(mask)) == legal
        faces += battle.decision is not None and battle.decision.kind is DecisionKind.FACE
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            return faces
    raise AssertionError("the game did not end")


def test_nq_env_smoke_skirmish_and_patrol_play_to_the_end_with_face_decisions() -> None:
    faces = 0
    for seed in (3, 4):
        env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", max_turns=3, mechs_per_side=2)
        faces += _run_masked(env, seed)
    patrol = gymnasium.make("wargym/NoQuarter-Patrol-v1", max_turns=3, max_mechs=12)
    faces += _run_masked(patrol, 5)
    assert faces > 0
