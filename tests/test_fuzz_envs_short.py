"""Short fuzz of every wargym environment (issue 9); the long run is benchmarks/fuzz_envs.py.

Targets, configurations, action kinds and invariants are those of :mod:`wargym.envs.fuzzing`:
every registered ``wargym/`` Gymnasium id and every PettingZoo env (AEC and Parallel). Per
target, hypothesis draws a few configurations (:meth:`Target.strategy`) and action streams
(``st.randoms()`` behind :class:`RandomChooser`, so a failure can shrink; derandomized, no
database), and a seeded numpy stream adds a few
hundred steps over several configurations. Hypothesis does not shrink here unless
``WARGYM_FUZZ_SHRINK=1`` (see :data:`PHASES`). Strict: any exception outside the documented
refusals and any invariant violation fails, with its reproducer (configuration, reset seed,
actions since the reset) in the message.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from wargym.envs.fuzzing import (
    FuzzSettings,
    FuzzStats,
    RandomChooser,
    fuzz_target,
    run_target,
    targets,
)

TARGETS = {t.name: t for t in targets()}
NAMES = sorted(TARGETS)
HYPOTHESIS_STEPS = 40
"""Steps per hypothesis example (3 examples per target)."""
NUMPY_STEPS = 150
"""Steps of the numpy stream per target (runs of 30-80 steps, a new configuration each)."""
CI = FuzzSettings(reset_chance=0.02, determinism_chance=0.2, snapshot_chance=0.04)
"""More resets and snapshot probes than the long run: short streams still cover mid-episode
resets and a few mutated snapshots per target."""
PHASES = tuple(Phase) if os.environ.get("WARGYM_FUZZ_SHRINK") else (Phase.explicit, Phase.generate)
"""No shrinking by default: replaying env streams to shrink takes minutes, and every failure
already names its reproducer. ``WARGYM_FUZZ_SHRINK=1`` turns shrinking on."""


def assert_clean(stats: FuzzStats) -> None:
    """No exception and no violation; the message holds the reproducers."""
    lines: list[str] = []
    for error in stats.errors[:3]:
        lines.append(f"EXCEPTION {error['error']}\n  {_repro(error)}\n  {''.join(error['trace'])}")
    for name, count in stats.violations.items():
        example = stats.examples[name]
        lines.append(f"VIOLATION {name} x{count} {example['detail']}\n  {_repro(example)}")
    assert not lines, f"{stats.target}: " + "\n".join(lines)


def _repro(example: dict[str, Any]) -> str:
    actions = example["actions_since_reset"]
    return (
        f"config={example['config']} reset_seed={example['reset_seed']} "
        f"actions since reset ({len(actions)}): {actions[-12:]}"
    )


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=3,
    deadline=None,
    database=None,
    derandomize=True,
    phases=PHASES,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_fuzz_envs_short_hypothesis_streams_keep_invariants(name: str, data: Any) -> None:
    """A drawn configuration, reset seeds and action stream: no exception, no violation."""
    target = TARGETS[name]
    config = target.clean(data.draw(target.strategy(), label="config"))
    stream = RandomChooser(data.draw(st.randoms(use_true_random=False), label="stream"))
    stats = FuzzStats(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_target(target, stream, HYPOTHESIS_STEPS, stats, CI, config=config)
    assert stats.runs == 1
    assert stats.steps == HYPOTHESIS_STEPS or stats.configs_rejected or stats.errors
    assert_clean(stats)


@pytest.mark.parametrize("name", NAMES)
def test_fuzz_envs_short_numpy_stream_keeps_invariants(name: str) -> None:
    """A seeded numpy stream over several configurations: no exception, no violation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stats = fuzz_target(TARGETS[name], NUMPY_STEPS, seed=NAMES.index(name), settings=CI,
                            run_steps=(30, 80))  # fmt: skip
    assert stats.steps == NUMPY_STEPS
    assert stats.resets >= stats.runs - stats.configs_rejected
    assert stats.actions["legal"] > 0 and stats.actions["masked"] + stats.actions["wrong_type"] > 0
    assert stats.outcomes["snapshot probes"] > 0  # mutated snapshots were loaded too
    assert_clean(stats)


def test_fuzz_envs_short_covers_every_registered_env() -> None:
    """Every wargym Gymnasium id and both APIs of every PettingZoo env are targets."""
    import gymnasium

    import wargym.envs

    gym_ids = {k for k in gymnasium.registry if k.startswith("wargym/")}
    pz = {f"{n}:{api}" for n in wargym.envs.PETTINGZOO_ENVS for api in ("aec", "parallel")}
    assert set(NAMES) == gym_ids | pz
    assert {"wargym/NoQuarter-Skirmish-v1", "pentagon_war_v0:parallel"} <= set(NAMES)
