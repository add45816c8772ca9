"""The tactician's advice rows ("advice-v1", ``advisor=TacticalAdvisor``): values, picks, fog."""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401
from wargym.agents.advisor import ADVICE_ROWS, TacticalAdvisor
from wargym.agents.envspecs import mirror_skirmish, resolve_callables
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.envs.base import EnvArgumentError
from wargym.envs.no_quarter.action_features import ACTION_FEATURES
from wargym.envs.no_quarter.encoding import visible_enemies
from wargym.envs.no_quarter.snapshots import parse_core
from wargym.envs.snapshot import digest
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle.actions import DecisionKind

ROWS = len(ACTION_FEATURES) + len(ADVICE_ROWS)
SCORED = {DecisionKind.ASSIGN_FIRE, DecisionKind.ACTIVATE_GROUP, DecisionKind.CHOOSE_MECH}
"""Kinds whose pick is always the best-valued option."""
HANDLED = SCORED | {DecisionKind.MECH_ACTION, DecisionKind.CONTINUE_MOVE, DecisionKind.FREE_MOVE}
"""Kinds the tactician decides itself (the rest goes to the book's procedure)."""


def _env(**kwargs: object) -> gymnasium.Env:
    return gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1",
        action_features=True,
        advisor=TacticalAdvisor,
        cell=4.0,
        battle_factory=mirror_skirmish,
        **kwargs,
    )


def _advice(obs: dict[str, np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    block = obs["observation"][-ROWS * n :].reshape(ROWS, n)
    return block[len(ACTION_FEATURES)], block[len(ACTION_FEATURES) + 1]


def test_advice_rows_extend_the_block_and_pick_one_legal_action() -> None:
    env = _env()
    n = env.action_space.n
    obs, _ = env.reset(seed=11)
    assert env.unwrapped.encoder.version == "nq-obs-v3+nq-af-v1+advice-v1"
    plain = gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1", action_features=True, cell=4.0,
        battle_factory=mirror_skirmish,
    )  # fmt: skip
    assert obs["observation"].shape[0] == plain.observation_space["observation"].shape[0] + 2 * n
    best_checked = 0
    for _ in range(400):
        value, pick = _advice(obs, n)
        legal = obs["action_mask"].astype(bool)
        assert env.observation_space.contains(obs)
        assert pick.sum() == 1.0 and legal[int(pick.argmax())]
        assert not (value[~legal]).any() and value.min() >= 0.0 and value.max() <= 1.0
        kind = env.unwrapped.battle.decision.kind
        if kind in SCORED and legal.sum() > 1:
            assert value[int(pick.argmax())] == pytest.approx(value[legal].max())
            best_checked += 1
        obs, _, terminated, truncated, _ = env.step(int(pick.argmax()))
        if terminated or truncated:
            obs, _ = env.reset()
    assert best_checked > 20


def test_advice_pick_is_what_the_tactician_plays_with_the_same_memory() -> None:
    env = _env()
    obs, _ = env.reset(seed=4)
    n = env.action_space.n
    player = NoQuarterHeuristic(np.random.default_rng(0))
    compared = 0
    for _ in range(600):
        battle = env.unwrapped.battle
        table = env.unwrapped.codec.table(battle)
        _, pick = _advice(obs, n)
        choice = player.act_engine(battle.clone(), list(table.values()), battle.decision.side)
        if battle.decision.kind in HANDLED:
            assert table[int(pick.argmax())] == choice
            compared += 1
        obs, _, terminated, truncated, _ = env.step(int(pick.argmax()))
        if terminated or truncated:
            break
    assert compared > 50


def test_advice_ignores_enemies_out_of_sight() -> None:
    env = _env()
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        core = env.unwrapped
        battle = core.battle
        side = battle.decision.side
        seen = visible_enemies(battle, side)
        hidden = [
            m.id
            for m in battle.mechs.values()
            if m.side is not side and m.id not in seen and m.removed is None
        ]
        table = core.codec.table(battle)
        if hidden and table:
            memory = core.advisor.to_dict()
            first, second = TacticalAdvisor(), TacticalAdvisor()
            first.load_dict("m", memory)
            second.load_dict("m", memory)
            mech = battle.mechs[hidden[0]]
            for dx, dy in ((2.0, 0.0), (-2.0, 0.0), (0.0, 2.0), (0.0, -2.0)):
                other = battle.clone()
                other.mechs[mech.id] = dataclasses.replace(
                    mech, pos=(mech.pos[0] + dx, mech.pos[1] + dy), armor=[1] * 8
                )
                if visible_enemies(other, side) == seen:  # the difference stays hidden
                    left = first.advise(battle.clone(), table, side)
                    assert left == second.advise(other, table, side)
                    assert first.to_dict() == second.to_dict()
                    checked += 1
                    break
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert checked > 5


def test_advisor_memory_travels_in_snapshots() -> None:
    env, twin = _env().unwrapped, _env().unwrapped
    obs, _ = env.reset(seed=8)
    n = env.action_space.n
    for _ in range(120):  # far enough for sightings to be remembered
        obs, *_ = env.step(int(_advice(obs, n)[1].argmax()))
    snap = env.save_state()
    assert any(side["last_seen"] for side in snap["state"]["advisor"].values())
    twin.reset(seed=99)
    twin.load_state(snap)
    assert twin.advisor.to_dict() == env.advisor.to_dict()
    for _ in range(60):
        action = int(_advice(obs, n)[1].argmax())
        obs, reward, terminated, truncated, _ = env.step(action)
        obs2, reward2, *_ = twin.step(action)
        np.testing.assert_array_equal(obs["observation"], obs2["observation"])
        assert reward == reward2
        if terminated or truncated:
            break


def test_advisor_snapshot_errors_name_the_key_and_change_nothing() -> None:
    env = _env().unwrapped
    env.reset(seed=3)
    snap = env.save_state()
    plain = gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1", action_features=True, cell=4.0,
        battle_factory=mirror_skirmish,
    ).unwrapped  # fmt: skip
    plain.reset(seed=3)
    with pytest.raises(StateError, match=r"snapshot\.config\.observation.*advice-v1"):
        plain.load_state(snap)  # the observation layout names the advice rows
    with pytest.raises(StateError, match=r"state\.advisor: this env has no advisor"):
        parse_core(snap["state"], None)  # and the state part checks them on its own
    with pytest.raises(StateError, match=r"state\.advisor: this env has an advisor"):
        parse_core({**snap["state"], "advisor": None}, env.advisor)
    bad = {**snap, "state": {**snap["state"], "advisor": {"blue": {"last_seen": {"x": 1}}}}}
    bad = {**bad, "digest": digest({k: v for k, v in bad.items() if k != "digest"})}
    before = env.save_state()
    with pytest.raises(StateError, match=r"state\.advisor\.blue"):
        env.load_state(bad)
    assert env.save_state() == before


