"""Gymnasium and PettingZoo environments over the rules engines (``wargym.envs``).

Importing this package registers every wargym Gymnasium id; ``import wargym`` imports it for
you as soon as gymnasium is imported (:mod:`wargym._autoregister`), so ``import wargym`` alone
never pulls in gymnasium::

    import gymnasium
    import wargym  # registers the ids below

    env = gymnasium.make("wargym/PentagonWar-Duel-v0", scenario="fleet")

Without the import, the module-prefixed form loads this package first:
``gymnasium.make("wargym.envs:wargym/StarshipCombat-Duel-v0")``. Entry points are strings, so an
env's module is imported only when ``make`` builds it. Registration is idempotent: ids already
in ``gymnasium.registry`` are left as they are (re-imports and :func:`register_envs` calls are
harmless).

Naming and versioning (as Pgx does):

* Gymnasium ids are ``wargym/<System>-<Scenario>-vN``: ``<System>`` is the game in CamelCase,
  ``<Scenario>`` the kind of play the id offers (``Duel``: one side against a scripted
  opponent; ``Skirmish``, ``Patrol``, ``Attack``, ``Defend``: No Quarter against the rules'
  non-player side). Other set-ups of the same env (fleets, squadrons, ...) are keyword arguments of
  ``make`` (``scenario="fleet"``), not new ids.
* PettingZoo names are ``<system>_vN`` (snake case) and modules of this package, as in
  PettingZoo itself: ``from wargym.envs import no_quarter_v1`` (also ``pentagon_war_v0``,
  ``starship_combat_v0``), then ``no_quarter_v1.env(**kwargs)`` (AEC) or
  ``no_quarter_v1.parallel_env(**kwargs)`` (Parallel). :data:`PETTINGZOO_ENVS` maps each
  name to the module path that defines them (strings, so nothing is imported early);
  :func:`pettingzoo_module` imports one.
* ``gymnasium.make(id).action_masks()`` is the legal mask (:mod:`wargym.envs.masking`: the
  registration puts a forwarding wrapper outermost, since gymnasium 1.x wrappers forward no
  attributes); sb3-contrib's ``get_action_masks`` and ``MaskablePPO`` read the same.
* ``gymnasium.make_vec(id, num_envs=N)`` of the No Quarter skirmish and mission ids
  (:data:`GYM_VECTOR_ENVS`) is a batched vector env that steps all N battles in one call
  (``wargym.envs.no_quarter.batch``); ``vectorization_mode="sync"`` or ``"async"`` still gives
  gymnasium's own vector envs over single envs.
* Any change of observations, actions, rewards or dynamics bumps ``vN`` and adds a line to the
  env module's ``## Version History``; the old version stays registered while it is supported.
  Refactors, speed-ups and new keyword options that keep the defaults do not bump it.

``max_episode_steps`` is a safety net far above the rules' own end (20 turns in *The Pentagon
War*, 30 rounds in *Starship Combat*; the longest masked-random episodes seen were about 1,100
and 400 steps; a whole ten-mission campaign, ``NoQuarter-CestusV-v1``, gets 100,000): it ends
episodes an agent stalls with illegal no-op actions. Pass
``max_episode_steps=`` to ``make`` when raising ``max_turns``/``max_rounds``.
"""

from __future__ import annotations

if __name__ != "wargym.envs":  # this folder is installed as wargym.envs (README: Layout)
    raise ImportError(f"import wargym.envs, not {__name__!r}")

import importlib
from types import ModuleType

import gymnasium

from wargym.envs.masking import WRAPPER_SPEC, SingleEnvWrappers

__all__ = [
    "DEFAULT_MAX_EPISODE_STEPS",
    "GYM_ENVS",
    "GYM_VECTOR_ENVS",
    "MAX_EPISODE_STEPS",
    "PETTINGZOO_ENVS",
    "SYSTEMS",
    "pettingzoo_module",
    "register_envs",
]

SYSTEMS = ("no_quarter", "pentagon_war", "starship_combat")
"""Subpackages whose ``GYM_IDS`` (id -> entry point) are registered. Their ``__init__`` files
stay import-free, so that collecting the ids imports no env module."""

GYM_ENVS: dict[str, str] = {}
"""Every wargym Gymnasium id and its string entry point (``module:Class``)."""
for _system in SYSTEMS:
    GYM_ENVS.update(getattr(importlib.import_module(f"{__name__}.{_system}"), "GYM_IDS", {}))

GYM_VECTOR_ENVS: dict[str, str] = {}
"""Ids with a batched ``vector_entry_point`` (``gymnasium.make_vec(id, num_envs=N)``)."""
for _system in SYSTEMS:
    GYM_VECTOR_ENVS.update(
        getattr(importlib.import_module(f"{__name__}.{_system}"), "GYM_VECTOR_IDS", {})
    )

MAX_EPISODE_STEPS: dict[str, int] = {
    "wargym/PentagonWar-Duel-v0": 5_000,
    "wargym/StarshipCombat-Duel-v0": 2_000,
    "wargym/NoQuarter-CestusV-v1": 100_000,
}
"""``max_episode_steps`` (Gymnasium's ``TimeLimit``) of each id; others get the default."""

DEFAULT_MAX_EPISODE_STEPS = 10_000
"""``max_episode_steps`` of an id missing from :data:`MAX_EPISODE_STEPS`."""

PETTINGZOO_ENVS: dict[str, str] = {
    "pentagon_war_v0": "wargym.envs.pentagon_war.aec",
    "starship_combat_v0": "wargym.envs.starship_combat.aec",
}
"""PettingZoo name -> module exposing ``env(**kwargs)`` (AEC) and ``parallel_env(**kwargs)``;
also collects each system's ``PETTINGZOO_MODULES`` (``no_quarter_v1``)."""
for _system in SYSTEMS:
    PETTINGZOO_ENVS.update(
        getattr(importlib.import_module(f"{__name__}.{_system}"), "PETTINGZOO_MODULES", {})
    )


def register_envs() -> list[str]:
    """Register every id of :data:`GYM_ENVS` that ``gymnasium.registry`` lacks.

    Returns:
        The ids registered by this call (empty when all were there already).
    """
    added = []
    for env_id, entry_point in GYM_ENVS.items():
        if env_id in gymnasium.registry:
            continue
        vector = GYM_VECTOR_ENVS.get(env_id)
        gymnasium.register(
            id=env_id,
            entry_point=entry_point,
            vector_entry_point=vector,
            max_episode_steps=MAX_EPISODE_STEPS.get(env_id, DEFAULT_MAX_EPISODE_STEPS),
            # action_masks() on make()'s output; make_vec's batched envs give their own
            additional_wrappers=(WRAPPER_SPEC,)
            if vector is None
            else SingleEnvWrappers((WRAPPER_SPEC,)),
        )
        added.append(env_id)
    return added


def pettingzoo_module(name: str) -> ModuleType:
    """The module of PettingZoo env ``name`` (a key of :data:`PETTINGZOO_ENVS`).

    Raises:
        KeyError: ``name`` is not a wargym PettingZoo env.
    """
    if name not in PETTINGZOO_ENVS:
        raise KeyError(f"unknown PettingZoo env {name!r}; one of {sorted(PETTINGZOO_ENVS)}")
    return importlib.import_module(PETTINGZOO_ENVS[name])


register_envs()
