"""The native batch (``SkirmishBatch(..., backend="native")``) against the Python batch.

Both batches play the same seeds and the same actions (uniform over the legal mask, seeded);
after every step every array must be equal bit for bit (floats compared as their bits, so a
-0.0 against 0.0 shows), and so must the final infos of the episodes that ended. Episodes are
short (``max_turns``, ``max_episode_steps``) so that each run crosses many SAME_STEP
auto-resets, by the rules and by truncation. Also: bad input, the GIL released during a step,
memory over many resets, and the vector envs' ``backend="native"``.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.base import EnvArgumentError, InvalidActionError
from wargym.envs.no_quarter.batch import NativeSkirmishBatch, SkirmishBatch
from wargym.envs.no_quarter.mission import NoQuarterPatrolEnv
from wargym.native.errors import NativeTypeError

STEPS = int(os.environ.get("WARGYM_BATCH_STEPS", "150"))
"""Steps of each agreement run (each steps every env of the batch)."""

ARRAYS = (
    "obs",
    "masks",
    "rewards",
    "terminations",
    "truncations",
    "deciding_side",
    "episode_steps",
)


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def bits(a: np.ndarray) -> np.ndarray:
    if a.dtype == np.float32:
        return a.view(np.uint32)
    if a.dtype == np.float64:
        return a.view(np.uint64)
    return a


def same_info(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    if a is None or b is None:
        return a is b
    if list(a) != list(b):
        return False
    for key, value in a.items():
        other = b[key]
        if isinstance(value, np.ndarray):
            if not (value.dtype == other.dtype and np.array_equal(value, other)):
                return False
        elif value != other or type(value) is not type(other):
            return False
    return True


def check_same(python: SkirmishBatch, native: SkirmishBatch, where: str) -> None:
    for name in ARRAYS:
        a, b = getattr(python, name), getattr(native, name)
        assert a.dtype == b.dtype and a.shape == b.shape, (where, name)
        if not np.array_equal(bits(a), bits(b)):
            rows = np.flatnonzero(
                ~np.all(bits(a).reshape(len(a), -1) == bits(b).reshape(len(b), -1), axis=1)
            )
            raise AssertionError(f"{where}: {name} differs in envs {rows.tolist()}")
    done = np.flatnonzero(python.terminations | python.truncations)
    for i in done.tolist():
        assert np.array_equal(bits(python.final_obs[i]), bits(native.final_obs[i])), (where, i)
        assert np.array_equal(python.final_masks[i], native.final_masks[i]), (where, i)
        assert same_info(python.final_infos[i], native.final_infos[i]), (
            where,
            i,
            python.final_infos[i],
            native.final_infos[i],
        )


def building_fell_mid_play(plays: list[list[Any]]) -> bool:
    """Whether a building fell inside a play with more of the play after it.

    The native core's known open divergence (docs/native.md, "Lockstep"): its rule tables hold
    the terrain and go stale until the play ends, so what the play does after the fall can
    differ. The batch refreshes the tables between plays; inside one it cannot.
    """
    for events in plays:
        names = [type(e).__name__ for e in events]
        for k, name in enumerate(names):
            if name == "BuildingDestroyed" and any(n != "FiringEnded" for n in names[k + 1 :]):
                return True
    return False


def record_plays(batch: SkirmishBatch) -> list[list[list[Any]]]:
    """Each Python env's plays (their events) since the list was last cleared."""
    plays: list[list[list[Any]]] = [[] for _ in batch.envs]
    for env, mine in zip(batch.envs, plays, strict=True):
        play = env._play  # noqa: SLF001

        def recorded(
            action: Any, who: str, index: Any, _play: Any = play, _mine: Any = mine
        ) -> Any:
            events = _play(action, who, index)
            _mine.append(events)
            return events

        env._play = recorded  # type: ignore[method-assign]  # noqa: SLF001
    return plays


