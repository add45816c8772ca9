"""The scripted captain always answers with a legal option and follows its documented tactics."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.pentagon_war.actions import HOLD, Action, ActionKind, Decision
from wargym.rules.pentagon_war.captain import captain_action, nearest_enemy
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.game import decider, decision_for, is_over, new_battle, play
from wargym.rules.pentagon_war.records import Options, Placement, Scenario
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase
from wargym.rules.pentagon_war.strategies import PLAYERS, play_duel
from wargym.rules.pentagon_war.weapons import armor_row_at, in_arc, relative_bearing_qr


def test_pw_captain_plays_whole_battles_legally() -> None:
    for seed, scenario in enumerate(("duel", "fleet", "squadron", "carrier")):
        rng = np.random.default_rng(seed)
        state, _ = new_battle(scenario, rng, Options(max_turns=3, linkage=scenario == "carrier"))
        dice = RandomDice(rng)
        while not is_over(state):
            d = decider(state)
            assert d is not None
            action = captain_action(state, d)
            assert action in d.options
            play(state, action, dice, side=d.side)


def test_pw_captain_buys_ecm_near_an_enemy_and_turns_towards_it() -> None:
    state, _ = new_battle("duel", np.random.default_rng(0))
    state.ships[1].q, state.ships[1].r = 4, 6  # to the right front of ship 0 (facing A)
    d = decision_for(state, 0)
    assert d is not None and d.kind is DecisionKind.ECM
    assert captain_action(state, d) == Action(ActionKind.CHOOSE, 1)
    assert nearest_enemy(state, state.ships[0]) is state.ships[1]
    state.ships[1].q, state.ships[1].r = 6, 10  # abeam to the right: 120 degrees
    while (d := decision_for(state, 0)) is not None and d.kind is not DecisionKind.ROTATE:
        play(state, captain_action(state, d), RandomDice(np.random.default_rng(0)), side=0)
    while (d1 := decision_for(state, 1)) is not None and d1.kind is not DecisionKind.ROTATE:
        play(state, captain_action(state, d1), RandomDice(np.random.default_rng(0)), side=1)
    d = decision_for(state, 0)
    assert d is not None and d.kind is DecisionKind.ROTATE
    assert captain_action(state, d) == Action(ActionKind.ROTATE, 1)


def test_pw_captain_beats_random_orders_more_often_than_not() -> None:
    wins = losses = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        state, _ = new_battle("duel", rng, Options(max_turns=20))
        dice = RandomDice(rng)
        while not is_over(state):
            d = decider(state)
            assert d is not None
            if d.side == 0:
                action = captain_action(state, d)
            else:
                action = d.options[int(rng.integers(len(d.options)))]
            play(state, action, dice, side=d.side)
        assert state.outcome is not None
        wins += state.outcome.winner == 0
        losses += state.outcome.winner == 1
    assert wins > losses


# -- issue 19: a captain a newcomer would call competent --------------------------------------

FIGHTER = "alpha_centaurian_fighter"


def _setup(
    me: tuple[int, int], facing: int, velocity: tuple[int, int], enemy: tuple[int, int]
) -> BattleState:
    scen = Scenario(
        "test",
        "test",
        ((Placement(FIGHTER, me, facing, velocity),), (Placement(FIGHTER, enemy, 3),)),
    )
    state, _ = new_battle(scen, np.random.default_rng(0))
    return state


def _power_choices(state: BattleState, side: int = 0) -> dict[DecisionKind, int]:
    """The captain's impulse-1 allocation for ``side`` (the other side plots nothing yet)."""
    chosen = {}
    while (d := decision_for(state, side)) is not None and state.phase is Phase.POWER:
        action = captain_action(state, d)
        chosen[d.kind] = action.value
        play(state, action, ScriptedDice([]), side=side)
    return chosen


def _play_turn(state: BattleState, other: Callable[[BattleState, Decision], Action]) -> None:
    """Captain for side 0, ``other`` for side 1, to the end of the current turn (no dice)."""
    turn = state.turn
    dice = RandomDice(np.random.default_rng(1))
    while not is_over(state) and state.turn == turn:
        d = decider(state)
        assert d is not None
        action = captain_action(state, d) if d.side == 0 else other(state, d)
        play(state, action, dice, side=d.side)


def _passive(state: BattleState, d: Decision) -> Action:
    for wanted in (Action(ActionKind.CHOOSE, 0), Action(ActionKind.ROTATE, 0), HOLD):
        if wanted in d.options:
            return wanted
    return d.options[0]


def test_pw_captain_reinforces_screens_buys_ecm_and_eccm_at_close_range() -> None:
    state = _setup((0, 3), 0, (0, 0), (0, 1))
    chosen = _power_choices(state)
    assert chosen[DecisionKind.ECM] == 1  # the enemy's full volley at 2 hexes is worth blunting
    assert chosen[DecisionKind.ECCM] == 1  # and it will buy ECM too
    assert chosen[DecisionKind.REINFORCE] >= 1


def test_pw_captain_buys_invisibility_when_outgunned_beyond_4_hexes() -> None:
    state = _setup((0, 10), 0, (0, 0), (0, 2))
    ship = state.ships[0]
    for weapon in state.design_of(ship).weapons:
        ship.intact[weapon.name] = 0  # nothing left to fire: hiding is all that pays
    chosen = _power_choices(state)
    assert chosen[DecisionKind.INVISIBILITY] == 1
    assert chosen[DecisionKind.ECM] == 0 and chosen[DecisionKind.REINFORCE] == 0


