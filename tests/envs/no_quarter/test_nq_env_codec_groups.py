"""Codec blocks of the group orders (E19): lead, lead_done (§12.2); split, keep_groups (§13.1)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.envs.base import EnvArgumentError
from wargym.envs.no_quarter.codec import ActionCodec
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    DecisionKind,
    KeepGroups,
    LeadDone,
    LeadTeam,
    SplitOff,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side

CODEC = ActionCodec(max_mechs=9)


def _platoon(first: Side) -> Battle:
    """A Platoon of 9 on ``first``'s side; Team 3-5 in the Platoon Leader's radius."""
    other = first.other
    forces = [
        ForceSpec(first, Faction.STAR_ARMY, ("star_army_c3",) * 9, use_attributes=False),
        ForceSpec(other, Faction.HISHEN, ("hishen_c3",), use_attributes=False),
    ]
    forces.sort(key=lambda f: f.side is not Side.BLUE)
    battle = new_battle(
        forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0), BattleOptions()
    )
    own = [m for m in battle.mechs.values() if m.side is first]
    for i, mech in enumerate(own):
        mech.pos = ((4.0, 10.0, 24.0)[i // 3], 30.0 - 2.0 * (i % 3))
        mech.rep = 4
        mech.pilot = dataclasses.replace(mech.pilot, rep=4)
    for mech in battle.mechs.values():
        if mech.side is other:
            mech.pos = (30.0, 4.0)
    dice = [4, 3] if first is Side.BLUE else [3, 4]
    game.advance(battle, ScriptedDice(dice))
    return battle


def _check_exact(battle: Battle) -> None:
    options = game.legal_actions(battle)
    mask = CODEC.mask(battle)
    assert int(mask.sum()) == len(options) and CODEC.collisions(battle) == 0
    for action in options:
        index = CODEC.encode(action, battle)
        assert mask[index] == 1 and CODEC.decode(index, battle) == action
    for index in range(CODEC.n):
        try:
            decoded = CODEC.decode(index, battle)
        except ValueError:
            assert mask[index] == 0
            continue
        assert (decoded in options) == bool(mask[index]), (index, CODEC.block_of(index))


def test_13_1_codec_lead_and_split_blocks_are_exact_for_both_viewers() -> None:
    for side in (Side.BLUE, Side.RED):
        battle = _platoon(side)
        decision = game.decider(battle)
        assert decision is not None and decision.kind is DecisionKind.LEAD_TEAMS
        leader = decision.mech
        assert leader is not None
        options = game.legal_actions(battle)
        assert options[-1] == LeadDone(leader) and len(options) == 2
        take = options[0]
        assert isinstance(take, LeadTeam)
        _check_exact(battle)
        assert CODEC.block_of(CODEC.encode(take, battle))[0] == "lead"
        assert CODEC.block_of(CODEC.encode(LeadDone(leader), battle)) == ("lead_done", 0)
        game.play(battle, take, ScriptedDice([]))
        assert game.decider(battle).kind is DecisionKind.SPLIT_GROUP  # type: ignore[union-attr]
        _check_exact(battle)
        own = sorted(i for i, m in battle.mechs.items() if m.side is side)
        assert CODEC.block_of(CODEC.encode(SplitOff(own[4]), battle)) == ("split", 4)
        assert CODEC.block_of(CODEC.encode(KeepGroups(), battle)) == ("keep_groups", 0)


def test_13_1_codec_blocks_come_last_in_the_layout() -> None:
    names = list(CODEC.sizes)
    at = names.index("lead")
    assert names[at : at + 4] == ["lead", "lead_done", "split", "keep_groups"]
    assert CODEC.sizes["lead"] == CODEC.sizes["split"] == CODEC.max_mechs


def test_13_1_envs_refuse_an_unknown_group_option() -> None:
    for options, name in (
        ({"group_splits": "maybe"}, "group_splits"),
        ({"command_groups": 3}, "command_groups"),
    ):
        with pytest.raises(EnvArgumentError, match=f"battle_options.{name}"):
            NoQuarterSkirmishEnv(battle_options=options)
