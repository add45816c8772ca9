"""Facing as the player's decision (§6.2, §6.2.1, §10.6.1, §15.2.2, rulings D2, D5, D28).

After a move (also one that stopped at an In Sight pause) and after a stay, the mover's side
answers a ``face`` decision: keep the leg heading or turn to one of 8 headings, with a torso
twist of -90, 0 or +90. A reverse and a jump keep the heading: only the twist is chosen.
``BattleOptions.choose_facing=False`` plays the old facing (travel direction, Stay turns).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Decision,
    DecisionKind,
    EndFire,
    Face,
    FreeMove,
    Move,
    Stay,
    action_from_dict,
    action_to_dict,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battle.validity import InvalidBattleError, check_battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain
from wargym.rules.no_quarter.non_player.enemy import NpContext, np_decide
from wargym.rules.no_quarter.sight_movement.facing import HEADINGS
from wargym.rules.no_quarter.sight_movement.perception import TWISTS, sees


def _battle(
    blue: str = "star_army_c3",
    *,
    faction: Faction = Faction.STAR_ARMY,
    field: Battlefield | None = None,
    options: BattleOptions | None = None,
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, faction, (blue,), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        field or Battlefield(),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        options=options or BattleOptions(),
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _dice() -> FallbackDice:
    return FallbackDice([5, 4], np.random.default_rng(6))


def _to_blue_action(battle: Battle, dice: FallbackDice) -> None:
    game.advance(battle, dice)
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MECH_ACTION:
        game.play(battle, game.legal_actions(battle)[0], dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.MECH_ACTION, 0)


def _faces(battle: Battle) -> list[Face]:
    options = game.legal_actions(battle)
    assert all(isinstance(o, Face) for o in options)
    return [o for o in options if isinstance(o, Face)]


def test_6_2_forward_move_ends_with_the_movers_choice_of_heading() -> None:
    battle = _battle()
    _place(battle, 0, (5.0, 5.0), 90.0)
    _place(battle, 1, (30.0, 30.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Move(0, (5.0, 9.0)), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    faces = _faces(battle)
    # keep (the direction of travel, 90) or any of the 7 other headings, each with 3 twists
    assert len(faces) == 3 * 8 and len(set(faces)) == len(faces)
    assert {f.heading for f in faces} == {None} | {h for h in HEADINGS if h != 90.0}
    assert {f.twist for f in faces} == set(TWISTS)
    events = game.play(battle, Face(0, 225.0, 0), dice)
    assert ev.MechFaced(0, 225.0, 0) in events
    assert battle.mechs[0].heading == 225.0 and battle.mechs[0].pos == (5.0, 9.0)
    assert battle.decision is None or battle.decision.kind is not DecisionKind.FACE


def test_6_2_1_stay_turns_and_twists_the_torso_and_the_twist_persists() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    options = game.legal_actions(battle)
    assert not any(isinstance(o, Stay) and o.heading is not None for o in options)
    game.play(battle, Stay(0), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    assert len(_faces(battle)) == 3 * 8  # heading 90 is one of the 8: "keep" stands for it
    events = game.play(battle, Face(0, 180.0, 90), dice)
    assert ev.MechFaced(0, 180.0, 90) in events
    mech = battle.mechs[0]
    assert (mech.heading, mech.twist, mech.facing) == (180.0, 90, 270.0)
    # the twist stays until changed (D2): it survives a save and the end of the activation
    again = Battle.from_dict(battle.to_dict())
    assert again.mechs[0].twist == 90
    keep = Face(0, None, 90)
    assert keep.heading is None and action_from_dict(action_to_dict(keep)) == keep


def test_6_2_1_twist_chosen_on_stay_changes_what_the_mech_sees() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)  # facing north
    _place(battle, 1, (20.0, 8.0), 90.0)  # east and a little south: outside the front arc
    dice = _dice()
    _to_blue_action(battle, dice)
    blue, red = battle.mechs[0], battle.mechs[1]
    assert not sees(battle, blue, red)
    game.play(battle, Stay(0), dice)
    game.play(battle, Face(0, None, -90), dice)  # the torso turns right, toward the east
    assert blue.heading == 90.0 and blue.twist == -90
    assert sees(battle, blue, red)


def test_10_6_1_jump_lands_facing_as_before_and_only_the_twist_is_chosen() -> None:
    battle = _battle("free_company_c3", faction=Faction.FREE_COMPANY)
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    assert battle.mechs[0].has_jump_jets
    game.play(battle, Move(0, (16.0, 10.0), jump=True), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    assert battle.mechs[0].heading == 90.0  # D28: the pre-jump heading
    assert _faces(battle) == [Face(0, None, t) for t in TWISTS]
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="faces 0 deg"):
        game.play(battle, Face(0, 0.0, 0), dice)
    assert battle.to_dict() == before
    game.play(battle, Face(0, None, 90), dice)
    assert (battle.mechs[0].heading, battle.mechs[0].twist) == (90.0, 90)


def test_15_2_2_reverse_keeps_the_facing_and_only_the_twist_is_chosen() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Move(0, (10.0, 8.0), reverse=True), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    assert _faces(battle) == [Face(0, None, t) for t in TWISTS]
    assert battle.mechs[0].heading == 90.0


def test_6_2_face_with_a_twist_that_is_no_twist_is_refused_and_changes_nothing() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Stay(0), dice)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="twisted \\+45"):
        game.play(battle, Face(0, None, 45), dice)
    assert battle.to_dict() == before


def test_6_2_face_decision_round_trips_and_is_a_valid_state() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Move(0, (14.0, 10.0)), dice)
    check_battle(battle)
    again = Battle.from_dict(battle.to_dict())
    assert again.decision == battle.decision
    assert game.legal_actions(again) == game.legal_actions(battle)


def test_6_2_stopping_after_an_in_sight_pause_chooses_the_final_heading() -> None:
    """A move paused by an In Sight (§16.1.2) and then stopped ends with a ``face`` decision."""
    wall = Feature(Terrain.BUILDING, 15.0, 14.0, 21.0, 16.0, building_armor=3)
    options = BattleOptions(in_sight_free_move=False)
    battle = _battle(field=Battlefield(features=(wall,)), options=options)
    _place(battle, 0, (18.0, 10.0), 180.0)
    _place(battle, 1, (18.0, 22.0), 270.0)
    for mech in battle.mechs.values():  # nobody can fire: every In Sight winner carries on
        mech.inoperable = list(range(len(mech.design.items)))
    dice = _dice()
    _to_blue_action(battle, dice)
    events = game.play(battle, Move(0, (8.0, 10.0)), dice)
    while battle.decision is not None and battle.decision.kind in (
        DecisionKind.FREE_MOVE,
        DecisionKind.ASSIGN_FIRE,
    ):
        option = game.legal_actions(battle)[0]
        assert isinstance(option, FreeMove | EndFire)
        events += game.play(battle, option, dice)
    assert any(isinstance(e, ev.InSightTaken) for e in events)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.CONTINUE_MOVE, 0)
    assert battle.mechs[0].pos != (18.0, 10.0) and battle.mechs[0].pos != (8.0, 10.0)
    game.play(battle, Stay(0), dice)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.FACE, 0)
    assert any(f.heading == 0.0 for f in _faces(battle))
    game.play(battle, Face(0, 0.0, 0), dice)
    assert battle.mechs[0].heading == 0.0


def test_6_2_choose_facing_off_plays_the_travel_direction_and_stay_turns() -> None:
    battle = _battle(options=BattleOptions(choose_facing=False))
    _place(battle, 0, (5.0, 5.0), 90.0)
    _place(battle, 1, (30.0, 30.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    options = game.legal_actions(battle)
    assert Stay(0, 180.0) in options and not any(isinstance(o, Face) for o in options)
    game.play(battle, Move(0, (9.0, 5.0)), dice)
    assert battle.mechs[0].heading == 0.0  # faces its direction of travel
    assert battle.decision is None or battle.decision.kind is not DecisionKind.FACE


def test_22_np_faces_the_nearest_enemy_it_knows_of() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (10.0, 2.0), 90.0)  # due south of blue, in its LOS
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Stay(0), dice)
    choice = np_decide(battle, game.legal_actions(battle), NpContext(), dice)
    assert choice == Face(0, 270.0, 0)
    game.play(battle, choice, dice)
    assert sees(battle, battle.mechs[0], battle.mechs[1])


def test_16_1_2_turning_an_enemy_into_the_arc_starts_an_in_sight() -> None:
    """A turn (legs or torso) that brings an enemy group into sight triggers In Sight (D3)."""
    battle = _battle(options=BattleOptions(in_sight_free_move=False))
    _place(battle, 0, (10.0, 10.0), 90.0)  # facing north
    _place(battle, 1, (20.0, 8.0), 0.0)  # facing east: neither sees the other
    dice = _dice()
    _to_blue_action(battle, dice)
    blue, red = battle.mechs[0], battle.mechs[1]
    assert not sees(battle, blue, red) and not sees(battle, red, blue)
    game.play(battle, Stay(0), dice)
    events = game.play(battle, Face(0, None, -90), dice)
    assert ev.MechFaced(0, 90.0, -90) in events
    taken = [e for e in events if isinstance(e, ev.InSightTaken)]
    assert len(taken) == 1
    # keeping the facing changes nothing and starts nothing
    battle2 = _battle(options=BattleOptions(in_sight_free_move=False))
    _place(battle2, 0, (10.0, 10.0), 90.0)
    _place(battle2, 1, (20.0, 8.0), 0.0)
    _to_blue_action(battle2, _dice())
    game.play(battle2, Stay(0), dice)
    events = game.play(battle2, Face(0, None, 0), dice)
    assert not any(isinstance(e, ev.MechFaced | ev.InSightTaken) for e in events)


def test_6_2_a_saved_face_stage_with_a_bad_turn_flag_is_refused() -> None:
    battle = _battle()
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (34.0, 34.0), 270.0)
    dice = _dice()
    _to_blue_action(battle, dice)
    game.play(battle, Stay(0), dice)
    data = battle.to_dict()
    data["frames"][-1]["turn"] = "yes"
    kept = repr(data)
    with pytest.raises(InvalidBattleError, match="turn"):
        Battle.from_dict(data)
    assert repr(data) == kept
    data["frames"][-1]["turn"] = True
    data["frames"][-1]["stage"] = "action"  # the face decision pending, but not asked
    with pytest.raises(InvalidBattleError, match="does not ask the pending face"):
        Battle.from_dict(data)


def test_6_2_envs_take_choose_facing_and_refuse_a_non_boolean() -> None:
    from wargym.envs.base import EnvArgumentError
    from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv

    with pytest.raises(EnvArgumentError, match="battle_options.choose_facing"):
        NoQuarterSkirmishEnv(battle_options={"choose_facing": "yes"})
    # the reference backend: the [native] run of this module swaps the rules' functions itself
    env = NoQuarterSkirmishEnv(
        battle_options={"choose_facing": False}, max_turns=2, backend="python"
    )
    env.reset(seed=0)
    assert env.battle.options.choose_facing is False
