"""``info_events``: the No Quarter envs build event dicts only when asked (issue 16, item 6).

By default a step's ``info`` has no ``"events"`` and no ``Event.to_dict`` runs; with
``info_events=True`` the info holds the visible events as before. Observations, masks,
rewards, terminations and the other info keys are the same either way (docs/events.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.base import EnvArgumentError
from wargym.envs.no_quarter.aec import NoQuarterAEC, NoQuarterParallel
from wargym.envs.no_quarter.mission import NoQuarterPatrolEnv
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.rules.events import Event

FAST: dict[str, Any] = {"max_turns": 4, "mechs_per_side": 3}
SHAPED = {"armor_destroyed": 0.1, "armor_lost": 0.05, "class_destroyed": 1.0, "class_lost": 0.5}


def _same_info(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Every key but ``events`` equal (masks as arrays)."""
    assert set(a) - {"events"} == set(b) - {"events"}
    for key in set(a) - {"events"}:
        if isinstance(a[key], np.ndarray):
            assert np.array_equal(a[key], b[key]), key
        else:
            assert a[key] == b[key], key


def _gym_trace(env: gymnasium.Env[Any, Any], seeds: int, steps: int) -> list[Any]:
    trace: list[Any] = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        trace.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), info))
        for _ in range(steps):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            trace.append(
                (obs["observation"].tobytes(), obs["action_mask"].tobytes(), info,
                 reward, terminated, truncated)
            )  # fmt: skip
            if terminated or truncated:
                break
    return trace


def _compare(plain: list[Any], asked: list[Any]) -> None:
    assert len(plain) == len(asked)
    for one, two in zip(plain, asked, strict=True):
        assert one[:2] == two[:2] and one[3:] == two[3:]
        _same_info(one[2], two[2])
        assert "events" not in one[2]
        assert isinstance(two[2]["events"], list)
        json.dumps(two[2]["events"])


@pytest.mark.parametrize("shaping", [None, SHAPED])
def test_nq_skirmish_trajectory_is_the_same_with_and_without_info_events(
    shaping: dict[str, float] | None,
) -> None:
    kwargs = {**FAST, "reward_shaping": shaping}
    plain = _gym_trace(gymnasium.make("wargym/NoQuarter-Skirmish-v1", **kwargs), 3, 80)
    asked = _gym_trace(
        gymnasium.make("wargym/NoQuarter-Skirmish-v1", info_events=True, **kwargs), 3, 80
    )
    _compare(plain, asked)
    assert sum(len(step[2]["events"]) for step in asked) > 50  # the games did things
    if shaping:
        assert any(len(s) > 3 and s[3] not in (0.0, 1.0, -1.0) for s in asked)  # shaping paid


def test_nq_mission_trajectory_is_the_same_with_and_without_info_events() -> None:
    kwargs: dict[str, Any] = {"max_turns": 4, "reward_shaping": {"exit": 1.0, "recon": 0.5}}
    plain = _gym_trace(NoQuarterPatrolEnv(**kwargs), 2, 60)
    asked = _gym_trace(NoQuarterPatrolEnv(info_events=True, **kwargs), 2, 60)
    _compare(plain, asked)
    assert any(e["type"] == "PefPlaced" for e in asked[0][2]["events"])  # set-up events
    assert all("mission" in step[2] for step in plain)


def _aec_trace(env: NoQuarterAEC, seed: int, steps: int) -> list[Any]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    for _ in range(steps):
        agent = env.agent_selection
        obs = env.observe(agent)
        trace.append((agent, obs["observation"].tobytes(), dict(env.rewards), env.infos))
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return trace


def test_nq_aec_trajectory_is_the_same_with_and_without_info_events() -> None:
    plain = _aec_trace(NoQuarterAEC(**FAST, reward_shaping=SHAPED), 4, 120)
    asked = _aec_trace(NoQuarterAEC(**FAST, reward_shaping=SHAPED, info_events=True), 4, 120)
    assert len(plain) == len(asked)
    for one, two in zip(plain, asked, strict=True):
        assert one[:3] == two[:3]
        for agent in ("blue", "red"):
            _same_info(one[3][agent], two[3][agent])
            assert "events" not in one[3][agent] and isinstance(two[3][agent]["events"], list)


def test_nq_parallel_trajectory_is_the_same_with_and_without_info_events() -> None:
    def run(env: NoQuarterParallel) -> list[Any]:
        observations, infos = env.reset(seed=5)
        rng = np.random.default_rng(5)
        trace: list[Any] = [(None, infos)]
        for _ in range(100):
            if not env.agents:
                break
            actions = {
                a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"])))
                for a in env.agents
            }
            observations, rewards, terms, _, infos = env.step(actions)
            obs_bytes = {a: o["observation"].tobytes() for a, o in observations.items()}
            trace.append(((obs_bytes, rewards, terms), infos))
        return trace

    plain = run(NoQuarterParallel(**FAST, reward_shaping=SHAPED))
    asked = run(NoQuarterParallel(**FAST, reward_shaping=SHAPED, info_events=True))
    assert len(plain) == len(asked)
    for one, two in zip(plain, asked, strict=True):
        assert one[0] == two[0]
        for agent in ("blue", "red"):
            _same_info(one[1][agent], two[1][agent])
            assert "events" not in one[1][agent] and "events" in two[1][agent]


def test_nq_default_step_builds_no_event_dicts(monkeypatch: pytest.MonkeyPatch) -> None:
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", **FAST)
    calls = {"n": 0}
    original: Callable[[Event], dict[str, Any]] = Event.to_dict

    def counting(self: Event) -> dict[str, Any]:
        calls["n"] += 1
        return original(self)

    monkeypatch.setattr(Event, "to_dict", counting)
    _gym_trace(env, 2, 60)
    assert calls["n"] == 0
    _gym_trace(gymnasium.make("wargym/NoQuarter-Skirmish-v1", info_events=True, **FAST), 1, 20)
    assert calls["n"] > 0  # the counter does see the opt-in


def test_nq_aec_snapshot_without_info_events_round_trips() -> None:
    env = NoQuarterAEC(**FAST)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    data = env.save_state()
    other = NoQuarterAEC(**FAST)
    other.load_state(json.loads(json.dumps(data)))
    assert other.save_state() == data


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_nq_info_events_must_be_a_bool(value: Any) -> None:
    for make in (NoQuarterSkirmishEnv, NoQuarterAEC, NoQuarterPatrolEnv):
        with pytest.raises(EnvArgumentError, match="info_events must be true or false"):
            make(info_events=value)


def test_nq_aec_snapshot_with_a_bad_events_entry_is_refused_and_changes_nothing() -> None:
    from wargym.envs.snapshot import digest
    from wargym.rules.errors import StateError

    env = NoQuarterAEC(**FAST)
    env.reset(seed=2)
    data = json.loads(json.dumps(env.save_state()))
    data["state"]["infos"]["blue"]["events"] = "not a list"
    data["digest"] = digest({k: v for k, v in data.items() if k != "digest"})
    other = NoQuarterAEC(**FAST)
    other.reset(seed=3)
    before = other.save_state()
    with pytest.raises(StateError, match="infos"):
        other.load_state(data)
    assert other.save_state() == before
