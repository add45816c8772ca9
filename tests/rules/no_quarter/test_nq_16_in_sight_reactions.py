"""In Sight fire, mandatory In Sight actions, Mech Down cover and Duck Back cover in play.

Issue 15, items 1, 2, 6 and 8 (§15.1, §15.2.4.1, §16.1.4, §16.2, rulings D6, D9, D32):
hand-built battles on an open table, played through ``game.play`` with every die scripted.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    ChooseMech,
    DecisionKind,
    EndFire,
    Face,
    FireFirst,
    FreeMove,
    Move,
    Stay,
)
from wargym.rules.no_quarter.battle.state import LOCATIONS, Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Location, Side, Status, Terrain
from wargym.rules.no_quarter.sight_movement.perception import line_between, sees

WALL = Feature(Terrain.BUILDING, 10.0, 14.0, 15.0, 18.0, building_armor=3)
"""Hides red at (18, 24) from (10, 10) but not from (16, 6) or from (18, 10)."""


def _battle(
    blue: list[str],
    red: list[str],
    *,
    red_faction: Faction = Faction.HISHEN,
    features: tuple[Feature, ...] = (),
    reps: dict[int, int] | None = None,
    options: BattleOptions | None = None,
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, tuple(blue), use_attributes=False),
        ForceSpec(Side.RED, red_faction, tuple(red), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        Battlefield(features=features),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        options=options or BattleOptions(group_splits="off"),  # §13.1: E19's own tests
    )
    for mech in battle.mechs.values():
        rep = (reps or {}).get(mech.id, 5 if mech.side is Side.BLUE else 4)
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _play(battle: Battle, dice: ScriptedDice, actions: list[Action]) -> list[Event]:
    """Advance to the first decision, then play ``actions`` in order; all events."""
    log = list(game.advance(battle, dice))
    for action in actions:
        log.extend(game.play(battle, action, dice))
    return log


def _shooters(log: list[Event]) -> list[int]:
    return [e.shooter for e in log if isinstance(e, ev.ShotFired)]


def _two_blues_and_a_hidden_red(reps: dict[int, int]) -> Battle:
    """Blue #0 behind the wall, blue #1 (same Team, 7.2" away) in sight of red #2."""
    battle = _battle(["star_army_c3", "star_army_c3"], ["hishen_c5"], features=(WALL,), reps=reps)
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (16.0, 6.0), 90.0)
    _place(battle, 2, (18.0, 24.0), 270.0)
    assert not line_between(battle, battle.mechs[0], battle.mechs[2]).visible
    assert sees(battle, battle.mechs[1], battle.mechs[2])
    return battle


# activation 5:4 (blue first); In Sight: blue leader's Rep d6 (no success, EWS 2 gives 2),
# red leader 4 x 6 (none): blue wins. Every shot rolls 1 (a miss); red's one Fired On (three
# dice: the wall gives it cover from #0) passes 2 but is outgunned (class 5 vs 3): Carry On.
def _in_sight_dice(blue_dice: int, shots: int) -> list[int]:
    return [5, 4] + [4] * blue_dice + [6] * 4 + [1] * shots + [1, 1, 1]


def _to_in_sight(battle: Battle, dice: ScriptedDice) -> list[Event]:
    """Blue #0 steps out from behind the wall; both blues hold their free moves."""
    return _play(
        battle,
        dice,
        [
            ActivateGroup(0),
            ChooseMech(0),
            Move(0, (18.0, 10.0)),
            FreeMove(0, None),
            FreeMove(1, None),
        ],
    )


