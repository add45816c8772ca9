"""The flat action codec of the No Quarter envs: exact masks and round trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargym.envs.no_quarter.codec import WAIT, ActionCodec
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Move, Stay
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side

CODEC = ActionCodec(max_mechs=3)


def _battle_after(seed: int, steps: int, jump_jets: bool = False) -> Battle:
    rng = np.random.default_rng(seed)
    battle = new_skirmish(rng, RandomDice.from_seed(seed), mechs_per_side=3)
    for _ in range(steps):
        options = game.legal_actions(battle)
        if not options:
            break
        game.play(battle, options[int(rng.integers(len(options)))], RandomDice(rng))
    return battle


def _check_exact(codec: ActionCodec, battle: Battle) -> None:
    options = game.legal_actions(battle)
    mask = codec.mask(battle)
    indices = [codec.encode(a, battle) for a in options]
    assert int(mask.sum()) == len(set(indices))
    assert codec.collisions(battle) == len(options) - len(set(indices))
    for action, index in zip(options, indices, strict=True):
        assert mask[index] == 1
        assert codec.decode(index, battle) in options
        if indices.count(index) == 1:
            assert codec.decode(index, battle) == action
    for index in range(codec.n):
        try:
            decoded = codec.decode(index, battle)
        except ValueError:
            assert mask[index] == 0
            continue
        assert (decoded in options) == bool(mask[index]), (index, codec.block_of(index))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_nq_codec_mask_is_exactly_the_legal_set(seed: int, steps: int) -> None:
    battle = _battle_after(seed, steps)
    if battle.over:
        assert not CODEC.mask(battle).any()
        return
    _check_exact(CODEC, battle)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_nq_codec_no_collisions_over_a_whole_battle(seed: int) -> None:
    rng = np.random.default_rng(seed)
    battle = new_skirmish(rng, RandomDice.from_seed(seed), mechs_per_side=3)
    lost = 0
    while not battle.over:
        options = game.legal_actions(battle)
        lost += CODEC.collisions(battle)
        assert CODEC.mask(battle)[WAIT] == 0
        game.play(battle, options[int(rng.integers(len(options)))], RandomDice(rng))
    assert lost == 0


def test_nq_codec_size_is_fixed_by_the_configuration() -> None:
    assert ActionCodec(max_mechs=3).n == ActionCodec(max_mechs=3).n
    small = ActionCodec(max_mechs=3, battle_options=BattleOptions(move_directions=8))
    assert small.n < CODEC.n
    assert CODEC.block_of(0) == ("wait", 0)
    last = list(CODEC.sizes)[-1]  # blocks are appended at the end (docs/encodings.md)
    assert CODEC.block_of(CODEC.n - 1) == (last, CODEC.sizes[last] - 1)
    with pytest.raises(ValueError):
        CODEC.block_of(CODEC.n)


def test_nq_codec_red_directions_are_mirrored() -> None:
    battle = _battle_after(4, 0)
    mech = next(m for m in battle.mechs.values() if m.side is Side.RED)
    from wargym.rules.no_quarter.battle.actions import Decision, DecisionKind

    battle.decision = Decision(Side.RED, DecisionKind.MECH_ACTION, mech.id)
    east = CODEC.encode(Stay(mech.id, 0.0), battle)
    west = CODEC.encode(Stay(mech.id, 180.0), battle)
    assert CODEC.block_of(east) == ("stay", 5)  # east seen from red's side is its west
    assert CODEC.block_of(west) == ("stay", 1)
    x, y = mech.pos
    south = CODEC.encode(Move(mech.id, (x, y - 1.0)), battle)
    assert CODEC.block_of(south)[0] == "move"
    assert CODEC.block_of(south)[1] // len(CODEC.fractions) == 4  # red's "forward" is north


def test_nq_codec_wait_and_empty_slots_decode_to_errors() -> None:
    battle = _battle_after(1, 0)
    with pytest.raises(ValueError, match="wait"):
        CODEC.decode(WAIT, battle)
    with pytest.raises(ValueError, match="slot"):
        ActionCodec(max_mechs=6).decode(ActionCodec(max_mechs=6).offsets["activate"] + 5, battle)


def test_nq_codec_mission_actions_round_trip() -> None:
    from wargym.rules.no_quarter.battle.actions import (
        ChooseObjective,
        Decision,
        DecisionKind,
        ExitTable,
    )

    battle = _battle_after(2, 0)
    battle.decision = Decision(Side.BLUE, DecisionKind.CHOOSE_OBJECTIVE)
    index = CODEC.encode(ChooseObjective("break_through"), battle)
    assert CODEC.block_of(index) == ("objective", 1)
    assert CODEC.decode(index, battle) == ChooseObjective("break_through")
    red = next(m.id for m in battle.mechs.values() if m.side is Side.RED)
    battle.decision = Decision(Side.RED, DecisionKind.MECH_ACTION, red)
    index = CODEC.encode(ExitTable(red, "north"), battle)
    assert CODEC.block_of(index) == ("exit", 0)  # red's own edge is slot 0, as south is blue's
    assert CODEC.decode(index, battle) == ExitTable(red, "north")
