"""Mutated snapshots (issue 21, items 4-6): a refused load leaves the env exactly as it was.

For every env class (each Gymnasium id, each PettingZoo env through AEC and Parallel):
a real snapshot after a few masked-random steps gets ONE field mutated (a key deleted, or
NaN, infinity, ``10**400``, ``-1``, ``999``, a huge string, an empty list or object, ``null``,
a value of another type; :mod:`wargym.envs.fuzzing_snapshots`), its digest recomputed, and
``load_state`` is called. Either it raises ``StateError`` naming the field's part, quoting no
huge value, and the env's ``save_state()`` and its next step are exactly those before; or the
load succeeds and the env can take a legal step. Hypothesis draws the field and the mutation
(derandomized, no database: the same examples every run, a few seconds per env class).
"""

from __future__ import annotations

import functools
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from test_env_save_load import Driver, build, cases, record  # noqa: E402

from wargym.envs.fuzzing_snapshots import (  # noqa: E402
    MUTATIONS,
    field_paths,
    masks_after_load,
    mutate,
    refusal_problem,
    step_legal,
)
from wargym.rules.errors import StateError  # noqa: E402

MOMENTS = (2, 7)
"""Random steps before each of the snapshots mutated."""


@functools.cache
def _setup(case: str) -> tuple[Any, list[dict[str, Any]]]:
    """One env of ``case`` and its snapshots after each of :data:`MOMENTS` steps."""
    kind = case.split(":", 1)[0]
    driver = Driver(kind, build(case))
    driver.start(5)
    rng = np.random.default_rng(5)
    snapshots, done = [], 0
    for moment in MOMENTS:
        driver.play(moment - done, rng)
        done = moment
        if kind != "gym" and not driver.env.agents:  # the episode ended: start again
            driver.start(6)
        snapshots.append(driver.env.save_state())
    return driver.env, snapshots


def _next(kind: str, env: Any, masks: list[np.ndarray]) -> str:
    """The record of one legal step and of the env's snapshot after it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = step_legal(kind, env, masks)
    return record(result) + record(env.save_state())


def check_mutation(case: str, moment: int, path: tuple[Any, ...], mutation: str) -> None:
    """The invariant of the module docstring for one mutated field."""
    kind = case.split(":", 1)[0]
    env, snapshots = _setup(case)
    good = snapshots[moment]
    masks = masks_after_load(kind, env, env.load_state(good))
    bad = mutate(good, path, mutation)
    where = f"{'.'.join(map(str, path))} <- {mutation}"
    try:
        loaded = env.load_state(bad)
    except StateError as error:
        problem = refusal_problem(error, path)
        assert problem is None, f"{where}: {problem}"
        assert env.save_state() == good, f"{where}: refused, but the env changed"
        after_refusal = _next(kind, env, masks)
        env.load_state(good)
        assert _next(kind, env, masks) == after_refusal, f"{where}: the next step differs"
        return
    new_masks = masks_after_load(kind, env, loaded)
    if any(m.any() for m in new_masks):
        _next(kind, env, new_masks)  # a legal step must not raise
    env.load_state(good)


SPACE = [c for c in cases() if "oQuarter" not in c and "no_quarter" not in c]
NO_QUARTER = [c for c in cases() if c not in SPACE]
"""The No Quarter envs load and step some ten times slower: fewer examples each."""


def _given(max_examples: int) -> Any:
    """Hypothesis settings of these tests (derandomized: the same examples every run)."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
    )


def _draw(case: str, data: Any) -> None:
    _, snapshots = _setup(case)
    moment = data.draw(st.integers(0, len(snapshots) - 1), label="moment")
    path = data.draw(st.sampled_from(field_paths(snapshots[moment])), label="path")
    mutation = data.draw(st.sampled_from(sorted(MUTATIONS)), label="mutation")
    check_mutation(case, moment, path, mutation)


@pytest.mark.parametrize("case", SPACE)
@_given(60)
@given(data=st.data())
def test_mutated_space_snapshot_is_refused_untouched_or_loads_and_steps(
    case: str, data: Any
) -> None:
    _draw(case, data)


@pytest.mark.parametrize("case", NO_QUARTER)
@_given(15)
@given(data=st.data())
def test_mutated_no_quarter_snapshot_is_refused_untouched_or_loads_and_steps(
    case: str, data: Any
) -> None:
    _draw(case, data)
