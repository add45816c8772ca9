"""Snapshots of the space-combat envs (*The Pentagon War*, *Starship Combat*).

The ``save_state`` / ``load_state`` methods of :mod:`wargym.envs.pentagon_war` and
:mod:`wargym.envs.starship_combat` call these functions (format: :mod:`wargym.envs.snapshot`).
Each snapshot holds the engine state (``BattleState.to_dict``), the dice generator, the
Gymnasium envs' own ``np_random`` (and the Pentagon War random opponent's generator), and the
PettingZoo bookkeeping (AEC: agents, rewards, flags, infos, selection; Parallel: agents). The
scripted captains of both games hold no state and no generator. Cached decisions and masks
are dropped on loading and recomputed from the battle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wargym.envs.base import step_info
from wargym.envs.snapshot import (
    AEC_KEYS,
    aec_to_dict,
    agents_from,
    all_or_nothing,
    check_keys,
    dice_from_dict,
    dice_to_dict,
    gym_rng_from_dict,
    gym_rng_to_dict,
    make_snapshot,
    open_snapshot,
    parse,
    parse_aec,
    rng_from_dict,
    rng_to_dict,
    set_gym_rng,
)
from wargym.rules.serial import to_jsonable

GYM = "gym"
AEC = "aec"
PARALLEL = "parallel"


def _config(env: Any, **extra: Any) -> dict[str, Any]:
    options = getattr(env, "rules_options", None) or getattr(env, "rule_options", None)
    space = env.observation_space
    if callable(space):  # PettingZoo: a method per agent
        space = space(env.possible_agents[0])
    return {
        "scenario": env.scenario,
        "options": to_jsonable(options),
        "actions": env.codec.n,
        "observation": repr(space),
        "illegal_action": [env.illegal_action, env.illegal_penalty],
        **extra,
    }


def _pw_config(env: Any, kind: str) -> dict[str, Any]:
    extra: dict[str, Any] = {"reward_shaping": env.reward_shaping, "max_ships": env.max_ships}
    if kind == GYM:
        extra["opponent"] = env.opponent
    return _config(env, **extra)


def _pz_extra(env: Any, kind: str) -> dict[str, Any]:
    if kind == AEC:
        return aec_to_dict(env)
    return {"agents": list(env.agents)}


def _pz_keys(kind: str) -> tuple[str, ...]:
    return AEC_KEYS if kind == AEC else ("agents",)


def _parse_pz(env: Any, kind: str, state: Mapping[str, Any]) -> Callable[[Any], None]:
    if kind == AEC:
        return parse_aec(state, list(env.possible_agents), env.codec.n)
    agents = agents_from("state.agents", state["agents"], list(env.possible_agents))

    def apply(target: Any) -> None:
        target.agents = agents

    return apply


def _battle(cls: Any, data: Any) -> Any:
    return parse("state.battle", lambda: cls.from_dict(data))


# -- The Pentagon War ----------------------------------------------------------------------


def pw_save(env: Any, kind: str) -> dict[str, Any]:
    """The snapshot of a Pentagon War env (``kind``: ``gym``, ``aec`` or ``parallel``).

    Raises:
        RuntimeError: before the first ``reset``.
    """
    if kind == GYM:
        state = {
            "battle": env.state.to_dict(),
            "dice": dice_to_dict(env._dice),
            "opponent_rng": rng_to_dict(env._opp_rng),
            "np_random": gym_rng_to_dict(env),
        }
    else:
        state = {"battle": env.battle.to_dict(), "dice": dice_to_dict(env._dice)}
        state.update(_pz_extra(env, kind))
    return make_snapshot(env, _pw_config(env, kind), state)


def pw_load(env: Any, kind: str, data: Any) -> Any:
    """Restore a Pentagon War snapshot into ``env``; returns what ``reset`` would.

    Raises:
        StateError: the snapshot does not fit ``env`` or is malformed (named); ``env`` is
            unchanged.
    """
    from wargym.rules.pentagon_war.state import BattleState

    state = open_snapshot(env, data, _pw_config(env, kind))
    if kind == GYM:
        check_keys("snapshot.state", state, ("battle", "dice", "opponent_rng", "np_random"))
    else:
        check_keys("snapshot.state", state, ("battle", "dice", *_pz_keys(kind)))
    battle = _battle(BattleState, state["battle"])
    dice = dice_from_dict("state.dice", state["dice"])
    if kind == GYM:
        opp_rng = rng_from_dict("state.opponent_rng", state["opponent_rng"])
        gym_rng = gym_rng_from_dict("state.np_random", state["np_random"])
        with all_or_nothing(env):
            env._state, env._dice, env._opp_rng = battle, dice, opp_rng
            set_gym_rng(env, gym_rng)
            env._refresh()
            return env._obs(), env._info([])
    apply = _parse_pz(env, kind, state)
    with all_or_nothing(env):
        env._battle, env._dice = battle, dice
        env._forget()
        apply(env)
        agents = list(env.possible_agents)
        result = (
            {a: env._observe(i) for i, a in enumerate(agents)},
            {a: env._info(i, []) for i, a in enumerate(agents)},
        )
        return None if kind == AEC else result


# -- Starship Combat ------------------------------------------------------------------------


def sc_save(env: Any, kind: str) -> dict[str, Any]:
    """The snapshot of a Starship Combat env (a battle exists from construction on).

    Raises:
        RuntimeError: an AEC env before the first ``reset`` (no bookkeeping yet).
    """
    state: dict[str, Any] = {"battle": env._state.to_dict(), "dice": dice_to_dict(env._dice)}
    if kind == GYM:
        state["np_random"] = gym_rng_to_dict(env)
    else:
        state.update(_pz_extra(env, kind))
    return make_snapshot(env, _config(env), state)


def sc_load(env: Any, kind: str, data: Any) -> Any:
    """Restore a Starship Combat snapshot into ``env``; returns what ``reset`` would.

    Raises:
        StateError: the snapshot does not fit ``env`` or is malformed (named); ``env`` is
            unchanged.
    """
    from wargym.rules.starship_combat.state import BattleState

    state = open_snapshot(env, data, _config(env))
    extra = ("np_random",) if kind == GYM else _pz_keys(kind)
    check_keys("snapshot.state", state, ("battle", "dice", *extra))
    battle = _battle(BattleState, state["battle"])
    dice = dice_from_dict("state.dice", state["dice"])
    if kind == GYM:
        gym_rng = gym_rng_from_dict("state.np_random", state["np_random"])
        with all_or_nothing(env):
            env._state, env._dice = battle, dice
            set_gym_rng(env, gym_rng)
            obs = env._obs()
            return obs, step_info(obs["action_mask"].copy(), [], False)
    apply = _parse_pz(env, kind, state)
    with all_or_nothing(env):
        env._state, env._dice = battle, dice
        apply(env)
        if kind == AEC:
            for agent in env.possible_agents:
                env.observe(agent)  # what the agents see next must work
            return None
        return env._obs(), env._infos([], set())


__all__ = ["AEC", "GYM", "PARALLEL", "pw_load", "pw_save", "sc_load", "sc_save"]
