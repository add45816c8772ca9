"""Day or night and inclement weather for a mission, and its change on doubles (§23.7, §22.0).

Before a mission (22.0 step 1): roll 1d6 for night when the mission has night faces (no die
when it is always day), then 1d6 for inclement weather (chance 1 unless the mission says
otherwise), then, if inclement, 1d6 on the weather table of 23.7. Rows 1, 3, 4 and 6 are
inclement all mission; row 2 is improving (clears at the first activation doubles), row 5
worsening (at the first activation doubles it worsens and can no longer clear). Rulings
(23.7 [open], decision 42): "worse" keeps the same LOS limits (option: multiply them by 0.5);
activation doubles count for the change before they are re-rolled for activation.

The engine sees the result as two :class:`~wargym.rules.no_quarter.battlefield.terrain.Battlefield`
flags: ``night`` and ``inclement_weather`` (see :func:`apply_weather`).

>>> from wargym.rules.dice import ScriptedDice
>>> c = roll_conditions(ScriptedDice([6, 1, 2]), night_on=(6,), inclement_on=(1,))
>>> c.night, c.weather.inclement, c.weather.pending.value
(True, True, 'clears')
>>> weather_after_activation(c.weather, (3, 3)).inclement
False
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from wargym.rules.dice import Dice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.battlefield.terrain_tables import sight_config
from wargym.rules.tables import load_config

CONFIG = "rules/no_quarter/weather.yaml"


class WeatherChange(enum.Enum):
    """What happens to the weather at the first activation doubles (§23.7)."""

    NONE = "none"
    """No change: inclement all mission (rows 1, 3, 4, 6)."""
    CLEARS = "clears"
    """Improving (row 2): clears for the rest of the mission."""
    WORSENS = "worsens"
    """Worsening (row 5): worsens and stays bad for the rest of the mission."""


@dataclass(frozen=True, slots=True)
class WeatherTables:
    """Table 23.7, the default chance and the "worse" variant factor (§23.7)."""

    chance_default: tuple[int, ...]
    rows: Mapping[int, WeatherChange]
    """Every row starts inclement; the value is its pending change."""
    worse_limit_factor: float


@cache
def weather_tables() -> WeatherTables:
    """Load ``weather.yaml`` (§23.7), cached; errors name the file and row."""
    root = load_config(CONFIG)
    root.keys_exactly({"chance_default", "table", "worse_limit_factor"})
    rows: dict[int, WeatherChange] = {}
    for key, node in root["table"].items():
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= 6:
            raise root["table"].fail(f"row {key!r} is not a d6 face")
        node.keys_exactly({"start", "change"})
        node["start"].as_str(["inclement"])
        rows[key] = WeatherChange(node["change"].as_str([c.value for c in WeatherChange]))
    if sorted(rows) != [1, 2, 3, 4, 5, 6]:
        raise root["table"].fail("rows must be exactly the faces 1-6")
    factor = root["worse_limit_factor"].as_number()
    if not 0.0 < factor <= 1.0:
        raise root["worse_limit_factor"].fail("must be in (0, 1]")
    return WeatherTables(root["chance_default"].as_ints(1, 6), rows, factor)


@dataclass(frozen=True, slots=True)
class WeatherOptions:
    """Variants of the weather rules; defaults are the digest's rulings (§23.7)."""

    worse_reduces_limits: bool = False
    """After worsening, multiply the inclement LOS limits by ``worse_limit_factor`` (0.5:
    6" by day, 3" at night). Default (ruling): "worse" keeps the same limits."""


@dataclass(frozen=True, slots=True)
class WeatherState:
    """The weather now: inclement or not, the change still pending, worse or not (§23.7)."""

    inclement: bool = False
    pending: WeatherChange = WeatherChange.NONE
    """The change that happens at the first activation doubles (NONE once it happened)."""
    worse: bool = False
    """Row 5 after its change: inclement and no longer able to clear."""
    row: int | None = None
    """The 23.7 row rolled or fixed; None when the weather was never inclement."""

    @property
    def label(self) -> str:
        """``clear``, ``inclement``, ``improving``, ``worsening``, ``worse`` or ``cleared``."""
        if not self.inclement:
            return "cleared" if self.row == 2 else "clear"
        if self.worse:
            return "worse"
        return {
            WeatherChange.NONE: "inclement",
            WeatherChange.CLEARS: "improving",
            WeatherChange.WORSENS: "worsening",
        }[self.pending]


WEATHER_LABELS = ("clear", "inclement", "improving", "worsening")
"""Weather a scenario may fix instead of rolling (rows 1/3/4/6, 2 and 5 of 23.7)."""


