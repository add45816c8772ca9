"""Env snapshots: ``save_state`` / ``load_state`` restore every wargym env exactly (issue 9).

For every registered Gymnasium id and every PettingZoo env (AEC and Parallel): reset with a
seed, play a few masked-random steps, save, play on recording every observation, reward, flag
and info; then a NEW env built with the same arguments loads the snapshot (as saved, and after
a JSON round trip) and replays the same actions: every record must be identical, and the new
env's own snapshot right after loading must equal the saved one. Malformed snapshots (wrong
format, version, env class or configuration, changed data, bad fields) raise ``StateError``
naming the problem and leave the env unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from env_cases import cases, fast, feed, pick  # noqa: E402

from wargym.envs import pettingzoo_module  # noqa: E402
from wargym.envs.snapshot import SNAPSHOT_FORMAT, SNAPSHOT_VERSION, digest  # noqa: E402
from wargym.rules.errors import StateError  # noqa: E402

SEED = 11
ILLEGAL_EVERY = 7
"""Every this many steps the player tries an illegal action (when there is one)."""


def steps_of(case: str) -> tuple[int, int]:
    """(steps before the snapshot, steps after it): the space envs are fast, No Quarter not."""
    return (5, 25) if "oQuarter" in case or "no_quarter" in case else (12, 80)


def build(case: str, **extra: Any) -> Any:
    """A fresh env of ``case`` (Gymnasium: unwrapped, so no wrapper state is involved)."""
    kind, name = case.split(":", 1)
    if kind == "gym":
        return gymnasium.make(name, **fast(name, **extra)).unwrapped
    module = pettingzoo_module(name)
    return (module.env if kind == "aec" else module.parallel_env)(**fast(name, **extra))


def record(*items: Any) -> str:
    """One step's record: the hash of everything it returned."""
    h = hashlib.sha256()
    feed(h, *items)
    return h.hexdigest()


class Driver:
    """Plays ``n`` steps of one env kind, choosing moves from ``rng`` or replaying ``moves``."""

    def __init__(self, kind: str, env: Any) -> None:
        self.kind, self.env = kind, env
        self.obs: Any = None

    def start(self, seed: int) -> None:
        """Reset with ``seed`` (and remember what the player sees)."""
        if self.kind == "gym":
            self.obs, _ = self.env.reset(seed=seed)
        elif self.kind == "aec":
            self.env.reset(seed=seed)
        else:
            self.obs, _ = self.env.reset(seed=seed)

    def play(
        self, n: int, rng: np.random.Generator | None = None, moves: list[Any] | None = None
    ) -> tuple[list[Any], list[str]]:
        """Play ``n`` steps (or replay ``moves``); returns the moves and one record per step."""
        env, out_moves, records = self.env, [], []
        count = n if moves is None else len(moves)
        for step in range(count):
            if self.kind == "gym":
                if moves is not None:
                    move = moves[step]
                elif self.obs is None:
                    move = "reset"
                else:
                    assert rng is not None
                    move = pick(rng, self.obs["action_mask"], step, ILLEGAL_EVERY)
                if move == "reset":  # unseeded: draws from the env's own np_random
                    self.obs, info = env.reset()
                    records.append(record("reset", self.obs, info))
                else:
                    obs, reward, terminated, truncated, info = env.step(move)
                    records.append(record(move, obs, float(reward), terminated, truncated, info))
                    self.obs = None if terminated or truncated else obs
            elif self.kind == "aec":
                if not env.agents:
                    break
                agent = env.agent_selection
                obs, reward, terminated, truncated, info = env.last()
                if moves is not None:
                    move = moves[step]
                else:
                    assert rng is not None
                    move = (
                        None
                        if terminated or truncated
                        else pick(rng, obs["action_mask"], step, ILLEGAL_EVERY)
                    )
                env.step(move)
                records.append(
                    record(agent, obs, float(reward), terminated, truncated, info, move)
                    + record(env.rewards, env._cumulative_rewards, env.terminations, env.infos)
                )
            else:
                if not env.agents:
                    break
                if moves is not None:
                    move = moves[step]
                else:
                    assert rng is not None
                    move = {
                        a: pick(rng, o["action_mask"], step, ILLEGAL_EVERY)
                        for a, o in self.obs.items()
                    }
                self.obs, *rest = env.step(move)
                records.append(record(move, self.obs, *rest))
            out_moves.append(move)
        return out_moves, records


