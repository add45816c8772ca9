"""One API, two backends (issue 16, requirement 3): ``backend="python"`` and ``"native"``.

For many seeds and env configurations the Gymnasium, AEC and Parallel No Quarter envs give
identical observations (bit for bit, dtype included), masks, rewards, terminations,
truncations and infos step for step on both backends under masked-random play (opponents
rules, random, scripted, an agent object); a snapshot saved on one backend loads on the other
and both go on identically; snapshots and replays are the same JSON; a bad ``backend`` raises
EnvArgumentError naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.envs.base import EnvArgumentError
from wargym.envs.no_quarter.aec import NoQuarterAEC
from wargym.envs.no_quarter.parallel import NoQuarterParallel
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.native.no_quarter.battle import NativeSkirmish
from wargym.rules.no_quarter.battle.state import Battle

BACKENDS = ("python", "native")

CONFIGS: list[dict[str, Any]] = [
    {},
    {"mechs_per_side": 1, "max_turns": 6},
    {"mechs_per_side": 4, "stars": 2, "max_mechs": 5},
    {"factions": ("free_company", "star_army"), "mechs_per_side": 2},
    {"mirror": False, "cell": 2.0},
    {"flatten": False},
    {"action_features": True, "mechs_per_side": 2},
    {"info_events": True},
    {"reward_shaping": {"armor_destroyed": 0.1, "class_lost": 0.5}},
    {"battle_options": {"move_directions": 8, "move_fractions": [0.5, 1.0]}},
    {
        "battle_options": {"lucky": "auto", "marksman": "auto", "leave_wrecks": True},
        "mechs_per_side": 3,
        "stars": 3,
    },
    {
        "battle_options": {
            "unseen_bases": "block",
            "command_groups": "teams",
            "several_chargers": "one_by_one",
            "in_sight_spent_fire": "priority",
            "choose_facing": False,
            "spread_fire_rule": "off",
        },
        "mechs_per_side": 4,
    },
    {"rules_options": {"gun_medium_stats": "table"}, "mechs_per_side": 2},
]
"""Env keyword sets the agreement tests play (each on several seeds)."""


class FirstLegal:
    """An agent object: the lowest legal index (reads its observation, so it must be right)."""

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        assert np.isfinite(np.asarray(observation, dtype=np.float64)).all()
        return int(np.flatnonzero(action_mask)[0])


def plain(value: Any) -> Any:
    """A value with every array as (dtype, shape, bytes): equal means bit for bit."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (np.generic,)):
        return ("scalar", type(value).__name__, value.item())
    return (type(value).__name__, value)


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# -- Gymnasium ---------------------------------------------------------------------------------


def gym_trace(
    backend: str, seed: int, config: dict[str, Any], opponent: Any = "rules", steps: int = 60
) -> list[Any]:
    env = NoQuarterSkirmishEnv(backend=backend, opponent=opponent, **config)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed + 1000)
    trace: list[Any] = [plain((obs, info))]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(_pick(rng, obs["action_mask"]))
        trace.append(plain((obs, reward, terminated, truncated, info)))
        if terminated or truncated:
            obs, info = env.reset()  # the next episode from the env's own generator
            trace.append(plain((obs, info)))
    assert isinstance(env.battle, NativeSkirmish if backend == "native" else Battle)
    return trace


def _same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        assert x == y, f"step {k} differs"


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_gym_backends_agree_step_for_step(index: int) -> None:
    config = CONFIGS[index]
    for seed in (index, 100 + index):
        _same(gym_trace("python", seed, config), gym_trace("native", seed, config))


@pytest.mark.parametrize("opponent", ["random", "scripted", "agent"])
def test_gym_backends_agree_for_every_opponent(opponent: str) -> None:
    for seed in range(3):
        spec: Any = FirstLegal() if opponent == "agent" else opponent
        config = {"mechs_per_side": 2 + seed % 2}
        _same(
            gym_trace("python", seed, config, spec, steps=80),
            gym_trace("native", seed, config, spec, steps=80),
        )


def test_gym_whole_episodes_agree() -> None:
    for seed in range(4):
        traces = []
        for backend in BACKENDS:
            env = NoQuarterSkirmishEnv(backend=backend, mechs_per_side=2, max_turns=8)
            obs, _ = env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            done, trace = False, []
            while not done:
                obs, reward, terminated, truncated, info = env.step(_pick(rng, obs["action_mask"]))
                done = terminated or truncated
                trace.append(plain((obs, reward, terminated, truncated, info)))
            trace.append(env.battle.to_dict())
            traces.append(trace)
        _same(*traces)


