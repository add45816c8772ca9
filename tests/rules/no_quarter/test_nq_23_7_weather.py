"""Day or night and inclement weather, and its change on activation doubles (§23.7, §22.0)."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.weather import (
    WeatherChange,
    WeatherOptions,
    WeatherState,
    apply_weather,
    fixed_weather,
    roll_conditions,
    roll_day_night,
    roll_weather,
    weather_after_activation,
    weather_for_roll,
    weather_los_limit,
    weather_on_doubles,
    weather_tables,
)


def test_23_7_table_rows() -> None:
    changes = {face: weather_for_roll(face).pending for face in range(1, 7)}
    assert changes == {
        1: WeatherChange.NONE,
        2: WeatherChange.CLEARS,
        3: WeatherChange.NONE,
        4: WeatherChange.NONE,
        5: WeatherChange.WORSENS,
        6: WeatherChange.NONE,
    }
    assert all(weather_for_roll(face).inclement for face in range(1, 7))
    assert weather_tables().chance_default == (1,)
    with pytest.raises(RulesError):
        weather_for_roll(0)


def test_23_7_derived_d28_improving_clears_on_first_doubles() -> None:
    state = weather_for_roll(2)
    assert (state.inclement, state.pending, state.label) == (
        True,
        WeatherChange.CLEARS,
        "improving",
    )
    assert weather_after_activation(state, (3, 5)) == state  # no doubles: no change
    cleared = weather_after_activation(state, (4, 4))
    assert (cleared.inclement, cleared.label) == (False, "cleared")
    assert weather_after_activation(cleared, (2, 2)) == cleared  # only the first doubles


def test_23_7_worsening_stays_inclement_and_cannot_clear() -> None:
    state = weather_for_roll(5)
    assert state.label == "worsening"
    worse = weather_after_activation(state, (6, 6))
    assert (worse.inclement, worse.worse, worse.pending, worse.label) == (
        True,
        True,
        WeatherChange.NONE,
        "worse",
    )
    assert weather_after_activation(worse, (1, 1)) == worse


def test_23_7_steady_rows_ignore_doubles() -> None:
    for face in (1, 3, 4, 6):
        state = weather_for_roll(face)
        assert weather_after_activation(state, (2, 2)) == state
    assert weather_after_activation(WeatherState(), (5, 5)) == WeatherState()


def test_23_7_weather_on_doubles_rolls_the_activation_pair() -> None:
    dice = ScriptedDice([3, 3, 2, 5])
    state, faces = weather_on_doubles(weather_for_roll(2), dice)
    assert faces == (3, 3) and not state.inclement
    state2, faces2 = weather_on_doubles(weather_for_roll(5), dice)
    assert faces2 == (2, 5) and state2 == weather_for_roll(5)


def test_22_0_patrol_is_always_day_no_night_die() -> None:
    dice = ScriptedDice([1, 5])  # chance 1 -> inclement; table 5 -> worsening
    c = roll_conditions(dice, night_on=(), inclement_on=(1,))
    assert (c.night, c.night_roll, c.inclement_roll) == (False, None, 1)
    assert c.weather.label == "worsening" and dice.remaining == 0


def test_22_0_attack_night_on_6_and_no_weather_table_without_the_chance() -> None:
    dice = ScriptedDice([6, 2])
    c = roll_conditions(dice, night_on=(6,), inclement_on=(1,))
    assert (c.night, c.night_roll, c.inclement_roll, c.weather) == (True, 6, 2, WeatherState())
    assert dice.remaining == 0
    day = roll_conditions(ScriptedDice([5, 1, 3]), night_on=(6,), inclement_on=(1,))
    assert not day.night and day.weather.inclement and day.weather.row == 3


def test_23_7_default_chance_is_1_and_wider_chances_work() -> None:
    assert roll_weather(ScriptedDice([1, 4]))[0].inclement
    assert not roll_weather(ScriptedDice([2]))[0].inclement
    assert roll_weather(ScriptedDice([2, 6]), inclement_on=(1, 2))[0].inclement  # M5 style
    assert roll_weather(ScriptedDice([]), inclement_on=())[1] is None
    assert roll_day_night(ScriptedDice([]), ()) == (False, None)


def test_19_11_flags_on_the_battlefield() -> None:
    bf = Battlefield()
    c = roll_conditions(ScriptedDice([6, 1, 1]), night_on=(6,), inclement_on=(1,))
    out = c.apply(bf)
    assert (out.night, out.inclement_weather) == (True, True)
    assert apply_weather(bf, WeatherState()) is bf
    assert apply_weather(out, weather_after_activation(weather_for_roll(2), (1, 1))).night
    assert not apply_weather(out, WeatherState()).inclement_weather


def test_23_7_los_limits_and_the_worse_variant() -> None:
    worse = weather_after_activation(weather_for_roll(5), (4, 4))
    assert weather_los_limit(WeatherState(), night=False) is None
    assert weather_los_limit(worse, night=False) == 12
    assert weather_los_limit(worse, night=True) == 6
    variant = WeatherOptions(worse_reduces_limits=True)
    assert weather_los_limit(worse, night=False, options=variant) == 6
    assert weather_los_limit(worse, night=True, options=variant) == 3
    assert weather_los_limit(weather_for_roll(5), night=True, options=variant) == 6


def test_23_7_fixed_weather_labels() -> None:
    assert fixed_weather("clear") == WeatherState()
    assert fixed_weather("improving").pending is WeatherChange.CLEARS
    assert fixed_weather("worsening").pending is WeatherChange.WORSENS
    assert fixed_weather("inclement").label == "inclement"
    with pytest.raises(RulesError):
        fixed_weather("sunny")
