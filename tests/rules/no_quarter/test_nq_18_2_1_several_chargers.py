"""Several chargers against one target, and the charge's line of sight (§18.2, §18.2.1, D3, D33).

Blue #0 steps out from behind a building; blue's group wins the In Sight against red #2.
Both blue mechs have no working ranged weapon, so each charges red #2 (within 6",
§16.1.4). Driven through ``game.play`` with scripted dice (then seeded ones).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    AssignFire,
    Charge,
    ChooseMech,
    DecisionKind,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.battle.reaction import in_sight_dice
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battle.validity import check_battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain

WALL = Feature(Terrain.BUILDING, 14.0, 19.5, 17.0, 21.5, building_armor=3)


def _battle(options: BattleOptions | None = None) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * 2, use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        Battlefield(features=(WALL,)),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        options=options or BattleOptions(),
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    for mech, pos, heading in ((0, (15.0, 18.0), 90.0), (1, (21.0, 18.0), 90.0)):
        battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading
        battle.mechs[mech].inoperable.extend(battle.mechs[mech].operable_ranged_weapons)
    battle.mechs[2].pos, battle.mechs[2].heading = (18.0, 23.0), 270.0
    return battle


def _n(battle: Battle, mech: int) -> int:
    m = battle.mechs[mech]
    return in_sight_dice(
        m.rep, race=m.pilot.race, attributes=m.pilot.attributes, enemy_concealed=False
    )


def _calm(options: list[Any]) -> Any:
    """Blue #0 first; keep groups, leaders, rolls and facings as they are (other decisions)."""
    for option in options:
        name = type(option).__name__
        if (
            option == ChooseMech(0)
            or name in ("KeepGroups", "LeadDone")
            or (name == "LuckyChoice" and not option.reroll)
            or (name == "Face" and option.heading is None and option.twist == 0)
        ):
            return option
    return options[0]


def _to_blue_action(battle: Battle, dice: FallbackDice) -> None:
    game.advance(battle, dice)
    while battle.decision is not None and not (
        battle.decision.kind is DecisionKind.MECH_ACTION and battle.decision.mech == 0
    ):
        game.play(battle, _calm(game.legal_actions(battle)), dice)


def _charge_both(battle: Battle, *test_faces: int) -> tuple[list[Event], FallbackDice]:
    """Blue #0 steps out: In Sight (blue succeeds, red fails), then both blue mechs charge."""
    dice = FallbackDice([5, 4], np.random.default_rng(3))
    _to_blue_action(battle, dice)
    dice.scripted += [1] * _n(battle, 0) + [6] * _n(battle, 2) + list(test_faces)
    log = list(game.play(battle, Move(0, (17.5, 18.0)), dice))
    while battle.decision is not None and battle.decision.kind in (
        DecisionKind.FREE_MOVE,
        DecisionKind.CHOOSE_MECH,
    ):
        kind, mech = battle.decision.kind, battle.decision.mech
        step = FreeMove(mech, None) if kind is DecisionKind.FREE_MOVE else ChooseMech(0)
        log.extend(game.play(battle, step, dice))
    return log, dice


def _shots(log: list[Event]) -> list[ev.ShotFired]:
    return [e for e in log if isinstance(e, ev.ShotFired) and e.shooter == 2]


def _split_evenly(battle: Battle, dice: FallbackDice) -> list[Event]:
    """Red assigns its weapons alternately to the two chargers until its fire resolves."""
    log: list[Event] = []
    while battle.decision is not None and not any(
        isinstance(e, ev.FiringEnded) and e.shooter == 2 for e in log
    ):
        options = game.legal_actions(battle)
        if battle.decision.kind is not DecisionKind.ASSIGN_FIRE:
            log.extend(game.play(battle, _calm(options), dice))
            continue
        shots = [o for o in options if isinstance(o, AssignFire)]
        done = {0: 0, 1: 0}
        for shot in _shots(log):
            done[shot.target] += 1
        pick = min(shots, key=lambda o: (done.get(o.target, 0), o.target), default=options[0])
        log.extend(game.play(battle, pick, dice))
    return log