def load(kind: str, env: Any, snapshot: dict[str, Any]) -> Any:
    """``env.load_state(snapshot)``: (obs, info) for Gymnasium and Parallel, None for AEC."""
    result = env.load_state(snapshot)
    if kind == "aec":
        assert result is None
    else:
        obs, info = result
        assert isinstance(info, dict)
    return result


@pytest.mark.parametrize("case", cases())
def test_env_save_load_continuation_is_identical_also_through_json(case: str) -> None:
    kind = case.split(":", 1)[0]
    before, after = steps_of(case)
    rng = np.random.default_rng(SEED)
    first = Driver(kind, build(case))
    first.start(SEED)
    first.play(before, rng)
    snapshot = first.env.save_state()
    text = json.dumps(snapshot)
    assert json.loads(text) == snapshot  # JSON data already: a round trip changes nothing
    assert snapshot["format"] == SNAPSHOT_FORMAT and snapshot["version"] == SNAPSHOT_VERSION
    seen_obs = first.obs
    moves, expected = first.play(after, rng)
    assert len(expected) >= 3  # a Parallel episode may end soon after the snapshot
    for data in (snapshot, json.loads(text)):
        second = Driver(kind, build(case))
        loaded = load(kind, second.env, data)
        assert second.env.save_state() == snapshot  # nothing lost or changed by loading
        if kind != "aec" and seen_obs is not None:
            assert record(loaded[0]) == record(seen_obs)
        _, replayed = second.play(0, moves=moves)
        assert replayed == expected


@pytest.mark.parametrize("case", cases())
def test_env_save_load_snapshot_of_another_moment_continues_differently(case: str) -> None:
    """The records tell states apart: loading an earlier snapshot replays other steps."""
    kind = case.split(":", 1)[0]
    rng = np.random.default_rng(SEED)
    first = Driver(kind, build(case))
    first.start(SEED)
    early = first.env.save_state()
    first.play(steps_of(case)[0], rng)
    moves, expected = first.play(6, rng)
    other = Driver(kind, build(case))
    load(kind, other.env, early)
    try:
        _, replayed = other.play(0, moves=moves)
    except Exception:  # an action of the later moment may not even fit the earlier one
        return
    assert replayed != expected


def _started(case: str, steps: int = 2) -> Any:
    kind = case.split(":", 1)[0]
    driver = Driver(kind, build(case))
    driver.start(SEED)
    driver.play(steps, np.random.default_rng(SEED))
    return driver.env


def _resealed(snapshot: dict[str, Any]) -> dict[str, Any]:
    """``snapshot`` with its digest recomputed (a tampering that also fixes the digest)."""
    payload = {k: v for k, v in snapshot.items() if k != "digest"}
    return {**payload, "digest": digest(payload)}


def _refused(env: Any, data: Any, match: str) -> None:
    """Loading ``data`` raises StateError matching ``match`` and leaves ``env`` unchanged."""
    before = env.save_state()
    with pytest.raises(StateError, match=match):
        env.load_state(data)
    assert env.save_state() == before


@pytest.mark.parametrize("case", cases())
def test_env_save_load_refuses_wrong_header_and_changed_data(case: str) -> None:
    env = _started(case)
    good = env.save_state()
    _refused(env, "not a snapshot", "snapshot: expected an object")
    _refused(env, {**good, "format": "something-else"}, "snapshot.format")
    _refused(env, _resealed({**good, "version": SNAPSHOT_VERSION + 1}), "snapshot.version")
    _refused(env, _resealed({**good, "env": "some.OtherEnv"}), "snapshot.env")
    missing = {k: v for k, v in good.items() if k != "state"}
    _refused(env, missing, r"snapshot: missing keys \['state'\]")
    key = sorted(good["config"])[0]
    changed = copy.deepcopy(good)
    changed["config"][key] = "changed"
    _refused(env, _resealed(changed), f"snapshot.config.{key}")
    tampered = copy.deepcopy(good)
    name = sorted(tampered["state"])[0]
    tampered["state"][name] = "tampered"  # digest left as it was
    _refused(env, tampered, "snapshot.digest")
    env.load_state(good)  # and the good one still loads


