"""The scripted captain always answers with a legal option and follows its documented tactics."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.pentagon_war.actions import Action, ActionKind
from wargym.rules.pentagon_war.captain import captain_action, nearest_enemy
from wargym.rules.pentagon_war.game import decider, decision_for, is_over, new_battle, play
from wargym.rules.pentagon_war.records import Options
from wargym.rules.pentagon_war.state import DecisionKind


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