def test_18_2_1_several_chargers_target_rolls_once_and_splits_its_weapons() -> None:
    """Red passes 2 against both chargers' 0: one firing, its weapons split between them."""
    battle = _battle()
    log, dice = _charge_both(battle, 6, 6, 1, 1, 6, 6)
    tests = [e for e in log if isinstance(e, ev.ChargeTested)]
    assert [(t.charger, t.outcome) for t in tests] == [(0, "fire"), (1, "fire")]
    assert tests[1].reused_target_roll and tests[0].target_faces == tests[1].target_faces
    assert not _shots(log)  # nobody has fired before both charges were tested
    decision = battle.decision
    assert decision is not None and decision.kind is DecisionKind.ASSIGN_FIRE
    assert decision.side is Side.RED and decision.mech == 2
    targets = {o.target for o in game.legal_actions(battle) if isinstance(o, AssignFire)}
    assert targets == {0, 1}
    check_battle(battle)  # the waiting charges are a valid state ...
    again = Battle.from_dict(battle.to_dict())
    assert again.to_dict() == battle.to_dict()  # ... that round-trips
    log += _split_evenly(battle, dice)
    firings = [e for e in log if isinstance(e, ev.FiringStarted) and e.shooter == 2]
    assert len(firings) == 1 and firings[0].mode == "charge"
    assert {s.target for s in _shots(log)} == {0, 1}
    assert sorted(s.target_index for s in _shots(log) if s.target == 1) in ([1], [2], [1, 1])
    # no reaction test from the charge fire (§16.2), then the first charger's melee
    assert not any(isinstance(e, ev.ReactionTaken) for e in log)
    alive = [m for m in (0, 1) if battle.mechs[m].removed is None]
    if battle.mechs[0].removed is None and not battle.mechs[0].prone:
        assert battle.decision is not None
        assert battle.decision.kind is DecisionKind.MELEE_DECLARE
        assert battle.decision.mech == 0
    assert alive  # seeded dice: the split fire did not destroy both


def test_18_2_1_split_fire_rush_shot_only_at_the_charger_it_tied_with() -> None:
    """Red passes 1: more than blue #0's 0 (normal fire), as many as blue #1's 1 (Rush Shot)."""
    battle = _battle()
    log, dice = _charge_both(battle, 6, 6, 1, 6, 1, 6)
    tests = [e for e in log if isinstance(e, ev.ChargeTested)]
    assert [(t.charger, t.outcome) for t in tests] == [(0, "fire"), (1, "rush_shot")]
    log += _split_evenly(battle, dice)
    rush = {(s.target, s.rush_shot) for s in _shots(log)}
    assert rush == {(0, False), (1, True)}


def test_18_2_1_charger_that_passed_more_draws_no_fire_in_the_split() -> None:
    """Blue #1 passes 2 against red's 1: red fires at blue #0 only, every weapon, no decision."""
    battle = _battle()
    log, _dice = _charge_both(battle, 6, 6, 1, 6, 1, 1)
    assert battle.decision is None or battle.decision.kind is not DecisionKind.ASSIGN_FIRE
    assert {s.target for s in _shots(log)} == {0}


def test_18_2_1_one_by_one_option_keeps_the_engaged_target_silent() -> None:
    """``several_chargers="one_by_one"``: blue #0's melee comes first; red, engaged, never
    fires at blue #1 (D33)."""
    battle = _battle(BattleOptions(several_chargers="one_by_one"))
    log, dice = _charge_both(battle, 6, 6, 1, 1, 6, 6)
    while battle.decision is not None and not any(
        isinstance(e, ev.ChargeTested) and e.charger == 1 for e in log
    ):
        log.extend(game.play(battle, _calm(game.legal_actions(battle)), dice))
    if battle.mechs[0].removed is None and battle.mechs[1].removed is None:
        assert any(isinstance(e, ev.MeleeRound) for e in log)
        assert {s.target for s in _shots(log)} <= {0}


def test_18_3_4_waiting_charges_count_towards_the_three_attackers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a limit of one attacker, blue #1 may not charge red #2 once blue #0 waits to."""
    base = game.load_rules()
    rules = dataclasses.replace(
        base,
        multiple_melee=dataclasses.replace(base.multiple_melee, max_attackers_per_target=1),
    )
    monkeypatch.setattr(game, "load_rules", lambda options=None: rules)
    battle = _battle()
    log, _dice = _charge_both(battle, 6, 6, 1, 1)
    assert [e.charger for e in log if isinstance(e, ev.ChargeTested)] == [0]
    second = [e.action for e in log if isinstance(e, ev.InSightAction) and e.mech == 1]
    assert second and second[0] != "charge"