@pytest.mark.parametrize("case", cases())
def test_env_save_load_refuses_each_malformed_state_field_by_name(case: str) -> None:
    env = _started(case)
    good = env.save_state()
    for name in sorted(good["state"]):
        bad = copy.deepcopy(good)
        bad["state"][name] = {"tampered": [1, 2]}
        _refused(env, _resealed(bad), f"state.{name}")
    extra = copy.deepcopy(good)
    extra["state"]["unknown_part"] = 1
    _refused(env, _resealed(extra), r"unknown keys \['unknown_part'\]")
    rng_broken = copy.deepcopy(good)
    dice = rng_broken["state"]["dice"]
    dice["state"]["bit_generator"] = "NoSuchGenerator"
    _refused(env, _resealed(rng_broken), "state.dice")


@pytest.mark.parametrize("case", cases())
def test_env_save_load_needs_a_reset_first_and_refuses_another_env(case: str) -> None:
    try:
        early = build(case).save_state()
    except RuntimeError as error:
        assert "reset" in str(error)
    else:  # the Starship Combat envs hold a battle from construction on
        twin = build(case)
        load(case.split(":", 1)[0], twin, early)
        assert twin.save_state() == early
    env = _started(case)
    foreign = _started(
        "aec:no_quarter_v1" if "no_quarter_v1" not in case else "gym:wargym/NoQuarter-Skirmish-v1"
    ).save_state()
    _refused(env, foreign, "snapshot.env")


def test_env_save_load_refuses_a_snapshot_of_another_configuration() -> None:
    small = _started("gym:wargym/NoQuarter-Skirmish-v1")
    other = build("gym:wargym/NoQuarter-Skirmish-v1", mechs_per_side=3)
    other.reset(seed=1)
    with pytest.raises(StateError, match="snapshot.config.mechs_per_side: saved 2"):
        other.load_state(small.save_state())
    pz = build("aec:no_quarter_v1", max_turns=3)
    with pytest.raises(StateError, match="snapshot.config.battle_options"):
        pz.load_state(_started("aec:no_quarter_v1").save_state())


def test_env_save_load_restores_the_np_memory_and_opponent_stream() -> None:
    """The skirmish's red NP memory and generator are in the snapshot and come back."""
    env = _started("gym:wargym/NoQuarter-Skirmish-v1", steps=6)
    state = env.save_state()["state"]
    assert state["opponent"]["spec"] == "rules"
    assert set(state["opponent"]["context"]) == {"groups", "default", "rolls", "options"}
    twin = build("gym:wargym/NoQuarter-Skirmish-v1")
    twin.load_state(env.save_state())
    assert twin._opponent.context == env._opponent.context
    assert twin._opponent.rng.bit_generator.state == env._opponent.rng.bit_generator.state
    assert twin.np_random.bit_generator.state == env.np_random.bit_generator.state
    # the env's own generator goes on spawning the same streams (reset without a seed)
    assert record(twin.reset()[0]) == record(env.reset()[0])


def test_env_save_load_keeps_the_sighting_order_of_enemies_out_of_sight() -> None:
    """Enemy slots follow the order of first sighting, also of enemies no longer in sight."""
    case = "gym:wargym/NoQuarter-Attack-v1"
    driver = Driver("gym", build(case))
    driver.start(SEED)
    rng = np.random.default_rng(SEED)
    for _ in range(40):  # the group orders (E19) and facing add steps before contact
        driver.play(5, rng)
        snapshot = driver.env.save_state()
        state = snapshot["state"]
        if set(state["sighting"].get("blue", [])) - set(state["seen"].get("blue", [])):
            break
    else:
        pytest.fail("no enemy was sighted and then lost from sight")
    twin = build(case)
    twin.load_state(snapshot)
    assert twin._order.order == driver.env._order.order
    assert twin.save_state() == snapshot
    moves, expected = driver.play(15, rng)
    assert Driver("gym", twin).play(0, moves=moves)[1] == expected