def run_both(
    num_envs: int, seeds: Any, steps: int, max_episode_steps: int, **kwargs: Any
) -> dict[str, int]:
    """Both batches, ``steps`` compared steps; a known core divergence re-seeds both."""
    python = SkirmishBatch(num_envs, seeds, max_episode_steps=max_episode_steps, **kwargs)
    native = SkirmishBatch(
        num_envs, seeds, max_episode_steps=max_episode_steps, backend="native", **kwargs
    )
    assert isinstance(native, NativeSkirmishBatch)
    plays = record_plays(python)
    check_same(python, native, "reset")
    rng = np.random.default_rng(12345)
    ends = {"terminated": 0, "truncated": 0, "known_divergences": 0}
    for k in range(steps):
        actions = pick(python.masks, rng)
        for mine in plays:
            mine.clear()
        python.step(actions)
        native.step(actions)
        try:
            check_same(python, native, f"step {k}")
        except AssertionError:
            if not any(building_fell_mid_play(mine) for mine in plays):
                raise
            ends["known_divergences"] += 1
            fresh = [int(v) for v in rng.integers(0, 2**31, size=num_envs)]
            python.reset(fresh)
            native.reset(fresh)
            check_same(python, native, f"re-seeded after step {k}")
            continue
        ends["terminated"] += int(python.terminations.sum())
        ends["truncated"] += int((python.truncations & ~python.terminations).sum())
    assert ends["known_divergences"] <= steps // 10, ends  # most steps are compared
    return ends


CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("rules-3v3", {"max_turns": 3}),  # the env's default red: the rules' NP procedure
    ("rules-2v2-stars", {"mechs_per_side": 2, "max_turns": 4, "stars": 1}),
    ("random-3v3", {"opponent": "random", "max_turns": 3}),
    ("scripted-3v3", {"opponent": "scripted", "max_turns": 3}),
    ("random-1v1", {"opponent": "random", "mechs_per_side": 1, "max_turns": 4}),
    ("scripted-2v2-cell2", {"opponent": "scripted", "mechs_per_side": 2, "cell": 2.0}),
    (
        "random-unmirrored-features",
        {"opponent": "random", "mirror": False, "action_features": True},
    ),
    (
        "scripted-options",
        {
            "opponent": "scripted",
            "max_turns": 2,
            "battle_options": {
                "move_directions": 8,
                "move_fractions": [0.5, 1.0],
                "lucky": "auto",
                "leave_wrecks": True,
            },
        },
    ),
    ("random-stars-factions", {"opponent": "random", "stars": 1, "factions": ("pdf", "iss")}),
]


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_native_batch_equals_the_python_batch(name: str, kwargs: dict[str, Any]) -> None:
    ends = run_both(4, [7, 1000, 7, 31], STEPS, 12, **kwargs)
    assert ends["terminated"] + ends["truncated"] >= 4  # auto-resets were crossed


@pytest.mark.parametrize("seed", [0, 2024, 99991])
def test_native_batch_equals_the_python_batch_over_seeds(seed: int) -> None:
    ends = run_both(3, seed, STEPS, 40, opponent="random", max_turns=3)
    assert ends["terminated"] > 0


def test_reset_without_seed_goes_on_as_the_python_batch() -> None:
    kwargs: dict[str, Any] = {"opponent": "scripted", "max_turns": 2, "mechs_per_side": 1}
    python = SkirmishBatch(2, 5, **kwargs)
    native = SkirmishBatch(2, 5, backend="native", **kwargs)
    rng = np.random.default_rng(0)
    for _ in range(3):
        actions = pick(python.masks, rng)
        python.step(actions)
        native.step(actions)
    python.reset()
    native.reset()
    check_same(python, native, "reset()")
    python.reset([3, None])
    native.reset([3, None])
    check_same(python, native, "reset([3, None])")


# -- bad input ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> SkirmishBatch:
    return SkirmishBatch(3, 0, backend="native", opponent="random", max_turns=2)


