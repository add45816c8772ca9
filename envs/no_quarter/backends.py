"""The native backend of the No Quarter battle envs (``backend="native"``, docs/native.md).

:class:`~.core.SkirmishCore` calls these on ``backend="native"``: :func:`configure_backend`
wires the native codec and encoder to the env's reference ones, :func:`filter_native` is its
visibility filter on a native battle (:func:`.encoding.filter_events` on a reference battle
when event dicts are wanted; otherwise :func:`.encoding.seen_after` replayed on the native
clone, in the core). The native modules are imported only when the native backend is
chosen: a python-backend env never loads the core.

This module imports no env module but :mod:`.encoding` (as :mod:`.core`, which imports it).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from wargym.envs.base import EnvArgumentError
from wargym.rules.dice import Dice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import BACKENDS
from wargym.rules.no_quarter.forces.vocab import Side

from .encoding import ObservationEncoder, filter_events, no_markers

AUTO = "auto"
"""The envs' default ``backend``: ``"native"`` for what the core plays (a generated skirmish:
no ``battle_factory``, ``slots`` or ``markers`` hook), ``"python"`` for the rest (the missions).
The two give the same episode for the same seed (docs/native.md, "One API, two backends")."""


def configure_backend(env: Any, backend: str, slots: Any, markers: Any) -> None:
    """Set ``env.backend`` (``"auto"`` resolved) and, on ``"native"``, the native codec and encoder.

    Raises:
        EnvArgumentError: ``backend`` is not one of :data:`~.forces.setup.BACKENDS`, or the
            native backend meets a hook it does not play (a battle factory, a slots or
            markers hook: the missions).
    """
    if isinstance(backend, str) and backend == AUTO:
        native = env.battle_factory is None and slots is None and markers is no_markers
        backend = "native" if native else "python"
    if not isinstance(backend, str) or backend not in BACKENDS:
        got = short_repr(backend)
        raise EnvArgumentError(f"backend must be one of {[AUTO, *BACKENDS]}, got {got}")
    env.backend = backend
    env._native = backend == "native"
    env._ncodec = env._nencoder = env._nsight = None
    if not env._native:
        return
    hooks: dict[str, Any] = {"battle_factory": env.battle_factory, "slots": slots}
    hooks["markers"] = None if markers is no_markers else markers
    for name, hook in hooks.items():
        if hook is not None:
            raise EnvArgumentError(
                f"backend='native' plays generated skirmishes only: {name} is not native yet"
            )
    from wargym.native.errors import NativeArgumentError
    from wargym.native.no_quarter.codec import NativeCodec
    from wargym.native.no_quarter.encoding import NativeObservationEncoder

    env._ncodec = NativeCodec(env.codec)
    try:
        env._nencoder = NativeObservationEncoder(env.encoder)
    except NativeArgumentError:  # an advisor's rows: the reference encoder writes them
        env._nencoder = None
    env._nsight = env._nencoder or NativeObservationEncoder(
        ObservationEncoder(env.max_mechs, max_turns=env.battle_options.max_turns)
    )


def new_battle_native(env: Any, setup_rng: np.random.Generator, dice: Dice) -> Any:
    """``SkirmishCore._new_battle``'s set-up in the core (``NativeSkirmish``, not advanced).

    The reference's env set-up is :func:`~.forces.setup.new_skirmish_logged`'s up to
    ``advance`` (the battlefield, then each side's picks, from ``setup_rng``), which the core
    mirrors; the set-up's events go to ``env._built`` as a reference set-up leaves them.
    """
    from wargym.native.no_quarter.battle import new_skirmish_native

    battle, setup_events, _ = new_skirmish_native(
        setup_rng, dice, blue=env.factions[0], red=env.factions[1],
        mechs_per_side=env.mechs_per_side, stars=env.stars, options=env.battle_options,
        advance=False,
    )  # fmt: skip
    env._built = (battle.clone(), setup_events, [])
    return battle


def opponent_native(env: Any, battle: Any) -> tuple[Any, int | None]:
    """Red's answer on the native backend (``env._opponent``'s seat).

    The rules' NP is the core's (``wargym.native.no_quarter.enemy.np_decide``, the seat's NP
    memory and generator, as :func:`.opponents.rules_opponent` hands them to the reference;
    :func:`.opponents.scripted_opponent` where it raises ``NotImplementedError``); random
    play needs only the options; a seat that reads the battle (scripted, an agent) gets the
    reference view.
    """
    from .opponents import scripted_opponent

    seat = env._opponent
    if seat.spec == "random":
        return seat(battle)  # type: ignore[no-any-return]
    if seat.spec != "rules" or seat.context is None:
        return seat(battle.to_reference())  # type: ignore[no-any-return]
    from wargym.native.no_quarter.enemy import np_decide

    try:  # options=None: the core lists the legal actions itself (game.legal_actions)
        action, _ = np_decide(battle.native, battle.tables, None, seat.context, seat.rng)
    except NotImplementedError:
        return scripted_opponent(battle.to_reference(), battle.game_legal_actions()), None
    return action, None


def apply_native(env: Any) -> None:
    """``apply_core``'s last step on the native backend: the native twins of its battles."""
    from wargym.native.no_quarter.battle import NativeSkirmish

    env._battle = NativeSkirmish.from_reference(env._battle)
    env._start = NativeSkirmish.from_reference(env._start)


