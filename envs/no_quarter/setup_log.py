"""The set-up part of a No Quarter env's event record (docs/events.md, "Set-up events").

A battle factory (the mission env's) may leave ``env._built = (start, setup, ahead)``: the
battle just after its set-up (``start``), the set-up's events (already in ``start``: PEF
placements and their section rolls, the secret objective of table 22.3.1, NP group
settings) and the events of the play from ``start`` to the factory's battle (``ahead``: the
turn-1 activation roll and what follows it). Without one the env's own set-up rolled no
die: ``start`` is a clone of the new battle and both lists are empty.

The replay log then opens with a step ``{"agent": "setup", ...}`` holding the set-up's
events (a replay viewer shows them with ``start`` and does not apply them again) and a step
``{"agent": "rules", ...}`` holding the play to the first decision (applied to ``start``).
The first ``info["events"]`` of ``reset`` holds the set-up's events the agent may know,
then those of the play.
"""

from __future__ import annotations

from typing import Any

from wargym.rules.dice import Dice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup_events import PilotCreated
from wargym.rules.no_quarter.forces.vocab import Side

from .encoding import mechs_named, np_private, visible_enemies

Built = tuple[Battle, list[Event], list[Event]]
"""``(start, setup, ahead)`` as a battle factory leaves it (module docstring)."""


def begin_log(env: Any, battle: Battle, dice: Dice) -> list[Event]:
    """Open ``env``'s replay log at the set-up and play ``battle`` to its first decision.

    Sets ``env._start``, ``env._log`` and ``env._setup_events``; returns the events of the
    play from ``env._start`` to the first decision.
    """
    built: Built | None = env._built
    env._built = None
    setup: list[Event]
    ahead: list[Event]
    if built is None:
        start, setup, ahead = battle.clone(), [], []
    else:
        start, setup, ahead = built
        start.options = battle.options  # the env's fog, as set on the factory's battle
        start.options_cache = start.geometry_cache = None
    ahead = ahead + game.advance(battle, dice)
    env._start, env._setup_events = start, setup
    env._log = [_step("setup", setup)] if setup else []
    if ahead:
        env._log.append(_step("rules", ahead))
    return ahead


def _step(agent: str, events: list[Event]) -> dict[str, Any]:
    return {"agent": agent, "index": None, "action": None, "events": list(events)}


def visible_setup_events(start: Battle, events: list[Event], viewer: Side) -> list[dict[str, Any]]:
    """The set-up's events (as dicts) ``viewer`` may know, judged on ``start``.

    Nothing moves during set-up, so an event is kept if every mech it names is ``viewer``'s
    own or in its sight at ``start``, and it is not the NP side's private bookkeeping; the
    enemy's pilot rolls (``PilotCreated``: Rep, attributes) stay hidden.
    """
    seen = visible_enemies(start, viewer)
    sides = {m.id: m.side for m in start.mechs.values()}
    return [
        e.to_dict()
        for e in events
        if all(sides.get(i) is viewer or i in seen for i in mechs_named(e))
        and not np_private(start, e, viewer, seen)
        and not (isinstance(e, PilotCreated) and _owner(sides, e.mech) is not viewer)
    ]


def _owner(sides: dict[int, Side], mech: int | None) -> Side | None:
    return None if mech is None else sides.get(mech)


def with_setup_events(
    env: Any, obs: dict[str, Any], info: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``reset``'s ``(obs, info)`` with the set-up's visible events first in ``info["events"]``."""
    if env._setup_events and env.info_events:
        setup = visible_setup_events(env._start, env._setup_events, Side.BLUE)
        info["events"] = setup + info["events"]
    return obs, info
