"""Issue 19 item 1: rulings that played differently from the digest, and YAML keys the engine read.

PW-R2: the fire step is decided from the state at its start; damage applied by one shot of the
impulse changes only which chart boxes are left for the next, not the screens or point defence
of that step. PW-R18: optional repair restores any destroyed non-armor, non-Final-Damage box,
radar included. PW-R15 ``launches_per_launcher_per_turn`` and PW-R5
``max_thrust_points_per_impulse`` change play when edited.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import RulesError, TableError
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision
from wargym.rules.pentagon_war.data import BASE, FILES, load_rules_from
from wargym.rules.pentagon_war.events import DamageApplied, MissileArrived, SystemRepaired
from wargym.rules.pentagon_war.game import decision_for, new_battle, play
from wargym.rules.pentagon_war.records import Options, Placement, RuleSet, Scenario
from wargym.rules.pentagon_war.state import BattleState, DecisionKind
from wargym.rules.tables import load_config, parse_yaml, read_config_text

sys.path.insert(0, str(Path(__file__).parent))
from pw_play import RULES, passive, run  # noqa: E402

CARRIER = "alpha_centaurian_carrier"  # has a Repair box


def duel(
    at_b: tuple[int, int] = (0, 4),
    rules: RuleSet = RULES,
    first: str = "alpha_centaurian_fighter",
    **kw: object,
) -> BattleState:
    fighter = "alpha_centaurian_fighter"
    scen = Scenario(
        "test", "test", ((Placement(first, (0, 10), 0),), (Placement(fighter, at_b, 3),))
    )
    state, _ = new_battle(scen, np.random.default_rng(0), Options(**kw), rules=rules)  # type: ignore[arg-type]
    return state


def test_pw_r2_point_defence_engages_with_the_boxes_intact_at_the_start_of_the_fire_step() -> None:
    state = duel()
    state.ships[1].armor = [0] * 6

    def crew(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.kind is DecisionKind.LAUNCH and s.impulse == 1:
            return Action(ActionKind.RAIL_LAUNCH, 1)  # range 6: arrives on impulse 2
        if d.ship == 0 and d.subject == "f2_laser" and s.impulse == 2:
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    # laser 6+6 at range 6: roll 10, 4 damage, screen 1, 3 internal: both Point Defense boxes
    # and a Forward Hull box; then the missile arrives and the point defence still engages.
    dice = ScriptedDice([6, 6, 2, 5, 2, 6, 1, 1, 4, 3])
    events = run(state, dice, crew, lambda s: s.impulse == 3)
    assert state.ships[1].intact["point_defense"] == 0
    (arrival,) = [e for e in events if isinstance(e, MissileArrived)]
    assert arrival.pd_faces == (4, 3) and arrival.intercepted
    assert dice.remaining == 0


def test_pw_r2_screens_keep_their_strength_for_every_hit_of_the_fire_step() -> None:
    state = duel()
    state.ships[1].armor = [0] * 6

    def crew(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.subject in ("f2_laser", "l3_laser"):
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    # first laser: 4 damage - screen 1 = 3 internal, two of them take both Screen boxes;
    # second laser: roll 1+1+2-4 = 0, 1 damage, still stopped by the screen of this step.
    dice = ScriptedDice([6, 6, 5, 3, 5, 3, 1, 1, 1, 1])
    events = run(state, dice, crew, lambda s: s.impulse == 2)
    hits = [e for e in events if isinstance(e, DamageApplied)]
    assert state.ships[1].intact["screens"] == 0
    assert [(h.damage, h.screen, h.after_screen) for h in hits] == [(4, 1, 3), (1, 1, 0)]
    assert dice.remaining == 0


def test_pw_r2_screens_lost_in_one_fire_step_are_gone_in_the_next() -> None:
    state = duel()
    state.ships[1].armor = [0] * 6
    state.ships[1].intact["screens"] = 0
    dice = ScriptedDice([1, 1])

    def crew(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.subject == "f2_laser":
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    state.ships[1].armor[0] = 1
    events = run(state, dice, crew, lambda s: s.impulse == 2)
    (hit,) = [e for e in events if isinstance(e, DamageApplied)]
    assert (hit.screen, hit.after_screen, hit.absorbed) == (0, 1, 1)


def test_pw_r18_repair_restores_a_destroyed_radar_box() -> None:
    state = duel(at_b=(0, -10), first=CARRIER, repair=True, max_turns=2)
    state.ships[0].radar_destroyed = 2
    events = run(state, ScriptedDice([]), passive, lambda s: s.turn == 2)
    assert state.ships[0].radar_destroyed == 1
    assert [e.system for e in events if isinstance(e, SystemRepaired)] == ["radar"]


def test_pw_r18_repair_takes_ssd_systems_before_the_radar_track() -> None:
    state = duel(at_b=(0, -10), first=CARRIER, repair=True, max_turns=2)
    state.ships[0].radar_destroyed = 1
    state.ships[0].intact["engines"] -= 1
    run(state, ScriptedDice([]), passive, lambda s: s.turn == 2)
    assert (
        state.ships[0].intact["engines"] == RULES.designs[CARRIER].system("engines").boxes
        and state.ships[0].radar_destroyed == 1
    )


def _edited(stem: str, old: str, new: str) -> RuleSet:
    text = read_config_text(f"{BASE}{stem}.yaml")
    assert old in text
    nodes = {name: load_config(f"{BASE}{name}.yaml") for name in FILES}
    nodes[stem] = parse_yaml(text.replace(old, new), f"{BASE}{stem}.yaml")
    return load_rules_from(nodes)


def test_pw_r15_launches_per_launcher_per_turn_is_read_from_the_yaml() -> None:
    two = _edited(
        "systems", "launches_per_launcher_per_turn: 1", "launches_per_launcher_per_turn: 2"
    )
    assert two.systems.launches_per_launcher_per_turn == 2
    state = duel(rules=two)
    run(state, ScriptedDice([]), passive, lambda s: s.phase.value == "orders", rules=two)
    kinds = []
    while (d := decision_for(state, 0, two)) is not None:
        kinds.append(d.kind)
        play(state, passive(state, d), ScriptedDice([]), side=0, rules=two)
    assert kinds.count(DecisionKind.LAUNCH) == 2  # one Missile box, two launches a turn
    assert RULES.systems.launches_per_launcher_per_turn == 1


def test_pw_r5_max_thrust_points_per_impulse_is_read_from_the_yaml() -> None:
    two = _edited(
        "movement", "max_thrust_points_per_impulse: 1", "max_thrust_points_per_impulse: 2"
    )
    assert two.max_thrust_per_impulse == 2
    state = duel(at_b=(0, -10), rules=two)
    run(state, ScriptedDice([]), passive, lambda s: s.phase.value == "orders", rules=two)
    while (d := decision_for(state, 0, two)) is not None and d.kind is not DecisionKind.THRUST:
        play(state, passive(state, d), ScriptedDice([]), side=0, rules=two)
    assert d is not None
    assert [a.value for a in d.options] == [0, 1, 2]
    play(state, Action(ActionKind.CHOOSE, 2), ScriptedDice([]), side=0, rules=two)
    run(state, ScriptedDice([]), passive, lambda s: s.turn == 2, rules=two)
    assert (state.ships[0].va, state.ships[0].vc) == (2, 0)  # two points along A in one impulse


def test_pw_r5_max_thrust_points_per_impulse_out_of_range_is_a_table_error() -> None:
    with pytest.raises(TableError, match="max_thrust_points_per_impulse"):
        _edited("movement", "max_thrust_points_per_impulse: 1", "max_thrust_points_per_impulse: 9")


def test_pw_r15_launches_per_launcher_per_turn_default_keeps_one_launch() -> None:
    state = duel()
    run(state, ScriptedDice([]), passive, lambda s: s.phase.value == "orders")
    kinds = []
    while (d := decision_for(state, 0)) is not None:
        kinds.append(d.kind)
        play(state, passive(state, d), ScriptedDice([]), side=0)
    assert kinds.count(DecisionKind.LAUNCH) == 1
    assert dataclasses.is_dataclass(RULES.systems)


def test_pw_r5_several_thrust_points_per_impulse_with_omnidirectional_thrust_is_refused() -> None:
    two = _edited(
        "movement", "max_thrust_points_per_impulse: 1", "max_thrust_points_per_impulse: 2"
    )
    with pytest.raises(RulesError, match="max_thrust_points_per_impulse is 2"):
        duel(rules=two, omnidirectional_thrust=True)
