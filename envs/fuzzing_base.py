"""What the env fuzzers share: action kinds, choosers, settings, targets, counts, draws.

The building blocks of :mod:`wargym.envs.fuzzing` (targets, runs) and
:mod:`wargym.envs.fuzzing_runners` (the per-API runners and checks), which both import this
module and not each other at import time; :mod:`wargym.envs.fuzzing` re-exports every name.
"""

from __future__ import annotations

import dataclasses
import math
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

import numpy as np

from wargym.rules.errors import IllegalActionError

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


DEFAULT_SETTINGS = FuzzSettings()
"""The default mix (a frozen value, shared)."""


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
