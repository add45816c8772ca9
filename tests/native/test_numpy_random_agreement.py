"""The native mirror of numpy's PCG64 Generator draws numpy's values, bit for bit (issue 16).

``_core.NumpyGenerator`` starts from ``rng.bit_generator.state`` and must answer
``integers`` (scalar and ``size=k``), ``random`` and ``uniform`` exactly as numpy does, and
leave the same state behind (the buffered 32 bits included), for many seeds and ranges: empty
and one-value ranges, ranges just below, at and above the 32-bit boundary, the whole int64
range. ``WARGYM_NUMPY_SEEDS`` raises the number of seeds (default 60).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError

sys.path.insert(0, str(Path(__file__).parent))
from test_native_stub import stub_names  # noqa: E402

SEEDS = int(os.environ.get("WARGYM_NUMPY_SEEDS", "60"))

INT_RANGES = [
    (0, 1), (5, 6), (0, 2), (0, 3), (0, 5), (1, 7), (-10, 10), (6, 11), (0, 36),
    (0, 2**31), (0, 2**32 - 1), (0, 2**32), (0, 2**32 + 1), (-(2**31), 2**31 + 7),
    (0, 2**40 + 3), (0, 2**62 + 1), (-(2**63), 2**63 - 1), (-(2**63), 2**63), (2**63 - 2, 2**63),
]  # fmt: skip
"""(low, high) pairs: rng = 0, small, 2**32 - 2, 2**32 - 1 (next_uint32), 2**32 (Lemire 64),
up to 2**64 - 1 (next_uint64)."""
FLOAT_RANGES = [
    (0.0, 1.0), (4.0, 30.0), (2.0, 2.0), (-3.5, 7.25), (0.5, 35.5), (1e-300, 1e300), (-1.0, -0.5),
]  # fmt: skip
SIZES = [0, 1, 2, 3, 5, 17]


def same_state(rng: np.random.Generator, native: Any) -> None:
    assert native.state == rng.bit_generator.state


def test_integers_random_and_uniform_agree_value_and_state() -> None:
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        native = _core.NumpyGenerator(rng.bit_generator.state)
        ops = np.random.default_rng(seed + 10_000)
        for _ in range(60):
            op = int(ops.integers(0, 4))
            if op == 0:
                lo, hi = INT_RANGES[int(ops.integers(0, len(INT_RANGES)))]
                got, want = native.integers(lo, hi), int(rng.integers(lo, hi))
                assert type(got) is int and got == want, (seed, lo, hi)
            elif op == 1:
                lo, hi = INT_RANGES[int(ops.integers(0, len(INT_RANGES)))]
                size = SIZES[int(ops.integers(0, len(SIZES)))]
                assert native.integers(lo, hi, size) == rng.integers(lo, hi, size=size).tolist()
            elif op == 2:
                assert native.random() == rng.random()
            else:
                lo_f, hi_f = FLOAT_RANGES[int(ops.integers(0, len(FLOAT_RANGES)))]
                got_f, want_f = native.uniform(lo_f, hi_f), float(rng.uniform(lo_f, hi_f))
                assert got_f.hex() == want_f.hex(), (seed, lo_f, hi_f)
            same_state(rng, native)


def test_the_state_goes_back_and_the_python_rng_continues_identically() -> None:
    rng = np.random.default_rng(7)
    rng.integers(0, 10)  # leaves 32 bits buffered: has_uint32 = 1
    assert rng.bit_generator.state["has_uint32"] == 1
    twin = np.random.default_rng(7)
    twin.bit_generator.state = rng.bit_generator.state
    native = _core.NumpyGenerator(rng.bit_generator.state)
    assert native.integers(0, 10, 5) == twin.integers(0, 10, size=5).tolist()
    assert native.uniform(0.0, 3.0) == twin.uniform(0.0, 3.0)
    rng.bit_generator.state = native.state
    assert rng.random() == twin.random()
    assert rng.integers(0, 2**32, size=3).tolist() == twin.integers(0, 2**32, size=3).tolist()


def test_a_state_built_from_numbers_is_the_state_numpy_reads() -> None:
    for state, inc, has, word in [
        (0, 1, 0, 0),
        (2**128 - 1, 2**128 - 1, 1, 2**32 - 1),
        (12345, 2, 1, 9),
    ]:
        value = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": inc},
            "has_uint32": has,
            "uinteger": word,
        }
        bit = np.random.PCG64()
        bit.state = value
        rng = np.random.Generator(bit)
        native = _core.NumpyGenerator(value)
        assert native.state == rng.bit_generator.state == value
        assert [native.integers(0, 7) for _ in range(5)] == [
            int(rng.integers(0, 7)) for _ in range(5)
        ]
        same_state(rng, native)


def test_bad_ranges_are_refused_as_numpy_refuses_them() -> None:
    rng = np.random.default_rng(3)
    native = _core.NumpyGenerator(rng.bit_generator.state)
    for lo, hi in [(0, 0), (5, 4), (2**62, -(2**62))]:
        with pytest.raises(ValueError):
            rng.integers(lo, hi)
        with pytest.raises(NativeArgumentError) as caught:
            native.integers(lo, hi)
        assert caught.value.argument == "high"
        with pytest.raises(ValueError):
            rng.integers(lo, hi, size=2)
        with pytest.raises(NativeArgumentError):
            native.integers(lo, hi, 2)
    assert native.integers(5, 4, 0) == rng.integers(5, 4, size=0).tolist() == []
    for lo, hi in [(-(2**63) - 1, 0), (0, 2**63 + 1)]:
        with pytest.raises(ValueError):
            rng.integers(lo, hi)
        with pytest.raises(NativeArgumentError):
            native.integers(lo, hi)
    with pytest.raises(ValueError):
        rng.integers(0, 5, size=-1)
    with pytest.raises(NativeArgumentError, match="negative"):
        native.integers(0, 5, -1)
    with pytest.raises(ValueError):
        rng.uniform(2.0, 1.0)
    with pytest.raises(NativeArgumentError):
        native.uniform(2.0, 1.0)
    with pytest.raises(OverflowError):
        rng.uniform(-1e308, 1e308)
    with pytest.raises(NativeArgumentError, match="exceeds"):
        native.uniform(-1e308, 1e308)
    for bad in ("1", 1.5, True, None):
        with pytest.raises(NativeTypeError):
            native.integers(bad, 5)
        with pytest.raises(NativeTypeError):
            native.integers(0, bad)
    with pytest.raises(NativeTypeError):
        native.uniform("0", 1.0)
    same_state(rng, native)  # nothing was drawn by a refused call


def good_state() -> dict[str, Any]:
    state: dict[str, Any] = np.random.default_rng(0).bit_generator.state
    return state


@pytest.mark.parametrize(
    ("change", "error", "argument"),
    [
        (lambda s: "PCG64", NativeTypeError, "state"),
        (lambda s: {**s, "bit_generator": "MT19937"}, NativeArgumentError, "state.bit_generator"),
        (lambda s: {k: v for k, v in s.items() if k != "state"}, NativeArgumentError, "state"),
        (lambda s: {**s, "state": [1, 2]}, NativeTypeError, "state.state"),
        (lambda s: {**s, "state": {"inc": 1}}, NativeArgumentError, "state.state"),
        (
            lambda s: {**s, "state": {"state": -1, "inc": 1}},
            NativeArgumentError,
            "state.state.state",
        ),
        (
            lambda s: {**s, "state": {"state": 2**128, "inc": 1}},
            NativeArgumentError,
            "state.state.state",
        ),
        (lambda s: {**s, "state": {"state": 1, "inc": 1.0}}, NativeTypeError, "state.state.inc"),
        (lambda s: {**s, "has_uint32": 2}, NativeArgumentError, "state.has_uint32"),
        (lambda s: {**s, "has_uint32": True}, NativeTypeError, "state.has_uint32"),
        (lambda s: {**s, "uinteger": 2**32}, NativeArgumentError, "state.uinteger"),
        (lambda s: {k: v for k, v in s.items() if k != "uinteger"}, NativeArgumentError, "state"),
    ],
)
def test_a_bad_state_is_refused_naming_the_field(change: Any, error: type, argument: str) -> None:
    with pytest.raises(error) as caught:
        _core.NumpyGenerator(change(good_state()))
    assert caught.value.argument == argument  # type: ignore[attr-defined]


def test_the_stub_lists_the_generator_members() -> None:
    members = {n for n in dir(_core.NumpyGenerator) if not n.startswith("_")}
    assert stub_names()["NumpyGenerator"] == members