def _facing_charge(heading: float) -> list[object]:
    battle = _battle()
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), heading
    battle.mechs[1].pos = (30.0, 2.0)
    battle.mechs[2].pos, battle.mechs[2].heading = (18.0, 15.0), 270.0
    _to_blue_action(battle, FallbackDice([5, 4], np.random.default_rng(3)))
    return list(game.legal_actions(battle))


def test_18_2_d3_charge_needs_the_target_in_the_front_arc() -> None:
    """Red 5" straight behind blue #0 is in clear LOS but outside its front arc (D3)."""
    assert Charge(0, 2) in _facing_charge(90.0)
    assert Charge(0, 2) not in _facing_charge(270.0)


def test_18_2_1_np_side_answers_the_split_with_a_legal_assignment() -> None:
    """The rules' NP AI assigns the target's weapons at the split decision (§22.4)."""
    from wargym.rules.no_quarter.non_player.enemy import NpContext
    from wargym.rules.no_quarter.non_player.enemy_decide import np_decide

    battle = _battle()
    _log, dice = _charge_both(battle, 6, 6, 1, 1, 6, 6)
    assert battle.decision is not None and battle.decision.kind is DecisionKind.ASSIGN_FIRE
    legal = game.legal_actions(battle)
    choice = np_decide(battle, legal, NpContext(), dice)
    assert isinstance(choice, AssignFire) and choice in legal


def _charge_past_a_wall() -> tuple[Battle, FallbackDice]:
    """Blue #0 charges red #2 6" north; red #3 (another group) is hidden behind a thin wall
    until the charger reaches y=10. Blue wins the In Sight that pauses the charge."""
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",) * 2, use_attributes=False),
    ]
    wall = Feature(Terrain.BUILDING, 20.0, 4.0, 21.0, 8.0, building_armor=3)
    battle = new_battle(
        forces, Battlefield(features=(wall,)), np.random.default_rng(0), RandomDice.from_seed(0)
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    places = {0: ((18.0, 5.0), 90.0), 1: ((18.0, 14.0), 270.0), 2: ((24.0, 7.0), 180.0)}
    for mech, (pos, heading) in places.items():
        battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading
    dice = FallbackDice([5, 4], np.random.default_rng(3))
    _to_blue_action(battle, dice)
    return battle, dice


def test_16_1_2_charge_leg_pauses_for_an_in_sight_then_goes_on() -> None:
    battle, dice = _charge_past_a_wall()
    assert battle.group_of[1] != battle.group_of[2]
    dice.scripted += [1] * _n(battle, 0) + [6] * _n(battle, 2)
    log = list(game.play(battle, Charge(0, 1), dice))
    while battle.decision is not None and battle.decision.kind is DecisionKind.FREE_MOVE:
        log.extend(game.play(battle, FreeMove(battle.decision.mech, None), dice))
    sight = next(i for i, e in enumerate(log) if isinstance(e, ev.InSightTaken))
    legs = [e for e in log if isinstance(e, ev.MechMoved) and e.kind == "charge"]
    assert legs[0].path[0] == (18.0, 5.0) and 5.0 < legs[0].path[1][1] < 11.0  # paused
    assert log.index(legs[0]) < sight
    assert [e.action for e in log if isinstance(e, ev.InSightAction) and e.mech == 0] == [
        "carry_on"  # the charger may not fire after declaring (D6): it charges on
    ]
    declared = next(i for i, e in enumerate(log) if isinstance(e, ev.ChargeDeclared))
    assert sight < declared
    assert legs[1].path[1][1] == pytest.approx(11.0)  # on to 3" from red #1
    assert any(isinstance(e, ev.ChargeTested) and e.charger == 0 for e in log)


def test_18_2_d3_charge_at_a_target_behind_is_refused_unchanged() -> None:
    """Bad input: a charge at an enemy outside the front arc is illegal; battle unchanged."""
    from wargym.rules.errors import IllegalActionError

    battle = _battle()
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 10.0), 270.0
    battle.mechs[1].pos = (30.0, 2.0)
    battle.mechs[2].pos, battle.mechs[2].heading = (18.0, 15.0), 270.0
    dice = FallbackDice([5, 4], np.random.default_rng(3))
    _to_blue_action(battle, dice)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="charges mech 2"):
        game.play(battle, Charge(0, 2), dice)
    assert battle.to_dict() == before


