"""The scripted captain's tactics (rules/starship_combat/captain.py docstring)."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.starship_combat import captain, game
from wargym.rules.starship_combat.actions import Accelerate, Board, DecisionKind, SetHeading
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.state import record_of

RULES = load_rules()


def _play_to(state: game.BattleState, side: int, kind: DecisionKind) -> None:
    while True:
        d = game.decision(state, side)
        assert d is not None
        if d.kind is kind:
            return
        game.play(state, side, captain.choose(state, side), RandomDice(np.random.default_rng(0)))


def test_captain_mirror_duels_stay_on_the_map() -> None:
    for seed in range(12):
        state = game.new_battle("duel")
        dice = RandomDice(np.random.default_rng(seed))
        while not game.is_over(state):
            side = game.decider(state)
            assert side is not None
            game.play(state, side, captain.choose(state, side), dice)
        assert not any(s.disengaged for s in state.ships), seed


def test_captain_brakes_instead_of_overshooting() -> None:
    state = game.new_battle("duel")
    a, b = state.ships
    a.pos, a.vel, b.pos = (0, 2), (0, -4), (0, -2)  # closing at 4 hexes a round, 4 apart
    _play_to(state, 0, DecisionKind.ACCEL)
    act = captain.choose(state, 0)
    assert isinstance(act, Accelerate) and act.direction == 3 and act.magnitude >= 1  # brakes


def test_captain_keeps_a_margin_from_the_map_edge() -> None:
    state = game.new_battle("duel")
    a, b = state.ships
    a.pos, a.vel = (0, 24), (0, 4)  # drifting out at 4, 6 hexes from the edge
    b.pos = (0, 29)
    _play_to(state, 0, DecisionKind.ACCEL)
    act = captain.choose(state, 0)
    assert act == Accelerate(0, 2)  # brakes toward the centre although the enemy is outside


def test_tr_r16_captain_keeps_energy_weapons_rather_than_thrust() -> None:
    state = game.new_battle("duel")
    a = state.ships[0]
    a.power_dmg = 6 * record_of(a.design).power.per_unit  # 6 steps: maneuver xor energy
    _play_to(state, 0, DecisionKind.ACCEL)
    assert captain.choose(state, 0) == Accelerate(0, 0)


def test_tr_r22_captain_boards_an_enemy_it_will_share_a_hex_with() -> None:
    state = game.new_battle("duel")
    a, b = state.ships
    a.pos, b.pos = (0, 1), (0, 0)
    a.vel = b.vel = (0, 0)
    b.maneuver_dmg = 42  # 0 G: eligible whatever the velocities
    _play_to(state, 0, DecisionKind.BOARD)
    o = state.orders[0]
    assert (o.accel_dir, o.accel_mag) == (0, 1)  # (0, 1) + 1 G toward A: into (0, 0)
    assert captain.choose(state, 0) == Board(1)


def test_captain_faces_the_enemy() -> None:
    state = game.new_battle("duel")
    assert captain.choose(state, 1) == SetHeading(3)


def test_tr_r5_captain_that_lost_contact_searches_the_enemy_deployment_then_the_centre() -> None:
    from wargym.rules.starship_combat.state import Options

    state = game.new_battle("duel", Options(sensors=True))
    state.detected = {0: [], 1: []}
    state.touch()
    _play_to(state, 0, DecisionKind.ACCEL)
    act = captain.choose(state, 0)
    assert isinstance(act, Accelerate) and act.direction == 0 and act.magnitude > 0  # north
    state = game.new_battle("duel", Options(sensors=True))
    state.detected, state.round = {0: [], 1: []}, 5
    state.ships[0].pos = (0, -6)  # north of the centre, past the enemy deployment
    state.touch()
    _play_to(state, 0, DecisionKind.ACCEL)
    act = captain.choose(state, 0)
    assert isinstance(act, Accelerate) and act.direction == 3 and act.magnitude > 0  # to centre
