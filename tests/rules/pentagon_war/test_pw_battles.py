"""1,000 seeded random battles with random legal options end cleanly, invariants checked."""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.game import decider, is_over, new_battle, play
from wargym.rules.pentagon_war.records import Options
from wargym.rules.pentagon_war.state import BattleState, Phase

SCENARIOS = ("melee", "melee", "melee", "duel", "fleet", "squadron", "carrier")


def check_invariants(state: BattleState) -> None:
    for ship in state.ships:
        design = state.design_of(ship)
        assert all(0 <= ship.armor[i] <= design.armor[i] for i in range(6))
        for spec in design.systems:
            assert 0 <= ship.intact[spec.name] <= spec.boxes
        assert 0 <= ship.final_damage <= design.final_damage
        assert 0 <= ship.radar_destroyed <= len(design.radar_track)
        assert 0 <= ship.charges <= ship.power["capacitors_available"]
        assert (
            power.total_discharged(ship.power) + ship.charges == ship.power["capacitors_available"]
        )
        assert abs(ship.va) <= 12 and abs(ship.vc) <= 12 and 0 <= ship.facing < 6
        assert len(set(ship.fired)) == len(ship.fired)
        assert ship.thrust_used == len(ship.accelerations)
        if ship.linked_to is not None:
            host = state.ships[ship.linked_to]
            assert host.hex == ship.hex and host.facing == ship.facing
    if is_over(state):
        assert state.phase is Phase.OVER and decider(state) is None
    else:
        d = decider(state)
        assert d is not None and d.options and len(set(d.options)) == len(d.options)
        assert state.ships[d.ship].alive and state.ships[d.ship].side == d.side


def test_pw_1000_random_battles_end_without_exception() -> None:
    endings: dict[str, int] = {}
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        scenario = SCENARIOS[seed % len(SCENARIOS)]
        opts = Options(
            max_turns=1,
            linkage=scenario == "carrier",
            box_choice="random" if seed % 2 else "ssd_order",
            omnidirectional_thrust=seed % 5 == 0,
            repair=seed % 3 == 0,
            fuel=True,
        )
        state, _ = new_battle(scenario, rng, opts)
        dice = RandomDice(rng)
        steps = 0
        while not is_over(state):
            d = decider(state)
            assert d is not None
            play(state, d.options[int(rng.integers(len(d.options)))], dice, side=d.side)
            steps += 1
            if steps % 7 == 0:
                check_invariants(state)
        check_invariants(state)
        assert state.outcome is not None
        endings[state.outcome.termination.value] = (
            endings.get(state.outcome.termination.value, 0) + 1
        )
    assert sum(endings.values()) == 1000
