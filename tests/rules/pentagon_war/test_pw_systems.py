"""Acid gum, magnetic beams, point defence, linkage, repair in play (PW-R9, R15, R16, R18, R19)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from wargym.rules.dice import ScriptedDice
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision, fire_blocker
from wargym.rules.pentagon_war.events import (
    DamageApplied,
    LinkChanged,
    MagneticDeflection,
    MissileArrived,
)
from wargym.rules.pentagon_war.game import decision_for, new_battle, play
from wargym.rules.pentagon_war.records import Options, Placement, Scenario
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase

sys.path.insert(0, str(Path(__file__).parent))
from pw_play import RULES, passive, run  # noqa: E402


def two_ships(a: str, b: str, at_b: tuple[int, int] = (0, 8), **kw: object) -> BattleState:
    scen = Scenario("test", "test", ((Placement(a, (0, 10), 0),), (Placement(b, at_b, 3),)))
    state, _ = new_battle(scen, np.random.default_rng(0), Options(**kw))  # type: ignore[arg-type]
    return state


def test_pw_pipe_3_acid_gum_in_play_1_then_2_2_2_on_the_first_row() -> None:
    state = two_ships("lancer", "alpha_centaurian_fighter")

    def gum(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.subject == "f2_acid_gum_gun":
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    events = run(state, ScriptedDice([3, 3]), gum, lambda s: s.impulse == 5)
    hits = [e for e in events if isinstance(e, DamageApplied)]
    assert [(h.row, h.screen, h.after_screen) for h in hits] == [
        (1, 1, 1),
        (1, 0, 2),
        (1, 0, 2),
        (1, 0, 2),
    ]
    assert [h.source for h in hits] == [f"acid_gum_packet_{n}" for n in (1, 2, 3, 4)]
    assert state.ships[1].armor[0] == 3


def _lmg(state: BattleState, beam: int) -> Callable[[BattleState, Decision], Action]:
    def crew(s: BattleState, d: Decision) -> Action:
        if d.ship == 1 and d.kind is DecisionKind.MAG_BEAM:
            return Action(ActionKind.CHOOSE, beam)
        if d.ship == 0 and d.subject == "f2_liquid_metal_gun":
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    return crew


def test_pw_r16_magnetic_beam_deflects_liquid_metal_on_8() -> None:
    state = two_ships("alpha_centaurian_fighter", "alpha_centaurian_fighter")
    events = run(state, ScriptedDice([4, 4, 4, 4]), _lmg(state, 1), lambda s: s.impulse == 2)
    (defl,) = [e for e in events if isinstance(e, MagneticDeflection)]
    assert (defl.needed, defl.deflected) == (8, True)
    assert state.ships[1].armor == [10] * 6 and state.ships[1].charges == 5


def test_pw_r16_double_beam_needs_6_and_a_failed_roll_lets_damage_through() -> None:
    state = two_ships("alpha_centaurian_fighter", "alpha_centaurian_fighter")
    events = run(state, ScriptedDice([4, 4, 2, 3]), _lmg(state, 2), lambda s: s.impulse == 2)
    (defl,) = [e for e in events if isinstance(e, MagneticDeflection)]
    assert (defl.needed, defl.deflected) == (6, False)
    assert state.ships[1].armor[0] == 5  # 6 - screen 1 = 5 absorbed
    assert state.ships[1].charges == 4


def test_pw_r15_point_defence_intercepts_on_7() -> None:
    state = two_ships("alpha_centaurian_fighter", "alpha_centaurian_fighter", at_b=(0, 6))

    def salvo(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.kind is DecisionKind.LAUNCH and s.impulse == 1:
            return Action(ActionKind.RAIL_LAUNCH, 1)
        return passive(s, d)

    events = run(state, ScriptedDice([4, 3]), salvo, lambda s: s.impulse == 3)
    (arrival,) = [e for e in events if isinstance(e, MissileArrived)]
    assert arrival.pd_faces == (4, 3) and arrival.intercepted
    assert state.ships[0].power["rail_launch_missile"] == 1


def test_pw_r19_linked_craft_ride_with_the_carrier_and_can_unlink() -> None:
    state, _ = new_battle("carrier", np.random.default_rng(0))
    assert state.options.linkage
    carrier, left, right = state.ships[0], state.ships[1], state.ships[2]
    assert (left.linked_to, left.berth, right.berth) == (0, 1, 2)
    run(state, ScriptedDice([]), passive, lambda s: s.phase is Phase.ORDERS)
    kinds = []
    while (d := decision_for(state, 0)) is not None:
        kinds.append((d.ship, d.kind))
        if d.kind is DecisionKind.ROTATE:
            play(state, Action(ActionKind.ROTATE, 1), ScriptedDice([]), side=0)
        elif d.kind is DecisionKind.THRUST:
            assert len(d.options) == 2
            play(state, Action(ActionKind.CHOOSE, 1), ScriptedDice([]), side=0)
        elif d.kind is DecisionKind.LINK and d.ship == 1:
            play(state, Action(ActionKind.CHOOSE, 1), ScriptedDice([]), side=0)
        else:
            play(state, passive(state, d), ScriptedDice([]), side=0)
    assert (1, DecisionKind.ROTATE) not in kinds and (1, DecisionKind.LINK) in kinds
    events = run(state, ScriptedDice([]), passive, lambda s: s.impulse == 2)
    assert any(isinstance(e, LinkChanged) and e.ship == 1 and not e.linked for e in events)
    assert carrier.facing == right.facing == 1 and left.facing == 1
    assert left.linked_to is None and right.linked_to == 0


def test_pw_r19_linked_fighter_may_not_fire_into_its_blocked_arc() -> None:
    state, _ = new_battle("carrier", np.random.default_rng(0))
    left = state.ships[1]  # berth 1: L blocked
    enemy = state.ships[3]
    enemy.q, enemy.r = -3, 13  # bearing 270 from (0, 12): the L arc
    weapon = state.design_of(left).system("l3_laser")
    assert fire_blocker(state, RULES, left, weapon, enemy) == "arc blocked by the linkage"
    left.linked_to = None
    assert fire_blocker(state, RULES, left, weapon, enemy) is None


def test_pw_r18_optional_repair_restores_one_box_at_turn_end() -> None:
    state, _ = new_battle("carrier", np.random.default_rng(0), Options(repair=True, max_turns=2))
    state.ships[0].intact["engines"] = 4
    run(state, ScriptedDice([]), passive, lambda s: s.turn == 2)
    assert state.ships[0].intact["engines"] == 5


def test_pw_r11_declared_fire_is_paid_before_damage_drains_capacitors() -> None:
    state = two_ships("alpha_centaurian_fighter", "alpha_centaurian_fighter", at_b=(0, 7))
    state.ships[1].armor = [0] * 6
    volley = {"f2_laser", "l3_laser", "r3_laser", "f2_electron", "f3_proton"}

    def crews(s: BattleState, d: Decision) -> Action:
        if d.kind is DecisionKind.FIRE and (d.ship == 1 and d.subject in volley):
            return Action(ActionKind.FIRE, 0)
        if d.kind is DecisionKind.FIRE and d.ship == 0 and d.subject == "f2_laser":
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    dice = ScriptedDice([4, 5, 3, 3, 3, 3, 3, 3] + [1, 1] * 5)
    events = run(state, dice, crews, lambda s: s.impulse == 2)
    names = [type(e).__name__ for e in events]
    assert names.count("ShotFired") == 6 and "PowerLost" not in names
    assert state.ships[1].intact["capacitors"] == 3 and state.ships[1].charges == 0
    assert dice.remaining == 0