def test_gym_illegal_actions_agree() -> None:
    for policy in ("noop", "terminate"):
        traces = []
        for backend in BACKENDS:
            env = NoQuarterSkirmishEnv(backend=backend, illegal_action=policy)
            obs, info = env.reset(seed=5)
            rng = np.random.default_rng(5)
            trace = []
            for step in range(30):
                wrong = np.flatnonzero(obs["action_mask"] == 0)
                action = int(wrong[step % len(wrong)]) if step % 4 == 3 else None
                if action is None:
                    action = _pick(rng, obs["action_mask"])
                obs, reward, terminated, truncated, info = env.step(action)
                trace.append(plain((obs, reward, terminated, truncated, info)))
                if terminated:
                    break
            traces.append(trace)
        _same(*traces)


def test_native_render_is_the_reference_render() -> None:
    frames = []
    for backend in BACKENDS:
        env = NoQuarterSkirmishEnv(backend=backend, render_mode="ansi")
        env.reset(seed=2)
        frames.append(env.render())
    assert frames[0] == frames[1]
    assert isinstance(frames[0], str) and "turn" in frames[0]


@pytest.mark.parametrize("kind", ["heuristic", "mcts"])
def test_engine_agents_play_the_same_on_both_backends(kind: str) -> None:
    from wargym.agents.base import as_agent, set_opponent
    from wargym.agents.heuristic import NoQuarterHeuristic
    from wargym.agents.mcts import NoQuarterMCTS

    def make() -> Any:
        return NoQuarterHeuristic(1) if kind == "heuristic" else NoQuarterMCTS(1, 3, 3)

    traces = []
    for backend in BACKENDS:
        env = NoQuarterSkirmishEnv(backend=backend, mechs_per_side=2)
        blue = as_agent(make(), env)
        set_opponent(env, make())  # red reads the env's battle too
        obs, info = env.reset(seed=6)
        trace = [plain((obs, info))]
        for _ in range(25):
            step = env.step(blue.act(obs["observation"], obs["action_mask"]))
            trace.append(plain(step))
            obs = step[0]
            if step[2] or step[3]:
                break
        trace.append(env.battle.to_dict())
        traces.append(trace)
    _same(*traces)


# -- snapshots and replays ---------------------------------------------------------------------


def _env(backend: str, **config: Any) -> NoQuarterSkirmishEnv:
    return NoQuarterSkirmishEnv(backend=backend, mechs_per_side=2, **config)


@pytest.mark.parametrize(("saver", "loader"), [("python", "native"), ("native", "python")])
def test_a_snapshot_saved_on_one_backend_continues_on_the_other(saver: str, loader: str) -> None:
    for seed in range(3):
        env = _env(saver, info_events=seed == 1)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(10 + 7 * seed):
            obs, *_ = env.step(_pick(rng, obs["action_mask"]))
        snapshot = json.loads(json.dumps(env.save_state()))
        twin = _env(loader, info_events=seed == 1)
        twin_obs, twin_info = twin.load_state(snapshot)
        assert plain(twin_obs) == plain(obs)
        assert twin.save_state() == env.save_state()
        for _ in range(60):
            action = _pick(rng, obs["action_mask"])
            step = env.step(action)
            assert plain(twin.step(action)) == plain(step)
            obs = step[0]
            if step[2] or step[3]:
                break


def test_snapshots_and_replays_are_the_same_json(tmp_path: Path) -> None:
    docs, replays = [], []
    for backend in BACKENDS:
        env = _env(backend)
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(11)
        for _ in range(25):
            obs, _, terminated, _, _ = env.step(_pick(rng, obs["action_mask"]))
            if terminated:
                break
        docs.append(json.dumps(env.save_state()))
        path = tmp_path / f"{backend}.json"
        env.save_replay(path)
        replays.append(json.loads(path.read_text()))
    assert docs[0] == docs[1]
    assert replays[0] == replays[1]


# -- PettingZoo --------------------------------------------------------------------------------


