"""Dice shared by every engine: rolling, scripting and reading the d6 (No Quarter §5)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargym.rules.dice import (
    PASS_CAP,
    Dice,
    FallbackDice,
    RandomDice,
    ScriptedDice,
    half_d6,
    passed_dice,
    possibility,
    successes,
)
from wargym.rules.errors import DiceScriptExhaustedError, RulesError

faces_st = st.lists(st.integers(min_value=1, max_value=6), max_size=12)


# -- RandomDice ---------------------------------------------------------------------------
def test_5_0_random_dice_same_seed_same_faces() -> None:
    first = RandomDice.from_seed(1234)
    second = RandomDice(np.random.default_rng(1234))
    rolls_a = [first.roll(n) for n in (1, 2, 3, 6)]
    rolls_b = [second.roll(n) for n in (1, 2, 3, 6)]
    assert rolls_a == rolls_b
    assert [len(r) for r in rolls_a] == [1, 2, 3, 6]


def test_5_0_random_dice_different_seeds_differ() -> None:
    assert RandomDice.from_seed(1).roll(20) != RandomDice.from_seed(2).roll(20)


def test_5_0_random_dice_faces_are_plain_ints_from_one_to_six() -> None:
    faces = RandomDice.from_seed(0).roll(6000)
    assert all(type(face) is int for face in faces)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    # A fair die: every face within a generous band around 1000.
    assert all(850 < faces.count(face) < 1150 for face in range(1, 7))


@pytest.mark.parametrize("n", [0, -1, -3])
def test_5_1_rolling_zero_or_fewer_dice_gives_nothing(n: int) -> None:
    assert RandomDice.from_seed(0).roll(n) == ()
    assert ScriptedDice([4]).roll(n) == ()
    assert FallbackDice([4], np.random.default_rng(0)).roll(n) == ()


def test_5_0_every_dice_class_satisfies_the_protocol() -> None:
    dice: list[Dice] = [
        RandomDice.from_seed(0),
        ScriptedDice([1, 2]),
        FallbackDice([], np.random.default_rng(0)),
    ]
    assert all(len(d.roll(1)) == 1 for d in dice)


# -- ScriptedDice -------------------------------------------------------------------------
def test_5_0_scripted_dice_replay_faces_in_order() -> None:
    dice = ScriptedDice([6, 1, 3, 3, 5])
    assert dice.roll(2) == (6, 1)
    assert dice.remaining == 3
    assert dice.roll(1) == (3,)
    assert dice.roll(2) == (3, 5)
    assert dice.used == [6, 1, 3, 3, 5]
    assert dice.remaining == 0


def test_5_0_scripted_dice_exhaustion_raises_and_consumes_nothing() -> None:
    dice = ScriptedDice([2, 4])
    dice.roll(1)
    with pytest.raises(DiceScriptExhaustedError, match=r"wanted 2d6, 1 left"):
        dice.roll(2)
    assert issubclass(DiceScriptExhaustedError, RulesError)
    assert dice.remaining == 1
    assert dice.roll(1) == (4,)


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_5_0_scripted_dice_reject_faces_outside_one_to_six(bad: int) -> None:
    with pytest.raises(ValueError, match="1..6"):
        ScriptedDice([3, bad])


def test_5_0_fallback_dice_scripted_first_then_seeded_random() -> None:
    dice = FallbackDice([6, 6], np.random.default_rng(7))
    faces = dice.roll(5)
    assert faces[:2] == (6, 6)
    assert faces[2:] == RandomDice.from_seed(7).roll(3)
    assert dice.scripted == []


# -- §5.1 passing dice --------------------------------------------------------------------
def test_5_1_a_die_passes_when_it_scores_the_target_or_less() -> None:
    assert passed_dice((4, 5), target=4) == 1
    assert passed_dice((4, 4), target=4) == 2
    assert passed_dice((5, 6), target=4) == 0
    assert passed_dice((1,), target=1) == 1
    assert passed_dice((), target=6) == 0


def test_5_1_passing_dice_caps_at_two() -> None:
    # "3d6 with three passes = pass 2" (§5.1)
    assert PASS_CAP == 2
    assert passed_dice((1, 2, 3), target=4) == 2
    assert passed_dice((1, 1, 1, 1, 1, 1), target=6) == 2
    assert passed_dice((1, 2, 3), target=4, cap=3) == 3


def test_5_1_passed_dice_accept_any_iterable() -> None:
    assert passed_dice(iter([3, 5, 2]), target=3) == 2
    assert passed_dice(ScriptedDice([2, 6]).roll(2), target=5) == 1


@given(faces=faces_st, target=st.integers(min_value=-2, max_value=10))
def test_5_1_passed_dice_never_exceed_two_or_the_dice_rolled(faces: list[int], target: int) -> None:
    result = passed_dice(faces, target)
    assert 0 <= result <= min(PASS_CAP, len(faces))
    assert result == min(2, len([face for face in faces if face <= target]))


@given(faces=faces_st, target=st.integers(min_value=1, max_value=6))
def test_5_1_raising_the_target_never_lowers_the_result(faces: list[int], target: int) -> None:
    assert passed_dice(faces, target) <= passed_dice(faces, target + 1)


# -- §5.2 successes -----------------------------------------------------------------------
def test_5_2_successes_count_ones_twos_and_threes_uncapped() -> None:
    assert successes((1, 2, 3, 4, 5, 6)) == 3
    assert successes((1, 1, 1, 2, 2, 3)) == 6
    assert successes((4, 5, 6)) == 0
    assert successes(()) == 0


@given(faces=faces_st)
def test_5_2_successes_plus_failures_is_the_dice_rolled(faces: list[int]) -> None:
    hits = successes(faces)
    misses = sum(1 for face in faces if face >= 4)
    assert hits + misses == len(faces)
    assert hits == passed_dice(faces, 3, cap=len(faces))


# -- §5.3 possibilities -------------------------------------------------------------------
CLASSES = {"Class 1": (1, 2), "Class 2": (3, 4, 5), "Class 3": (6,)}


@pytest.mark.parametrize(
    ("face", "expected"),
    [(1, "Class 1"), (2, "Class 1"), (3, "Class 2"), (5, "Class 2"), (6, "Class 3")],
)
def test_5_3_possibility_picks_the_option_whose_range_holds_the_die(
    face: int, expected: str
) -> None:
    assert possibility(face, CLASSES) == expected


def test_5_3_possibility_with_a_gap_names_the_roll() -> None:
    with pytest.raises(ValueError, match="no option covers the roll 4"):
        possibility(4, {"low": range(1, 4), "high": range(5, 7)})


# -- §5.5 1/2d6 ---------------------------------------------------------------------------
def test_5_5_half_d6_table() -> None:
    assert {face: half_d6(face) for face in range(1, 7)} == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


@pytest.mark.parametrize("bad", [0, 7])
def test_5_5_half_d6_rejects_a_face_outside_one_to_six(bad: int) -> None:
    with pytest.raises(ValueError, match="1..6"):
        half_d6(bad)