def test_15_1_in_sight_fire_is_active_fire_of_a_mech_yet_to_act() -> None:
    """D6: blue #1 fired as an In Sight winner; its own activation offers no fire again."""
    battle = _two_blues_and_a_hidden_red({0: 6, 1: 5})
    dice = ScriptedDice(_in_sight_dice(6, 4))
    log = _to_in_sight(battle, dice)
    assert any(isinstance(e, ev.InSightTaken) and e.moving_wins for e in log)
    while battle.decision is not None and battle.decision.kind is DecisionKind.ASSIGN_FIRE:
        shot = next(a for a in game.legal_actions(battle) if isinstance(a, AssignFire))
        log += game.play(battle, shot, dice)  # winners in Rep order: #0 (Rep 6), #1 (Rep 5)
    assert _shooters(log) == [0, 0, 1, 1]
    assert battle.decision is not None and battle.decision.kind is DecisionKind.CONTINUE_MOVE
    after = game.play(battle, Stay(0), dice)  # #0 stops; #1 is the last of the group to act
    after += game.play(battle, Face(0, None, battle.mechs[0].twist), dice)  # keeps facing (E20)
    assert battle.decision is not None
    assert (battle.decision.kind, battle.decision.mech) == (DecisionKind.MECH_ACTION, 1)
    assert FireFirst(1) not in game.legal_actions(battle)
    after += game.play(battle, Stay(1), dice)
    after += game.play(battle, Face(1, None, battle.mechs[1].twist), dice)
    assert _shooters(after) == []  # and no Active Fire after its (non-)move either
    assert battle.decision is not None and battle.decision.side is Side.RED
    assert dice.remaining == 0


def _fire_first_then_new_group(options: BattleOptions | None = None) -> Battle:
    """Blue #0 sees red #1; red #2 (another Team) waits behind the wall."""
    battle = _battle(
        ["star_army_c3"], ["hishen_c5", "hishen_c5"], features=(WALL,), options=options
    )
    battle.mechs[0].rep = 6
    battle.mechs[2].team = battle.mechs[1].team + 1
    _place(battle, 0, (10.0, 10.0), 90.0)
    _place(battle, 1, (4.0, 24.0), 270.0)
    _place(battle, 2, (18.0, 24.0), 270.0)
    assert sees(battle, battle.mechs[0], battle.mechs[1])
    assert not line_between(battle, battle.mechs[0], battle.mechs[2]).visible
    return battle


def _fire_first_and_move(battle: Battle, dice: ScriptedDice) -> list[Event]:
    return _play(
        battle,
        dice,
        [
            ActivateGroup(0),
            FireFirst(0),
            AssignFire(0, 0, 1),
            AssignFire(0, 1, 1),
            Move(0, (18.0, 10.0)),
            FreeMove(0, None),
        ],
    )


# activation, two misses at #1 and its Fired On (outgunned: Carry On); then the In Sight
# with #2 (#1 is behind the wall by then): blue 6 x 4 (EWS 2 successes), red 4 x 6.
FIRE_FIRST_DICE = [5, 4, 1, 1, 1, 1] + [4] * 6 + [6] * 4


def test_15_1_in_sight_fire_is_active_fire_after_fire_first() -> None:
    """D6: a mech that fired first, moved and then won an In Sight does not fire again."""
    battle = _fire_first_then_new_group()
    dice = ScriptedDice(list(FIRE_FIRST_DICE))
    log = _fire_first_and_move(battle, dice)
    assert _shooters(log) == [0, 0]  # only the fire-first shots
    won = [e for e in log if isinstance(e, ev.InSightTaken)]
    assert won and all(e.moving_wins for e in won)
    acted = [e for e in log if isinstance(e, ev.InSightAction)]
    assert [(e.mech, e.action) for e in acted] == [(0, "carry_on")]
    assert battle.decision is not None and battle.decision.kind is DecisionKind.CONTINUE_MOVE
    assert dice.remaining == 0


def test_15_1_in_sight_spent_fire_priority_option_takes_the_rest_of_the_list() -> None:
    """Choice E7's alternative: unable to fire, the winner ducks back (in enemy range)."""
    battle = _fire_first_then_new_group(BattleOptions(in_sight_spent_fire="priority"))
    dice = ScriptedDice(list(FIRE_FIRST_DICE))
    log = _fire_first_and_move(battle, dice)
    assert _shooters(log) == [0, 0]
    acted = [e for e in log if isinstance(e, ev.InSightAction)]
    assert [(e.mech, e.action) for e in acted] == [(0, "duck_back")]
    assert battle.mechs[0].status is Status.DUCK_BACK


