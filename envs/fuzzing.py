"""Property fuzzing of every wargym environment: configurations, action streams, invariants.

Used by ``benchmarks/fuzz_envs.py`` (the long run) and ``tests/test_fuzz_envs_short.py`` (CI).
The per-API runners and the checks live in :mod:`wargym.envs.fuzzing_runners`, the shared
building blocks (choosers, settings, targets, counts, action draws) in
:mod:`wargym.envs.fuzzing_base` (re-exported here).

* :func:`targets`: one :class:`Target` per Gymnasium id registered under ``wargym/`` and per
  PettingZoo env of :data:`wargym.envs.PETTINGZOO_ENVS` (AEC via ``env()``, Parallel via
  ``parallel_env()``), each with the finite choices of its documented keyword arguments
  (scenarios, factions, force sizes, turn limits, one or all rules options flipped,
  illegal-action policies). An id this module does not know is fuzzed with its defaults.
* :func:`run_target`: builds an env from a configuration and steps it with a mix of legal
  actions, masked-out and out-of-range indices and values of the wrong type (floats, strings,
  ``None``, arrays, lists), resets mid-episode and after every episode end, with reset seeds
  drawn from the :class:`Chooser`. Every draw goes through the chooser: hypothesis'
  ``st.randoms()`` (:class:`RandomChooser`, with configurations from :meth:`Target.strategy`)
  makes a failing stream shrinkable, and a numpy generator (:class:`NumpyChooser`) drives long
  runs cheaply.
* Checked after every step and reset (:class:`FuzzStats` counts each violation by name and
  keeps the first examples): observations in the observation space; int8 masks of the action
  count, equal in ``obs``, ``info`` and ``action_masks()``, with a legal action while the
  episode runs; rewards finite floats; ``terminated``/``truncated`` bools; infos
  JSON-serialisable (``action_mask`` aside); a legal action never flagged illegal; an illegal
  index handled by the env's policy (``noop``/``penalty``: flagged, penalty reward, engine
  state, dice and observation unchanged; ``raise``: :class:`IllegalActionError`, nothing
  changed; ``terminate``: flagged, episode over); a value outside the action space either
  handled as illegal or refused with ``TypeError``/``ValueError``/``OverflowError``/
  ``IllegalActionError`` and nothing changed, never played (``None`` the same; a one-value
  integer array, which ``envs.base.action_index`` takes, may be played); reset seeds
  reproducible;
  PettingZoo: ``agent_selection`` in ``agents``, dead agents stepped out with ``None``, an
  agent without a decision never flagged, ``state()`` finite. Any other exception is an error.
* Snapshots (:mod:`wargym.envs.fuzzing_snapshots`): now and then a ``save_state()`` snapshot
  with one field mutated is loaded: a ``StateError`` naming the field with the env unchanged,
  or a load after which a legal step works; the run then goes on from the real snapshot.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import typing
from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

import wargym.envs as registry
from wargym.rules.errors import RulesError

from .fuzzing_base import (
    ACTION_KINDS,
    CLEAR_ERRORS,
    DEFAULT,
    DEFAULT_SETTINGS,
    POLICIES,
    STATE_ATTRIBUTES,
    WRONG_TYPES,
    Chooser,
    FuzzSettings,
    FuzzStats,
    Kind,
    NumpyChooser,
    RandomChooser,
    Target,
    draw_action,
)
from .fuzzing_runners import RUNNERS, DroppedError, Run


# -- targets ----------------------------------------------------------------------------------
def _flips(cls: type, skip: Sequence[str] = ()) -> list[dict[str, Any]]:
    """``{}``, each bool/Literal field of dataclass ``cls`` set off default, and all of them."""
    hints = typing.get_type_hints(cls)
    singles: list[dict[str, Any]] = [{}]
    for f in dataclasses.fields(cls):
        if f.name in skip or f.default is dataclasses.MISSING:
            continue
        hint = hints[f.name]
        if hint is bool:
            values: tuple[Any, ...] = (not f.default,)
        elif typing.get_origin(hint) is Literal:
            values = tuple(v for v in typing.get_args(hint) if v != f.default)
        else:
            continue
        singles += [{f.name: v} for v in values]
    combined = {k: v for flip in singles for k, v in flip.items()}
    return [*singles, combined]


def _nq_space(skirmish: bool) -> dict[str, Sequence[Any]]:
    from wargym.rules.no_quarter.battle.state import BattleOptions
    from wargym.rules.no_quarter.forces.data import RulesOptions
    from wargym.rules.no_quarter.forces.vocab import Faction

    skip = ("max_turns", "base_radius", "move_directions", "move_fractions", "rules")
    space: dict[str, Sequence[Any]] = {
        "illegal_action": POLICIES,
        "flatten": (True, True, False),
        "reward_shaping": (DEFAULT, {"armor_destroyed": 0.1, "class_lost": 0.5}),
    }
    if not skirmish:
        return space
    return {
        **space,
        "factions": list(itertools.product([f.value for f in Faction], repeat=2)),
        "mechs_per_side": (1, 2, 3, 4),
        "stars": (0, 0, 1),
        "max_turns": (1, 2, 3, 20),
        "battle_options": [*_flips(BattleOptions, skip), {"unseen_bases": "block"}],
        "rules_options": _flips(RulesOptions),
        "mirror": (True, False),
    }


def _mission_space(kind: str) -> dict[str, Sequence[Any]]:
    from wargym.rules.no_quarter.battle.state import BattleOptions
    from wargym.rules.no_quarter.forces.data import RulesOptions
    from wargym.rules.no_quarter.mission.scenario import load_scenario, scenario_names

    skip = ("max_turns", "base_radius", "move_directions", "move_fractions", "rules")
    options = [{"battle": f} for f in _flips(BattleOptions, skip)]
    options += [{"rules": f} for f in _flips(RulesOptions)[1:]]
    options.append({"battle": {"unseen_bases": "block"}})  # the envs play bump by default
    return {
        **_nq_space(False),
        "scenario": [n for n in scenario_names() if load_scenario(n).kind == kind],
        "max_turns": (DEFAULT, 1, 2, 4),
        "options": options,
        "reward_shaping": (DEFAULT, {"recon": 0.1, "exit": 0.2, "armor_lost": 0.05}),
        "opponent": ("rules", "rules", "random", "scripted"),  # who sits in the NP seat
    }


def _pw_space(gym: bool) -> dict[str, Sequence[Any]]:
    from wargym.rules.pentagon_war.data import load_rules
    from wargym.rules.pentagon_war.records import Options

    space: dict[str, Sequence[Any]] = {
        "scenario": sorted(load_rules().scenarios),
        "max_turns": (1, 2, 3, 20),
        "illegal_action": POLICIES,
        "reward_shaping": (DEFAULT, 0.05),
        "rule_flips": _flips(Options, ("max_turns",)),
    }
    return {**space, "opponent": ("captain", "random")} if gym else space


def _pw_build(make: Callable[..., Any]) -> Callable[..., Any]:
    def build(**config: Any) -> Any:
        flips = config.pop("rule_flips", {})
        if flips:
            from wargym.rules.pentagon_war.data import load_rules
            from wargym.rules.pentagon_war.records import Options

            scenario = config.get("scenario", "duel")
            fields: dict[str, Any] = dict(load_rules().scenarios[scenario].options)
            base = Options(**fields)
            config["options"] = dataclasses.replace(base, **flips)
        return make(**config)

    return build


def _sc_space() -> dict[str, Sequence[Any]]:
    from wargym.rules.starship_combat.state import Options

    flips = _flips(Options, ("nuclear_missiles",))
    options = [*flips, {"max_rounds": 1}, {"max_rounds": 3}, {"nuclear_missiles": True}]
    return {
        "scenario": ("duel", "fleet", "duel_kestrel", "strike"),
        "options": [DEFAULT, *options],
        "illegal_action": POLICIES,
    }


def targets(only: str | None = None) -> list[Target]:
    """Every wargym env, as Gymnasium ids, then AEC and Parallel PettingZoo envs."""
    spaces_by_id: dict[str, dict[str, Sequence[Any]]] = {
        "wargym/NoQuarter-Skirmish-v1": {**_nq_space(True), "opponent": ("rules", "scripted",
                                                                            "random")},
        "wargym/NoQuarter-Patrol-v1": _mission_space("patrol"),
        "wargym/NoQuarter-Attack-v1": _mission_space("attack"),
        "wargym/NoQuarter-Defend-v1": _mission_space("defend"),
        "wargym/NoQuarter-CestusV-v1": {"opponent": ("rules", "rules", "random", "scripted"),
                                        "unseen_bases": ("bump", "bump", "block"),
                                        "illegal_action": POLICIES},
        "wargym/PentagonWar-Duel-v0": _pw_space(True),
        "wargym/StarshipCombat-Duel-v0": _sc_space(),
    }  # fmt: skip
    pz_spaces = {
        "no_quarter_v1": _nq_space(True),
        "pentagon_war_v0": _pw_space(False),
        "starship_combat_v0": _sc_space(),
    }
    out = []
    for env_id in sorted(k for k in gymnasium.registry if k.startswith("wargym/")):
        make = _bind(gymnasium.make, env_id)
        build = _pw_build(make) if "PentagonWar" in env_id else make
        out.append(Target(env_id, "gym", spaces_by_id.get(env_id, {}), build))
    for name in sorted(registry.PETTINGZOO_ENVS):
        module = importlib.import_module(registry.PETTINGZOO_ENVS[name])
        apis: tuple[tuple[Kind, Callable[..., Any]], ...] = (
            ("aec", module.env),
            ("parallel", module.parallel_env),
        )
        for kind, factory in apis:
            build = _pw_build(factory) if name.startswith("pentagon") else factory
            out.append(Target(f"{name}:{kind}", kind, pz_spaces.get(name, {}), build))
    return [t for t in out if only is None or only.lower() in t.name.lower()]


def _bind(make: Callable[..., Any], env_id: str) -> Callable[..., Any]:
    return lambda **config: make(env_id, **config)


def run_target(
    target: Target,
    chooser: Chooser,
    steps: int,
    stats: FuzzStats,
    settings: FuzzSettings = DEFAULT_SETTINGS,
    config: dict[str, Any] | None = None,
) -> None:
    """Build ``target`` with a drawn (or given) configuration and fuzz it for ``steps`` steps.

    Counts go to ``stats``. A configuration refused with ``ValueError``/``RulesError`` at
    construction is counted in ``configs_rejected``; any other exception is an error.
    """
    config = target.config(chooser) if config is None else config
    stats.runs += 1
    try:
        env = target.build(**dict(config))
    except (ValueError, RulesError) as exc:
        stats.configs_rejected += 1
        stats.outcomes[f"config rejected: {type(exc).__name__}: {str(exc)[:120]}"] += 1
        return
    except Exception as exc:  # noqa: BLE001
        stats.error(exc, {"target": target.name, "config": config})
        return
    run = Run(target, env, config, chooser, settings, stats)
    try:
        RUNNERS[target.kind](run, steps)
    except DroppedError:
        pass
    finally:
        try:
            env.close()
        except Exception as exc:  # noqa: BLE001
            stats.error(exc, run.ctx())


def fuzz_target(
    target: Target,
    steps: int,
    seed: int,
    settings: FuzzSettings = DEFAULT_SETTINGS,
    run_steps: tuple[int, int] = (200, 2000),
    progress: Callable[[FuzzStats], None] | None = None,
) -> FuzzStats:
    """Fuzz ``target`` for ``steps`` steps from a numpy stream seeded by ``seed``.

    Each run builds the env with a fresh configuration and lasts a random number of steps in
    ``run_steps``; ``progress`` is called after every run. The step count includes steps
    refused with an exception; a run dropped after an error gives up its remaining steps to
    the next run (at most ``steps`` runs in all).
    """
    import time

    chooser = NumpyChooser(np.random.default_rng(seed))
    stats = FuzzStats(target.name)
    start = time.perf_counter()
    while stats.steps < steps and stats.runs < max(steps, 1):
        low, high = run_steps
        length = min(steps - stats.steps, low + chooser.pick(max(high - low, 1)))
        run_target(target, chooser, length, stats, settings)
        stats.seconds = time.perf_counter() - start
        if progress is not None:
            progress(stats)
    return stats


__all__ = [
    "ACTION_KINDS",
    "CLEAR_ERRORS",
    "DEFAULT",
    "DEFAULT_SETTINGS",
    "WRONG_TYPES",
    "Chooser",
    "FuzzSettings",
    "FuzzStats",
    "NumpyChooser",
    "RandomChooser",
    "Target",
    "draw_action",
    "fuzz_target",
    "run_target",
    "targets",
]


__all__ = [
    "ACTION_KINDS",
    "CLEAR_ERRORS",
    "DEFAULT",
    "POLICIES",
    "STATE_ATTRIBUTES",
    "WRONG_TYPES",
    "Chooser",
    "FuzzSettings",
    "FuzzStats",
    "Kind",
    "NumpyChooser",
    "RandomChooser",
    "Target",
    "draw_action",
    "fuzz_target",
    "run_target",
    "targets",
]
