"""No Quarter parts of env snapshots (``save_state`` / ``load_state``; :mod:`..snapshot`).

What the skirmish, mission and head-to-head envs share: their configuration, the battle
(``Battle.to_dict``), the set-up battle and decision log of the replay, the dice, the seed and
the enemies-in-sight sets; plus the opponent seat (its generator and NP memory,
``enemy.NpContext``) and the sighting order of enemy slots. Parsing never touches the env: it
returns a :class:`CoreParts` that :func:`apply_core` puts in place once everything is checked.
The parts every battle env shares (:func:`core_config`, :func:`core_state`, :func:`parse_core`,
:func:`apply_core`, ...) live in :mod:`.core` and are re-exported here; this module imports no
env module: the envs pass themselves in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wargym.envs.snapshot import (
    all_or_nothing,
    check_int,
    check_keys,
    gym_rng_from_dict,
    gym_rng_to_dict,
    ids_from,
    make_snapshot,
    open_snapshot,
    parse,
    rng_from_dict,
    rng_to_dict,
    set_gym_rng,
)
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player.enemy import NpContext

from .core import (
    CORE_KEYS,
    CoreParts,
    apply_core,
    callable_name,
    core_config,
    core_state,
    log_from_json,
    log_to_json,
    parse_core,
    seen_from,
)
from .opponents import make_opponent

if TYPE_CHECKING:
    import numpy as np

    from .mission_encoding import SightingOrder
    from .opponents import OpponentSeat


def opponent_spec_name(spec: Any) -> str:
    """``rules``/``scripted``/``random``, or ``agent:<Type>`` for an agent object."""
    return spec if isinstance(spec, str) else f"agent:{type(spec).__qualname__}"


def opponent_to_dict(seat: OpponentSeat) -> dict[str, Any]:
    """The seat's kind, generator and NP memory (an agent's own state is not included)."""
    context = seat.context
    return {
        "spec": opponent_spec_name(seat.spec),
        "rng": rng_to_dict(seat.rng),
        "context": None if context is None else context.to_dict(),
    }


def parse_opponent(where: str, data: Any, current: Any) -> tuple[Any, np.random.Generator, Any]:
    """(spec, generator, NP memory) of a saved seat; an agent seat needs ``current`` of its type."""
    check_keys(where, data, {"spec", "rng", "context"})
    name = data["spec"]
    if name in ("rules", "scripted", "random"):
        spec: Any = name
    elif isinstance(name, str) and name == opponent_spec_name(current):
        spec = current  # the same kind of agent object: its own state is the caller's
    else:
        raise StateError(
            f"{where}.spec: saved opponent {name!r}; this env's opponent is "
            f"{opponent_spec_name(current)!r}"
        )
    rng = rng_from_dict(f"{where}.rng", data["rng"])
    context = None
    if data["context"] is not None:
        context = parse(f"{where}.context", lambda: NpContext.from_dict(data["context"]))
    elif spec == "rules":
        raise StateError(f"{where}.context: the rules opponent needs its NP memory")
    return spec, rng, context


def order_to_dict(order: SightingOrder) -> dict[str, list[int]]:
    """Each viewer's enemies in the order first seen."""
    return {side.value: list(ids) for side, ids in order.order.items()}


def order_from(where: str, data: Any) -> Callable[[SightingOrder], None]:
    """Check a saved sighting order; returns what restores it into a ``SightingOrder``."""
    if not isinstance(data, dict):
        raise StateError(f"{where}: expected an object")
    order: dict[Side, list[int]] = {}
    for key, ids in data.items():
        side = parse(f"{where}.{key}", functools.partial(Side, key))
        order[side] = ids_from(f"{where}.{key}", ids)
        if len(set(order[side])) != len(order[side]):
            raise StateError(f"{where}.{key}: ids repeat")

    def restore(target: SightingOrder) -> None:
        target.reset()
        for side, ids in order.items():
            target.order[side] = list(ids)
            target._known[side] = set(ids)

    return restore


# -- the skirmish and mission envs ----------------------------------------------------------

SKIRMISH_KEYS = (*CORE_KEYS, "opponent", "np_random")
"""``state`` keys of a skirmish snapshot."""
MISSION_KEYS = (*SKIRMISH_KEYS, "sighting", "recon_done", "auto_played")
"""``state`` keys of a mission snapshot."""


def _is_mission(env: Any) -> bool:
    """Whether ``env`` writes the mission parts (``mission_snapshot`` of the env class)."""
    return bool(getattr(env, "mission_snapshot", False))


def battle_env_config(env: Any) -> dict[str, Any]:
    """The ``config`` of a skirmish or mission env snapshot."""
    config = {**core_config(env), "opponent": opponent_spec_name(env.opponent_spec)}
    if _is_mission(env):
        config["scenario"] = env.scenario.to_dict()
        config["dice_factory"] = callable_name(env.dice_factory)
    return config


def battle_env_save(env: Any) -> dict[str, Any]:
    """The snapshot of a skirmish or mission env (``NoQuarterSkirmishEnv.save_state``)."""
    state = {
        **core_state(env),
        "opponent": opponent_to_dict(env._opponent),
        "np_random": gym_rng_to_dict(env),
    }
    if _is_mission(env):
        state["sighting"] = order_to_dict(env._order)
        state["recon_done"] = env._recon_done
        state["auto_played"] = env.auto_played
    return make_snapshot(env, battle_env_config(env), state)


def battle_env_load(env: Any, data: Any) -> None:
    """Check ``data`` fully, then put it into ``env``; StateError (named) leaves it unchanged."""
    mission = _is_mission(env)
    state = open_snapshot(env, data, battle_env_config(env))
    check_keys("snapshot.state", state, MISSION_KEYS if mission else SKIRMISH_KEYS)
    parts = parse_core(state, env.advisor)
    spec, rng, context = parse_opponent("state.opponent", state["opponent"], env.opponent_spec)
    gym_rng = gym_rng_from_dict("state.np_random", state["np_random"])
    if mission:
        recon = check_int("state.recon_done", state["recon_done"], 0)
        auto = check_int("state.auto_played", state["auto_played"], 0)
        order = order_from("state.sighting", state["sighting"])
    with all_or_nothing(env, env.encoder, getattr(env, "_order", None)):
        apply_core(env, parts)
        env._opponent = make_opponent(spec, env, rng, context)
        set_gym_rng(env, gym_rng)
        if mission:
            order(env._order)
            env._recon_done, env.auto_played = recon, auto
        env._finish(env.battle.clone(), [], None)  # what load_state returns must work


__all__ = [
    "CORE_KEYS",
    "MISSION_KEYS",
    "SKIRMISH_KEYS",
    "battle_env_config",
    "battle_env_load",
    "battle_env_save",
    "CoreParts",
    "apply_core",
    "callable_name",
    "core_config",
    "core_state",
    "log_from_json",
    "log_to_json",
    "opponent_spec_name",
    "opponent_to_dict",
    "order_from",
    "order_to_dict",
    "parse_core",
    "parse_opponent",
    "seen_from",
]