def test_18_2_1_split_fire_cannot_be_held_or_aimed_elsewhere_unchanged() -> None:
    """Bad input: holding the split fire while weapons reach a charger is illegal (mandatory)."""
    from wargym.rules.errors import IllegalActionError
    from wargym.rules.no_quarter.battle.actions import EndFire

    battle = _battle()
    _log, dice = _charge_both(battle, 6, 6, 1, 1, 6, 6)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="not legal at this assign_fire"):
        game.play(battle, EndFire(2), dice)
    assert battle.to_dict() == before


def test_18_2_1_bad_waiting_charge_in_a_saved_state_is_refused() -> None:
    """Bad input: a waiting charge with an unknown outcome is an InvalidBattleError naming it."""
    from wargym.rules.no_quarter.battle.validity import InvalidBattleError

    battle = _battle()
    _charge_both(battle, 6, 6, 1, 1, 6, 6)
    data = battle.to_dict()
    index = next(i for i, f in enumerate(data["frames"]) if f["kind"] == "charges")
    data["frames"][index]["entries"][0]["outcome"] = "x" * 500
    with pytest.raises(InvalidBattleError, match=rf"frames\.{index}\.entries\.0\.outcome") as err:
        Battle.from_dict(data)
    assert len(str(err.value)) < 400


def _closing_choice(battle: Battle) -> list[Any]:
    """Charge both with the target holding fire; the options when the chargers close."""
    dice = FallbackDice([5, 4], np.random.default_rng(3))
    _to_blue_action(battle, dice)
    # In Sight (blue succeeds, red fails); both chargers pass 2, the target 0: no fire
    dice.scripted += [1] * _n(battle, 0) + [6] * _n(battle, 2) + [1, 1, 6, 6, 1, 1]
    game.play(battle, Move(0, (17.5, 18.0)), dice)
    while battle.decision is not None and battle.frames[-1]["kind"] != "charges":
        kind, mech = battle.decision.kind, battle.decision.mech
        if kind not in (DecisionKind.FREE_MOVE, DecisionKind.CHOOSE_MECH):
            break
        step = FreeMove(mech, None) if kind is DecisionKind.FREE_MOVE else ChooseMech(0)
        game.play(battle, step, dice)
    assert battle.decision is not None
    if battle.decision.kind is not DecisionKind.CHOOSE_MECH:
        return []
    return game.legal_actions(battle)


def test_18_3_4_tied_chargers_close_in_the_owners_order() -> None:
    battle = _battle()  # two class 3, Rep 5 chargers: a tie, the owner's choice
    options = _closing_choice(battle)
    assert options == [ChooseMech(0), ChooseMech(1)]
    assert battle.decision is not None and battle.decision.side is Side.BLUE
    check_battle(battle)
    assert Battle.from_dict(battle.to_dict()).to_dict() == battle.to_dict()
    with pytest.raises(IllegalActionError):
        game.play(battle, ChooseMech(2), FallbackDice([], np.random.default_rng(1)))
    game.play(battle, ChooseMech(1), FallbackDice([], np.random.default_rng(1)))
    assert battle.decision is not None and battle.decision.kind is DecisionKind.MELEE_DECLARE
    assert battle.decision.mech == 1  # blue #1 closes and fights first


def test_18_3_4_a_star_charger_chooses_when_it_attacks() -> None:
    battle = _battle()
    second = battle.mechs[1]
    second.rep = 4  # lower Rep: it closes second by §18.3.4 ...
    second.pilot = dataclasses.replace(second.pilot, rep=4)
    assert _closing_choice(battle) == []  # ... and no one is asked
    battle = _battle()
    second = battle.mechs[1]
    second.rep = 4
    second.pilot = dataclasses.replace(second.pilot, rep=4, star=True)
    assert _closing_choice(battle) == [ChooseMech(0), ChooseMech(1)]  # a Star chooses