def test_16_1_4_in_sight_fire_cannot_be_declined() -> None:
    """D32: the winner chooses targets and twist, not whether (nor with what) to fire."""
    battle = _two_blues_and_a_hidden_red({0: 6, 1: 5})
    dice = ScriptedDice(_in_sight_dice(6, 4))
    _to_in_sight(battle, dice)
    assert battle.decision is not None
    assert (battle.decision.kind, battle.decision.mech) == (DecisionKind.ASSIGN_FIRE, 0)
    assert EndFire(0) not in game.legal_actions(battle)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="hold fire|legal options"):
        game.play(battle, EndFire(0), dice)
    assert battle.to_dict() == before
    log = game.play(battle, AssignFire(0, 0, 2), dice)
    fired = [(e.shooter, e.weapon) for e in log if isinstance(e, ev.ShotFired)]
    assert fired == [(0, 0), (0, 1)]  # the Beam fires too: the one way left (D32)


def test_16_1_4_owner_orders_equal_rep_winners() -> None:
    """Winners act from the highest Rep down; among equal Reps their owner chooses."""
    battle = _two_blues_and_a_hidden_red({0: 5, 1: 5})
    dice = ScriptedDice(_in_sight_dice(5, 4))
    _to_in_sight(battle, dice)
    assert battle.decision is not None
    assert (battle.decision.side, battle.decision.kind) == (Side.BLUE, DecisionKind.CHOOSE_MECH)
    assert game.legal_actions(battle) == [ChooseMech(0), ChooseMech(1)]
    game.play(battle, ChooseMech(1), dice)
    assert battle.decision is not None
    assert (battle.decision.kind, battle.decision.mech) == (DecisionKind.ASSIGN_FIRE, 1)
    game.play(battle, AssignFire(1, 0, 2), dice)
    assert battle.decision is not None  # the last winner acts without a choice
    assert (battle.decision.kind, battle.decision.mech) == (DecisionKind.ASSIGN_FIRE, 0)


# -- Mech Down (§16.2) ----------------------------------------------------------------------
WOODS = Feature(Terrain.WOODS, 20.0, 18.0, 30.0, 28.0)


def _kill_the_friend(red_faction: Faction, tester: tuple[float, float]) -> Battle:
    """Blue #0 will shoot red #1 (gut armour 1) dead; red #2 stands 2.9" from it."""
    red = "hishen_c1" if red_faction is Faction.HISHEN else "pdf_c1"
    features = (WOODS,) if red_faction is Faction.HISHEN else (PDF_WALL,)
    battle = _battle(["star_army_c3"], [red, red], red_faction=red_faction, features=features)
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (18.5, 20.0), 180.0)
    _place(battle, 2, tester, 180.0)
    battle.mechs[1].armor[LOCATIONS.index(Location.GUT)] = 1
    return battle


# activation 5:4; PPG to-hit 6 (11: hit), location 4+4 (gut), damage 1, 2 vs Impact 5 (pass 2):
# the gut reaches 0, the mech is inoperable.
KILL_DICE = [5, 4, 6, 4, 4, 1, 2]


def _shoot_the_friend(battle: Battle, dice: ScriptedDice) -> list[Event]:
    return _play(battle, dice, [ActivateGroup(0), FireFirst(0), AssignFire(0, 0, 1), EndFire(0)])


def test_16_2_mech_down_cover_die_is_judged_against_the_enemy() -> None:
    """The tester in woods is in cover from the shooter: it reads 3 dice, not 2."""
    battle = _kill_the_friend(Faction.HISHEN, (20.6, 22.0))
    shooter, tester = battle.mechs[0], battle.mechs[2]
    assert line_between(battle, shooter, tester).visible  # 0.6" of woods: seen, in cover
    dice = ScriptedDice([*KILL_DICE, 1, 1, 1])
    log = _shoot_the_friend(battle, dice)
    assert battle.mechs[1].removed is not None
    test = next(e for e in log if isinstance(e, ev.ReactionTaken))
    assert (test.mech, test.test.value, test.causes) == (2, "mech_down", (1,))
    assert test.faces == (1, 1, 1)
    assert dice.remaining == 0