def aec_trace(backend: str, seed: int, config: dict[str, Any], steps: int = 80) -> list[Any]:
    env = NoQuarterAEC(backend=backend, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = [plain([env.observe(a) for a in ("blue", "red")]), plain(env.infos)]
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(_pick(rng, env.observe(agent)["action_mask"]))
        trace.append(
            plain([
                env.agent_selection, [env.observe(a) for a in ("blue", "red")], env.rewards,
                env._cumulative_rewards, env.terminations, env.truncations, env.infos,
                env.state(),
            ])
        )  # fmt: skip
    return trace


@pytest.mark.parametrize("index", [0, 1, 2, 5, 6, 7, 8, 10])
def test_aec_backends_agree_step_for_step(index: int) -> None:
    for seed in (index, 50 + index):
        config = CONFIGS[index]
        _same(aec_trace("python", seed, config), aec_trace("native", seed, config))


def parallel_trace(backend: str, seed: int, config: dict[str, Any], steps: int = 80) -> list[Any]:
    env = NoQuarterParallel(backend=backend, **config)
    observations, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = [plain((observations, infos))]
    for step in range(steps):
        if not env.agents:
            break
        actions = {a: _pick(rng, observations[a]["action_mask"]) for a in ("blue", "red")}
        if step % 9 == 8:  # now and then an illegal action (the noop policy)
            actions["blue"] = 1
        result = env.step(actions)
        observations = result[0]
        trace.append(plain([*result, env.state()]))
    return trace


@pytest.mark.parametrize("index", [0, 1, 3, 4, 7, 8, 9, 11])
def test_parallel_backends_agree_step_for_step(index: int) -> None:
    for seed in (index, 70 + index):
        config = CONFIGS[index]
        _same(parallel_trace("python", seed, config), parallel_trace("native", seed, config))


@pytest.mark.parametrize("cls", [NoQuarterAEC, NoQuarterParallel])
@pytest.mark.parametrize(("saver", "loader"), [("python", "native"), ("native", "python")])
def test_pettingzoo_snapshots_cross_backends(cls: Any, saver: str, loader: str) -> None:
    env = cls(backend=saver, mechs_per_side=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(15):
        if cls is NoQuarterAEC:
            env.step(_pick(rng, env.observe(env.agent_selection)["action_mask"]))
        else:
            masks = {a: env._agent_obs(a)["action_mask"] for a in ("blue", "red")}
            env.step({a: _pick(rng, m) for a, m in masks.items()})
    snapshot = json.loads(json.dumps(env.save_state()))
    twin = cls(backend=loader, mechs_per_side=2)
    twin.load_state(snapshot)
    assert twin.save_state() == env.save_state()
    for _ in range(30):
        if not env.agents:
            break
        if cls is NoQuarterAEC:
            action = _pick(rng, env.observe(env.agent_selection)["action_mask"])
            env.step(action)
            twin.step(action)
            assert plain([twin.rewards, twin.infos, twin.observe("blue")]) == plain(
                [env.rewards, env.infos, env.observe("blue")]
            )
        else:
            masks = {a: env._agent_obs(a)["action_mask"] for a in ("blue", "red")}
            actions = {a: _pick(rng, m) for a, m in masks.items()}
            assert plain(twin.step(actions)) == plain(env.step(actions))


# -- the keyword ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [NoQuarterSkirmishEnv, NoQuarterAEC, NoQuarterParallel])
@pytest.mark.parametrize("bad", ["nope", "Native", 3, None, b"native", ("native",)])
def test_a_bad_backend_raises_env_argument_error(cls: Any, bad: Any) -> None:
    with pytest.raises(EnvArgumentError, match="backend"):
        cls(backend=bad)


def test_the_native_backend_refuses_what_it_cannot_play() -> None:
    import gymnasium

    import wargym.envs  # noqa: F401  (registers the ids)

    with pytest.raises(EnvArgumentError, match="battle_factory"):
        NoQuarterSkirmishEnv(backend="native", battle_factory=lambda rng, dice: None)
    with pytest.raises(TypeError, match="backend"):  # the mission envs have no backend yet
        gymnasium.make("wargym/NoQuarter-Patrol-v1", backend="native")
    with pytest.raises(EnvArgumentError, match="slots"):
        NoQuarterSkirmishEnv(backend="native", slots=lambda *a: None)


def test_the_default_backend_is_native_where_the_core_plays_the_battle() -> None:
    """``backend="auto"`` (the default): native for generated skirmishes, python for hooks."""
    import gymnasium

    import wargym.envs  # noqa: F401  (registers the ids)

    for cls in (NoQuarterSkirmishEnv, NoQuarterAEC, NoQuarterParallel):
        assert cls().backend == "native"
        assert cls(backend="auto").backend == "native"
        assert cls(backend="python").backend == "python"
    factory = NoQuarterSkirmishEnv(battle_factory=lambda rng, dice: None)
    assert factory.backend == "python"
    assert gymnasium.make("wargym/NoQuarter-Skirmish-v1").unwrapped.backend == "native"
    with pytest.raises(EnvArgumentError, match="'auto', 'python', 'native'"):
        NoQuarterSkirmishEnv(backend="c++")


def test_the_default_backend_plays_the_reference_episode() -> None:
    """The default env's episode is the reference engine's, step for step (same seed)."""
    runs = []
    for backend in ("auto", "python"):
        env = NoQuarterSkirmishEnv(backend=backend, max_turns=3)
        obs, info = env.reset(seed=7)
        trace = [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
        rng = np.random.default_rng(0)
        for _ in range(80):
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
            trace += [obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward]
            if term or trunc:
                break
        runs.append(trace)
    assert runs[0] == runs[1]
