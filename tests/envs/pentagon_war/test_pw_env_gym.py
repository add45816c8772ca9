"""Gymnasium env PentagonWar-Duel-v0: conformance, masks, illegal actions, seeding, rendering."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given
from hypothesis import strategies as st

from wargym.envs.pentagon_war import GYM_IDS
from wargym.envs.pentagon_war.encoding import ActionCodec
from wargym.envs.pentagon_war.gym_env import PentagonWarDuelEnv
from wargym.rules.errors import IllegalActionError


def play_out(env: PentagonWarDuelEnv, seed: int, steps: int = 400) -> list[tuple[int, float]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        if legal.size == 0:
            break
        action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, reward))
        assert info["illegal_action"] is False
        if terminated or truncated:
            break
    return trace


def test_pw_env_check_env_on_the_class() -> None:
    check_env(PentagonWarDuelEnv(max_turns=2), skip_render_check=True)


def test_pw_env_registered_make_and_check_env_unwrapped() -> None:
    env_id = "wargym/PentagonWar-Duel-v0"
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point=GYM_IDS[env_id])
    env = gymnasium.make(env_id, max_turns=2, render_mode="ansi")
    check_env(env.unwrapped)
    env.close()


def test_pw_env_masks_offered_three_ways_agree() -> None:
    env = PentagonWarDuelEnv(max_turns=2)
    obs, info = env.reset(seed=3)
    for _ in range(30):
        assert obs["action_mask"].dtype == np.int8
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break


def test_pw_env_illegal_action_policies() -> None:
    env = PentagonWarDuelEnv(max_turns=2)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.to_dict()
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal_action"] and reward == -0.01 and not (terminated or truncated)
    assert env.state.to_dict() == before and np.array_equal(obs2["observation"], obs["observation"])
    strict = PentagonWarDuelEnv(max_turns=2, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    harsh = PentagonWarDuelEnv(max_turns=2, illegal_action="terminate")
    harsh.reset(seed=0)
    assert harsh.step(illegal)[1:3] == (-1.0, True)


def test_pw_env_seeded_episodes_are_deterministic_and_end() -> None:
    a, b = PentagonWarDuelEnv(max_turns=2), PentagonWarDuelEnv(max_turns=2)
    assert play_out(a, 11) == play_out(b, 11)
    assert a.state.outcome is not None
    assert a.state.to_dict() == b.state.to_dict()


def test_pw_env_truncation_at_max_turns_and_events_in_info() -> None:
    env = PentagonWarDuelEnv(max_turns=1)
    obs, info = env.reset(seed=5)
    seen = set()
    while True:
        obs, reward, terminated, truncated, info = env.step(
            int(np.flatnonzero(obs["action_mask"])[0])
        )
        seen.update(e["type"] for e in info["events"])
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert {"ShipMoved", "PowerAllocated", "BattleEnded"} & seen
    assert all("faces" in e for e in info["events"] if e["type"] == "ShotFired")


@pytest.mark.parametrize("scenario", ["fleet", "squadron", "carrier", "melee"])
def test_pw_env_fleet_scenarios_by_keyword(scenario: str) -> None:
    env = PentagonWarDuelEnv(scenario=scenario, max_turns=1, opponent="random")
    obs, _ = env.reset(seed=2)
    assert env.action_space.n == ActionCodec(env.max_ships).n
    assert env.observation_space.contains(obs)
    play_out(env, 2, steps=2000)
    assert env.state.outcome is not None


def test_pw_env_renders_ansi_and_rgb() -> None:
    text_env = PentagonWarDuelEnv(render_mode="ansi", max_turns=1)
    text_env.reset(seed=0)
    text = text_env.render()
    assert isinstance(text, str) and "A side 0" in text and "b side 1" in text
    image_env = PentagonWarDuelEnv(render_mode="rgb_array", max_turns=1)
    image_env.reset(seed=0)
    image = image_env.render()
    assert isinstance(image, np.ndarray) and image.shape == (256, 256, 3)
    assert image.dtype == np.uint8 and (image == (60, 120, 255)).all(axis=-1).any()


@given(st.integers(min_value=1, max_value=8), st.data())
def test_pw_env_codec_round_trip(max_ships: int, data: st.DataObject) -> None:
    codec = ActionCodec(max_ships)
    index = data.draw(st.integers(min_value=0, max_value=codec.n - 1))
    assert codec.encode(codec.decode(index)) == index
