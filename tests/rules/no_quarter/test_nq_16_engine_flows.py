"""The orchestrator plays the rules: activation, fire, reactions, charges, melee, In Sight.

Hand-built battles on an open table with scripted dice (§14-§18). ``FallbackDice`` pins the
faces a test is about and lets the rest of the battle roll on.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import FallbackDice, RandomDice, ScriptedDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Charge,
    DecisionKind,
    DeclareMelee,
    FreeWill,
    Move,
)
from wargym.rules.no_quarter.battle.consequences import remove
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.flow_fire import fire_frame
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import (
    Faction,
    Location,
    MeleeAttack,
    Rank,
    ReactionResult,
    Removal,
    Side,
    Status,
    Terrain,
)
from wargym.rules.no_quarter.sight_movement.perception import form_groups


def _battle(
    blue: list[str],
    red: list[str],
    *,
    blue_faction: Faction = Faction.STAR_ARMY,
    red_faction: Faction = Faction.ZHUH_ZHUH,
    field: Battlefield | None = None,
    rep: int = 4,
) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, blue_faction, tuple(blue), use_attributes=False),
        ForceSpec(Side.RED, red_faction, tuple(red), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        field or Battlefield(),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        BattleOptions(group_splits="off"),  # the §13.1 splits: test_nq_13_1_group_orders.py
    )
    for mech in battle.mechs.values():
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _types(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def _first(events: list[Event], kind: type) -> object:
    return next(e for e in events if isinstance(e, kind))


def test_14_0_activation_higher_die_first_and_doubles_reroll() -> None:
    battle = _battle(["star_army_c3"], ["zhuh_zhuh_c3"])
    events = game.advance(battle, FallbackDice([3, 3, 5, 4], np.random.default_rng(1)))
    rolled = _first(events, ev.ActivationRolled)
    assert isinstance(rolled, ev.ActivationRolled)
    assert (rolled.blue, rolled.red, rolled.rerolled, rolled.first) == (5, 4, ((3, 3),), Side.BLUE)
    # Rep 4 leaders cannot activate on a 5: blue's phase passes, red (die 4) decides first
    assert battle.decision is not None and battle.decision.side is Side.RED
    assert battle.decision.kind is DecisionKind.ACTIVATE_GROUP


def test_14_0_group_activates_when_leader_rep_reaches_die() -> None:
    battle = _battle(["star_army_c3"], ["zhuh_zhuh_c3"], rep=5)
    game.advance(battle, FallbackDice([5, 4], np.random.default_rng(1)))
    assert battle.decision is not None and battle.decision.side is Side.BLUE


def test_5_6_fired_on_pass_one_gives_zhuh_zhuh_rush_shot_in_the_engine() -> None:
    """tv02 through the orchestrator: a miss, Fired On (1, 5) vs Rep 4, Rush Shot back."""
    battle = _battle(["star_army_c3"], ["zhuh_zhuh_c3"])
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 20.0), 270.0)
    ppg = battle.mechs[0].design.items.index(
        next(i for i in battle.mechs[0].design.items if i.item.value == "ppg")
    )
    frame = fire_frame(0, "active")
    frame["assigned"] = [[ppg, 1]]
    battle.frames = [frame]
    ctx = Ctx(battle, FallbackDice([1, 1, 5], np.random.default_rng(2)), load_rules())
    from wargym.rules.no_quarter.battle.flow_fire import resolve_firing

    resolve_firing(ctx, frame)
    game._run(ctx)
    assert isinstance(ctx.log[0], ev.FiringStarted)  # then the shot (docs/events.md)
    shot = ctx.log[1]
    assert isinstance(shot, ev.ShotFired) and (shot.total, shot.hit) == (5, False)
    test = _first(ctx.log, ev.ReactionTaken)
    assert isinstance(test, ev.ReactionTaken)
    assert (test.mech, test.faces, test.passed, test.result) == (
        1,
        (1, 5),
        1,
        ReactionResult.RUSH_SHOT,
    )
    back = [e for e in ctx.log if isinstance(e, ev.ShotFired) and e.shooter == 1]
    assert back and all(e.rush_shot and e.target == 0 for e in back)


def _fire_once(battle: Battle, weapon: int, faces: list[int]) -> list[Event]:
    frame = fire_frame(0, "active")
    frame["assigned"] = [[weapon, 1]]
    battle.frames = [frame]
    ctx = Ctx(battle, FallbackDice(faces, np.random.default_rng(3)), load_rules())
    from wargym.rules.no_quarter.battle.flow_fire import resolve_firing

    resolve_firing(ctx, frame)
    game._run(ctx)
    return ctx.log


def test_16_2_pdf_takes_damage_pass_one_ducks_back_with_rep_minus_one() -> None:
    """tv23c in play: hit, chest, 2d6 vs Impact passes, then Takes Damage (2, 6) vs Rep 4."""
    battle = _battle(["star_army_c3"], ["pdf_c3"], red_faction=Faction.PDF)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 20.0), 270.0)
    # Beam, Light: to-hit 6 (total 10 hits), location 3+4 = chest, 1+2 vs Impact 1 (pass 1)
    log = _fire_once(battle, 1, [6, 3, 4, 1, 2, 2, 6])
    damage = _first(log, ev.DamageRolled)
    assert isinstance(damage, ev.DamageRolled)
    assert (damage.location, damage.passed, damage.armor_after) == (Location.CHEST, 1, 4)
    test = _first(log, ev.ReactionTaken)
    assert isinstance(test, ev.ReactionTaken)
    assert test.test.value == "takes_damage" and test.passed == 1
    assert test.result is ReactionResult.DUCK_BACK and test.rep_change == -1
    assert battle.mechs[1].rep == 3


def test_17_4_2_pass_zero_damage_ducks_back_without_a_test() -> None:
    battle = _battle(["star_army_c3"], ["pdf_c3"], red_faction=Faction.PDF)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 20.0), 270.0)
    log = _fire_once(battle, 0, [6, 3, 4, 6, 6])  # hit chest, 6+6 vs Impact 5: pass 0
    names = _types(log)
    status = _first(log, ev.StatusChanged)
    assert isinstance(status, ev.StatusChanged) and status.status is Status.DUCK_BACK
    assert "ReactionTaken" not in names[: names.index("StatusChanged") + 2]


def test_9_2_star_free_will_is_a_decision_of_the_star_side() -> None:
    battle = _battle(["star_army_c3"], ["zhuh_zhuh_c3"])
    battle.mechs[1].pilot = dataclasses.replace(battle.mechs[1].pilot, star=True)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 20.0), 270.0)
    _fire_once(battle, 0, [1])
    assert battle.decision is not None
    assert (battle.decision.side, battle.decision.kind) == (Side.RED, DecisionKind.FREE_WILL)
    assert game.legal_actions(battle) == [FreeWill(1, 2), FreeWill(1, 1), FreeWill(1, 0)]
    events = game.play(battle, FreeWill(1, 2), FallbackDice([], np.random.default_rng(4)))
    taken = _first(events, ev.ReactionTaken)
    assert isinstance(taken, ev.ReactionTaken) and taken.free_will and taken.passed == 2
    assert taken.result is ReactionResult.FIRE  # tv07: pass 2, in range, not outgunned


def _to_mech_action(battle: Battle, dice: FallbackDice) -> None:
    game.advance(battle, dice)
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MECH_ACTION:
        game.play(battle, game.legal_actions(battle)[0], dice)


def test_18_2_charge_test_then_melee_declarations_for_both_sides() -> None:
    battle = _battle(["star_army_c3"], ["zhuh_zhuh_c3"], rep=5)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 15.0), 270.0)
    dice = FallbackDice([5, 4], np.random.default_rng(5))
    _to_mech_action(battle, dice)
    assert Charge(0, 1) in game.legal_actions(battle)
    events = game.play(battle, Charge(0, 1), dice)
    declared = _first(events, ev.ChargeDeclared)
    assert isinstance(declared, ev.ChargeDeclared) and declared.aspect.value == "front"
    assert any(isinstance(e, ev.ChargeTested) for e in events)
    if battle.mechs[0].removed is None and not battle.mechs[0].prone:
        assert battle.decision is not None
        assert (battle.decision.kind, battle.decision.side) == (
            DecisionKind.MELEE_DECLARE,
            Side.BLUE,
        )
        game.play(battle, DeclareMelee(0, MeleeAttack.PUNCH, Location.ARM_R), dice)
        assert battle.decision is not None and battle.decision.side is Side.RED
        events = game.play(battle, DeclareMelee(1, MeleeAttack.KICK, Location.LEG_L), dice)
        assert any(isinstance(e, ev.MeleeRound) for e in events)


def test_13_2_group_splits_when_the_linking_mech_is_destroyed() -> None:
    """tv11: #1 links #0 and #2, which stand more than 8" apart."""
    battle = _battle(["star_army_c3", "star_army_c4", "star_army_c5"], ["zhuh_zhuh_c3"])
    _place(battle, 0, (6.0, 5.0), 90.0)
    _place(battle, 1, (12.0, 5.0), 90.0)
    _place(battle, 2, (18.0, 5.0), 90.0)
    assert form_groups(battle, Side.BLUE) == [[0, 1, 2]]
    ctx = Ctx(battle, ScriptedDice([]), load_rules())
    remove(ctx, battle.mechs[1], Removal.INOPERABLE)
    assert form_groups(battle, Side.BLUE) == [[0], [2]]