@pytest.mark.parametrize(
    ("actions", "match"),
    [
        (np.zeros(3, dtype=np.float64), "integer dtype"),
        (np.zeros(2, dtype=np.int64), "shape"),
        (np.full(3, -1, dtype=np.int64), "out of range"),
        (np.full(3, 10**6, dtype=np.int64), "out of range"),
        (np.zeros(3, dtype=np.int64), "masked out"),  # index 0 (wait) is never legal
        ([[1, 2], [3]], "integer"),
    ],
)
def test_bad_actions_raise_before_anything_moves(
    small: SkirmishBatch, actions: Any, match: str
) -> None:
    before = {n: getattr(small, n).copy() for n in ARRAYS}
    with pytest.raises(InvalidActionError, match=match):
        small.step(actions)
    for name, value in before.items():
        assert np.array_equal(getattr(small, name), value)


@pytest.mark.parametrize(
    ("seeds", "match"), [(-1, "seed"), (1.5, "seed"), ([1, 2], "one seed per env"), (True, "seed")]
)
def test_bad_seeds_raise(small: SkirmishBatch, seeds: Any, match: str) -> None:
    with pytest.raises(EnvArgumentError, match=match):
        small.reset(seeds)


class _Agent:
    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"opponent": "random", "env_cls": NoQuarterPatrolEnv}, "env_cls"),
        ({"opponent": _Agent()}, "opponent"),
        ({"opponent": "random", "advisor": object}, "advisor"),
        ({"opponent": "random", "info_events": True}, "info_events"),
        ({"opponent": "random", "reward_shaping": {"armor_lost": 0.1}}, "reward_shaping"),
        ({"opponent": "random", "flatten": False}, "flatten"),
        ({"opponent": "random", "backend": "gpu"}, "backend"),
        ({"opponent": "random", "mechs_per_side": 0}, "mechs_per_side"),
    ],
)
def test_unsupported_keywords_raise_naming_them(kwargs: dict[str, Any], match: str) -> None:
    kwargs = {"backend": "native", **kwargs}
    with pytest.raises(EnvArgumentError, match=match):
        SkirmishBatch(2, 0, **kwargs)


def test_the_rules_opponent_needs_its_tables() -> None:
    """The core refuses a 'rules' start before the NP tables are set (the glue sets them)."""
    batch = SkirmishBatch(2, 0, backend="native")
    assert isinstance(batch, NativeSkirmishBatch)
    with pytest.raises(NativeTypeError, match="np_tables"):
        batch._core.set_np_tables(object())  # noqa: SLF001


# -- the GIL, memory, the vector envs ----------------------------------------------------------


def test_step_releases_the_gil() -> None:
    """A thread spinning in Python counts while ``core.step`` runs: the call holds no GIL.

    Holding the GIL, native code never lets the spinner run (it checks no eval breaker), so
    its count stays 0 over the call. The step of 256 envs takes milliseconds, and the spinner
    may not be scheduled at once on a busy machine: up to 5 calls, each on legal actions.
    """
    batch = SkirmishBatch(256, 0, backend="native", opponent="random", max_turns=3)
    rng = np.random.default_rng(0)
    batch.step(pick(batch.masks, rng))  # warm
    core = batch._core  # noqa: SLF001  (the one native call, without the glue's Python work)
    count = [0]
    go, stop = threading.Event(), threading.Event()

    def spin() -> None:
        go.wait()
        while not stop.is_set():
            count[0] += 1

    thread = threading.Thread(target=spin)
    thread.start()
    go.set()
    during, spent = 0, 0.0
    try:
        for _ in range(5):
            actions = pick(batch.masks, rng)
            time.sleep(0.01)
            before = count[0]
            start = time.perf_counter()
            core.step(actions)
            spent += time.perf_counter() - start
            during += count[0] - before
            batch._after_step()  # noqa: SLF001  (the glue's part of batch.step)
            if during > 0:
                break
    finally:
        stop.set()
        thread.join()
    assert spent > 0.0
    assert during > 0, (during, spent)