def test_advisor_needs_the_feature_block_and_a_real_factory() -> None:
    with pytest.raises(EnvArgumentError, match="action_features"):
        gymnasium.make("wargym/NoQuarter-Skirmish-v1", advisor=TacticalAdvisor)
    with pytest.raises(EnvArgumentError, match="advisor"):
        gymnasium.make("wargym/NoQuarter-Skirmish-v1", action_features=True, advisor=42)
    kwargs = resolve_callables({"advisor": "wargym.agents.advisor:TacticalAdvisor"})
    assert kwargs["advisor"] is TacticalAdvisor  # a legacy path of the package's own advisor
    assert resolve_callables({"advisor": "tactical_advisor"})["advisor"] is TacticalAdvisor
    with pytest.raises(EnvArgumentError, match="not a name"):  # the env imports no names
        gymnasium.make("wargym/NoQuarter-Skirmish-v1", action_features=True,
                       advisor="tactical_advisor")  # fmt: skip


def test_advice_rows_in_the_pettingzoo_envs_pass_the_api_tests() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    from wargym.envs.no_quarter import aec

    kwargs = {"action_features": True, "advisor": TacticalAdvisor, "cell": 4.0,
              "battle_factory": mirror_skirmish}  # fmt: skip
    api_test(aec.env(**kwargs), num_cycles=100)
    parallel_api_test(aec.parallel_env(**kwargs), num_cycles=100)
    env = aec.env(**kwargs)
    env.reset(seed=1)
    assert env.unwrapped.encoder.version.endswith("+advice-v1")


def test_mission_envs_take_the_feature_block_and_the_advice_rows() -> None:
    """Patrol with the rows: versioned, inside the space, one pick per player decision."""
    env = gymnasium.make(
        "wargym/NoQuarter-Patrol-v1",
        action_features=True,
        advisor=TacticalAdvisor,
        cell=4.0,
        max_turns=3,
        max_mechs=12,
    )
    core = env.unwrapped
    assert core.encoder.version == "nq-obs-v4+nq-af-v1+advice-v1"
    n = env.action_space.n
    obs, _ = env.reset(seed=5)
    picks = 0
    for _ in range(120):
        assert env.observation_space.contains(obs)
        value, pick = _advice(obs, n)
        legal = obs["action_mask"].astype(bool)
        if legal.any() and core.battle.decision.kind in HANDLED:
            assert pick.sum() == 1.0 and legal[int(np.argmax(pick))]
            picks += 1
        assert not value[~legal].any() and not pick[~legal].any()
        obs, _, done, cut, _ = env.step(
            int(np.argmax(pick)) if pick.any() else int(np.flatnonzero(legal)[0])
        )
        if done or cut:
            break
    assert picks > 0
    snap = core.save_state()
    twin = gymnasium.make(
        "wargym/NoQuarter-Patrol-v1", action_features=True, advisor=TacticalAdvisor, cell=4.0,
        max_turns=3, max_mechs=12,
    ).unwrapped  # fmt: skip
    twin.load_state(snap)
    assert twin.advisor.to_dict() == core.advisor.to_dict()
    with pytest.raises(EnvArgumentError, match="action_features"):
        gymnasium.make("wargym/NoQuarter-Patrol-v1", advisor=TacticalAdvisor)