def test_12_0_successor_takes_over_when_the_leader_is_lost() -> None:
    """tv29: the Team's highest-Rep pilot becomes Team Leader."""
    battle = _battle(["star_army_c3", "star_army_c4", "star_army_c5"], ["zhuh_zhuh_c3"])
    battle.mechs[2].rep = 6
    assert battle.mechs[0].rank is Rank.TEAM_LEADER
    ctx = Ctx(battle, ScriptedDice([]), load_rules())
    remove(ctx, battle.mechs[0], Removal.DESTROYED)
    appointed = _first(ctx.log, ev.LeaderAppointed)
    assert isinstance(appointed, ev.LeaderAppointed) and appointed.mech == 2
    assert battle.mechs[2].rank is Rank.TEAM_LEADER


def test_16_1_coming_into_sight_pauses_the_move_for_an_in_sight() -> None:
    """tv28: a move out from behind a building triggers In Sight and the free 2" moves."""
    wall = Feature(Terrain.BUILDING, 15.0, 14.0, 21.0, 16.0, building_armor=3)
    battle = _battle(
        ["star_army_c3", "star_army_c4"],
        ["zhuh_zhuh_c3"],
        rep=5,
        field=Battlefield(features=(wall,)),
    )
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (20.0, 10.0), 90.0)
    _place(battle, 2, (18.0, 22.0), 270.0)
    dice = FallbackDice([5, 4], np.random.default_rng(6))
    _to_mech_action(battle, dice)
    mover = battle.decision.mech if battle.decision else None
    assert mover in (0, 1)
    events = game.play(battle, Move(mover, (10.0, 12.0)), dice)
    assert any(isinstance(e, ev.MechMoved) for e in events)
    kinds = {battle.decision.kind} if battle.decision else set()
    took = any(isinstance(e, ev.InSightTaken) for e in events)
    assert took or DecisionKind.FREE_MOVE in kinds