def _rss() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_no_leak_over_many_resets() -> None:
    batch = SkirmishBatch(4, 0, backend="native", opponent="random", max_turns=1)
    for s in range(30):
        batch.reset(s)
    before = _rss()
    for s in range(300):
        batch.reset(s)
    grown = _rss() - before
    assert grown < 24 * 2**20, grown


def test_make_vec_and_sb3_take_the_native_backend() -> None:
    kwargs: dict[str, Any] = {"opponent": "random", "max_turns": 2, "mechs_per_side": 2}
    python = gymnasium.make_vec("wargym/NoQuarter-Skirmish-v1", num_envs=3, **kwargs)
    native = gymnasium.make_vec(
        "wargym/NoQuarter-Skirmish-v1", num_envs=3, backend="native", **kwargs
    )
    obs_p, _ = python.reset(seed=3)
    obs_n, _ = native.reset(seed=3)
    assert np.array_equal(obs_p["observation"], obs_n["observation"])
    rng = np.random.default_rng(1)
    for _ in range(20):
        actions = pick(python.unwrapped.action_masks(), rng)  # type: ignore[attr-defined]
        out_p = python.step(actions)
        out_n = native.step(actions)
        for a, b in zip(out_p[:4], out_n[:4], strict=True):
            if isinstance(a, dict):
                assert all(np.array_equal(a[k], b[k]) for k in a)
            else:
                assert np.array_equal(a, b)
    pytest.importorskip("stable_baselines3")
    from wargym.agents.sb3_vec import BatchVecEnv

    venv = BatchVecEnv(2, 0, backend="native", **kwargs)
    reference = BatchVecEnv(2, 0, **kwargs)
    assert np.array_equal(venv.reset()["observation"], reference.reset()["observation"])
    assert venv.get_attr("render_mode") == [None, None]
    with pytest.raises(EnvArgumentError, match="single envs"):
        venv.env_method("reset")


def test_the_core_refuses_bad_arguments_naming_them() -> None:
    from wargym.native.errors import NativeArgumentError, NativeTypeError

    batch = SkirmishBatch(2, 0, backend="native", opponent="random", max_turns=2)
    core = batch._core  # noqa: SLF001
    arrays = [
        batch.obs, batch.masks, batch.rewards, batch.terminations, batch.truncations,
        batch.deciding_side, batch.episode_steps, batch.final_obs, batch.final_masks,
        batch._status, batch._started,  # noqa: SLF001
    ]  # fmt: skip
    wrong = list(arrays)
    wrong[0] = batch.obs.astype(np.float64)
    with pytest.raises(NativeTypeError, match="obs"):
        core.set_buffers(*wrong)
    wrong = list(arrays)
    wrong[2] = np.zeros(3)
    with pytest.raises(NativeArgumentError, match="rewards"):
        core.set_buffers(*wrong)
    with pytest.raises(NativeArgumentError, match="i"):
        core.battle(2)
    with pytest.raises(NativeTypeError, match="battle"):
        core.start(0, object(), None, None, None)
    with pytest.raises(NativeTypeError, match="actions"):
        core.step([1, 2])
    before = batch.obs.copy()
    core.set_buffers(*arrays)  # the batch's own arrays again: still usable
    assert np.array_equal(batch.obs, before)


def test_the_benchmark_runs_and_writes_its_figures(tmp_path: Any) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    out = tmp_path / "native_batch.json"
    args = ["--seconds", "0.05", "--rounds", "1", "--sizes", "2", "--memory-envs", "2"]
    args += ["--memory-steps", "1", "--ppo-steps", "0", "--python-size", "1", "--json", str(out)]
    subprocess.run(
        [sys.executable, "native_batch.py", *args], cwd=folder, check=True, capture_output=True
    )
    report = json.loads(out.read_text())
    assert report["batch"][0]["envs"] == 2 and report["batch"][0]["steps_per_s"] > 0
    assert report["memory"]["peak_kb"] > 0 and report["ppo"] is None
