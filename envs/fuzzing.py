"""Property fuzzing of every wargym environment: configurations, action streams, invariants.

Used by ``benchmarks/fuzz_envs.py`` (the long run) and ``tests/test_fuzz_envs_short.py`` (CI).
The per-API runners and the checks live in :mod:`wargym.envs.fuzzing_runners`.

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
import math
import traceback
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

import gymnasium
import numpy as np

import wargym.envs as registry
from wargym.rules.errors import IllegalActionError, RulesError

Kind = Literal["gym", "aec", "parallel"]
DEFAULT = "<default>"
"""A configuration value meaning: leave the keyword out (the env's default)."""
ACTION_KINDS = ("legal", "masked", "out_of_range", "none", "wrong_type")
"""Kinds of action drawn, in the order of :attr:`FuzzSettings.weights`. ``legal`` comes as an
``int``, ``np.int64`` or 0-d integer array (all in the ``Discrete`` space); ``masked``,
``out_of_range`` and ``none`` (no action given) follow the env's illegal-action policy."""
WRONG_TYPES = ("float", "float_frac", "str_int", "str_word", "bool", "array_1", "array_2",
               "array_float", "list", "nan", "inf")  # fmt: skip
"""Values outside the ``Discrete`` space: refused (``InvalidActionError``, or any of
:data:`CLEAR_ERRORS`) or handled as illegal; ``array_1`` (a one-value integer array, which
``envs.base.action_index`` accepts) may also be played."""
CLEAR_ERRORS = (TypeError, ValueError, OverflowError, IllegalActionError)
"""Exceptions a value of the wrong type may raise (with nothing changed)."""
STATE_ATTRIBUTES = ("_battle", "_state", "_game", "_dice")
"""Attributes of an env (unwrapped) that hold its engine state and dice, where present."""
POLICIES = (DEFAULT, DEFAULT, "noop", "penalty", "raise", "terminate")


class Chooser(Protocol):
    """The source of every random draw of a fuzz run."""

    def pick(self, n: int) -> int:
        """An index in ``[0, n)``."""
        ...

    def chance(self, p: float) -> bool:
        """True with probability about ``p`` (rarer events shrink to False)."""
        ...

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn with ``weights`` (shrinks to 0)."""
        ...


class NumpyChooser:
    """Draws from a numpy generator (bulk runs)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def pick(self, n: int) -> int:
        """An index in ``[0, n)``."""
        return int(self.rng.integers(n))

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return bool(self.rng.random() < p)

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn with ``weights``."""
        w = np.asarray(weights, dtype=float)
        return int(self.rng.choice(len(w), p=w / w.sum()))


class RandomChooser:
    """Draws from a ``random.Random``-like object, e.g. hypothesis' ``st.randoms()``.

    Under hypothesis every draw shrinks towards 0: the first index, no reset, a legal action.
    """

    def __init__(self, rnd: Any) -> None:
        self.rnd = rnd

    def pick(self, n: int) -> int:
        """An index in ``[0, n)``."""
        return int(self.rnd.randrange(n))

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (a draw near 0 gives False)."""
        return bool(self.rnd.random() >= 1 - p)

    def weighted(self, weights: Sequence[float]) -> int:
        """An index below a cumulative weight."""
        cut = self.rnd.random() * sum(weights)
        total = 0.0
        for index, weight in enumerate(weights):
            total += weight
            if cut < total:
                return index
        return len(weights) - 1


@dataclasses.dataclass(frozen=True)
class FuzzSettings:
    """Mix of a fuzz run."""

    weights: tuple[float, ...] = (0.7, 0.09, 0.05, 0.03, 0.13)
    """Chances of the :data:`ACTION_KINDS`."""
    wrong_types: tuple[str, ...] = WRONG_TYPES
    """The :data:`WRONG_TYPES` drawn."""
    reset_chance: float = 0.003
    """Chance of a reset before any step (mid-episode)."""
    determinism_chance: float = 0.05
    """Chance that a seeded reset is repeated and compared."""
    drop_key_chance: float = 0.02
    """Parallel envs: chance an agent's key is left out of the action dict."""
    snapshot_chance: float = 0.005
    """Chance before a step of loading a snapshot with one field mutated
    (:func:`wargym.envs.fuzzing_snapshots.probe`: refused untouched, or loads and steps)."""


@dataclasses.dataclass(frozen=True)
class Target:
    """One env under test: its API, its configuration choices and a builder."""

    name: str
    kind: Kind
    space: Mapping[str, Sequence[Any]]
    build: Callable[..., Any]

    def config(self, chooser: Chooser) -> dict[str, Any]:
        """A configuration drawn from :attr:`space` (``DEFAULT`` values left out)."""
        return self.clean({k: v[chooser.pick(len(v))] for k, v in self.space.items()})

    def strategy(self) -> Any:
        """A hypothesis strategy of raw configurations (pass them through :meth:`clean`)."""
        from hypothesis import strategies as st

        return st.fixed_dictionaries({k: st.sampled_from(list(v)) for k, v in self.space.items()})

    @staticmethod
    def clean(drawn: Mapping[str, Any]) -> dict[str, Any]:
        """``drawn`` without its ``DEFAULT`` values (the keywords the env's defaults fill)."""
        return {k: v for k, v in drawn.items() if not (isinstance(v, str) and v == DEFAULT)}


@dataclasses.dataclass
class FuzzStats:
    """Counts of one target (or a sum of targets)."""

    target: str
    steps: int = 0
    resets: int = 0
    episodes: int = 0
    runs: int = 0
    configs_rejected: int = 0
    seconds: float = 0.0
    actions: Counter[str] = dataclasses.field(default_factory=Counter)
    outcomes: Counter[str] = dataclasses.field(default_factory=Counter)
    violations: Counter[str] = dataclasses.field(default_factory=Counter)
    examples: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    errors: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    def violate(self, name: str, ctx: dict[str, Any], detail: str = "") -> None:
        """Count violation ``name``; keep the first example with its reproducer."""
        self.violations[name] += 1
        if name not in self.examples:
            self.examples[name] = {**_repro(ctx), "detail": detail[:500]}

    def error(self, exc: BaseException, ctx: dict[str, Any]) -> None:
        """Record an unexpected exception (the env is dropped afterwards)."""
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        self.errors.append(
            {**_repro(ctx), "error": f"{type(exc).__name__}: {exc}"[:500], "trace": tb[-3:]}
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON data."""
        data = dataclasses.asdict(self)
        for key in ("actions", "outcomes", "violations"):
            data[key] = dict(sorted(getattr(self, key).items()))
        return data


def _repro(ctx: dict[str, Any]) -> dict[str, Any]:
    trail = ctx.get("trail", [])
    return {
        "target": ctx.get("target"),
        "config": repr(ctx.get("config")),
        "reset_seed": ctx.get("seed"),
        "actions_since_reset": [repr(a) for a in trail[-2000:]],
    }


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
    from wargym.rules.no_quarter.data import RulesOptions
    from wargym.rules.no_quarter.state import BattleOptions
    from wargym.rules.no_quarter.vocab import Faction

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
    from wargym.rules.no_quarter.data import RulesOptions
    from wargym.rules.no_quarter.scenario import load_scenario, scenario_names
    from wargym.rules.no_quarter.state import BattleOptions

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
        "wargym/NoQuarter-Skirmish-v0": {**_nq_space(True), "opponent": ("rules", "scripted",
                                                                            "random")},
        "wargym/NoQuarter-Patrol-v0": _mission_space("patrol"),
        "wargym/NoQuarter-Attack-v0": _mission_space("attack"),
        "wargym/NoQuarter-Defend-v0": _mission_space("defend"),
        "wargym/NoQuarter-CestusV-v0": {"opponent": ("rules", "rules", "random", "scripted"),
                                        "unseen_bases": ("bump", "bump", "block"),
                                        "illegal_action": POLICIES},
        "wargym/PentagonWar-Duel-v0": _pw_space(True),
        "wargym/StarshipCombat-Duel-v0": _sc_space(),
    }  # fmt: skip
    pz_spaces = {
        "no_quarter_v0": _nq_space(True),
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


# -- actions ------------------------------------------------------------------------------
def draw_action(
    chooser: Chooser, mask: np.ndarray, settings: FuzzSettings = FuzzSettings()
) -> tuple[str, Any]:
    """``(kind, action)``: a legal index, a masked one, one out of range, None or a wrong type."""
    n = int(mask.shape[0])
    legal, masked = np.flatnonzero(mask), np.flatnonzero(mask == 0)
    kind = ACTION_KINDS[chooser.weighted(settings.weights)]
    if kind == "masked" and not len(masked):
        kind = "out_of_range"
    if kind == "wrong_type" and not settings.wrong_types:
        kind = "out_of_range"
    if kind == "legal" and len(legal):
        index = int(legal[chooser.pick(len(legal))])
        form = chooser.pick(3)
        return "legal", (index, np.int64(index), np.array(index))[form]
    if kind == "masked":
        return "masked", int(masked[chooser.pick(len(masked))])
    if kind == "none":
        return "none", None
    if kind in ("legal", "out_of_range"):  # no legal index: out of range instead
        return "out_of_range", (n, n + 1 + chooser.pick(1000), -1, -1 - chooser.pick(1000),
                                2**31, 2**63 - 1, -(2**63))[chooser.pick(7)]  # fmt: skip
    index = int(legal[chooser.pick(len(legal))]) if len(legal) else 0
    wrong = settings.wrong_types[chooser.pick(len(settings.wrong_types))]
    value = {
        "float": float(index), "float_frac": index + 0.5, "str_int": str(index),
        "str_word": "fire", "bool": bool(index % 2), "array_1": np.array([index]),
        "array_2": np.array([index, index]),
        "array_float": np.array(float(index)), "list": [index], "nan": math.nan,
        "inf": math.inf,
    }[wrong]  # fmt: skip
    return f"wrong_type:{wrong}", value


def run_target(
    target: Target,
    chooser: Chooser,
    steps: int,
    stats: FuzzStats,
    settings: FuzzSettings = FuzzSettings(),
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
    from .fuzzing_runners import RUNNERS, DroppedError, Run

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
    settings: FuzzSettings = FuzzSettings(),
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
