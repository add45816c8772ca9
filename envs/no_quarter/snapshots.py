"""No Quarter parts of env snapshots (``save_state`` / ``load_state``; :mod:`..snapshot`).

What the skirmish, mission and head-to-head envs share: their configuration, the battle
(``Battle.to_dict``), the set-up battle and decision log of the replay, the dice, the seed and
the enemies-in-sight sets; plus the opponent seat (its generator and NP memory,
``enemy.NpContext``) and the sighting order of enemy slots. Parsing never touches the env: it
returns a :class:`CoreParts` that :func:`apply_core` puts in place once everything is checked.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from wargym.envs.snapshot import (
    all_or_nothing,
    check_int,
    check_keys,
    dice_from_dict,
    dice_to_dict,
    gym_rng_from_dict,
    gym_rng_to_dict,
    ids_from,
    make_snapshot,
    open_snapshot,
    parse,
    rng_from_dict,
    rng_to_dict,
    seen_to_dict,
    set_gym_rng,
)
from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.events import Event, EventRegistry
from wargym.rules.no_quarter.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.state import Battle
from wargym.rules.no_quarter.validity import check_battle
from wargym.rules.no_quarter.vocab import Side
from wargym.rules.serial import to_jsonable

if TYPE_CHECKING:
    import numpy as np

    from .mission_encoding import SightingOrder
    from .opponents import OpponentSeat
    from .solo import SkirmishCore

CORE_KEYS = ("battle", "start", "log", "dice", "seed", "seen", "advisor")
"""Keys of the ``state`` part every No Quarter battle env writes."""


def callable_name(value: Any) -> str | None:
    """A stable name of a hook (``None`` stays ``None``) for the config fingerprint."""
    if value is None:
        return None
    name = getattr(value, "__qualname__", None) or type(value).__qualname__
    return f"{getattr(value, '__module__', '?')}.{name}"


def core_config(env: SkirmishCore) -> dict[str, Any]:
    """What fixes a battle env's dynamics, spaces and rewards (the snapshot ``config``)."""
    return {
        "factions": [f.value for f in env.factions],
        "mechs_per_side": env.mechs_per_side,
        "stars": env.stars,
        "battle_options": to_jsonable(env.battle_options),
        "reward_shaping": dict(env.shaping),
        "max_mechs": env.max_mechs,
        "actions": env.codec.n,
        "observation": [env.encoder.version, repr(env.obs_space)],
        "cell": env.encoder.cell,
        "mirror": env.encoder.mirror,
        "illegal_action": [env.illegal_action, env.illegal_penalty],  # type: ignore[attr-defined]
        "battle_factory": callable_name(env.battle_factory),
    }


def log_to_json(log: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The decision log with its ``Event`` objects as dicts."""
    return [
        {**step, "events": [e.to_dict() for e in step["events"]]}
        if "events" in step
        else dict(step)
        for step in log
    ]


def log_from_json(
    where: str, data: Any, registries: tuple[EventRegistry, ...] = (NO_QUARTER_EVENTS,)
) -> list[dict[str, Any]]:
    """Rebuild a decision log (its events through ``registries``); StateError naming it."""
    if not isinstance(data, list):
        raise StateError(f"{where}: expected a list")
    out = []
    for i, step in enumerate(data):
        here = f"{where}[{i}]"
        optional = {"events"} & (set(step) if isinstance(step, dict) else set())
        check_keys(here, step, {"agent", "index", "action"} | optional)
        if "events" not in step:  # an illegal action of the campaign env logs no events
            out.append(dict(step))
            continue
        if not isinstance(step["events"], list):
            raise StateError(f"{here}.events: expected a list")
        events: list[Event] = []
        for k, item in enumerate(step["events"]):
            name = item.get("type") if isinstance(item, dict) else None
            found = (r for r in registries if isinstance(name, str) and name in r)
            registry = next(found, registries[-1])
            events.append(parse(f"{here}.events[{k}]", functools.partial(registry.from_dict, item)))
        out.append({**step, "events": events})
    return out


def core_state(env: SkirmishCore) -> dict[str, Any]:
    """The battle, replay start and log, dice, seed and seen-sets of ``env`` (reset first)."""
    battle = env.battle
    start = env._start
    assert start is not None
    return {
        "battle": battle.to_dict(),
        "start": start.to_dict(),
        "log": log_to_json(env._log),
        "dice": dice_to_dict(env._dice),
        "seed": env._seed,
        "seen": seen_to_dict(env._seen),
        "advisor": None if env.advisor is None else env.advisor.to_dict(),
    }


@dataclasses.dataclass
class CoreParts:
    """A parsed core state, not yet put into an env."""

    battle: Battle
    start: Battle
    log: list[dict[str, Any]]
    dice: RandomDice
    seed: int | None
    seen: dict[Side, frozenset[int]]
    advisor: Any = None
    """A fresh advisor holding the saved memory (``None``: the env has none)."""


def seen_from(where: str, data: Any, battle: Battle | None) -> dict[Side, frozenset[int]]:
    """Seen-sets per side; every id must be a mech of ``battle`` (when there is one)."""
    if not isinstance(data, dict):
        raise StateError(f"{where}: expected an object")
    out = {}
    for key, ids in data.items():
        side = parse(f"{where}.{key}", functools.partial(Side, key))
        known = None if battle is None else battle.mechs
        out[side] = frozenset(ids_from(f"{where}.{key}", ids, known))
    return out


def parse_core(state: Mapping[str, Any], advisor: Any = None) -> CoreParts:
    """Check and rebuild the :data:`CORE_KEYS` of a snapshot's state.

    ``advisor`` is the env's advisor (or ``None``): a saved memory is loaded into a fresh one
    of its type, and one env must not take the other's kind of snapshot.
    """
    memory, fresh = state["advisor"], None
    if (memory is None) != (advisor is None):
        have = "no advisor" if advisor is None else "an advisor"
        raise StateError(f"state.advisor: this env has {have}; the snapshot does not match")
    if advisor is not None:
        fresh = type(advisor)()
        fresh.load_dict("state.advisor", memory)
    battle = parse("state.battle", lambda: Battle.from_dict(state["battle"]))
    parse("state.battle", lambda: check_battle(battle, started=True))  # a decision is pending
    start = parse("state.start", lambda: Battle.from_dict(state["start"]))
    seed = state["seed"]
    if seed is not None:
        check_int("state.seed", seed)
    return CoreParts(
        battle=battle,
        start=start,
        log=log_from_json("state.log", state["log"]),
        dice=dice_from_dict("state.dice", state["dice"]),
        seed=seed,
        seen=seen_from("state.seen", state["seen"], battle),
        advisor=fresh,
    )


def apply_core(env: SkirmishCore, parts: CoreParts) -> None:
    """Put a parsed core state into ``env``."""
    env._battle, env._start, env._log = parts.battle, parts.start, parts.log
    env._dice, env._seed, env._seen = parts.dice, parts.seed, dict(parts.seen)
    if parts.advisor is not None:
        env.advisor = parts.advisor
        env.encoder.advisor = parts.advisor


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
        from wargym.rules.no_quarter.enemy import NpContext

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
    from .mission import NoQuarterMissionEnv

    return isinstance(env, NoQuarterMissionEnv)


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
    from .opponents import make_opponent

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
