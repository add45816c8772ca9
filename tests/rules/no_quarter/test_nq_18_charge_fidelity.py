"""Charges, melee and movement as the digest rules them (issue 15: §6.2, §10.6.1, §18, D5, D25).

Hand-built battles on an open table, driven through ``game.play`` with scripted dice.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Charge,
    ChooseMech,
    DecisionKind,
    DeclareMelee,
    FreeMove,
    Move,
)
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.flow_fire import fire_frame, resolve_firing
from wargym.rules.no_quarter.battle.flow_move import insight_options
from wargym.rules.no_quarter.battle.reaction import in_sight_dice
from wargym.rules.no_quarter.battle.state import LOCATIONS, Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Faction,
    Location,
    MeleeAttack,
    Side,
    Status,
    Terrain,
)
from wargym.rules.no_quarter.sight_movement.geometry import distance


def _battle(n_blue: int = 1, n_red: int = 1, features: tuple[Feature, ...] = ()) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * n_blue, use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",) * n_red, use_attributes=False),
    ]
    battle = new_battle(
        forces,
        Battlefield(features=features),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        BattleOptions(group_splits="off"),  # the §13.1 splits: test_nq_13_1_group_orders.py
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _to_mech_action(battle: Battle, dice: FallbackDice) -> None:
    game.advance(battle, dice)
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MECH_ACTION:
        game.play(battle, game.legal_actions(battle)[0], dice)


def _dice(*faces: int) -> FallbackDice:
    return FallbackDice([5, 4, *faces], np.random.default_rng(3))


def _patched(monkeypatch: pytest.MonkeyPatch, **changes: object) -> NoQuarterRules:
    """Rules as if the YAML said otherwise (``table=field=value`` pairs)."""
    base = load_rules()
    tables: dict[str, object] = {}
    for key, value in changes.items():
        table, field = key.split("__")
        tables[table] = dataclasses.replace(
            tables.get(table, getattr(base, table)), **{field: value}
        )
    rules = dataclasses.replace(base, **tables)
    monkeypatch.setattr(game, "load_rules", lambda options=None: rules)
    return rules


def _moves(events: list[Event], kind: str) -> list[ev.MechMoved]:
    return [e for e in events if isinstance(e, ev.MechMoved) and e.kind == kind]


ROUGH = Feature(Terrain.ROUGH, 10.0, 6.0, 26.0, 14.0)


def test_18_2_charge_reach_counts_terrain_cost() -> None:
    """13" apart: 10" to the 3" point, 8" of it through rough ground (cost 18 > Speed 10)."""
    open_field = _battle()
    rough = _battle(features=(ROUGH,))
    for battle in (open_field, rough):
        _place(battle, 0, (18.0, 5.0), 90.0)
        _place(battle, 1, (18.0, 18.0), 270.0)
        _to_mech_action(battle, _dice())
        assert battle.decision is not None and battle.decision.mech == 0
    assert Charge(0, 1) in game.legal_actions(open_field)
    assert Charge(0, 1) not in game.legal_actions(rough)


def test_18_2_1_charge_stage_distance_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """14.5" apart, Speed 10: out of reach with a 3" stage, in reach with a 5" one."""
    battle = _battle()
    _place(battle, 0, (18.0, 5.0), 90.0)
    _place(battle, 1, (18.0, 19.5), 270.0)
    dice = _dice()
    _to_mech_action(battle, dice)
    assert Charge(0, 1) not in game.legal_actions(battle)
    _patched(monkeypatch, charge__stage_distance_inches=5)
    battle.options_cache = None
    assert Charge(0, 1) in game.legal_actions(battle)
    events = game.play(battle, Charge(0, 1), dice)
    stage = _moves(events, "charge")[0]
    assert distance(stage.path[-1], (18.0, 19.5)) == pytest.approx(5.0)


