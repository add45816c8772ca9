"""Env snapshots: ``save_state()`` / ``load_state(data)`` helpers shared by every wargym env.

A snapshot is a JSON-compatible dict::

    {"format": "wargym-env-snapshot", "version": 1, "env": "<module>.<Class>",
     "config": {...}, "state": {...}, "digest": "<sha256>"}

``config`` is what the env was built with (the parts that change dynamics, spaces or
rewards); ``state`` the engine state (the engine's own ``to_dict``), the state of every
random generator the env owns (numpy ``bit_generator.state`` plus the ``SeedSequence``, so
that ``spawn`` goes on identically) and the env's bookkeeping. ``digest`` is the SHA-256 of
the canonical JSON of the other fields: a snapshot changed after ``save_state`` is refused.

:func:`make_snapshot` builds one (the result is already JSON-normalised: ``json.loads(
json.dumps(x))`` gives an equal dict); :func:`open_snapshot` checks format, version, env,
config and digest and returns the ``state`` part. Every refusal is a
:class:`~wargym.rules.errors.StateError` naming the problem; the env is not changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from wargym.envs.snapshot_guard import (
    MAX_DEPTH,
    MAX_INT_BITS,
    MAX_NODES,
    MAX_POOL_SIZE,
    MAX_SPAWN_DEPTH,
    MAX_STRING,
    all_or_nothing,
    check_bit_state,
    check_bool,
    check_int,
    check_number,
    check_plain,
    entropy_from,
)
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.errors import StateError, short_repr

SNAPSHOT_FORMAT = "wargym-env-snapshot"
"""The ``format`` tag of every env snapshot."""
SNAPSHOT_VERSION = 1
"""The snapshot layout version this code reads and writes."""
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
"""numpy bit generators a snapshot may restore."""
T = TypeVar("T")


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (numpy arrays and scalars become lists and numbers)."""
    text = json.dumps(value, default=_numpy_default, allow_nan=True)
    return json.loads(text)


def _numpy_default(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"cannot put {type(obj).__name__} into a snapshot: {obj!r}")


