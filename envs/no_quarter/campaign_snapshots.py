"""Snapshots of :class:`~.campaign_env.NoQuarterCampaignEnv` (``save_state`` / ``load_state``).

The format is :mod:`wargym.envs.snapshot`'s; the state holds the campaign game
(``CampaignGame.to_dict``: campaign, stage, selection, a mission in progress, the set-up
generator), the dice, NP-side and ``np_random`` generators, the NP memory (``NpContext``), the
enemies-in-sight sets, the sighting order, the roster slots, the decision log (battle and
campaign events) and ``auto_played``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wargym.envs.snapshot import (
    all_or_nothing,
    check_int,
    check_keys,
    dice_from_dict,
    dice_to_dict,
    gym_rng_from_dict,
    gym_rng_to_dict,
    make_snapshot,
    open_snapshot,
    parse,
    rng_from_dict,
    rng_to_dict,
    seen_to_dict,
    set_gym_rng,
)
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.campaigns.campaign_events import CAMPAIGN_EVENTS
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame
from wargym.rules.no_quarter.non_player.enemy import NpContext
from wargym.rules.serial import to_jsonable

from .snapshots import (
    callable_name,
    log_from_json,
    log_to_json,
    opponent_spec_name,
    order_from,
    order_to_dict,
    seen_from,
)

if TYPE_CHECKING:
    from .campaign_env import NoQuarterCampaignEnv

STATE_KEYS = (
    "game", "dice", "opponent_rng", "np_context", "seen", "sighting", "slots", "log",
    "auto_played", "np_random",
)  # fmt: skip
"""The keys of a campaign snapshot's ``state``."""


def campaign_config(env: NoQuarterCampaignEnv) -> dict[str, Any]:
    """What fixes the campaign env's dynamics, spaces and rewards."""
    return {
        "definition": to_jsonable(env.definition),
        "faction": None if env.faction is None else env.faction.value,
        "carry": env.carry,
        "reward_shaping": dict(env.shaping),
        "illegal_action": [env.illegal_action, env.illegal_penalty],
        "actions": [env.codec.n, env.n],
        "observation": [env.encoder.version, env.size, env.encoder.cell],
        "dice_factory": callable_name(env.dice_factory),
        "opponent": opponent_spec_name(env.opponent_spec),
    }


def campaign_save(env: NoQuarterCampaignEnv) -> dict[str, Any]:
    """The snapshot of ``env`` (reset first)."""
    state = {
        "game": env.game.to_dict(),
        "dice": dice_to_dict(env._dice),
        "opponent_rng": rng_to_dict(env._opp_rng),
        "np_context": env._np_context.to_dict(),
        "seen": seen_to_dict(env._seen),
        "sighting": order_to_dict(env._order),
        "slots": [[mech, slot] for mech, slot in env.slots.slot_of.items()],
        "log": log_to_json(env._log),
        "auto_played": env.auto_played,
        "np_random": gym_rng_to_dict(env),
    }
    return make_snapshot(env, campaign_config(env), state)


def campaign_load(env: NoQuarterCampaignEnv, data: Any) -> None:
    """Check ``data`` fully, then put it into ``env``; StateError (named) leaves it unchanged."""
    state = open_snapshot(env, data, campaign_config(env))
    check_keys("snapshot.state", state, STATE_KEYS)
    game = parse("state.game", lambda: CampaignGame.from_dict(state["game"]))
    dice = dice_from_dict("state.dice", state["dice"])
    opp_rng = rng_from_dict("state.opponent_rng", state["opponent_rng"])
    context = parse("state.np_context", lambda: NpContext.from_dict(state["np_context"]))
    # between missions: the last battle's sets (ids unchecked), replaced at the next launch
    seen = seen_from("state.seen", state["seen"], game.battle)
    order = order_from("state.sighting", state["sighting"])
    slots = slots_from(state["slots"], env.slots.size)
    log = log_from_json("state.log", state["log"], (CAMPAIGN_EVENTS, NO_QUARTER_EVENTS))
    auto = check_int("state.auto_played", state["auto_played"], 0)
    gym_rng = gym_rng_from_dict("state.np_random", state["np_random"])
    with all_or_nothing(env, env.encoder, env._order, env.slots):
        env._game, env._dice, env._opp_rng, env._np_context = game, dice, opp_rng, context
        env._seen, env._log, env.auto_played = seen, log, auto
        order(env._order)
        env.slots.reset()
        for mech, slot in slots:
            env.slots.slot_of[mech], env.slots._mech_at[slot] = slot, mech
        set_gym_rng(env, gym_rng)
        env._finish([], None)  # what load_state returns must work


def slots_from(data: Any, size: int) -> list[tuple[int, int]]:
    """Roster slots as (mech, slot) pairs: distinct mechs, distinct slots below ``size``."""
    where = "state.slots"
    if not isinstance(data, list) or any(not isinstance(p, list) or len(p) != 2 for p in data):
        raise StateError(f"{where}: expected a list of [mech, slot] pairs")
    pairs = [
        (check_int(f"{where}[{i}][0]", m), check_int(f"{where}[{i}][1]", s, 0))
        for i, (m, s) in enumerate(data)
    ]
    if len({m for m, _ in pairs}) != len(pairs) or len({s for _, s in pairs}) != len(pairs):
        raise StateError(f"{where}: a mech or a slot appears twice")
    if any(s >= size for _, s in pairs):
        raise StateError(f"{where}: a slot is not below max_company ({size})")
    return pairs


__all__ = ["STATE_KEYS", "campaign_config", "campaign_load", "campaign_save", "slots_from"]