def test_17_4_fast_moving_threshold_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A shooter that moved 6" is Fast Moving only if the table says 5" (ruling D7)."""
    flags = []
    for threshold in (10, 5):
        rules = dataclasses.replace(
            load_rules(),
            ranged_combat=dataclasses.replace(
                load_rules().ranged_combat, fast_moving_inches=threshold
            ),
        )
        battle = _battle()
        _place(battle, 0, (18.0, 10.0), 90.0)
        _place(battle, 1, (18.0, 20.0), 270.0)
        battle.mechs[0].moved = 6.0
        items = battle.mechs[0].design.items
        ppg = items.index(next(i for i in items if i.item.value == "ppg"))
        frame = fire_frame(0, "active")
        frame["assigned"] = [[ppg, 1]]
        battle.frames = [frame]
        ctx = Ctx(battle, FallbackDice([1, 1, 5], np.random.default_rng(2)), rules)
        resolve_firing(ctx, frame)
        shot = next(e for e in ctx.log if isinstance(e, ev.ShotFired))
        flags.append(shot.shooter_fast)
    assert flags == [False, True]


def test_16_1_3_free_move_distance_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The free move's farthest points lie free_move_inches away (2" in the table)."""
    battle = _battle()
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 30.0), 270.0)
    frame = {"kind": "insight", "stage": "free", "free": [0]}
    reaches = []
    for inches in (2, 4):
        rules = dataclasses.replace(
            load_rules(),
            in_sight=dataclasses.replace(load_rules().in_sight, free_move_inches=inches),
        )
        options = insight_options(battle, rules, frame)
        points = [a.to for a in options if isinstance(a, FreeMove) and a.to is not None]
        reaches.append(round(max(distance((18.0, 10.0), p) for p in points), 3))
    assert reaches == [2.0, 4.0]


def _charge_into_fire(battle: Battle, dice: FallbackDice) -> list[Event]:
    """Blue #0 charges red #1; red's weapon assignments are played in order."""
    _to_mech_action(battle, dice)
    log = list(game.play(battle, Charge(0, 1), dice))
    while battle.decision is not None and battle.decision.kind is DecisionKind.ASSIGN_FIRE:
        log.extend(game.play(battle, game.legal_actions(battle)[0], dice))
    return log


def test_18_2_charger_that_ducked_back_from_the_target_fire_does_not_close() -> None:
    """Charger passes 0, target 2: it fires; a hit passing 0d6 ducks the charger back (§17.4.2)."""
    battle = _battle()
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 15.0), 270.0)
    log = _charge_into_fire(battle, _dice(6, 6, 1, 1, *([6, 3, 4, 6, 6] * 6)))
    assert any(isinstance(e, ev.DuckedBack) and e.mech == 0 for e in log)
    assert len(_moves(log, "charge")) == 1  # the stage move only: no move into contact
    assert distance(battle.mechs[0].pos, battle.mechs[1].pos) > 3.0
    assert not any(isinstance(e, ev.MeleeRound) for e in log)
    assert battle.decision is None or battle.decision.kind is not DecisionKind.MELEE_DECLARE


def test_15_2_3_d25_prone_leaving_mech_stands_then_leaves() -> None:
    """A prone mech with Leave the Battlefield stands at its side's next phase, then leaves."""
    battle = _battle(n_blue=2)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (30.0, 10.0), 90.0)
    _place(battle, 2, (18.0, 30.0), 270.0)
    battle.mechs[0].prone = True
    battle.mechs[0].status = Status.LEAVE_BATTLEFIELD
    log = game.advance(battle, _dice())
    stood = [i for i, e in enumerate(log) if isinstance(e, ev.StoodUp) and e.mech == 0]
    left = [i for i, e in enumerate(log) if isinstance(e, ev.MechMoved) and e.mech == 0]
    assert stood and left and stood[0] < left[0]
    assert _moves(log, "leave") and not battle.mechs[0].prone
    assert battle.mechs[0].pos[1] < 10.0  # toward blue's home edge


