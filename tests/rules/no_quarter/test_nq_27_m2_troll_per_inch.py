"""The Troll is tested the moment a player mech has LOS to the bridge (§27.8 2.0.6, §20.3).

Mission 2: "the first time any Star Army Mech has LOS to the bridge" — checked along a move,
every inch (as PEFs are, E17), so the move stops at the inch where that LOS first exists and
the test is rolled there; and (the digest's ruling) again at the start of each later player
activation in which a player mech has that LOS.
"""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice, ScriptedDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import ActivateGroup, DecisionKind, Move
from wargym.rules.no_quarter.battle.game import legal_actions, play
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.cestus.cestus_play import troll_due_at
from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.non_player.np_events import NpTableRolled

HIDDEN = [(x + 0.75, y + 0.5) for y in range(9, 18) for x in range(0, 7)]
"""West of the hill and in the woods of section 4: no LOS to the bridge from there."""


def _mission_2(seeing: tuple[float, float] | None = None) -> Battle:
    """Mission 2 before the first activation, every player mech where it cannot see the bridge
    (the first at ``seeing`` if given)."""
    mission = campaign_definition().mission(2)
    battle = new_mission(
        mission.scenario("gaea_prime"), np.random.default_rng(1), RandomDice.from_seed(1)
    )
    mechs = battle.mechs_of(Side.BLUE)
    spots = [p for p in HIDDEN if not troll_due_at(battle, mechs[0].id, p)]
    assert len(spots) >= len(mechs)
    for mech, spot in zip(mechs, spots, strict=False):
        mech.pos = spot
    if seeing is not None:
        mechs[0].pos = seeing
    battle.geometry_cache = battle.options_cache = None
    return battle


def _until(battle: Battle, kind: DecisionKind, dice: RandomDice) -> None:
    """Play the first legal action until the player faces a decision of ``kind``."""
    while not (
        battle.decision is not None
        and battle.decision.kind is kind
        and battle.decision.side is Side.BLUE
    ):
        play(battle, legal_actions(battle)[0], dice)


def _troll(events: list[Event]) -> list[NpTableRolled]:
    return [e for e in events if isinstance(e, NpTableRolled) and e.table == "troll"]


def test_27_m2_troll_tested_at_the_inch_where_los_to_the_bridge_first_exists() -> None:
    battle = _mission_2()
    dice = RandomDice.from_seed(2)
    _until(battle, DecisionKind.MECH_ACTION, dice)
    assert not battle.mission or not battle.mission["troll"].get("tested")  # none saw it yet
    mover = battle.decision.mech if battle.decision is not None else None
    assert mover is not None
    battle.mechs[mover].pos, battle.mechs[mover].heading = (14.5, 1.5), 0.0
    battle.geometry_cache = battle.options_cache = None
    first = next(x for x in range(15, 21) if troll_due_at(battle, mover, (x + 0.5, 1.5)))
    assert first + 0.5 < 20.5  # LOS begins inside the move east along the south edge
    events = play(battle, Move(mover, (20.5, 1.5)), ScriptedDice([5] * 60))
    moved = next(e for e in events if isinstance(e, ev.MechMoved))
    assert moved.path[-1] == (first + 0.5, 1.5)  # the move stops where LOS first exists
    rolled = _troll(events)
    assert [e.faces for e in rolled] == [(5,)]  # 5: nothing visible (2.0.6)
    assert events.index(rolled[0]) > events.index(moved)
    assert battle.decision is not None and battle.decision.kind is DecisionKind.CONTINUE_MOVE


def test_27_m2_troll_tested_at_the_start_of_each_player_activation_with_los() -> None:
    battle = _mission_2(seeing=(27.0, 14.0))  # one player mech looks up the road at the bridge
    dice = RandomDice.from_seed(2)
    _until(battle, DecisionKind.ACTIVATE_GROUP, dice)
    activate = next(a for a in legal_actions(battle) if isinstance(a, ActivateGroup))
    events = play(battle, activate, FallbackDice([6], np.random.default_rng(4)))
    started = next(i for i, e in enumerate(events) if isinstance(e, ev.GroupActivated))
    rolled = _troll(events)
    assert [e.faces for e in rolled] == [(6,)]  # at the activation's start: nothing (2.0.6)
    assert events.index(rolled[0]) > started
    later = play(battle, legal_actions(battle)[0], dice)
    while not (
        battle.decision is not None
        and battle.decision.kind is DecisionKind.ACTIVATE_GROUP
        and battle.decision.side is Side.BLUE
    ):
        later += play(battle, legal_actions(battle)[0], dice)
    assert not _troll(later)  # not again within that activation (nor at the NP's)
    activate = next(a for a in legal_actions(battle) if isinstance(a, ActivateGroup))
    events = play(battle, activate, FallbackDice([1], np.random.default_rng(5)))
    assert [e.faces for e in _troll(events)] == [(1,)]  # the next player activation: on the bridge
    assert battle.mission is not None and battle.mission["troll"]["done"]
