"""Choices inside a roll: Marksman's location (§9.6.4) and Lucky's re-roll (ruling D26).

A Blue Star Army class 3 faces a Red Zhuh-Zhuh class 3 six inches away, both Rep 4. Blue fires
its PPG (Impact 5) first; the dice are scripted: Ranged Combat 1d6 (Rep 4 + 4 or more hits),
then 2d6 per location roll, then 2d6 damage.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.envs.no_quarter.codec import ActionCodec
from wargym.rules.dice import FallbackDice, RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    AssignFire,
    Charge,
    ChooseLocation,
    Decision,
    DecisionKind,
    DeclareMelee,
    EndFire,
    FireFirst,
    LuckyChoice,
)
from wargym.rules.no_quarter.battle.luck import choice_in_roll
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Location, MeleeAttack, Side

L = Location
PPG = 0


def _duel(
    blue: tuple[Attribute, ...] = (), red: tuple[Attribute, ...] = (), **opts: object
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), use_attributes=False),
    ]
    options = BattleOptions(choose_facing=False, **opts)  # type: ignore[arg-type]
    battle = new_battle(
        forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0), options
    )
    for mech, attributes in zip(battle.mechs.values(), (blue, red), strict=True):
        mech.rep = 4
        mech.pilot = dataclasses.replace(mech.pilot, rep=4, attributes=attributes)
    battle.mechs[0].pos, battle.mechs[0].heading = (10.0, 10.0), 90.0
    battle.mechs[1].pos, battle.mechs[1].heading = (10.0, 16.0), 270.0
    battle.frames = [
        {"kind": "mech", "mech": 0, "stage": "action", "spent": 0.0, "moved": False, "fired": False}
    ]
    battle.decision = Decision(Side.BLUE, DecisionKind.MECH_ACTION, 0)
    return battle


def _fire_ppg(battle: Battle, faces: list[int]) -> list[ev.Event]:
    """Blue fires first with its PPG alone; ``faces`` are the dice from the to-hit roll on."""
    spare = FallbackDice([], np.random.default_rng(5))
    game.play(battle, FireFirst(0), spare)
    game.play(battle, AssignFire(0, PPG, 1), spare)
    return game.play(battle, EndFire(0), FallbackDice(faces, np.random.default_rng(7)))


def _of(events: list[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


# -- §9.6.4 Marksman -----------------------------------------------------------------------------
def test_9_6_marksman_hit_location_is_the_shooters_decision() -> None:
    battle = _duel(blue=(Attribute.MARKSMAN,))
    before = _fire_ppg(battle, [5, 1, 1, 3, 4, 2, 2])  # hit; head (1+1) or chest (3+4)
    assert not _of(before, ev.HitLocated)  # the location waits for the shooter
    assert battle.decision == Decision(Side.BLUE, DecisionKind.MARKSMAN_LOCATION, 0)
    assert game.legal_actions(battle) == [ChooseLocation(0, L.HEAD), ChooseLocation(0, L.CHEST)]
    events = game.play(battle, ChooseLocation(0, L.CHEST), ScriptedDice([2, 2, 1]))
    (shot,) = _of(events, ev.ShotFired)
    (located,) = _of(events, ev.HitLocated)
    assert shot.face == 5 and shot.hit
    assert located.faces == (1, 1, 3, 4) and located.alternatives == (L.HEAD, L.CHEST)
    assert located.location is L.CHEST  # not the head the fixed order would take
    (damage,) = _of(events, ev.DamageRolled)
    assert damage.location is L.CHEST and damage.faces == (2, 2)


def test_9_6_marksman_two_equal_locations_need_no_decision() -> None:
    battle = _duel(blue=(Attribute.MARKSMAN,))
    events = _fire_ppg(battle, [5, 3, 4, 2, 5, 6, 6])  # chest twice
    (located,) = _of(events, ev.HitLocated)
    assert located.location is L.CHEST and located.alternatives == (L.CHEST, L.CHEST)
    assert battle.decision is None or battle.decision.kind is not DecisionKind.MARKSMAN_LOCATION


def test_9_6_marksman_auto_option_keeps_the_fixed_order() -> None:
    battle = _duel(blue=(Attribute.MARKSMAN,), marksman="auto")
    events = _fire_ppg(battle, [5, 1, 1, 3, 4, 6, 6])
    (located,) = _of(events, ev.HitLocated)
    assert located.location is L.HEAD  # marksman_preference: head first


def test_9_6_marksman_pause_round_trips_and_resumes_the_same() -> None:
    battle = _duel(blue=(Attribute.MARKSMAN,))
    _fire_ppg(battle, [5, 1, 1, 3, 4])
    copy = Battle.from_dict(battle.to_dict())
    assert copy.decision == battle.decision and copy.frames == battle.frames
    a = game.play(battle, ChooseLocation(0, L.HEAD), ScriptedDice([6, 6] + [3] * 20))
    b = game.play(copy, ChooseLocation(0, L.HEAD), ScriptedDice([6, 6] + [3] * 20))
    assert a == b and battle.to_dict() == copy.to_dict()


def test_9_6_marksman_np_and_tactician_aim_at_the_least_armour_left() -> None:
    battle = _duel(blue=(Attribute.MARKSMAN,))
    battle.mechs[1].armor[list(L).index(L.CHEST)] = 1  # chest nearly gone, head intact
    _fire_ppg(battle, [5, 1, 1, 3, 4])
    assert choice_in_roll(battle, game.legal_actions(battle)) == ChooseLocation(0, L.CHEST)


# -- D26 Lucky -------------------------------------------------------------------------------------
def test_d26_lucky_rerolls_a_missed_shot_by_the_pilots_choice() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    before = _fire_ppg(battle, [1])  # 4 + 1 = 5: a miss
    assert not _of(before, ev.ShotFired)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.LUCKY_REROLL, 0)
    assert game.legal_actions(battle) == [LuckyChoice(0, False), LuckyChoice(0, True)]
    assert battle.frames[-1]["what"] == "to_hit" and battle.frames[-1]["faces"] == [1]
    events = game.play(
        battle, LuckyChoice(0, True), FallbackDice([6, 3, 4, 6, 6], np.random.default_rng(1))
    )
    (lucky,) = _of(events, ev.LuckyReroll)
    (shot,) = _of(events, ev.ShotFired)
    assert (lucky.mech, lucky.what, lucky.old, lucky.new) == (0, "to_hit", (1,), (6,))
    assert shot.face == 6 and shot.hit and shot.rerolled == (1,)
    assert battle.mechs[0].lucky_used
    assert not any(d == DecisionKind.LUCKY_REROLL for d in [getattr(battle.decision, "kind", None)])


def test_d26_lucky_kept_roll_stands_and_the_reroll_stays_for_later() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    events = game.play(battle, LuckyChoice(0, False), FallbackDice([], np.random.default_rng(1)))
    shot = _of(events, ev.ShotFired)[0]
    assert (shot.shooter, shot.face, shot.hit) == (0, 1, False)
    assert not any(e.mech == 0 for e in _of(events, ev.LuckyReroll))
    assert not battle.mechs[0].lucky_used


def test_d26_lucky_is_offered_only_once_per_mission() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    battle.mechs[0].lucky_used = True
    events = _fire_ppg(battle, [1])
    assert _of(events, ev.ShotFired)[0].face == 1
    assert battle.decision is None or battle.decision.kind is not DecisionKind.LUCKY_REROLL


def test_d26_lucky_target_may_reroll_its_fired_on_test() -> None:
    battle = _duel(red=(Attribute.LUCKY,))
    _fire_ppg(battle, [1, 6, 6])  # a miss; Red's Fired On test 6, 6: passed 0
    assert battle.decision == Decision(Side.RED, DecisionKind.LUCKY_REROLL, 1)
    frame = battle.frames[-1]
    assert (frame["what"], frame["faces"], frame["passed"]) == ("fired_on", [6, 6], 0)
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(1, True)
    events = game.play(battle, LuckyChoice(1, True), FallbackDice([1, 1], np.random.default_rng(2)))
    (lucky,) = _of(events, ev.LuckyReroll)
    assert (lucky.mech, lucky.what, lucky.old, lucky.new) == (1, "fired_on", (6, 6), (1, 1))
    tested = next(e for e in events if isinstance(e, ev.ReactionTaken))
    assert (tested.mech, tested.faces, tested.passed) == (1, (1, 1), 2)


@pytest.mark.parametrize("mode", ["auto", "off"])
def test_d26_lucky_auto_and_off_never_ask(mode: str) -> None:
    battle = _duel(blue=(Attribute.LUCKY,), lucky=mode)
    events = _fire_ppg(battle, [1])
    assert _of(events, ev.ShotFired)[0].face == 1 and not _of(events, ev.LuckyReroll)
    assert not battle.mechs[0].lucky_used


def test_d26_lucky_np_rule_rerolls_a_miss_only_against_a_nearly_wrecked_target() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(0, False)
    battle.mechs[1].armor = [1 if a else 0 for a in battle.mechs[1].armor]
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(0, True)


# -- codec, mask and state ------------------------------------------------------------------
def test_d26_codec_blocks_mask_exactly_the_pause_options() -> None:
    codec = ActionCodec()
    for battle, block in (
        (_duel(blue=(Attribute.LUCKY,)), "lucky"),
        (_duel(blue=(Attribute.MARKSMAN,)), "marksman"),
    ):
        _fire_ppg(battle, [1] if block == "lucky" else [5, 1, 1, 3, 4])
        legal = game.legal_actions(battle)
        mask = codec.mask(battle)
        assert int(mask.sum()) == len(legal) == 2
        for action in legal:
            index = codec.encode(action, battle)
            assert mask[index] == 1 and codec.block_of(index)[0] == block
            assert codec.decode(index, battle) == action


def test_d26_a_pause_of_a_pilot_without_the_attribute_is_refused() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    data = battle.to_dict()
    data["mechs"]["0"]["pilot"]["attributes"] = []
    with pytest.raises(StateError, match=r"frames\.2: a lucky pause needs .* that pilot"):
        Battle.from_dict(data)
    assert battle.to_dict()["frames"][-1]["kind"] == "pause"


def test_d26_a_wrong_answer_at_a_lucky_decision_is_refused_unchanged() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    before = battle.to_dict()
    for wrong in (ChooseLocation(0, L.HEAD), LuckyChoice(1, True), EndFire(0)):
        with pytest.raises(IllegalActionError, match="lucky_reroll decision of blue"):
            game.play(battle, wrong, ScriptedDice([]))
        assert battle.to_dict() == before


def test_d26_a_saved_pause_with_a_bad_die_is_refused() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    data = battle.to_dict()
    data["frames"][-1]["rolls"] = [[7]]
    with pytest.raises(StateError, match=r"frames\.2\.rolls\.0\.0: 7 is not one of"):
        Battle.from_dict(data)
    data["frames"][-1]["rolls"] = [[1]]
    data["frames"][-1]["action"] = {"type": "Teleport"}
    with pytest.raises(StateError, match=r"frames\.2\.action: not an action"):
        Battle.from_dict(data)


def test_d26_a_pause_that_does_not_replay_is_refused_and_changes_nothing() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    _fire_ppg(battle, [1])
    battle.frames[-1]["rolls"] = [[1, 1]]  # two dice kept where the shot rolls one
    before = battle.to_dict()
    with pytest.raises(StateError, match="a paused roll does not replay"):
        game.play(battle, LuckyChoice(0, True), ScriptedDice([6]))
    assert battle.to_dict() == before
    assert battle.decision == Decision(Side.BLUE, DecisionKind.LUCKY_REROLL, 0)


BEAM = 1  # beam_light: Impact 1, so 1+1 passes 2 on doubles: a critical


def _leg_critical(battle: Battle, faces: list[int]) -> list[ev.Event]:
    """Blue's light beam hits Red's right leg (6+6), 1+1 damage: a Leg critical, Pilot Test."""
    spare = FallbackDice([], np.random.default_rng(5))
    game.play(battle, FireFirst(0), spare)
    game.play(battle, AssignFire(0, BEAM, 1), spare)
    return game.play(battle, EndFire(0), FallbackDice(faces, np.random.default_rng(7)))


def test_d26_lucky_pilot_may_reroll_a_failed_pilot_test() -> None:
    battle = _duel(red=(Attribute.LUCKY,))
    _leg_critical(battle, [5, 6, 6, 1, 1, 6])  # Pilot Test 6 against Rep 4: fails
    assert battle.decision == Decision(Side.RED, DecisionKind.LUCKY_REROLL, 1)
    assert (battle.frames[-1]["what"], battle.frames[-1]["faces"]) == ("pilot_test", [6])
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(1, True)
    events = game.play(battle, LuckyChoice(1, True), FallbackDice([2], np.random.default_rng(3)))
    (tested,) = _of(events, ev.PilotTested)
    assert (tested.face, tested.passed, tested.rerolled) == (2, True, (6,))
    assert _of(events, ev.LuckyReroll)[0].what == "pilot_test"


def test_d26_lucky_auto_still_rerolls_a_failed_pilot_test_unasked() -> None:
    battle = _duel(red=(Attribute.LUCKY,), lucky="auto")
    events = _leg_critical(battle, [5, 6, 6, 1, 1, 6, 2])
    (tested,) = _of(events, ev.PilotTested)
    assert (tested.face, tested.passed, tested.rerolled) == (2, True, (6,))
    assert battle.decision is None or battle.decision.kind is not DecisionKind.LUCKY_REROLL


def test_d26_lucky_attacker_may_reroll_the_melee_dice_of_a_lost_round() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    battle.mechs[1].pos = (10.0, 11.0)  # base contact
    battle.frames = [
        {"kind": "mech", "mech": 0, "stage": "end", "spent": 0.0, "moved": False, "fired": False},
        {"kind": "melee", "attacker": 0, "defender": 1, "jump": False, "decl": {},
         "stage": "declare", "ties": 0},
    ]  # fmt: skip
    battle.decision = Decision(Side.BLUE, DecisionKind.MELEE_DECLARE, 0)
    spare = FallbackDice([], np.random.default_rng(0))
    game.play(battle, DeclareMelee(0, MeleeAttack.PUNCH, L.ARM_R), spare)
    # Rep 4 attacker: 4 dice, all 6 (no success); the defender's 6 dice score 2
    rolled = ScriptedDice([6] * 4 + [1, 1] + [6] * 4)
    game.play(battle, DeclareMelee(1, MeleeAttack.PUNCH, L.ARM_R), rolled)
    assert battle.decision == Decision(Side.BLUE, DecisionKind.LUCKY_REROLL, 0)
    frame = battle.frames[-1]
    assert (frame["what"], frame["faces"], frame["lost"]) == ("melee", [6, 6, 6, 6], True)
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(0, True)
    new = FallbackDice([1, 1, 1, 6], np.random.default_rng(4))
    events = game.play(battle, LuckyChoice(0, True), new)
    melee = _of(events, ev.MeleeRound)[0]
    assert melee.attacker_faces == (1, 1, 1, 6) and melee.winner == 0
    assert _of(events, ev.LuckyReroll)[0].old == (6, 6, 6, 6)


def test_d26_lucky_charger_may_reroll_its_charge_into_melee_test() -> None:
    battle = _duel(blue=(Attribute.LUCKY,))
    assert Charge(0, 1) in game.legal_actions(battle)
    # the charger's 2d6 vs Rep 4: 6, 6 pass 0 -> its side is asked (D26)
    game.play(battle, Charge(0, 1), FallbackDice([6, 6], np.random.default_rng(3)))
    assert battle.decision == Decision(Side.BLUE, DecisionKind.LUCKY_REROLL, 0)
    frame = battle.frames[-1]
    assert (frame["what"], frame["faces"], frame["passed"]) == ("charge_test", [6, 6], 0)
    assert choice_in_roll(battle, game.legal_actions(battle)) == LuckyChoice(0, True)
    events = game.play(battle, LuckyChoice(0, True), FallbackDice([1, 1], np.random.default_rng(4)))
    tested = _of(events, ev.ChargeTested)[0]
    assert tested.charger_faces == (1, 1) and tested.charger_passed == 2
    assert _of(events, ev.LuckyReroll)[0].what == "charge_test"