def weather_for_roll(face: int) -> WeatherState:
    """The weather at the start of the mission for a 1d6 on table 23.7 (§23.7)."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise RulesError(f"a d6 face must be 1..6, got {face!r}")
    return WeatherState(True, weather_tables().rows[face], False, face)


def fixed_weather(label: str) -> WeatherState:
    """A weather state fixed by a scenario: one of :data:`WEATHER_LABELS` (§23.7)."""
    rows = {"inclement": 1, "improving": 2, "worsening": 5}
    if label == "clear":
        return WeatherState()
    if label not in rows:
        raise RulesError(f"weather {label!r} is not one of {list(WEATHER_LABELS)}")
    return weather_for_roll(rows[label])


@dataclass(frozen=True, slots=True)
class MissionConditions:
    """Day or night and the weather of one mission, with the dice that decided them (§22.0)."""

    night: bool
    weather: WeatherState
    night_roll: int | None = None
    """The day/night die, or None when the mission is always day (or fixed)."""
    inclement_roll: int | None = None
    """The inclement-chance die, or None when not rolled."""

    def apply(self, bf: Battlefield) -> Battlefield:
        """``bf`` with its ``night`` and ``inclement_weather`` flags set (§19.11)."""
        return apply_weather(bf, self.weather, night=self.night)


def roll_day_night(dice: Dice, night_on: Collection[int]) -> tuple[bool, int | None]:
    """Night if 1d6 shows one of ``night_on``; no die is rolled when it is empty (§22.0)."""
    if not night_on:
        return False, None
    face = dice.roll(1)[0]
    return face in night_on, face


def roll_weather(
    dice: Dice, inclement_on: Collection[int] | None = None
) -> tuple[WeatherState, int | None]:
    """Roll the inclement chance (default faces: 1) and, if met, table 23.7 (§23.7).

    Returns the state and the chance die (None when ``inclement_on`` is empty: no die).
    """
    faces = weather_tables().chance_default if inclement_on is None else tuple(inclement_on)
    if not faces:
        return WeatherState(), None
    chance = dice.roll(1)[0]
    if chance not in faces:
        return WeatherState(), chance
    return weather_for_roll(dice.roll(1)[0]), chance


def roll_conditions(
    dice: Dice,
    *,
    night_on: Collection[int] = (),
    inclement_on: Collection[int] | None = None,
) -> MissionConditions:
    """Day/night then weather for one mission, in that order (§22.0 step 1, §23.7)."""
    night, night_roll = roll_day_night(dice, night_on)
    weather, chance = roll_weather(dice, inclement_on)
    return MissionConditions(night, weather, night_roll, chance)


def weather_after_activation(state: WeatherState, faces: Sequence[int]) -> WeatherState:
    """The weather after one activation roll ``faces``: doubles trigger the change (§23.7).

    Only the first doubles of the mission matter; without a pending change nothing happens.
    """
    if len(faces) != 2 or faces[0] != faces[1] or state.pending is WeatherChange.NONE:
        return state
    if state.pending is WeatherChange.CLEARS:
        return replace(state, inclement=False, pending=WeatherChange.NONE)
    return replace(state, pending=WeatherChange.NONE, worse=True)


def weather_on_doubles(state: WeatherState, dice: Dice) -> tuple[WeatherState, tuple[int, int]]:
    """Roll one activation pair (2d6) and apply it to the weather (§23.7, §14.0).

    A drop-in for the activation roll: the caller uses the returned faces for activation
    (re-rolling doubles as usual, ruling decision 42: the doubles count for the weather first).
    """
    a, b = dice.roll(2)
    return weather_after_activation(state, (a, b)), (a, b)


def apply_weather(bf: Battlefield, state: WeatherState, night: bool | None = None) -> Battlefield:
    """``bf`` with ``inclement_weather`` (and, if given, ``night``) from the weather (§19.11)."""
    new_night = bf.night if night is None else night
    if bf.inclement_weather == state.inclement and bf.night == new_night:
        return bf
    return replace(bf, night=new_night, inclement_weather=state.inclement)


def weather_los_limit(
    state: WeatherState, night: bool, options: WeatherOptions | None = None
) -> float | None:
    """The weather's LOS limit for a viewer without EWS, None when clear (§19.11, §23.7)."""
    if not state.inclement:
        return None
    cfg = sight_config()
    limit = cfg.weather_night if night else cfg.weather_day
    if state.worse and options is not None and options.worse_reduces_limits:
        limit *= weather_tables().worse_limit_factor
    return limit