def test_pw_captain_arms_the_double_magnetic_beam_against_a_liquid_metal_gun() -> None:
    state = _setup((0, 3), 0, (0, 0), (0, 1))
    ship = state.ships[0]
    for weapon in state.design_of(ship).weapons:
        ship.intact[weapon.name] = 0
    ship.intact["screens"] = 0  # no screen, no reinforcement: the beams are the defence left
    chosen = _power_choices(state)
    assert chosen[DecisionKind.MAG_BEAM] == 2


def test_pw_captain_brakes_when_closing_too_fast() -> None:
    state = _setup((0, 12), 0, (4, 0), (0, 4))  # 8 hexes apart, closing at 4 a turn
    _play_turn(state, _passive)
    assert state.ships[0].va < 4


def test_pw_captain_turns_back_from_the_map_edge() -> None:
    state = _setup((0, 44), 3, (-3, 0), (0, 56))  # drifting out at 3 a turn, the enemy beyond
    for _ in range(2):
        _play_turn(state, _passive)
    assert state.ships[0].va > -3


def test_pw_captain_beats_a_ship_that_only_buys_radar_invisibility() -> None:
    for seed in range(6):  # it closes to 4 hexes, where invisibility no longer hides
        seat = seed % 2
        players = [PLAYERS["invisibility"], PLAYERS["invisibility"]]
        players[seat] = PLAYERS["captain"]
        result = play_duel("duel", seed, (players[0], players[1]))
        assert result.winner == seat and result.ending != "left_map"


def test_pw_captain_holds_fire_while_the_range_is_closing_within_the_turn() -> None:
    state = _setup((0, 12), 0, (6, 0), (0, 4))  # 8 hexes, 6 hexes nearer by impulse 12
    _power_choices(state, 0)
    _power_choices(state, 1)
    while (d := decision_for(state, 0)) is not None and d.kind is not DecisionKind.FIRE:
        play(state, captain_action(state, d), ScriptedDice([]), side=0)
    assert d is not None and d.subject == "f2_liquid_metal_gun"
    assert any(a.kind is ActionKind.FIRE for a in d.options)
    assert captain_action(state, d) == HOLD


def test_pw_captain_benchmark_script_reports_duels_and_mirrors(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[3] / "benchmarks" / "space_captains_pw.py"
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, str(script), "--games", "2", "--first-seed", "0", "--only", "random",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    (duel,) = report["duels"]
    assert duel["opponent"] == "random" and duel["games"] == 2
    assert duel["captain_win"] + duel["opponent_win"] + duel["draw"] == 2
    (mirror,) = report["mirrors"]
    assert mirror["scenario"] == "duel" and sum(mirror["endings"].values()) == 2


def _first_rotation(state: BattleState) -> Decision:
    """Both sides' impulse-1 power by the captain; side 0's first rotation decision."""
    for side in (0, 1):
        _power_choices(state, side)
    d = decision_for(state, 0)
    assert d is not None and d.kind is DecisionKind.ROTATE
    return d


def test_pw_r9_captain_aims_with_stronger_armor_when_the_bow_row_is_worn() -> None:
    """Hits land on the row facing the firer (PW-R9): it shows a fresh row, guns still on."""
    state = _setup((0, 12), 0, (0, 0), (0, 4))  # the enemy dead ahead, 8 hexes
    assert captain_action(state, _first_rotation(state)) == Action(ActionKind.ROTATE, 0)
    state = _setup((0, 12), 0, (0, 0), (0, 4))
    ship = state.ships[0]
    ship.armor[0] = 0  # row 1 (the bow) worn through
    action = captain_action(state, _first_rotation(state))
    assert action.kind is ActionKind.ROTATE and action.value != 0
    facing = (ship.facing + action.value) % 6
    enemy = state.ships[1]
    theta = relative_bearing_qr(enemy.q - ship.q, enemy.r - ship.r, facing)
    assert armor_row_at(load_rules(), theta) != 1  # the enemy now strikes an intact row
    gun = next(w for w in state.design_of(ship).weapons if w.name == "f2_liquid_metal_gun")
    assert gun.arc is not None and in_arc(gun.arc, theta)  # and the main gun still bears


def test_pw_r9_captain_armor_aim_turns_the_same_way_on_both_sides_of_a_mirror() -> None:
    turns = []
    for me, facing, enemy in (((0, 12), 0, (0, 4)), ((0, 4), 3, (0, 12))):
        state = _setup(me, facing, (0, 0), enemy)
        state.ships[0].armor[0] = 0
        turns.append(captain_action(state, _first_rotation(state)))
    assert turns[0] == turns[1] == Action(ActionKind.ROTATE, 1)  # clockwise, either way round


def test_pw_captain_keeps_the_bow_on_when_several_enemies_fire_from_several_bearings() -> None:
    scen = Scenario(
        "test",
        "test",
        (
            (Placement(FIGHTER, (0, 12), 0, (0, 0)),),
            (Placement(FIGHTER, (0, 4), 3), Placement(FIGHTER, (6, 0), 3)),
        ),
    )
    state, _ = new_battle(scen, np.random.default_rng(0))
    state.ships[0].armor[0] = 0  # worn bow row: one on one it would turn (test above)
    assert captain_action(state, _first_rotation(state)) == Action(ActionKind.ROTATE, 0)