def _to_mech(battle: Battle, dice: FallbackDice, mech: int) -> None:
    """Advance until ``mech`` decides its action (choosing it when its group asks)."""
    game.advance(battle, dice)
    while battle.decision is not None and not (
        battle.decision.kind is DecisionKind.MECH_ACTION and battle.decision.mech == mech
    ):
        options = game.legal_actions(battle)
        chosen = [a for a in options if isinstance(a, ChooseMech) and a.mech == mech]
        keep = [a for a in options if type(a).__name__ == "KeepGroups"]  # §13.1: no splits
        game.play(battle, (chosen or keep or options)[0], dice)


def _three_on_one() -> Battle:
    """Blues #0-#2 in base contact with red #4; blue #3 5" away."""
    battle = _battle(n_blue=4)
    _place(battle, 4, (18.0, 20.0), 270.0)
    for mech, pos in ((0, (17.0, 20.0)), (1, (19.0, 20.0)), (2, (18.0, 21.0))):
        _place(battle, mech, pos, 0.0)
    _place(battle, 3, (18.0, 15.0), 90.0)
    return battle


def test_18_3_4_at_most_three_attackers_on_one_mech() -> None:
    battle = _three_on_one()
    _to_mech(battle, _dice(), 3)
    assert not any(isinstance(a, Charge) for a in game.legal_actions(battle))


def test_18_3_4_attacker_limit_is_read_from_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    _patched(monkeypatch, multiple_melee__max_attackers_per_target=4)
    battle = _three_on_one()
    _to_mech(battle, _dice(), 3)
    assert Charge(3, 4) in game.legal_actions(battle)


def test_18_3_1_d19_melee_blow_on_a_blown_off_arm_is_protected() -> None:
    """Blue punches and wins; the blow lands on red's missing left arm: no effect (D19)."""
    battle = _battle()
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 11.0), 270.0)
    red = battle.mechs[1]
    red.armor[LOCATIONS.index(Location.ARM_L)] = 0
    red.lost_limbs.append(Location.ARM_L)
    red.inoperable.extend(
        i for i, it in enumerate(red.design.items) if it.location is Location.ARM_L
    )
    armor = list(red.armor)
    # blue's 5 dice all succeed, red's 7 (Rage) all fail; location die 2 = left arm
    dice = _dice(*([1] * 5), *([6] * 7), 2)
    log = list(game.advance(battle, dice))
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MELEE_DECLARE:
        log.extend(game.play(battle, game.legal_actions(battle)[0], dice))
    log.extend(game.play(battle, DeclareMelee(0, MeleeAttack.PUNCH, Location.ARM_R), dice))
    log.extend(game.play(battle, DeclareMelee(1, MeleeAttack.KICK, Location.LEG_L), dice))
    located = next(e for e in log if isinstance(e, ev.HitLocated))
    assert located.location is Location.ARM_L and located.protected
    after = log[log.index(located) + 1 :]
    assert not any(
        isinstance(e, ev.DamageRolled | ev.CriticalHit) and e.location is Location.ARM_L
        for e in after
    )
    assert (
        red.armor[: LOCATIONS.index(Location.ARM_L) + 1]
        == armor[: LOCATIONS.index(Location.ARM_L) + 1]
    )


def test_18_2_1_d33_engaged_target_does_not_fire_at_a_new_charger() -> None:
    """Red #2 melees blue #1; blue #0 charges it and loses the test: red may not fire (D33)."""
    battle = _battle(n_blue=2)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (19.0, 15.0), 180.0)
    _place(battle, 2, (18.0, 15.0), 270.0)
    dice = _dice(6, 6, 1, 1, *([6, 3, 4, 6, 6] * 6))
    _to_mech(battle, dice, 0)
    log = list(game.play(battle, Charge(0, 2), dice))
    tested = next(e for e in log if isinstance(e, ev.ChargeTested))
    assert tested.outcome == "fire"
    assert not any(isinstance(e, ev.ShotFired) for e in log)
    assert battle.decision is not None and battle.decision.kind is DecisionKind.MELEE_DECLARE


