"""TR-R3/TR-R25 orchestration: decisions, illegal actions, serialisation, determinism."""

import json

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.starship_combat import captain, game
from wargym.rules.starship_combat.actions import DecisionKind, Fire, SetHeading
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.events import REGISTRY
from wargym.rules.starship_combat.fire import arc_of, in_spinal_arc
from wargym.rules.starship_combat.movement import legal_accelerations, legal_headings
from wargym.rules.starship_combat.state import BattleState, Options, hull_limits

RULES = load_rules()
SCENARIOS = sorted(RULES.scenarios)


def _random_battle(seed: int, scenario: str, options: Options) -> tuple[BattleState, list]:
    rng = np.random.default_rng(seed)
    state = game.new_battle(scenario, options)
    dice = RandomDice(rng)
    log = []
    while not game.is_over(state):
        side = game.decider(state)
        assert side is not None
        acts = game.legal_actions(state, side)
        log.extend(game.play(state, side, acts[int(rng.integers(len(acts)))], dice))
        _invariants(state)
    return state, log


def _invariants(state: BattleState) -> None:
    for s in state.ships:
        assert 0 <= s.armor <= 120 and s.crew >= 0 and s.computer >= 0 and s.sensors >= 0
        assert s.fuel >= 0 and s.troops >= 0 and all(v >= 0 for v in s.weapons.values())
        assert s.hull_dmg >= 0 and s.maneuver_dmg >= 0 and s.power_dmg >= 0
        if s.destroyed:
            assert s.out
        if s.craft:
            assert 8 <= s.craft <= 10
    for side in (0, 1):
        d = game.decision(state, side)
        if d is not None:
            assert len(d.options) >= 2 and not state.ship(d.ship).out
    assert state.round <= RULES.max_rounds + 1


def test_tr_r26_duel_setup() -> None:
    state = game.new_battle("duel")
    a, b = state.ships
    assert (a.pos, a.heading, b.pos, b.heading) == ((0, 4), 0, (0, -4), 3)
    assert a.fuel == 47 and a.troops == 20 and not state.nuclear_missiles


def test_tr_r3_orders_are_consecutive_decisions() -> None:
    state = game.new_battle("duel")
    kinds = []
    dice = ScriptedDice([])
    while game.decision(state, 0) is not None:
        d = game.decision(state, 0)
        assert d is not None
        kinds.append((d.kind, d.weapon))
        game.play(state, 0, d.options[0], dice)
    assert kinds[:2] == [(DecisionKind.HEADING, None), (DecisionKind.ACCEL, None)]
    assert (DecisionKind.FIRE, "missile") in kinds and kinds[-1][0] is DecisionKind.BOARD
    assert game.decision(state, 1) is not None  # side 1 still plots; nothing resolved


def test_illegal_action_raises_and_leaves_state_untouched() -> None:
    state = game.new_battle("duel")
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="not legal"):
        game.play(state, 0, Fire(1, 3), ScriptedDice([]))
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_state_json_round_trip_mid_battle() -> None:
    state, log = _random_battle(5, "fleet", Options(sensors=True))
    data = json.loads(json.dumps(state.to_dict()))
    again = BattleState.from_dict(data)
    assert again.to_dict() == state.to_dict()
    for event in log[:200]:
        assert REGISTRY.from_dict(json.loads(json.dumps(event.to_dict()))) == event
    with pytest.raises(StateError):
        BattleState.from_dict({**data, "version": 2})


def test_clone_is_independent() -> None:
    state = game.new_battle("duel")
    twin = state.clone()
    twin.ships[0].crew = 1
    assert state.ships[0].crew == 20


def test_determinism_same_seed_same_battle() -> None:
    a, log_a = _random_battle(11, "duel_kestrel", Options())
    b, log_b = _random_battle(11, "duel_kestrel", Options())
    assert a.to_dict() == b.to_dict() and [e.to_dict() for e in log_a] == [
        e.to_dict() for e in log_b
    ]


def test_tr_r18_hull_inop_limits_heading_and_thrust() -> None:
    assert legal_headings(0, True) == (0, 1, 5)
    accs = legal_accelerations((0, 0), 1, 0, True, RULES)
    assert {d for d, m in accs if m} == {0, 1, 5}


def test_tr_r19_spinal_arc_and_tr_r20_arcs() -> None:
    state = game.new_battle("duel_kestrel")
    k, liik = state.ships
    k.pos, k.heading = (0, 0), 0
    liik.pos = (0, -5)
    assert in_spinal_arc(k, liik) and arc_of(k, liik) == 0
    liik.pos = (3, -3)  # bearing 60: next arc
    assert not in_spinal_arc(k, liik) and arc_of(k, liik) == 1
    liik.pos = (0, 5)
    assert arc_of(k, liik) == 3


def test_tr_r5_sensor_option_detection_and_fog() -> None:
    state, log = _random_battle(3, "fleet", Options(sensors=True))
    assert any(type(e).__name__ == "DetectionRolled" for e in log)


def test_captain_plays_legal_orders_to_the_end() -> None:
    for seed, scenario in enumerate(SCENARIOS):
        state = game.new_battle(scenario)
        dice = RandomDice(np.random.default_rng(seed))
        while not game.is_over(state):
            side = game.decider(state)
            assert side is not None
            action = captain.choose(state, side)
            assert action in game.legal_actions(state, side)
            game.play(state, side, action, dice)
        assert game.outcome(state) is not None


def test_captain_turns_toward_the_enemy() -> None:
    state = game.new_battle("duel")
    assert captain.choose(state, 1) == SetHeading(3)


def test_tr_r25_squadron_out_when_inoperative() -> None:
    state = game.new_battle("fleet")
    sq = state.ships[2]
    sq.hull_dmg = hull_limits(sq, state.options)[0]
    from wargym.rules.starship_combat.round import update_out

    assert [e.reason for e in update_out(state, RULES)] == ["squadron inoperative"]


def test_1000_seeded_random_battles_end_with_invariants() -> None:
    for seed in range(1000):
        scenario = SCENARIOS[seed % len(SCENARIOS)]
        options = Options(
            sensors=seed % 3 == 0,
            fire_after_movement=seed % 5 == 0,
            batched=seed % 7 != 0,
            sequential_thresholds=seed % 11 == 0,
            max_rounds=12,
        )
        state, _ = _random_battle(seed, scenario, options)
        assert game.outcome(state) is not None