def filter_native(
    env: Any,
    before: Any,
    events: list[Any],
    viewers: Sequence[Side],
    seen: dict[Side, frozenset[int]] | None,
) -> dict[Side, list[dict[str, Any]]]:
    """``SkirmishCore._filter`` on a native battle (``before``: a ``NativeSkirmish`` clone).

    Event dicts are judged on a reference battle (:func:`.encoding.filter_events`); without
    them the sets are :func:`.encoding.seen_after`'s, replayed on the native clone.
    """
    from wargym.native.no_quarter.battle import reference_events

    if env._want_events:
        ref_before = Battle.from_dict(before.document(), check=False)
        ref_events = [e if isinstance(e, Event) else reference_events([e])[0] for e in events]
        visible, env._seen = filter_events(ref_before, ref_events, viewers, seen)
    else:
        visible = {v: [] for v in viewers}
        env._seen = seen_native(env, before, events, viewers, seen)
    env._visible = visible
    return visible


def seen_native(
    env: Any,
    before: Any,
    events: list[Any],
    viewers: Sequence[Side],
    seen_before: dict[Side, frozenset[int]] | None,
) -> dict[Side, frozenset[int]]:
    """:func:`.encoding.seen_after` on the native clone ``before`` (it is changed).

    The events up to the last sight event are applied in the core and the enemies in sight
    found there (``bumping.enemies_in_sight``'s mirror); none is a sight event: the sets of
    ``seen_before``. A removal is a sight event, so the mechs still in play are the battle's
    now.
    """
    from wargym.native.no_quarter.events import native_event

    names = sight_event_names()
    kinds = [type(e).__name__ if isinstance(e, Event) else e.type for e in events]
    last = max((k for k, name in enumerate(kinds) if name in names), default=-1)
    sight = env._nsight.visible_enemies
    if last < 0:
        seen = {
            v: seen_before[v] if seen_before and v in seen_before else sight(before.native, v)
            for v in viewers
        }
    else:
        for event in events[: last + 1]:
            before.apply_native(native_event(event) if isinstance(event, Event) else event)
        seen = {v: sight(before.native, v) for v in viewers}
    in_play = {i for i, (_, here) in env.battle.mech_sides().items() if here}
    return {v: frozenset(i for i in seen[v] if i in in_play) for v in viewers}


@functools.cache
def sight_event_names() -> frozenset[str]:
    """The class names of :func:`.encoding.seen_after`'s sight events."""
    from .encoding import _SIGHT_EVENTS

    return frozenset(cls.__name__ for cls in _SIGHT_EVENTS)