def digest(payload: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``payload`` (keys sorted, no spaces)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def env_name(env: object) -> str:
    """The ``env`` tag of a snapshot: the env's module and class name."""
    cls = type(env)
    return f"{cls.__module__}.{cls.__qualname__}"


def make_snapshot(
    env: object, config: Mapping[str, Any], state: Mapping[str, Any]
) -> dict[str, Any]:
    """A JSON-normalised snapshot of ``env`` with its digest (module docstring)."""
    payload = jsonable(
        {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "env": env_name(env),
            "config": dict(config),
            "state": dict(state),
        }
    )
    payload["digest"] = digest(payload)
    return dict(payload)


def open_snapshot(env: object, data: Any, config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``state`` part of snapshot ``data`` after checking it fits ``env``.

    Raises:
        StateError: not an object, wrong keys, format, version, env class or config (the
            message names every differing config key), or a digest that does not match.
    """
    if not isinstance(data, Mapping):
        raise StateError(f"snapshot: expected an object, got {type(data).__name__}")
    check_keys("snapshot", data, {"format", "version", "env", "config", "state", "digest"})
    check_plain("snapshot", data)
    if data["format"] != SNAPSHOT_FORMAT:
        raise StateError(
            f"snapshot.format: {short_repr(data['format'])}; expected {SNAPSHOT_FORMAT!r}"
        )
    if data["version"] != SNAPSHOT_VERSION or isinstance(data["version"], bool):
        raise StateError(
            f"snapshot.version: {short_repr(data['version'])}; this code reads version "
            f"{SNAPSHOT_VERSION}"
        )
    if data["env"] != env_name(env):
        raise StateError(
            f"snapshot.env: saved by {short_repr(data['env'])}, this env is {env_name(env)!r}"
        )
    expected = jsonable(dict(config))
    saved = data["config"]
    if not isinstance(saved, Mapping):
        raise StateError("snapshot.config: expected an object")
    differ = [
        f"snapshot.config.{key}: saved {_short(saved.get(key, '<missing>'))}, "
        f"this env has {_short(expected.get(key, '<missing>'))}"
        for key in sorted(set(saved) | set(expected))
        if saved.get(key, "<missing>") != expected.get(key, "<missing>")
    ]
    if differ:
        raise StateError("the snapshot is of another configuration: " + "; ".join(differ))
    if not isinstance(data["state"], Mapping):
        raise StateError("snapshot.state: expected an object")
    payload = {k: v for k, v in data.items() if k != "digest"}
    try:
        found = digest(payload)
    except (TypeError, ValueError) as error:
        raise StateError(f"snapshot: not JSON data ({error})") from error
    if data["digest"] != found:
        raise StateError(
            "snapshot.digest: does not match the data (the snapshot was changed after "
            "save_state, or is truncated)"
        )
    return dict(data["state"])


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


def check_keys(where: str, data: Any, keys: Iterable[str]) -> Mapping[str, Any]:
    """``data`` if it is an object with exactly ``keys``; StateError naming the difference."""
    if not isinstance(data, Mapping):
        raise StateError(f"{where}: expected an object, got {type(data).__name__}")
    wanted = set(keys)
    missing, extra = sorted(wanted - set(data)), sorted(set(data) - wanted)
    if missing or extra:
        raise StateError(f"{where}: missing keys {missing}, unknown keys {extra}")
    return data


def parse(where: str, build: Callable[[], T]) -> T:
    """``build()``, with any TypeError/ValueError/KeyError turned into a StateError at ``where``."""
    try:
        return build()
    except StateError as error:
        raise StateError(f"{where}: {error}") from error
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as error:
        message = short_repr(str(error), 200)
        raise StateError(f"{where}: {type(error).__name__}: {message}") from error


# -- random generators ------------------------------------------------------------------------


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """A generator's bit-generator state and seed sequence (so ``spawn`` continues too)."""
    bit = rng.bit_generator
    seq = getattr(bit, "seed_seq", None)
    seed_seq = None
    if isinstance(seq, np.random.SeedSequence):
        entropy = seq.entropy
        seed_seq = {
            "entropy": entropy if isinstance(entropy, int) or entropy is None else list(entropy),
            "spawn_key": [int(k) for k in seq.spawn_key],
            "pool_size": int(seq.pool_size),
            "n_children_spawned": int(seq.n_children_spawned),
        }
    return {"state": jsonable(bit.state), "seed_seq": seed_seq}


def rng_from_dict(where: str, data: Any) -> np.random.Generator:
    """Rebuild a generator from :func:`rng_to_dict` output; StateError naming ``where``."""
    check_keys(where, data, {"state", "seed_seq"})
    state = data["state"]
    if not isinstance(state, Mapping) or state.get("bit_generator") not in BIT_GENERATORS:
        raise StateError(f"{where}.state: expected the state of one of {BIT_GENERATORS}")
    check_bit_state(f"{where}.state", state)
    seq = data["seed_seq"]
    seed_seq: np.random.SeedSequence | None = None
    if seq is not None:
        here = f"{where}.seed_seq"
        check_keys(here, seq, {"entropy", "spawn_key", "pool_size", "n_children_spawned"})
        entropy = entropy_from(f"{here}.entropy", seq["entropy"])
        keys = seq["spawn_key"]
        if not isinstance(keys, list) or len(keys) > MAX_SPAWN_DEPTH:
            raise StateError(f"{here}.spawn_key: expected a list of at most {MAX_SPAWN_DEPTH} ints")
        spawn_key = tuple(
            check_int(f"{here}.spawn_key[{i}]", k, 0, 2**63 - 1) for i, k in enumerate(keys)
        )
        pool_size = check_int(f"{here}.pool_size", seq["pool_size"], 4, MAX_POOL_SIZE)
        children = check_int(f"{here}.n_children_spawned", seq["n_children_spawned"], 0, 2**63 - 1)
        seed_seq = parse(
            here,
            lambda: np.random.SeedSequence(
                entropy, spawn_key=spawn_key, pool_size=pool_size, n_children_spawned=children
            ),
        )
    kind = getattr(np.random, str(state["bit_generator"]))

    def build() -> np.random.Generator:
        bit = kind(seed_seq)
        bit.state = dict(state)
        return np.random.Generator(bit)

    return parse(f"{where}.state", build)


def dice_to_dict(dice: Dice) -> dict[str, Any]:
    """The generator of :class:`RandomDice` (other dice cannot be snapshot).

    Raises:
        StateError: ``dice`` is not a ``RandomDice`` (scripted or test dice).
    """
    if not isinstance(dice, RandomDice):
        raise StateError(
            f"cannot snapshot dice of type {type(dice).__name__}: only RandomDice hold a "
            "restorable state"
        )
    return rng_to_dict(dice.rng)


def dice_from_dict(where: str, data: Any) -> RandomDice:
    """``RandomDice`` over the generator of :func:`dice_to_dict` output."""
    return RandomDice(rng_from_dict(where, data))


def gym_rng_to_dict(env: Any) -> dict[str, Any]:
    """A Gymnasium env's own ``np_random`` (``reset()`` without a seed draws from it)."""
    rng = getattr(env, "_np_random", None)
    seed = getattr(env, "_np_random_seed", None)
    return {"rng": None if rng is None else rng_to_dict(rng), "seed": seed}


def gym_rng_from_dict(where: str, data: Any) -> tuple[np.random.Generator | None, int | None]:
    """Parse :func:`gym_rng_to_dict` output (restore with :func:`set_gym_rng`)."""
    check_keys(where, data, {"rng", "seed"})
    rng = None if data["rng"] is None else rng_from_dict(f"{where}.rng", data["rng"])
    seed = None if data["seed"] is None else check_int(f"{where}.seed", data["seed"])
    return rng, seed


def set_gym_rng(env: Any, parsed: tuple[np.random.Generator | None, int | None]) -> None:
    """Give a Gymnasium env the generator and seed parsed by :func:`gym_rng_from_dict`."""
    env._np_random, env._np_random_seed = parsed


# -- small shared parts ---------------------------------------------------------------------


def seen_to_dict(seen: Mapping[Any, Iterable[int]]) -> dict[str, list[int]]:
    """Per viewer (an enum or a name), the sorted ids of a seen-set mapping."""
    return {str(getattr(k, "value", k)): sorted(int(i) for i in v) for k, v in seen.items()}


def ids_from(where: str, data: Any, known: Iterable[int] | None = None) -> list[int]:
    """A list of ints (each among ``known`` when given); StateError naming ``where``."""
    if not isinstance(data, list):
        raise StateError(f"{where}: expected a list of ids, got {type(data).__name__}")
    ids = [check_int(f"{where}[{i}]", v) for i, v in enumerate(data)]
    if known is not None:
        pool = set(known)
        stray = sorted(i for i in ids if i not in pool)
        if stray:
            raise StateError(f"{where}: ids {stray} are not in the state")
    return ids


def mask_from(where: str, data: Any, n: int) -> np.ndarray:
    """An int8 mask of ``n`` zeros and ones from a list; StateError naming ``where``."""
    if not isinstance(data, list) or len(data) != n or any(v not in (0, 1) for v in data):
        raise StateError(f"{where}: expected a list of {n} zeros and ones")
    return np.asarray(data, dtype=np.int8)


# -- PettingZoo bookkeeping ---------------------------------------------------------------

AEC_KEYS = (
    "agents",
    "rewards",
    "cumulative_rewards",
    "terminations",
    "truncations",
    "infos",
    "agent_selection",
)
"""The ``state`` keys of an AEC env's bookkeeping (:func:`aec_to_dict`)."""


def aec_to_dict(env: Any) -> dict[str, Any]:
    """An AEC env's live agents, rewards, flags, infos and selection.

    Raises:
        RuntimeError: before the first ``reset`` (no bookkeeping yet).
    """
    if getattr(env, "rewards", None) is None:
        raise RuntimeError("call reset() first")
    return {
        "agents": list(env.agents),
        "rewards": dict(env.rewards),
        "cumulative_rewards": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": env.infos,
        "agent_selection": env.agent_selection,
    }


def agents_from(where: str, data: Any, possible: Sequence[str]) -> list[str]:
    """Distinct agent names among ``possible``; StateError naming ``where``."""
    if (
        not isinstance(data, list)
        or any(not isinstance(a, str) or a not in possible for a in data)
        or len(set(data)) != len(data)
    ):
        raise StateError(f"{where}: expected distinct agents of {list(possible)}, got {data!r}")
    return list(data)


def _per_agent(
    where: str, data: Any, agents: list[str], item: Callable[[str, Any], T]
) -> dict[str, T]:
    if not isinstance(data, Mapping) or set(data) != set(agents):
        got = sorted(data) if isinstance(data, Mapping) else type(data).__name__
        raise StateError(
            f"{where}: expected one entry per agent of state.agents {agents}, got {short_repr(got)}"
        )
    return {a: item(f"{where}.{a}", data[a]) for a in agents}


def info_from(where: str, value: Any, n: int) -> dict[str, Any]:
    """A saved info dict: JSON data with an int8 ``action_mask`` of ``n`` entries.

    ``events`` is optional (No Quarter envs leave it out unless ``info_events=True``).
    """
    if not isinstance(value, dict) or not isinstance(value.get("events", []), list):
        raise StateError(f"{where}: expected an info with action_mask and events")
    return {**value, "action_mask": mask_from(f"{where}.action_mask", value.get("action_mask"), n)}


def parse_aec(state: Mapping[str, Any], possible: Sequence[str], n: int) -> Callable[[Any], None]:
    """Check the :data:`AEC_KEYS` of a snapshot's state; returns what puts them into an env."""
    agents = agents_from("state.agents", state["agents"], possible)
    rewards = _per_agent("state.rewards", state["rewards"], agents, check_number)
    total = _per_agent(
        "state.cumulative_rewards", state["cumulative_rewards"], agents, check_number
    )
    ended = _per_agent("state.terminations", state["terminations"], agents, check_bool)
    cut = _per_agent("state.truncations", state["truncations"], agents, check_bool)
    saved_infos = state["infos"]
    if not isinstance(saved_infos, dict):
        raise StateError("state.infos: expected an object of agent -> info")
    names = agents_from("state.infos", list(saved_infos), possible)
    infos = {a: info_from(f"state.infos.{a}", saved_infos[a], n) for a in names}
    selected = state["agent_selection"]
    if selected not in possible:
        raise StateError(f"state.agent_selection: {selected!r} is not one of {list(possible)}")

    def apply(env: Any) -> None:
        env.agents, env.rewards, env._cumulative_rewards = agents, rewards, total
        env.terminations, env.truncations, env.infos = ended, cut, infos
        env.agent_selection = selected

    return apply


__all__ = [
    "AEC_KEYS",
    "BIT_GENERATORS",
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "MAX_NODES",
    "MAX_POOL_SIZE",
    "MAX_SPAWN_DEPTH",
    "MAX_STRING",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "aec_to_dict",
    "agents_from",
    "all_or_nothing",
    "check_bool",
    "check_int",
    "check_keys",
    "check_number",
    "check_plain",
    "dice_from_dict",
    "dice_to_dict",
    "digest",
    "env_name",
    "gym_rng_from_dict",
    "gym_rng_to_dict",
    "ids_from",
    "info_from",
    "jsonable",
    "make_snapshot",
    "mask_from",
    "open_snapshot",
    "parse",
    "parse_aec",
    "rng_from_dict",
    "rng_to_dict",
    "seen_to_dict",
    "set_gym_rng",
]