def test_16_2_no_mech_down_test_from_fire_during_a_charge() -> None:
    """The target's fire destroys the charger; its friend 2.7" away takes no Mech Down."""
    battle = _battle(n_blue=2)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (20.5, 11.0), 90.0)
    _place(battle, 2, (18.0, 15.0), 270.0)
    # charge test 6,6 vs 1,1: the target fires; hit (6), head (1+1), damage 1,1: head blown off
    dice = _dice(6, 6, 1, 1, 6, 1, 1, 1, 1, *([6] * 40))
    _to_mech(battle, dice, 0)
    log = list(game.play(battle, Charge(0, 2), dice))
    assert battle.mechs[0].removed is not None
    assert not any(isinstance(e, ev.ReactionTaken) and e.mech == 1 for e in log)


def test_10_6_1_jump_lands_facing_the_way_it_faced_before() -> None:
    """A jump over a building keeps the pre-jump heading (§10.6.1, ruling D28)."""
    wall = Feature(Terrain.BUILDING, 15.0, 11.0, 21.0, 13.0, building_armor=3)
    battle = _battle(features=(wall,))
    _place(battle, 0, (18.0, 10.0), 0.0)
    _place(battle, 1, (18.0, 32.0), 270.0)
    dice = _dice()
    _to_mech_action(battle, dice)
    jumps = [a for a in game.legal_actions(battle) if isinstance(a, Move) and a.jump]
    over = max(jumps, key=lambda a: a.to[1])
    assert over.to[1] > 13.0
    log = game.play(battle, over, dice)
    assert _moves(log, "jump")[0].heading == 0.0
    assert battle.mechs[0].heading == 0.0


def test_6_2_charge_aspect_counts_from_where_the_move_began() -> None:
    """Blue #0 starts beside red's flank, steps out behind it from a building and wins the
    In Sight; unable to fire, it charges. Rear needs the start behind too: flank (D4)."""
    wall = Feature(Terrain.BUILDING, 14.0, 19.5, 17.0, 21.5, building_armor=3)
    battle = _battle(n_blue=2, features=(wall,))
    _place(battle, 0, (15.0, 18.0), 90.0)
    _place(battle, 1, (21.0, 18.0), 90.0)
    _place(battle, 2, (18.0, 23.0), 155.0)
    for mech in (battle.mechs[0], battle.mechs[1]):
        mech.inoperable.extend(mech.operable_ranged_weapons)

    def n(mech: int) -> int:
        m = battle.mechs[mech]
        return in_sight_dice(
            m.rep, race=m.pilot.race, attributes=m.pilot.attributes, enemy_concealed=False
        )

    dice = _dice(*([1] * n(0)), *([6] * n(2)))
    _to_mech(battle, dice, 0)
    log = list(game.play(battle, Move(0, (17.5, 18.0)), dice))
    while battle.decision is not None and battle.decision.kind in (
        DecisionKind.FREE_MOVE,
        DecisionKind.CHOOSE_MECH,
    ):
        kind = battle.decision.kind
        mech = battle.decision.mech
        step = FreeMove(mech, None) if kind is DecisionKind.FREE_MOVE else ChooseMech(0)
        log.extend(game.play(battle, step, dice))
    declared = next(e for e in log if isinstance(e, ev.ChargeDeclared))
    assert declared.charger == 0 and declared.aspect is Aspect.FLANK


def test_18_2_charge_out_of_reach_through_terrain_is_refused_unchanged() -> None:
    """Bad input: a charge the terrain puts out of reach is an illegal action; state unchanged."""
    battle = _battle(features=(ROUGH,))
    _place(battle, 0, (18.0, 5.0), 90.0)
    _place(battle, 1, (18.0, 18.0), 270.0)
    dice = _dice()
    _to_mech_action(battle, dice)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="Charge|legal"):
        game.play(battle, Charge(0, 1), dice)
    assert battle.to_dict() == before


def test_18_3_4_fourth_attacker_charge_is_refused_unchanged() -> None:
    """Bad input: a fourth charger at a mech three enemies already melee is illegal."""
    battle = _three_on_one()
    dice = _dice()
    _to_mech(battle, dice, 3)
    before = battle.to_dict()
    with pytest.raises(IllegalActionError, match="Charge|legal"):
        game.play(battle, Charge(3, 4), dice)
    assert battle.to_dict() == before