# PDF pass 1 on Mech Down: Duck Back. Red's loss lowers its Rep to 3 (twice the losses):
# 1 passes, 6 fails.
PDF_WALL = Feature(Terrain.BUILDING, 21.0, 25.0, 25.0, 29.0, building_armor=3)


def test_16_2_mech_down_duck_back_moves_out_of_the_enemy_sight() -> None:
    battle = _kill_the_friend(Faction.PDF, (21.0, 22.0))
    dice = ScriptedDice([*KILL_DICE, 1, 6])
    log = _shoot_the_friend(battle, dice)
    test = next(e for e in log if isinstance(e, ev.ReactionTaken))
    assert (test.mech, test.passed, test.result.value) == (2, 1, "duck_back")
    moved = [e for e in log if isinstance(e, ev.MechMoved) and e.kind == "duck_back"]
    assert [e.mech for e in moved] == [2] and moved[0].inches > 0
    ducked = next(e for e in log if isinstance(e, ev.DuckedBack))
    assert (ducked.mech, ducked.cause, ducked.in_cover) == (2, 0, True)
    shooter, tester = battle.mechs[0], battle.mechs[2]
    assert not sees(battle, shooter, tester) and not sees(battle, tester, shooter)


# -- Duck Back into cover (§15.2.4.1, §16.3.2) ----------------------------------------------
def test_15_2_4_1_ducked_back_into_cover_neither_sees_nor_is_seen_by_the_cause() -> None:
    """Pass 0 damage: red ducks into the woods edge; its cause loses it, the other blue not."""
    battle = _battle(["star_army_c3", "star_army_c3"], ["hishen_c1"], features=(WOODS,))
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (12.0, 17.0), 0.0)
    _place(battle, 2, (19.0, 22.0), 180.0)
    blue0, blue1, red = battle.mechs[0], battle.mechs[1], battle.mechs[2]
    # activation 5:4; PPG hits (6), chest (3, 4), 6, 6 vs Impact 5: pass 0, Duck Back
    dice = ScriptedDice([5, 4, 6, 3, 4, 6, 6])
    log = _play(battle, dice, [ActivateGroup(0), ChooseMech(0), FireFirst(0), AssignFire(0, 0, 2)])
    log += game.play(battle, EndFire(0), dice)
    assert red.status is Status.DUCK_BACK and red.pos != (19.0, 22.0)
    assert not line_between(battle, blue0, red).visible
    assert not line_between(battle, red, blue0).visible
    assert line_between(battle, blue1, red).visible  # only the cause is shut out
    ducked = next(e for e in log if isinstance(e, ev.DuckedBack))
    assert (ducked.mech, ducked.cause, ducked.in_cover) == (2, 0, True)
    game.play(battle, Stay(0), dice)  # blue #1 acts next: it may fire at red, #0 could not
    game.play(battle, Face(0, None, blue0.twist), dice)  # keeps its facing (E20)
    game.play(battle, FireFirst(1), dice)
    assert AssignFire(1, 0, 2) in game.legal_actions(battle)
    game.play(battle, EndFire(1), dice)
    game.play(battle, Stay(1), dice)
    game.play(battle, Face(1, None, blue1.twist), dice)
    # red's own activation returns it to Carry On: the cause sees it again
    assert battle.decision is not None and battle.decision.side is Side.RED
    game.play(battle, ActivateGroup(2), dice)
    assert red.status is Status.CARRY_ON
    assert line_between(battle, blue0, red).visible
    assert dice.remaining == 0


def test_16_1_4_unknown_in_sight_spent_fire_choice_is_refused_by_the_envs() -> None:
    """E7's option takes ``carry_on`` or ``priority``; an env names the field and the choices."""
    import gymnasium

    from wargym.envs.base import EnvArgumentError

    with pytest.raises(EnvArgumentError, match=r"in_sight_spent_fire.*carry_on.*priority"):
        gymnasium.make("wargym/NoQuarter-Skirmish-v1", battle_options={"in_sight_spent_fire": "x"})
