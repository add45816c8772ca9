"""The native dice mirror rules/dice.py: ScriptedDice semantics and a seeded generator."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import DiceScriptExhaustedError


def test_scripted_dice_replay_the_same_faces_as_the_reference() -> None:
    rng = np.random.default_rng(16)
    for _ in range(300):
        faces = [int(f) for f in rng.integers(1, 7, size=int(rng.integers(0, 40)))]
        ref, native = ScriptedDice(list(faces)), _core.ScriptedDice(faces)
        while True:
            n = int(rng.integers(-2, 6))
            try:
                expected = ref.roll(n)
            except DiceScriptExhaustedError as error:
                with pytest.raises(DiceScriptExhaustedError) as got:
                    native.roll(n)
                assert str(got.value) == str(error)
                break
            assert native.roll(n) == expected
            assert native.remaining == ref.remaining
            assert native.used == ref.used
            assert native.faces == ref.faces


def test_an_exhausted_script_consumes_nothing() -> None:
    dice = _core.ScriptedDice([2, 3])
    with pytest.raises(DiceScriptExhaustedError, match=r"wanted 3d6, 2 left \(used so far \[\]\)"):
        dice.roll(3)
    assert dice.remaining == 2
    assert dice.roll(2) == (2, 3)
    with pytest.raises(DiceScriptExhaustedError, match=r"wanted 1d6, 0 left"):
        dice.roll(1)
    assert dice.roll(0) == ()


@pytest.mark.parametrize("face", [0, 7, -1, 2**70])
def test_a_face_out_of_range_is_refused_like_the_reference(face: int) -> None:
    with pytest.raises(ValueError, match="a d6 face must be 1..6"):
        ScriptedDice([1, face])
    with pytest.raises(NativeArgumentError, match="a d6 face must be 1..6") as got:
        _core.ScriptedDice([1, face])
    assert got.value.argument == "faces"


def test_random_dice_are_seeded_uniform_d6() -> None:
    a, b, c = _core.RandomDice(5), _core.RandomDice(5), _core.RandomDice(6)
    rolls = a.roll(60_000)
    assert rolls == b.roll(60_000)
    assert rolls != c.roll(60_000)
    counts = np.bincount(np.array(rolls), minlength=7)[1:]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert np.all(np.abs(counts - 10_000) < 500), counts  # ~5 sigma
    assert a.roll(0) == () and a.roll(-3) == ()
    assert a.seed == 5


def test_random_dice_refuse_a_bad_seed_or_count() -> None:
    for seed in (-1, 2**64):
        with pytest.raises(NativeArgumentError, match="seed") as got:
            _core.RandomDice(seed)
        assert got.value.argument == "seed"
    for seed in (None, 1.5, "7", True):
        with pytest.raises(NativeTypeError, match="seed: expected an integer"):
            _core.RandomDice(seed)
    dice = _core.RandomDice(1)
    with pytest.raises(NativeArgumentError, match="at most 1048576 dice") as big:
        dice.roll(_core.MAX_DICE_PER_ROLL + 1)
    assert big.value.argument == "n"
    with pytest.raises(NativeTypeError, match="n: expected an integer, got 2.0"):
        dice.roll(2.0)
    assert len(dice.roll(3)) == 3  # still usable


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_numpy_dice_roll_what_random_dice_roll_on_the_same_generator(seed: int) -> None:
    """NumpyDice mirrors rules.dice.RandomDice(rng): the same faces and the same state after."""
    from wargym.rules.dice import RandomDice

    rng = np.random.default_rng(seed)
    native = _core.NumpyDice(rng.bit_generator.state)
    reference = RandomDice(rng)
    counts = np.random.default_rng(seed + 1).integers(-2, 40, size=200)
    for n in counts:
        assert native.roll(int(n)) == reference.roll(int(n))
    assert native.state == rng.bit_generator.state
    rng.bit_generator.state = native.state  # a hand-back leaves the generator where it is
    assert native.roll(5) == RandomDice(rng).roll(5)


def test_numpy_dice_refuse_a_bad_state_or_count() -> None:
    with pytest.raises(NativeTypeError, match="state"):
        _core.NumpyDice(3)
    with pytest.raises(NativeArgumentError, match="state"):
        _core.NumpyDice({"bit_generator": "PCG64"})
    dice = _core.NumpyDice(np.random.default_rng(0).bit_generator.state)
    before = dice.state
    with pytest.raises(NativeTypeError, match="n"):
        dice.roll("3")
    with pytest.raises(NativeArgumentError, match="n"):
        dice.roll(_core.MAX_DICE_PER_ROLL + 1)
    assert dice.state == before
