"""Ruling E5: moves planned around the bases a side can see (``unseen_bases``).

A Star Army mech faces north just above a strip of woods; a Hishen mech stands just below the
strip, where no blue mech can see it (a wood that holds neither centre blocks the line). The
blue mech's reverse (south, a quarter of its Speed) runs into the hidden base.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import FreeMove, Move
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.flow_mech import _moves, mech_frame
from wargym.rules.no_quarter.battle.flow_move import walk
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain
from wargym.rules.no_quarter.sight_movement.bumping import (
    BUMP_GAP,
    bump,
    enemies_in_sight,
    known_bodies,
    planning_bodies,
)
from wargym.rules.no_quarter.sight_movement.geometry import distance

BLUE_AT = (10.0, 13.0)
HIDDEN = (10.0, 10.0)
"""Behind the woods, on the blue mech's reverse line."""
ELSEWHERE = (20.0, 9.8)
"""Also behind the woods, out of every path of the blue mech."""


def _battle(unseen_bases: str, red_at: tuple[float, float] = HIDDEN) -> Battle:
    field = Battlefield(features=(Feature(Terrain.WOODS, 0.0, 10.6, 36.0, 11.4),))
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",)),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",)),
    ]
    options = BattleOptions(unseen_bases=unseen_bases)  # type: ignore[arg-type]
    battle = new_battle(forces, field, np.random.default_rng(1), RandomDice.from_seed(1), options)
    blue, red = battle.mechs[0], battle.mechs[1]
    blue.pos, blue.heading = BLUE_AT, 90.0
    red.pos, red.heading = red_at, 90.0
    battle.geometry_cache = battle.options_cache = None
    return battle


def _reverses(battle: Battle) -> list[Move]:
    return [
        m
        for m in _moves(battle, battle.mechs[0], mech_frame(0))
        if isinstance(m, Move) and m.reverse
    ]


def _hits_hidden(battle: Battle, move: Move) -> bool:
    return bump(battle, battle.mechs[0], move.to) is not None


def test_e5_the_hidden_mech_is_out_of_blue_sight() -> None:
    battle = _battle("bump")
    assert enemies_in_sight(battle, Side.BLUE) == frozenset()
    assert enemies_in_sight(battle, Side.RED) == frozenset()
    assert [b.id for b in known_bodies(battle, Side.BLUE)] == [0]
    assert [b.id for b in planning_bodies(battle, battle.mechs[0])] == []


def test_e5_block_every_base_limits_the_options() -> None:
    """The tabletop default: the hidden base removes the reverse that would run into it."""
    blocked, elsewhere = _battle("block"), _battle("block", ELSEWHERE)
    assert [b.id for b in known_bodies(blocked, Side.BLUE)] == [0, 1]
    assert len(_reverses(blocked)) < len(_reverses(elsewhere))
    assert bump(blocked, blocked.mechs[0], _reverses(elsewhere)[0].to) is None  # never bumps


def test_e5_bump_options_do_not_depend_on_unseen_bases() -> None:
    here, elsewhere = _battle("bump"), _battle("bump", ELSEWHERE)
    moves = _moves(here, here.mechs[0], mech_frame(0))
    assert moves == _moves(elsewhere, elsewhere.mechs[0], mech_frame(0))
    assert any(_hits_hidden(here, m) for m in _reverses(here))


def test_e5_a_reverse_into_an_unseen_base_stops_just_short() -> None:
    battle = _battle("bump")
    move = next(m for m in _reverses(battle) if _hits_hidden(battle, m))
    ctx = Ctx(battle, RandomDice.from_seed(0), load_rules(battle.options.rules))
    spent, interrupted = walk(ctx, battle.mechs[0], move.to, 90.0, "reverse")
    moved, blocked = ctx.log
    assert isinstance(moved, ev.MechMoved) and isinstance(blocked, ev.MoveBlocked)
    assert (blocked.mech, blocked.blocker, blocked.planned) == (0, 1, move.to)
    assert blocked.at == moved.path[-1] == battle.mechs[0].pos
    gap = distance(battle.mechs[0].pos, HIDDEN)
    assert 2 * battle.options.base_radius < gap <= 2 * battle.options.base_radius + BUMP_GAP
    assert distance(BLUE_AT, blocked.at) < distance(BLUE_AT, move.to)
    assert not interrupted and spent == pytest.approx(moved.cost)


def test_e5_a_jump_onto_an_unseen_base_lands_short_on_its_line() -> None:
    battle = _battle("bump")
    blue = battle.mechs[0]
    target = (HIDDEN[0], HIDDEN[1] + 0.2)  # on the hidden base
    stop = bump(battle, blue, target, jump=True)
    assert stop is not None and stop[1] == 1
    landing = stop[0]
    assert distance(landing, HIDDEN) >= 2 * battle.options.base_radius
    assert landing[0] == pytest.approx(BLUE_AT[0]) and HIDDEN[1] < landing[1] < BLUE_AT[1]
    assert bump(battle, blue, (BLUE_AT[0], 12.0), jump=True) is None  # a free landing


def test_e5_a_free_move_into_an_unseen_base_stops_short() -> None:
    from wargym.rules.no_quarter.battle.flow_move import insight_act

    battle = _battle("bump")
    battle.mechs[0].pos = (10.0, 11.9)  # in the wood's edge band: still no line (a band)
    battle.geometry_cache = None
    frame: dict[str, Any] = {"kind": "insight", "free": [0]}
    ctx = Ctx(battle, RandomDice.from_seed(0), load_rules(battle.options.rules))
    assert not enemies_in_sight(battle, Side.BLUE)  # the hidden mech stays unseen
    insight_act(ctx, frame, FreeMove(0, (10.0, 10.4)))
    assert [type(e) for e in ctx.log] == [ev.MechMoved, ev.MoveBlocked]
    assert distance(battle.mechs[0].pos, HIDDEN) > 2 * battle.options.base_radius


def test_e5_block_is_the_engine_default_and_round_trips() -> None:
    assert BattleOptions().unseen_bases == "block"
    battle = _battle("bump")
    again = Battle.from_dict(battle.to_dict())
    assert again.options.unseen_bases == "bump"
    data = battle.to_dict()
    data["options"]["unseen_bases"] = "sometimes"
    with pytest.raises(StateError, match="unseen_bases"):
        Battle.from_dict(data)
