"""Orchestrator: sequence of play, plotting, resolution, serialisation (PW-R2..R21)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.pentagon_war.actions import Action, ActionKind, Decision
from wargym.rules.pentagon_war.events import REGISTRY, BattleEnded, ShotFired, VelocityUpdated
from wargym.rules.pentagon_war.game import decider, decision_for, is_over, new_battle, outcome, play
from wargym.rules.pentagon_war.records import Options
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase, Termination

sys.path.insert(0, str(Path(__file__).parent))
from pw_play import passive, run  # noqa: E402


def duel(**kw: object) -> BattleState:
    state, _ = new_battle("duel", np.random.default_rng(0), Options(**kw) if kw else None)  # type: ignore[arg-type]
    return state


def test_pw_r2_first_decision_is_side_0_power_allocation() -> None:
    state = duel()
    d = decider(state)
    assert d is not None and (d.side, d.ship, d.kind) == (0, 0, DecisionKind.ECM)
    assert d.options == (Action(ActionKind.CHOOSE, 0), Action(ActionKind.CHOOSE, 1))
    assert state.phase is Phase.POWER and (state.turn, state.impulse) == (1, 1)
    assert decision_for(state, 1) is not None  # both sides plot at once


def test_pw_illegal_action_raises_and_leaves_state_untouched() -> None:
    state = duel()
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="not legal"):
        play(state, Action(ActionKind.FIRE, 1), ScriptedDice([]))
    with pytest.raises(IllegalActionError):
        play(state, Action(ActionKind.CHOOSE, 5), ScriptedDice([]), side=1)
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_pw_r2_plots_are_secret_other_side_options_do_not_depend_on_them() -> None:
    a, b = duel(), duel()
    play(a, Action(ActionKind.CHOOSE, 1), ScriptedDice([]), side=0)  # ECM
    assert decision_for(a, 1) == decision_for(b, 1)
    assert a.ships[0].charges == 6 and not a.ships[0].ecm  # paid only at resolution


def test_pw_r2_one_impulse_of_orders_then_movement_of_the_next() -> None:
    state = duel()
    state.ships[0].va = 12
    run(state, ScriptedDice([]), passive, lambda s: s.impulse == 2)
    assert state.phase is Phase.ORDERS
    assert (state.ships[0].q, state.ships[0].r) == (0, 9)  # impulse 1 moved before va was set


def test_pw_vel_1_in_the_engine_thrust_a_then_b_gives_5_minus_1() -> None:
    state = duel()
    state.ships[0].va, state.ships[0].vc = 3, -2
    state.options = Options(map_radius=None)

    def pilot(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.kind is DecisionKind.THRUST and s.impulse in (2, 7):
            return Action(ActionKind.CHOOSE, 1)
        if d.ship == 0 and d.kind is DecisionKind.ROTATE and s.impulse == 7:
            return Action(ActionKind.ROTATE, 1)
        return passive(s, d)

    events = run(state, ScriptedDice([]), pilot, lambda s: s.turn == 2)
    vel = [e for e in events if isinstance(e, VelocityUpdated) and e.ship == 0]
    assert vel[0].before == (3, -2) and vel[0].acceleration == (2, 1) and vel[0].after == (5, -1)
    assert (state.ships[0].q, state.ships[0].r) == (-2, 10 - 3)


def test_pw_vel_2_thrust_masked_at_the_speed_cap() -> None:
    state = duel()
    state.ships[0].va = 12
    run(state, ScriptedDice([]), passive, lambda s: s.phase is Phase.ORDERS)
    d = decision_for(state, 0)
    assert d is not None and d.kind is DecisionKind.ROTATE
    play(state, Action(ActionKind.ROTATE, 0), ScriptedDice([]), side=0)
    d = decision_for(state, 0)
    assert d is not None and d.kind is not DecisionKind.THRUST  # facing A: forced "no thrust"


def _close(state: BattleState, rng: int = 3) -> None:
    state.ships[1].q, state.ships[1].r = 0, 10 - rng


def test_pw_r8_fire_resolves_with_the_dice_and_applies_damage() -> None:
    state = duel()
    _close(state)

    def gunner(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.subject == "f2_laser":
            return Action(ActionKind.FIRE, 1)
        return passive(s, d)

    events = run(state, ScriptedDice([4, 5]), gunner, lambda s: s.impulse == 2)
    (shot,) = [e for e in events if isinstance(e, ShotFired)]
    assert (shot.range, shot.modified_roll, shot.damage, shot.charges) == (3, 8, 4, 1)
    assert state.ships[1].armor[0] == 7  # 4 - screen 1 = 3 absorbed by row #1
    assert "f2_laser" in state.ships[0].fired and state.ships[0].charges == 5


def test_pw_r17_ecm_reduces_the_roll_unless_the_firer_has_eccm() -> None:
    for eccm, expected in ((0, 2), (1, 0)):
        state = duel()
        _close(state)

        def crew(s: BattleState, d: Decision, eccm: int = eccm) -> Action:
            if d.ship == 1 and d.kind is DecisionKind.ECM:
                return Action(ActionKind.CHOOSE, 1)
            if d.ship == 0 and d.kind is DecisionKind.ECCM:
                return Action(ActionKind.CHOOSE, eccm)
            if d.ship == 0 and d.subject == "f2_laser":
                return Action(ActionKind.FIRE, 1)
            return passive(s, d)

        events = run(state, ScriptedDice([4, 5]), crew, lambda s: s.impulse == 2)
        (shot,) = [e for e in events if isinstance(e, ShotFired)]
        assert shot.ecm == expected and shot.modified_roll == 8 - expected


def test_pw_r17_radar_invisible_target_only_within_4() -> None:
    state = duel()
    _close(state, 6)

    def hide(s: BattleState, d: Decision) -> Action:
        if d.ship == 1 and d.kind is DecisionKind.INVISIBILITY:
            return Action(ActionKind.CHOOSE, 1)
        return passive(s, d)

    run(state, ScriptedDice([]), hide, lambda s: s.phase is Phase.ORDERS)
    assert state.ships[1].invisible and state.ships[1].charges == 4
    play(state, Action(ActionKind.ROTATE, 0), ScriptedDice([]), side=0)
    play(state, Action(ActionKind.CHOOSE, 0), ScriptedDice([]), side=0)
    assert decision_for(state, 0) is None  # every weapon forced to hold


def test_pw_r12_radar_damage_limits_fire_range() -> None:
    state = duel()
    _close(state, 9)
    state.ships[0].radar_destroyed = 3  # rating 3: 8 hexes
    run(state, ScriptedDice([]), passive, lambda s: s.phase is Phase.ORDERS)
    play(state, Action(ActionKind.ROTATE, 0), ScriptedDice([]), side=0)
    play(state, Action(ActionKind.CHOOSE, 0), ScriptedDice([]), side=0)
    assert decision_for(state, 0) is None


def test_pw_r12_out_of_control_ship_has_no_decisions_and_side_is_defeated() -> None:
    state = duel()
    state.ships[1].intact["main_ctrl"] = state.ships[1].intact["aux_ctrl"] = 0
    events = run(state, ScriptedDice([]), passive, lambda s: False)
    assert outcome(state) is not None and outcome(state).termination is Termination.DEFEAT  # type: ignore[union-attr]
    assert outcome(state).winner == 0  # type: ignore[union-attr]
    assert isinstance(events[-1], BattleEnded) and (state.turn, state.impulse) == (1, 1)


def test_pw_r21_leaving_the_disc_disengages() -> None:
    state = duel(map_radius=11)
    state.ships[1].va = 2  # moving north away from (0, -10)
    events = run(state, ScriptedDice([]), passive, lambda s: False)
    names = [type(e).__name__ for e in events]
    assert "ShipDisengaged" in names and state.ships[1].disengaged
    assert outcome(state).winner == 0  # type: ignore[union-attr]


def test_pw_r21_truncation_after_max_turns() -> None:
    state = duel(max_turns=1)
    run(state, ScriptedDice([]), passive, lambda s: False)
    assert outcome(state).termination is Termination.TRUNCATED  # type: ignore[union-attr]
    assert (state.turn, state.impulse) == (1, 12)


def test_pw_msl_1_missile_launched_impulse_11_arrives_turn_2_impulse_2() -> None:
    state = duel()
    _close(state, 10)
    state.ships[1].intact["point_defense"] = 0

    def launcher(s: BattleState, d: Decision) -> Action:
        if d.ship == 0 and d.kind is DecisionKind.LAUNCH and s.impulse == 11 and s.turn == 1:
            return Action(ActionKind.LAUNCH, 1)
        return passive(s, d)

    dice = ScriptedDice([1, 1])  # the 6 damage: screen 1, 5 absorbed by armor: no chart roll
    events = run(state, dice, launcher, lambda s: s.turn == 2 and s.impulse == 3)
    launched = [e for e in events if type(e).__name__ == "MissileLaunched"]
    arrived = [e for e in events if type(e).__name__ == "MissileArrived"]
    assert launched[0].to_dict()["arrive"] == 14 and len(arrived) == 1
    assert state.ships[1].armor[0] == 5 and dice.remaining == 2


def test_pw_determinism_and_json_round_trip_mid_battle() -> None:
    def battle(seed: int) -> tuple[BattleState, list[dict[str, object]]]:
        rng = np.random.default_rng(seed)
        state, _ = new_battle("melee", rng, Options(max_turns=1))
        dice = RandomDice(rng)
        log = []
        for _ in range(60):
            if is_over(state):
                break
            d = decider(state)
            assert d is not None
            log += [
                e.to_dict() for e in play(state, d.options[int(rng.integers(len(d.options)))], dice)
            ]
        return state, log

    s1, log1 = battle(7)
    s2, log2 = battle(7)
    assert log1 == log2 and s1.to_dict() == s2.to_dict()
    text = json.dumps(s1.to_dict())
    back = BattleState.from_dict(json.loads(text))
    assert back.to_dict() == s1.to_dict()
    twin = s1.clone()
    d = decider(s1)
    if d is not None:
        e1 = play(s1, d.options[-1], RandomDice(np.random.default_rng(1)))
        e2 = play(back, d.options[-1], RandomDice(np.random.default_rng(1)))
        assert [e.to_dict() for e in e1] == [e.to_dict() for e in e2]
        assert twin.to_dict() != s1.to_dict() or not e1
    for entry in log1:
        assert REGISTRY.from_dict(entry).to_dict() == entry


def test_pw_state_from_dict_rejects_other_versions() -> None:
    data = duel().to_dict()
    data["version"] = 99
    with pytest.raises(StateError):
        BattleState.from_dict(data)
