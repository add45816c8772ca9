"""The Gymnasium env of No Quarter: checkers, determinism, illegal actions, renders, replays."""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from wargym.envs.no_quarter.codec import WAIT
from wargym.envs.no_quarter.opponents import rules_opponent, scripted_opponent
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.rules.errors import IllegalActionError
from wargym.rules.no_quarter.battle import game

FAST: dict[str, Any] = {"max_turns": 3, "mechs_per_side": 2, "info_events": True}


def _rollout(env: NoQuarterSkirmishEnv, seed: int, steps: int) -> list[Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = [obs["observation"].copy(), info["events"]]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        trace += [obs["observation"].copy(), reward, info["events"]]
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
    return trace


def test_nq_gym_check_env_on_the_unwrapped_env() -> None:
    check_env(NoQuarterSkirmishEnv(**FAST), skip_render_check=True)


def test_nq_gym_sb3_check_env() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(NoQuarterSkirmishEnv(**FAST), warn=True, skip_render_check=True)


def test_nq_gym_make_with_a_local_id() -> None:
    env_id = "wargym-test/NoQuarter-Skirmish-v1"
    if env_id not in gymnasium.registry:
        gymnasium.register(env_id, entry_point=NoQuarterSkirmishEnv, max_episode_steps=2000)
    env = gymnasium.make(env_id, **FAST)
    obs, info = env.reset(seed=0)
    mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    assert mask.dtype == bool and mask.any()
    assert (obs["action_mask"] == info["action_mask"]).all()
    assert (mask == obs["action_mask"].astype(bool)).all()


def test_nq_gym_same_seed_and_actions_reproduce_everything() -> None:
    first = _rollout(NoQuarterSkirmishEnv(**FAST), 11, 120)
    second = _rollout(NoQuarterSkirmishEnv(**FAST), 11, 120)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
        else:
            assert a == b


def test_nq_gym_illegal_noop_changes_nothing_and_is_penalised() -> None:
    env = NoQuarterSkirmishEnv(**FAST)
    obs, _ = env.reset(seed=4)
    state = env.battle.to_dict()
    obs2, reward, terminated, truncated, info = env.step(WAIT)
    assert info["illegal_action"] is True and info["events"] == []
    assert reward == pytest.approx(-0.01) and not terminated and not truncated
    assert env.battle.to_dict() == state
    assert np.array_equal(obs["observation"], obs2["observation"])
    legal = int(np.flatnonzero(env.action_masks())[0])
    *_, info = env.step(legal)
    assert info["illegal_action"] is False


def test_nq_gym_illegal_raise_names_action_and_decision() -> None:
    env = NoQuarterSkirmishEnv(illegal_action="raise", **FAST)
    env.reset(seed=4)
    kind = env.battle.decision.kind.value  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match=kind):
        env.step(WAIT)


def test_nq_gym_illegal_terminate_ends_the_episode() -> None:
    env = NoQuarterSkirmishEnv(illegal_action="terminate", **FAST)
    env.reset(seed=4)
    _, reward, terminated, _, info = env.step(WAIT)
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_nq_gym_episode_ends_with_terminal_reward() -> None:
    env = NoQuarterSkirmishEnv(max_turns=2, mechs_per_side=2)
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(5000):
        _, reward, terminated, _, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        if terminated:
            break
    assert terminated and info["outcome"] is not None
    winner = info["outcome"]["winner"]
    assert reward == {"blue": 1.0, "red": -1.0, None: 0.0}[winner]


def test_nq_gym_render_modes() -> None:
    text = NoQuarterSkirmishEnv(render_mode="ansi", **FAST)
    text.reset(seed=1)
    frame = text.render()
    assert isinstance(frame, str) and frame.startswith("turn 1")
    assert len(frame.splitlines()) == 1 + 36 + 4
    image = NoQuarterSkirmishEnv(render_mode="rgb_array", **FAST)
    image.reset(seed=1)
    pixels = image.render()
    assert isinstance(pixels, np.ndarray) and pixels.shape == (288, 288, 3)
    assert pixels.dtype == np.uint8


def test_nq_gym_replay_file(tmp_path: Any) -> None:
    env = NoQuarterSkirmishEnv(**FAST)
    env.reset(seed=3)
    for _ in range(5):
        if env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
            break
    path = tmp_path / "replay.json"
    env.save_replay(path)
    data = json.loads(path.read_text())
    assert data["format"] == "nq-replay-v1" and data["seed"] == 3
    assert data["steps"] and all("events" in s for s in data["steps"])
    assert [p.name for p in tmp_path.iterdir()] == ["replay.json"]


def test_nq_gym_opponent_adapters_return_legal_options() -> None:
    env = NoQuarterSkirmishEnv(**FAST)
    env.reset(seed=2)
    battle = env.battle
    options = game.legal_actions(battle)
    assert scripted_opponent(battle, options) in options
    assert rules_opponent(battle, options, np.random.default_rng(0)) in options


class _FirstLegal:
    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        assert observation.shape == (NoQuarterSkirmishEnv(**FAST).encoder.size,)
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("opponent", ["random", "scripted", _FirstLegal()])
def test_nq_gym_other_opponents(opponent: Any) -> None:
    env = NoQuarterSkirmishEnv(opponent=opponent, **FAST)
    _rollout(env, 5, 40)


def test_nq_gym_reward_shaping_terms() -> None:
    env = NoQuarterSkirmishEnv(reward_shaping={"armor_destroyed": 0.1, "armor_lost": 0.1}, **FAST)
    events = [
        {"type": "DamageRolled", "target": 0, "armor_before": 4, "armor_after": 2},
        {"type": "MechRemoved", "mech": 3, "side": "red", "mech_class": 1},
    ]
    env.reset(seed=0)
    assert env.battle.mechs[0].side.value == "blue"
    assert env._shaped(events, env.battle.mechs[0].side) == pytest.approx(-0.2)
    with pytest.raises(ValueError, match="unknown reward_shaping"):
        NoQuarterSkirmishEnv(reward_shaping={"gold": 1.0})
